"""Each interpretation switch's alternative, in a targeted test beside the default reading.

The rulebook examples (tests/rattus/test_rulebook_examples.py) already cover
reveal-order=placed, knight-return=yes, knight-neutral-majority=yes and
peasant-extra=always; the end of the game (tests/rattus/test_end_game.py) covers
game-end-timing, supply-empty, final-knight-neutral, final-reveal-order, cubes-end and
tie-break.  The rest are here: the setup switches with the Python API (a
scenario starts after setup), the turn switches as scenarios.
"""

from __future__ import annotations

import pytest

from interpreter import State
from interpreter.edit import option_pieces, procedure_of
from rattus_rules import new_game

from .scenario_helpers import assert_ok


def with_switch(text: str, switch: str) -> str:
    """The scenario text with an interpretation line after its first line."""
    head, rest = text.lstrip("\n").split("\n", 1)
    return f"{head}\ninterpretation {switch}\n{rest}"


# ------------------------------------------------------------------- setup
def placements(players: int, settings: dict[str, str]) -> tuple[State, list[int]]:
    """Play setup step 7 with every player choosing the first region; the players who placed, in order."""
    state = new_game(players, seed=3, interpretations=settings)
    movers = []
    while procedure_of(state) != "player_turn":
        assert not state.is_chance_node()
        assert {a.verb for a in state.legal_actions()} == {"start"}
        movers.append(state.current_player)
        state.apply_index(0)
    return state, movers


@pytest.mark.parametrize("players", [2, 3, 4])
def test_initial_placement_both_cubes_in_one_region(players: int) -> None:
    # "Beginnend mit dem Startspieler setzt jeder Spieler im Uhrzeigersinn zwei seiner Würfel in eine beliebige
    #  Region.  In einer zweiten Runde beginnt der Spieler, der zuletzt an der Reihe war ... Die anderen
    #  Spieler folgen entgegen dem Uhrzeigersinn."
    state, movers = placements(players, {})
    order = list(range(players))
    assert movers == order + order[::-1]
    assert all(state.vals["supply"][p] == 16 for p in order)
    assert state.current_player == 0


def test_initial_placement_both_cubes_in_one_region_not_split() -> None:
    state = new_game(4, seed=3)
    state.apply("start Gallia")
    assert state.vals["cubes"][(0, "Gallia")] == 2 and state.current_player == 1


def test_initial_placement_one_cube_at_a_time() -> None:
    # initial-placement=one-at-a-time: each of the two cubes goes into a region of its own choosing.
    settings = {"initial-placement": "one-at-a-time"}
    _, movers = placements(4, settings)
    assert movers == [0, 0, 1, 1, 2, 2, 3, 3, 3, 3, 2, 2, 1, 1, 0, 0]
    state = new_game(4, seed=3, interpretations=settings)
    state.apply("start Gallia")
    assert state.vals["cubes"][(0, "Gallia")] == 1 and state.current_player == 0
    state.apply("start Italia")
    assert state.vals["cubes"][(0, "Italia")] == 1 and state.current_player == 1
    assert state.vals["supply"][0] == 18


def first_decision_of(state: State, verb: str) -> State:
    """Draw chance events until the pending decision (chance or not) offers ``verb``."""
    while verb not in {a.verb for a in state.legal_actions()}:
        assert state.is_chance_node()
        state.apply_random_chance()
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_plague_start_by_chance(players: int) -> None:
    # "Die Pestfigur wird in einer beliebigen Region platziert." — default: chance, uniform over the regions.
    state = first_decision_of(new_game(players, seed=1, resolve_setup_chance=False), "plague-start")
    outcomes = state.chance_outcomes()
    regions = state.world.nodes["board"]
    assert sorted(a.args[0] for a, _ in outcomes) == sorted(regions)
    assert all(p == pytest.approx(1 / len(regions)) for _, p in outcomes)


def test_plague_start_chosen_by_the_start_player() -> None:
    state = new_game(3, seed=1, interpretations={"plague-start": "start-player"})
    assert not state.is_chance_node() and state.current_player == 0
    assert sorted(state.legal_action_texts()) == sorted(f"plague-start {r}" for r in state.world.nodes["board"])
    state.apply("plague-start Scandia")
    assert state.vals["plague"][None] == "Scandia"
    assert {a.verb for a in state.legal_actions()} == {"start"} and state.current_player == 0


