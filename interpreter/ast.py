"""Typed, frozen syntax tree of the rules language.

Every node carries a :class:`Pos` so that the checker, the runtime and the
documentation can point back at the spec text it came from.
"""

from __future__ import annotations

from typing import assert_never

import attrs


@attrs.frozen
class Pos:
    """A place in a spec file (1-based line and column)."""

    path: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


NOWHERE = Pos("<builtin>", 0, 0)

#: The largest whole number the language handles: a larger literal is refused, and a
#: larger value kept in a variable, counter or local stops the game with a rule error.
MAX_INT = 2**63 - 1


@attrs.frozen
class Citation:
    """A passage of a source text: `cite rulebook "Section" "sentence"`."""

    source: str
    section: str
    quote: str
    pos: Pos = attrs.field(eq=False, default=NOWHERE)

    def __str__(self) -> str:
        return f'{self.source} {self.section}: "{self.quote}"'


# ------------------------------------------------------------------ expressions


@attrs.frozen
class Name:
    ident: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Literal:
    value: int | str | bool | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class ListLit:
    items: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Unary:
    op: str  # "-" or "not"
    operand: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Binary:
    op: str  # + - * // % == != < <= > >= in "not in" and or ..
    left: Expr
    right: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Conditional:
    cond: Expr
    then: Expr
    otherwise: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Call:
    func: str
    args: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Index:
    base: str
    args: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Attr:
    base: Expr
    name: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Aggregate:
    """`kind(var in domain where cond: body)`; kind is all/any/count/sum/most/least/first."""

    kind: str
    var: str
    domain: Expr
    where: Expr | None
    body: Expr | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Comprehension:
    body: Expr
    var: str
    domain: Expr
    where: Expr | None
    pos: Pos = attrs.field(eq=False)


Expr = (
    Name
    | Literal
    | ListLit
    | Unary
    | Binary
    | Conditional
    | Call
    | Index
    | Attr
    | Aggregate
    | Comprehension
)

# ------------------------------------------------------------------- statements


@attrs.frozen
class Let:
    name: str
    value: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Assign:
    name: str
    keys: tuple[Expr, ...]
    op: str  # "=", "+=", "-="
    value: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class If:
    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class While:
    cond: Expr
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Loop:
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class For:
    var: str
    domain: Expr
    where: Expr | None
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Break:
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class CallProc:
    name: str
    args: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Binding:
    var: str
    domain: Expr
    where: Expr | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Option:
    """One branch of a decision: a verb, its bindings, a guard and a body."""

    verb: str
    bindings: tuple[Binding, ...]
    when: Expr | None
    citations: tuple[Citation, ...]
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Choose:
    player: Expr
    options: tuple[Option, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Chance:
    verb: str
    binding: Binding
    citations: tuple[Citation, ...]
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Move:
    pieces: Expr
    zone: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Reveal:
    piece: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Look:
    piece: Expr
    player: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Swap:
    first: Expr
    second: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Begin:
    scope: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Use:
    limit: str
    keys: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Finish:
    winners: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Rule:
    name: str
    citations: tuple[Citation, ...]
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Say:
    template: str
    pos: Pos = attrs.field(eq=False)


Stmt = (
    Let
    | Assign
    | If
    | While
    | Loop
    | For
    | Break
    | CallProc
    | Choose
    | Chance
    | Move
    | Reveal
    | Look
    | Swap
    | Begin
    | Use
    | Finish
    | Rule
    | Say
)


@attrs.frozen
class Block:
    statements: tuple[Stmt, ...]
    pos: Pos = attrs.field(eq=False)


# ----------------------------------------------------------------- declarations


@attrs.frozen
class GameDecl:
    name: str
    title: str
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class SourceDecl:
    name: str
    title: str
    file: str | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class PlayersDecl:
    low: int
    high: int
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class EnumDecl:
    name: str
    values: tuple[str, ...]
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Column:
    name: str
    type: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class TableDecl:
    name: str
    file: str
    key: Column | None
    columns: tuple[Column, ...]
    provenance: str | None
    verified: Expr | None
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class GraphDecl:
    name: str
    nodes: str
    edges: str
    source: str
    target: str
    where: Expr | None
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class PiecesDecl:
    name: str
    table: str
    zone: str
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class StateDecl:
    """A `counter` (integers) or a `var` (any value), indexed by `dims`."""

    kind: str  # "counter" or "var"
    name: str
    dims: tuple[str, ...]
    init: Expr
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)
    #: The type a `var` declares it holds (`var top[cell]: piece = none`), as the spec names it.
    type: str | None = None


@attrs.frozen
class ZoneDecl:
    name: str
    dims: tuple[str, ...]
    piece_type: str
    hidden: bool
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class ScopeDecl:
    name: str
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class LimitDecl:
    name: str
    dims: tuple[str, ...]
    scope: Expr
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class SwitchOption:
    value: str
    description: str
    default: bool
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class SwitchDecl:
    name: str
    question: str
    options: tuple[SwitchOption, ...]
    pos: Pos = attrs.field(eq=False)

    @property
    def ident(self) -> str:
        """The switch's public id: the name with `-` for `_`."""
        return self.name.replace("_", "-")


@attrs.frozen
class Condition:
    """A `check` (on component data) or an `invariant` (on every state)."""

    kind: str  # "check" or "invariant"
    name: str
    citations: tuple[Citation, ...]
    expr: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Param:
    """A parameter of a function or procedure: ``name`` or ``name: type``."""

    name: str
    type: str | None  # the type as the spec names it (the checker resolves it)
    pos: Pos = attrs.field(eq=False)

    def __str__(self) -> str:
        return self.name if self.type is None else f"{self.name}: {self.type}"


@attrs.frozen
class FunctionDecl:
    name: str
    params: tuple[Param, ...]
    body: Expr
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class ProcedureDecl:
    name: str
    params: tuple[Param, ...]
    citations: tuple[Citation, ...]
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class ScoreDecl:
    player: str
    expr: Expr
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class MainDecl:
    procedure: str
    pos: Pos = attrs.field(eq=False)


Declaration = (
    GameDecl
    | SourceDecl
    | PlayersDecl
    | EnumDecl
    | TableDecl
    | GraphDecl
    | PiecesDecl
    | StateDecl
    | ZoneDecl
    | ScopeDecl
    | LimitDecl
    | SwitchDecl
    | Condition
    | FunctionDecl
    | ProcedureDecl
    | ScoreDecl
    | MainDecl
)


@attrs.frozen
class SpecFile:
    """The declarations of one spec file, in order."""

    path: str
    declarations: tuple[Declaration, ...]


def child_blocks(st: Stmt) -> list[Block]:
    """The blocks directly inside a statement (for walkers of the tree)."""
    match st:
        case If():
            return [b for _, b in st.branches] + ([st.otherwise] if st.otherwise is not None else [])
        case While() | Loop() | For() | Rule() | Chance():
            return [st.body]
        case Choose():
            return [o.body for o in st.options]
        case Let() | Assign() | Break() | CallProc() | Move() | Reveal() | Look() | Swap() | Begin() | Use() \
                | Finish() | Say():
            return []
        case _:
            assert_never(st)
