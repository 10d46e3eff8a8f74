"""The builtin functions and names of the rules language, each defined once.

A builtin is one frozen :class:`Builtin` record: its name, what each argument
is, what it gives, its documentation, how the checker types a call
(:attr:`Builtin.check`), the Python text the code generator makes of it
(:attr:`Builtin.emit`, with the runtime helpers that text calls) and how it
reads in English (:attr:`Builtin.english`).  The checker, the code generator,
the English renderer and the reference pages all read :data:`BUILTINS`; adding
a builtin is adding one record here (see ``docs/contributing.md``).

The names every spec can use (``players`` ...) are :class:`SpecialName`
records in :data:`SPECIAL_NAMES`, in the same way.

>>> BUILTINS["max"].arity, BUILTINS["max"].returns
(2, 'number')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from . import ast as A
from .symbols import Kind, Symbols
from .types import ANY, BOOL, INT, PLAYER, TEXT, EntityType, GraphType, ListType, PieceType, Type, ZoneType

# What a builtin reads of each pass, as protocols: the passes import this module, never
# the other way round (:class:`interpreter.checker.Checker`, :class:`interpreter.codegen.PyGen`,
# :class:`interpreter.english.English` are what they stand for).


class Checking(Protocol):
    """What a builtin's check reads of the checker."""

    @property
    def symbols(self) -> Symbols:
        """Everything the spec declares, by kind and name."""

    def error(self, pos: A.Pos, message: str) -> None:
        """Report a problem at a place of the spec."""


class Framing(Protocol):
    """What a builtin's emitted text reads of the generated function it goes into."""

    def ref(self, alias: str, text: str) -> str:
        """The text reaching a table of the state (an alias where the frame keeps one)."""


class Emitting(Protocol):
    """What a builtin's emitted text reads of the code generator."""

    def type_of(self, e: A.Expr) -> Type:
        """The checker's type of an expression."""

    def expr(self, e: A.Expr, sc: Mapping[str, str], fr: Any, iterating: bool = False) -> str:
        """Python text of an expression (``fr``: the generator's own frame)."""

    def zone_list(self, e: A.Expr, sc: Mapping[str, str], fr: Any) -> str:
        """The live list of piece ids of a zone expression."""


class Plural(Protocol):
    """A noun's plural."""

    @property
    def plural(self) -> str:
        """The noun in the plural (``stones``)."""


class Wording(Protocol):
    """What a builtin's English reads of the English renderer."""

    @property
    def symbols(self) -> Symbols:
        """Everything the spec declares, by kind and name."""

    def t(self, s: str) -> str:
        """Prose through the markup."""

    def _fill(self, template: str, args: Sequence[str]) -> str:
        """A template with its arguments put in."""

    def noun(self, name: str) -> Plural:
        """The noun of a table, enum, piece kind or graph."""

    def zone_contents(self, e: A.Expr) -> str | None:
        """What a zone expression holds, as a bare plural, or None."""

    def ref(self, e: A.Expr) -> Kind | None:
        """What a name stands for, as the checker resolved it (None for other expressions)."""


#: ``check(checker, call, argument types) -> result type``; the arity is already checked.
CheckFn = Callable[[Checking, A.Call, list[Type]], Type]
#: ``emit(gen, call, scope, frame, iterating) -> Python text`` (see :meth:`interpreter.codegen.PyGen.expr`).
EmitFn = Callable[[Emitting, A.Call, Mapping[str, str], Framing, bool], str]
#: ``english(renderer, call, argument phrases, positive) -> phrase`` (``positive`` False: its negation).
EnglishFn = Callable[[Wording, A.Call, list[str], bool], str]


@attrs.frozen
class Builtin:
    """One builtin function of the language: everything every pass needs to know of it."""

    name: str
    #: What each argument is, in words (the reference shows them; their number is the arity).
    params: tuple[str, ...]
    #: What a call gives, in words; ``condition`` for a yes/no value (English can negate it).
    returns: str
    doc: str
    check: CheckFn
    emit: EmitFn
    english: EnglishFn
    #: Cheap enough to evaluate again wherever a parameter of an inlined function is used.
    cheap: bool = False
    #: Runtime functions the emitted text calls, by the name it calls them.
    helpers: Mapping[str, Callable[..., Any]] = attrs.field(factory=dict)

    @property
    def arity(self) -> int:
        """The number of arguments."""
        return len(self.params)

    @property
    def is_condition(self) -> bool:
        """Whether a call is a yes/no value (said in English as a clause, or its negation)."""
        return self.returns == "condition"


