"""The compiler: third stage (parse → check → compile → run).

Expressions become Python functions ``f(state, env) -> value``, generated as
Python source (see :mod:`.codegen`); procedures become flat lists of
instructions with jumps, so that the position of a
running game is plain data (procedure index, instruction index, locals) and
can be cloned and stored as JSON.  Decisions and chance events are
instructions that stop the machine until an action is applied.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from . import ast as A
from .checker import Checked, element_type
from .codegen import Frame, PyGen

if TYPE_CHECKING:
    from .runtime import State

Fn = Callable[["State", dict[str, Any]], Any]
#: A decision's option lister: every legal (branch index, bound values).
Options = Callable[["State", dict[str, Any]], list[tuple[int, tuple[Any, ...]]]]

# Instruction codes.  An instruction is a tuple (code, a, b).
EXEC, JUMP, JUMP_IF_NOT, CALL, RETURN, CHOOSE, CHANCE, FINISH = range(8)


def render_value(value: Any, t: str, piece_keys: list[Any]) -> str:
    """The text of a value of checker type ``t`` in an action or a log line."""
    if value is None:
        return "-"
    if t == "player":
        return f"P{value}"
    if t.startswith("piece:"):
        return f"#{piece_keys[value]}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "+".join(render_value(v, element_type(t), piece_keys) for v in value)
    return str(value)


@attrs.define
class Binding:
    """One variable of a decision branch, with its domain and filter."""

    var: str
    domain: Fn
    where: Fn | None
    type: str
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
class Decision:
    """A `choose` or `chance` instruction."""

    chance: bool
    player: Fn | None
    branches: list[Branch]
    pos: A.Pos
    citations: tuple[A.Citation, ...]  # of the enclosing rules and procedure
    rule: str  # the innermost enclosing rule (or procedure) name
    #: The generated function listing the legal options (set by the compiler).
    enumerate: Options | None = attrs.field(default=None, repr=False, eq=False)

    def options(self, st: State, env: dict[str, Any]) -> list[tuple[int, tuple[Any, ...]]]:
        """Every legal (branch index, bound values) in declaration order."""
        assert self.enumerate is not None
        return self.enumerate(st, env)

    def text(self, option: tuple[int, tuple[Any, ...]], piece_keys: list[Any]) -> str:
        """The action text of an option: the verb and its values."""
        br = self.branches[option[0]]
        if not option[1]:
            return br.verb
        parts = [render_value(v, b.type, piece_keys) for v, b in zip(option[1], br.bindings)]
        return br.verb + " " + " ".join(parts)


@attrs.define
class Procedure:
    """A compiled procedure: instructions, their positions and rule citations."""

    name: str
    params: tuple[str, ...]
    code: list[tuple[int, Any, Any]]
    positions: list[A.Pos]
    citations: list[tuple[A.Citation, ...]]
    decl: A.ProcedureDecl


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
        self.proc_index = proc_index


class ExprCompiler:
    """Compiles checked expressions into functions ``f(state, env)`` (see :mod:`.codegen`)."""

    def __init__(self, ctx: CompileContext):
        self.ctx = ctx
        self.symbols = ctx.checked.symbols
        self.gen = PyGen(ctx)

    def type_of(self, e: A.Expr) -> str:
        """The checker's type of an expression."""
        return self.ctx.checked.type_of(e)

    def expr(self, e: A.Expr, hot: bool = False) -> Fn:
        """A function evaluating the expression; ``hot`` code reads state tables once per call."""
        return self.gen.function(e, hot)


