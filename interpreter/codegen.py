"""Checked expressions as Python source: the compiler's fast path.

The compiler turns every expression, every run of statements between two
stops of a procedure, and the listing of a decision's options into the text
of a small Python function, compiled once when the spec is loaded (see
:mod:`.compiler`).  A whole condition such as ``owner[x] == p and
ready[x]`` then runs as one Python expression instead of a tree of closures
calling each other.

How values are reached from generated code:

- ``st`` is the :class:`~interpreter.runtime.State`, ``env`` the locals of the
  running procedure (a dict).  Variables bound inside the generated code
  (aggregates, comprehensions, decision bindings, function parameters) are
  Python locals named ``_<n>_<name>``, a form no other generated name has.
- Component data (table columns, piece faces, table keys) are constants of the
  namespace of the generated code, named ``K<n>``.
- In *hot* functions, ``st.vals[name]``, ``st.zones[name]``, ``st.settings[name]``
  and the like are read once into a local alias at the top of the function.
  This is safe because no generated code replaces those dicts; they are only
  changed in place.  Code that only reads ``env`` reads its locals once too.

Expressions are pure, so an aggregate's generator may stop early (``any``,
``all``, ``first``), and a user function whose arguments are plain names,
literals or cheap expressions is inlined: its parameters are replaced by the
argument text, and its own bound variables get fresh names, so nothing can
be captured.  Code made for known switch settings has the settings as
literals; literal comparisons and Python's own short cuts on literals are
decided when the code is made, never skipping an operand that could fail.
Each generated statement line remembers its spec position and citations, so a
failure inside generated code is reported at the rule text that failed
(:meth:`PyGen.locate`).
"""

from __future__ import annotations

import ast as pyast
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, assert_never, overload

from . import ast as A
from .builtins import BUILTIN_HELPERS, BUILTINS, SPECIAL_NAMES
from .checker import Checked
from .errors import RuleError
from .files import MAX_FILE_BYTES
from .notation import piece
from .symbols import Kind
from .types import BOOL, EntityType, ListType, PieceType, Type

#: Inline a user function only while its generated text stays this short.
INLINE_LIMIT = 700

_OPS = frozenset({"+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"})
_SIMPLE = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+|'[^'\\]*'|env\['[A-Za-z0-9_$]+'\])$")


def zone_of(st: Any, ref: tuple[str, Any]) -> list[int]:
    """The live list of pieces of a zone value ``(name, key)``."""
    return st.zones[ref[0]][ref[1]]  # type: ignore[no-any-return]


def check_key(table: dict[Any, Any], key: Any, name: str) -> Any:
    """``key`` if the indexed state has it, else a KeyError naming the state."""
    if key not in table:
        raise KeyError(f"{name} has no key {key!r}")
    return key


#: The step budget of one run of a spec's code (from an action to the next decision) and
#: of one evaluation outside a run (a data check, an invariant, a score).  A step is
#: roughly one small operation: a loop round costs the size of its body, an aggregate
#: or a listing of options the size of its domain times the size of what it computes.
STEP_LIMIT = 1_000_000
#: The most numbers a range ``a .. b`` may hold.
MAX_RANGE = 1_000_000
#: The most items a list joined with ``+`` may hold.
MAX_LIST = 1_000_000
#: The longest text a game may keep: as long as the file (spec or table) a text comes from.
MAX_TEXT = MAX_FILE_BYTES
#: The deepest lists of lists a game may keep (in a variable, a local, a loop's list or an
#: option's values): a stored state holds no deeper ones.
MAX_KEPT_DEPTH = 4


class Stuck(Exception):
    """The running code spent its :data:`STEP_LIMIT` steps without reaching a decision."""

    def __init__(self) -> None:
        super().__init__(f"no decision reached within {STEP_LIMIT} steps")


class TooLarge(Exception):
    """A range, list or number beyond the language's bounds."""


class NotOfType(Exception):
    """A value of type `any` kept where the spec declares a type it is not of
    (see :meth:`interpreter.runtime.State.of_type`)."""


def weight(text: str) -> int:
    """The steps one run of generated text costs: about one per operation."""
    return 1 + len(text) // 24


def charge(st: Any, steps: int) -> None:
    """Take steps from the budget of the running code; :class:`Stuck` once it is spent."""
    left = st.budget - steps
    st.budget = left
    if left < 0:
        raise Stuck()


def each(st: Any, domain: Any, cost: int) -> Any:
    """A domain to iterate over, after charging its length times the cost of one round."""
    left = st.budget - len(domain) * cost - 1
    st.budget = left
    if left < 0:
        raise Stuck()
    return domain