@attrs.frozen
class SpecialName:
    """A name every spec can use without declaring it."""

    name: str
    type: Type  # the checker type of its value
    doc: str
    python: str  # its value in generated code
    english: str  # its value in English


# ------------------------------------------------------------ runtime helpers


def piece_at(zone: list[int], pos: int) -> int:
    """The piece at a 1-based position of a zone (builtin `piece`)."""
    if pos < 1:
        raise IndexError(f"position {pos} is not 1 or more")
    return zone[pos - 1]


def position_of(st: Any, piece: int) -> int:
    """A piece's 1-based position in its zone (builtin `position`)."""
    zone, key = st.loc[piece]
    return int(st.zones[zone][key].index(piece)) + 1


def clockwise(st: Any, start: int) -> list[int]:
    """All players clockwise from ``start``."""
    n = st.n
    return [(start + i) % n for i in range(n)]


def counterclockwise(st: Any, start: int) -> list[int]:
    """All players counter-clockwise from ``start``."""
    n = st.n
    return [(start - i) % n for i in range(n)]


def connected(adjacent: Mapping[Any, Sequence[Any]], start: Any, within: Sequence[Any]) -> list[Any]:
    """The nodes of ``within`` reachable from ``start`` through nodes of ``within``, in the order of
    ``within`` (builtin `connected`); empty if ``start`` is not among them."""
    allowed = set(within)
    if start not in allowed:
        return []
    seen = {start}
    todo = [start]
    while todo:
        for other in adjacent.get(todo.pop(), ()):
            if other in allowed and other not in seen:
                seen.add(other)
                todo.append(other)
    return [node for node in within if node in seen]


def snake(st: Any, start: int) -> list[int]:
    """Clockwise from ``start``, then back counter-clockwise."""
    order = clockwise(st, start)
    return order + order[::-1]


#: Characters that have a meaning in markup (HTML, SVG, XML): never part of a plain text.
MARKUP_CHARACTERS = "<>&\"'`"


def plain_text(value: Any) -> bool:
    """Whether a value, as text, can stand in an action's text (builtin `plain`).

    Printable characters only, words separated by single spaces, no space at
    either end, no markup characters: a text that splits and joins back into
    itself, and shows as itself in a terminal, a document or a picture.
    """
    text = str(value)
    return text.isprintable() and text.split() == text.split(" ") and not any(c in MARKUP_CHARACTERS for c in text)


# ------------------------------------------------------------------ checking


def _want(ck: Checking, e: A.Call, i: int, t: Type, ok: bool, what: str) -> bool:
    """Report argument ``i`` of type ``t`` unless ``ok`` (or unknown); whether it is fine."""
    if ok or t == ANY:
        return True
    ck.error(e.args[i].pos, f"{e.func} needs {what}, found a {t}")
    return False


def _check_size(ck: Checking, e: A.Call, a: list[Type]) -> Type:
    _want(ck, e, 0, a[0], isinstance(a[0], (ZoneType, ListType)), "a zone or a list")
    return INT


def _zone_pieces(ck: Checking, e: A.Call, a: list[Type]) -> Type | None:
    """The type of the pieces of the zone argument, or None if it is no zone."""
    if not _want(ck, e, 0, a[0], isinstance(a[0], ZoneType), "a zone"):
        return None
    return PieceType(a[0].pieces) if isinstance(a[0], ZoneType) else ANY


def _check_pieces(ck: Checking, e: A.Call, a: list[Type]) -> Type:
    ptype = _zone_pieces(ck, e, a)
    return ANY if ptype is None else ListType(ptype)


def _check_piece(ck: Checking, e: A.Call, a: list[Type]) -> Type:
    ptype = _zone_pieces(ck, e, a)
    if ptype is None:
        return ANY
    if a[1] not in (INT, ANY):
        ck.error(e.args[1].pos, f"a position is a number, not a {a[1]}")
    return ptype


