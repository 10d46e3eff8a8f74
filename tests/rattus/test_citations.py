"""Every citation in the spec quotes its source text: the sentence is really there.

The spec keeps the text of its sources (``spec/rattus/rulebook.rules``: the
German rulebook, seed 000; ``summary.rules``: the German short summary, seed
001), and the checker refuses a citation whose sentence is not in the section
it names (:mod:`interpreter.sourcetext`, the one definition of how a quotation
is found).  These tests check that every citation is in it and that every rule,
switch and invariant cites; ``test_coverage.py`` checks that the kept text is
the seed's and that every sentence of it is accounted for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs
import pytest

from interpreter import Citation, Game
from interpreter import ast as A
from interpreter.sourcetext import SourceText

from ..conftest import SHARED


def all_citations(node: object) -> Iterator[Citation]:
    """Every citation anywhere in a syntax tree."""
    if isinstance(node, Citation):
        yield node
        return
    if isinstance(node, (tuple, list)):
        for item in node:
            yield from all_citations(item)
        return
    if attrs.has(type(node)) and not isinstance(node, A.Pos):
        for field in attrs.fields(type(node)):  # type: ignore[misc]
            yield from all_citations(getattr(node, field.name))


def test_every_quote_is_in_its_section_of_the_kept_text(rules: Game) -> None:
    citations = list(all_citations(rules.checked.files))
    assert len(citations) > 100
    texts = {name: SourceText(d) for name, d in rules.symbols.texts.items()}
    assert set(texts) == set(rules.symbols.sources), "the spec keeps the text of every source it names"
    missing = [f"{c.pos}: {texts[c.source].problem(c)}" for c in citations if texts[c.source].find(c) is None]
    assert not missing, "quotes not found in the kept text:\n" + "\n".join(missing)


def test_every_rule_switch_and_invariant_is_cited(rules: Game) -> None:
    s = rules.symbols
    for rule in s.rules.values():
        assert rule.citations, rule.name
    for proc in s.procedures.values():
        assert proc.citations, proc.name
    for switch in s.switches.values():
        for option in switch.options:
            assert option.citations, (switch.ident, option.value)
    for inv in s.invariants.values():
        assert inv.citations, inv.name


def test_interpretations_of_the_shared_list_are_switches(rules: Game) -> None:
    listed = SHARED / "INTERPRETATIONS.md"
    if not listed.exists():
        pytest.skip("INTERPRETATIONS.md not found")
    rows = re.findall(r"^\| ([a-z][a-z0-9-]+) \|", listed.read_text(encoding="utf-8"), flags=re.M)
    ids = [i for i in rows if i != "id"]
    assert len(ids) >= 19
    switches = {d.ident: d for d in rules.switches.values()}
    for ident in ids:
        assert ident in switches, f"INTERPRETATIONS.md point {ident} has no switch"


def test_defaults_match_the_shared_list(rules: Game) -> None:
    """The default option of each switch is the project's reading."""
    expected = {
        "initial-placement": "both-in-one", "plague-start": "chance", "phase-b-optional": "yes",
        "short-supply": "place-all", "ability-once": "per-turn", "ability-window": "before-c",
        "knight-return": "no", "knight-neutral-majority": "no", "reveal-order": "chosen",
        "game-end-timing": "after-turn", "supply-empty": "when-empty", "final-knight-neutral": "moved",
        "peasant-extra": "optional", "knight-neutral-empty": "no", "final-peasant": "one-cube-anywhere",
        "tie-break": "next-to-move", "removed-tokens": "before-start-tokens",
        "cubes-end": "placement", "final-reveal-order": "random",
    }
    defaults = {d.ident: rules.defaults[name] for name, d in rules.switches.items()}
    for ident, value in expected.items():
        assert defaults[ident] == value, ident