def items(st: Any, domain: Any, cost: int) -> list[Any]:
    """A copy of a domain to loop over, after charging its length times the cost of one round."""
    charge(st, len(domain) * cost + 1)
    return list(domain)


def kept_items(st: Any, domain: Any, cost: int) -> list[Any]:
    """:func:`items` of a loop that waits for decisions: the list is kept in the state, so
    :func:`bounded` as any kept value is."""
    return bounded(items(st, domain, cost))  # type: ignore[no-any-return]


def int_range(low: int, high: int) -> range:
    """The numbers ``low .. high`` (at most :data:`MAX_RANGE` of them)."""
    if high - low >= MAX_RANGE:
        raise TooLarge(f"the range {_short(low)} .. {_short(high)} holds more than {MAX_RANGE} numbers")
    return range(low, high + 1)


def times(a: int, b: int) -> int:
    """``a * b``, if it is at most :data:`~interpreter.ast.MAX_INT` in size."""
    out = a * b
    if -A.MAX_INT <= out <= A.MAX_INT:
        return out
    raise TooLarge(f"a product larger than {A.MAX_INT}")


def plus(a: Any, b: Any) -> Any:
    """``a + b``; a number the sum gives must be within :data:`~interpreter.ast.MAX_INT` in size, as every
    number the rules compute is (the C back end computes in 64 bits; a value of type `any` may be no number)."""
    out = a + b
    if type(out) is not int or -A.MAX_INT <= out <= A.MAX_INT:
        return out
    raise TooLarge(f"a number larger than {A.MAX_INT}: {_short(out)}")


def minus(a: Any, b: Any) -> Any:
    """``a - b``, bounded as :func:`plus` is."""
    out = a - b
    if type(out) is not int or -A.MAX_INT <= out <= A.MAX_INT:
        return out
    raise TooLarge(f"a number larger than {A.MAX_INT}: {_short(out)}")


def total(out: Any) -> Any:
    """The value of a `sum` aggregate, bounded as :func:`plus` is (the sum, not each partial sum)."""
    if type(out) is not int or -A.MAX_INT <= out <= A.MAX_INT:
        return out
    raise TooLarge(f"a number larger than {A.MAX_INT}: {_short(out)}")


def bounded(value: Any) -> Any:
    """A value to keep in a local, variable or counter: a number at most
    :data:`~interpreter.ast.MAX_INT` in size, or a list of such values nested at most
    :data:`MAX_KEPT_DEPTH` deep (what a stored state may hold, so that a state of any game
    can be saved and loaded again)."""
    kind = type(value)
    if kind is int:
        if not -A.MAX_INT <= value <= A.MAX_INT:
            raise TooLarge(f"a number larger than {A.MAX_INT}: {_short(value)}")
    elif kind is str:
        if len(value) > MAX_TEXT:
            raise TooLarge(f"a text longer than {MAX_TEXT} characters")
    elif kind is list:
        lists = [(value, 1)]
        while lists:
            items, depth = lists.pop()
            if depth > MAX_KEPT_DEPTH:
                raise TooLarge(f"a list nested more than {MAX_KEPT_DEPTH} deep")
            if len(items) > MAX_LIST:
                raise TooLarge(f"a list of more than {MAX_LIST} items")
            for item in items:
                if type(item) is list:
                    lists.append((item, depth + 1))
                elif type(item) is int and not -A.MAX_INT <= item <= A.MAX_INT:
                    raise TooLarge(f"a number larger than {A.MAX_INT} in a list: {_short(item)}")
                elif type(item) is str and len(item) > MAX_TEXT:
                    raise TooLarge(f"a text longer than {MAX_TEXT} characters in a list")
    return value


def joined(a: list[Any], b: list[Any]) -> list[Any]:
    """``a + b`` of two lists (at most :data:`MAX_LIST` items)."""
    if len(a) + len(b) > MAX_LIST:
        raise TooLarge(f"a list of more than {MAX_LIST} items")
    return a + b


def _short(n: int) -> str:
    """A number for a message (one too large to write out is described)."""
    return str(n) if abs(n) < 10**30 else f"a number of about {n.bit_length()} bits"


