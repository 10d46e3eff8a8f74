"""The end of the game (rulebook, Spielende): triggers, the final round, the final devastation, the winner.

"Das Spiel endet nach der Runde, in der entweder: der Vorrat der Rattenplättchen
aufgebraucht ist, oder ein Spieler alle seine Bevölkerungswürfel auf den
Spielplan eingesetzt hat (selten)."  Then the final round, counter-clockwise
from the player right of the one who ended the game, who has no final turn;
then the plague devastates every region; the most cubes (castle included) win.

Each test is a scenario (docs/scenarios.md); final-round positions use the
``final PLAYER`` statement.  Seats: P0 starts, turn order is P0, P1, P2, P3;
the player right of P1 is P0.
"""

from __future__ import annotations

import pytest

from rattus_rules.games.rattus.scenario import ScenarioError

from .scenario_helpers import assert_ok, run


def assert_fails(text: str, *messages: str) -> None:
    """The scenario fails, and only at expectations whose message contains these texts (in order)."""
    result = run(text)
    assert [m for m, f in zip(messages, result.failures) if m in f.message] == list(messages), \
        [str(f) for f in result.failures]
    assert len(result.failures) == len(messages)


# ---------------------------------------------------------------- triggers
STOCK_RUNS_OUT = """
players 4
tokens Gallia: 6:*
plague Germania
done take place
stock: 1
P0 plague Gallia
P0 spread Hispania
chance draw ?
expect stock 0
"""


def test_the_stock_running_out_ends_the_game_after_the_turn() -> None:
    # "der Vorrat der Rattenplättchen aufgebraucht ist" (default supply-empty=when-empty), and
    # "Diese letzte Runde wird entgegen dem Uhrzeigersinn gespielt, beginnend mit dem Spieler rechts des
    #  Spielers, der das Spielende eingeleitet hat."  P0 ended it: P3, P2, P1 follow; P0 has no final turn.
    assert_ok(STOCK_RUNS_OUT + """
expect trigger P0
expect phase final
expect to-move P3
P3 end
expect to-move P2
P2 end
expect to-move P1
P1 end
expect phase over
expect to-move nobody
# Nobody has a cube: all tie, and P1 would have moved next.
expect winner P1
""")


def test_a_stock_with_a_token_left_does_not_end_the_game() -> None:
    assert_ok(STOCK_RUNS_OUT.replace("stock: 1", "stock: 2").replace("expect stock 0", "expect stock 1")
              + "expect trigger none\nexpect phase regular\nexpect to-move P1\n")
    # A wrong expectation fails.
    assert_fails(STOCK_RUNS_OUT + "expect trigger none\nexpect to-move P1\n",
                 "ended by P0", "P3 is to move")


FAILED_DRAW = """
players 4
interpretation supply-empty=failed-draw
tokens Gallia: 6:*
tokens Italia: 6:*
plague Germania
done take place
stock: 1
P0 plague Gallia
P0 spread Hispania
chance draw ?
expect stock 0
"""


def test_with_failed_draw_the_game_ends_only_when_a_draw_fails() -> None:
    # supply-empty=failed-draw: the stock is empty after P0's draw, but nothing ended yet.
    assert_ok(FAILED_DRAW + """
expect trigger none
expect to-move P1
# Italia holds one token: one token should spread, the draw fails, P1 ended the game.
P1 plague Italia
expect trigger P1
expect phase final
expect to-move P0
P0 end
expect to-move P3
P3 end
expect to-move P2
P2 end
expect winner P2
""")


def test_with_failed_draw_no_draw_no_end() -> None:
    # A plague region without tokens spreads nothing: no draw is due, none fails.
    assert_ok(FAILED_DRAW + "P1 plague Anglia\nexpect trigger none\nexpect to-move P2\n")
    # Nor when every neighbour already holds three tokens ("werden keine weiteren Rattenplättchen ausgespielt").
    assert_ok("""
players 4
interpretation supply-empty=failed-draw
tokens Hispania: ?
tokens Gallia: ?, ?, ?
tokens Italia: ?, ?, ?
plague Gallia
done take place
stock: none
P0 plague Hispania
expect trigger none
expect to-move P1
""")


PLACES_THE_LAST_CUBES = """
players 4
tokens Gallia: 2:M+witch, 6:*, 6:*
cubes Anglia: P0 17
plague Germania
done take
stock: 10
P0 place Gallia
expect supply P0 0
"""


