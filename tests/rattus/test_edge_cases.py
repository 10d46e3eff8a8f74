"""Edge cases the spec mutation run (bench/mutate.py) found untested, each as a small scenario.

Every test here pins a boundary of a rule that random games and the rulebook
examples rarely reach; see docs/mutation-survivors.md.
"""

from __future__ import annotations

from .scenario_helpers import assert_ok


def test_final_round_peasant_with_a_single_cube_left_may_place_it() -> None:
    # "Bauer: Der Besitzer dieser Karte darf einen eigenen Bevölkerungswürfel in eine beliebige Region setzen."
    # With one cube left in the supply, that one cube may still be placed.
    assert_ok("""players 2
cards P1: peasant
tokens Gallia: ?, ?, ?
cubes Anglia: P1 19
plague Germania
final P0
expect supply P1 1
P1 peasant Gallia
expect cubes Gallia: P1 1
expect supply P1 0
expect actions: end
""")


KNIGHT_PER_ROUND = """players 2
interpretation ability-once=per-round
cards P0: knight
plague Anglia
tokens Gallia: 6:*
cubes Gallia: P1 1
P0 plague Gallia
P0 spread Hispania
chance draw ?
expect actions: neutral, no-neutral
"""


def test_per_round_the_knights_neutral_cubes_spend_the_card_for_its_next_holder() -> None:
    # "Er darf die Fähigkeit jeder Karte nur einmal pro Runde nutzen." (ability-once=per-round): counting the
    # plague as two neutral cubes is the Knight's ability; once used, the card is spent for the round, also
    # for a player who takes it later in that round.
    assert_ok(KNIGHT_PER_ROUND + """P0 neutral
expect used knight
expect to-move P1
P1 take knight
expect used knight
expect illegal P1 plague Hispania Italia
""")
    # Without the neutral cubes the one-step move leaves the card unspent: its next holder may move two steps.
    assert_ok(KNIGHT_PER_ROUND + """P0 no-neutral
expect unused knight
P1 take knight
expect legal P1 plague Hispania Italia
""")


def test_the_witch_looks_at_any_other_token_also_in_the_same_region_and_may_swap() -> None:
    # "Anschließend darf er unter ein weiteres beliebiges Plättchen schauen (auch in der gleichen Region).
    # Zum Schluss darf er die beiden angeschauten Plättchen vertauschen"
    assert_ok("""players 2
cards P0: witch
tokens Gallia: 1:merchant+monk, 6:M+king+monk
tokens Italia: 4:A+peasant+witch
P0 witch Gallia 1
expect actions: witch-look Gallia 2, witch-look Italia 1, witch-done
P0 witch-look Italia 1
expect actions: witch-swap, witch-keep
P0 witch-swap
expect tokens Gallia: 4:A+peasant+witch, 6:M+king+monk
expect tokens Italia: 1:merchant+monk
expect used witch
""")


def test_the_merchant_moves_one_two_or_three_cubes_to_a_neighbour() -> None:
    # "bis zu drei eigene Bevölkerungswürfel einer Region in eine benachbarte Region"
    moves = ", ".join(f"merchant Hispania {b} {k}" for b in ("Gallia", "Italia") for k in (1, 2, 3))
    assert_ok(f"""players 2
cards P0: merchant
cubes Hispania: P0 5
expect actions merchant: {moves}
P0 merchant Hispania Italia 3
expect cubes Italia: P0 3
expect cubes Hispania: P0 2
""")


def test_the_monk_may_move_a_token_next_to_two_but_not_next_to_three() -> None:
    # "Deswegen darf auch der Spieler mit der Mönchskarte kein Rattenplättchen in eine Region mit schon drei
    # Plättchen verschieben."
    assert_ok("""players 2
cards P0: monk
tokens Gallia: ?
tokens Hispania: ?, ?
tokens Italia: ?, ?, ?
expect legal P0 monk Gallia 1 Hispania
expect illegal P0 monk Gallia 1 Italia
P0 monk Gallia 1 Hispania
expect tokens Hispania: 3
""")


SHORT = """players 2
interpretation short-supply=illegal
cubes Anglia: P0 17
tokens Gallia: ?, ?
tokens Italia: ?, ?, ?
"""


