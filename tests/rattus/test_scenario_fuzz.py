"""Scenario files: mangled text only ever yields a ScenarioError (with its line) or a scenario result.

The rulebook-example scenarios with lines deleted, doubled, cut short, words
replaced by other words of the scenarios, and junk lines inserted.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import RulesError
from rattus_rules.games.rattus.scenario import ScenarioError, parse_scenario, run_scenario

TEXTS = [p.read_text(encoding="utf-8") for p in sorted((Path(__file__).parent / "scenarios").glob("*.scn"))]
WORDS = sorted({w for text in TEXTS for w in text.split()} | {"-1", "99999999999", '"', "#", ":", ",", "\x00"})


@st.composite
def mangled(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(TEXTS)).split("\n")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["delete", "double", "word", "cut", "junk"]))
        if kind == "delete":
            del lines[i]
        elif kind == "double":
            lines.insert(i, lines[i])
        elif kind == "word":
            words = lines[i].split() or [""]
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(WORDS))
            lines[i] = " ".join(words)
        elif kind == "cut":
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
        else:
            lines.insert(i, " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5))))
        if not lines:
            lines = [""]
    return "\n".join(lines)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mangled())
def test_a_mangled_scenario_is_an_error_with_its_line_or_a_result(text: str) -> None:
    try:
        result = run_scenario(parse_scenario(text, "x.scn"))
    except ScenarioError as err:
        assert err.path == "x.scn" and err.line >= 1 and err.message
    except RulesError:
        pass
    else:
        assert all(f.line >= 1 for f in result.failures)


def test_an_expectation_missing_words_fails_at_its_line() -> None:
    for line in ("expect supply P1", "expect castle", "expect tokens", "expect cubes", "expect plague"):
        result = run_scenario(parse_scenario(f"players 2\n{line}\n", "x.scn"))
        assert not result.ok and [f.line for f in result.failures] == [2], line
        assert "missing words" in result.failures[0].message