def test_placing_the_last_cube_ends_the_game() -> None:
    # "ein Spieler alle seine Bevölkerungswürfel auf den Spielplan eingesetzt hat (selten)."
    assert_ok(PLACES_THE_LAST_CUBES + "P0 plague Italia\nexpect trigger P0\nexpect to-move P3\n")


PLAGUE_TAKES_ONE_BACK = """
P0 plague Gallia
P0 spread Hispania
chance draw ?
P0 spread Hispania
chance draw ?
# 3 cubes >= 2: M hits P0, the majority; the two 6s do nothing.
P0 reveal 1
P0 reveal 1
expect cubes Gallia: P0 2
expect supply P0 1
"""


@pytest.mark.parametrize(("option", "ends"), [("placement", True), ("end-of-turn", False)])
def test_cubes_end_when_the_plague_takes_a_cube_back(option: str, ends: bool) -> None:
    # cubes-end: "ein Spieler alle seine Bevölkerungswürfel auf den Spielplan eingesetzt hat (selten)".
    # placement (default): P0 placed all his cubes in this round; the plague returning one of them to his
    # supply in the same turn does not undo that ("in der ... eingesetzt hat").  end-of-turn: only a supply
    # still empty when the turn ends does; the M token gave P0 a cube back, so the game goes on.
    text = PLACES_THE_LAST_CUBES.replace("players 4", f"players 4\ninterpretation cubes-end={option}")
    at_once = "expect trigger P0\n" if option == "placement" else "expect trigger none\n"
    after = ("expect trigger P0\nexpect phase final\nexpect to-move P3\n" if ends
             else "expect trigger none\nexpect phase regular\nexpect to-move P1\n")
    assert_ok(text + at_once + PLAGUE_TAKES_ONE_BACK + after)


@pytest.mark.parametrize("option", ["placement", "end-of-turn"])
def test_cubes_end_when_the_supply_stays_empty(option: str) -> None:
    # Under both readings a supply still empty at the end of the turn ends the game.
    text = PLACES_THE_LAST_CUBES.replace("players 4", f"players 4\ninterpretation cubes-end={option}")
    assert_ok(text + "P0 plague Italia\nexpect trigger P0\nexpect phase final\nexpect to-move P3\n")


def test_the_last_cubes_placed_with_a_short_supply_or_the_peasant_end_the_game() -> None:
    # short-supply=place-all (default): 2 cubes left, 3 tokens: both are placed, the supply is empty.
    assert_ok(PLACES_THE_LAST_CUBES.replace("P0 17", "P0 18").replace("expect supply P0 0", "")
              + "expect cubes Gallia: P0 2\nexpect supply P0 0\nP0 plague Italia\nexpect trigger P0\n")
    # The Peasant's one cube in a region without tokens.
    assert_ok("players 3\ncards P0: peasant\ncubes Anglia: P0 19\nplague Germania\ndone take\n"
              "P0 place-extra Italia\nexpect supply P0 0\nP0 plague Polonia\nexpect trigger P0\n"
              "expect to-move P2\n")


def test_cubes_left_in_the_supply_do_not_end_the_game() -> None:
    assert_ok(PLACES_THE_LAST_CUBES.replace("P0 17", "P0 16").replace("expect supply P0 0", "expect supply P0 1")
              + "P0 plague Italia\nexpect trigger none\nexpect to-move P1\n")


AFTER_ROUND = """
players 4
interpretation game-end-timing=after-round
tokens Gallia: 6:*
cubes Italia: P2 19
plague Germania
turn P1
done take place
stock: 1
P1 plague Gallia
P1 spread Hispania
chance draw ?
expect stock 0
expect trigger P1
"""


def test_after_round_the_round_is_played_to_its_end() -> None:
    # game-end-timing=after-round: "Das Spiel endet nach der Runde, in der ..." — P2 and P3 still play
    # regular turns; the final round then starts right of P1, who ended the game.
    assert_ok(AFTER_ROUND + """
expect phase regular
expect to-move P2
expect legal P2 take monk
# P2 places his last cube: the game was ended by P1 already and stays so.
P2 place Hispania
expect supply P2 0
P2 plague Anglia
expect trigger P1
expect to-move P3
P3 plague Scandia
expect phase final
expect to-move P0
P0 end
expect to-move P3
P3 end
expect to-move P2
P2 end
expect phase over
expect winner P2
""")
    # By default (after-turn) the final round starts at once.
    assert_ok(AFTER_ROUND.replace("interpretation game-end-timing=after-round\n", "")
              + "expect phase final\nexpect to-move P0\n")


