"""The compiler: third stage (parse → check → compile → run).

Expressions become Python functions ``f(state, env) -> value``, generated as
Python source (see :mod:`.codegen`).  A procedure becomes a short list of
*stops* — its decisions and chance events, its calls of procedures that may
pause, `finish` and its end — and one generated Python function for each
place where running goes on (the start, each branch of a decision, the
statement after a call), which runs ordinary Python `if`/`while`/`for` until
the next stop.  So the position of a running game stays plain data
(procedure index, stop index, locals) that can be cloned and stored as JSON,
while the steps between two decisions run as compiled Python.

Generated code is made per combination of switch settings in use (see
:meth:`interpreter.game.Game.variant`): comparisons of a switch with its
options are decided when the code is made.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from typing import Any, Protocol, assert_never, overload

import attrs

from . import ast as A
from .ast import MAX_INT
from .codegen import _NOT_LITERAL, STEP_LIMIT, CompileContext, Frame, PyGen, Scope, literal, weight
from .errors import RuleError
from .notation import CHANCE_PLAYER, Unwritable, value_word
from .notation import words as option_words
from .symbols import Kind
from .types import ANY, INT, PLAYER, ListType, Type, element_type


class Running(Protocol):
    """What compiled code reads of a running game here (:class:`interpreter.runtime.State`
    is the state; generated code reaches the rest of it by name)."""

    budget: int
    variant: int
    vals: dict[str, dict[Any, Any]]
    log: list[str] | None


Fn = Callable[[Running, dict[str, Any]], Any]
#: A generated function making the pending state of a decision: ``pend(state, env, decision)``.
Pend = Callable[[Running, dict[str, Any], "Decision"], "Pending"]
#: ``admit(state, env, option)``: whether one (branch index, values) is among the legal options
#: of a decision, tested without listing them (see :meth:`ProcedureCompiler.admitter`).
Admit = Callable[[Running, dict[str, Any], tuple[int, tuple[Any, ...]]], bool]

# Instruction codes.  An instruction is a tuple (code, a, b):
# (RESUME, runs, -): runs[variant](state, env) goes on from here and returns the next stop's index;
# (CALL, procedure index, new_envs) with the caller's RESUME right after it;
# (RETURN, -, -); (CHOOSE | CHANCE, decision, -); (FINISH, winners, -).
# Generated code comes in one variant per combination of switch settings in use
# (`State.variant`), made for those settings; the instructions are the same for all.
RESUME, CALL, RETURN, CHOOSE, CHANCE, FINISH = range(6)

#: The locals the compiler keeps for a `for` loop that may stop inside: the loop's list, and the
#: index of the next value in it (each followed by the loop's number in its procedure).
LOOP_ITEMS, LOOP_INDEX = "$items", "$i"


def loop_counters(number: int) -> tuple[str, str]:
    """The names of the locals holding a loop's list and its index (see :data:`LOOP_ITEMS`)."""
    return f"{LOOP_ITEMS}{number}", f"{LOOP_INDEX}{number}"

@attrs.define
class Binding:
    """One variable of a decision branch, with its domain and filter."""

    var: str
    domain: Fn
    where: Fn | None
    type: Type
    source: A.Binding


@attrs.define
class Branch:
    """One branch of a decision or chance event."""

    verb: str
    when: Fn | None
    bindings: list[Binding]
    target: int
    citations: tuple[A.Citation, ...]
    source: A.Option | A.Chance


@attrs.define
class Pending:
    """The decision or chance event the game waits for: who decides, and the legal options.

    The options are listed when the decision is reached; in a state that lists
    lazily (:attr:`interpreter.runtime.State.lazy`), ``options`` is first an
    :class:`Unlisted` sequence that lists them when it is first read.
    """

    decision: Decision
    player: int
    options: Sequence[tuple[int, tuple[Any, ...]]]
    texts: list[str] | None = None
    by_text: dict[str, int] | None = None
    #: Option → its index (the last of equal ones), made on the first lookup by value (see
    #: :meth:`State.find`); options holding lists are keyed with tuples in their place.
    by_option: dict[Any, int] | None = None
    #: The last option found legal here by its admission test (:meth:`State.admitted`).
    admitted: tuple[int, tuple[Any, ...]] | None = None

    @classmethod
    def unlisted(cls, decision: Decision, player: int,
                 lister: Callable[[Pending], Sequence[tuple[int, tuple[Any, ...]]]]) -> Pending:
        """A pending decision whose options ``lister`` makes when they are first read."""
        pending = cls(decision, player, ())
        pending.options = Unlisted(pending, lister)
        return pending

    def listing(self) -> Sequence[tuple[int, tuple[Any, ...]]]:
        """The options, listed now if they were not (the list itself, never an :class:`Unlisted`)."""
        options = self.options
        return options.list() if type(options) is Unlisted else options

    @property
    def listed(self) -> bool:
        """Whether the options have been listed (reading :attr:`options` lists them)."""
        return type(self.options) is not Unlisted


class Unlisted(Sequence[tuple[int, tuple[Any, ...]]]):
    """The options of a decision not listed yet: listed by the first read, which puts the
    list in the decision's place (:class:`Pending`); later reads go to that list."""

    __slots__ = ("lister", "made", "pending")

    def __init__(self, pending: Pending, lister: Callable[[Pending], Sequence[tuple[int, tuple[Any, ...]]]]):
        self.pending = pending
        self.lister: Callable[[Pending], Sequence[tuple[int, tuple[Any, ...]]]] | None = lister
        self.made: Sequence[tuple[int, tuple[Any, ...]]] | None = None

    def list(self) -> Sequence[tuple[int, tuple[Any, ...]]]:
        """The options, listed by the first call."""
        made = self.made
        if made is None:
            if self.lister is None:
                raise RuntimeError("the state has gone on from this decision: its options were never listed")
            made = self.made = self.lister(self.pending)
            self.pending.options = made
            self.lister = None
        return made

    def forget(self) -> None:
        """The state has gone on: this decision is never to be listed."""
        self.lister = None

    def __len__(self) -> int:
        return len(self.list())

    @overload
    def __getitem__(self, i: int) -> tuple[int, tuple[Any, ...]]: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[int, tuple[Any, ...]]]: ...

    def __getitem__(self, i: int | slice) -> tuple[int, tuple[Any, ...]] | Sequence[tuple[int, tuple[Any, ...]]]:
        return self.list()[i]

    def __iter__(self) -> Iterator[tuple[int, tuple[Any, ...]]]:
        return iter(self.list())

    def __contains__(self, option: object) -> bool:
        return option in self.list()

    def index(self, option: Any, start: int = 0, stop: int | None = None) -> int:
        """The position of an option (ValueError if it is not one)."""
        made = self.list()
        return made.index(option, start, len(made) if stop is None else stop)


