"""The names of the Rattus spec that Python code reads, in one place, checked when the game loads.

The words and pictures of the Rattus package (scenarios, the text view, the
board picture, the conformance files) read the state through :class:`View`,
never by spelling a spec name themselves.  :func:`check_names` runs when the
rules load (:func:`rattus_rules.load_rules`): a spec that lacks one of these
names (say, a patched copy in ``$RATTUS_SPEC_DIR``) fails to load with a
:class:`~interpreter.SpecError` naming it, not later with a KeyError.  The card
classes are the spec's ``enum class``.

>>> from rattus_rules import new_game
>>> view = View(new_game(2, seed=1))
>>> view.classes
('peasant', 'merchant', 'monk', 'knight', 'witch', 'king')
>>> sum(view.supply.values()) + sum(view.castle.values()) + sum(view.cubes.values()) == 2 * 20
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter import Diagnostic, Game, Pos, SpecError, State
from interpreter import ast as A

# counters and vars
SUPPLY, CUBES, CASTLE, HOLDER = "supply", "cubes", "castle", "holder"
PLAGUE, PHASE, ENDER, LAST_REGULAR = "plague", "phase", "ender", "last_regular"
#: The zones of rat tokens: removed at setup, the stock, each region's, revealed.
BOX, STOCK, RATS, OUT = "box", "stock", "rats", "out"
#: The graph of regions (its nodes in play are the board).
BOARD = "board"
#: The table of regions (every region, in play or not).
REGIONS = "regions"
#: The table of rat tokens.
TOKENS = "tokens"
#: The enum of the card classes.
CLASS_ENUM = "class"
#: The procedure whose first decision ends setup: a player's turn.
TURN_PROCEDURE = "player_turn"
#: The procedure that runs the regular turns (its local ``p`` is the player whose turn it is).
REGULAR_TURNS = "regular_turns"
#: Locals of those procedures a scenario sets: whose turn it is (in both), and in a turn whether the
#: player took a card, placed cubes, and the turn's stage (with its value after phase C).
TURN_PLAYER = "p"
TOOK, PLACED, STAGE = "took", "placed", "stage"
AFTER_C = "after-c"
#: The limit on the class abilities (each at most once per turn or round).
ABILITY = "ability"
#: The switch that says whether the game ends at once or after the round.
GAME_END_TIMING = "game_end_timing"
#: Columns of the tables: a token's threshold, symbols and whether it is a start token; from how many
#: players on a region is used.
THRESHOLD, SYMBOLS, START = "threshold", "symbols", "start"
FIRST_USED_WITH_PLAYERS = "first_used_with_players"

#: Every spec name the package reads, by kind (``state`` covers counters and vars).
NAMES: dict[str, tuple[str, ...]] = {
    "state": (SUPPLY, CUBES, CASTLE, HOLDER, PLAGUE, PHASE, ENDER, LAST_REGULAR),
    "zone": (BOX, STOCK, RATS, OUT),
    "graph": (BOARD,),
    "table": (REGIONS, TOKENS),
    "enum": (CLASS_ENUM,),
    "procedure": (TURN_PROCEDURE, REGULAR_TURNS),
    "local": (f"{REGULAR_TURNS}.{TURN_PLAYER}", f"{TURN_PROCEDURE}.{TURN_PLAYER}", f"{TURN_PROCEDURE}.{TOOK}",
              f"{TURN_PROCEDURE}.{PLACED}", f"{TURN_PROCEDURE}.{STAGE}"),
    "limit": (ABILITY,),
    "switch": (GAME_END_TIMING,),
    "column": (f"{TOKENS}.{THRESHOLD}", f"{TOKENS}.{SYMBOLS}", f"{TOKENS}.{START}",
               f"{REGIONS}.{FIRST_USED_WITH_PLAYERS}"),
}


#: Why a game of Rattus ends (for the study), and what each reason means.
END_REASONS = {"rats": "the rat supply ran out", "cubes": "a player placed all cubes"}


def end_reason(state: State) -> str | None:
    """Why the game is ending, once the spec's ``ender`` is set (``rats`` or ``cubes``); before, None."""
    if state.vals[ENDER][None] is None:
        return None
    return "rats" if not any(state.zones[STOCK].values()) else "cubes"


def _declared(game: Game, kind: str) -> dict[str, Any]:
    s = game.symbols
    if kind == "column":  # ``table.column``
        return {f"{t.name}.{c.name}": c for t in s.tables.values() for c in (*([t.key] if t.key else []), *t.columns)}
    if kind == "local":  # ``procedure.local``: its parameters and `let` names
        return {f"{p.name}.{name}": p for p in s.procedures.values() for name in _locals(p)}
    tables: dict[str, dict[str, Any]] = {"state": s.states, "zone": s.zones, "graph": s.graphs, "table": s.tables,
                                         "enum": s.enums, "procedure": s.procedures, "limit": s.limits,
                                         "switch": s.switches}
    return tables[kind]