def test_after_round_when_the_last_player_of_the_round_ends_the_game() -> None:
    assert_ok(AFTER_ROUND.replace("turn P1", "turn P3").replace("P1 ", "P3 ").replace("trigger P1", "trigger P3")
              + "expect phase final\nexpect to-move P2\nP2 end\nexpect to-move P1\nP1 end\n"
                "expect to-move P0\nP0 end\nexpect phase over\n")


# ------------------------------------------------------------ final round
@pytest.mark.parametrize(("players", "trigger", "order"), [
    (4, "P1", ["P0", "P3", "P2"]), (4, "P0", ["P3", "P2", "P1"]), (4, "P3", ["P2", "P1", "P0"]),
    (3, "P0", ["P2", "P1"]), (3, "P2", ["P1", "P0"]), (2, "P1", ["P0"]), (2, "P0", ["P1"]),
])
def test_final_round_order(players: int, trigger: str, order: list[str]) -> None:
    # "Diese letzte Runde wird entgegen dem Uhrzeigersinn gespielt, beginnend mit dem Spieler rechts des
    #  Spielers, der das Spielende eingeleitet hat."  "alle Spieler bis auf den Spieler, der das Spielende
    #  eingeleitet hat"
    steps = "".join(f"expect to-move {p}\n{p} end\n" for p in order)
    assert_ok(f"players {players}\nplague Gallia\nfinal {trigger}\nexpect phase final\nexpect trigger {trigger}\n"
              + steps + "expect phase over\n")
    wrong = "".join(f"expect to-move {p}\n{p} end\n" for p in reversed(order))
    if len(order) > 1:
        assert not run(f"players {players}\nplague Gallia\nfinal {trigger}\n" + wrong).ok


def test_final_round_turn_names_a_later_player() -> None:
    assert_ok("players 4\nplague Gallia\nfinal P1\nturn P3\nexpect to-move P3\nP3 end\nexpect to-move P2\n")
    with pytest.raises(ScenarioError, match="P1 ended the game and has no turn in the final round"):
        run("players 4\nplague Gallia\nfinal P1\nturn P1\n")
    with pytest.raises(ScenarioError, match="`done` is about phases A and B"):
        run("players 4\nplague Gallia\nfinal P1\ndone take\n")


NOTHING_BUT_ABILITIES = """
players 4
tokens Gallia: ?, ?
cubes Anglia: P3 1
cubes Gallia: P3 1
cards P0: witch
plague Germania
final P0
expect to-move P3
"""


def test_in_the_final_round_no_card_is_taken_no_cube_placed_the_plague_stays() -> None:
    # "Man darf keine neuen Karten nehmen, keine Bevölkerungswürfel setzen (Ausnahme Bauer, siehe rechter
    #  Kasten) und die Pestfigur nicht versetzen (Ausnahme: Ritter, siehe rechter Kasten)."
    assert_ok(NOTHING_BUT_ABILITIES + """
expect actions: end
expect illegal P3 take monk because "Man darf keine neuen Karten nehmen"
expect illegal P3 take witch because "Man darf keine neuen Karten nehmen"
expect illegal P3 place Gallia because "keine Bevölkerungswürfel setzen"
expect illegal P3 place-extra Anglia because "keine Bevölkerungswürfel setzen"
expect illegal P3 peasant Anglia
expect illegal P3 plague Gallia because "die Pestfigur nicht versetzen"
expect illegal P3 plague Gallia Anglia
P3 end
expect plague Germania
expect cubes Gallia: P3 1
""")
    # The position is not the reason: the same player may do all that in a regular turn.
    regular = NOTHING_BUT_ABILITIES.replace("final P0", "turn P3")
    assert_ok(regular + "expect legal P3 take monk\nexpect legal P3 place Gallia\nexpect legal P3 plague Gallia\n")


