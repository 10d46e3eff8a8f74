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
    """A name: a local, a counter or var, a table, a zone, a switch, ..."""

    ident: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Literal:
    """A number, a text, `true`/`false` or `none`."""

    value: int | str | bool | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class ListLit:
    """A list written out: `[a, b, c]`."""

    items: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Unary:
    """`-x` or `not x`."""

    op: str  # "-" or "not"
    operand: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Binary:
    """`left op right`: arithmetic, a comparison, `in`, `and`/`or` or a range `a .. b`."""

    op: str  # + - * // % == != < <= > >= in "not in" and or ..
    left: Expr
    right: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Conditional:
    """`if cond then a else b` as a value."""

    cond: Expr
    then: Expr
    otherwise: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Call:
    """A call of a builtin or a function: `func(args)`."""

    func: str
    args: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Index:
    """A declared name read at keys: `base[args]`."""

    base: str
    args: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Attr:
    """A field of a value: `base.name` (a table column of a row, say)."""

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
    """`[body for var in domain where cond]`: a list made from a domain."""

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
    """`let name = value`: a new local."""

    name: str
    value: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Assign:
    """`name[keys] op value`: a counter, a var or a local changed (`=`, `+=`, `-=`)."""

    name: str
    keys: tuple[Expr, ...]
    op: str  # "=", "+=", "-="
    value: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class If:
    """`if cond { } elif cond { } else { }`."""

    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class While:
    """`while cond { body }`."""

    cond: Expr
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Loop:
    """`loop { body }`: repeat until `break`."""

    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class For:
    """`for var in domain where cond { body }`."""

    var: str
    domain: Expr
    where: Expr | None
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Break:
    """`break`: leave the innermost loop."""

    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class CallProc:
    """`call name(args)`: run a procedure."""

    name: str
    args: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Binding:
    """`var in domain where cond`: a value bound by a decision or a chance event."""

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
    """`choose by player { options }`: a player decision."""

    player: Expr
    options: tuple[Option, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Chance:
    """`chance "verb" binding { body }`: a chance event, outcomes drawn uniformly."""

    verb: str
    binding: Binding
    citations: tuple[Citation, ...]
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Move:
    """`move pieces to zone`."""

    pieces: Expr
    zone: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Reveal:
    """`reveal piece`: turn a piece face up for everyone."""

    piece: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Look:
    """`look piece by player`: let one player see a piece's face."""

    piece: Expr
    player: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Swap:
    """`swap a with b`: two pieces change places."""

    first: Expr
    second: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Begin:
    """`begin scope`: its usage limits are available again."""

    scope: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Use:
    """`use limit[keys]`: spend a usage limit."""

    limit: str
    keys: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Finish:
    """`finish winners`: end the game with these winners."""

    winners: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Rule:
    """`rule name cite ... { body }`: a named rule with its citations."""

    name: str
    citations: tuple[Citation, ...]
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Say:
    """`say "text"`: a line for the game log."""

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
    """The statements between `{` and `}`."""

    statements: tuple[Stmt, ...]
    pos: Pos = attrs.field(eq=False)


# ----------------------------------------------------------------- declarations


@attrs.frozen
class GameDecl:
    """`game name "title"`, with its citations."""

    name: str
    title: str
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class SourceDecl:
    """`source name "title" file "..."`: a text that citations may name."""

    name: str
    title: str
    file: str | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class PlayersDecl:
    """`players low to high`: the allowed player counts (at most ``checker.MAX_PLAYERS``)."""

    low: int
    high: int
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class EnumDecl:
    """`enum name = a, b, c`: a fixed set of named values."""

    name: str
    values: tuple[str, ...]
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Column:
    """A column of a table: its name and type."""

    name: str
    type: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class TableDecl:
    """`table name from "file" { key, columns, provenance, verified when }`: component data from a CSV file."""

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
    """`graph name on nodes edges table(source, target) where cond`: a graph over a table's rows."""

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
    """`pieces name from table in zone`: one piece per row of a table."""

    name: str
    table: str
    zone: str
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class StateDecl:
    """A `counter` (integers) or a `var` (any value), indexed by `dims`; its start value reads no game state."""

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
    """`zone name[dims] of type hidden|public`: ordered places for pieces."""

    name: str
    dims: tuple[str, ...]
    piece_type: str
    hidden: bool
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class ScopeDecl:
    """`scope name`: a span of play that usage limits count in."""

    name: str
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class LimitDecl:
    """`limit name[dims] once per scope`: a usage limit."""

    name: str
    dims: tuple[str, ...]
    scope: Expr
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class SwitchOption:
    """One option of a switch: its value, what it means, whether it is the default, its citations."""

    value: str
    description: str
    default: bool
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class SwitchDecl:
    """`switch name "question" { options }`: an interpretation switch."""

    name: str
    question: str
    options: tuple[SwitchOption, ...]
    pos: Pos = attrs.field(eq=False)

    @property
    def ident(self) -> str:
        """The switch's public id: the name with `-` for `_`."""
        return self.name.replace("_", "-")


@attrs.frozen
class SettingDecl:
    """`setting name "question" low to high step n default d`: a whole number the players choose.

    A setting is a fact of where or with what a game is played (a table's size, a
    printing's count of pieces), not a reading of the text: its value is a whole
    number within bounds, read by expressions as an ``int`` and recorded with the
    switches.  Its values are offered as options (as a switch's are), so every tool
    that lists, records or studies switch settings handles it too.
    """

    name: str
    question: str
    low: int
    high: int
    step: int
    default: int
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)

    @property
    def ident(self) -> str:
        """The setting's public id: the name with `-` for `_`."""
        return self.name.replace("_", "-")

    @property
    def values(self) -> list[int]:
        """Every value the setting may take, lowest first (none if the bounds or step are wrong)."""
        if self.step <= 0 or self.high < self.low or (self.high - self.low) // self.step >= MAX_SETTING_VALUES:
            return []
        return list(range(self.low, self.high + 1, self.step))

    @property
    def options(self) -> tuple[SwitchOption, ...]:
        """The values as the options of a switch (their texts in decimal), each with the setting's citations."""
        return tuple(SwitchOption(str(v), f"{v}", v == self.default, self.citations, self.pos)
                     for v in self.values)


