"""What the rules as written allow, and one scenario for each option of a switch that shows it.

``tests/rattus/scenarios/switches/ID.VALUE.scn`` shows what the option VALUE of switch ID
does: it runs as written under that option and fails under every other option
of the switch.  ``tests/rattus/scenarios/rules-as-written/`` holds the scenarios of
docs/rules-as-written.md: the endless game, the Witch's single look and the
Witch's swap inside one region.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rattus_rules import interpretations
from rattus_rules.games.rattus.scenario import parse_scenario, run_scenario, switch_scenarios

from .scenario_helpers import assert_ok, run

AS_WRITTEN = Path(__file__).parent / "scenarios" / "rules-as-written"
OPTIONS = {i.id: [o.value for o in i.options] for i in interpretations()}
SHOWN = switch_scenarios()


def with_option(text: str, ident: str, value: str) -> str:
    """The scenario text with its ``interpretation ID=...`` line set to VALUE."""
    changed, n = re.subn(rf"^interpretation {ident}=\S+$", f"interpretation {ident}={value}", text, flags=re.M)
    assert n == 1, f"the scenario sets {ident} once"
    return changed


def test_the_switches_of_issue_8_have_a_scenario_for_every_option() -> None:
    for ident in ("cubes-end", "final-reveal-order"):
        assert sorted(v for i, v in SHOWN if i == ident) == sorted(OPTIONS[ident]), ident
    assert all(value in OPTIONS.get(ident, []) for ident, value in SHOWN), "a scenario names no option"


@pytest.mark.parametrize(("ident", "value"), sorted(SHOWN))
def test_an_option_scenario_holds_under_its_option_only(ident: str, value: str) -> None:
    text = SHOWN[(ident, value)].read_text(encoding="utf-8")
    assert f"interpretation {ident}={value}" in text
    assert_ok(text, str(SHOWN[(ident, value)]))
    for other in OPTIONS[ident]:
        if other != value:
            assert not run(with_option(text, ident, other)).ok, f"{ident}={other} gives the same"


def as_written(name: str) -> str:
    return (AS_WRITTEN / f"{name}.scn").read_text(encoding="utf-8")


def test_the_endless_game_repeats_its_position_under_phase_b_optional() -> None:
    text = as_written("endless-game")
    result = assert_ok(text)
    assert result.state.winner() is None and not result.state.is_terminal()
    # Under phase-b-optional=no the players must place cubes while they can: the line is illegal.
    refused = run(with_option(text, "phase-b-optional", "no"))
    assert "illegal: `plague` is not allowed now" in refused.failures[0].message


def test_expect_repeats_fails_on_a_new_position() -> None:
    text = as_written("endless-game").replace("P1 plague Hispania\n", "")
    failures = run(text).failures
    assert failures and "the position is new: it repeats none of the 1 before it" in failures[0].message


def test_the_witch_may_stop_after_a_single_look() -> None:
    # "Anschließend darf er unter ein weiteres ... schauen": the second look is allowed, not required.
    text = as_written("witch-single-look")
    assert_ok(text)
    head = text.split("expect actions witch-look")[0]
    state = run_scenario(parse_scenario(head)).state
    assert state.legal_action_texts() == ["witch-done"]
    quotes = [c.quote for c in state.decision_citations()]
    assert any("Anschließend darf er unter ein weiteres beliebiges Plättchen schauen" in q for q in quotes), quotes


def test_a_witch_swap_inside_one_region_matters_only_for_a_fixed_order() -> None:
    # "(was nur Sinn macht, wenn die Plättchen in unterschiedlichen Regionen waren)" holds under the
    # default final-reveal-order=random; under placed the swap changes the outcome.
    text = as_written("witch-swap-in-one-region")
    assert_ok(text)
    unswapped = run(text.replace("P2 witch-swap\n", "P2 witch-keep\n"))
    assert any("cubes in Gallia: P0 1" in f.message for f in unswapped.failures)
    assert not run(with_option(text, "final-reveal-order", "random")).ok