class Values(Sequence[tuple[int, tuple[Any, ...]]]):
    """The options of a decision with one branch that binds one value: ``(0, (value,))`` each.

    A list-like snapshot that makes each option only when it is read: chance
    events often have dozens of outcomes of which one is drawn.
    """

    __slots__ = ("values",)

    def __init__(self, values: list[Any]):
        self.values = values

    def __len__(self) -> int:
        return len(self.values)

    @overload
    def __getitem__(self, i: int) -> tuple[int, tuple[Any, ...]]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[int, tuple[Any, ...]]]: ...

    def __getitem__(self, i: int | slice) -> tuple[int, tuple[Any, ...]] | list[tuple[int, tuple[Any, ...]]]:
        if isinstance(i, slice):
            return [(0, (v,)) for v in self.values[i]]
        return (0, (self.values[i],))

    def __iter__(self) -> Iterator[tuple[int, tuple[Any, ...]]]:
        return ((0, (v,)) for v in self.values)

    def __contains__(self, option: object) -> bool:
        return self._value(option) in self.values if self._fits(option) else False

    def index(self, option: Any, start: int = 0, stop: int | None = None) -> int:
        """The position of an option (ValueError if it is not one)."""
        if not self._fits(option):
            raise ValueError(f"{option!r} is not an option here")
        return self.values.index(self._value(option), start, len(self.values) if stop is None else stop)

    @staticmethod
    def _fits(option: object) -> bool:
        return (type(option) is tuple and len(option) == 2 and option[0] == 0 and type(option[1]) is tuple
                and len(option[1]) == 1)

    @staticmethod
    def _value(option: Any) -> Any:
        return option[1][0]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


HELPERS: dict[str, Any] = {
    "_Values": Values,
    "_ONCE": (None,),
    "_STEP_LIMIT": STEP_LIMIT,
    "_Stuck": Stuck,
    "_charge": charge,
    "_each": each,
    "_items": items,
    "_kept_items": kept_items,
    "_range": int_range,
    "_times": times,
    "_plus": plus,
    "_minus": minus,
    "_total": total,
    "_bounded": bounded,
    "_joined": joined,
    "_zone": zone_of,
    "_check_key": check_key,
    **BUILTIN_HELPERS,
}


_NOT_LITERAL = object()
_LITERAL = re.compile(r"^(?:True|False|None|-?[0-9]+|'[^'\\]*')$")
_CANNOT_FAIL = re.compile(
    r"\s+|env\['[A-Za-z0-9_$]+'\]|\x00[A-Za-z0-9_$]+\x00|'[^'\\]*'|-?[0-9]+|==|!=|\(|\)"
    r"|\b(?:and|or|not|True|False|None)\b|\b(?:[ES]_[A-Za-z0-9_]+|a_[A-Za-z0-9_]+|_[0-9]+_[A-Za-z0-9_]+)\b")


def literal(text: str) -> Any:
    """The value of generated text that is a plain literal, else a marker that it is not."""
    return pyast.literal_eval(text) if _LITERAL.match(text) else _NOT_LITERAL


def cannot_fail(text: str) -> bool:
    """Whether generated text only compares locals and literals (so leaving it out changes nothing)."""
    pos = 0
    while pos < len(text):
        m = _CANNOT_FAIL.match(text, pos)
        if m is None:
            return False
        pos = m.end()
    return True


def cheap(e: A.Expr) -> bool:
    """Whether an expression is cheap enough to evaluate again wherever a parameter is used."""
    if isinstance(e, (A.Literal, A.Name)):
        return True
    if isinstance(e, A.Index):
        return all(cheap(a) for a in e.args)
    if isinstance(e, A.Attr):
        return cheap(e.base)
    if isinstance(e, A.Unary):
        return cheap(e.operand)
    if isinstance(e, A.Binary):
        return e.op != ".." and cheap(e.left) and cheap(e.right)
    if isinstance(e, A.Call):
        return e.func in BUILTINS and BUILTINS[e.func].cheap and all(cheap(a) for a in e.args)
    return False


class Frame:
    """What one generated function needs at its top: aliases of state tables.

    ``hot`` frames read each table once into a local; others read it in place
    (for cold code, and for code whose ``st`` may be a stand-in with no game
    state, like data checks).  Hot frames also read each local of the running
    procedure (``env``) once at the top, unless the code itself sets that local
    (``pure`` frames never set any: expressions, option listings).  A local
    that code only reads is defined before the code starts: the checker scopes
    names by block, so its definition comes before, in an enclosing block that
    has run up to here.
    """

    def __init__(self, hot: bool, pure: bool = False):
        self.hot = hot
        self.pure = pure and hot
        self.aliases: dict[str, str] = {}
        self.read: set[str] = set()
        self.written: set[str] = set()

    def local(self, ident: str) -> str:
        """The text reading a procedure local (an alias when the code only reads it)."""
        text = f"env[{ident!r}]"
        if self.pure:
            self.aliases.setdefault(f"E_{ident}", text)
            return f"E_{ident}"
        if not self.hot:
            return text
        self.read.add(ident)
        return f"\x00{ident}\x00"  # decided in finish(), once all writes are known

    def write(self, ident: str) -> str:
        """The text of a procedure local that the code sets."""
        self.written.add(ident)
        return f"env[{ident!r}]"

    def finish(self, lines: list[str]) -> tuple[list[str], list[str]]:
        """The prologue and the lines with every local read resolved; unused aliases dropped."""
        resolved = []
        for ident in sorted(self.read):
            token = f"\x00{ident}\x00"
            if ident in self.written:
                resolved.append((token, f"env[{ident!r}]"))
            else:
                self.aliases.setdefault(f"E_{ident}", f"env[{ident!r}]")
                resolved.append((token, f"E_{ident}"))
        out = []
        for line in lines:
            for token, text in resolved:
                line = line.replace(token, text)
            out.append(line)
        body = "\n".join(out)
        used = [(a, t) for a, t in self.aliases.items() if re.search(rf"\b{a}\b", body)]
        return [f"{alias} = {text}" for alias, text in used], out

    def ref(self, alias: str, text: str) -> str:
        """The text reaching a table: an alias in hot frames, else ``text``."""
        if not self.hot:
            return text
        self.aliases.setdefault(alias, text)
        return alias