def test_final_round_abilities_of_cards_held_each_once() -> None:
    # "In dieser letzten Runde dürfen nur die Fähigkeiten der Ständekarten benutzt werden, die man gerade
    #  besitzt." — P3's four cards, each once; P2 holds none; P0 ended the game, his Peasant is idle.
    assert_ok("""
players 4
cards P3: king merchant monk witch
cards P0: peasant
tokens Gallia: 1:merchant+monk, ?
cubes Anglia: P3 4
cubes Gallia: P0 2
plague Germania
final P0
expect to-move P3
P3 king Anglia
expect castle P3 1
expect illegal P3 king Anglia
P3 merchant Anglia Gallia 3
expect cubes Gallia: P3 3, P0 2
expect illegal P3 merchant Gallia Anglia 1
P3 monk Gallia 2 Anglia
expect tokens Anglia: 1
expect illegal P3 monk Gallia 1 Hispania
P3 witch Gallia 1
P3 witch-done
expect illegal P3 witch Anglia 1
expect actions: end
P3 end
expect to-move P2
expect actions: end
P2 end
P1 end
expect phase over
# Final devastation, Gallia: 1:merchant+monk, 5 cubes >= 1: P3 holds both cards and loses two.
expect cubes Gallia: P3 1, P0 2
expect castle P3 1
expect supply P0 18
""")


def test_final_round_peasant_places_one_own_cube_anywhere_once() -> None:
    # "Bauer: Der Besitzer dieser Karte darf einen eigenen Bevölkerungswürfel in eine beliebige Region setzen."
    text = "players 2\ncards P1: peasant\ntokens Gallia: ?, ?, ?\nplague Germania\nfinal P0\n"
    regions = ("Anglia", "Gallia", "Germania", "Hispania", "Hungaria", "Italia", "Polonia", "Scandia")
    assert_ok(text + "expect actions: end, " + ", ".join(f"peasant {r}" for r in regions) + """
expect illegal P1 peasant Russia
expect illegal P1 place Gallia
expect illegal P1 place-extra Gallia
P1 peasant Gallia
expect cubes Gallia: P1 1
expect supply P1 19
expect used peasant
expect actions: end
""")
    # Without a cube in the supply there is nothing to place.
    assert_ok(text.replace("plague Germania", "plague Germania\ncubes Anglia: P1 20") + "expect actions: end\n")


def test_final_round_knight_moves_the_plague_up_to_two_steps_without_effect() -> None:
    # "Ritter: Der Besitzer dieser Karte darf die Pestfigur bis zu zwei Schritte bewegen."  The plague does
    # not spread nor devastate then; the final devastation comes after the round.
    text = """
players 4
cards P3: knight
plague Italia
tokens Scandia: 3:A+king
tokens Germania: ?
cubes Scandia: P1 2
stock: 5
final P0
"""
    assert_ok(text + """
expect legal P3 plague Germania
expect legal P3 plague Germania Scandia
expect illegal P3 plague Germania Italia
expect illegal P3 plague Scandia
P3 plague Germania Scandia
expect plague Scandia
expect revealed: none
expect stock 5
expect tokens Germania: 1
expect used knight
expect actions: end
""")
    assert_ok(text + "P3 plague Germania\nexpect plague Germania\nexpect actions: end\nexpect revealed: none\n")
    # Only the Knight's holder moves it.
    assert_ok(text.replace("cards P3: knight", "cards P2: knight")
              + "expect actions: end\nP3 end\nexpect legal P2 plague Germania Scandia\n")


# ------------------------------------------- the plague as two neutral cubes
KNIGHT_AT_THE_END = """
players 4
plague Italia
tokens Scandia: 4:A+peasant+witch
cubes Scandia: P1 2
final P0
"""


@pytest.mark.parametrize(("switch", "knight", "moves", "breaks_out"), [
    ("moved", "P3", True, True),      # the Knight's holder moved it into Scandia: 2 + 2 >= 3
    ("moved", "P3", False, False),    # the plague stood in Scandia, nobody moved it
    ("moved", "P0", False, False),    # the Knight's holder ended the game: he has no final turn
    ("held", "P3", False, True),      # somebody holds the Knight
    ("held", None, False, False),
    ("always", None, False, True),
])
def test_final_knight_neutral(switch: str, knight: str | None, moves: bool, breaks_out: bool) -> None:
    # "Wenn das Spiel endet, zählt die Pestfigur wie zwei neutrale Bevölkerungswürfel in der betroffenen Region."
    # Scandia: P1's 2 cubes, and the plague's 2 if they count, against a 4.
    text = KNIGHT_AT_THE_END.replace("players 4", f"players 4\ninterpretation final-knight-neutral={switch}")
    if knight:
        text = text.replace("plague Italia", f"plague Italia\ncards {knight}: knight")
    if not moves:
        text = text.replace("plague Italia", "plague Scandia")
    steps = "P3 plague Germania Scandia\n" if moves else ""
    steps += "".join(f"{p} end\n" for p in ("P3", "P2", "P1"))
    after = "expect cubes Scandia: P1 1\n" if breaks_out else "expect cubes Scandia: P1 2\n"
    assert_ok(text + steps + "expect phase over\nexpect revealed: 4:A+peasant+witch\n" + after)