def _of_piece(result: Type) -> CheckFn:
    def check(ck: Checking, e: A.Call, a: list[Type]) -> Type:
        _want(ck, e, 0, a[0], isinstance(a[0], PieceType), "a piece")
        return result
    return check


def _on_graph(result: Callable[[Type], Type]) -> CheckFn:
    """A builtin on a graph and nodes of it; ``result(node type)`` is what it gives."""
    def check(ck: Checking, e: A.Call, a: list[Type]) -> Type:
        if not isinstance(a[0], GraphType):
            ck.error(e.args[0].pos, f"{e.func} needs a graph, found a {a[0]}")
            return ANY
        node_type = EntityType(ck.symbols.graphs[a[0].graph].nodes)
        for i, t in enumerate(a[1:], start=1):
            _want(ck, e, i, t, t == node_type, f"a {node_type.table}")
        return result(node_type)
    return check


def _check_connected(ck: Checking, e: A.Call, a: list[Type]) -> Type:
    if not isinstance(a[0], GraphType):
        ck.error(e.args[0].pos, f"{e.func} needs a graph, found a {a[0]}")
        return ANY
    node_type = EntityType(ck.symbols.graphs[a[0].graph].nodes)
    _want(ck, e, 1, a[1], a[1] == node_type, f"a {node_type.table}")
    _want(ck, e, 2, a[2], a[2] == ListType(node_type) or a[2] == ListType(ANY), f"a list of {node_type.table}")
    return ListType(node_type)


def _of_player(result: Type) -> CheckFn:
    def check(ck: Checking, e: A.Call, a: list[Type]) -> Type:
        _want(ck, e, 0, a[0], a[0] == PLAYER, "a player")
        return result
    return check


def _of_numbers(ck: Checking, e: A.Call, a: list[Type]) -> Type:
    for i, t in enumerate(a):
        _want(ck, e, i, t, t == INT, "numbers")
    return INT


def _of_texts(ck: Checking, e: A.Call, a: list[Type]) -> Type:
    return BOOL


def _of_name(ck: Checking, e: A.Call, a: list[Type]) -> Type:
    _want(ck, e, 0, a[0], a[0] == TEXT or isinstance(a[0], EntityType), "a text or a key of a table")
    return BOOL


# ------------------------------------------------------------------- English


def _words(template: str) -> EnglishFn:
    """English from a template with ``{0}``, ``{1}`` for the arguments."""
    def english(en: Wording, e: A.Call, args: list[str], positive: bool) -> str:
        return en._fill(template, args)
    return english


def _clause(positive_text: str, negative_text: str) -> EnglishFn:
    """A condition: ``{0} is face up`` / ``{0} is face down`` (the arguments put in as they are)."""
    def english(en: Wording, e: A.Call, args: list[str], positive: bool) -> str:
        parts = re.split(r"\{(\d+)\}", positive_text if positive else negative_text)
        return "".join(args[int(p)] if i % 2 else en.t(p) if p else "" for i, p in enumerate(parts))
    return english


def _english_size(en: Wording, e: A.Call, args: list[str], positive: bool) -> str:
    contents = en.zone_contents(e.args[0])
    if contents is not None:
        return en.t("the number of ") + contents
    first = e.args[0]
    if isinstance(first, A.Name) and en.ref(first) in (Kind.TABLE, Kind.ENUM):
        return en.t("the number of " + en.noun(first.ident).plural)
    return en.t("the number of items in ") + args[0]


def _english_pieces(en: Wording, e: A.Call, args: list[str], positive: bool) -> str:
    contents = en.zone_contents(e.args[0])
    return en.t("the ") + contents if contents else en.t("the pieces in ") + args[0]


def _english_piece(en: Wording, e: A.Call, args: list[str], positive: bool) -> str:
    contents = en.zone_contents(e.args[0])
    where = contents if contents else en.t("pieces in ") + args[0]
    if isinstance(e.args[1], A.Literal) and e.args[1].value == 1:
        return en.t("the first of the ") + where
    return en.t("the piece at position ") + args[1] + en.t(" among the ") + where