Scope = Mapping[str, str]


class CompileContext:
    """What compiled closures need to know about the loaded game."""

    def __init__(self, checked: Checked, table_rows: dict[str, dict[Any, dict[str, Any]]],
                 table_keys: dict[str, list[Any]], piece_rows: list[dict[str, Any]],
                 piece_keys: list[Any], proc_index: dict[str, int]):
        self.checked = checked
        self.table_rows = table_rows
        self.table_keys = table_keys
        self.piece_rows = piece_rows
        self.piece_keys = piece_keys
        #: How actions and log lines write each piece (:attr:`interpreter.game.Game.piece_words`, the same
        #: list: changed in place when the game is given words of its own).
        self.piece_words: list[str] = [piece(k) for k in piece_keys]
        self.proc_index = proc_index



def data_sized(checked: Checked, e: A.Expr) -> bool:
    """Whether a domain's size is bounded by the component data or the player count (not by numbers
    computed as the game runs, as ranges and lists are): such a domain is charged once per listing."""
    if isinstance(e, A.Call):
        return e.func in ("nodes", "neighbours", "pieces", "clockwise", "counterclockwise", "snake")
    if isinstance(e, A.Name):
        kind = checked.ref(e)
        return (kind is Kind.SPECIAL and e.ident == "players") or kind in (Kind.TABLE, Kind.ENUM, Kind.ZONE)
    return False

#: At most this many items are in any list or zone the rules make (a kept or joined list holds at most
#: :data:`MAX_LIST`, a listed range :data:`MAX_RANGE`, a loop or comprehension is charged per round):
#: far below :data:`~interpreter.ast.MAX_INT`, so that sums of a few such sizes need no check.
SIZE_BOUND = 2**48


def magnitude(checked: Checked, e: A.Expr) -> int:
    """An upper bound of the size of the number ``e`` gives: :data:`~interpreter.ast.MAX_INT` (every number
    is within it) unless the expression says less (literals, sizes, counts, and sums, differences,
    conditionals, `abs`, `min`, `max` of such).  A sum whose operands' bounds add up to at most
    MAX_INT cannot pass it, and is not checked."""
    if isinstance(e, A.Literal):
        return abs(e.value) if type(e.value) is int else A.MAX_INT
    if isinstance(e, A.Binary) and e.op in ("+", "-"):
        return min(A.MAX_INT, magnitude(checked, e.left) + magnitude(checked, e.right))
    if isinstance(e, A.Unary) and e.op == "-":
        return magnitude(checked, e.operand)
    if isinstance(e, A.Conditional):
        return max(magnitude(checked, e.then), magnitude(checked, e.otherwise))
    if isinstance(e, A.Aggregate) and e.kind == "count":
        return SIZE_BOUND
    if isinstance(e, A.Call) and checked.ref(e) is not Kind.FUNCTION:
        if e.func in ("size", "position"):  # the size of a range is computed, not counted: it may be anything
            return A.MAX_INT if isinstance(e.args[0], A.Binary) and e.args[0].op == ".." else SIZE_BOUND
        if e.func in ("abs", "min", "max"):
            return max(magnitude(checked, a) for a in e.args)
    return A.MAX_INT