# ------------------------------------------------------ final devastation
FINAL_DEVASTATION = """
players 2
cards P0: merchant
tokens Anglia: 6:*
cubes Anglia: P1 3
tokens Gallia: 1:merchant+monk, 2:M+merchant+monk
cubes Gallia: P0 2, P1 1
tokens Italia: 1:*
castle P1 2
castle P0 1
plague Hispania
final P0
P1 end
# final-reveal-order=random (default): chance turns Gallia's tokens, here in placement order
chance final-reveal 1
expect phase over
"""


def test_the_plague_devastates_every_region_at_the_end() -> None:
    # "Zum Schluss verwüstet die Pest alle zwölf Region. Dazu werden nacheinander die Rattenplättchen
    #  umgedreht und ausgewertet."  Regions in board order; in each, tokens in the order chance gives.
    result = assert_ok(FINAL_DEVASTATION + """
expect revealed: 6:*, 1:merchant+monk, 2:M+merchant+monk
# Anglia: 3 cubes < 6.  Gallia: 3 >= 1, the merchant's holder P0 loses one; 2 >= 2, M: P0 and P1 tie.
expect cubes Anglia: P1 3
expect cubes Gallia: none
expect tokens Gallia: none
# Italia has no cube: nothing to devastate, its token stays face down.
expect tokens Italia: 1:*
# "Sieger ist, wer danach die meisten Bevölkerungswürfel auf dem Spielbrett (inklusive Burg) hat."
expect score P1 5
expect score P0 1
expect winner P1
""")
    assert result.state.scores() == [1, 5]
    assert_fails(FINAL_DEVASTATION + "expect score P1 3\nexpect winner P0\n", "P1's score is 5", "winners are P1")


ORDER_MATTERS = """
players 4
cards P0: merchant
tokens Gallia: 3:A+king, 1:merchant+monk
cubes Gallia: P0 3
plague Hispania
final P1
P0 end
P3 end
P2 end
"""


# "Dazu werden nacheinander die Rattenplättchen umgedreht und ausgewertet."  Gallia's A token first:
# 3 >= 3, A: P0 loses one; then 2 >= 1, the merchant: one more (P0 keeps 1).  The merchant token first:
# 3 >= 1, P0 loses one; then 2 < 3, the A token does nothing (P0 keeps 2).
A_FIRST = "expect revealed: 3:A+king, 1:merchant+monk\nexpect cubes Gallia: P0 1\n"
MERCHANT_FIRST = "expect revealed: 1:merchant+monk, 3:A+king\nexpect cubes Gallia: P0 2\n"


def order_matters(option: str) -> str:
    return ORDER_MATTERS.replace("players 4", f"players 4\ninterpretation final-reveal-order={option}")


def test_final_devastation_in_placement_order() -> None:
    # final-reveal-order=placed: the A token was placed first; nobody is asked.
    assert_ok(order_matters("placed") + "expect phase over\n" + A_FIRST)


def test_final_devastation_in_random_order() -> None:
    # final-reveal-order=random (the default): chance picks which token of a region is turned next,
    # uniformly over the tokens left there; the last one needs no chance event.
    for text in (ORDER_MATTERS, order_matters("random")):
        assert_ok(text + "expect to-move chance\nexpect actions: final-reveal 1, final-reveal 2\n"
                  "chance final-reveal 2\nexpect phase over\n" + MERCHANT_FIRST)
        assert_ok(text + "chance final-reveal 1\nexpect phase over\n" + A_FIRST)


@pytest.mark.parametrize(("option", "chooser", "other"), [("chosen-by-trigger", "P1", "P2"),
                                                          ("chosen-by-last", "P2", "P1")])
def test_final_devastation_order_chosen_by_a_player(option: str, chooser: str, other: str) -> None:
    # P1 triggered the end; the final round ran P0, P3, P2 (counterclockwise from P1's right), so P2
    # played last.  The chooser may turn either token first, and the result differs.
    text = order_matters(option)
    assert_ok(text + f"expect to-move {chooser}\nexpect actions: final-reveal 1, final-reveal 2\n"
              f"{chooser} final-reveal 2\nexpect phase over\n" + MERCHANT_FIRST)
    assert_ok(text + f"{chooser} final-reveal 1\nexpect phase over\n" + A_FIRST)
    assert_fails(text + f"{other} final-reveal 1\n", f"it is not {other}'s decision but {chooser}'s")