#: What a place of a picture may show, each by an expression: its text (a value's face), its colour
#: (a colour's name), a number in its corner (a height, a stack's size), and whether it is marked,
#: outlined or highlighted.
PICTURE_PARTS = ("label", "colour", "count", "mark", "outline", "highlight")


@attrs.frozen
class PicturePart:
    """`show PART expr` in a picture: what every place shows (one of :data:`PICTURE_PARTS`)."""

    part: str
    expr: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class PictureClick:
    """`click "verb" x in table from expr to expr`: on the play page, a value of an action's argument
    (a row of ``table``) is chosen by clicking two places of the picture, the first and the last."""

    verb: str
    var: str
    table: str
    start: Expr
    end: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class PictureDecl:
    """`picture name { place f in table where cond at x, y ... }`: how the game is drawn.

    One place per row of ``table`` (those for which ``where`` holds), laid out at
    the whole-number coordinates ``x``, ``y``; ``edges`` names a graph whose
    edges are drawn between places (a board drawn as a graph), else the places
    are squares of a grid.  ``parts`` say what each place shows, ``seat_colour``
    (with ``seat_var`` a player) which colour stands for each seat, ``clicks``
    how the play page chooses an action's argument on the picture.
    """

    name: str
    var: str
    table: str
    where: Expr | None
    x: Expr
    y: Expr
    edges: str | None
    parts: tuple[PicturePart, ...]
    seat_var: str | None
    seat_colour: Expr | None
    clicks: tuple[PictureClick, ...]
    pos: Pos = attrs.field(eq=False)


#: A setting offers at most this many values (each is an option that tools list and study).
MAX_SETTING_VALUES = 64


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
    """`function name(params) = body`: a pure function."""

    name: str
    params: tuple[Param, ...]
    body: Expr
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class ProcedureDecl:
    """`procedure name(params) { body }`: steps run by the interpreter."""

    name: str
    params: tuple[Param, ...]
    citations: tuple[Citation, ...]
    body: Block
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class ScoreDecl:
    """`score p = expr`: a player's score."""

    player: str
    expr: Expr
    citations: tuple[Citation, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class MainDecl:
    """`main procedure`: the procedure a new game runs."""

    procedure: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class TextSection:
    """A heading of a source text and its sentences, in order."""

    title: str
    sentences: tuple[str, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class TextDecl:
    """`text source { section "Title" "sentence" ... }`: the text of a source, sentence by sentence."""

    source: str
    sections: tuple[TextSection, ...]
    pos: Pos = attrs.field(eq=False)


#: Why a sentence may be carried out by no rule (:class:`Waiver`); all but `flavour` name where it is
#: accounted for instead.
WAIVER_REASONS = {
    "flavour": "flavour or story",
    "example": "an example",  # the scenario test that reproduces it is named
    "component": "a component description",  # the data table or check that holds it is named
    "summary": "a summary of rules stated elsewhere",  # the section that states them is named
}


@attrs.frozen
class Waiver:
    """`waive source "Section" "sentence" ... because reason "where"`: sentences no rule carries out, and why."""

    source: str
    section: str
    quotes: tuple[str, ...]
    reason: str
    where: str | None
    pos: Pos = attrs.field(eq=False)

    def sentences(self) -> tuple[Citation, ...]:
        """Each waived sentence as a citation (matched against the text as a `cite` is)."""
        return tuple(Citation(self.source, self.section, q, self.pos) for q in self.quotes)


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
    | SettingDecl
    | PictureDecl
    | Condition
    | FunctionDecl
    | ProcedureDecl
    | ScoreDecl
    | MainDecl
    | TextDecl
    | Waiver
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