def removal_candidates(players: int, settings: dict[str, str]) -> list[bool]:
    """For the first token removed at setup: whether each possible token is a start token."""
    state = first_decision_of(new_game(players, seed=2, interpretations=settings, resolve_setup_chance=False),
                              "remove")
    rows = state.game.piece_rows
    return [bool(rows[p]["start"]) for i in range(state.num_legal_actions()) for p in option_pieces(state, i)]


@pytest.mark.parametrize(("players", "removed", "unused_start"), [(2, 12, 4), (3, 6, 2)])
def test_removed_tokens_before_the_start_tokens_are_shuffled_in(players: int, removed: int,
                                                                unused_start: int) -> None:
    # "Bei weniger als 4 Spielern werden einige zufällig gezogene Rattenplättchen (keine Startplättchen)
    #  unesehen aus dem Spiel entfernt" — before step 5 shuffles the unused start tokens in.
    assert removal_candidates(players, {}) == [False] * 37
    state = new_game(players, seed=2)
    box = state.zones["box"][None]
    assert len(box) == removed and not any(state.game.piece_rows[t]["start"] for t in box)
    # removed-tokens=after-start-tokens: the unused start tokens may leave the game too.
    after = removal_candidates(players, {"removed-tokens": "after-start-tokens"})
    assert len(after) == 37 + unused_start and after.count(True) == unused_start


def test_four_players_remove_no_token() -> None:
    for settings in ({}, {"removed-tokens": "after-start-tokens"}):
        state = new_game(4, seed=2, interpretations=settings)
        assert state.zones["box"][None] == [] and len(state.zones["stock"][None]) == 37


# ------------------------------------------------------------- a regular turn
PER_ROUND = """
players 4
cards P1: monk
tokens Gallia: ?
plague Scandia
turn P1
done take place
P1 monk Gallia 1 Germania
P1 plague Anglia
expect to-move P2
P2 take monk
"""


def test_ability_once_per_turn_of_its_holder() -> None:
    # Default: "Er darf die Fähigkeit jeder Karte nur einmal pro Runde nutzen." read as once in each turn
    # of the card's holder: P2 took the Monk after P1 used it and may use it in his own turn.
    assert_ok(PER_ROUND + "expect unused monk\nP2 monk Germania 1 Gallia\nexpect tokens Gallia: 1\n")


def test_ability_once_per_round_whoever_holds_the_card() -> None:
    # ability-once=per-round: the Monk was used in this round; taken by P2 it is spent until the round ends.
    assert_ok(with_switch(PER_ROUND, "ability-once=per-round") + """
expect used monk
expect illegal P2 monk Germania 1 Gallia
P2 plague Scandia
P3 plague Anglia
# A new round begins with the start player P0: the card is fresh again.
expect to-move P0
P0 take monk
expect unused monk
P0 monk Germania 1 Gallia
expect tokens Gallia: 1
""")


WHOLE_TURN = """
players 4
cards P0: king
cubes Anglia: P0 2
plague Scandia
done take place
"""


def test_abilities_only_before_phase_c_by_default() -> None:
    # "Die Fähigkeit einer Ständekarte darf 1x je Runde genutzt werden, d.h., nur vor Phase C (Ausnahme:
    #  Ritter)." (KSR): after the plague moved, the turn is over.
    assert_ok(WHOLE_TURN + "expect legal P0 king Anglia\nP0 plague Germania\nexpect to-move P1\n"
              "expect castle P0 0\n")


def test_abilities_in_the_whole_turn() -> None:
    # ability-window=whole-turn: "jederzeit während seines Zuges" — after phase C too; then `end`.
    text = with_switch(WHOLE_TURN, "ability-window=whole-turn")
    assert_ok(text + """
P0 plague Germania
expect to-move P0
expect actions: end, king Anglia
expect illegal P0 take monk
expect illegal P0 plague Scandia
P0 king Anglia
expect castle P0 1
expect actions: end
P0 end
expect to-move P1
""")
    # Still once: used before phase C, it is spent after it.
    assert_ok(text + "P0 king Anglia\nP0 plague Germania\nexpect actions: end\n")


PHASE_B = """
players 4
tokens Gallia: ?
plague Scandia
"""


def test_placing_is_optional_by_default() -> None:
    # "Der Spieler kann Würfel seiner eigenen Farbe in einer beliebigen Region platzieren."
    assert_ok(PHASE_B + "expect legal P0 plague Germania\n")