class Lazy:
    """A generated function compiled on its first call (:attr:`PyGen.lazy`): the Python back end's
    function that a C function runs in place of, needed only as a fallback."""

    __slots__ = ("filename", "gen", "made", "name", "places", "src")

    def __init__(self, gen: PyGen, name: str, src: str, filename: str,
                 places: list[tuple[A.Pos, tuple[A.Citation, ...]]]):
        self.gen, self.name, self.src, self.filename, self.places = gen, name, src, filename, places
        self.made: Any = None

    def function(self) -> Any:
        """The compiled function (compiled now if it is not yet)."""
        made = self.made
        if made is None:
            made = self.made = self.gen.define(self.name, self.src, self.filename, self.places)
        return made

    def __call__(self, *args: Any) -> Any:
        """Call the function."""
        made = self.made
        return (made if made is not None else self.function())(*args)


class PyGen:
    """Translates checked expressions into Python source and compiles functions."""

    def __init__(self, ctx: CompileContext, settings: Mapping[str, str] | None = None,
                 places: dict[str, list[tuple[A.Pos, tuple[A.Citation, ...]]]] | None = None):
        self.ctx = ctx
        #: Switch settings the code is made for (their comparisons are decided now), or None.
        self.settings = settings
        self.checked = ctx.checked
        self.symbols = ctx.checked.symbols
        self.ns: dict[str, Any] = dict(HELPERS)
        self._consts: dict[Any, str] = {}
        self._counter = 0
        self._defined: set[str] = set()
        self._piece_columns: dict[str, str] = {}
        self._table_columns: dict[tuple[str, str], str] = {}
        self._tag = f"{id(self):x}"
        #: The source of every generated function, by name (for reading and debugging).
        self.sources: dict[str, str] = {}
        self._places: dict[str, list[tuple[A.Pos, tuple[A.Citation, ...]]]] = {} if places is None else places
        #: Functions are compiled on their first call (:class:`Lazy`) while this is set: for code the C back
        #: end runs instead, from a module built before for the same inputs (so the same source compiled then).
        self.lazy = False
        self._pending: list[Lazy] = []

    # ------------------------------------------------------------- plumbing
    def fresh(self, base: str) -> str:
        """A new identifier no spec name can produce."""
        self._counter += 1
        return f"_{self._counter}_{base}"

    def const(self, value: Any, key: Any = None) -> str:
        """The name of a constant in the generated code's namespace."""
        k = key if key is not None else ("id", id(value))
        name = self._consts.get(k)
        if name is None:
            name = f"K{len(self._consts)}"
            self._consts[k] = name
            self.ns[name] = value
        return name

    def build(self, name: str, params: str, frame: Frame, lines: list[str], pos: A.Pos) -> Any:
        """Compile ``def name(params): lines`` (with the frame's aliases first) for the spec text at ``pos``."""
        return self._build(name, params, frame, [(text, pos, ()) for text in lines], located=False)

    def build_located(self, name: str, params: str, frame: Frame,
                      lines: Sequence[tuple[str, A.Pos, tuple[A.Citation, ...]]], eager: bool = False) -> Any:
        """Like :meth:`build` for statements: remember the spec place of each generated line.
        ``eager``: compiled now even while :attr:`lazy` (a function called often beside C code)."""
        return self._build(name, params, frame, lines, located=True, eager=eager)

    def _build(self, name: str, params: str, frame: Frame,
               lines: Sequence[tuple[str, A.Pos, tuple[A.Citation, ...]]], located: bool, eager: bool = False) -> Any:
        prologue, body = frame.finish([text for text, _, _ in lines])
        src = "\n".join([f"def {name}({params}):", *("    " + ln for ln in prologue), *("    " + ln for ln in body)])
        self.sources[name] = src
        filename = f"<rules:{self._tag}:{name}>"
        first = [(lines[0][1], lines[0][2])] if lines else []
        places = first * (1 + len(prologue)) + [(pos, cites) for _, pos, cites in lines]
        if located:
            self._places[filename] = places
        if self.lazy and not eager:
            made = Lazy(self, name, src, filename, places)
            self.ns[name] = made
            self._pending.append(made)
            return made
        return self.define(name, src, filename, places)

    def define(self, name: str, src: str, filename: str, places: list[tuple[A.Pos, tuple[A.Citation, ...]]]) -> Any:
        """Compile one function's source into the namespace; the function."""
        try:
            code = compile(src, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError) as err:
            # Python's own limits (at most 20 nested blocks, ...): a positioned error, not a crash
            line = getattr(err, "lineno", None) or 1
            pos, cites = places[min(line, len(places)) - 1] if places else (A.NOWHERE, ())
            why = getattr(err, "msg", "") or type(err).__name__
            raise RuleError(f"the rules cannot be compiled here ({why}): loops, choices or "
                            "expressions nested too deeply", pos, cites) from None
        exec(code, self.ns)
        return self.ns[name]

    def settle(self) -> None:
        """Compile every function made lazily and not yet called (see :attr:`lazy`)."""
        pending, self._pending = self._pending, []
        for made in pending:
            made.function()

    def locate(self, tb: TracebackType | None) -> tuple[A.Pos, tuple[A.Citation, ...]] | None:
        """The spec place of the innermost generated statement in a traceback, if any."""
        found = None
        while tb is not None:
            places = self._places.get(tb.tb_frame.f_code.co_filename)
            if places is not None and 0 < tb.tb_lineno <= len(places):
                found = places[tb.tb_lineno - 1]
            tb = tb.tb_next
        return found

    def function(self, e: A.Expr, hot: bool = False) -> Callable[[Any, dict[str, Any]], Any]:
        """``f(st, env)`` evaluating an expression."""
        frame = Frame(hot, pure=True)
        text = self.expr(e, {}, frame)
        return self.build(self.fresh("expr"), "st, env", frame,  # type: ignore[no-any-return]
                          ["st.budget = _STEP_LIMIT", f"return {text}"], e.pos)

    # ----------------------------------------------------------- expressions
    def type_of(self, e: A.Expr) -> Type:
        """The checker's type of an expression."""
        return self.checked.type_of(e)

    def expr(self, e: A.Expr, sc: Scope, fr: Frame, iterating: bool = False) -> str:
        """Python text of an expression.  ``iterating``: only iterated over, never kept."""
        match e:
            case A.Literal():
                return repr(e.value)
            case A.Name():
                return self.name(e, sc, fr)
            case A.ListLit():
                return "[" + ", ".join(self.expr(i, sc, fr) for i in e.items) + "]"
            case A.Unary():
                operand = self.expr(e.operand, sc, fr)
                if e.op == "not" and literal(operand) is not _NOT_LITERAL:
                    return repr(not literal(operand))
                return f"(not {operand})" if e.op == "not" else f"(-{operand})"
            case A.Binary():
                return self.binary(e, sc, fr, iterating)
            case A.Conditional():
                c = self.expr(e.cond, sc, fr)
                known = literal(c)
                if known is not _NOT_LITERAL:
                    return self.expr(e.then if known else e.otherwise, sc, fr)
                a, b = self.expr(e.then, sc, fr), self.expr(e.otherwise, sc, fr)
                return f"({a} if {c} else {b})"
            case A.Call():
                return self.call(e, sc, fr, iterating)
            case A.Index():
                return self.index(e, sc, fr)
            case A.Attr():
                return self.attr(e, sc, fr)
            case A.Aggregate():
                return self.aggregate(e, sc, fr)
            case A.Comprehension():
                return self.comprehension(e, sc, fr)
            case _:
                assert_never(e)

    def name(self, e: A.Name, sc: Scope, fr: Frame) -> str:
        """Python text of a name read as a value, by what the checker found it stands for."""
        ident = e.ident
        kind = self.checked.ref(e)
        match kind:
            case Kind.LOCAL:
                return sc[ident] if ident in sc else fr.local(ident)
            case Kind.SPECIAL:
                return SPECIAL_NAMES[ident].python
            case Kind.STATE:
                return f"{self.vals(ident, fr)}[None]"
            case Kind.ZONE:
                return repr((ident, None))
            case Kind.TABLE | Kind.ENUM:
                return self.const(self.ctx.table_keys[ident])
            case Kind.GRAPH:
                return repr(ident)
            case Kind.SWITCH:
                if self.settings is not None:
                    return repr(self.settings[ident])
                return fr.ref(f"S_{ident}", f"st.settings[{ident!r}]")
            case Kind.SETTING:
                if self.settings is not None:
                    return repr(int(self.settings[ident]))
                return fr.ref(f"N_{ident}", f"int(st.settings[{ident!r}])")
            case Kind.PIECES | Kind.SCOPE | Kind.LIMIT | Kind.FUNCTION | Kind.PROCEDURE | Kind.BUILTIN:
                raise AssertionError(f"the checker lets no {kind} stand as a value: {ident}")
            case _:
                assert_never(kind)

    def vals(self, name: str, fr: Frame) -> str:
        """The dict of an indexed state (counter or var)."""
        return fr.ref(f"V_{name}", f"st.vals[{name!r}]")

    def zones(self, name: str, fr: Frame) -> str:
        """The dict of a zone's piece lists."""
        return fr.ref(f"Z_{name}", f"st.zones[{name!r}]")

    def keys(self, args: tuple[A.Expr, ...], sc: Scope, fr: Frame) -> str:
        """The key of an indexed state: a value, a tuple, or None."""
        if not args:
            return "None"
        if len(args) == 1:
            return self.expr(args[0], sc, fr)
        return "(" + ", ".join(self.expr(a, sc, fr) for a in args) + ")"

    def index(self, e: A.Index, sc: Scope, fr: Frame) -> str:
        """Python text of `name[keys]`: a state's value, a zone as ``(name, key)``, or whether a limit is unused."""
        base = e.base
        key = self.keys(e.args, sc, fr)
        kind = self.checked.ref(e)
        if kind is Kind.STATE:
            return f"{self.vals(base, fr)}[{key}]"
        if kind is Kind.ZONE:
            return f"({base!r}, {key})"
        if kind is Kind.LIMIT:
            return f"({key} not in {fr.ref(f'U_{base}', f'st.used[{base!r}]')})"
        raise AssertionError(f"the checker lets no {kind} be indexed: {base}")

    def zone_list(self, e: A.Expr, sc: Scope, fr: Frame) -> str:
        """The live list of piece ids of a zone expression."""
        if isinstance(e, A.Index) and self.checked.ref(e) is Kind.ZONE:
            return f"{self.zones(e.base, fr)}[{self.keys(e.args, sc, fr)}]"
        if isinstance(e, A.Name) and self.checked.ref(e) is Kind.ZONE:
            return f"{self.zones(e.ident, fr)}[None]"
        return f"_zone(st, {self.expr(e, sc, fr)})"

    def attr(self, e: A.Attr, sc: Scope, fr: Frame) -> str:
        """Python text of a field of a piece or a table row, read from a constant column of the component data."""
        base_t = self.type_of(e.base)
        base = self.expr(e.base, sc, fr)
        col = e.name
        if isinstance(base_t, PieceType):
            name = self._piece_columns.get(col)
            if name is None:
                name = self.const([row.get(col) for row in self.ctx.piece_rows], ("piece-column", col))
                self._piece_columns[col] = name
            return f"{name}[{base}]"
        assert isinstance(base_t, EntityType), base_t  # the checker allows fields of pieces and rows only
        table = base_t.table
        key = (table, col)
        name = self._table_columns.get(key)
        if name is None:
            rows = self.ctx.table_rows[table]
            name = self.const({k: row[col] for k, row in rows.items()}, ("table-column", table, col))
            self._table_columns[key] = name
        return f"{name}[{base}]"

    def binary(self, e: A.Binary, sc: Scope, fr: Frame, iterating: bool) -> str:
        """Python text of a binary operation (decided now where literals decide it; sizes bounded by helpers)."""
        a, b = self.expr(e.left, sc, fr), self.expr(e.right, sc, fr)
        if e.op == "..":
            # iterated ranges are charged by their length where they are iterated
            return f"range({a}, {b} + 1)" if iterating else f"list(_range({a}, {b}))"
        if e.op not in _OPS:
            raise AssertionError(e.op)
        folded = self.fold(e, a, b)
        if folded is not None:
            return folded
        if e.op == "*":
            return f"_times({a}, {b})"
        if e.op == "+" and isinstance(self.type_of(e), ListType):
            return f"_joined({a}, {b})"
        if e.op in ("+", "-") and magnitude(self.checked, e.left) + magnitude(self.checked, e.right) > A.MAX_INT:
            return f"{'_plus' if e.op == '+' else '_minus'}({a}, {b})"
        return f"({a} {e.op} {b})"

    def fold(self, e: A.Binary, a: str, b: str) -> str | None:
        """The text of ``a op b`` when literals decide it (switch settings are literals in
        code made for them); None if it must be computed.

        An operand is only left out when Python would not evaluate it either, or
        when it is a condition that cannot fail (comparisons of locals and literals).
        """
        la, lb = literal(a), literal(b)
        op = e.op
        if op in ("==", "!=") and la is not _NOT_LITERAL and lb is not _NOT_LITERAL:
            return repr(la == lb if op == "==" else la != lb)
        if op not in ("and", "or"):
            return None
        if la is not _NOT_LITERAL:  # Python's own short cut, decided now
            return (b if la else a) if op == "and" else (a if la else b)
        if lb is _NOT_LITERAL or self.type_of(e.left) != BOOL:
            return None
        if op == "and":
            return a if lb is True else (b if not lb and cannot_fail(a) else None)
        return a if lb is False else (b if lb and cannot_fail(a) else None)

    def call(self, e: A.Call, sc: Scope, fr: Frame, iterating: bool) -> str:
        """Python text of a call of a user function or a builtin."""
        f = e.func
        if self.checked.ref(e) is Kind.FUNCTION:
            return self.user_call(e, sc, fr)
        return BUILTINS[f].emit(self, e, sc, fr, iterating)

    def user_call(self, e: A.Call, sc: Scope, fr: Frame) -> str:
        """Python text of a call of a user function: its body written out in place if small, else a call of it."""
        got = self.inlined(e, sc, fr)
        if got is not None:
            text, _, inner = got
            for alias, init in inner.aliases.items():
                fr.aliases.setdefault(alias, init)
            return text
        name = self.define_function(self.symbols.functions[e.func])
        return f"{name}(st{''.join(', ' + self.expr(a, sc, fr) for a in e.args)})"

    def inlined(self, e: A.Call, sc: Scope, fr: Frame) -> tuple[str, Scope, Frame] | None:
        """A call of a user function written out in place: its text, the scope its body is
        written in (each parameter's argument text) and the body's frame (its aliases are not
        yet the caller's); None if the call is not written out (small, simple arguments only)."""
        decl = self.symbols.functions[e.func]
        args = [self.expr(a, sc, fr) for a in e.args]
        if all(_SIMPLE.match(text) or cheap(a) for text, a in zip(args, e.args)):
            inner = Frame(fr.hot)
            scope = dict(zip((p.name for p in decl.params), args))
            text = self.expr(decl.body, scope, inner)
            skipped = self.unread_arguments(decl, scope)
            if skipped:
                text = f"({', '.join(skipped)}, {text})[-1]"
            if len(text) <= INLINE_LIMIT:
                return text, scope, inner
        return None

    def unread_arguments(self, decl: A.FunctionDecl, scope: Scope) -> list[str]:
        """The texts of the arguments of a call written out in place (``scope``) that its body may
        not evaluate, and that could fail: they are evaluated first, as a call evaluates every
        argument, so an argument that cannot be evaluated fails whether or not the call is written out."""
        return [scope[p.name] for p in decl.params
                if not cannot_fail(scope[p.name]) and not self.checked.always_reads(decl.body, p.name)]

    def define_function(self, decl: A.FunctionDecl) -> str:
        """The generated Python function of a user function (defined once)."""
        name = f"F_{decl.name}"
        if name not in self._defined:
            self._defined.add(name)
            params = [p.name for p in decl.params]
            scope = {p: f"a_{p}" for p in params}
            frame = Frame(hot=True)
            text = self.expr(decl.body, scope, frame)
            self.build(name, ", ".join(["st", *scope.values()]), frame, [f"return {text}"], decl.pos)
        return name

    def charged(self, e: A.Expr, domain: str, body: str) -> str:
        """The text of an aggregate's domain that charges the running code for its rounds
        (not for the players: there are a handful, and aggregates over them are hot)."""
        if (isinstance(e, A.Name) and e.ident == "players" and self.checked.ref(e) is Kind.SPECIAL) or (
                isinstance(e, A.Call) and e.func in ("clockwise", "counterclockwise", "snake")):
            return domain
        return f"_each(st, {domain}, {weight(body)})"

    def data_sized(self, e: A.Expr) -> bool:
        """Whether a domain's size is bounded by the component data or the player count (see :func:`data_sized`)."""
        return data_sized(self.checked, e)

    def aggregate(self, e: A.Aggregate, sc: Scope, fr: Frame) -> str:
        """Python text of an aggregate (`all`, `count`, `first` ...) over its domain (see :meth:`charged`)."""
        var = self.fresh(e.var)
        domain = self.expr(e.domain, sc, fr, iterating=True)
        inner = {**sc, e.var: var}
        where = f" if {self.expr(e.where, inner, fr)}" if e.where is not None else ""
        body = self.expr(e.body, inner, fr) if e.body is not None else None
        item = body if body is not None else var
        loop = f"for {var} in {self.charged(e.domain, domain, where + (body or ''))}{where}"
        kind = e.kind
        if kind in ("all", "any"):
            return f"{kind}({item} {loop})"
        if kind == "count":
            return f"sum(1 {loop})" if body is None else f"sum(1 {loop} if {body})"
        if kind == "sum":
            return f"_total(sum({item} {loop}))"
        if kind in ("most", "least"):
            return f"{'max' if kind == 'most' else 'min'}(({item} {loop}), default=None)"
        if kind == "first":
            return f"next(({item} {loop}), None)"
        raise AssertionError(kind)

    def comprehension(self, e: A.Comprehension, sc: Scope, fr: Frame) -> str:
        """Python text of a list comprehension over its domain (see :meth:`charged`)."""
        var = self.fresh(e.var)
        domain = self.expr(e.domain, sc, fr, iterating=True)
        inner = {**sc, e.var: var}
        where = f" if {self.expr(e.where, inner, fr)}" if e.where is not None else ""
        body = self.expr(e.body, inner, fr)
        return f"[{body} for {var} in {self.charged(e.domain, domain, where + body)}{where}]"
