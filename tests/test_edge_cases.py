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