class ProcedureCompiler:
    """Compiles one procedure body into instructions."""

    def __init__(self, exprs: ExprCompiler, decl: A.ProcedureDecl):
        self.x = exprs
        self.gen = exprs.gen
        self.decl = decl
        self.code: list[tuple[int, Any, Any]] = []
        self.positions: list[A.Pos] = []
        self.citations: list[tuple[A.Citation, ...]] = []
        self.cite_stack: list[tuple[str, tuple[A.Citation, ...]]] = [(decl.name, decl.citations)]
        self.breaks: list[list[int]] = []
        self.counter = 0

    def compile(self) -> Procedure:
        self.block(self.decl.body)
        self.emit(RETURN, None, None, self.decl.pos)
        params = tuple(p.partition(":")[0] for p in self.decl.params)
        return Procedure(self.decl.name, params, self.code, self.positions, self.citations, self.decl)

    def current_citations(self) -> tuple[A.Citation, ...]:
        out: list[A.Citation] = []
        for _, cites in reversed(self.cite_stack):
            out.extend(cites)
        return tuple(out)

    def emit(self, op: int, a: Any, b: Any, pos: A.Pos) -> int:
        self.code.append((op, a, b))
        self.positions.append(pos)
        self.citations.append(self.current_citations())
        return len(self.code) - 1

    def patch(self, at: int, target: int) -> None:
        op, a, b = self.code[at]
        if op == JUMP:
            self.code[at] = (op, target, b)
        else:
            self.code[at] = (op, a, target)

    def here(self) -> int:
        return len(self.code)

    def block(self, b: A.Block) -> None:
        for st in b.statements:
            self.statement(st)

    # ------------------------------------------------------- generated code
    def cond(self, e: A.Expr) -> Fn:
        """A hot function evaluating a condition or value."""
        return self.x.expr(e, hot=True)

    def step(self, lines: Callable[[Frame], list[str]], what: str) -> Fn:
        """A generated instruction ``f(st, env)`` running the given lines."""
        frame = Frame(hot=True)
        return self.gen.build(self.gen.fresh(what), "st, env", frame, lines(frame))  # type: ignore[no-any-return]

    def text(self, e: A.Expr, fr: Frame, iterating: bool = False) -> str:
        return self.gen.expr(e, {}, fr, iterating)

    def statement(self, st: A.Stmt) -> None:
        if isinstance(st, A.Let):
            name, value = st.name, st.value
            self.emit(EXEC, self.step(lambda fr: [f"env[{name!r}] = {self.text(value, fr)}"], "let"), None, st.pos)
        elif isinstance(st, A.Assign):
            self.emit(EXEC, self.assign(st), None, st.pos)
        elif isinstance(st, A.If):
            ends: list[int] = []
            for cond, body in st.branches:
                jif = self.emit(JUMP_IF_NOT, self.cond(cond), None, cond.pos)
                self.block(body)
                ends.append(self.emit(JUMP, None, None, cond.pos))
                self.patch(jif, self.here())
            if st.otherwise is not None:
                self.block(st.otherwise)
            for at in ends:
                self.patch(at, self.here())
        elif isinstance(st, A.While):
            top = self.here()
            jif = self.emit(JUMP_IF_NOT, self.cond(st.cond), None, st.pos)
            self.loop_body(st.body, top)
            self.patch(jif, self.here())
            self.close_breaks()
        elif isinstance(st, A.Loop):
            top = self.here()
            self.loop_body(st.body, top)
            self.close_breaks()
        elif isinstance(st, A.For):
            self.for_loop(st)
        elif isinstance(st, A.Break):
            self.breaks[-1].append(self.emit(JUMP, None, None, st.pos))
        elif isinstance(st, A.CallProc):
            self.call(st)
        elif isinstance(st, A.Choose):
            self.decision(st, chance=False)
        elif isinstance(st, A.Chance):
            self.decision(st, chance=True)
        elif isinstance(st, A.Move):
            self.emit(EXEC, self.move(st), None, st.pos)
        elif isinstance(st, A.Reveal):
            piece = st.piece
            self.emit(EXEC, self.step(lambda fr: [f"st.face_up[{self.text(piece, fr)}] = True"], "reveal"),
                      None, st.pos)
        elif isinstance(st, A.Look):
            look = st

            def look_lines(fr: Frame) -> list[str]:
                return [f"st.seen[{self.text(look.piece, fr)}] |= 1 << {self.text(look.player, fr)}"]

            self.emit(EXEC, self.step(look_lines, "look"), None, st.pos)
        elif isinstance(st, A.Swap):
            swap = st

            def swap_lines(fr: Frame) -> list[str]:
                return [f"st.swap_pieces({self.text(swap.first, fr)}, {self.text(swap.second, fr)})"]

            self.emit(EXEC, self.step(swap_lines, "swap"), None, st.pos)
        elif isinstance(st, A.Begin):
            scope = st.scope

            def begin(s: State, env: dict[str, Any]) -> None:
                s.begin_scope(scope)

            self.emit(EXEC, begin, None, st.pos)
        elif isinstance(st, A.Use):
            use = st

            def use_lines(fr: Frame) -> list[str]:
                used = fr.ref(f"U_{use.limit}", f"st.used[{use.limit!r}]")
                return [f"{used}.add({self.gen.keys(use.keys, {}, fr)})"]

            self.emit(EXEC, self.step(use_lines, "use"), None, st.pos)
        elif isinstance(st, A.Finish):
            self.emit(FINISH, self.cond(st.winners), None, st.pos)
        elif isinstance(st, A.Rule):
            self.cite_stack.append((st.name, st.citations))
            self.block(st.body)
            self.cite_stack.pop()
        elif isinstance(st, A.Say):
            self.emit(EXEC, self.say(st), None, st.pos)
        else:
            raise AssertionError(st)

    def loop_body(self, body: A.Block, top: int) -> None:
        self.breaks.append([])
        self.block(body)
        self.emit(JUMP, top, None, body.pos)

    def close_breaks(self) -> None:
        for at in self.breaks.pop():
            self.patch(at, self.here())

    def for_loop(self, st: A.For) -> None:
        self.counter += 1
        items, index, var = f"$items{self.counter}", f"$i{self.counter}", st.var
        domain = st.domain

        def start_lines(fr: Frame) -> list[str]:
            return [f"env[{items!r}] = list({self.text(domain, fr, iterating=True)})", f"env[{index!r}] = 0"]

        def more(s: State, env: dict[str, Any]) -> bool:
            i = env[index]
            values = env[items]
            if i >= len(values):
                return False
            env[var] = values[i]
            env[index] = i + 1
            return True

        self.emit(EXEC, self.step(start_lines, "for"), None, st.pos)
        top = self.emit(JUMP_IF_NOT, more, None, st.pos)
        if st.where is not None:
            self.emit(JUMP_IF_NOT, self.cond(st.where), top, st.where.pos)
        self.loop_body(st.body, top)
        self.patch(top, self.here())
        self.close_breaks()

    def assign(self, st: A.Assign) -> Fn:
        name, op = st.name, st.op
        if self.x.symbols.states.get(name) is None or self._is_local(st):
            def local_lines(fr: Frame) -> list[str]:
                return [f"env[{name!r}] {op} {self.text(st.value, fr)}"]

            return self.step(local_lines, "set")

        def state_lines(fr: Frame) -> list[str]:
            table = self.gen.vals(name, fr)
            key = self.gen.keys(st.keys, {}, fr)
            if op == "=":
                # the key is computed and checked before the value
                return [f"k = {key}",
                        f"if k not in {table}: raise KeyError({name!r} + ' has no key ' + repr(k))",
                        f"{table}[k] = {self.text(st.value, fr)}"]
            return [f"{table}[{key}] {op} {self.text(st.value, fr)}"]

        return self.step(state_lines, "set")

    def _is_local(self, st: A.Assign) -> bool:
        # The checker resolves locals on Name nodes; an assignment target is a local
        # when it has no keys and is not declared state.
        return not st.keys and st.name not in self.x.symbols.states

    def call(self, st: A.CallProc) -> None:
        index = self.x.ctx.proc_index[st.name]
        decl = self.x.symbols.procedures[st.name]
        params = [p.partition(":")[0] for p in decl.params]

        def env_lines(fr: Frame) -> list[str]:
            items = ", ".join(f"{p!r}: {self.text(a, fr)}" for p, a in zip(params, st.args))
            return [f"return {{{items}}}"]

        self.emit(CALL, index, self.step(env_lines, "call_" + st.name), st.pos)

    def move(self, st: A.Move) -> Fn:
        many = self.x.type_of(st.pieces).startswith("list:")
        zone = st.zone

        def move_lines(fr: Frame) -> list[str]:
            if isinstance(zone, A.Index) and self.x.symbols.kind_of(zone.base) == "zone":
                where = [f"zn = {zone.base!r}", f"zk = {self.gen.keys(zone.args, {}, fr)}"]
            else:
                where = [f"zn, zk = {self.text(zone, fr)}"]
            if many:
                return [*where, f"for p in list({self.text(st.pieces, fr, iterating=True)}):",
                        "    st.move_piece(p, zn, zk)"]
            return [*where, f"st.move_piece({self.text(st.pieces, fr)}, zn, zk)"]

        return self.step(move_lines, "move")

    def say(self, st: A.Say) -> Fn:
        types = self.x.ctx.checked.say_types.get(id(st), {})
        keys = self.x.ctx.piece_keys
        template = st.template
        getters: list[tuple[str, str, Fn]] = []
        for name, t in types.items():
            getters.append((name, t, self._say_getter(name)))

        def say(s: State, env: dict[str, Any]) -> None:
            if s.log is None:
                return
            text = template
            for name, t, get in getters:
                text = text.replace("{" + name + "}", render_value(get(s, env), t, keys))
            s.log.append(text)

        return say

    def _say_getter(self, name: str) -> Fn:
        if name in self.x.symbols.states:
            return lambda s, env: s.vals[name][None]
        return lambda s, env: env[name]

    def decision(self, st: A.Choose | A.Chance, chance: bool) -> None:
        x = self.x
        options: list[tuple[str, tuple[A.Binding, ...], A.Expr | None, tuple[A.Citation, ...], A.Block, Any]]
        if isinstance(st, A.Chance):
            options = [(st.verb, (st.binding,), None, st.citations, st.body, st)]
            player = None
        else:
            options = [(o.verb, o.bindings, o.when, o.citations, o.body, o) for o in st.options]
            player = self.cond(st.player)
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
        decision.enumerate = self.enumerator([(o[1], o[2]) for o in options])
        self.emit(CHANCE if chance else CHOOSE, decision, None, st.pos)
        ends = []
        for branch, (_, _, _, cites, body, _) in zip(branches, options):
            branch.target = self.here()
            self.cite_stack.append((self.cite_stack[-1][0], cites))
            self.block(body)
            self.cite_stack.pop()
            ends.append(self.emit(JUMP, None, None, body.pos))
        for at in ends:
            self.patch(at, self.here())

    def enumerator(self, branches: list[tuple[tuple[A.Binding, ...], A.Expr | None]]) -> Options:
        """One generated function listing every legal (branch index, values), in order."""

        def lines(fr: Frame) -> list[str]:
            out = ["out = []", "add = out.append"]
            for bi, (bindings, when) in enumerate(branches):
                indent = ""
                if when is not None:
                    out.append(f"if {self.text(when, fr)}:")
                    indent = "    "
                scope: dict[str, str] = {}
                names = []
                for b in bindings:
                    var = self.gen.fresh(b.var)
                    domain = self.gen.expr(b.domain, scope, fr, iterating=True)
                    scope = {**scope, b.var: var}
                    names.append(var)
                    out.append(f"{indent}for {var} in {domain}:")
                    indent += "    "
                    if b.where is not None:
                        out.append(f"{indent}if {self.gen.expr(b.where, scope, fr)}:")
                        indent += "    "
                values = "(" + "".join(n + ", " for n in names) + ")"
                out.append(f"{indent}add(({bi}, {values}))")
            out.append("return out")
            return out

        return self.step(lines, "options")
