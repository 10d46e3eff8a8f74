"""The compiler: third stage (parse → check → compile → run).

Expressions become Python closures ``f(state, env) -> value``; procedures
become flat lists of instructions with jumps, so that the position of a
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

if TYPE_CHECKING:
    from .runtime import State

Fn = Callable[["State", dict[str, Any]], Any]

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

    def options(self, st: State, env: dict[str, Any]) -> list[tuple[int, tuple[Any, ...]]]:
        """Every legal (branch index, bound values) in declaration order."""
        out: list[tuple[int, tuple[Any, ...]]] = []
        for bi, br in enumerate(self.branches):
            if br.when is not None and not br.when(st, env):
                continue
            bindings = br.bindings
            if not bindings:
                out.append((bi, ()))
                continue
            saved = {b.var: env[b.var] for b in bindings if b.var in env}
            self._bind(st, env, bindings, 0, (), bi, out)
            for b in bindings:
                env.pop(b.var, None)
            env.update(saved)
        return out

    def _bind(self, st: State, env: dict[str, Any], bindings: list[Binding], i: int,
              acc: tuple[Any, ...], bi: int, out: list[tuple[int, tuple[Any, ...]]]) -> None:
        b = bindings[i]
        last = i == len(bindings) - 1
        var, where = b.var, b.where
        for value in b.domain(st, env):
            env[var] = value
            if where is not None and not where(st, env):
                continue
            if last:
                out.append((bi, acc + (value,)))
            else:
                self._bind(st, env, bindings, i + 1, acc + (value,), bi, out)

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
    """Compiles checked expressions into closures."""

    def __init__(self, ctx: CompileContext):
        self.ctx = ctx
        self.symbols = ctx.checked.symbols
        self.functions: dict[str, Fn] = {}

    def type_of(self, e: A.Expr) -> str:
        return self.ctx.checked.type_of(e)

    def expr(self, e: A.Expr) -> Fn:
        if isinstance(e, A.Literal):
            value = e.value
            return lambda st, env: value
        if isinstance(e, A.Name):
            return self.name(e)
        if isinstance(e, A.ListLit):
            items = [self.expr(i) for i in e.items]
            return lambda st, env: [f(st, env) for f in items]
        if isinstance(e, A.Unary):
            f = self.expr(e.operand)
            if e.op == "not":
                return lambda st, env: not f(st, env)
            return lambda st, env: -f(st, env)
        if isinstance(e, A.Binary):
            return self.binary(e)
        if isinstance(e, A.Conditional):
            c, a, b = self.expr(e.cond), self.expr(e.then), self.expr(e.otherwise)
            return lambda st, env: a(st, env) if c(st, env) else b(st, env)
        if isinstance(e, A.Call):
            return self.call(e)
        if isinstance(e, A.Index):
            return self.index(e)
        if isinstance(e, A.Attr):
            return self.attr(e)
        if isinstance(e, A.Aggregate):
            return self.aggregate(e)
        if isinstance(e, A.Comprehension):
            return self.comprehension(e)
        raise AssertionError(e)

    def name(self, e: A.Name) -> Fn:
        ident = e.ident
        if self.ctx.checked.locals.get(id(e)):
            return lambda st, env: env[ident]
        if ident == "players":
            return lambda st, env: st.seats
        if ident == "player_count":
            return lambda st, env: st.n
        if ident == "first_player":
            return lambda st, env: 0
        s = self.symbols
        kind = s.kind_of(ident)
        if kind == "state":
            return lambda st, env: st.vals[ident][None]
        if kind == "zone":
            return lambda st, env: (ident, None)
        if kind in ("table", "enum"):
            keys = self.ctx.table_keys[ident]
            return lambda st, env: keys
        if kind == "graph":
            return lambda st, env: ident
        if kind == "switch":
            return lambda st, env: st.settings[ident]
        raise AssertionError(f"unresolved name {ident}")

    def keys(self, args: tuple[A.Expr, ...]) -> Fn:
        """A closure computing the key of an indexed state: a value, a tuple, or None."""
        if not args:
            return lambda st, env: None
        if len(args) == 1:
            return self.expr(args[0])
        fns = [self.expr(a) for a in args]
        if len(fns) == 2:
            f0, f1 = fns
            return lambda st, env: (f0(st, env), f1(st, env))
        return lambda st, env: tuple(f(st, env) for f in fns)

    def index(self, e: A.Index) -> Fn:
        base = e.base
        key = self.keys(e.args)
        kind = self.symbols.kind_of(base)
        if kind == "state":
            return lambda st, env: st.vals[base][key(st, env)]
        if kind == "zone":
            return lambda st, env: (base, key(st, env))
        if kind == "limit":
            return lambda st, env: key(st, env) not in st.used[base]
        raise AssertionError(base)

    def zone_list(self, e: A.Expr) -> Fn:
        """A closure returning the (live) list of piece ids of a zone expression."""
        if isinstance(e, A.Index) and self.symbols.kind_of(e.base) == "zone":
            base = e.base
            key = self.keys(e.args)
            return lambda st, env: st.zones[base][key(st, env)]
        if isinstance(e, A.Name) and self.symbols.kind_of(e.ident) == "zone":
            ident = e.ident
            return lambda st, env: st.zones[ident][None]
        ref = self.expr(e)

        def dynamic(st: State, env: dict[str, Any]) -> list[int]:
            zone, k = ref(st, env)
            return st.zones[zone][k]

        return dynamic

    def attr(self, e: A.Attr) -> Fn:
        base_t = self.type_of(e.base)
        base = self.expr(e.base)
        col = e.name
        if base_t.startswith("piece:"):
            rows = self.ctx.piece_rows
            return lambda st, env: rows[base(st, env)][col]
        table = base_t[7:]
        by_key = self.ctx.table_rows[table]
        return lambda st, env: by_key[base(st, env)][col]

    def binary(self, e: A.Binary) -> Fn:
        a, b = self.expr(e.left), self.expr(e.right)
        op = e.op
        if op == "and":
            return lambda st, env: a(st, env) and b(st, env)
        if op == "or":
            return lambda st, env: a(st, env) or b(st, env)
        if op == "+":
            return lambda st, env: a(st, env) + b(st, env)
        if op == "-":
            return lambda st, env: a(st, env) - b(st, env)
        if op == "*":
            return lambda st, env: a(st, env) * b(st, env)
        if op == "//":
            return lambda st, env: a(st, env) // b(st, env)
        if op == "%":
            return lambda st, env: a(st, env) % b(st, env)
        if op == "==":
            return lambda st, env: a(st, env) == b(st, env)
        if op == "!=":
            return lambda st, env: a(st, env) != b(st, env)
        if op == "<":
            return lambda st, env: a(st, env) < b(st, env)
        if op == "<=":
            return lambda st, env: a(st, env) <= b(st, env)
        if op == ">":
            return lambda st, env: a(st, env) > b(st, env)
        if op == ">=":
            return lambda st, env: a(st, env) >= b(st, env)
        if op == "in":
            return lambda st, env: a(st, env) in b(st, env)
        if op == "not in":
            return lambda st, env: a(st, env) not in b(st, env)
        if op == "..":
            return lambda st, env: list(range(a(st, env), b(st, env) + 1))
        raise AssertionError(op)

    def call(self, e: A.Call) -> Fn:
        f = e.func
        if f in self.symbols.functions:
            return self.user_function(e)
        args = e.args
        if f == "size":
            if self.type_of(args[0]).startswith("zone:"):
                zl = self.zone_list(args[0])
                return lambda st, env: len(zl(st, env))
            lf = self.expr(args[0])
            return lambda st, env: len(lf(st, env))
        if f == "pieces":
            zl = self.zone_list(args[0])
            return lambda st, env: list(zl(st, env))
        if f == "piece":
            zl = self.zone_list(args[0])
            i = self.expr(args[1])

            def piece_at(st: State, env: dict[str, Any]) -> int:
                pos = i(st, env)
                if pos < 1:
                    raise IndexError(f"position {pos} is not 1 or more")
                return zl(st, env)[pos - 1]  # type: ignore[no-any-return]

            return piece_at
        if f == "position":
            p = self.expr(args[0])

            def position(st: State, env: dict[str, Any]) -> int:
                piece = p(st, env)
                zone, key = st.loc[piece]
                return st.zones[zone][key].index(piece) + 1

            return position
        if f == "revealed":
            p = self.expr(args[0])
            return lambda st, env: st.face_up[p(st, env)]
        graph = ""
        if f in ("nodes", "neighbours", "adjacent"):
            graph = self.type_of(args[0])[6:]
        if f == "nodes":
            return lambda st, env: st.world.nodes[graph]
        if f == "neighbours":
            n = self.expr(args[1])
            return lambda st, env: st.world.adjacent[graph].get(n(st, env), [])
        if f == "adjacent":
            x, y = self.expr(args[1]), self.expr(args[2])
            return lambda st, env: y(st, env) in st.world.adjacent[graph].get(x(st, env), ())
        one = self.expr(args[0])
        if f == "next":
            return lambda st, env: (one(st, env) + 1) % st.n
        if f == "prev":
            return lambda st, env: (one(st, env) - 1) % st.n
        if f == "clockwise":
            return lambda st, env: [(one(st, env) + i) % st.n for i in range(st.n)]
        if f == "counterclockwise":
            return lambda st, env: [(one(st, env) - i) % st.n for i in range(st.n)]
        if f == "snake":
            def snake(st: State, env: dict[str, Any]) -> list[int]:
                start = one(st, env)
                order = [(start + i) % st.n for i in range(st.n)]
                return order + order[::-1]

            return snake
        if f == "abs":
            return lambda st, env: abs(one(st, env))
        two = self.expr(args[1])
        if f == "min":
            return lambda st, env: min(one(st, env), two(st, env))
        if f == "max":
            return lambda st, env: max(one(st, env), two(st, env))
        if f == "startswith":
            return lambda st, env: str(one(st, env)).startswith(str(two(st, env)))
        raise AssertionError(f)

    def user_function(self, e: A.Call) -> Fn:
        decl = self.symbols.functions[e.func]
        name = decl.name
        params = [p.partition(":")[0] for p in decl.params]
        args = [self.expr(a) for a in e.args]
        functions = self.functions

        if name not in functions:
            functions[name] = lambda st, env: functions[name + "$body"](st, env)
            functions[name + "$body"] = self.expr(decl.body)
        body = functions[name + "$body"]
        if len(params) == 1:
            p0, a0 = params[0], args[0]
            return lambda st, env: body(st, {p0: a0(st, env)})
        pairs = list(zip(params, args))
        return lambda st, env: body(st, {p: a(st, env) for p, a in pairs})

    def aggregate(self, e: A.Aggregate) -> Fn:
        domain = self.expr(e.domain)
        where = self.expr(e.where) if e.where is not None else None
        body = self.expr(e.body) if e.body is not None else None
        var = e.var
        kind = e.kind

        def items(st: State, env: dict[str, Any]) -> list[Any]:
            values = domain(st, env)
            if where is None:
                return list(values)
            out = []
            saved = env.get(var, _MISSING)
            for v in values:
                env[var] = v
                if where(st, env):
                    out.append(v)
            _restore(env, var, saved)
            return out

        def mapped(st: State, env: dict[str, Any]) -> list[Any]:
            values = items(st, env)
            if body is None:
                return values
            saved = env.get(var, _MISSING)
            out = []
            for v in values:
                env[var] = v
                out.append(body(st, env))
            _restore(env, var, saved)
            return out

        if kind == "all":
            return lambda st, env: all(mapped(st, env))
        if kind == "any":
            return lambda st, env: any(mapped(st, env))
        if kind == "count":
            if body is None:
                return lambda st, env: len(items(st, env))
            return lambda st, env: sum(1 for x in mapped(st, env) if x)
        if kind == "sum":
            return lambda st, env: sum(mapped(st, env))
        if kind == "most":
            return lambda st, env: max(mapped(st, env), default=None)
        if kind == "least":
            return lambda st, env: min(mapped(st, env), default=None)
        if kind == "first":
            return lambda st, env: next(iter(mapped(st, env)), None)
        raise AssertionError(kind)

    def comprehension(self, e: A.Comprehension) -> Fn:
        domain = self.expr(e.domain)
        where = self.expr(e.where) if e.where is not None else None
        body = self.expr(e.body)
        var = e.var

        def comp(st: State, env: dict[str, Any]) -> list[Any]:
            saved = env.get(var, _MISSING)
            out = []
            for v in domain(st, env):
                env[var] = v
                if where is None or where(st, env):
                    out.append(body(st, env))
            _restore(env, var, saved)
            return out

        return comp


_MISSING = object()


def _restore(env: dict[str, Any], var: str, saved: Any) -> None:
    if saved is _MISSING:
        env.pop(var, None)
    else:
        env[var] = saved


class ProcedureCompiler:
    """Compiles one procedure body into instructions."""

    def __init__(self, exprs: ExprCompiler, decl: A.ProcedureDecl):
        self.x = exprs
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

    def statement(self, st: A.Stmt) -> None:
        x = self.x
        if isinstance(st, A.Let):
            name, value = st.name, x.expr(st.value)

            def let(s: State, env: dict[str, Any]) -> None:
                env[name] = value(s, env)

            self.emit(EXEC, let, None, st.pos)
        elif isinstance(st, A.Assign):
            self.emit(EXEC, self.assign(st), None, st.pos)
        elif isinstance(st, A.If):
            ends: list[int] = []
            for cond, body in st.branches:
                jif = self.emit(JUMP_IF_NOT, x.expr(cond), None, cond.pos)
                self.block(body)
                ends.append(self.emit(JUMP, None, None, cond.pos))
                self.patch(jif, self.here())
            if st.otherwise is not None:
                self.block(st.otherwise)
            for at in ends:
                self.patch(at, self.here())
        elif isinstance(st, A.While):
            top = self.here()
            jif = self.emit(JUMP_IF_NOT, x.expr(st.cond), None, st.pos)
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
            piece = x.expr(st.piece)

            def reveal(s: State, env: dict[str, Any]) -> None:
                s.face_up[piece(s, env)] = True

            self.emit(EXEC, reveal, None, st.pos)
        elif isinstance(st, A.Look):
            piece, player = x.expr(st.piece), x.expr(st.player)

            def look(s: State, env: dict[str, Any]) -> None:
                s.seen[piece(s, env)] |= 1 << player(s, env)

            self.emit(EXEC, look, None, st.pos)
        elif isinstance(st, A.Swap):
            first, second = x.expr(st.first), x.expr(st.second)

            def swap(s: State, env: dict[str, Any]) -> None:
                s.swap_pieces(first(s, env), second(s, env))

            self.emit(EXEC, swap, None, st.pos)
        elif isinstance(st, A.Begin):
            scope = st.scope

            def begin(s: State, env: dict[str, Any]) -> None:
                s.begin_scope(scope)

            self.emit(EXEC, begin, None, st.pos)
        elif isinstance(st, A.Use):
            limit, key = st.limit, x.keys(st.keys)

            def use(s: State, env: dict[str, Any]) -> None:
                s.used[limit].add(key(s, env))

            self.emit(EXEC, use, None, st.pos)
        elif isinstance(st, A.Finish):
            self.emit(FINISH, x.expr(st.winners), None, st.pos)
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
        domain = self.x.expr(st.domain)

        def start(s: State, env: dict[str, Any]) -> None:
            env[items] = list(domain(s, env))
            env[index] = 0

        def more(s: State, env: dict[str, Any]) -> bool:
            i = env[index]
            values = env[items]
            if i >= len(values):
                return False
            env[var] = values[i]
            env[index] = i + 1
            return True

        self.emit(EXEC, start, None, st.pos)
        top = self.emit(JUMP_IF_NOT, more, None, st.pos)
        if st.where is not None:
            self.emit(JUMP_IF_NOT, self.x.expr(st.where), top, st.where.pos)
        self.loop_body(st.body, top)
        self.patch(top, self.here())
        self.close_breaks()

    def assign(self, st: A.Assign) -> Fn:
        value = self.x.expr(st.value)
        name, op = st.name, st.op
        if self.x.symbols.states.get(name) is None or self._is_local(st):
            if op == "=":
                def set_local(s: State, env: dict[str, Any]) -> None:
                    env[name] = value(s, env)
                return set_local
            sign = 1 if op == "+=" else -1

            def add_local(s: State, env: dict[str, Any]) -> None:
                env[name] += sign * value(s, env)
            return add_local
        key = self.x.keys(st.keys)
        if op == "=":
            def set_state(s: State, env: dict[str, Any]) -> None:
                table = s.vals[name]
                k = key(s, env)
                if k not in table:
                    raise KeyError(f"{name} has no key {k!r}")
                table[k] = value(s, env)
            return set_state
        sign = 1 if op == "+=" else -1

        def add_state(s: State, env: dict[str, Any]) -> None:
            s.vals[name][key(s, env)] += sign * value(s, env)
        return add_state

    def _is_local(self, st: A.Assign) -> bool:
        # The checker resolves locals on Name nodes; an assignment target is a local
        # when it has no keys and is not declared state.
        return not st.keys and st.name not in self.x.symbols.states

    def call(self, st: A.CallProc) -> None:
        index = self.x.ctx.proc_index[st.name]
        decl = self.x.symbols.procedures[st.name]
        params = [p.partition(":")[0] for p in decl.params]
        args = [self.x.expr(a) for a in st.args]
        pairs = list(zip(params, args))

        def new_env(s: State, env: dict[str, Any]) -> dict[str, Any]:
            return {p: a(s, env) for p, a in pairs}

        self.emit(CALL, index, new_env, st.pos)

    def move(self, st: A.Move) -> Fn:
        pieces = self.x.expr(st.pieces)
        zone = self.x.expr(st.zone)
        many = self.x.type_of(st.pieces).startswith("list:")

        def move(s: State, env: dict[str, Any]) -> None:
            zname, key = zone(s, env)
            if many:
                for p in list(pieces(s, env)):
                    s.move_piece(p, zname, key)
            else:
                s.move_piece(pieces(s, env), zname, key)

        return move

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
            player = x.expr(st.player)
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