@attrs.define
class Decision:
    """A `choose` or `chance` instruction."""

    chance: bool
    player: Fn | None
    branches: list[Branch]
    pos: A.Pos
    citations: tuple[A.Citation, ...]  # of the enclosing rules and procedure
    rule: str  # the innermost enclosing rule (or procedure) name
    #: The generated functions making the :class:`Pending` state of this decision, one per
    #: settings variant (see :meth:`interpreter.game.Game.variant`).
    pends: list[Pend] = attrs.field(factory=list, repr=False, eq=False)
    #: The generated admission tests of one option, one per settings variant (like ``pends``).
    admits: list[Admit] = attrs.field(factory=list, repr=False, eq=False)
    #: Action texts already made, by option (they depend on the option only).
    texts: dict[tuple[int, tuple[Any, ...]], str] = attrs.field(factory=dict, repr=False, eq=False)
    #: Options by the text that writes them, earlier branches first, kept for texts found legal
    #: once (see :meth:`State.admitted`): reading a text depends on the text only.
    readings: dict[str, tuple[tuple[int, tuple[Any, ...]], ...]] = attrs.field(factory=dict, repr=False, eq=False)

    def options(self, st: Running, env: dict[str, Any]) -> Sequence[tuple[int, tuple[Any, ...]]]:
        """Every legal (branch index, bound values) in declaration order."""
        st.budget = STEP_LIMIT
        return self.pends[st.variant](st, env, self).options

    def words(self, option: tuple[int, tuple[Any, ...]], piece_words: Sequence[str]) -> list[str]:
        """The words of an option's action text (:func:`~.notation.words`, pieces written by
        ``piece_words``); a :class:`RuleError` at this decision for a value no action text can write."""
        try:
            return option_words(self.branches[option[0]], option[1], piece_words)
        except Unwritable as err:
            raise RuleError(err.message, self.pos, self.citations) from None

    def text(self, option: tuple[int, tuple[Any, ...]], piece_words: Sequence[str]) -> str:
        """The action text of an option: the verb and its values, pieces written by ``piece_words``
        (the game's: :attr:`interpreter.game.Game.piece_words`; remembered once made)."""
        try:
            text = self.texts.get(option)
        except TypeError:  # values holding lists: not remembered
            text = None
        if text is not None:
            return text
        br = self.branches[option[0]]
        if not option[1]:
            return br.verb
        text = " ".join(self.words(option, piece_words))
        # values of one known type cannot collide as dict keys (1 == True would)
        if all(b.type != ANY and not isinstance(b.type, ListType) for b in br.bindings):
            self.texts[option] = text
        return text


@attrs.define
class Procedure:
    """A compiled procedure: instructions, their positions and rule citations."""

    name: str
    params: tuple[str, ...]
    code: list[tuple[int, Any, Any]]
    positions: list[A.Pos]
    citations: list[tuple[A.Citation, ...]]
    decl: A.ProcedureDecl
    #: The `for` loops that may stop inside, by the local holding the loop's list (see :func:`loop_counters`).
    loops: dict[str, A.For] = attrs.field(factory=dict)


class ExprCompiler:
    """Compiles checked expressions into functions ``f(state, env)`` (see :mod:`.codegen`)."""

    def __init__(self, ctx: CompileContext, settings: Mapping[str, str] | None = None,
                 places: dict[str, list[tuple[A.Pos, tuple[A.Citation, ...]]]] | None = None):
        self.ctx = ctx
        self.symbols = ctx.checked.symbols
        self.gen = PyGen(ctx, settings, places)
        self._made: dict[tuple[int, bool], Fn] = {}
        self._lock = threading.RLock()  # code may be made while other threads play

    def type_of(self, e: A.Expr) -> Type:
        """The checker's type of an expression."""
        return self.ctx.checked.type_of(e)

    def expr(self, e: A.Expr, hot: bool = False) -> Fn:
        """A function evaluating the expression; ``hot`` code reads state tables once per call."""
        fn = self._made.get((id(e), hot))
        if fn is None:
            with self._lock:
                fn = self._made.get((id(e), hot))
                if fn is None:
                    fn = self._made[id(e), hot] = self.gen.function(e, hot)
        return fn


def pauses(st: A.Stmt, leaves: Set[str]) -> bool:
    """Whether running a statement may stop at a decision or chance event, or end the game."""
    if isinstance(st, (A.Choose, A.Chance, A.Finish)):
        return True
    if isinstance(st, A.CallProc):
        return st.name not in leaves
    return any(pauses(s, leaves) for b in A.child_blocks(st) for s in b.statements)


def breaks_out(st: A.Stmt) -> bool:
    """Whether a statement holds a `break` that leaves it (one not inside a loop of its own)."""
    if isinstance(st, A.Break):
        return True
    if isinstance(st, (A.If, A.Rule)):
        return any(breaks_out(s) for b in A.child_blocks(st) for s in b.statements)
    return False


def leaf_procedures(procedures: Mapping[str, A.ProcedureDecl]) -> set[str]:
    """The procedures that never pause, not even through the procedures they call.

    They run as one generated Python function.  A procedure that calls itself,
    directly or not, is never a leaf.
    """
    leaves: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, decl in procedures.items():
            if name not in leaves and not any(pauses(s, leaves) for s in decl.body.statements):
                leaves.add(name)
                changed = True
    return leaves


#: A generated line with the spec position and citations it carries out.
Line = tuple[str, A.Pos, tuple[A.Citation, ...]]


