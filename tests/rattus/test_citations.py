"""Every citation in the spec quotes its source text: the sentence is really there.

Quotes are compared after folding white space and markdown emphasis; `...` in a
quote stands for an elision.  The sources are the German rulebook (seed 000)
and the German short summary (seed 001) in ``../shared/seeds``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs
import pytest

from interpreter import Citation, Game
from interpreter import ast as A

from ..conftest import SHARED


def normalise(text: str) -> str:
    """Fold white space, markdown asterisks and typographic variants."""
    text = text.replace("*", "").replace("\u00ad", "")
    return re.sub(r"\s+", " ", text).strip()


def source_text(rules: Game, name: str) -> str:
    prefix = rules.symbols.sources[name].file
    matches = sorted((SHARED / "seeds").glob(f"{prefix}_*.txt"))
    if not matches:
        pytest.skip(f"source text {prefix} not found beside the project")
    return normalise(matches[0].read_text(encoding="utf-8"))


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


def test_every_quote_is_in_its_source(rules: Game) -> None:
    citations = list(all_citations(rules.checked.files))
    assert len(citations) > 100
    missing = []
    for c in citations:
        text = source_text(rules, c.source)
        position = 0
        for part in normalise(c.quote).split("..."):
            part = part.strip()
            found = text.find(part, position)
            if not part:
                continue
            if found < 0:
                missing.append(f"{c.pos}: {c.source} {c.section!r}: {part!r}")
                break
            position = found + len(part)
    assert not missing, "quotes not found in the source text:\n" + "\n".join(missing)


def test_sections_name_rulebook_headings(rules: Game) -> None:
    """A section is a heading of the source (setup steps may add their number)."""
    for c in all_citations(rules.checked.files):
        text = source_text(rules, c.source)
        heading = re.sub(r" \d+$", "", normalise(c.section))
        if heading == "Einleitung":  # the untitled opening paragraph
            continue
        assert heading in text, f"{c.pos}: section {c.section!r} is not a heading of {c.source}"


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


