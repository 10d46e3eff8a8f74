"""The C back end's emitter: checked statements and expressions as C (see :mod:`.native`).

One more pass over the checked syntax tree, beside :mod:`.codegen` (Python).  It makes, for one
combination of switch settings, a C function for each function the Python back end makes per
variant (each place a procedure resumes, each decision's listing, each call's new locals, each
`finish`), with the same signatures, so the runtime's loop (:meth:`interpreter.runtime.State._run`)
runs either, or a mix.  The C works on the Python state's own data: the state stays plain data.

Inside a function every scalar value is an ``int64_t`` (see ``crt.h``): numbers are checked
against the language's bound at every operation, the step budget is spent as the generated
Python spends it, and every statement notes its *site*, the spec place an error there is
reported at.  A construct the emitter does not write raises :class:`Unsupported`, naming it and
its place: that function then stays Python (or, with ``RULES_BACKEND=c``, the load refuses).
Each construct has one method; the passes over statements and expressions end in
``assert_never``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, assert_never

import attrs

from . import ast as A
from .ast import MAX_INT
from .builtins import BUILTIN_HELPERS
from .codegen import HELPERS, STEP_LIMIT, Frame, data_sized, weight
from .compiler import Conjunct, Level, ProcedureCompiler, _may_grow
from .notation import CHANCE_PLAYER
from .symbols import Kind
from .types import (
    ANY,
    BOOL,
    INT,
    NONE,
    PLAYER,
    TEXT,
    AnyType,
    BoolType,
    EntityType,
    GraphType,
    IntType,
    ListType,
    NoneType,
    PieceType,
    PlayerType,
    SwitchType,
    TextType,
    Type,
    ZoneType,
    element_type,
)

_LOOPS = (A.While, A.Loop, A.For)
#: What generated C calls to run the Python back end's function of a function it gave up on:
#: ``FALLBACK(index, st, env[, decision])`` (set by :mod:`.native`, which knows the games).
FALLBACK: Any = None
#: User functions are written out in place, at most this deep.
MAX_INLINE_DEPTH = 24


class Unsupported(Exception):
    """A construct the C emitter does not write (yet): its name and spec place."""

    def __init__(self, what: str, pos: A.Pos):
        super().__init__(f"{what} ({pos.path}:{pos.line})")
        self.what = what
        self.pos = pos


@attrs.frozen
class CVal:
    """A C expression: its text, its checker type, and whether it is an ``int64_t`` scalar
    (``obj`` False) or a borrowed ``PyObject *`` list kept alive by the call."""

    text: str
    type: Type
    obj: bool = False
    #: Never none (``RT_NONE``): a truth test or an order of it need not look for none.
    sure: bool = False
    #: Its value where it is known when the C is written (a number, yes/no as 1 or 0, a text's id): the
    #: same for every run of this settings variant, so what it decides is decided here.
    known: int | None = None


def _known(value: int, t: Type) -> CVal:
    """A value known when the C is written, as C text."""
    text = f"INT64_C({value})" if value >= 0 else f"(-INT64_C({-value}))"
    return CVal(text, t, sure=True, known=value)


_KNOWN_TEXT = re.compile(r"INT64_C\((\d+)\)|\(-INT64_C\((\d+)\)\)|(\d+)")


def _known_of(text: str) -> int | None:
    """The value of C text written by :func:`_known` (or a plain number), None for any other text."""
    m = _KNOWN_TEXT.fullmatch(text)
    if m is None:
        return None
    if m.group(2) is not None:
        return -int(m.group(2))
    return int(m.group(1) if m.group(1) is not None else m.group(3))


#: A C name bound to a spec variable in generated code: (C name, type, held as an object).
Bound = tuple[str, Type, bool]
Scope = Mapping[str, Bound]


class LocalsConflict(Exception):
    """A leaf procedure whose locals cannot all be C variables (a name holding values of two kinds, or read in a
    way only its env dict answers): it is written with an env dict instead (see :meth:`Emitter.leaf_c_function`)."""


@attrs.define
class CLocal:
    """A local of a leaf procedure held in a C variable: its C name, how its values are held (:func:`_local_kind`;
    None while only none was written), and whether none was ever written to it."""

    cname: str
    kind: str | None
    none_written: bool = False


def _local_kind(t: Type) -> str | None:
    """How a local holding values of a type is held in C: ``int`` (numbers, seats, pieces), ``bool``, ``text``,
    ``key:<table>`` (int64 scalars), ``list`` (a ``PyObject *``); None for none, and for what C does not hold."""
    match t:
        case IntType() | PlayerType() | PieceType():
            return "int"
        case BoolType():
            return "bool"
        case TextType() | SwitchType():
            return "text"
        case EntityType():
            return f"key:{t.table}"
        case ListType():
            return "list"
        case NoneType() | AnyType() | ZoneType() | GraphType():
            return None
        case _:
            assert_never(t)


def _c_string(text: str) -> str:
    """A C string literal of a text (UTF-8 bytes, escaped)."""
    out = []
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        if ch.isalnum() or ch in " _-.,:;/()[]{}<>=+*!?'#&%@^|~$":
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def _comment(text: str) -> str:
    """A name as the text of a C comment (ASCII letters, digits and underscores only)."""
    return "".join(c if c.isascii() and (c.isalnum() or c == "_") else "?" for c in text)


def _listing_charge(n: str, cost: int) -> str:
    """C text charging ``n`` values times ``cost`` to a listing's own count ``_n``: Stuck past
    :data:`~.codegen.STEP_LIMIT`, as :meth:`.compiler.ProcedureCompiler.charged` charges a decision of
    several values (not the run's budget)."""
    return (f"if (({n}) > {STEP_LIMIT} || (_n += ({n}) * {cost}) > {STEP_LIMIT}) {{ rt_stuck(); goto fail; }}")


def _scalar(t: Type) -> bool:
    """Whether values of a type are held as ``int64_t``."""
    return isinstance(t, (IntType, BoolType, PlayerType, PieceType, EntityType, TextType, NoneType, SwitchType))


class Emitter:
    """C text for one settings variant of a game (see the module docstring)."""

    def __init__(self, game: Any, settings: Mapping[str, str], compilers: Sequence[ProcedureCompiler]):
        self.game = game
        self.settings = dict(settings)
        self.compilers = list(compilers)
        self.checked = game.checked
        self.symbols = game.symbols
        self.pygen = compilers[0].gen if compilers else None
        self.texts: dict[str, int] = {}
        #: The entity tables whose keys a text names in a mirror's index (see ``text_key_source``).
        self.text_keys: set[int] = set()
        self.tables: dict[str, int] = {}
        self.names: dict[str, str] = {}
        self.consts: list[Any] = []
        self.sites: list[tuple[A.Pos, tuple[A.Citation, ...]]] = []
        self._site_index: dict[tuple[A.Pos, tuple[A.Citation, ...]], int] = {}
        self.arrays: list[str] = []
        self._columns: dict[tuple[str, str], str] = {}
        self._key_index: dict[str, dict[tuple[type, Any], int]] = {}
        #: Mirrored tables and zones: name -> (mirror index, dimensions, kind of values).
        self.mirrors: dict[str, tuple[int, list[int], int]] = {}
        self.zone_mirrors: dict[str, tuple[int, list[int]]] = {}
        #: The graphs whose maps the module reads, by index.
        self.graphs: dict[str, int] = {}
        self.functions: list[str] = []
        self.exported: list[tuple[str, str]] = []
        self.leaf_defined: dict[str, str] = {}
        #: Leaf procedures written with their locals as C variables: name -> (C function, parameters' kinds), or
        #: None where they cannot be (:meth:`leaf_c_function`).
        self.leaf_c_defined: dict[str, tuple[str, list[str]] | None] = {}
        #: The locals of the leaf procedure being written with C variables (None: the env dict's).
        self.c_locals: dict[str, CLocal] | None = None
        #: Code filled in once a leaf's locals are all known: marker -> function of them giving C text.
        self._c_late: dict[str, Callable[[dict[str, CLocal]], str]] = {}
        self._counter = 0
        self.skipped: list[Unsupported] = []
        # per function being written
        self.cite_stack: list[tuple[str, tuple[A.Citation, ...]]] = []
        self.pc: ProcedureCompiler | None = None
        self._inline_depth = 0
        #: The locals the function being written keeps a copy of: name -> (C name, type).
        self.cached_locals: dict[str, tuple[str, Type]] = {}
        #: The module's held reads of locals (crt.h ``LS``): (procedure, name, value kind) -> slot; the writes
        #: made, (procedure, name, value kind or None for a value no slot holds); each procedure's ``LD`` index.
        self.local_slots: dict[tuple[str, str, int], int] = {}
        self.local_writes: set[tuple[str, str, int | None]] = set()
        self.local_envs: dict[str, int] = {}
        self.local_nprocs = 0
        #: The parameters held as a new env dict is made for a procedure: (procedure, name, value kind).
        self.local_holds: set[tuple[str, str, int]] = set()
        #: The Python back end's functions run where a C function gives up (see :meth:`function`).
        self.fallbacks: list[Any] = []
        #: In a function that changes nothing (a listing): the mirrors it has read, each one's array found once
        #: and held in a C variable (C name -> declaration); None in a function that may change the state.
        self.held_mirrors: dict[str, str] | None = None
        #: The C variables holding a value that is never none (a function's parameter given such a value).
        self.sure_names: set[str] = set()
        #: In a listing: the C variables of functions' parameters given a value the same at every read of the
        #: listing, each with what names that value (see :meth:`invariant`).
        self.invariants: dict[str, tuple[Any, ...]] = {}
        #: In a listing: the values computed once (see :meth:`held_value`), by what names them -> C name.
        self.held_values: dict[tuple[Any, ...], str] = {}

    # ------------------------------------------------------------ plumbing
    def fresh(self, base: str = "t") -> str:
        """A new C identifier (a spec name's ASCII letters and digits, then a number)."""
        self._counter += 1
        safe = "".join(c for c in base if c.isascii() and (c.isalnum() or c == "_"))[:24]
        return f"_{safe}{self._counter}"

    def name(self, text: str) -> str:
        """The C variable holding an interned Python str (a state's, zone's or local's name)."""
        c = self.names.get(text)
        if c is None:
            c = self.names[text] = f"N{len(self.names)}"
        return c

    def const(self, value: Any) -> str:
        """A C expression of a Python object handed to the module at setup (borrowed)."""
        self.consts.append(value)
        return f"PyTuple_GET_ITEM(CONSTS, {len(self.consts) - 1})"

    def text_id(self, text: str) -> int:
        """The index of a text in the module's text table."""
        i = self.texts.get(text)
        if i is None:
            i = self.texts[text] = len(self.texts)
        return i

    def table_id(self, table: str) -> int:
        """The index of an entity table (its keys) in the module's key tables."""
        i = self.tables.get(table)
        if i is None:
            i = self.tables[table] = len(self.tables)
        return i

    def site(self, pos: A.Pos) -> str:
        """The C statement noting the spec place of what runs next (with the citations in force)."""
        key = (pos, self.current_citations())
        i = self._site_index.get(key)
        if i is None:
            i = self._site_index[key] = len(self.sites)
            self.sites.append(key)
        return f"r->site = {i};"

    def current_citations(self) -> tuple[A.Citation, ...]:
        """The citations in force: the enclosing rules', innermost first, then the procedure's."""
        out: list[A.Citation] = []
        for _, cites in reversed(self.cite_stack):
            out.extend(cites)
        return tuple(out)

    def type_of(self, e: A.Expr) -> Type:
        """The checker's type of an expression."""
        t: Type = self.checked.type_of(e)
        return t

    # ------------------------------------------------------- boxing values
    def box(self, v: CVal, pos: A.Pos) -> str:
        """C text of a new reference to the Python value of ``v`` (NULL on error)."""
        t = v.type
        if v.obj:
            return f"Py_NewRef({v.text})"
        match t:
            case IntType() | PlayerType() | PieceType():
                return f"rt_int_obj({v.text})"
            case BoolType():
                return f"rt_bool_obj({v.text})"
            case EntityType():
                return f"rt_key_obj({self.table_id(t.table)}, {v.text})"
            case TextType() | SwitchType():
                return f"rt_text_obj({v.text})"
            case NoneType():
                return f"({v.text}, Py_NewRef(Py_None))"
            case AnyType() | ZoneType() | ListType() | GraphType():
                raise Unsupported(f"a value of type {t} held in C", pos)
            case _:
                assert_never(t)

    def unbox(self, obj: str, t: Type, pos: A.Pos) -> CVal:
        """The value of a borrowed Python object (C text) as a value of type ``t``."""
        v = self.fresh("v")
        match t:
            case IntType() | PlayerType() | PieceType():
                return CVal(f"({{ int64_t {v}; if (rt_int_of({obj}, &{v}) < 0) goto fail; {v}; }})", t)
            case BoolType():
                o = self.fresh("o")
                return CVal(f"({{ PyObject *{o} = {obj}; int64_t {v} = {o} == Py_True ? 1 : {o} == Py_False ? 0 : "
                            f"{o} == Py_None ? RT_NONE : PyObject_IsTrue({o}); if ({v} < 0 && {v} != RT_NONE) "
                                f"goto fail; "
                            f"{v}; }})", t)
            case EntityType():
                return CVal(f"({{ int64_t {v}; if (rt_key_of({self.table_id(t.table)}, {obj}, &{v}) < 0) goto fail; "
                            f"{v}; }})", t)
            case TextType() | SwitchType():
                return CVal(f"({{ int64_t {v}; if (rt_text_of({obj}, &{v}) < 0) goto fail; {v}; }})", t)
            case NoneType():
                return CVal("RT_NONE", t)
            case ListType():
                o = self.fresh("o")
                return CVal(f"({{ PyObject *{o} = {obj}; if (!PyList_Check({o})) {{ PyErr_SetString(PyExc_TypeError, "
                            f"\"a list was expected\"); goto fail; }} {o}; }})", t, obj=True)
            case AnyType() | ZoneType() | GraphType():
                raise Unsupported(f"a value of type {t} held in C", pos)
            case _:
                assert_never(t)

    def family(self, t: Type) -> str:
        """Which values of two types compare as the same ``int64_t`` (numbers, keys of one
        table, texts)."""
        match t:
            case IntType() | BoolType() | PlayerType() | PieceType() | NoneType():
                return "num"
            case EntityType():
                return f"key:{t.table}"
            case TextType() | SwitchType():
                return "text"
            case AnyType() | ZoneType() | ListType() | GraphType():
                return f"other:{t}"
            case _:
                assert_never(t)

    # ---------------------------------------------------------- expressions
    def expr(self, e: A.Expr, sc: Scope) -> CVal:
        """C text of an expression."""
        match e:
            case A.Literal():
                return self.literal(e)
            case A.Name():
                return self.name_value(e, sc)
            case A.ListLit():
                return self.list_literal(e, sc)
            case A.Unary():
                return self.unary(e, sc)
            case A.Binary():
                return self.binary(e, sc)
            case A.Conditional():
                return self.conditional(e, sc)
            case A.Call():
                return self.call(e, sc)
            case A.Index():
                return self.index(e, sc)
            case A.Attr():
                return self.attr(e, sc)
            case A.Aggregate():
                return self.aggregate(e, sc)
            case A.Comprehension():
                return self.comprehension(e, sc)
            case _:
                assert_never(e)

    def scalar(self, e: A.Expr, sc: Scope) -> CVal:
        """C text of an expression held as an ``int64_t``."""
        v = self.expr(e, sc)
        if v.obj:
            raise Unsupported(f"a list where a single value is needed ({v.type})", e.pos)
        return v

    def truth(self, e: A.Expr, sc: Scope) -> str:
        """C text of a condition: 1 or 0 (none is false)."""
        v = self.expr(e, sc)
        if v.obj:
            return f"(PyList_GET_SIZE({v.text}) != 0)"
        if v.known is not None and isinstance(v.type, (BoolType, IntType, PlayerType, PieceType)):
            return "1" if v.known != 0 else "0"
        if v.sure and isinstance(v.type, (BoolType, IntType, PlayerType, PieceType)):
            return f"({v.text} != 0)"
        if isinstance(v.type, BoolType):
            t = self.fresh("b")
            return f"({{ int64_t {t} = {v.text}; {t} != 0 && {t} != RT_NONE; }})"
        if isinstance(v.type, (IntType, PlayerType, PieceType)):
            t = self.fresh("b")
            return f"({{ int64_t {t} = {v.text}; {t} != 0 && {t} != RT_NONE; }})"
        raise Unsupported(f"a condition of type {v.type}", e.pos)

    def literal(self, e: A.Literal) -> CVal:
        """A literal: a number, yes/no, a text or none."""
        value = e.value
        if value is None:
            return CVal("RT_NONE", NONE)
        if isinstance(value, bool):
            return CVal("1" if value else "0", BOOL, sure=True, known=int(value))
        if isinstance(value, int):
            if not -MAX_INT <= value <= MAX_INT:
                raise Unsupported("a number beyond the language's bound", e.pos)
            return _known(value, INT)
        return _known(self.text_id(value), TEXT)

    def name_value(self, e: A.Name, sc: Scope) -> CVal:
        """A name read as a value, by what the checker found it stands for."""
        ident = e.ident
        kind = self.checked.ref(e)
        t = self.type_of(e)
        match kind:
            case Kind.LOCAL:
                if ident in sc:
                    cname, bt, obj = sc[ident]
                    known = None if obj else _known_of(cname)  # (a function's parameter given a known value)
                    return CVal(cname, bt, obj, sure=known is not None or cname in self.sure_names, known=known)
                if self.c_locals is not None:
                    return self.c_local_read(ident, t)
                if isinstance(t, NoneType):  # (let x = none, then x = 3: the checker's type of x; C knows no more)
                    raise Unsupported("a local whose type is none", e.pos)
                if not _scalar(t):
                    return self.kept_list(f"rt_local(r, {self.name(ident)})", t, e.pos)
                read = self.local_read(ident, t, e.pos)
                held = self.cached_locals.get(ident)
                if held is None:
                    held = self.cached_locals[ident] = (self.fresh("L_" + ident), t)
                if held[1] != t:
                    return read
                return CVal(f"({{ if (!{held[0]}_ok) {{ {held[0]} = {read.text}; {held[0]}_ok = 1; }} "
                    f"{held[0]}; }})", t)
            case Kind.SPECIAL:
                if ident == "player_count":
                    return CVal("r->n", INT, sure=True)
                if ident == "first_player":
                    return _known(0, PLAYER)
                if ident == "players":
                    return self.as_list(e, sc)
                raise Unsupported(f"the name {ident}", e.pos)
            case Kind.STATE:
                return self.state_read(ident, (), sc, t, e.pos)
            case Kind.TABLE | Kind.ENUM:
                return self.as_list(e, sc)
            case Kind.SWITCH:
                return _known(self.text_id(self.settings[ident]), TEXT)
            case Kind.SETTING:
                return _known(int(self.settings[ident]), INT)
            case Kind.ZONE | Kind.GRAPH:
                raise Unsupported(f"a {kind.value if hasattr(kind, 'value') else kind} as a value", e.pos)
            case Kind.PIECES | Kind.SCOPE | Kind.LIMIT | Kind.FUNCTION | Kind.PROCEDURE | Kind.BUILTIN:
                raise AssertionError(f"the checker lets no {kind} stand as a value: {ident}")
            case _:
                assert_never(kind)

    def local_read(self, ident: str, t: Type, pos: A.Pos) -> CVal:
        """A scalar local read from the running procedure's locals: the value held for it since it was last read
        or written, while the env dict is unchanged (crt.h ``RT_LOCAL_HELD``), else read and held (in a leaf
        procedure whose locals are C variables: the variable)."""
        if self.c_locals is not None:
            return self.c_local_read(ident, t)
        read = self.unbox(f"({{ PyObject *_l = rt_local(r, {self.name(ident)}); if (!_l) goto fail; _l; }})", t, pos)
        kind = self.value_kind(t)
        if kind is None:
            return read
        proc, d = self.local_env()
        i = self.local_slots.setdefault((proc, ident, kind), len(self.local_slots))
        v = self.fresh("lv")
        return CVal(f"({{ int64_t {v}; if (RT_LOCAL_HELD(r, LD[{d}], LS[{i}])) {v} = LS[{i}].v; "
                    f"else {{ {v} = {read.text}; rt_local_held(r, &LD[{d}], &LS[{i}], {v}); }} {v}; }})", t)

    def local_env(self) -> tuple[str, int]:
        """The procedure whose locals the function being written reads, and the index of its ``LocalEnv``."""
        assert self.pc is not None
        return self.pc.decl.name, self.local_env_of(self.pc.decl.name)

    def local_env_of(self, proc: str) -> int:
        """The index of a procedure's ``LocalEnv``: its index in the program (what a frame holds)."""
        assert self.pc is not None
        index: dict[str, int] = self.pc.x.ctx.proc_index
        self.local_nprocs = len(index)
        return self.local_envs.setdefault(proc, index[proc])

    def local_source(self) -> list[str]:
        """The C declarations of the held reads of locals and of what each write of a local does to them: sets
        the name's slot of the value's kind, drops its others (``LW_<proc>_<name>_<kind>(value)``,
        ``LWO_<proc>_<name>()``)."""
        slots = sorted(self.local_slots.items(), key=lambda item: (self.local_envs[item[0][0]], item[1]))
        starts = [0] * (self.local_nprocs + 1)
        for (proc, _, _), _ in slots:
            starts[self.local_envs[proc] + 1] += 1
        for d in range(self.local_nprocs):
            starts[d + 1] += starts[d]
        out = [f"static LocalSlot LS[{max(1, len(self.local_slots))}];",
               f"static LocalEnv LD[{max(1, self.local_nprocs)}];",
               f"static PyObject **const LSN[{max(1, len(slots))}] = "
               f"{{{', '.join(f'&{self.name(n)}' for (_, n, _), _ in slots) or 'NULL'}}};",
               f"static const int LSQ[{max(1, len(slots))}] = {{{', '.join(str(i) for _, i in slots) or '0'}}};",
               f"static const int LDO[{len(starts)}] = {{{', '.join(map(str, starts))}}};"]
        for proc, name, kind in sorted(self.local_writes, key=lambda w: (w[0], w[1], -1 if w[2] is None else w[2])):
            c, d = self.name(name), self.local_envs[proc]
            parts = [f"LS[{i}].gen = LD[{d}].gen; LS[{i}].v = (x);" if k == kind else f"LS[{i}].gen = 0;"
                     for (p, n, k), i in self.local_slots.items() if n == name and p == proc]
            head = f"LW_{d}_{c}_{kind}(x)" if kind is not None else f"LWO_{d}_{c}()"
            out.append(f"#define {head} do {{ {' '.join(parts)} }} while (0)")
        for proc, name, kind in sorted(self.local_holds):
            d, i = self.local_envs[proc], self.local_slots.get((proc, name, kind))
            held = f"LS[{i}].gen = LD[{d}].gen; LS[{i}].v = (x);" if i is not None else "(void)(x);"
            out.append(f"#define LH_{d}_{self.name(name)}_{kind}(x) do {{ {held} }} while (0)")
        return out

    def kept_list(self, borrowed: str, t: Type, pos: A.Pos) -> CVal:
        """A list read from the state or the locals (a new reference kept for the call)."""
        o = self.fresh("o")
        return CVal(f"({{ PyObject *{o} = {borrowed}; if (!{o}) goto fail; if (!PyList_Check({o})) {{ "
                    f"PyErr_SetString(PyExc_TypeError, \"a list was expected\"); goto fail; }} "
                    f"{o} = rt_keep(r, Py_NewRef({o})); if (!{o}) goto fail; {o}; }})", t, obj=True)

    def state_value(self, name: str, key: str, t: Type, pos: A.Pos) -> CVal:
        """The value of a counter or var at a key (C text of a new reference to the key)."""
        got = f"rt_get(({{ PyObject *_t = rt_table(r, {self.name(name)}); if (!_t) goto fail; _t; }}), {key})"
        if not _scalar(t):
            if isinstance(t, ListType):
                return self.kept_list(got, t, pos)
            raise Unsupported(f"a value of type {t} in a state", pos)
        return self.unbox(f"({{ PyObject *_g = {got}; if (!_g) goto fail; _g; }})", t, pos)

    # --------------------------------------------------------------- mirrors
    def dims_of(self, dims: Sequence[str]) -> list[int] | None:
        """The dimensions of a table or zone as the runtime's mirrors take them (-1 a seat, else an
        entity table's index); None if one is neither."""
        out = []
        for d in dims:
            if d == "player":
                out.append(-1)
            elif d in self.symbols.graphs:
                out.append(self.table_id(self.symbols.graphs[d].nodes))
            elif d in self.game.table_keys:
                out.append(self.table_id(d))
            else:
                return None
        return out

    def value_kind(self, t: Type | None) -> int | None:
        """How a mirror holds values of a type (see ``rt_unbox_kind``), None if it does not."""
        match t:
            case IntType() | PlayerType() | PieceType():
                return 0
            case BoolType():
                return 1
            case TextType():
                return 2
            case EntityType():
                return 3 + self.table_id(t.table)
            case _:
                return None

    def mirror(self, name: str) -> tuple[int, list[int], int] | None:
        """The mirror of a counter's or var's table, if it can have one."""
        got = self.mirrors.get(name)
        if got is not None:
            return got
        decl = self.symbols.states[name]
        dims = self.dims_of(decl.dims)
        kind = self.value_kind(self.symbols.declared_state_type(decl))
        if dims is None or kind is None:
            return None
        got = self.mirrors[name] = (len(self.mirrors), dims, kind)
        return got

    def zone_mirror(self, name: str) -> tuple[int, list[int]] | None:
        """The mirror of a zone's lists, if it can have one."""
        got = self.zone_mirrors.get(name)
        if got is None:
            dims = self.dims_of(self.symbols.zones[name].dims)
            if dims is None:
                return None
            got = self.zone_mirrors[name] = (len(self.zone_mirrors), dims)
        return got

    def flat_index(self, dims: list[int], keys: Sequence[CVal], names: Sequence[str]) -> tuple[str, str] | None:
        """(C test that each key is in its dimension, C text of the flat index), or None where a
        key's type is not its dimension's (the dict is read then)."""
        tests, index = [], "0"
        for d, k, c in zip(dims, keys, names):
            if d < 0:
                if self.family(k.type) != "num":
                    return None
                size = "r->n"
            elif isinstance(k.type, TextType):  # a text naming a key: its index, found by the text's id
                table = next(t for t, i in self.tables.items() if i == d)
                size = str(len(self.game.table_keys[table]))
                self.text_keys.add(d)
                tests.append(f"{c} >= 0 && {c} < TK{d}_N && TK{d}[{c}] >= 0")
                index = f"({index}) * {size} + TK{d}[{c}]"
                continue
            else:
                if not (isinstance(k.type, EntityType) and self.tables.get(k.type.table) == d):
                    return None
                size = str(len(self.game.table_keys[k.type.table]))
            tests.append(f"{c} >= 0 && {c} < {size}")
            index = f"({index}) * {size} + {c}"
        return " && ".join(tests) or "1", index

    def state_read(self, name: str, args: tuple[A.Expr, ...], sc: Scope, t: Type, pos: A.Pos) -> CVal:
        """The value of a counter or var at its keys: from the table's mirror where it has one,
        else (or for a key the mirror does not hold) from the dict, as the Python back end reads it (in a
        listing, at keys the same at every read: once, see :meth:`held_value`)."""
        names = [self.invariant(a, sc) for a in args]
        read = self._state_read(name, args, sc, t, pos)
        if all(n is not None for n in names):
            return self.held_value(("state", name, *names), read)
        return read

    def _state_read(self, name: str, args: tuple[A.Expr, ...], sc: Scope, t: Type, pos: A.Pos) -> CVal:
        """:meth:`state_read`, each read afresh."""
        keys = [self.expr(a, sc) for a in args]
        mirror = self.mirror(name)
        names = [self.fresh("k") for _ in keys]
        held = [CVal(c, k.type, k.obj) for c, k in zip(names, keys)]
        decls = " ".join(f"{'PyObject *' if k.obj else 'int64_t '}{c} = {k.text};" for c, k in zip(names, keys))
        boxed = self.key_of(held, pos)
        slow = self.state_value(name, boxed, t, pos)
        place = self.flat_index(mirror[1], held, names) if mirror is not None and not any(k.obj for k in keys) \
            else None
        if mirror is None or place is None or not _scalar(t) or self.value_kind(t) is None \
                or self.family(t) != self.family(self._kind_type(mirror[2], t)):
            if slow.obj:
                return CVal(f"({{ {decls} {slow.text}; }})", t, obj=True)
            return CVal(f"({{ {decls} {slow.text}; }})", t)
        i, dims, kind = mirror
        test, index = place
        m, v = self.fresh("m"), self.fresh("v")
        call = f"rt_mirror(r, &VM[{i}], {self.name(name)}, {len(dims)}, VD{i}, {kind})"
        found = f"int64_t *{m} = {call}; if (!{m}) goto fail;"
        if self.held_mirrors is not None:  # (found at its first read: held, never NULL after)
            self.held_mirrors[f"_HM{i}"] = f"int64_t *_HM{i} = NULL; (void)_HM{i};"
            found = f"int64_t *{m} = _HM{i}; if (!{m} && !({m} = _HM{i} = {call})) goto fail;"
        return CVal(f"({{ {decls} {found} "
                    f"int64_t {v}; if ({m} != RT_MIRROR_OFF && {test}) {v} = {m}[{index}]; "
                    f"else {v} = {slow.text}; {v}; }})", t)

    def _kind_type(self, kind: int, t: Type) -> Type:
        """A type whose values a mirror holds as this kind (for comparing families)."""
        kinds: dict[int, Type] = {0: INT, 1: BOOL, 2: TEXT}
        return kinds.get(kind, t)

    def key_of(self, keys: Sequence[CVal], pos: A.Pos) -> str:
        """C text of a new reference to the key made of values already computed (None, one, a tuple)."""
        if not keys:
            return "Py_NewRef(Py_None)"
        boxed = [self.box(k, pos) for k in keys]
        if len(boxed) == 1:
            return boxed[0]
        items = self.fresh("kk")
        fill = " ".join(f"{items}[{i}] = {b};" for i, b in enumerate(boxed))
        return f"({{ PyObject *{items}[{len(boxed)}]; {fill} rt_tuple({len(boxed)}, {items}); }})"

    def text_key_source(self) -> list[str]:
        """Per entity table a text may name a key of: for each text of the module, the index of the key it
        is (a key that is that very text), or -1."""
        out = []
        for d in sorted(self.text_keys):
            table = next(t for t, i in self.tables.items() if i == d)
            at = {k: i for i, k in enumerate(self.game.table_keys[table]) if type(k) is str}
            found = [at.get(text, -1) for text in self.texts] or [-1]
            out.append(f"#define TK{d}_N {len(self.texts)}")
            out.append(f"static const int32_t TK{d}[{len(found)}] = {{{', '.join(map(str, found))}}};")
        return out

    def mirror_source(self) -> list[str]:
        """The C declarations of the mirrors."""
        out = []
        for name, (i, dims, _kind) in self.mirrors.items():
            out.append(f"static const int VD{i}[{max(1, len(dims))}] = {{{', '.join(map(str, dims)) or '0'}}}; "
                       f"/* {_comment(name)} */")
        out.append(f"static Mirror VM[{max(1, len(self.mirrors))}];")
        for name, (i, dims) in self.zone_mirrors.items():
            out.append(f"static const int ZD{i}[{max(1, len(dims))}] = {{{', '.join(map(str, dims)) or '0'}}}; "
                       f"/* {_comment(name)} */")
        out.append(f"static Mirror ZM[{max(1, len(self.zone_mirrors))}];")
        return out

    def key(self, args: tuple[A.Expr, ...], sc: Scope, pos: A.Pos) -> str:
        """C text of a new reference to the key of an indexed state: None, a value or a tuple."""
        if not args:
            return "Py_NewRef(Py_None)"
        boxed = [self.box(self.expr(a, sc), a.pos) for a in args]
        if len(boxed) == 1:
            return boxed[0]
        items = self.fresh("k")
        fill = " ".join(f"{items}[{i}] = {b};" for i, b in enumerate(boxed))
        return f"({{ PyObject *{items}[{len(boxed)}]; {fill} rt_tuple({len(boxed)}, {items}); }})"

    def index(self, e: A.Index, sc: Scope) -> CVal:
        """``name[keys]``: a state's value, or whether a limit is unused."""
        kind = self.checked.ref(e)
        if kind is Kind.STATE:
            return self.state_read(e.base, e.args, sc, self.type_of(e), e.pos)
        if kind is Kind.LIMIT:  # (the set read after the key is made: making it runs no Python code)
            k, u = self.fresh("k"), self.fresh("u")
            found = f"rt_limit(r, {self.name(e.base)})"
            if self.held_mirrors is not None:  # a listing writes nothing: the limit's set stays, found once
                held = f"_HL{self.name(e.base)}"
                self.held_mirrors[held] = f"PyObject *{held} = NULL; (void){held};"
                found = f"({held} ? {held} : ({held} = {found}))"
            names = [self.invariant(a, sc) for a in e.args]
            free = CVal(f"({{ PyObject *{k} = {self.key(e.args, sc, e.pos)}; if (!{k}) goto fail; "
                        f"PyObject *{u} = {found}; "
                        f"int _in = {u} ? PySet_Contains({u}, {k}) : -1; "
                        f"Py_DECREF({k}); if (_in < 0) goto fail; (int64_t)!_in; }})", BOOL)
            if all(n is not None for n in names):
                return self.held_value(("limit", e.base, *names), free)
            return free
        raise Unsupported(f"a {kind} indexed as a value", e.pos)

    def zone_list(self, e: A.Expr, sc: Scope) -> str:
        """C text of the live list of piece ids of a zone expression (borrowed)."""
        if isinstance(e, A.Index) and self.checked.ref(e) is Kind.ZONE:
            keys = [self.expr(a, sc) for a in e.args]
            names = [self.fresh("k") for _ in keys]
            held = [CVal(c, k.type, k.obj) for c, k in zip(names, keys)]
            decls = " ".join(f"{'PyObject *' if k.obj else 'int64_t '}{c} = {k.text};" for c, k in zip(names, keys))
            slow = f"rt_zone(r, {self.name(e.base)}, {self.key_of(held, e.pos)})"
            mirror = self.zone_mirror(e.base)
            place = self.flat_index(mirror[1], held, names) if mirror is not None and not any(k.obj for k in keys) \
                else None
            if mirror is None or place is None:
                return f"({{ {decls} PyObject *_z = {slow}; if (!_z) goto fail; _z; }})"
            i, dims = mirror
            test, index = place
            zm, z = self.fresh("zm"), self.fresh("z")
            call = f"rt_zone_mirror(r, &ZM[{i}], {self.name(e.base)}, {len(dims)}, ZD{i})"
            found = f"PyObject **{zm} = {call}; if (!{zm}) goto fail;"
            if self.held_mirrors is not None:  # (found at its first read: held, never NULL after)
                self.held_mirrors[f"_HZ{i}"] = f"PyObject **_HZ{i} = NULL; (void)_HZ{i};"
                found = f"PyObject **{zm} = _HZ{i}; if (!{zm} && !({zm} = _HZ{i} = {call})) goto fail;"
            return (f"({{ {decls} {found} "
                    f"PyObject *{z} = ({zm} != RT_ZONES_OFF && {test}) ? {zm}[{index}] : NULL; "
                    f"if (!{z}) {z} = {slow}; if (!{z}) goto fail; {z}; }})")
        if isinstance(e, A.Name) and self.checked.ref(e) is Kind.ZONE:
            return (f"({{ PyObject *_z = rt_zone(r, {self.name(e.ident)}, Py_NewRef(Py_None)); if (!_z) goto "
                    f"fail; _z; }})")
        raise Unsupported("a zone given as a value", e.pos)

    def zone_target(self, e: A.Expr, sc: Scope) -> tuple[str, str, bool]:
        """(C name of the zone's name, C text of a new reference to its key, whether it is hidden)."""
        if isinstance(e, A.Index) and self.checked.ref(e) is Kind.ZONE:
            return self.name(e.base), self.key(e.args, sc, e.pos), bool(self.game.hidden_zones[e.base])
        if isinstance(e, A.Name) and self.checked.ref(e) is Kind.ZONE:
            return self.name(e.ident), "Py_NewRef(Py_None)", bool(self.game.hidden_zones[e.ident])
        raise Unsupported("a zone given as a value", e.pos)

    def encoded(self, value: Any, t: Type, col: str, pos: A.Pos) -> str:
        """C text of one value of component data as an ``int64_t`` of type ``t``."""
        if value is None:
            return "RT_NONE"
        match t:
            case IntType() | PlayerType() | PieceType():
                if type(value) is not int or not -MAX_INT <= value <= MAX_INT:
                    raise Unsupported(f"column {col} holding {value!r}", pos)
                return f"INT64_C({value})" if value >= 0 else f"(-INT64_C({-value}))"
            case BoolType():
                return "1" if value else "0"
            case TextType():
                if type(value) is not str:
                    raise Unsupported(f"column {col} holding {value!r}", pos)
                return str(self.text_id(value))
            case EntityType():
                index = self.key_index(t.table).get((type(value), value))
                if index is None:
                    raise Unsupported(f"column {col} holding {value!r}", pos)
                return str(index)
            case _:
                raise Unsupported(f"column {col} of type {t}", pos)

    def key_index(self, table: str) -> dict[tuple[type, Any], int]:
        """The row index of each key of an entity table (by type and value: 1 is not True)."""
        self.table_id(table)
        made = self._key_index.get(table)
        if made is None:
            made = self._key_index[table] = {}
            for i, k in enumerate(self.game.table_keys[table]):
                made.setdefault((type(k), k), i)
        return made

    def column(self, kind: str, owner: str, col: str, values: list[Any], t: Type, pos: A.Pos) -> str:
        """The name of a static array holding a column of component data (as ``int64_t``); a column
        of lists is two arrays, ``<name>_OFF`` (where each row's items start) and ``<name>`` (the items)."""
        key = (kind + ":" + owner, col)
        name = self._columns.get(key)
        if name is not None:
            return name
        name = f"COL{len(self._columns)}"
        if isinstance(t, ListType):
            offsets: list[int] = [0]
            items: list[str] = []
            for value in values:
                if not isinstance(value, list):
                    raise Unsupported(f"column {col} holding {value!r}", pos)
                items.extend(self.encoded(v, t.elem, col, pos) for v in value)
                offsets.append(len(items))
            self.arrays.append(f"static const int64_t {name}_OFF[{len(offsets)}] = {{{', '.join(map(str, offsets))}}};")
            self.arrays.append(f"static const int64_t {name}[{max(1, len(items))}] = {{{', '.join(items) or '0'}}};")
        else:
            out = [self.encoded(v, t, col, pos) for v in values]
            self.arrays.append(f"static const int64_t {name}[{max(1, len(out))}] = {{{', '.join(out) or '0'}}};")
        self.arrays.append(f"#define {name}_N {len(values)}")
        self._columns[key] = name
        return name

    def column_of(self, e: A.Attr, sc: Scope) -> tuple[str, str]:
        """(the column's array, C text of the row index of the base, checked to be a row)."""
        base_t = self.type_of(e.base)
        base = self.scalar(e.base, sc)
        t = self.type_of(e)
        if isinstance(base_t, PieceType):
            rows = self.game.piece_rows
            arr = self.column("piece", "", e.name, [row.get(e.name) for row in rows], t, e.pos)
            miss = "PyErr_SetString(PyExc_IndexError, \"list index out of range\")"
        elif isinstance(base_t, EntityType):
            keys = self.game.table_keys[base_t.table]
            rows_by_key = self.game.table_rows[base_t.table]
            arr = self.column("table", base_t.table, e.name, [rows_by_key[k][e.name] for k in keys], t, e.pos)
            miss = "PyErr_SetObject(PyExc_KeyError, Py_None)"
        else:
            raise Unsupported(f"a field of a {base_t}", e.pos)
        b = self.fresh("i")
        return arr, f"({{ int64_t {b} = {base.text}; if ({b} < 0 || {b} >= {arr}_N) {{ {miss}; goto fail; }} {b}; }})"

    def attr(self, e: A.Attr, sc: Scope) -> CVal:
        """A field of a piece or a table row, read from a column of the component data."""
        t = self.type_of(e)
        if isinstance(t, ListType):
            return self.as_list(e, sc)
        arr, row = self.column_of(e, sc)
        return CVal(f"{arr}[{row}]", t)

    def list_literal(self, e: A.ListLit, sc: Scope) -> CVal:
        """A list written out: a new Python list."""
        return self.as_list(e, sc)

    def unary(self, e: A.Unary, sc: Scope) -> CVal:
        """``not x`` or ``-x``."""
        if e.op == "not":
            test = self.truth(e.operand, sc)
            if test in ("0", "1"):
                return CVal("1" if test == "0" else "0", BOOL, sure=True, known=int(test == "0"))
            return CVal(f"(int64_t)!{test}", BOOL, sure=True)
        v = self.scalar(e.operand, sc)
        t = self.fresh("n")
        return CVal(f"({{ int64_t {t}; if (rt_neg({v.text}, &{t}) < 0) goto fail; {t}; }})", INT, sure=True)

    def binary(self, e: A.Binary, sc: Scope) -> CVal:
        """A binary operation, numbers checked against the language's bound."""
        op = e.op
        if op == "..":
            return self.as_list(e, sc)
        if op in ("and", "or"):
            if self.type_of(e.left) != BOOL or self.type_of(e.right) != BOOL:
                raise Unsupported(f"`{op}` of values that are not yes/no", e.pos)
            c = "&&" if op == "and" else "||"
            first = self.truth(e.left, sc)
            if first in ("0", "1"):  # known: decided here (the right side is not evaluated, or is the value)
                if (first == "1") == (op == "or"):
                    return CVal(first, BOOL, sure=True, known=int(first))
                then = self.truth(e.right, sc)
                if then in ("0", "1"):
                    return CVal(then, BOOL, sure=True, known=int(then))
                return CVal(f"(int64_t){then}", BOOL, sure=True)
            return CVal(f"(int64_t)({first} {c} {self.truth(e.right, sc)})", BOOL, sure=True)
        if op in ("in", "not in"):
            item = self.scalar(e.left, sc)
            x, found = self.fresh("x"), self.fresh("f")
            elem = element_type(self.type_of(e.right))
            if self.family(elem) == "text" and isinstance(item.type, EntityType):
                item = self.as_text(item, e.pos)
            if not isinstance(elem, AnyType) and self.family(elem) != self.family(item.type):
                raise Unsupported(f"`{op}` of a {item.type} in a list of {elem}", e.pos)
            loop = self.each(e.right, sc, "_y", None,
                             lambda y: f"if (_y == {x}) {{ {found} = 1; break; }}", iterating=False)
            test = f"{found}" if op == "in" else f"!{found}"
            return CVal(f"({{ int64_t {x} = {item.text}; int {found} = 0; {loop} (int64_t){test}; }})", BOOL, sure=True)
        if op == "+" and isinstance(self.type_of(e), ListType):
            left, right = self.expr(e.left, sc), self.expr(e.right, sc)
            if not (left.obj and right.obj):
                raise Unsupported("lists joined with +", e.pos)
            joined = self.const(HELPERS["_joined"])
            return CVal(f"({{ PyObject *_a = {left.text}, *_b = {right.text}; "
                        f"PyObject *_j = rt_keep(r, RT_CALL({joined}, _a, _b)); if (!_j) goto fail; _j; }})",
                        self.type_of(e), obj=True)
        a, b = self.scalar(e.left, sc), self.scalar(e.right, sc)
        if op in ("==", "!="):
            return self.equality(e, a, b)
        if op in ("<", "<=", ">", ">="):
            if self.family(a.type) != "num" or self.family(b.type) != "num":
                raise Unsupported(f"`{op}` of {a.type} and {b.type}", e.pos)
            if a.known is not None and b.known is not None:
                held = {"<": a.known < b.known, "<=": a.known <= b.known, ">": a.known > b.known,
                        ">=": a.known >= b.known}[op]
                return CVal(str(int(held)), BOOL, sure=True, known=int(held))
            x, y = self.fresh("x"), self.fresh("y")
            return CVal(f"({{ int64_t {x} = {a.text}, {y} = {b.text}; {_ordered(op, x, a, y, b)}"
                        f"(int64_t)({x} {op} {y}); }})", BOOL, sure=True)
        helper = {"+": "rt_add", "-": "rt_sub", "*": "rt_mul", "//": "rt_floordiv", "%": "rt_mod"}.get(op)
        if helper is None:
            raise Unsupported(f"the operator {op}", e.pos)
        if isinstance(self.type_of(e), ListType):
            raise Unsupported("lists joined with +", e.pos)
        if self.family(a.type) != "num" or self.family(b.type) != "num":
            raise Unsupported(f"`{op}` of {a.type} and {b.type}", e.pos)
        x, y, t = self.fresh("x"), self.fresh("y"), self.fresh("r")
        return CVal(f"({{ int64_t {x} = {a.text}, {y} = {b.text}, {t}; if ({helper}({x}, {y}, &{t}) < 0) goto fail; "
                    f"{t}; }})", INT, sure=True)

    def equality(self, e: A.Binary, a: CVal, b: CVal) -> CVal:
        """``==`` or ``!=`` of two values of one family (a text literal against a key: its index)."""
        fa, fb = self.family(a.type), self.family(b.type)
        if fa != fb:
            a, b = self.as_key(e.left, a, b), self.as_key(e.right, b, a)
            fa, fb = self.family(a.type), self.family(b.type)
        if fa != fb and {fa, fb} & {"text"}:  # a key against a text: the key's text
            a, b = self.as_text(a, e.pos), self.as_text(b, e.pos)
            fa, fb = self.family(a.type), self.family(b.type)
        if isinstance(a.type, NoneType) or isinstance(b.type, NoneType):
            fa = fb  # none against anything: the none marker
        if fa != fb or fa.startswith("other:"):
            raise Unsupported(f"`{e.op}` of {a.type} and {b.type}", e.pos)
        if a.known is not None and b.known is not None:
            held = (a.known == b.known) == (e.op == "==")
            return CVal(str(int(held)), BOOL, sure=True, known=int(held))
        return CVal(f"(int64_t)({a.text} {e.op} {b.text})", BOOL, sure=True)

    def as_key(self, e: A.Expr, v: CVal, other: CVal) -> CVal:
        """A text or number literal compared with a table's key, as that key's index (or a value no
        key has)."""
        if isinstance(other.type, EntityType) and isinstance(e, A.Literal) and e.value is not None \
                and not isinstance(e.value, bool):
            index = self.key_index(other.type.table).get((type(e.value), e.value))
            return CVal(str(index) if index is not None else "(-1)", other.type, sure=True,
                        known=index if index is not None else -1)
        return v

    def as_text(self, v: CVal, pos: A.Pos) -> CVal:
        """A table's key as the text it is (a key that is no text: equal to no text); other values as they are."""
        if not isinstance(v.type, EntityType):
            return v
        table = v.type.table
        name = f"KEYTEXT_{self.table_id(table)}"
        if name not in self._columns.values():
            keys = self.game.table_keys[table]
            ids = [str(self.text_id(k)) if type(k) is str else "(-2)" for k in keys]
            self.arrays.append(f"static const int64_t {name}[{max(1, len(ids))}] = {{{', '.join(ids) or '0'}}};")
            self._columns[("keytext", table)] = name
        x = self.fresh("k")
        return CVal(f"({{ int64_t {x} = {v.text}; {x} == RT_NONE ? RT_NONE : ({x} >= 0 && {x} < "
                    f"{len(self.game.table_keys[table])}) ? {name}[{x}] : (-2); }})", TEXT)

    def conditional(self, e: A.Conditional, sc: Scope) -> CVal:
        """``a if c else b``."""
        a, b = self.expr(e.then, sc), self.expr(e.otherwise, sc)
        if a.obj or b.obj or (self.family(a.type) != self.family(b.type)
                              and not isinstance(a.type, NoneType) and not isinstance(b.type, NoneType)):
            raise Unsupported("a conditional value of two kinds", e.pos)
        t = b.type if isinstance(a.type, NoneType) else a.type
        test = self.truth(e.cond, sc)
        if test in ("0", "1"):  # known: the other value is never evaluated
            chosen = a if test == "1" else b
            return CVal(chosen.text, t, sure=chosen.sure, known=chosen.known)
        return CVal(f"({test} ? {a.text} : {b.text})", t, sure=a.sure and b.sure)

    # -------------------------------------------------------------- calls
    def call(self, e: A.Call, sc: Scope) -> CVal:
        """A call of a user function (written out in place) or a builtin."""
        if self.checked.ref(e) is Kind.FUNCTION:
            return self.user_call(e, sc)
        return self.builtin(e, sc)

    def user_call(self, e: A.Call, sc: Scope) -> CVal:
        """A user function's body, written out with its arguments evaluated first (as a call does)."""
        decl = self.symbols.functions[e.func]
        if self._inline_depth >= MAX_INLINE_DEPTH:
            raise Unsupported(f"function {e.func} nested more than {MAX_INLINE_DEPTH} deep", e.pos)
        lines = []
        inner: dict[str, Bound] = {}
        names: list[tuple[Any, ...] | None] = []
        for p, a in zip(decl.params, e.args):
            v = self.expr(a, sc)
            names.append(self.invariant(a, sc))
            if v.known is not None and not v.obj:  # the value itself stands for the parameter
                inner[p.name] = (v.text, v.type, False)
                continue
            c = self.fresh("a_" + p.name)
            lines.append(f"{'PyObject *' if v.obj else 'int64_t '}{c} = {v.text};")
            if v.sure:
                self.sure_names.add(c)
            if names[-1] is not None:
                self.invariants[c] = names[-1]
            inner[p.name] = (c, v.type, v.obj)
        self._inline_depth += 1
        try:
            body = self.expr(decl.body, inner)
        finally:
            self._inline_depth -= 1
        if body.obj:
            return CVal(f"({{ {' '.join(lines)} {body.text}; }})", body.type, obj=True)
        if body.known is not None and not lines:
            return body
        made = CVal(f"({{ {' '.join(lines)} {body.text}; }})", body.type, sure=body.sure)
        if all(n is not None for n in names):
            return self.held_value(("call", e.func, *names), made)
        return made

    def invariant(self, e: A.Expr, sc: Scope) -> tuple[Any, ...] | None:
        """In a listing (which writes nothing): what names an expression whose value is the same at every read of
        the listing (a literal, a switch, a setting, a local of the procedure, a counter or var at such keys, a
        function's parameter given such a value); None for any other (a binding's variable, ...), and outside a
        listing."""
        if self.held_mirrors is None or self.c_locals is not None:
            return None
        if isinstance(e, A.Literal):
            v = self.literal(e)
            return ("known", self.family(v.type), v.known)
        if isinstance(e, A.Index) and self.checked.ref(e) is Kind.STATE:
            names = [self.invariant(a, sc) for a in e.args]
            return ("state", e.base, *names) if all(n is not None for n in names) else None
        if not isinstance(e, A.Name):
            return None
        kind = self.checked.ref(e)
        if kind is Kind.STATE:
            return ("state", e.ident)
        if kind is Kind.LOCAL and e.ident in sc:
            cname, t, obj = sc[e.ident]
            known = None if obj else _known_of(cname)
            return ("known", self.family(t), known) if known is not None else self.invariants.get(cname)
        if kind is Kind.LOCAL:
            return ("local", e.ident, str(self.type_of(e)))
        if kind in (Kind.SWITCH, Kind.SETTING):
            return ("setting", e.ident)
        return None

    def held_value(self, names: tuple[Any, ...], v: CVal) -> CVal:
        """A scalar value of a listing named the same at every read (``names``: what it is, of values the same
        at every read; see :meth:`invariant`): computed at its first read, then held for the listing's others
        (a listing writes nothing: the state it reads stays).  The steps its first computation spends are spent
        again at each other read, as the Python back end computes it afresh; a value whose computation notes a
        place (a site) or counts a listing's values is computed afresh too."""
        if self.held_mirrors is None or v.obj or v.known is not None or "r->site" in v.text or "_n +=" in v.text:
            return v
        hv = self.held_values.get(names)
        if hv is None:
            hv = self.held_values[names] = f"_HV{len(self.held_values)}"
            self.held_mirrors[hv] = (f"int64_t {hv} = 0, {hv}_spent = 0; int {hv}_ok = 0; (void){hv}; "
                                     f"(void){hv}_spent; (void){hv}_ok;")
        if "rt_charge(" not in v.text:
            return CVal(f"({{ if (!{hv}_ok) {{ {hv} = {v.text}; {hv}_ok = 1; }} {hv}; }})", v.type, sure=v.sure)
        return CVal(f"({{ if (!{hv}_ok) {{ int64_t _b0 = r->budget; {hv} = {v.text}; {hv}_spent = _b0 - r->budget; "
                    f"{hv}_ok = 1; }} else if ({hv}_spent && rt_charge(r, {hv}_spent) < 0) goto fail; {hv}; }})",
                    v.type, sure=v.sure)

    def builtin(self, e: A.Call, sc: Scope) -> CVal:
        """A builtin function, one case per builtin the C back end writes."""
        args = e.args
        match e.func:
            case "size":
                if isinstance(self.type_of(args[0]), ZoneType):
                    return CVal(f"(int64_t)PyList_GET_SIZE({self.zone_list(args[0], sc)})", INT, sure=True)
                if isinstance(args[0], A.Binary) and args[0].op == "..":  # len(range(a, b + 1)), as Python counts
                    a, b = self.scalar(args[0].left, sc), self.scalar(args[0].right, sc)
                    return CVal(f"({{ int64_t _a = {a.text}, _b = {b.text}; if (_a == RT_NONE || _b == RT_NONE) {{ "
                                f"rt_none_operand(\"+\", _a, _b); goto fail; }} __int128 _c = (__int128)_b - _a + 1; "
                                f"if (_c > RT_MAX_INT) {{ PyErr_SetString(PyExc_OverflowError, \"Python int too large "
                                f"to convert to C ssize_t\"); goto fail; }} _c < 0 ? 0 : (int64_t)_c; }})", INT,
                                sure=True)
                lst = self.expr(args[0], sc)
                if not lst.obj:
                    raise Unsupported("size of a value that is not a list", e.pos)
                return CVal(f"(int64_t)PyList_GET_SIZE({lst.text})", INT, sure=True)
            case "pieces" | "nodes" | "neighbours" | "clockwise" | "counterclockwise" | "snake":
                return self.as_list(e, sc)
            case "piece":
                z = self.zone_list(args[0], sc)
                n = self.scalar(args[1], sc)
                v = self.fresh("p")
                return CVal(f"({{ int64_t {v}; if (rt_piece_at({z}, {n.text}, &{v}) < 0) goto fail; {v}; }})",
                            self.type_of(e))
            case "revealed":
                p = self.scalar(args[0], sc)
                v = self.fresh("p")
                return CVal(f"({{ int64_t {v} = {p.text}; PyObject *_f = rt_attr(r->st, CSI_face_up, S_face_up); "
                            f"if (!_f) goto fail; _f = rt_keep(r, _f); if (!_f) goto fail; "
                            f"if ({v} < 0 || {v} >= PyList_GET_SIZE(_f)) {{ PyErr_SetString(PyExc_IndexError, "
                            f"\"list index out of range\"); goto fail; }} "
                            f"int _t = PyObject_IsTrue(PyList_GET_ITEM(_f, {v})); if (_t < 0) goto fail; "
                                f"(int64_t)_t; }})",
                            BOOL, sure=True)
            case "adjacent":
                node, other = self.scalar(args[1], sc), self.scalar(args[2], sc)
                elem = node.type
                if self.family(node.type) != self.family(other.type):
                    raise Unsupported(f"`adjacent` of a {node.type} and a {other.type}", e.pos)
                yv, found = self.fresh("y"), self.fresh("f")
                ids, count, lv = self.fresh("ids"), self.fresh("n"), self.fresh("l")
                item = self.unbox(f"PyList_GET_ITEM({lv}, _i)", elem, e.pos)
                return CVal(f"({{ int64_t {yv} = {other.text}; {self.graph_ids(e, sc, ids, count, lv)} "
                            f"int {found} = 0; "
                            f"for (Py_ssize_t _i = 0; _i < {count}; _i++) {{ "
                            f"if (({ids} ? {ids}[_i] : {item.text}) == {yv}) {{ {found} = 1; break; }} }} "
                            f"(int64_t){found}; }})", BOOL, sure=True)
            case "connected":
                start, within = self.scalar(args[1], sc), self.expr(args[2], sc)
                if not within.obj:
                    raise Unsupported("`connected` within a value that is not a list", e.pos)
                helper = self.const(BUILTIN_HELPERS["_connected"])
                return CVal(f"({{ PyObject *_adj = {self.world_map(e, 'adjacent')}; PyObject *_s = "
                    f"{self.box(start, e.pos)}; "
                            f"if (!_s) goto fail; PyObject *_res = RT_CALL({helper}, _adj, _s, {within.text}); "
                            f"Py_DECREF(_s); _res = rt_keep(r, _res); if (!_res) goto fail; _res; }})",
                            self.type_of(e), obj=True)
            case "next" | "prev":
                p = self.scalar(args[0], sc)
                v = self.fresh("p")
                step = "+ 1" if e.func == "next" else "- 1"
                return CVal(f"({{ int64_t {v} = {p.text}; if ({v} == RT_NONE) {{ rt_none_operand(\"{step[0]}\", "
                    f"{v}, 1); "
                            f"goto fail; }} rt_seat({v} {step}, r->n); }})", PLAYER, sure=True)
            case "min" | "max":
                a, b = self.scalar(args[0], sc), self.scalar(args[1], sc)
                x, y = self.fresh("x"), self.fresh("y")
                # Python's min/max keep the first of equal values; compare as they do
                test = f"{y} < {x}" if e.func == "min" else f"{y} > {x}"
                return CVal(f"({{ int64_t {x} = {a.text}, {y} = {b.text}; {_ordered('<', y, b, x, a)}"
                            f"{test} ? {y} : {x}; }})", self.type_of(e), sure=a.sure and b.sure)
            case "abs":
                a = self.scalar(args[0], sc)
                x = self.fresh("x")
                return CVal(f"({{ int64_t {x} = {a.text}; if ({x} == RT_NONE) {{ PyErr_SetString(PyExc_TypeError, "
                            f"\"bad operand type for abs(): 'NoneType'\"); goto fail; }} {x} < 0 ? -{x} : {x}; "
                                f"}})", INT, sure=True)
            case _:
                raise Unsupported(f"the builtin {e.func}", e.pos)

    # ------------------------------------------------------------ domains
    def as_list(self, e: A.Expr, sc: Scope) -> CVal:
        """A list-valued expression as a new Python list kept for the call."""
        t = self.type_of(e)
        elem = element_type(t)
        if isinstance(e, A.Binary) and e.op == "..":
            a, b = self.scalar(e.left, sc), self.scalar(e.right, sc)
            x, y, n, lst = self.fresh("x"), self.fresh("y"), self.fresh("n"), self.fresh("l")
            return CVal(f"({{ int64_t {x} = {a.text}, {y} = {b.text}, {n}; "
                        f"if (rt_range_count({x}, {y}, 1, &{n}) < 0) goto fail; "
                        f"PyObject *{lst} = rt_keep(r, PyList_New({n})); if (!{lst}) goto fail; "
                        f"for (int64_t _i = 0; _i < {n}; _i++) {{ PyObject *_o = rt_int_obj({x} + _i); "
                        f"if (!_o) goto fail; PyList_SET_ITEM({lst}, _i, _o); }} {lst}; }})", t, obj=True)
        if isinstance(e, A.Call) and e.func == "pieces":
            return CVal(f"({{ PyObject *_c = rt_copy(r, {self.zone_list(e.args[0], sc)}); if (!_c) goto fail; _c; }})",
                        t, obj=True)
        lst = self.fresh("l")
        if not _scalar(elem):
            if isinstance(e, A.ListLit):
                items = [self.expr(i, sc) for i in e.items]
                boxes = [self.box(i, e.pos) for i in items]
                arr = self.fresh("a")
                fill = " ".join(f"{arr}[{i}] = {b};" for i, b in enumerate(boxes))
                return CVal(f"({{ PyObject *{arr}[{max(1, len(boxes))}]; {fill} "
                            f"PyObject *{lst} = rt_keep(r, rt_list({len(boxes)}, {arr})); if (!{lst}) goto "
                                f"fail; {lst}; }})",
                            t, obj=True)
            raise Unsupported(f"a list of {elem}", e.pos)
        def add(y: str) -> str:
            return (f"{{ PyObject *_o = {self.box(CVal(y, elem), e.pos)}; if (!_o) goto fail; "
                    f"int _bad = PyList_Append({lst}, _o); Py_DECREF(_o); if (_bad) goto fail; }}")
        loop = self.each(e, sc, "_y", None, lambda y: add("_y"), iterating=False)
        return CVal(f"({{ PyObject *{lst} = rt_keep(r, PyList_New(0)); if (!{lst}) goto fail; {loop} {lst}; }})",
                    t, obj=True)

    def each(self, e: A.Expr, sc: Scope, var: str, cost: int | None, body: Callable[[str], str], iterating: bool = True,
             copy: bool = False, guard: str | None = None, first: str | None = None, listing: bool = False) -> str:
        """C statements looping ``var`` (an ``int64_t``) over the values of a list-valued expression,
        running ``body(var)`` (C statements) for each; ``cost``: charge the budget the length times
        this (None: not charged; ``listing``: charged to the listing's own count ``_n`` instead, as
        the Python back end charges a decision of several values: :func:`_listing_charge`).  A `break`
        in the body leaves the loop.  ``copy``: loop over a copy of a live list (statements may change
        it).  ``guard``: a C condition tested once, after the charge and only if there are values, before
        the loop (which runs only if it holds); ``first``: a C condition tested after the charge whatever
        the values, before ``guard`` (the same)."""
        t = self.type_of(e)
        elem = element_type(t)
        def charge(n: str, gate: bool = True) -> str:  # (and the guard, where the loop follows at once)
            paid = "" if cost is None else _listing_charge(n, cost) if listing else (
                f"if (rt_charge(r, ({n}) * {cost} + 1) < 0) goto fail;")
            return paid + (" " + _gated(n, guard, first) if gate else "")
        def counted(x: str, y: str) -> str:  # a charged range is counted first, as Python's len() counts it
            return "" if cost is None else (
                f"if ((__int128){y} - {x} + 1 > RT_MAX_INT) {{ PyErr_SetString(PyExc_OverflowError, "
                f"\"a range too long to count\"); goto fail; }} ")
        if isinstance(e, A.Binary) and e.op == "..":
            a, b = self.scalar(e.left, sc), self.scalar(e.right, sc)
            x, y, n, i = self.fresh("x"), self.fresh("y"), self.fresh("n"), self.fresh("i")
            return (f"{{ int64_t {x} = {a.text}, {y} = {b.text}, {n}; "
                    f"if (rt_range_count({x}, {y}, {0 if iterating else 1}, &{n}) < 0) goto fail; {counted(x, y)}"
                    f"{charge(n)} "
                    f"for (int64_t {i} = 0; {i} < {n}; {i}++) {{ int64_t {var} = {x} + {i}; {body(var)} }} }}")
        if isinstance(e, A.Name) and self.checked.ref(e) is Kind.SPECIAL and e.ident == "players":
            return f"{{ {charge('r->n')} for (int64_t {var} = 0; {var} < r->n; {var}++) {{ {body(var)} }} }}"
        if isinstance(e, A.Name) and self.checked.ref(e) in (Kind.TABLE, Kind.ENUM):
            k = len(self.game.table_keys[e.ident])
            assert isinstance(elem, EntityType)
            self.table_id(elem.table)
            return f"{{ {charge(str(k))} for (int64_t {var} = 0; {var} < {k}; {var}++) {{ {body(var)} }} }}"
        if isinstance(e, A.Call) and e.func in ("clockwise", "counterclockwise", "snake"):
            start = self.scalar(e.args[0], sc)
            s, i, n = self.fresh("s"), self.fresh("i"), self.fresh("n")
            seq = {"clockwise": f"rt_seat({s} + {i}, r->n)", "counterclockwise": f"rt_seat({s} - {i}, r->n)",
                   "snake": f"({i} < r->n ? rt_seat({s} + {i}, r->n) : rt_seat({s} + (2 * r->n - 1 - {i}), r->n))"}
            count = "2 * r->n" if e.func == "snake" else "r->n"
            return (f"{{ int64_t {s} = {start.text}; if ({s} == RT_NONE) {{ rt_none_operand(\"+\", {s}, 0); "
                f"goto fail; }} "
                    f"int64_t {n} = {count}; {charge(n)} for (int64_t {i} = 0; {i} < {n}; {i}++) "
                    f"{{ int64_t {var} = {seq[e.func]}; {body(var)} }} }}")
        if isinstance(e, A.Attr) and isinstance(t, ListType) and _scalar(elem):
            arr, row = self.column_of(e, sc)
            rb, i = self.fresh("row"), self.fresh("i")
            return (f"{{ int64_t {rb} = {row}; {charge(f'{arr}_OFF[{rb} + 1] - {arr}_OFF[{rb}]')} "
                    f"for (int64_t {i} = {arr}_OFF[{rb}]; {i} < {arr}_OFF[{rb} + 1]; {i}++) {{ int64_t {var} = "
                        f"{arr}[{i}]; "
                    f"{body(var)} }} }}")
        if isinstance(e, A.ListLit) and _scalar(elem):
            items = [self.scalar(i, sc) for i in e.items]
            arr, i = self.fresh("a"), self.fresh("i")
            fill = ", ".join(v.text for v in items) or "0"
            return (f"{{ int64_t {arr}[{max(1, len(items))}] = {{{fill}}}; {charge(str(len(items)))} "
                    f"for (int {i} = 0; {i} < {len(items)}; {i}++) {{ int64_t {var} = {arr}[{i}]; {body(var)} }} }}")
        if not _scalar(elem):
            raise Unsupported(f"a loop over a list of {elem}", e.pos)
        if isinstance(e, A.Call) and e.func == "pieces":
            lst = self.zone_list(e.args[0], sc)
            if copy:
                lst = f"({{ PyObject *_c = rt_copy(r, {lst}); if (!_c) goto fail; _c; }})"
        elif isinstance(e, A.Call) and e.func in ("nodes", "neighbours") and isinstance(elem, EntityType) \
                and self.node_table(e) == elem.table:
            ids, n, lv, i = self.fresh("ids"), self.fresh("n"), self.fresh("l"), self.fresh("i")
            item = self.unbox(f"PyList_GET_ITEM({lv}, {i})", elem, e.pos)
            return (f"{{ {self.graph_ids(e, sc, ids, n, lv)} {charge(n, gate=False)} {_gated(n, guard, first)}"
                    f"for (Py_ssize_t {i} = 0; {i} < {n}; {i}++) {{ "
                    f"int64_t {var} = {ids} ? {ids}[{i}] : {item.text}; {body(var)} }} }}")
        elif isinstance(e, A.Call) and e.func in ("nodes", "neighbours"):
            lst = self.graph_list(e, sc)
        else:
            got = self.expr(e, sc)
            if not got.obj:
                raise Unsupported("a loop over a value that is not a list", e.pos)
            lst = got.text
        lv, i = self.fresh("l"), self.fresh("i")
        item = self.unbox(f"PyList_GET_ITEM({lv}, {i})", elem, e.pos)
        return (f"{{ PyObject *{lv} = {lst}; {charge(f'PyList_GET_SIZE({lv})')} "
                f"for (Py_ssize_t {i} = 0; {i} < PyList_GET_SIZE({lv}); {i}++) {{ int64_t {var} = {item.text}; "
                f"{body(var)} }} }}")

    def node_table(self, e: A.Call) -> str | None:
        """The node table of the graph a graph builtin is called on (None if its first argument is no graph)."""
        t = self.type_of(e.args[0])
        return self.symbols.graphs[t.graph].nodes if isinstance(t, GraphType) else None

    def graph_ids(self, e: A.Call, sc: Scope, ids: str, n: str, lv: str) -> str:
        """C statements declaring and setting ``ids`` and ``n`` to the key indexes of `nodes(g)` or
        `neighbours(g, x)` from the world's arrays (see crt.h, ``rt_world_graph``), or else ``ids`` to NULL, ``lv``
        to the world's live list and ``n`` to its length: the world first, then the node, as the Python back end
        reads them.  (No statement writes a world: its lists keep their length while a loop runs.)"""
        t = self.type_of(e.args[0])
        table = self.node_table(e)
        if not isinstance(t, GraphType) or table is None:
            raise Unsupported("a graph given as a value", e.pos)
        g = self.graphs.setdefault(t.graph, len(self.graphs))
        wg = self.fresh("wg")
        call = f"rt_world_graph(r, {g}, {self.name(t.graph)}, {self.table_id(table)}, &"
        found = f"if ({call}{wg}) < 0) goto fail;"
        if self.held_mirrors is not None:  # a listing writes nothing: the state's world stays, found once
            hw = f"_HWG{g}"
            self.held_mirrors[hw] = f"const WorldGraph *{hw} = NULL; int {hw}_ok = 0; (void){hw}; (void){hw}_ok;"
            found = f"if (!{hw}_ok) {{ if ({call}{hw}) < 0) goto fail; {hw}_ok = 1; }} {wg} = {hw};"
        head = (f"const int64_t *{ids} = NULL; Py_ssize_t {n} = 0; PyObject *{lv} = NULL; const WorldGraph *{wg}; "
                f"{found}")
        if e.func == "nodes":
            return (f"{head} if ({wg}) {{ {ids} = {wg}->nodes; {n} = {wg}->nn; }} "
                    f"else {{ {lv} = {self.graph_list(e, sc)}; {n} = PyList_GET_SIZE({lv}); }}")
        node = self.scalar(e.args[1], sc)
        x = self.fresh("x")
        held = CVal(x, node.type)
        slow = f"{lv} = {self.neighbours(e, held)}; {n} = PyList_GET_SIZE({lv});"
        if not (isinstance(node.type, EntityType) and node.type.table == table):
            return f"{head} int64_t {x} = {node.text}; {slow}"
        return (f"{head} int64_t {x} = {node.text}; if ({wg} && ({x} == RT_NONE || ({x} >= 0 && {x} < {wg}->nk))) {{ "
                f"Py_ssize_t _s = {x} == RT_NONE ? {wg}->nk : {x}; {ids} = {wg}->adj + {wg}->off[_s]; "
                f"{n} = {wg}->off[_s + 1] - {wg}->off[_s]; }} else {{ {slow} }}")

    def world_map(self, e: A.Call, table: str) -> str:
        """C text of ``st.world.<table>[graph]`` (borrowed) for a graph builtin."""
        t = self.type_of(e.args[0])
        if not isinstance(t, GraphType):
            raise Unsupported("a graph given as a value", e.pos)
        g = self.graphs.setdefault(t.graph, len(self.graphs))
        which = 1 if table == "adjacent" else 0
        return (f"({{ PyObject *_gl = rt_world_map(r, &WORLD_OWNER, WORLD_MAPS, {which}, {g}, {self.name(t.graph)}); "
                f"if (!_gl) goto fail; _gl; }})")

    def neighbours(self, e: A.Call, node: CVal) -> str:
        """C text of the live list of the neighbours of a node (borrowed; an empty list for a node
        the graph does not have, as the Python back end's ``.get(x, [])``)."""
        return (f"({{ PyObject *_adj = {self.world_map(e, 'adjacent')}; PyObject *_x = {self.box(node, e.pos)}; "
                f"if (!_x) goto fail; PyObject *_nl = PyDict_Check(_adj) ? PyDict_GetItemWithError(_adj, _x) : NULL; "
                f"Py_DECREF(_x); if (!_nl && PyErr_Occurred()) goto fail; "
                f"if (!_nl) _nl = rt_keep(r, PyList_New(0)); if (!_nl) goto fail; "
                f"if (!PyList_Check(_nl)) {{ PyErr_SetString(PyExc_TypeError, \"a list\"); goto fail; }} _nl; }})")

    def graph_list(self, e: A.Call, sc: Scope) -> str:
        """C text of the live list of node keys of `nodes(g)` or `neighbours(g, x)` (borrowed)."""
        if e.func == "nodes":
            return (f"({{ PyObject *_nl = {self.world_map(e, 'nodes')}; if (!PyList_Check(_nl)) {{ "
                    f"PyErr_SetString(PyExc_TypeError, \"a list\"); goto fail; }} _nl; }})")
        return self.neighbours(e, self.scalar(e.args[1], sc))

    def cost(self, *parts: A.Expr | None, names: Sequence[str] = ()) -> int:
        """The steps one round costs, as the Python back end weighs it: by the length of its
        generated text (see :func:`~.codegen.weight`)."""
        gen = self.pygen
        if gen is None:
            return 1
        scope = {n: f"_0_{n}" for n in names}
        text = ""
        for p in parts:
            if p is not None:
                try:
                    text += gen.expr(p, scope, Frame(hot=True, pure=True))
                except Exception:  # a name the Python text would resolve from its own scope
                    text += "x" * 24
        return weight(text)

    def held_within(self, make: Callable[[], CVal]) -> CVal:
        """A loop of an expression outside a listing, its mirrors (and a graph's arrays, a limit's set, values the
        same at every read, see :meth:`held_value`) found once for the loop: C declared at its start (nothing
        writes while an expression is computed); in a listing, the listing holds them (see :meth:`pender`)."""
        if self.held_mirrors is not None:
            return make()
        self.held_mirrors, self.invariants, self.held_values = {}, {}, {}
        try:
            v = make()
            held = " ".join(self.held_mirrors.values())
        finally:
            self.held_mirrors, self.invariants, self.held_values = None, {}, {}
        if not held:
            return v
        return CVal(f"({{ {held} {v.text}; }})", v.type, v.obj, sure=v.sure, known=v.known)

    def aggregate(self, e: A.Aggregate, sc: Scope) -> CVal:
        """An aggregate (`all`, `any`, `count`, `sum`, `most`, `least`, `first`) as a loop."""
        return self.held_within(lambda: self._aggregate(e, sc))

    def _aggregate(self, e: A.Aggregate, sc: Scope) -> CVal:
        """:meth:`aggregate`, written where what it reads is held."""
        elem = element_type(self.type_of(e.domain))
        if not _scalar(elem):
            raise Unsupported(f"an aggregate over a list of {elem}", e.pos)
        var = self.fresh(e.var)
        inner = {**sc, e.var: (var, elem, False)}
        free = self.checked.ref(e.domain) if isinstance(e.domain, A.Name) else None
        exempt = (isinstance(e.domain, A.Name) and free is Kind.SPECIAL and e.domain.ident == "players") or (
            isinstance(e.domain, A.Call) and e.domain.func in ("clockwise", "counterclockwise", "snake"))
        cost = None if exempt else self.cost(e.where, e.body, names=[e.var])
        where = self.truth(e.where, inner) if e.where is not None else "1"
        acc = self.fresh("acc")
        kind = e.kind
        if kind in ("all", "any"):
            body = self.truth(e.body, inner) if e.body is not None else f"({var} != 0 && {var} != RT_NONE)"
            stop = "!" if kind == "all" else ""
            init = "1" if kind == "all" else "0"
            loop = self.each(e.domain, sc, var, cost,
                             lambda v: f"if ({where} && {stop}{body}) {{ {acc} = {1 - int(init)}; break; }}")
            return CVal(f"({{ int64_t {acc} = {init}; {loop} {acc}; }})", BOOL, sure=True)
        if kind == "count":
            body = f" && {self.truth(e.body, inner)}" if e.body is not None else ""
            loop = self.each(e.domain, sc, var, cost, lambda v: f"if ({where}{body}) {acc}++;")
            return CVal(f"({{ int64_t {acc} = 0; {loop} {acc}; }})", INT, sure=True)
        item = self.scalar(e.body, inner) if e.body is not None else CVal(var, elem)
        if kind == "sum":  # the sum is bounded, not each partial sum (as the Python back end's `_total`)
            x = self.fresh("x")
            loop = self.each(e.domain, sc, var, cost,
                             lambda v: f"if ({where}) {{ int64_t {x} = {item.text}; if ({x} == RT_NONE) {{ "
                                       f"rt_none_operand(\"+\", 0, {x}); goto fail; }} {acc} += {x}; }}")
            return CVal(f"({{ __int128 {acc} = 0; {loop} if ({acc} > RT_MAX_INT || {acc} < -RT_MAX_INT) {{ "
                        f"rt_overflow({acc}); goto fail; }} (int64_t){acc}; }})", INT, sure=True)
        if kind in ("most", "least"):
            if self.family(item.type) != "num":
                raise Unsupported(f"`{kind}` of {item.type}", e.pos)
            x, seen = self.fresh("x"), self.fresh("seen")
            better = f"{x} > {acc}" if kind == "most" else f"{x} < {acc}"
            loop = self.each(e.domain, sc, var, cost,
                             lambda v: f"if ({where}) {{ int64_t {x} = {item.text}; if ({seen}) {{ "
                                       f"{_ordered('<', x, item, acc, CVal(acc, item.type, sure=item.sure))}"
                                       f"if ({better}) {acc} = {x}; }} "
                                       f"else {{ {acc} = {x}; {seen} = 1; }} }}")
            return CVal(f"({{ int64_t {acc} = RT_NONE; int {seen} = 0; {loop} {acc}; }})", item.type)
        if kind == "first":
            loop = self.each(e.domain, sc, var, cost, lambda v: f"if ({where}) {{ {acc} = {item.text}; break; }}")
            return CVal(f"({{ int64_t {acc} = RT_NONE; {loop} {acc}; }})", item.type)
        raise Unsupported(f"the aggregate {kind}", e.pos)

    def comprehension(self, e: A.Comprehension, sc: Scope) -> CVal:
        """A list comprehension: a new list."""
        return self.held_within(lambda: self._comprehension(e, sc))

    def _comprehension(self, e: A.Comprehension, sc: Scope) -> CVal:
        """:meth:`comprehension`, written where what it reads is held."""
        elem = element_type(self.type_of(e.domain))
        if not _scalar(elem):
            raise Unsupported(f"a comprehension over a list of {elem}", e.pos)
        var = self.fresh(e.var)
        inner = {**sc, e.var: (var, elem, False)}
        exempt = (isinstance(e.domain, A.Name) and self.checked.ref(e.domain) is Kind.SPECIAL
                  and e.domain.ident == "players") or (
            isinstance(e.domain, A.Call) and e.domain.func in ("clockwise", "counterclockwise", "snake"))
        cost = None if exempt else self.cost(e.where, e.body, names=[e.var])
        where = self.truth(e.where, inner) if e.where is not None else "1"
        body = self.expr(e.body, inner)
        lst = self.fresh("l")
        add = (f"if ({where}) {{ PyObject *_o = {self.box(body, e.pos)}; if (!_o) goto fail; "
               f"int _bad = PyList_Append({lst}, _o); Py_DECREF(_o); if (_bad) goto fail; }}")
        loop = self.each(e.domain, sc, var, cost, lambda v: add)
        return CVal(f"({{ PyObject *{lst} = rt_keep(r, PyList_New(0)); if (!{lst}) goto fail; {loop} {lst}; }})",
                    self.type_of(e), obj=True)

    # ------------------------------------------------------------ statements
    def statement(self, st: A.Stmt, out: list[str]) -> None:
        """C statements for one statement that cannot pause (it calls leaf procedures only)."""
        pos_line = self.site(st.pos)
        match st:
            case A.Let():
                out.append(pos_line)
                self.set_local(st.name, self.expr(st.value, {}), st.pos, out)
            case A.Assign():
                out.append(pos_line)
                self.assign(st, out)
            case A.If():
                for i, (cond, body) in enumerate(st.branches):
                    out.append(f"{'if' if i == 0 else 'else if'} (({{ {self.site(cond.pos)} 1; }}) && "
                               f"{self.truth(cond, {})}) {{")
                    self.block(body.statements, out)
                    out.append("}")
                if st.otherwise is not None:
                    out.append("else {")
                    self.block(st.otherwise.statements, out)
                    out.append("}")
            case A.While() | A.Loop():
                cost = self.round_cost(st.body.statements)
                test = self.truth(st.cond, {}) if isinstance(st, A.While) else "1"
                out.append(f"while (({{ {pos_line} 1; }}) && {test}) {{")
                out.append(f"{pos_line} if (rt_charge(r, {cost}) < 0) goto fail;")
                self.block(st.body.statements, out)
                out.append("}")
            case A.For():
                self.for_loop(st, out)
            case A.Break():
                out.append("break;")
            case A.CallProc():
                out.append(pos_line)
                self.leaf_call(st, out)
            case A.Move():
                out.append(pos_line)
                self.move(st, out)
            case A.Reveal():
                out.append(pos_line)
                p = self.scalar(st.piece, {})
                out.append(f"{{ int64_t _p = {p.text}; PyObject *_f = rt_attr(r->st, CSI_face_up, S_face_up); if "
                    f"(!_f) goto fail; "
                           f"_f = rt_keep(r, _f); if (!_f) goto fail; if (_p < 0 || _p >= PyList_GET_SIZE(_f)) {{ "
                           f"PyErr_SetString(PyExc_IndexError, \"list assignment index out of range\"); goto fail; }} "
                           f"if (PyList_SetItem(_f, _p, Py_NewRef(Py_True)) < 0) goto fail; }}")
            case A.Look():
                out.append(pos_line)
                p, seat = self.scalar(st.piece, {}), self.scalar(st.player, {})
                if seat.type == ANY:
                    raise Unsupported("`look` by a value of type any", st.pos)
                out.append(f"{{ int64_t _p = {p.text}, _w = {seat.text}; if (rt_look(r, _p, _w) < 0) goto fail; }}")
            case A.Swap():
                out.append(pos_line)
                a, b = self.scalar(st.first, {}), self.scalar(st.second, {})
                out.append(f"{{ int64_t _a = {a.text}, _b = {b.text}; if (rt_swap(r, _a, _b) < 0) goto fail; }}")
            case A.Begin():
                out.append(pos_line)
                out.append(f"if (rt_begin_scope(r, {self.name(st.scope)}) < 0) goto fail;")
            case A.Use():
                out.append(pos_line)
                if any(self.type_of(k) == ANY for k in st.keys):
                    raise Unsupported("`use` with a key of type any", st.pos)
                out.append(f"{{ PyObject *_u = rt_attr(r->st, CSI_used, S_used); if (!_u) goto fail; _u = "
                    f"rt_keep(r, _u); "
                           f"if (!_u) goto fail; PyObject *_s = rt_get(_u, Py_NewRef({self.name(st.limit)})); "
                               f"if (!_s) goto fail; "
                           f"PyObject *_k = {self.key(st.keys, {}, st.pos)}; if (!_k) goto fail; int _bad = "
                               f"PySet_Add(_s, _k); "
                           f"Py_DECREF(_k); if (_bad) goto fail; }}")
            case A.Rule():
                self.cite_stack.append((st.name, st.citations))
                self.block(st.body.statements, out)
                self.cite_stack.pop()
            case A.Say():
                out.append(pos_line)
                assert self.pc is not None
                fn = self.const(self.pc.say(st))
                env = "r->env" if self.c_locals is None else self.c_say_env(st)
                out.append(f"{{ int _on = rt_log_on(r); if (_on < 0) goto fail; if (_on) {{ PyObject *_se = {env}; "
                           f"if (!_se) goto fail; PyObject *_res = RT_CALL({fn}, r->st, _se); if (!_res) goto fail; "
                           f"Py_DECREF(_res); }} }}")
            case A.Choose() | A.Chance() | A.Finish():
                raise AssertionError(f"{st} stops; it is laid out by stop_block")
            case _:
                assert_never(st)

    def block(self, statements: Sequence[A.Stmt], out: list[str]) -> None:
        """C statements for statements that cannot pause."""
        for st in statements:
            self.statement(st, out)

    def set_local(self, name: str, v: CVal, pos: A.Pos, out: list[str]) -> None:
        """Set a local of the running procedure."""
        out.append(self.write_local(name, v, pos))

    def write_local(self, name: str, v: CVal, pos: A.Pos) -> str:
        """C statements setting a local of the running procedure (and the function's copy of it, if it
        keeps one: see :meth:`finish_locals`; in a leaf procedure whose locals are C variables: the variable)."""
        if self.c_locals is not None:
            return self.c_local_write(name, v)
        c = self.name(name)
        kind = None if v.obj else self.value_kind(v.type)
        proc, d = self.local_env()
        self.local_writes.add((proc, name, kind))
        held = f"LW_{d}_{c}_{kind}(_sv)" if kind is not None else f"LWO_{d}_{c}()"
        if v.obj:
            return (f"{{ int _held = rt_set_local_held(r, &LD[{d}], {c}, {self.box(v, pos)}); if (_held < 0) "
                    f"goto fail; if (_held) {held}; }} \x01{name}\x01")
        return (f"{{ int64_t _sv = {v.text}; int _held = rt_set_local_held(r, &LD[{d}], {c}, "
                f"{self.box(CVal('_sv', v.type), pos)}); if (_held < 0) goto fail; if (_held) {held}; "
                f"\x02{name}\x02{kind}\x02{v.type}\x02 }}")

    def finish_locals(self, lines: list[str]) -> list[str]:
        """The lines of a function with its copies of locals declared first and every write of a local
        resolved: a copy is set to the value written (or dropped, for a value of another kind)."""
        text = "\n".join(lines)
        for name, (cname, t) in self.cached_locals.items():

            def resolved(m: re.Match[str], c: str = cname, kind: str = str(t)) -> str:
                return f"{c} = _sv; {c}_ok = 1;" if m.group(1) == kind else f"{c}_ok = 0;"

            text = re.sub(f"\x02{re.escape(name)}\x02[^\x02]*\x02([^\x02]*)\x02", resolved, text)
            text = text.replace(f"\x01{name}\x01", f"{cname}_ok = 0;")
        text = re.sub("\x02[^\x02]*\x02[^\x02]*\x02[^\x02]*\x02", "", text)
        text = re.sub("\x01[^\x01]*\x01", "", text)
        decls = [f"int64_t {c} = 0; int {c}_ok = 0; (void){c}; (void){c}_ok;" for c, _ in self.cached_locals.values()]
        self.cached_locals = {}
        return [*decls, *text.split("\n")]

    def assign(self, st: A.Assign, out: list[str]) -> None:
        """An assignment to a local or a state variable (a missing key: KeyError)."""
        op = st.op
        t = self.type_of(st.value)
        if t == ANY:
            raise Unsupported("a value of type any stored", st.pos)
        if self.checked.ref(st) is Kind.LOCAL:
            if op == "=":
                self.set_local(st.name, self.expr(st.value, {}), st.pos, out)
                return
            old = self.local_read(st.name, INT, st.pos)
            value = self.scalar(st.value, {})
            helper = "rt_add" if op == "+=" else "rt_sub"
            out.append(f"{{ int64_t _o = {old.text}, _v = {value.text}, _r; if ({helper}(_o, _v, &_r) < 0) goto fail; "
                       f"{self.write_local(st.name, CVal('_r', INT), st.pos)} }}")
            return
        decl_t = self.type_of(st.value)
        table = f"({{ PyObject *_t = rt_table(r, {self.name(st.name)}); if (!_t) goto fail; _t; }})"
        keys = [self.expr(k, {}) for k in st.keys]
        names = [self.fresh("k") for _ in keys]
        held = [CVal(c, k.type, k.obj) for c, k in zip(names, keys)]
        decls = " ".join(f"{'PyObject *' if k.obj else 'int64_t '}{c} = {k.text};" for c, k in zip(names, keys))
        key = self.key_of(held, st.pos)
        mirror = self.mirror(st.name)
        place = self.flat_index(mirror[1], held, names) if mirror is not None and not any(k.obj for k in keys) \
            else None

        def wrote(value: str | None) -> str:
            """C text keeping the table's mirror up to date after the write (or dropping it)."""
            if mirror is None:
                return ""
            if place is None or value is None:
                return f"if (VM[{mirror[0]}].dict == _tb) VM[{mirror[0]}].dict = NULL;"
            test, index = place
            return f"rt_mirror_wrote(&VM[{mirror[0]}], _tb, _tag0, ({test}) ? ({index}) : -1, {value});"

        if op == "=":
            value = self.expr(st.value, {})
            same = mirror is not None and not value.obj and self.value_kind(value.type) is not None and \
                self.family(value.type) == self.family(self._kind_type(mirror[2], value.type)) and \
                (mirror[2] < 3 or self.value_kind(value.type) == mirror[2])
            slow = (f"{{ PyObject *_tb = {table}; PyObject *_k = {key}; if (!_k) goto fail; "
                    f"int _has = PyDict_Contains(_tb, _k); if (_has <= 0) {{ if (_has == 0) "
                    f"PyErr_Format(PyExc_KeyError, \"%U has no key %R\", {self.name(st.name)}, _k); Py_DECREF(_k); "
                    f"goto fail; }} _k = rt_keep(r, _k); if (!_k) goto fail; "
                    f"{'int64_t' if same else 'PyObject *'} _x = {value.text if same else self.box(value, st.pos)}; "
                    f"PyObject *_v = {self.box(CVal('_x', value.type), st.pos) if same else '_x'}; if (!_v) "
                    f"goto fail; "
                    f"uint64_t _tag0 = RT_DICT_TAG(_tb); (void)_tag0; "
                    f"int _bad = PyDict_SetItem(_tb, _k, _v); Py_DECREF(_v); if (_bad) goto fail; "
                    f"{wrote('_x' if same else None)} }}")
            if mirror is None or place is None or not same:
                out.append(f"{{ {decls} {slow} }}")
                return
            found = (f"_tb = {table}; _k = {key}; if (!_k) goto fail; int _has = PyDict_Contains(_tb, _k); "
                     f"if (_has <= 0) {{ if (_has == 0) PyErr_Format(PyExc_KeyError, \"%U has no key %R\", "
                     f"{self.name(st.name)}, _k); Py_DECREF(_k); goto fail; }} _k = rt_keep(r, _k); "
                     f"if (!_k) goto fail;")
            rest = (f"int64_t _x = {value.text}; PyObject *_v = {self.box(CVal('_x', value.type), st.pos)}; "
                    f"if (!_v) goto fail;")
            out.append(self.mirrored_write(st.name, mirror, decls, place, ("", found), rest, wrote("_x")))
            return
        if decl_t != INT and self.family(decl_t) != "num":
            raise Unsupported(f"`{op}` of a {decl_t}", st.pos)
        value = self.scalar(st.value, {})
        helper = "rt_add" if op == "+=" else "rt_sub"
        old = self.unbox("_ov", INT, st.pos)
        if mirror is None or place is None or mirror[2] != 0:
            out.append(f"{{ {decls} PyObject *_tb = {table}; PyObject *_k = {key}; if (!_k) goto fail; _k = "
                       f"rt_keep(r, _k); "
                       f"if (!_k) goto fail; PyObject *_ov = PyDict_GetItemWithError(_tb, _k); if (!_ov) {{ "
                       f"if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, _k); goto fail; }} "
                       f"int64_t _o = {old.text}; "
                       f"int64_t _v = {value.text}, _r; if ({helper}(_o, _v, &_r) < 0) goto fail; "
                       f"PyObject *_n = rt_int_obj(_r); if (!_n) goto fail; uint64_t _tag0 = RT_DICT_TAG(_tb); "
                       f"(void)_tag0; "
                       f"int _bad = PyDict_SetItem(_tb, _k, _n); Py_DECREF(_n); if (_bad) goto fail; "
                       f"{wrote(None)} }}")
            return
        found = (f"_tb = {table}; _k = {key}; if (!_k) goto fail; _k = rt_keep(r, _k); if (!_k) goto fail; "
                 f"PyObject *_ov = PyDict_GetItemWithError(_tb, _k); if (!_ov) {{ "
                 f"if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, _k); goto fail; }} _o = {old.text};")
        rest = (f"int64_t _d = {value.text}, _x; if ({helper}(_o, _d, &_x) < 0) goto fail; "
                f"PyObject *_v = rt_int_obj(_x); if (!_v) goto fail;")
        out.append(self.mirrored_write(st.name, mirror, decls, place, ("_o = _m[_at];", found), rest, wrote("_x")))

    def mirrored_write(self, name: str, mirror: tuple[int, list[int], int], decls: str, place: tuple[str, str],
                       found: tuple[str, str], rest: str, wrote: str) -> str:
        """C text of a write of a table that has a mirror, at keys of its dimensions: where the mirror holds the
        key (crt.h rt_mirror_key), the dict's entry is set by that key and its hash, no key made, hashed or
        looked up (the old value, for `+=`, read from the mirror: ``found[0]``); else (``found[1]``) the key is
        made and looked up in the dict, as before.  Both then run ``rest`` (the value as ``_x``, boxed as
        ``_v``; the old one is ``_o``) and keep the mirror up to date (``wrote``)."""
        i, dims, kind = mirror
        test, index = place
        return (f"{{ {decls} int64_t *_m = rt_mirror(r, &VM[{i}], {self.name(name)}, {len(dims)}, VD{i}, {kind}); "
                f"if (!_m) goto fail; Py_hash_t _h = 0; Py_ssize_t _at = (_m != RT_MIRROR_OFF && ({test})) ? "
                f"({index}) : -1; PyObject *_kf = _at >= 0 ? rt_mirror_key(r, &VM[{i}], _at, &_h) : NULL; "
                f"PyObject *_tb, *_k; int64_t _o = 0; (void)_o; "
                f"if (_kf) {{ _tb = VM[{i}].dict; _k = rt_keep(r, Py_NewRef(_kf)); if (!_k) goto fail; {found[0]} }} "
                f"else {{ {found[1]} }} {rest} uint64_t _tag0 = RT_DICT_TAG(_tb); (void)_tag0; "
                f"if ((_kf ? rt_dict_set_hashed(_tb, _k, _h, _v) : rt_dict_set(_tb, _k, _v)) < 0) goto fail; "
                f"{wrote} }}")

    def round_cost(self, statements: Sequence[A.Stmt]) -> int:
        """The steps one round of a loop body costs, as the Python back end weighs it."""
        assert self.pc is not None
        shadow = ProcedureCompiler(self.pc.x, self.pc.decl, self.pc.leaves, self.pc.generic)
        shadow.stops = self.pc.stops
        shadow.counters = self.pc.counters
        shadow.cite_stack = list(self.cite_stack)
        lines: list[tuple[str, A.Pos, tuple[A.Citation, ...]]] = []
        try:
            if any(not shadow.fusable(s) for s in statements):
                shadow.stop_block(statements, Frame(hot=True), lines, "")
            else:
                shadow.py_block(statements, Frame(hot=True), lines, "")
        except Exception:
            return 1
        return weight("".join(text.strip() for text, _, _ in lines))

    def for_loop(self, st: A.For, out: list[str]) -> None:
        """A `for` loop that cannot pause: over a copy of its list, charged for every round."""
        elem = element_type(self.type_of(st.domain))
        if not _scalar(elem):
            raise Unsupported(f"a loop over a list of {elem}", st.pos)
        assert self.pc is not None
        shadow = ProcedureCompiler(self.pc.x, self.pc.decl, self.pc.leaves, self.pc.generic)
        shadow.cite_stack = list(self.cite_stack)
        lines: list[tuple[str, A.Pos, tuple[A.Citation, ...]]] = []
        try:
            shadow.py_statement(st, Frame(hot=True), lines, "")
            head = lines[1:]
            cost = weight("".join(text.strip() for text, _, _ in head))
        except Exception:
            cost = 1
        var = self.fresh(st.var)
        body: list[str] = []
        body.append(self.write_local(st.var, CVal(var, elem), st.pos))
        if st.where is not None:
            body.append(f"{self.site(st.where.pos)} if (!{self.truth(st.where, {})}) continue;")
        self.block(st.body.statements, body)
        out.append(self.site(st.pos))
        out.append(self.each(st.domain, {}, var, cost, lambda v: "\n".join(body), copy=True))

    def leaf_call(self, st: A.CallProc, out: list[str]) -> None:
        """A call of a procedure that never pauses: its C function with its locals as C variables, given the
        arguments as C values (where each is held the way its parameter is: :meth:`leaf_c_function`); else its
        C function with new locals in an env dict."""
        got = self.leaf_c_function(st.name)
        if got is not None:
            fn, kinds = got
            args = [self.expr(a, {}) for a in st.args]
            if all(self.c_arg_fits(v, k) for v, k in zip(args, kinds)):
                names = [self.fresh("arg") for _ in args]
                decls = " ".join(f"{'PyObject *' if v.obj else 'int64_t '}{c} = {v.text}; {self.c_local_check(c, k)}"
                                 for c, v, k in zip(names, args, kinds))
                out.append(f"{{ {decls} if ({fn}(r{''.join(', ' + c for c in names)}) < 0) goto fail; }}")
                return
        fn = self.leaf_function(st.name)
        out.append(f"{{ PyObject *_e = {self.new_env(st)}; if (!_e) goto fail; int _bad = {fn}(r, _e); Py_DECREF(_e); "
                   f"if (_bad) goto fail; }}")

    def new_env(self, st: A.CallProc, kept: bool = False) -> str:
        """C text of a new dict: the locals a called procedure starts with (its parameters)."""
        decl = self.symbols.procedures[st.name]
        parts, holds = [], []
        d = self.fresh("d")
        types = self.checked.param_types
        for p, a in zip(decl.params, st.args):
            v = self.expr(a, {})
            if v.type == ANY or (kept and v.obj and _may_grow(v.type)):
                raise Unsupported(f"an argument of type {v.type} kept by a procedure that waits", a.pos)
            if kept and types.get(id(p), ANY) != ANY and self.family(types[id(p)]) != self.family(v.type) \
                    and not isinstance(v.type, NoneType):
                raise Unsupported(f"an argument of type {v.type} for a parameter of type {types[id(p)]}", a.pos)
            kind = self.value_kind(v.type) if kept and not v.obj else None
            if kind is not None:  # (held for the procedure's first reads: see rt_local_env_made)
                hv = self.fresh("h")
                parts.append(f"int64_t {hv} = {v.text};")
                v = CVal(hv, v.type)
                held = f"({hv} == RT_NONE ? RT_NONE : {hv} != 0)" if kind == 1 else hv
                self.local_holds.add((st.name, p.name, kind))
                holds.append(f"LH_{self.local_env_of(st.name)}_"
                             f"{self.name(p.name)}_{kind}({held});")
            parts.append(f"{{ PyObject *_v = {self.box(v, a.pos)}; if (!_v) goto fail; int _bad = "
                         f"PyDict_SetItem({d}, {self.name(p.name)}, _v); Py_DECREF(_v); if (_bad) goto fail; }}")
        if holds:
            holds.insert(0, f"rt_local_env_made(&LD[{self.local_envs[st.name]}], {d});")
        return (f"({{ PyObject *{d} = rt_keep(r, PyDict_New()); if (!{d}) goto fail; {' '.join(parts)} "
                f"{' '.join(holds)} Py_NewRef({d}); }})")

    def c_arg_fits(self, v: CVal, kind: str) -> bool:
        """Whether an argument's value is held as a leaf's parameter of this kind holds it (none fits a scalar)."""
        if kind == "list":
            return v.obj and isinstance(v.type, ListType)
        if v.obj:
            return False
        return isinstance(v.type, NoneType) or _local_kind(v.type) == kind

    def c_local_check(self, c: str, kind: str) -> str:
        """C statements checking a value about to be held in a C local of this kind as boxing it into an env dict
        would (a key or text no table has: IndexError), and a yes/no made 0 or 1 as a Python bool would be."""
        if kind == "bool":
            return f"if ({c} != RT_NONE) {c} = {c} != 0;"
        if kind == "text":
            return (f"if ({c} != RT_NONE && ({c} < 0 || {c} >= PyList_GET_SIZE(TEXTS))) {{ "
                    f"PyErr_SetString(PyExc_IndexError, \"no such text\"); goto fail; }}")
        if kind.startswith("key:"):
            n = len(self.game.table_keys[kind[4:]])
            return (f"if ({c} != RT_NONE && ({c} < 0 || {c} >= {n})) {{ "
                    f"PyErr_SetString(PyExc_IndexError, \"no such key\"); goto fail; }}")
        return ""

    def c_local(self, name: str, kind: str | None) -> CLocal:
        """The C variable of a local of the leaf being written, its kind noted (a second kind: LocalsConflict)."""
        assert self.c_locals is not None
        loc = self.c_locals.get(name)
        if loc is None:
            loc = self.c_locals[name] = CLocal(self.fresh("c_" + name), kind)
        elif kind is not None and loc.kind != kind:
            if loc.kind is not None:
                raise LocalsConflict(name)
            loc.kind = kind
        return loc

    def c_local_read(self, name: str, t: Type) -> CVal:
        """A local of the leaf being written read from its C variable (a list: kept for the call, as
        :meth:`kept_list`); a KeyError where it was never set, as the env dict would give."""
        kind = _local_kind(t)
        if isinstance(t, NoneType):  # (let x = none, then x = 3: the checker's type of x; its values are held)
            loc = self.c_locals.get(name) if self.c_locals is not None else None
            if loc is None or loc.kind is None or loc.kind == "list":
                raise LocalsConflict(name)
            kind, t = loc.kind, self.c_kind_type(loc.kind)
        if kind is None:
            raise LocalsConflict(name)
        loc = self.c_local(name, kind)
        c, n = loc.cname, self.name(name)
        if kind == "list":
            o = self.fresh("o")
            return CVal(f"({{ if (!{c}) {{ PyErr_SetObject(PyExc_KeyError, {n}); goto fail; }} if (!PyList_Check({c})) "
                        f"{{ PyErr_SetString(PyExc_TypeError, \"a list was expected\"); goto fail; }} "
                        f"PyObject *{o} = rt_keep(r, Py_NewRef({c})); if (!{o}) goto fail; {o}; }})", t, obj=True)
        return CVal(f"({{ if (!{c}_set) {{ PyErr_SetObject(PyExc_KeyError, {n}); goto fail; }} {c}; }})", t)

    def c_local_write(self, name: str, v: CVal) -> str:
        """C statements setting a local of the leaf being written: its C variable."""
        if v.obj:
            if not isinstance(v.type, ListType):
                raise LocalsConflict(name)
            c = self.c_local(name, "list").cname
            return f"{{ PyObject *_nv = Py_NewRef({v.text}); Py_XSETREF({c}, _nv); }}"
        kind = _local_kind(v.type)
        if kind is None and not isinstance(v.type, NoneType):
            raise LocalsConflict(name)
        loc = self.c_local(name, kind)
        if kind is None:
            loc.none_written = True
        check = self.c_local_check("_sv", kind) if kind is not None else ""
        return f"{{ int64_t _sv = {v.text}; {check} {loc.cname} = _sv; {loc.cname}_set = 1; }}"

    def c_say_env(self, st: A.Say) -> str:
        """C text of a new dict (kept for the call) of the locals a `say` names, from the C variables of the leaf
        being written (filled in once its locals are all known: :meth:`leaf_c_function`)."""
        names = [n for n, (kind, _) in self.checked.say_names.get(id(st), {}).items() if kind is not Kind.STATE]
        d = self.fresh("d")
        marker = f"\x05{d}\x05"

        def fill(found: dict[str, CLocal]) -> str:
            parts = []
            for n in names:
                loc = found.get(n)
                if loc is None:
                    continue  # (never set: the Python function's env[name] fails alike)
                c = loc.cname
                if loc.kind == "list":
                    val, test = f"Py_NewRef({c})", c
                else:
                    val = self.box(CVal(c, self.c_kind_type(loc.kind)), st.pos)
                    test = f"{c}_set"
                parts.append(f"if ({test}) {{ PyObject *_v = {val}; if (!_v) goto fail; int _bad = "
                             f"PyDict_SetItem({d}, {self.name(n)}, _v); Py_DECREF(_v); if (_bad) goto fail; }}")
            return " ".join(parts)

        self._c_late[marker] = fill
        return f"({{ PyObject *{d} = rt_keep(r, PyDict_New()); if (!{d}) goto fail; {marker} {d}; }})"

    def c_kind_type(self, kind: str | None) -> Type:
        """A type whose values a C local of this kind holds (for boxing them)."""
        if kind is None:
            return NONE
        if kind.startswith("key:"):
            return EntityType(kind[4:])
        types: dict[str, Type] = {"int": INT, "bool": BOOL, "text": TEXT}
        return types[kind]

    def leaf_c_function(self, proc: str) -> tuple[str, list[str]] | None:
        """The C function running a leaf procedure with its parameters and locals as C variables (``int64_t``
        scalars; lists as new references, let go of on every way out), and its parameters' kinds; defined once.
        None where a parameter has no type C holds, or a local is held two ways (:class:`LocalsConflict`): the
        leaf then runs with an env dict (:meth:`leaf_function`)."""
        if proc in self.leaf_c_defined:
            return self.leaf_c_defined[proc]
        decl = self.symbols.procedures[proc]
        types = self.checked.param_types
        kinds = [_local_kind(types.get(id(p), ANY)) for p in decl.params]
        if any(k is None for k in kinds) or len({p.name for p in decl.params}) != len(decl.params):
            self.leaf_c_defined[proc] = None
            return None
        params = [k for k in kinds if k is not None]
        name = f"lpc_{len(self.leaf_c_defined)}"
        self.leaf_c_defined[proc] = (name, params)
        saved = (self.cite_stack, self.pc, self.cached_locals, self.c_locals, self._c_late)
        assert self.pc is not None
        self.pc = ProcedureCompiler(self.pc.x, decl, self.pc.leaves, self.pc.generic)
        self.cite_stack = [(decl.name, decl.citations)]
        self.cached_locals, self._c_late = {}, {}
        found = self.c_locals = {p.name: CLocal(self.fresh("c_" + p.name), k) for p, k in zip(decl.params, params)}
        mark = (len(self.functions), dict(self.leaf_defined), dict(self.leaf_c_defined))
        body: list[str] = []
        try:
            self.block(decl.body.statements, body)
            if any(loc.kind == "list" and loc.none_written for loc in found.values()):
                raise LocalsConflict(proc)
            late = self._c_late
        except LocalsConflict:
            del self.functions[mark[0]:]  # (with the leaves it called, defined again where needed)
            self.leaf_defined, self.leaf_c_defined = mark[1], mark[2]
            self.leaf_c_defined[proc] = None
            return None
        except Unsupported:
            del self.leaf_c_defined[proc]
            raise
        finally:
            self.cite_stack, self.pc, self.cached_locals, self.c_locals, self._c_late = saved
        text = "\n".join(body)
        for marker, fill in late.items():
            text = text.replace(marker, fill(found))
        args = ", ".join(f"{'PyObject *' if k == 'list' else 'int64_t '}a{i}" for i, k in enumerate(params))
        decls, release = [], []
        for i, loc in enumerate(found.values()):
            c = loc.cname
            is_param = i < len(params)
            if loc.kind == "list":
                decls.append(f"PyObject *{c} = {f'Py_NewRef(a{i})' if is_param else 'NULL'};")
                release.append(f"Py_XDECREF({c});")
            else:
                decls.append(f"int64_t {c} = {f'a{i}' if is_param else '0'}; int {c}_set = {int(is_param)}; "
                             f"(void){c}; (void){c}_set;")
        self.functions.append("\n".join([
            f"static int {name}(R *r{', ' + args if args else ''}) {{",
            *("    " + line for line in decls),
            *("    " + line for line in text.split("\n")),
            f"    {' '.join(release)} return 0;",
            "fail:",
            f"    {' '.join(release)} return -1;",
            "}",
        ]))
        return self.leaf_c_defined[proc]

    def leaf_function(self, proc: str) -> str:
        """The C function running a leaf procedure with an env dict (defined once)."""
        name = self.leaf_defined.get(proc)
        if name is not None:
            return name
        name = self.leaf_defined[proc] = f"lp_{len(self.leaf_defined)}"
        decl = self.symbols.procedures[proc]
        saved = (self.cite_stack, self.pc)
        saved_locals, self.cached_locals = self.cached_locals, {}
        saved_c, self.c_locals = self.c_locals, None  # (its locals are its env dict's, whoever calls it)
        assert self.pc is not None
        self.pc = ProcedureCompiler(self.pc.x, decl, self.pc.leaves, self.pc.generic)
        self.cite_stack = [(decl.name, decl.citations)]
        body: list[str] = []
        try:
            self.block(decl.body.statements, body)
            body = self.finish_locals(body)
        except Unsupported:
            del self.leaf_defined[proc]
            raise
        finally:
            self.cite_stack, self.pc = saved
            self.cached_locals = saved_locals
            self.c_locals = saved_c
        self.functions.append("\n".join([
            f"static int {name}(R *r, PyObject *env) {{",
            "    PyObject *saved_env = r->env; r->env = env;",
            *("    " + line for line in body),
            "    r->env = saved_env; return 0;",
            "fail:",
            "    r->env = saved_env; return -1;",
            "}",
        ]))
        return name

    def move(self, st: A.Move, out: list[str]) -> None:
        """Move a piece, or each piece of a list, to a zone."""
        zname, zkey, hidden = self.zone_target(st.zone, {})
        out.append(f"{{ PyObject *_zk = {zkey}; if (!_zk) goto fail; _zk = rt_keep(r, _zk); if (!_zk) goto fail;")
        if isinstance(self.type_of(st.pieces), ListType):
            out.append(self.each(st.pieces, {}, "_p", None,
                                 lambda v: f"if (rt_move(r, _p, {zname}, Py_NewRef(_zk), {int(hidden)}) < 0) "
                                     f"goto fail;",
                                 copy=True))
        else:
            p = self.scalar(st.pieces, {})
            out.append(f"if (rt_move(r, {p.text}, {zname}, Py_NewRef(_zk), {int(hidden)}) < 0) goto fail;")
        out.append("}")

    # ------------------------------------------------------ resume points
    def continuation(self, pc: ProcedureCompiler, at: int, levels: list[Level], first: int) -> str:
        """The C function running a procedure from a place on until its next stop (see
        :meth:`~.compiler.ProcedureCompiler.continuation`): a loop entered from the middle of its
        body is a one-time block around the rest of the round and the loop itself."""
        self.pc = pc
        out: list[str] = []
        self.cite_stack = list(levels[-1].cites)
        closers: list[int] = []
        for d, level in enumerate(levels):
            if isinstance(level.owner, _LOOPS):
                out.append("do {")
                closers.append(d)
        for d in range(len(levels) - 1, -1, -1):
            level = levels[d]
            start = first if d == len(levels) - 1 else levels[d + 1].index + 1
            self.cite_stack = list(level.cites)
            self.stop_block(level.statements[start:], out)
            if isinstance(level.owner, _LOOPS):
                self.cite_stack = list(levels[d - 1].cites)
                self.loop(level.owner, out, enter=False)
                out.append("} while (0);")
        self.cite_stack = list(levels[0].cites)
        out.append(f"RET({pc.stops[id(pc.decl)]});")
        return self.function(f"{pc.decl.name}_{at}", "st, env", out, returns="int")

    def stop_block(self, statements: Sequence[A.Stmt], out: list[str]) -> None:
        """C statements for statements that may stop: a stop returns its instruction."""
        assert self.pc is not None
        pc = self.pc
        for st in statements:
            if pc.fusable(st):
                self.statement(st, out)
                continue
            match st:
                case A.Choose() | A.Chance() | A.CallProc() | A.Finish():
                    out.append(f"RET({pc.stops[id(st)]});")
                    return
                case A.Break():
                    out.append("break;")
                    return
                case A.If():
                    for i, (cond, body) in enumerate(st.branches):
                        out.append(f"{'if' if i == 0 else 'else if'} (({{ {self.site(cond.pos)} 1; }}) && "
                                   f"{self.truth(cond, {})}) {{")
                        self.stop_block(body.statements, out)
                        out.append("}")
                    if st.otherwise is not None:
                        out.append("else {")
                        self.stop_block(st.otherwise.statements, out)
                        out.append("}")
                case A.Rule():
                    self.cite_stack.append((st.name, st.citations))
                    self.stop_block(st.body.statements, out)
                    self.cite_stack.pop()
                case A.While() | A.Loop() | A.For():
                    self.loop(st, out, enter=True)
                case A.Let() | A.Assign() | A.Move() | A.Reveal() | A.Look() | A.Swap() | A.Begin() | A.Use() \
                        | A.Say():
                    raise AssertionError(f"{st} never stops; statement writes it")
                case _:
                    assert_never(st)

    def loop(self, st: A.While | A.Loop | A.For, out: list[str], enter: bool) -> None:
        """A loop that may stop; ``enter``: from its start (a `for` takes its list first)."""
        assert self.pc is not None
        site = self.site(st.pos)
        if isinstance(st, A.For):
            items, index = self.pc.counters[id(st)]
            elem = element_type(self.type_of(st.domain))
            if not _scalar(elem):
                raise Unsupported(f"a loop over a list of {elem}", st.pos)
            # (the loop's list and index are locals of the env dict: set and read keeping what is held for it)
            ni = self.name(items)
            _, d = self.local_env()
            if enter:
                cost = self.kept_cost(st)
                lst = self.as_list(st.domain, {})
                out.append(f"{site} {{ PyObject *_l = {lst.text}; if (rt_charge(r, PyList_GET_SIZE(_l) * {cost} "
                    f"+ 1) < 0) "
                           f"goto fail; if (rt_set_local_held(r, &LD[{d}], {ni}, "
                               f"PyList_GetSlice(_l, 0, PyList_GET_SIZE(_l))) < 0) goto fail; "
                           f"{self.write_local(index, CVal('0', INT), st.pos)} }}")
            item = self.unbox("PyList_GET_ITEM(_items, _i)", elem, st.pos)
            out.append(f"while (1) {{ {site} PyObject *_items = rt_local(r, {ni}); if (!_items) goto fail; "
                       f"if (!PyList_Check(_items)) {{ PyErr_SetString(PyExc_TypeError, \"a list\"); goto fail; }} "
                       f"int64_t _i = {self.local_read(index, INT, st.pos).text}; "
                       f"if (_i < 0 || _i >= PyList_GET_SIZE(_items)) break; "
                       f"int64_t _it = {item.text}; "
                       f"{self.write_local(st.var, CVal('_it', elem), st.pos)} "
                       f"{self.write_local(index, CVal('(_i + 1)', INT), st.pos)}")
            if st.where is not None:
                out.append(f"{self.site(st.where.pos)} if (!{self.truth(st.where, {})}) continue;")
            self.stop_block(st.body.statements, out)
            out.append("}")
            return
        cost = self.round_cost(st.body.statements)
        cond = self.truth(st.cond, {}) if isinstance(st, A.While) else "1"
        out.append(f"while (({{ {site} 1; }}) && {cond}) {{")
        out.append(f"{site} if (rt_charge(r, {cost}) < 0) goto fail;")
        self.stop_block(st.body.statements, out)
        out.append("}")

    def kept_cost(self, st: A.For) -> int:
        """The steps one round of a `for` loop that may stop costs (as the Python back end weighs it)."""
        assert self.pc is not None
        shadow = ProcedureCompiler(self.pc.x, self.pc.decl, self.pc.leaves, self.pc.generic)
        shadow.stops = self.pc.stops
        shadow.counters = self.pc.counters
        shadow.cite_stack = list(self.cite_stack)
        lines: list[tuple[str, A.Pos, tuple[A.Citation, ...]]] = []
        try:
            shadow.loop(st, Frame(hot=True), lines, "", enter=False)
        except Exception:
            return 1
        return weight("".join(text.strip() for text, _, _ in lines[1:]))

    # ------------------------------------------------------------ decisions
    def pender(self, pc: ProcedureCompiler, st: A.Choose | A.Chance, cites: list[tuple[str, tuple[A.Citation, ...]]],
               fallback: Any = None) -> str:
        """The C function ``pend(st, env, decision)`` making the Pending of a decision: every legal
        (branch index, values) in order, and its player (see :meth:`.compiler.ProcedureCompiler.pender`)."""
        self.held_mirrors, self.invariants, self.held_values = {}, {}, {}
        try:
            return self._pender(pc, st, cites, fallback)
        finally:
            self.held_mirrors, self.invariants, self.held_values = None, {}, {}

    def _pender(self, pc: ProcedureCompiler, st: A.Choose | A.Chance, cites: list[tuple[str, tuple[A.Citation, ...]]],
                fallback: Any = None) -> str:
        """:meth:`pender`, the mirrors read held (a listing changes nothing: a table's array stays the one found)."""
        assert self.held_mirrors is not None
        self.pc = pc
        self.cite_stack = list(cites)
        if isinstance(st, A.Chance):
            branches: list[tuple[tuple[A.Binding, ...], A.Expr | None]] = [((st.binding,), None)]
        else:
            branches = [(o.bindings, o.when) for o in st.options]
        out: list[str] = [self.site(st.pos)]
        single = len(branches) == 1 and len(branches[0][0]) == 1
        shape = self.options_shape(branches)
        width: int | None = None
        if shape is not None:  # every value held as int64: the options stay arrays until read
            width, table = shape
            name = f"SHAPE{len(self.arrays)}"
            self.arrays.append(f"static const signed char {name}[{len(table)}] = {{{', '.join(map(str, table))}}};")
            out.append(f"Options *opts = rt_options_new(r, {name}, {width}); if (!opts) goto fail;")
        else:
            out.append("PyObject *out = rt_keep(r, PyList_New(0)); if (!out) goto fail;")
        out.append("int64_t _n = 0; (void)_n;")
        for bi, (bindings, when) in enumerate(branches):
            if single:  # its `when` on the Python back end's one line of the listing, at the binding
                out.append(self.branch_options(st, bi, bindings, single, width, when))
                continue
            body = self.branch_options(st, bi, bindings, single, width)
            if when is not None:
                out.append(f"{self.site(when.pos)} if ({self.truth(when, {})}) {{ {body} }}")
            else:
                out.append(body)
        out.append(self.site(st.pos))
        if shape is not None:
            out.append("PyObject *made = (PyObject *)opts;")
        elif single:
            when = branches[0][1]
            out.append("PyObject *made = RT_CALL(VALUES, out); if (!made) goto fail; made = rt_keep(r, made); "
                       "if (!made) goto fail;")
            if when is not None:  # no options: a plain empty list, as the Python back end makes
                out.append("if (PyList_GET_SIZE(out) == 0) made = out;")
        else:
            out.append("PyObject *made = out;")
        if isinstance(st, A.Chance):
            out.append(f"PyObject *who = rt_int_obj({CHANCE_PLAYER});")
        else:
            who = self.scalar(st.player, {})
            out.append(f"PyObject *who = {self.box(who, st.pos)};")
        out.append("if (!who) goto fail; who = rt_keep(r, who); if (!who) goto fail;")
        out.append("RETOBJ(rt_pending_new(args[2], who, made));")
        out[:0] = self.held_mirrors.values()
        return self.function(f"pend_{pc.decl.name}", "st, env, decision", out, returns="object", fallback=fallback)

    def options_shape(self, branches: Sequence[tuple[tuple[A.Binding, ...], A.Expr | None]]
                      ) -> tuple[int, list[int]] | None:
        """(values per option, per branch its number of values and their kinds) where every value
        of every branch is held as an int64 of a kind an Options array keeps (see ``crt.h``)."""
        if len(branches) > 255:
            return None
        width = max((len(b) for b, _ in branches), default=0)
        table: list[int] = []
        for bindings, _ in branches:
            kinds = [self.value_kind(element_type(self.type_of(b.domain))) for b in bindings]
            if any(k is None or k > 127 for k in kinds):
                return None
            table += [len(kinds), *(k for k in kinds if k is not None), *[0] * (width - len(kinds))]
        return width, table

    def branch_options(self, st: A.Stmt, bi: int, bindings: tuple[A.Binding, ...], single: bool,
                       width: int | None = None, when: A.Expr | None = None) -> str:
        """C statements adding every option of one branch to ``out`` (``width``: to the Options ``opts``, rows
        of this many values): a loop per binding.  ``when``: the condition of a decision of one value, tested
        where the Python back end's listing line tests it."""
        scope: dict[str, Bound] = {}
        names: list[tuple[str, Type, bool]] = []
        heads: list[tuple[A.Binding, dict[str, Bound], str, Type]] = []
        for b in bindings:
            elem = element_type(self.type_of(b.domain))
            var = self.fresh(b.var)
            heads.append((b, dict(scope), var, elem))
            scope = {**scope, b.var: (var, elem, not _scalar(elem))}
            names.append((var, elem, not _scalar(elem)))
        if width is not None:  # the option's row filled in place: its values, then zeros to the width
            ov = self.fresh("ov")
            fill = " ".join(f"{ov}[{i}] = {names[i][0] if i < len(names) else 0};" for i in range(width))
            add = f"{{ int64_t *{ov} = rt_option_row(opts, {bi}, {width}); if (!{ov}) goto fail; {fill} }}"
        elif single:
            var, elem, held = names[0]
            add = (f"{{ PyObject *_o = {self.box(CVal(var, elem, held), st.pos)}; if (!_o) goto fail; "
                   f"int _bad = PyList_Append(out, _o); Py_DECREF(_o); if (_bad) goto fail; }}")
        else:
            vals = self.fresh("vals")
            fill = " ".join(f"{vals}[{i}] = {self.box(CVal(v, t, h), st.pos)};" for i, (v, t, h) in enumerate(names))
            add = (f"{{ PyObject *{vals}[{max(1, len(names))}]; {fill} PyObject *_t = rt_tuple({len(names)}, {vals}); "
                   f"if (!_t) goto fail; PyObject *_opt = PyTuple_Pack(2, PyTuple_GET_ITEM(SMALL_INTS, {bi}), _t); "
                   f"Py_DECREF(_t); if (!_opt) goto fail; int _bad = PyList_Append(out, _opt); Py_DECREF(_opt); "
                   f"if (_bad) goto fail; if (PyList_GET_SIZE(out) > 100000 * 4) {{ rt_stuck(); goto fail; }} }}")
        if bi > 255:
            raise Unsupported("a decision of more than 256 branches", st.pos)
        kept = self.kept_listings(bindings)
        body = add
        for k in range(len(heads) - 1, -1, -1):
            b, sc, var, elem = heads[k]
            inner = {**sc, b.var: (var, elem, not _scalar(elem))}
            # (a decision of one value is listed on one line of the Python back end, at its binding)
            at = b.pos if single or b.where is None or k in kept else b.where.pos
            guard, rest = self.split_where(b, sc, inner, at)
            body = "".join(f"{kept[j][0]}_n = -1; " if _scalar(heads[j][3]) else f"{kept[j][0]} = NULL; "
                           for j in kept if kept[j][1] == k) + body
            cost = None if k == 0 and self.data_sized(b.domain) else self.listing_cost(b, len(heads) - k)
            if k in kept:
                body = self.kept_listing(b, sc, var, elem, kept[k][0], cost, guard, rest, at, body)
                continue
            filt = f"{self.site(at)} if ({rest}) {{ {body} }}" if rest is not None else body
            first = None
            if when is not None and guard is not None:  # (Python lists the domain first, then tests `when`)
                first = f"({{ {self.site(b.pos)} {self.truth(when, {})}; }})"
            if _scalar(elem):
                looped = self.each(b.domain, sc, var, cost, _constant(filt), guard=guard, first=first,
                                   listing=not single)
            else:
                looped = self.each_object(b.domain, sc, var, cost, _constant(filt), guard=guard, first=first,
                                          listing=not single)
            body = f"{self.site(b.pos)} " + looped
            if when is not None and first is None:
                body = f"{self.site(b.pos)} if ({self.truth(when, {})}) {{ {body} }}"
        decls = "".join(f"int64_t {name}_s[16]; int64_t *{name} = {name}_s; Py_ssize_t {name}_n = -1, {name}_cap = 16; "
                        if _scalar(heads[k][3]) else f"PyObject *{name} = NULL; " for k, (name, _) in kept.items())
        return "{ " + decls + body + " }"

    def kept_listings(self, bindings: tuple[A.Binding, ...]) -> dict[int, tuple[str, int]]:
        """The bindings of a branch listed once and reused, as the Python back end lists them
        (:meth:`.compiler.ProcedureCompiler.all_options`): those whose domain and filter do not read
        the binding just before them, each with the C name of its list and the binding it is listed
        anew for (whose loop body empties it; -1: listed once per branch)."""
        reads = [self.checked.free_locals(b.domain) | (self.checked.free_locals(b.where) if b.where else set())
                 for b in bindings]
        home = [max((j for j in range(k) if bindings[j].var in reads[k]), default=-1) for k in range(len(bindings))]
        return {k: (self.fresh("kept"), home[k]) for k in range(1, len(bindings)) if home[k] < k - 1}

    def kept_listing(self, b: A.Binding, sc: Scope, var: str, elem: Type, name: str, cost: int | None,
                     guard: str | None, rest: str | None, at: A.Pos, body: str) -> str:
        """C statements for a binding listed once and reused (:meth:`kept_listings`): unless ``name``
        holds its list, its domain is charged, filtered (``guard`` once, ``rest`` per value, errors said
        at ``at``) into a new list ``name``; then that list is charged again and looped over, as the
        Python back end does.  Values held as ``int64_t`` are kept in a C array ``name`` of ``name_n`` values
        (-1: not listed), room for ``name_cap`` (see crt.h ``rt_kept_grow``), not boxed in a list."""
        i, lv = self.fresh("i"), self.fresh("l")
        if _scalar(elem):
            fill = (f"{{ if ({name}_n == {name}_cap && rt_kept_grow(r, &{name}, &{name}_cap) < 0) goto fail; "
                    f"{name}[{name}_n++] = {var}; }}")
            filt = f"{self.site(at)} if ({rest}) {{ {fill} }}" if rest is not None else fill
            loop = self.each(b.domain, sc, var, cost, _constant(filt), guard=guard, listing=True)
            charge = "" if cost is None else _listing_charge(f"{name}_n", cost)
            return (f"{self.site(b.pos)} if ({name}_n < 0) {{ {name}_n = 0; {loop} }} {self.site(b.pos)} {{ {charge} "
                    f"for (Py_ssize_t {i} = 0; {i} < {name}_n; {i}++) {{ int64_t {var} = {name}[{i}]; {body} }} }}")
        fill = (f"{{ PyObject *_o = {self.box(CVal(var, elem, not _scalar(elem)), b.pos)}; if (!_o) goto fail; "
                f"int _bad = PyList_Append({name}, _o); Py_DECREF(_o); if (_bad) goto fail; }}")
        filt = f"{self.site(at)} if ({rest}) {{ {fill} }}" if rest is not None else fill
        loop = (self.each if _scalar(elem) else self.each_object)(b.domain, sc, var, cost, _constant(filt),
                                                                     guard=guard, listing=True)
        item = (self.unbox(f"PyList_GET_ITEM({lv}, {i})", elem, b.pos).text if _scalar(elem)
                else f"PyList_GET_ITEM({lv}, {i})")
        decl = "int64_t" if _scalar(elem) else "PyObject *"
        charge = "" if cost is None else _listing_charge(f"PyList_GET_SIZE({lv})", cost)
        return (f"{self.site(b.pos)} if (!{name}) {{ {name} = rt_keep(r, PyList_New(0)); if (!{name}) goto fail; "
                f"{loop} }} {self.site(b.pos)} {{ PyObject *{lv} = {name}; {charge} "
                f"for (Py_ssize_t {i} = 0; {i} < PyList_GET_SIZE({lv}); {i}++) {{ {decl} {var} = {item}; {body} }} }}")

    def split_where(self, b: A.Binding, sc: Scope, inner: Scope, at: A.Pos) -> tuple[str | None, str | None]:
        """A binding's filter as C conditions (its leading conjuncts that do not read the binding's
        variable, the rest), split where the Python back end split it (the parts it noted in
        :attr:`.compiler.ProcedureCompiler.splits`, in the bodies of functions it wrote out in place
        too): the first part is the same for every value, so it is tested once, before the values are
        listed and only if there are any (None: nothing to test), its errors said at ``at``; the
        rest filters each value (None: nothing left)."""
        if b.where is None:
            return None, None
        split = self.pc.splits.get(id(b)) if self.pc is not None else None
        if split is None:
            return None, self.truth(b.where, inner)
        guard = f"({{ {self.site(at)} " + " && ".join(self.conjunct(p, sc) for p in split.parts[:split.lead]) + "; })"
        rest = " && ".join(self.conjunct(p, inner) for p in split.parts[split.lead:]) or None
        return guard, rest

    def listing_cost(self, b: A.Binding, later: int) -> int:
        """The steps a listing charges per value of a binding (``later``: bindings from it on): the
        Python back end's (:attr:`.compiler.ProcedureCompiler.listing_costs`), else weighed as it would."""
        known = self.pc.listing_costs.get(id(b)) if self.pc is not None else None
        return known if known is not None else self.cost(b.where, names=[b.var]) + later

    def conjunct(self, part: Conjunct, sc: Scope) -> str:
        """A part of a split filter as a C condition: in the body of the functions it is in, each
        parameter standing for its argument's C text (evaluated where it is read, as the Python
        back end writes such a function out in place, with arguments that are cheap to evaluate again)."""
        for call in part.calls:
            decl = self.symbols.functions[call.func]
            args = [self.expr(a, sc) for a in call.args]
            sc = {p.name: (v.text, v.type, v.obj) for p, v in zip(decl.params, args)}
        return self.truth(part.expr, sc)

    def each_object(self, e: A.Expr, sc: Scope, var: str, cost: int | None, body: Callable[[str], str],
                    guard: str | None = None, first: str | None = None, listing: bool = False) -> str:
        """C statements looping ``var`` (a borrowed ``PyObject *``) over the items of a list of values
        C does not hold as numbers (lists, values of type any), running ``body(var)`` for each;
        ``guard``, ``first`` and ``listing`` as in :meth:`each`."""
        got = self.expr(e, sc)
        if not got.obj:
            raise Unsupported("a loop over a value that is not a list", e.pos)
        lv, i = self.fresh("l"), self.fresh("i")
        charge = "" if cost is None else _listing_charge(f"PyList_GET_SIZE({lv})", cost) if listing else (
            f"if (rt_charge(r, PyList_GET_SIZE({lv}) * {cost} + 1) < 0) goto fail;")
        return (f"{{ PyObject *{lv} = {got.text}; {charge} {_gated(f'PyList_GET_SIZE({lv})', guard, first)}"
                f"for (Py_ssize_t {i} = 0; {i} < "
            f"PyList_GET_SIZE({lv}); {i}++) "
                f"{{ PyObject *{var} = PyList_GET_ITEM({lv}, {i}); {body(var)} }} }}")

    def data_sized(self, e: A.Expr) -> bool:
        """Whether a domain is bounded by the component data or the player count (:func:`.codegen.data_sized`)."""
        return data_sized(self.checked, e)

    def call_env(self, pc: ProcedureCompiler, st: A.CallProc, cites: list[tuple[str, tuple[A.Citation, ...]]],
                 fallback: Any = None) -> str:
        """The C function making the locals of a called procedure that may pause (bounded, typed)."""
        self.pc = pc
        self.cite_stack = list(cites)
        out = [self.site(st.pos), f"RETOBJ({self.new_env(st, kept=True)});"]
        return self.function(f"call_{st.name}", "st, env", out, returns="object", fallback=fallback)

    def winners(self, pc: ProcedureCompiler, st: A.Finish, cites: list[tuple[str, tuple[A.Citation, ...]]],
                fallback: Any = None) -> str:
        """The C function giving the winners a `finish` names (a list, checked by the runtime)."""
        self.pc = pc
        self.cite_stack = list(cites)
        v = self.expr(st.winners, {})
        if not v.obj:
            raise Unsupported("winners that are not a list", st.pos)
        out = [f"r->budget = {STEP_LIMIT};", self.site(st.pos), f"RETOBJ(Py_NewRef({v.text}));"]
        return self.function("finish", "st, env", out, returns="object", fallback=fallback)

    # ------------------------------------------------------------- functions
    def function(self, base: str, params: str, body: list[str], returns: str, fallback: Any = None) -> str:
        """Add a module-level C function taking the state and locals (and a decision or option);
        its exported name.  ``fallback``: the Python back end's function of a function that changes
        nothing (a listing, new locals, winners), run instead where a number goes past the
        language's bound: the Python back end computes with unbounded numbers until a value is kept,
        so it alone says what such an expression gives."""
        cname = f"f{len(self.exported)}_{''.join(c if c.isalnum() else '_' for c in base)[:40]}"
        nargs = len(params.split(","))
        # the body runs with the caller's R: a Python call (the wrapper below) or the run loop (crt.h's
        # rt_run), which sets the R up once for the whole run
        lines = [
            f"static int {cname}_body(R *r, PyObject *const *args, Py_ssize_t nargs, int64_t *ret_out, "
            "PyObject **retobj_out) {",
            "    int64_t ret = -1; PyObject *retobj = NULL; (void)ret; (void)retobj; (void)args; (void)nargs;",
        ]
        lines.extend("    " + line for line in self.finish_locals(body))
        lines += [
            "    PyErr_SetString(PyExc_SystemError, \"generated code ran past its end\");",
            "fail:",
            "    return -1;",
            "done:",
            "    *ret_out = ret; *retobj_out = retobj;",
            "    return 0;",
            "}",
            f"static PyObject *{cname}(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {{",
            "    R rr; R *r = &rr; (void)self;",
            f"    if (nargs != {nargs}) {{ PyErr_SetString(PyExc_TypeError, \"{nargs} arguments\"); return NULL; }}",
            "    if (!PyDict_Check(args[1])) { PyErr_SetString(PyExc_TypeError, \"locals are a dict\"); return NULL; }",
            "    if (rt_begin(r, args[0], args[1]) < 0) return NULL;",
            "    r->site = -1;",
            "    int64_t ret = -1; PyObject *retobj = NULL;",
            "    int64_t budget0 = r->budget; (void)budget0;",
            f"    if ({cname}_body(r, args, nargs, &ret, &retobj) == 0) {{",
            "        if (rt_end(r, 0) < 0) { Py_XDECREF(retobj); return NULL; }",
            "        return retobj ? retobj : PyLong_FromLongLong(ret);" if returns == "int"
            else "        return retobj;",
            "    }",
        ]
        if fallback is not None:  # run by native.fallback: the Python function of the state's own game
            self.fallbacks.append(fallback)
            lines += [
                "    if (PyErr_ExceptionMatches(TOO_LARGE)) {",
                "        PyErr_Clear(); r->budget = budget0; rt_end(r, 0);",
                f"        PyObject *fi = PyLong_FromLong({len(self.fallbacks) - 1}); if (!fi) return NULL;",
                "        PyObject *fa[4] = {fi, args[0], args[1], nargs > 2 ? args[2] : Py_None};",
                f"        PyObject *got = PyObject_Vectorcall({self.const(FALLBACK)}, fa, (size_t)nargs + 1, NULL);",
                "        Py_DECREF(fi);",
                "        return got;",
                "    }",
            ]
        lines += [
            "    rt_end(r, -1);",
            "    return NULL;",
            "}",
        ]
        self.functions.append("\n".join(lines))
        self.exported.append((cname, cname))
        return cname

    @contextmanager
    def attempt(self) -> Iterator[None]:
        """Write one function; an unsupported construct leaves it to the Python back end (noted)."""
        mark = (len(self.functions), len(self.exported), dict(self.leaf_defined), dict(self.leaf_c_defined))
        self.cached_locals = {}
        try:
            yield
        except Unsupported as err:
            self.cached_locals = {}
            del self.functions[mark[0]:]
            del self.exported[mark[1]:]
            self.leaf_defined = mark[2]
            self.leaf_c_defined = mark[3]
            self.skipped.append(err)
            raise

    def source(self, module: str) -> str:
        """The whole C source of the module."""
        names = list(self.names.items())  # in the order they were numbered: N0, N1, ...
        decls = [f"static PyObject *{c};" for _, c in names]
        inits = [f"    if (!({c} = PyUnicode_InternFromString({_c_string(text)}))) return NULL;" for text, c in names]
        methods = [f"    {{\"{py}\", (PyCFunction)(void (*)(void)){c}, METH_FASTCALL, "
            f"NULL}}," for py, c in self.exported]
        return "\n".join([
            "/* Generated by interpreter/cgen.py from a rules spec: do not edit. */",
            f"#define RT_GRAPHS {max(1, len(self.graphs))}",
            "#include \"crt.h\"",
            "static PyObject *WORLD_OWNER;",
            "static PyObject *WORLD_MAPS[2 * RT_GRAPHS];",
            "static PyObject *CONSTS;",
            "#define RET(pc) do { ret = (pc); goto done; } while (0)",
            "#define RETOBJ(x) do { retobj = (x); if (!retobj) goto fail; goto done; } while (0)",
            *decls,
            *self.arrays,
            *self.text_key_source(),
            *self.mirror_source(),
            *self.local_source(),
            "static int rt_look(R *r, int64_t piece, int64_t who) {",
            "    if (who == RT_NONE || who < 0 || who >= r->n) { PyErr_Format(PyExc_ValueError, \"no seat "
                "%lld\", (long long)who); return -1; }",
            "    PyObject *seen = rt_attr(r->st, CSI_seen, S_seen); if (!seen) return -1;",
            "    if (!PyList_Check(seen) || piece < 0 || piece >= PyList_GET_SIZE(seen)) { Py_DECREF(seen); "
                "PyErr_SetString(PyExc_IndexError, \"list index out of range\"); return -1; }",
            "    PyObject *bit = PyLong_FromLongLong(1LL << who); if (!bit) { Py_DECREF(seen); return -1; }",
            "    PyObject *now = PyNumber_Or(PyList_GET_ITEM(seen, piece), bit); Py_DECREF(bit);",
            "    int bad = !now || PyList_SetItem(seen, piece, now) < 0; Py_DECREF(seen); return bad ? -1 : 0;",
            "}",
            *self.functions,
            f"static const RtBody BODIES_[] = {{{''.join(f'{c}_body, ' for _, c in self.exported)}NULL}};",
            "static PyObject *setup(PyObject *self, PyObject *args) {",
            "    (void)self;",
            "    if (CONSTS) Py_RETURN_NONE;  /* one setup per process: the module is shared */",
            "    PyObject *common, *consts;",
            "    if (!PyArg_ParseTuple(args, \"O!O!\", &PyTuple_Type, &common, &PyTuple_Type, &consts)) return NULL;",
            "    if (rt_setup_common(common) < 0) return NULL;",
            *inits,
            "    CONSTS = Py_NewRef(consts);",
            "    Py_RETURN_NONE;",
            "}",
            "static PyMethodDef methods[] = {",
            "    {\"setup\", setup, METH_VARARGS, NULL},",
            "    {\"program\", rt_program_new, METH_VARARGS, NULL},",
            "    {\"run\", (PyCFunction)(void (*)(void))rt_run_py, METH_FASTCALL, NULL},",
            "    {\"advance\", (PyCFunction)(void (*)(void))rt_advance_py, METH_FASTCALL, NULL},",
            "    {\"clone_state\", (PyCFunction)(void (*)(void))rt_clone_state_py, METH_FASTCALL, NULL},",
            "    {\"state_class\", rt_state_class_py, METH_VARARGS, NULL},",
            *methods,
            "    {NULL, NULL, 0, NULL}",
            "};",
            f"static struct PyModuleDef moddef = {{PyModuleDef_HEAD_INIT, \"{module}\", NULL, -1, methods}};",
            f"PyMODINIT_FUNC PyInit_{module}(void) {{ RT_BODIES = BODIES_; RT_NBODIES = {len(self.exported)}; "
            f"RT_VM = VM; RT_NVM = {len(self.mirrors)}; "
            f"RT_LD = LD; RT_NLD = {self.local_nprocs}; RT_LS = LS; RT_LSN = LSN; RT_LSQ = LSQ; RT_LDO = LDO; "
            "return PyModule_Create(&moddef); }",
            "",
        ])


def _ordered(op: str, x: str, a: CVal, y: str, b: CVal) -> str:
    """C text failing as Python's ``x op y`` fails where either of two numbers (held in ``x``, ``y``) is none,
    tested only for a value that may be none (crt.h ``rt_order`` says the error)."""
    maybe = [c for c, v in ((x, a), (y, b)) if not v.sure]
    if not maybe:
        return ""
    test = " || ".join(f"{c} == RT_NONE" for c in maybe)
    return f"if (__builtin_expect({test}, 0)) {{ rt_order(\"{op}\", {x}, {y}); goto fail; }} "


def _gated(count: str, guard: str | None, first: str | None = None) -> str:
    """C text put before a loop over ``count`` values so that it runs only if ``first`` holds, then
    ``guard``, tested only if there are values (nothing without either)."""
    tests = ([first] if first is not None else []) + ([f"({count}) > 0 && {guard}"] if guard is not None else [])
    return f"if ({' && '.join(tests)}) " if tests else ""


def _constant(text: str) -> Callable[[str], str]:
    """A loop body that does not name its variable's C name (it reads it by the name it was bound to)."""
    return lambda _var: text