def _english_nodes(en: Wording, e: A.Call, args: list[str], positive: bool) -> str:
    arg = e.args[0]
    g = en.symbols.graphs.get(arg.ident) if isinstance(arg, A.Name) and en.ref(arg) is Kind.GRAPH else None
    plural = en.noun(g.nodes).plural if g else "nodes"
    return en.t(f"the {plural} in play")


# ------------------------------------------------------------- generated code


def _emit_size(g: Emitting, e: A.Call, sc: Mapping[str, str], fr: Framing, iterating: bool) -> str:
    if isinstance(g.type_of(e.args[0]), ZoneType):
        return f"len({g.zone_list(e.args[0], sc, fr)})"
    return f"len({g.expr(e.args[0], sc, fr, iterating=True)})"


def _emit_pieces(g: Emitting, e: A.Call, sc: Mapping[str, str], fr: Framing, iterating: bool) -> str:
    zl = g.zone_list(e.args[0], sc, fr)
    return zl if iterating else f"list({zl})"


def _emit_piece(g: Emitting, e: A.Call, sc: Mapping[str, str], fr: Framing, iterating: bool) -> str:
    return f"_piece_at({g.zone_list(e.args[0], sc, fr)}, {g.expr(e.args[1], sc, fr)})"


def _graph_ref(g: Emitting, e: A.Call, fr: Framing, alias: str, table: str) -> str:
    t = g.type_of(e.args[0])
    assert isinstance(t, GraphType), t  # the checker refuses a call on anything else
    graph = t.graph
    return fr.ref(f"{alias}_{graph}", f"st.world.{table}[{graph!r}]")


def _emit_nodes(g: Emitting, e: A.Call, sc: Mapping[str, str], fr: Framing, iterating: bool) -> str:
    return _graph_ref(g, e, fr, "N", "nodes")


def _emit_neighbours(g: Emitting, e: A.Call, sc: Mapping[str, str], fr: Framing, iterating: bool) -> str:
    adj = _graph_ref(g, e, fr, "A", "adjacent")
    return f"{adj}.get({g.expr(e.args[1], sc, fr)}, [])"


def _emit_adjacent(g: Emitting, e: A.Call, sc: Mapping[str, str], fr: Framing, iterating: bool) -> str:
    adj = _graph_ref(g, e, fr, "A", "adjacent")
    x, y = g.expr(e.args[1], sc, fr), g.expr(e.args[2], sc, fr)
    return f"({y} in {adj}.get({x}, ()))"


def _emit_connected(g: Emitting, e: A.Call, sc: Mapping[str, str], fr: Framing, iterating: bool) -> str:
    adj = _graph_ref(g, e, fr, "A", "adjacent")
    return f"_connected({adj}, {g.expr(e.args[1], sc, fr)}, {g.expr(e.args[2], sc, fr, iterating=True)})"


def _python(template: str) -> EmitFn:
    """Python text from a template with ``{0}``, ``{1}`` for the arguments' text."""
    def emit(g: Emitting, e: A.Call, sc: Mapping[str, str], fr: Framing, iterating: bool) -> str:
        return template.format(*(g.expr(a, sc, fr) for a in e.args))
    return emit


# ------------------------------------------------------------------ the table

