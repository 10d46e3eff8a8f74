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