def test_short_supply_illegal_allows_placing_exactly_the_last_cubes() -> None:
    # short-supply=illegal: "Er platziert so viele Würfel wie Rattenplättchen ..." must be possible in full
    assert_ok(SHORT + "expect legal P0 place Gallia\nexpect legal P0 place Italia\n")
    assert_ok(SHORT.replace("P0 17", "P0 18") + "expect legal P0 place Gallia\nexpect illegal P0 place Italia\n")
    # the Peasant's one more cube counts too
    assert_ok(SHORT + "cards P0: peasant\nexpect legal P0 place-extra Gallia\nexpect illegal P0 place-extra Italia\n")


def test_with_placement_required_the_plague_waits_until_cubes_are_placed() -> None:
    # phase-b-optional=no: placing is required whenever some region allows it
    text = """players 2
interpretation phase-b-optional=no
plague Anglia
"""
    assert_ok(text + "tokens Gallia: ?\nexpect actions plague: none\nP0 place Gallia\n"
              "expect actions plague: plague Gallia, plague Scandia\n")
    # no region with a token: no placement is possible, the plague may move at once
    assert_ok(text + "expect actions plague: plague Gallia, plague Scandia\n")


KNIGHT = """players 2
cards P0: knight
plague Anglia
P0 plague Gallia
P0 spread Hispania
chance draw ?
"""


def test_knight_neutral_cubes_against_a_majority() -> None:
    # knight-neutral-majority=yes: the neutral pair competes for M: a tie hits the player, more protects them
    majority = "interpretation knight-neutral-majority=yes\n"
    tie = KNIGHT.replace("plague Anglia\n", "plague Anglia\ntokens Gallia: 3:M+witch\ncubes Gallia: P1 2\n")
    assert_ok(majority + tie + "P0 neutral\nexpect cubes Gallia: P1 1\n")
    fewer = tie.replace("P1 2", "P1 1")
    assert_ok(majority + fewer + "P0 neutral\nexpect cubes Gallia: P1 1\n")
    # by default the neutral cubes only reach the threshold: P1 has the majority
    assert_ok(fewer + "P0 neutral\nexpect cubes Gallia: none\n")


def test_knight_neutral_cubes_in_a_region_without_cubes() -> None:
    empty = KNIGHT.replace("plague Anglia\n", "plague Anglia\ntokens Gallia: 6:*\n")
    # by default there is nothing to devastate ("mindestens einen Bevölkerungswürfel"): no choice, the turn ends
    assert_ok(empty + "expect to-move P1\nexpect tokens Gallia: 1\n")
    # knight-neutral-empty=yes: the neutral cubes force the tokens to be revealed and leave the board
    assert_ok("interpretation knight-neutral-empty=yes\n" + empty
              + "expect actions: neutral, no-neutral\nP0 neutral\nexpect tokens Gallia: 0\n")


def test_the_knights_two_steps_spend_the_card_for_the_round() -> None:
    # "Der Besitzer dieser Karte darf die Pestfigur bis zu zwei Schritte in Aktion C bewegen."
    assert_ok("""players 2
interpretation ability-once=per-round
cards P0: knight
plague Anglia
P0 plague Gallia Hispania
expect used knight
expect to-move P1
""")


def test_with_the_whole_turn_window_abilities_follow_phase_c() -> None:
    text = """players 2
cards P0: king
cubes Hispania: P0 1
plague Anglia
P0 plague Scandia
"""
    assert_ok("interpretation ability-window=whole-turn\n" + text
              + "expect to-move P0\nexpect actions: king Hispania, end\nP0 king Hispania\nP0 end\n"
                "expect to-move P1\n")
    assert_ok(text + "expect to-move P1\n")  # by default the turn ends with phase C


def test_abilities_come_back_each_turn_or_each_round() -> None:
    # "Er darf die Fähigkeit jeder Karte nur einmal pro Runde nutzen."
    text = """players 2
cards P0: king
cubes Hispania: P0 2
plague Anglia
P0 king Hispania
P0 plague Scandia
"""
    # per turn (default): back in the holder's next turn
    assert_ok(text + "P1 plague Anglia\nexpect to-move P0\nexpect legal P0 king Hispania\n")
    # per round: a card taken later in the round is spent, and comes back with the next round
    assert_ok("interpretation ability-once=per-round\n" + text
              + "P1 take king\nexpect used king\nP1 plague Anglia\nP0 plague Scandia\n"
                "expect to-move P1\nexpect unused king\n")