# -------------------------------------------------------------- the winner
TIE = """
players 4
cubes Anglia: P0 3
castle P3 3
cubes Italia: P2 2
plague Hispania
final P1
P0 end
P3 end
P2 end
expect phase over
expect score P0 3
expect score P3 3
"""


def test_tie_goes_to_the_player_who_would_move_next() -> None:
    # "Im Falle eines Gleichstandes von mehreren Spielern gewinnt derjenige von ihnen, der als nächstes am
    #  Zug wäre, wenn das Spiel nicht enden würde."  P1's turn was the last: P2 would be next, then P3.
    assert_ok(TIE + "expect winner P3\n")
    assert_fails(TIE + "expect winner P0\n", "winners are P3")


def test_tie_after_a_full_round() -> None:
    # game-end-timing=after-round: the round ended with P3's turn; the start player P0 would be next.
    assert_ok(TIE.replace("players 4", "players 4\ninterpretation game-end-timing=after-round")
              + "expect winner P0\n")


def test_tie_shared() -> None:
    # tie-break=shared: "Sieger ist, wer danach die meisten Bevölkerungswürfel ... hat."
    assert_ok(TIE.replace("players 4", "players 4\ninterpretation tie-break=shared") + "expect winner P0 P3\n")


def test_no_tie_the_most_cubes_win() -> None:
    assert_ok(TIE.replace("castle P3 3", "castle P3 4").replace("expect score P3 3", "expect score P3 4")
              + "expect winner P3\n")
    assert_ok(TIE.replace("castle P3 3", "castle P3 2").replace("expect score P3 3", "") + "expect winner P0\n")


# ------------------------------------------------------ the scenario format
def test_the_final_round_example_of_the_scenario_docs_runs() -> None:
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    section = docs.split("### Positions in the final round", 1)[1]
    example = section.split("```", 2)[1]
    result = assert_ok(example + "expect plague Scandia\nexpect to-move P2\n")
    assert result.state.history == ["plague Germania Scandia", "end"]


@pytest.mark.parametrize(("text", "message"), [
    ("players 2\nfinal\n", "<test>:2: write `final PLAYER`"),
    ("players 2\nfinal P2\n", "<test>:2: no player 'P2'"),
    ("players 4\nfinal P1\nturn P7\n", "<test>:3: no player 'P7'"),
])
def test_malformed_final_positions(text: str, message: str) -> None:
    with pytest.raises(ScenarioError) as err:
        run(text)
    assert str(err.value).startswith(message), str(err.value)


def test_expect_winner_before_the_end() -> None:
    assert_fails("players 2\nplague Gallia\nexpect winner P0\n", "the game is not over")


# ------------------------------------------------- whole games, any position
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("timing", ["after-turn", "after-round"])
def test_final_round_of_random_games(players: int, timing: str) -> None:
    """Random games through the public API: who moves in the final round, and what they may do."""
    import random

    from rattus_rules import new_game

    for seed in range(2):
        state = new_game(players, seed=seed, interpretations={"game-end-timing": timing})
        rnd = random.Random(seed)
        movers: list[int] = []
        regular: list[int] = []
        while not state.is_terminal():
            phase = state.vals["phase"][None]
            if state.is_chance_node():
                state.apply_random_chance()
                continue
            verbs = {a.verb for a in state.legal_actions()}
            if phase == "final":
                assert verbs <= {"end", "king", "monk", "merchant", "witch", "witch-look", "witch-swap",
                                 "witch-keep", "witch-done", "peasant", "plague"}, verbs
                if not movers or movers[-1] != state.current_player:
                    movers.append(state.current_player)
            elif phase == "regular" and "plague" in verbs:
                regular.append(state.current_player)
            state.apply_index(rnd.randrange(state.num_legal_actions()))
        ender = state.vals["ender"][None]
        last = players - 1 if timing == "after-round" else ender
        assert regular[-1] == last
        assert movers == [(ender - i) % players for i in range(1, players)]
        best = max(state.scores())
        tied = [p for p in range(players) if state.scores()[p] == best]
        assert state.winner() == [next(q % players for q in range(last + 1, last + 1 + players)
                                       if q % players in tied)]