_ALL: tuple[Builtin, ...] = (
    Builtin("size", ("a zone or a list",), "number", "number of pieces in a zone, or of items in a list",
            _check_size, _emit_size, _english_size, cheap=True),
    Builtin("pieces", ("a zone",), "list of pieces", "the pieces of a zone, in order",
            _check_pieces, _emit_pieces, _english_pieces),
    Builtin("piece", ("a zone", "a number"), "piece", "the piece at a 1-based position of a zone",
            _check_piece, _emit_piece, _english_piece, helpers={"_piece_at": piece_at}),
    Builtin("position", ("a piece",), "number", "a piece's 1-based position in its zone",
            _of_piece(INT), _python("_position(st, {0})"), _words("the position of {0} in its zone"),
            helpers={"_position": position_of}),
    Builtin("revealed", ("a piece",), "condition", "whether a piece lies face up",
            _of_piece(BOOL), _python("st.face_up[{0}]"), _clause("{0} is face up", "{0} is face down"),
            cheap=True),
    Builtin("nodes", ("a graph",), "list of nodes", "the nodes of a graph that are in play",
            _on_graph(ListType), _emit_nodes, _english_nodes),
    Builtin("neighbours", ("a graph", "a node of it"), "list of nodes", "the nodes in play next to a node",
            _on_graph(ListType), _emit_neighbours, _words("the neighbours of {1}")),
    Builtin("adjacent", ("a graph", "a node of it", "a node of it"), "condition",
            "whether two nodes of a graph are neighbours",
            _on_graph(lambda node: BOOL), _emit_adjacent,
            _clause("{1} and {2} are neighbours", "{1} and {2} are not neighbours")),
    Builtin("connected", ("a graph", "a node of it", "a list of its nodes"), "list of nodes",
            "the nodes of the list that can be reached from the node through nodes of the list, in the "
            "list's order (a group of connected nodes); empty if the node is not in the list",
            _check_connected, _emit_connected, _words("the nodes of {2} connected to {1}"),
            helpers={"_connected": connected}),
    Builtin("next", ("a player",), "player", "the next player clockwise",
            _of_player(PLAYER), _python("(({0} + 1) % st.n)"), _words("the player after {0}"), cheap=True),
    Builtin("prev", ("a player",), "player", "the previous player clockwise (the next counter-clockwise)",
            _of_player(PLAYER), _python("(({0} - 1) % st.n)"), _words("the player before {0}"), cheap=True),
    Builtin("clockwise", ("a player",), "list of players", "all players clockwise, starting with the given one",
            _of_player(ListType(PLAYER)), _python("_clockwise(st, {0})"),
            _words("the players clockwise from {0}"), helpers={"_clockwise": clockwise}),
    Builtin("counterclockwise", ("a player",), "list of players",
            "all players counter-clockwise, starting with the given one",
            _of_player(ListType(PLAYER)), _python("_counterclockwise(st, {0})"),
            _words("the players counter-clockwise from {0}"), helpers={"_counterclockwise": counterclockwise}),
    Builtin("snake", ("a player",), "list of players", "clockwise from the given player, then back counter-clockwise",
            _of_player(ListType(PLAYER)), _python("_snake(st, {0})"),
            _words("the players clockwise from {0} and then back counter-clockwise"), helpers={"_snake": snake}),
    Builtin("min", ("a number", "a number"), "number", "the smaller of two numbers",
            _of_numbers, _python("min({0}, {1})"), _words("the smaller of {0} and {1}"), cheap=True),
    Builtin("max", ("a number", "a number"), "number", "the larger of two numbers",
            _of_numbers, _python("max({0}, {1})"), _words("the larger of {0} and {1}"), cheap=True),
    Builtin("abs", ("a number",), "number", "the absolute value",
            _of_numbers, _python("abs({0})"), _words("the absolute value of {0}"), cheap=True),
    Builtin("startswith", ("a text", "a text"), "condition", "whether a text starts with another",
            _of_texts, _python("str({0}).startswith(str({1}))"),
            _clause("{0} starts with {1}", "{0} does not start with {1}")),
    Builtin("plain", ("a text",), "condition",
            "whether a text (or a table's key) can stand in an action's text: printable characters, "
            "words separated by single spaces, no markup characters",
            _of_name, _python("_plain({0})"),
            _clause("{0} is a plain text (printable, single spaces, no markup)",
                    "{0} is not a plain text (printable, single spaces, no markup)"),
            helpers={"_plain": plain_text}),
)

#: Every builtin function, by name, in the order the reference lists them.
BUILTINS: dict[str, Builtin] = {b.name: b for b in _ALL}

#: The runtime functions generated code may call for builtins, by the name it calls them.
BUILTIN_HELPERS: dict[str, Callable[..., Any]] = {k: v for b in _ALL for k, v in b.helpers.items()}

#: Names every spec can use, by name.
SPECIAL_NAMES: dict[str, SpecialName] = {n.name: n for n in (
    SpecialName("players", ListType(PLAYER), "all players, clockwise from the start player", "st.seats", "the players"),
    SpecialName("player_count", INT, "the number of players", "st.n", "the number of players"),
    SpecialName("first_player", PLAYER, "the start player: the first seat", "0", "the start player"),
)}