def test_the_final_devastation_counts_the_plague_as_exactly_two_neutral_cubes() -> None:
    # "Wenn das Spiel endet, zählt die Pestfigur wie zwei neutrale Bevölkerungswürfel in der betroffenen Region."
    text = """players 2
interpretation final-knight-neutral=always
plague Gallia
cubes Gallia: P1 1
final P0
"""
    # 1 cube + 2 neutral = 3: a token with 4 does not break out, one with 3 does (A: P1 loses the cube)
    assert_ok(text.replace("final P0", "tokens Gallia: 4:A+peasant+witch\nfinal P0")
              + "P1 end\nexpect to-move nobody\nexpect cubes Gallia: P1 1\n")
    assert_ok(text.replace("final P0", "tokens Gallia: 3:A+king\nfinal P0")
              + "P1 end\nexpect to-move nobody\nexpect cubes Gallia: none\n")


def test_the_final_round_starts_a_new_round_and_new_turns() -> None:
    # "Anschließend folgt die letzte Runde, in der alle Spieler ... noch einmal die Sonderfähigkeiten ihrer
    # Ständekarten nutzen können."  An ability spent in the last regular round is there again.
    for once in ("per-turn", "per-round"):
        assert_ok(f"""players 2
interpretation ability-once={once}
cards P0: king
cubes Hispania: P0 2
plague Anglia
turn P1
used king
stock: none
P1 plague Scandia
expect to-move P0
expect phase final
expect legal P0 king Hispania
""")


def test_no_neutral_cubes_where_there_is_no_token() -> None:
    # "bevor die Rattenplättchen umgedreht werden": without a token there is nothing to turn over
    assert_ok("""players 2
cards P0: knight
cubes Gallia: P1 3
plague Anglia
P0 plague Gallia
expect to-move P1
""")


def test_neutral_cubes_do_not_go_on_once_the_cubes_are_gone() -> None:
    # "bis entweder alle Rattenplättchen aufgedeckt oder alle Bevölkerungswürfel entfernt wurden"
    assert_ok(KNIGHT.replace("plague Anglia\n", "plague Anglia\ntokens Gallia: 3:A+king, 6:*\ncubes Gallia: P1 1\n")
              + "P0 spread Hispania\nchance draw ?\nP0 neutral\nP0 reveal 1\nexpect cubes Gallia: none\n"
                "expect tokens Gallia: 6:*\nexpect to-move P1\n")
    # knight-neutral-empty=yes: declining the neutral cubes in an empty region leaves the tokens there
    assert_ok("interpretation knight-neutral-empty=yes\n"
              + KNIGHT.replace("plague Anglia\n", "plague Anglia\ntokens Gallia: 6:*\n")
              + "P0 no-neutral\nexpect tokens Gallia: 1\n")


def test_majority_needs_someone_with_cubes() -> None:
    # knight-neutral-empty=yes and an M token in a region without cubes: nobody has a majority to lose
    assert_ok("interpretation knight-neutral-empty=yes\n"
              + KNIGHT.replace("plague Anglia\n", "plague Anglia\ntokens Gallia: 2:M+witch\n")
              + "P0 neutral\nexpect cubes Gallia: none\nexpect tokens Gallia: 0\n")


def test_a_failed_draw_does_not_change_who_ended_the_game() -> None:
    # supply-empty=failed-draw, after-round: P0 ended the game by placing the last cube; P1's failed draw later
    # in the round does not make P1 the one who ended it, so P1 (right of P0) plays the final turn.
    assert_ok("""players 2
interpretation game-end-timing=after-round
interpretation supply-empty=failed-draw
cubes Anglia: P0 19
tokens Gallia: ?
tokens Germania: ?
plague Anglia
stock: none
P0 place Gallia
expect supply P0 0
P0 plague Scandia
P1 plague Germania
expect phase final
expect to-move P1
""")