def _locals(procedure: A.ProcedureDecl) -> Iterator[str]:
    """The names of a procedure's parameters and of the `let` statements anywhere in its body."""
    yield from (p.name for p in procedure.params)
    todo = [procedure.body]
    while todo:
        for st in todo.pop().statements:
            if isinstance(st, A.Let):
                yield st.name
            todo.extend(A.child_blocks(st))


def missing_names(game: Game) -> Iterator[tuple[str, str]]:
    """(kind, name) of every name of :data:`NAMES` the spec does not declare."""
    for kind, names in NAMES.items():
        declared = _declared(game, kind)
        for name in names:
            if name not in declared:
                yield kind, name


def check_names(game: Game) -> None:
    """Raise :class:`~interpreter.SpecError` naming every spec name the package reads but the spec lacks."""
    missing = list(missing_names(game))
    if missing:
        where = Pos(game.symbols.game.pos.path if game.symbols.game else "spec", 1, 1)
        raise SpecError([Diagnostic(where, f"the Rattus package reads {kind} {name!r}, which the spec does not "
                                           f"declare (rattus_rules/games/rattus/names.py)") for kind, name in missing])


def classes(game: Game) -> tuple[str, ...]:
    """The card classes in rulebook order: the spec's ``enum class``."""
    return tuple(game.symbols.enums[CLASS_ENUM].values)


class View:
    """A Rattus state seen through the spec's names: each counter, var and zone as its table."""

    def __init__(self, state: State):
        self.state = state
        self.game = state.game

    @property
    def classes(self) -> tuple[str, ...]:
        """The card classes in rulebook order."""
        return classes(self.game)

    @property
    def regions(self) -> tuple[Any, ...]:
        """Every region of the table, in play or not."""
        return tuple(self.game.table_keys[REGIONS])

    @property
    def in_play(self) -> list[Any]:
        """The regions in play (the board's nodes for this number of players)."""
        return list(self.state.world.nodes[BOARD])

    def _val(self, name: str) -> dict[Any, Any]:
        table: dict[Any, Any] = self.state.vals[name]
        return table

    def _zone(self, name: str) -> dict[Any, list[int]]:
        table: dict[Any, list[int]] = self.state.zones[name]
        return table

    # counters and vars: supply[player], cubes[player, region], castle[player], holder[class] and the scalars
    @property
    def supply(self) -> dict[Any, Any]:
        """Cubes in each player's supply."""
        return self._val(SUPPLY)

    @property
    def cubes(self) -> dict[Any, Any]:
        """Cubes of each (player, region)."""
        return self._val(CUBES)

    @property
    def castle(self) -> dict[Any, Any]:
        """Cubes of each player in the castle."""
        return self._val(CASTLE)

    @property
    def holder(self) -> dict[Any, Any]:
        """The holder of each class card (None: in the display)."""
        return self._val(HOLDER)

    @property
    def plague(self) -> Any:
        """The region of the plague."""
        return self._val(PLAGUE)[None]

    @plague.setter
    def plague(self, region: Any) -> None:
        self._val(PLAGUE)[None] = region

    @property
    def phase(self) -> Any:
        """The phase of the game."""
        return self._val(PHASE)[None]

    @property
    def ender(self) -> Any:
        """The player who triggered the end of the game."""
        return self._val(ENDER)[None]

    @ender.setter
    def ender(self, seat: Any) -> None:
        self._val(ENDER)[None] = seat

    @property
    def last_regular(self) -> Any:
        """The player of the last regular turn."""
        return self._val(LAST_REGULAR)[None]

    @last_regular.setter
    def last_regular(self, seat: Any) -> None:
        self._val(LAST_REGULAR)[None] = seat

    # zones
    @property
    def used_abilities(self) -> set[Any]:
        """The classes whose ability was used in the current turn (or round)."""
        used: set[Any] = self.state.used[ABILITY]
        return used

    @property
    def rats(self) -> dict[Any, list[int]]:
        """The rat tokens in each region."""
        return self._zone(RATS)

    @property
    def stock(self) -> list[int]:
        """The rat tokens in the stock."""
        return self._zone(STOCK)[None]

    @property
    def box(self) -> list[int]:
        """The rat tokens removed at setup."""
        return self._zone(BOX)[None]

    @property
    def out(self) -> list[int]:
        """The revealed rat tokens, out of the game."""
        return self._zone(OUT)[None]