def test_placing_required_when_possible() -> None:
    # phase-b-optional=no: the plague moves only after cubes were placed, if any placement is possible.
    text = with_switch(PHASE_B, "phase-b-optional=no")
    assert_ok(text + "expect actions plague: none\nexpect illegal P0 plague Germania\nP0 take witch\n"
              "expect actions plague: none\nP0 place Gallia\nexpect legal P0 plague Germania\n"
              "expect legal P0 plague Anglia\n")
    # No region with a token (and no Peasant), or an empty supply: nothing can be placed, the plague may move.
    assert_ok(text.replace("tokens Gallia: ?", "") + "expect legal P0 plague Germania\n")
    assert_ok(text.replace("plague Scandia", "plague Scandia\ncubes Anglia: P0 20")
              + "expect actions place: none\nexpect legal P0 plague Germania\n")
    # The Peasant can always place one cube: then placing is required.
    assert_ok(text.replace("tokens Gallia: ?", "cards P0: peasant")
              + "expect actions plague: none\nP0 place-extra Italia\nexpect legal P0 plague Germania\n")


SHORT_SUPPLY = """
players 4
tokens Gallia: ?, ?, ?
tokens Germania: ?
cubes Anglia: P0 18
plague Scandia
"""


def test_short_supply_places_all_that_are_left() -> None:
    # Default: with 2 cubes left, 3 tokens in Gallia, the 2 are placed.
    assert_ok(SHORT_SUPPLY + "expect actions place: place Gallia, place Germania\nP0 place Gallia\n"
              "expect cubes Gallia: P0 2\nexpect supply P0 0\n")


def test_short_supply_illegal() -> None:
    # short-supply=illegal: "Er platziert so viele Würfel wie Rattenplättchen in der gewählten Region
    #  vorhanden sind." — not possible with 2 cubes in a region with 3 tokens.
    assert_ok(with_switch(SHORT_SUPPLY, "short-supply=illegal")
              + "expect actions place: place Germania\nexpect illegal P0 place Gallia\n"
                "P0 place Germania\nexpect supply P0 1\n")


NEUTRAL_EMPTY = """
players 4
cards P0: knight
tokens Scandia: 3:A+king
plague Germania
done take place
stock: 5
P0 plague Scandia
P0 spread Anglia
chance draw ?
"""


def test_knight_neutral_cubes_need_a_player_cube_by_default() -> None:
    # "Wenn die Pestregion mindestens einen Bevölkerungswürfel sowie ein oder mehr Rattenplättchen enthält"
    assert_ok(NEUTRAL_EMPTY + "expect to-move P1\nexpect tokens Scandia: 3:A+king\nexpect revealed: none\n")


def test_knight_neutral_cubes_start_a_devastation_in_an_empty_region() -> None:
    # knight-neutral-empty=yes: "um so die Auswertung eines Rattenplättchens zu erzwingen."
    text = with_switch(NEUTRAL_EMPTY, "knight-neutral-empty=yes")
    assert_ok(text + "expect actions: neutral, no-neutral\nP0 neutral\nexpect revealed: 3:A+king\n"
              "expect tokens Scandia: none\nexpect to-move P1\n")
    assert_ok(text + "P0 no-neutral\nexpect revealed: none\nexpect tokens Scandia: 1\nexpect to-move P1\n")


def test_knight_neutral_cubes_keep_a_devastation_going_only_with_neutral_empty() -> None:
    # Under knight-neutral-empty=yes the neutral pair counts as population in the region for the whole
    # devastation, so it does not stop when the last player cube is gone ("bis entweder alle
    # Rattenplättchen aufgedeckt oder alle Bevölkerungswürfel entfernt wurden").
    text = NEUTRAL_EMPTY.replace("tokens Scandia: 3:A+king",
                                 "tokens Scandia: 1:peasant+king, 6:*\ncubes Scandia: P1 1\ncards P1: peasant")
    text += "P0 spread Anglia\nchance draw ?\nP0 neutral\nP0 reveal 1\nexpect cubes Scandia: none\n"
    assert_ok(text + "expect revealed: 1:peasant+king\nexpect tokens Scandia: 6:*\nexpect to-move P1\n")
    assert_ok(with_switch(text, "knight-neutral-empty=yes")
              + "expect revealed: 1:peasant+king, 6:*\nexpect tokens Scandia: none\nexpect to-move P1\n")
