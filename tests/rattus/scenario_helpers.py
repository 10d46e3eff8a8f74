"""Running scenario text in tests: the failures, if any, as the assertion message."""

from __future__ import annotations

from rattus_rules.games.rattus.scenario import ScenarioRun, parse_scenario, run_scenario


def run(text: str, name: str = "<test>") -> ScenarioRun:
    """Parse and run a scenario given as text."""
    return run_scenario(parse_scenario(text, name))


def assert_ok(text: str, name: str = "<test>") -> ScenarioRun:
    """Run a scenario and fail with its failures unless every step and expectation held."""
    result = run(text, name)
    assert result.ok, "\n".join(str(f) for f in result.failures)
    return result