@attrs.frozen
class Level:
    """One block on the way from a procedure's body to a place in it."""

    statements: tuple[A.Stmt, ...]
    owner: A.Stmt | None  # the statement whose block this is (None: the procedure body)
    index: int  # the owner's place in the enclosing block
    cites: tuple[tuple[str, tuple[A.Citation, ...]], ...]  # enclosing rules, innermost last


_LOOPS = (A.While, A.Loop, A.For)


@attrs.frozen
class Conjunct:
    """A part of a binding's filter joined to the others by ``and`` (see :meth:`ProcedureCompiler.split_where`)."""

    text: str  # its generated Python text
    reads: bool  # whether it reads the binding's variable
    expr: A.Expr  # the part, in the body of the innermost of ``calls`` (else in the filter itself)
    calls: tuple[A.Call, ...]  # the calls of functions written out in place around it, outermost first


@attrs.frozen
class Split:
    """A binding's filter split in parts, the first ``lead`` of them tested once for all its values."""

    lead: int
    parts: tuple[Conjunct, ...]


class ProcedureCompiler:
    """Compiles one procedure into stops and generated resume functions.

    A procedure stops where it may wait or hand over: at a decision or chance
    event, at a call of a procedure that may pause, at `finish` and at its end.
    Those stops are the instructions; the program position kept in the state
    is the index of one of them.  Every place where running goes on — the
    start, the start of each branch of a decision, the statement after a call
    — gets one generated Python function that runs the rest of the procedure
    with ordinary Python `if`, `while` and `for` until it reaches the next stop,
    and returns that stop's index.  Loops are entered again from the middle of
    their body this way: a one-time ``for`` wraps the rest of the current
    round and the loop itself, so that `break` leaves both.
    """

    def __init__(self, exprs: ExprCompiler, decl: A.ProcedureDecl, leaves: Set[str] = frozenset(),
                 generic: ExprCompiler | None = None):
        self.x = exprs
        self.generic = generic or exprs  # for what is read with any settings: options one by one
        self.gen = exprs.gen
        self.decl = decl
        self.leaves = leaves
        self.code: list[tuple[int, Any, Any]] = []
        self.positions: list[A.Pos] = []
        self.citations: list[tuple[A.Citation, ...]] = []
        self.cite_stack: list[tuple[str, tuple[A.Citation, ...]]] = [(decl.name, decl.citations)]
        self.stops: dict[int, int] = {}  # id(statement) -> its stop instruction
        self.resumes: list[tuple[int, list[Level], int]] = []  # (instruction, where, first statement)
        self.counters: dict[int, tuple[str, str]] = {}  # id(for statement) -> its list and index locals
        self.loops: dict[str, A.For] = {}  # the local of a loop's list -> the loop
        #: id(binding) -> how :meth:`split_where` split its filter, for the C back end to split it alike.
        self.splits: dict[int, Split] = {}
        #: id(binding) -> the steps a listing charges per value of it, for the C back end to charge alike.
        self.listing_costs: dict[int, int] = {}

    def compile(self) -> Procedure:
        """The compiled :class:`Procedure`: its stops, and a generated function for each place running resumes from."""
        base = Level(self.decl.body.statements, None, -1, tuple(self.cite_stack))
        self.resumes.append((self.emit(RESUME, None, None, self.decl.pos), [base], 0))
        self.layout([base])
        self.stops[id(self.decl)] = self.emit(RETURN, None, None, self.decl.pos)
        direct: dict[int, int] = {}
        for pc, levels, first in self.resumes:
            self.code[pc] = (RESUME, [self.continuation(pc, levels, first)], None)
            here = levels[-1].statements
            if first < len(here) and id(here[first]) in self.stops:
                direct[pc] = self.stops[id(here[first])]  # it stops at once: go straight there
        for op, decision, _ in self.code:
            if op in (CHOOSE, CHANCE):
                for branch in decision.branches:
                    branch.target = direct.get(branch.target, branch.target)
        params = tuple(p.name for p in self.decl.params)
        return Procedure(self.decl.name, params, self.code, self.positions, self.citations, self.decl, self.loops)

    def current_citations(self) -> tuple[A.Citation, ...]:
        """The citations in force here: the enclosing rules', innermost first, then the procedure's."""
        out: list[A.Citation] = []
        for _, cites in reversed(self.cite_stack):
            out.extend(cites)
        return tuple(out)

    def emit(self, op: int, a: Any, b: Any, pos: A.Pos) -> int:
        """Append instruction ``(op, a, b)`` with its spec position and the citations in force; its index."""
        self.code.append((op, a, b))
        self.positions.append(pos)
        self.citations.append(self.current_citations())
        return len(self.code) - 1

    def fusable(self, st: A.Stmt) -> bool:
        """Whether a statement runs through without stopping (and without a `break` out of it)."""
        return not pauses(st, self.leaves) and not breaks_out(st)

    def python(self, name: str, statements: Sequence[A.Stmt]) -> Fn:
        """A generated Python function ``name(st, env)`` running statements that cannot pause."""
        fr = Frame(hot=True)
        lines: list[Line] = []
        self.py_block(statements, fr, lines, "")
        return self.gen.build_located(name, "st, env", fr, lines)  # type: ignore[no-any-return]

    def leaf_function(self, proc: str) -> str:
        """The name of the generated function running a leaf procedure (defined once)."""
        name = f"P_{proc}"
        if name not in self.gen.ns:
            decl = self.x.symbols.procedures[proc]
            ProcedureCompiler(self.x, decl, self.leaves, self.generic).python(name, decl.body.statements)
        return name

    def cond(self, e: A.Expr) -> Fn:
        """A hot function evaluating a condition or value."""
        return self.x.expr(e, hot=True)

    def text(self, e: A.Expr, fr: Frame, iterating: bool = False) -> str:
        """Python text of an expression in the procedure's generated code."""
        return self.gen.expr(e, {}, fr, iterating)

    # ------------------------------------------------------------------ stops
    def layout(self, levels: list[Level]) -> None:
        """Lay out the stops of a block (and of the blocks inside it), and note where running resumes."""
        here = levels[-1]
        for i, st in enumerate(here.statements):
            if self.fusable(st):
                continue
            self.cite_stack = list(here.cites)
            match st:
                case A.If():
                    blocks = [b for _, b in st.branches] + ([st.otherwise] if st.otherwise is not None else [])
                    for b in blocks:
                        self.layout([*levels, Level(b.statements, st, i, here.cites)])
                case A.While() | A.Loop() | A.For():
                    if isinstance(st, A.For):
                        self.counters[id(st)] = loop_counters(len(self.counters) + 1)
                        self.loops[self.counters[id(st)][0]] = st
                    self.layout([*levels, Level(st.body.statements, st, i, here.cites)])
                case A.Rule():
                    self.layout([*levels, Level(st.body.statements, st, i, (*here.cites, (st.name, st.citations)))])
                case A.Choose() | A.Chance():
                    self.decision(st, levels, i)
                case A.CallProc():
                    fr = Frame(hot=True, pure=True)
                    line = (f"return {self.new_env(st, fr, kept=True)}", st.pos, self.current_citations())
                    env_fn = self.gen.build_located(self.gen.fresh("call_" + st.name), "st, env", fr, [line])
                    self.stops[id(st)] = self.emit(CALL, self.x.ctx.proc_index[st.name], [env_fn], st.pos)
                    self.resumes.append((self.emit(RESUME, None, None, st.pos), levels, i + 1))
                case A.Finish():
                    self.stops[id(st)] = self.emit(FINISH, [self.cond(st.winners)], None, st.pos)
                case A.Break():
                    pass  # it leaves the loop: stop_block writes it
                case A.Let() | A.Assign() | A.Move() | A.Reveal() | A.Look() | A.Swap() | A.Begin() | A.Use() \
                        | A.Say():
                    raise AssertionError(f"{st} never stops; py_statement writes it")
                case _:
                    assert_never(st)

    def new_env(self, st: A.CallProc, fr: Frame, kept: bool = False) -> str:
        """The text of the locals a called procedure starts with: its parameters (``kept``: the
        procedure may wait for decisions, so its locals are kept in the state and bounded)."""
        decl = self.x.symbols.procedures[st.name]
        params = [p.name for p in decl.params]
        args = [self.text(a, fr) for a in st.args]
        if kept:
            args = [f"_bounded({text})" if literal(text) is _NOT_LITERAL and _may_grow(self.x.type_of(a)) else text
                    for a, text in zip(st.args, args)]
            types = self.x.ctx.checked.param_types
            args = [self.of_type(text, types[id(p)], f"the parameter {p.name} of {st.name}", f"a {p.type}")
                    if self.x.type_of(a) == ANY and types.get(id(p), ANY) != ANY else text
                    for p, a, text in zip(decl.params, st.args, args)]
        return "{" + ", ".join(f"{p!r}: {text}" for p, text in zip(params, args)) + "}"

    # ---------------------------------------------------------- resume points
    def continuation(self, pc: int, levels: list[Level], first: int) -> Fn:
        """The generated function running a procedure from a place on until its next stop."""
        fr = Frame(hot=True)
        out: list[Line] = []
        self.cite_stack = list(levels[-1].cites)
        depth = [0]
        for level in levels[1:]:
            depth.append(depth[-1] + (1 if isinstance(level.owner, _LOOPS) else 0))
        for d, level in enumerate(levels):
            if isinstance(level.owner, _LOOPS):
                self.cite_stack = list(levels[d - 1].cites)
                out.append(("    " * depth[d - 1] + "for _once in _ONCE:", level.owner.pos, self.current_citations()))
        for d in range(len(levels) - 1, -1, -1):
            level = levels[d]
            ind = "    " * depth[d]
            start = first if d == len(levels) - 1 else levels[d + 1].index + 1
            self.cite_stack = list(level.cites)
            self.stop_block(level.statements[start:], fr, out, ind, fill=False)
            if isinstance(level.owner, _LOOPS):
                self.cite_stack = list(levels[d - 1].cites)
                self.loop(level.owner, fr, out, ind, enter=False)
        self.cite_stack = list(levels[0].cites)
        out.append((f"return {self.stops[id(self.decl)]}", self.decl.pos, self.current_citations()))
        return self.gen.build_located(self.gen.fresh(f"{self.decl.name}_{pc}"), "st, env", fr, out)  # type: ignore[no-any-return]

    def stop_block(self, statements: Sequence[A.Stmt], fr: Frame, out: list[Line], ind: str,
                   fill: bool = True) -> None:
        """Python lines for statements that may stop: a stop returns its instruction.

        ``fill``: write ``pass`` if there is nothing to run (where Python needs a statement).
        """
        before = len(out)
        for st in statements:
            if self.fusable(st):
                self.py_statement(st, fr, out, ind)
                continue
            cites = self.current_citations()
            match st:
                case A.Choose() | A.Chance() | A.CallProc() | A.Finish():
                    out.append((f"{ind}return {self.stops[id(st)]}", st.pos, cites))
                    return  # what follows runs from this stop's resume point
                case A.Break():
                    out.append((f"{ind}break", st.pos, cites))
                    return
                case A.If():
                    for i, (cond, body) in enumerate(st.branches):
                        out.append((f"{ind}{'if' if i == 0 else 'elif'} {self.text(cond, fr)}:", cond.pos, cites))
                        self.stop_block(body.statements, fr, out, ind + "    ")
                    if st.otherwise is not None:
                        out.append((f"{ind}else:", st.pos, cites))
                        self.stop_block(st.otherwise.statements, fr, out, ind + "    ")
                case A.Rule():
                    self.cite_stack.append((st.name, st.citations))
                    self.stop_block(st.body.statements, fr, out, ind)
                    self.cite_stack.pop()
                case A.While() | A.Loop() | A.For():
                    self.loop(st, fr, out, ind, enter=True)
                case A.Let() | A.Assign() | A.Move() | A.Reveal() | A.Look() | A.Swap() | A.Begin() | A.Use() \
                        | A.Say():
                    raise AssertionError(f"{st} never stops; py_statement writes it")
                case _:
                    assert_never(st)
        if fill and len(out) == before:
            out.append((ind + "pass", self.decl.pos, self.current_citations()))

    def loop(self, st: A.While | A.Loop | A.For, fr: Frame, out: list[Line], ind: str, enter: bool) -> None:
        """A loop that may stop; ``enter``: from its start (a `for` takes its list first)."""
        cites = self.current_citations()

        def add(text: str, at: A.Stmt | A.Expr = st) -> None:
            out.append((text, at.pos, cites))

        if isinstance(st, A.For):
            items, index = self.counters[id(st)]
            head = len(out)
            add(f"{ind}while env[{index!r}] < len(env[{items!r}]):")
            add(f"{ind}    {fr.write(st.var)} = env[{items!r}][env[{index!r}]]")
            add(f"{ind}    env[{index!r}] += 1")
            if st.where is not None:
                add(f"{ind}    if not {self.text(st.where, fr)}: continue", st.where)
            self.stop_block(st.body.statements, fr, out, ind + "    ")
            if enter:  # every round is paid for when the loop takes its list
                cost = weight("".join(text.strip() for text, _, _ in out[head + 1:]))
                domain = self.text(st.domain, fr, iterating=True)
                out[head:head] = [(f"{ind}env[{items!r}] = _kept_items(st, {domain}, {cost})", st.pos, cites),
                                  (f"{ind}env[{index!r}] = 0", st.pos, cites)]
            return
        else:
            add(f"{ind}while {self.text(st.cond, fr) if isinstance(st, A.While) else 'True'}:")
            guard = len(out)
        self.stop_block(st.body.statements, fr, out, ind + "    ")
        self.charge_rounds(out, guard, ind + "    ", st)

    def charge_rounds(self, out: list[Line], at: int, ind: str, st: A.Stmt) -> None:
        """Insert at ``at`` the lines charging one round of a loop whose body starts there."""
        cost = weight("".join(text.strip() for text, _, _ in out[at:]))
        cites = self.current_citations()
        out[at:at] = [(f"{ind}st.budget -= {cost}", st.pos, cites),
                      (f"{ind}if st.budget < 0: raise _Stuck()", st.pos, cites)]

    # ------------------------------------------------------ generated Python
    def py_block(self, statements: Sequence[A.Stmt], fr: Frame, out: list[Line], ind: str) -> None:
        """Python lines for statements that cannot pause; ``pass`` if there are none."""
        before = len(out)
        for st in statements:
            self.py_statement(st, fr, out, ind)
        if len(out) == before:
            out.append((ind + "pass", self.decl.pos, self.current_citations()))

    def py_statement(self, st: A.Stmt, fr: Frame, out: list[Line], ind: str) -> None:
        """Python lines for one statement that cannot pause (it calls leaf procedures only)."""
        cites = self.current_citations()

        def add(text: str, at: A.Stmt | A.Expr = st) -> None:
            out.append((ind + text, at.pos, cites))

        match st:
            case A.Let():
                text = self.text(st.value, fr)
                add(f"{fr.write(st.name)} = {text}")
                for line in self.bound(fr.write(st.name), st.value, text, "="):
                    add(line)
            case A.Assign():
                for text in self.assign(st, fr):
                    add(text)
            case A.If():
                for i, (cond, body) in enumerate(st.branches):
                    add(f"{'if' if i == 0 else 'elif'} {self.text(cond, fr)}:", cond)
                    self.py_block(body.statements, fr, out, ind + "    ")
                if st.otherwise is not None:
                    add("else:")
                    self.py_block(st.otherwise.statements, fr, out, ind + "    ")
            case A.While() | A.Loop():
                add(f"while {self.text(st.cond, fr) if isinstance(st, A.While) else 'True'}:")
                guard = len(out)
                self.py_block(st.body.statements, fr, out, ind + "    ")
                self.charge_rounds(out, guard, ind + "    ", st)
            case A.For():
                item = self.gen.fresh(st.var)
                head = len(out)
                add(f"    {fr.write(st.var)} = {item}")
                if st.where is not None:
                    add(f"    if not {self.text(st.where, fr)}: continue", st.where)
                self.py_block(st.body.statements, fr, out, ind + "    ")
                cost = weight("".join(text.strip() for text, _, _ in out[head:]))
                domain = self.text(st.domain, fr, iterating=True)
                out.insert(head, (f"{ind}for {item} in _items(st, {domain}, {cost}):", st.pos, cites))
            case A.Break():
                add("break")
            case A.CallProc():
                add(f"{self.leaf_function(st.name)}(st, {self.new_env(st, fr)})")
            case A.Move():
                for text in self.move(st, fr):
                    add(text)
            case A.Reveal():
                add(f"st.face_up[{self.text(st.piece, fr)}] = True")
            case A.Look():
                player = self.text(st.player, fr)
                if self.x.type_of(st.player) == ANY:  # a seat of this game, or 1 << player could be huge
                    player = self.of_type(player, PLAYER, "look by", "a seat", none=False)
                add(f"st.seen[{self.text(st.piece, fr)}] |= 1 << {player}")
            case A.Swap():
                add(f"st.swap_pieces({self.text(st.first, fr)}, {self.text(st.second, fr)})")
            case A.Begin():
                add(f"st.begin_scope({st.scope!r})")
            case A.Use():
                used = fr.ref(f"U_{st.limit}", f"st.used[{st.limit!r}]")
                key = self.gen.keys(st.keys, {}, fr)
                if any(self.x.type_of(k) == ANY for k in st.keys):  # a key of its domains, as stored
                    key = f"st.usable_key({st.limit!r}, {key})"
                add(f"{used}.add({key})")
            case A.Rule():
                self.cite_stack.append((st.name, st.citations))
                self.py_block(st.body.statements, fr, out, ind)
                self.cite_stack.pop()
            case A.Say():
                add(f"if st.log is not None: {self.gen.const(self.say(st))}(st, env)")
            case A.Choose() | A.Chance() | A.Finish():
                raise AssertionError(f"{st} stops; it is laid out by stop_block")
            case _:
                assert_never(st)

    def assign(self, st: A.Assign, fr: Frame) -> list[str]:
        """Python lines of an assignment to a local or a state variable (a missing key: KeyError), numbers bounded."""
        name, op = st.name, st.op
        value = self.text(st.value, fr)
        if self.x.ctx.checked.ref(st) is Kind.LOCAL:
            target = fr.write(name)
            return [f"{target} {op} {value}", *self.bound(target, st.value, value, op)]
        table = self.gen.vals(name, fr)
        key = self.gen.keys(st.keys, {}, fr)
        if op == "=":
            # the key is computed and checked before the value
            return [f"k = {key}",
                    f"if k not in {table}: raise KeyError({name!r} + ' has no key ' + repr(k))",
                    f"{table}[k] = {value}", *self.bound(f"{table}[k]", st.value, value, op),
                    *self.declared(name, f"{table}[k]", st.value)]
        check = self.bound(f"{table}[k]", st.value, value, op)
        if check:
            return [f"k = {key}", f"{table}[k] {op} {value}", *check]
        return [f"{table}[{key}] {op} {value}"]

    def declared(self, name: str, target: str, e: A.Expr) -> list[str]:
        """The line that checks a value of type `any` (``e``) just stored in ``target``, a
        counter's or a typed var's, against the type its declaration gives (a number for a
        counter); none for a value the checker knows the type of."""
        if self.x.type_of(e) != ANY:
            return []
        decl = self.x.symbols.states[name]
        if decl.kind == "counter":
            return [self.of_type(target, INT, name, "a number", none=False)]
        t = self.x.symbols.spec_type(decl.type) if decl.type is not None else None
        if t is None:
            return []
        return [self.of_type(target, t, name, f"a {decl.type}")]

    def of_type(self, text: str, t: Type, what: str, named: str, none: bool = True) -> str:
        """Python text of :meth:`~.runtime.State.of_type`: the value of ``text``, checked to be of
        type ``t`` (named so in the spec) where ``what`` keeps it."""
        return f"st.of_type({text}, {self.gen.const(t, ('type', str(t)))}, {what!r}, {named!r}, {none})"

    def bound(self, target: str, e: A.Expr, text: str, op: str) -> list[str]:
        """The line that keeps a number just stored in ``target`` with ``op`` (from ``text``,
        made from ``e``) bounded; none where it cannot grow: a literal stored with `=`.  A `+=` of
        a literal is checked too: repeated over many turns, it would pass any bound, and a
        state holding such a number could not be saved and loaded again."""
        t = self.x.type_of(e)
        if op == "=" and literal(text) is not _NOT_LITERAL:
            return []
        if isinstance(t, ListType) and _may_hold_numbers(t):
            return [f"_bounded({target})"]
        if t not in (INT, ANY):
            return []
        test = f"not {-MAX_INT} <= {target} <= {MAX_INT}"
        if t == ANY:
            test = f"type({target}) is list or type({target}) is str or (type({target}) is int and {test})"
        return [f"if {test}: _bounded({target})"]

    def move(self, st: A.Move, fr: Frame) -> list[str]:
        """Python lines moving a piece, or each piece of a list, to a zone."""
        zone = st.zone
        if isinstance(zone, A.Index) and self.x.ctx.checked.ref(zone) is Kind.ZONE:
            where = [f"zn = {zone.base!r}", f"zk = {self.gen.keys(zone.args, {}, fr)}"]
        else:
            where = [f"zn, zk = {self.text(zone, fr)}"]
        if isinstance(self.x.type_of(st.pieces), ListType):
            return [*where, f"for p in list({self.text(st.pieces, fr, iterating=True)}):",
                    "    st.move_piece(p, zn, zk)"]
        return [*where, f"st.move_piece({self.text(st.pieces, fr)}, zn, zk)"]

    def say(self, st: A.Say) -> Fn:
        """The function appending a `say` line, its ``{name}`` parts filled in, to the state's log (if it keeps one)."""
        names = self.x.ctx.checked.say_names.get(id(st), {})
        words = self.x.ctx.piece_words  # read as the line is made: the game's words, given late or not
        template = st.template
        getters: list[tuple[str, Type, Fn]] = []
        for name, (kind, t) in names.items():
            getters.append((name, t, self._say_getter(name, kind)))

        def say(s: Running, env: dict[str, Any]) -> None:
            if s.log is None:
                return
            text = template
            for name, t, get in getters:
                text = text.replace("{" + name + "}", value_word(get(s, env), t, words))
            s.log.append(text)

        say.statement = st  # type: ignore[attr-defined]  # which statement (the C back end's cache names it)
        return say

    @staticmethod
    def _say_getter(name: str, kind: Kind) -> Fn:
        if kind is Kind.STATE:
            return lambda s, env: s.vals[name][None]
        return lambda s, env: env[name]

    # --------------------------------------------------------------- decisions
    def decision(self, st: A.Choose | A.Chance, levels: list[Level], index: int) -> None:
        """Lay out a decision or chance event: its instruction and branches, then each branch's body to resume at."""
        x = self.generic
        chance = isinstance(st, A.Chance)
        options: list[tuple[str, tuple[A.Binding, ...], A.Expr | None, tuple[A.Citation, ...], A.Block, Any]]
        if isinstance(st, A.Chance):
            options = [(st.verb, (st.binding,), None, st.citations, st.body, st)]
            player = None
        else:
            options = [(o.verb, o.bindings, o.when, o.citations, o.body, o) for o in st.options]
            player = x.expr(st.player, hot=True)
        branches: list[Branch] = []
        for verb, bindings, when, cites, _body, source in options:
            compiled = [
                Binding(b.var, x.expr(b.domain), x.expr(b.where) if b.where is not None else None,
                        element_type(x.type_of(b.domain)), b)
                for b in bindings
            ]
            branches.append(Branch(verb, x.expr(when) if when is not None else None, compiled, -1,
                                   cites, source))
        decision = Decision(chance, player, branches, st.pos, self.current_citations(),
                            self.cite_stack[-1][0])
        decision.pends.append(self.pender(st, [(o[1], o[2]) for o in options]))
        decision.admits.append(self.admitter(st, [(o[1], o[2]) for o in options]))
        self.stops[id(st)] = self.emit(CHANCE if chance else CHOOSE, decision, None, st.pos)
        rule = self.cite_stack[-1][0]
        for branch, (_, _, _, cites, body, _) in zip(branches, options):
            branch.target = self.emit(RESUME, None, None, body.pos)
            inner = [*levels, Level(body.statements, st, index, (*levels[-1].cites, (rule, cites)))]
            self.resumes.append((branch.target, inner, 0))
            self.layout(inner)
            self.cite_stack = list(levels[-1].cites)

    def pender(self, st: A.Choose | A.Chance,
               branches: list[tuple[tuple[A.Binding, ...], A.Expr | None]]) -> Pend:
        """One generated function ``pend(st, env, decision)`` making the :class:`Pending` of a
        decision: its player and every legal (branch index, values), in order."""
        fr = Frame(hot=True, pure=True)
        cites = self.current_citations()
        if len(branches) == 1 and len(branches[0][0]) == 1:
            out = self.single_options(st, *branches[0], fr)
        else:
            out = self.all_options(st, branches, fr)
        player = repr(CHANCE_PLAYER) if isinstance(st, A.Chance) else self.text(st.player, fr)
        out.append((f"return {self.gen.const(Pending)}(decision, {player}, out)", st.pos, cites))
        return self.gen.build_located(self.gen.fresh("pend"), "st, env, decision", fr, out)  # type: ignore[no-any-return]

    def admitter(self, st: A.Choose | A.Chance,
                 branches: list[tuple[tuple[A.Binding, ...], A.Expr | None]]) -> Admit:
        """One generated function ``admit(st, env, option)``: whether an option (branch index,
        values) is legal here, tested on its own values, with no listing of the others.

        It asks what the listing asks (:meth:`all_options`), for one option: the branch's
        `when`, then for each value in turn that it is in its domain (made with the values
        before it) and passes its filter.  A value equal to one listed (``==``) is admitted,
        as a lookup among the listed options would find it.
        """
        fr = Frame(hot=True, pure=True)
        cites = self.current_citations()
        out: list[Line] = [("branch, values = option", st.pos, cites)]
        for bi, (bindings, when) in enumerate(branches):
            out.append((f"if branch == {bi}:", st.pos, cites))
            out.append((f"    if len(values) != {len(bindings)}: return False", st.pos, cites))
            if when is not None:
                out.append((f"    if not ({self.text(when, fr)}): return False", when.pos, cites))
            scope: dict[str, str] = {}
            for k, b in enumerate(bindings):
                var = self.gen.fresh(b.var)
                domain = self.gen.expr(b.domain, scope, fr, iterating=True)
                scope = {**scope, b.var: var}
                out.append((f"    {var} = values[{k}]", b.pos, cites))
                out.append((f"    if {var} not in {domain}: return False", b.pos, cites))
                if b.where is not None:
                    out.append((f"    if not ({self.gen.expr(b.where, scope, fr)}): return False",
                                b.where.pos, cites))
            out.append(("    return True", st.pos, cites))
        out.append(("return False", st.pos, cites))
        return self.gen.build_located(self.gen.fresh("admit"), "st, env, option", fr, out,  # type: ignore[no-any-return]
                                      eager=True)  # read beside C code (records)

    def all_options(self, st: A.Stmt, branches: list[tuple[tuple[A.Binding, ...], A.Expr | None]],
                    fr: Frame) -> list[Line]:
        """Lines collecting every option into ``out``: a loop per binding, an `if` per condition.

        A binding whose values do not depend on the binding just before it (only on
        earlier ones) is listed once, when first needed, and reused: when each piece of a place
        may go to the neighbouring places that have room, those places are the same for every piece.
        The leading parts of a binding's filter that do not name its variable are tested once,
        before its loop (see :meth:`split_where`).
        """
        cites = self.current_citations()
        out: list[Line] = [("out = []", st.pos, cites), ("add = out.append", st.pos, cites), ("_n = 0", st.pos, cites)]
        for bi, (bindings, when) in enumerate(branches):
            ind = ""
            if when is not None:
                out.append((f"if {self.text(when, fr)}:", when.pos, cites))
                ind = "    "
            scope: dict[str, str] = {}
            names: list[str] = []
            texts: list[tuple[str, str | None]] = []
            scopes: list[dict[str, str]] = []  # the names each binding's filter reads its locals by
            checked = self.x.ctx.checked
            reads = [checked.free_locals(b.domain) | (checked.free_locals(b.where) if b.where else set())
                     for b in bindings]
            for b in bindings:
                var = self.gen.fresh(b.var)
                domain = self.gen.expr(b.domain, scope, fr, iterating=True)
                scope = {**scope, b.var: var}
                scopes.append(scope)
                names.append(var)
                texts.append((domain, self.gen.expr(b.where, scope, fr) if b.where is not None else None))
            # where each binding's list can be made: after the innermost binding it depends on
            home = [max((j for j in range(k) if bindings[j].var in reads[k]), default=-1)
                    for k in range(len(bindings))]
            kept = {k: self.gen.fresh("each") for k in range(1, len(texts)) if home[k] < k - 1}
            for k in kept:
                if home[k] == -1:
                    out.append((f"{ind}{kept[k]} = None", st.pos, cites))
            for k, (b, (domain, where)) in enumerate(zip(bindings, texts)):
                var = names[k]
                cost = self.listing_costs[id(b)] = weight(where or "") + len(texts) - k
                d = self.gen.fresh("d")
                hoisted, rest = self.split_where(b, where, scopes[k], fr)
                if k in kept:  # listed once (charged), then looped over (charged each time)
                    out.append((f"{ind}if {kept[k]} is None:", b.pos, cites))
                    out.extend(self.charged(d, domain, cost, ind + "    ", b.pos))
                    out.append((f"{ind}    {kept[k]} = {self.filtered(var, d, hoisted, rest)}", b.pos, cites))
                    domain = kept[k]
                    hoisted, rest = "True", None  # (filtered when listed)
                once = k == 0 and self.gen.data_sized(b.domain)  # looped over once per listing: bounded
                if once and hoisted == "True":
                    out.append((f"{ind}for {var} in {domain}:", b.pos, cites))
                else:
                    if once:
                        out.append((f"{ind}{d} = {domain}", b.pos, cites))
                    else:
                        out.extend(self.charged(d, domain, cost, ind, b.pos))
                    if hoisted != "True":
                        out.append((f"{ind}if {d} and {hoisted}:", b.where.pos if b.where else b.pos, cites))
                        ind += "    "
                    out.append((f"{ind}for {var} in {d}:", b.pos, cites))
                ind += "    "
                if rest is not None:
                    out.append((f"{ind}if {rest}:", b.where.pos if b.where else b.pos, cites))
                    ind += "    "
                for later, place in kept.items():
                    if home[later] == k:
                        out.append((f"{ind}{place} = None", st.pos, cites))
            values = "(" + "".join(n + ", " for n in names) + ")"
            out.append((f"{ind}add(({bi}, {values}))", st.pos, cites))
        return out

    def split_where(self, b: A.Binding, where: str | None, sc: Scope, fr: Frame) -> tuple[str, str | None]:
        """A binding's filter (``where``, its generated text) as (its leading conjuncts that do
        not read the binding's variable, the rest).

        Which conjuncts read the variable is the checker's name resolution
        (:meth:`~interpreter.checker.Checked.free_locals`).  The first part is the same for every
        value, so it is tested once, before the values are listed (and only if there are any, as
        the filter would be): ``"True"`` if there is none; the rest filters each value (None if
        nothing is left).
        """
        self.splits.pop(id(b), None)
        if b.where is None or where is None or "\x00" in where:  # (no split of text still to be resolved by its frame)
            return "True", where
        parts = self.conjuncts(b.where, sc, fr, lambda e: b.var in self.x.ctx.checked.free_locals(e), ())
        lead = 0
        while lead < len(parts) and not parts[lead].reads:
            lead += 1
        if lead == 0:
            return "True", where
        self.splits[id(b)] = Split(lead, tuple(parts))
        texts = [f"({part.text})" for part in parts]
        return " and ".join(texts[:lead]), " and ".join(texts[lead:]) or None

    def conjuncts(self, e: A.Expr, sc: Scope, fr: Frame, reads: Callable[[A.Expr], bool],
                  calls: tuple[A.Call, ...]) -> list[Conjunct]:
        """The parts of a condition joined by ``and``, left to right, looking into the body of a
        function written out in place (``calls``: the calls whose bodies ``e`` is in, outermost first)."""
        checked = self.x.ctx.checked
        if isinstance(e, A.Binary) and e.op == "and":
            return self.conjuncts(e.left, sc, fr, reads, calls) + self.conjuncts(e.right, sc, fr, reads, calls)
        if isinstance(e, A.Call) and checked.ref(e) is Kind.FUNCTION:
            got = self.gen.inlined(e, sc, fr)
            decl = self.gen.symbols.functions[e.func]
            if got is not None and not self.gen.unread_arguments(decl, got[1]):  # (else tested whole)
                _, inner_sc, inner = got
                given = {p.name for p, a in zip(decl.params, e.args) if reads(a)}
                parts = self.conjuncts(decl.body, inner_sc, inner, lambda x: bool(given & checked.free_locals(x)),
                                       (*calls, e))
                for alias, init in inner.aliases.items():
                    fr.aliases.setdefault(alias, init)
                return parts
        text = self.gen.expr(e, sc, fr)
        return [] if literal(text) is True else [Conjunct(text, reads(e), e, calls)]  # (`and true`: nothing to test)

    @staticmethod
    def filtered(var: str, domain: str, hoisted: str, rest: str | None) -> str:
        """The text of a list of the values of a binding (a local ``domain``) that pass its filter,
        split by :meth:`split_where`."""
        made = f"[{var} for {var} in {domain} if {rest}]" if rest is not None else domain
        return made if hoisted == "True" else f"({made} if {domain} and {hoisted} else [])"

    def charged(self, name: str, domain: str, cost: int, ind: str, pos: A.Pos) -> list[Line]:
        """Lines setting ``name`` to a domain and charging its length times ``cost`` to the
        listing's own step budget (counted inline in ``_n``: listing options is hot)."""
        cites = self.current_citations()
        return [(f"{ind}{name} = {domain}", pos, cites), (f"{ind}_n += len({name}) * {cost}", pos, cites),
                (f"{ind}if _n > {STEP_LIMIT}: raise _Stuck()", pos, cites)]

    def single_options(self, st: A.Stmt, bindings: tuple[A.Binding, ...], when: A.Expr | None,
                       fr: Frame) -> list[Line]:
        """Lines for a decision with one branch of one value: ``out`` holds the values, and makes
        each option only when it is read."""
        cites = self.current_citations()
        (b,) = bindings
        domain = self.gen.expr(b.domain, {}, fr, iterating=True)
        var = self.gen.fresh(b.var)
        where = self.gen.expr(b.where, {b.var: var}, fr) if b.where is not None else None
        if not self.gen.data_sized(b.domain):  # listed once: only a range or a list may be too long
            cost = self.listing_costs[id(b)] = weight(where or "")
            domain = f"_each(st, {domain}, {cost})"
        hoisted, rest = self.split_where(b, where, {b.var: var}, fr)
        out: list[Line] = []
        if hoisted != "True":
            out.append((f"out = {domain}", b.pos, cites))
            domain = "out"
        made = self.filtered(var, domain, hoisted, rest)
        values = f"_Values({made if rest is not None else f'list({made})'})"
        if when is None:
            return [*out, (f"out = {values}", b.pos, cites)]
        return [*out, (f"out = {values} if {self.text(when, fr)} else []", b.pos, cites)]


def _may_grow(t: Type) -> bool:
    """Whether a value of this type may be past the bounds of a kept value (see :func:`~.codegen.bounded`)."""
    return t in (INT, ANY) or (isinstance(t, ListType) and _may_hold_numbers(t))


def _may_hold_numbers(t: ListType) -> bool:
    """Whether a list of this type may hold numbers or lists (what :func:`~.codegen.bounded`
    checks); a list of pieces, players or texts is kept as it is."""
    inner = t.elem
    return inner in (INT, ANY) or isinstance(inner, ListType)
