"""The rulebook sentence by sentence, and what accounts for each: a generated page for any game.

The kept text of each source (``text`` declarations) in its own order, one
block a sentence: beside it the rules, procedures, options, switches,
invariants, data checks, tables and scenario tests that cite it, each linked to
its place in the generated rulebook where the game's docs give it one; or the
reason it is waived; or that nothing accounts for it.  A sentence cited by
several options of switches has several readings: the block says so and links
the switch table.  What a game's docs call each place is the caller's
(``target``): this module names no game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from interpreter import Game
from interpreter import ast as A

from ..coverage import Accounted, Citer, Coverage, coverage
from .rst import esc, heading, list_table, literal

#: How each kind of citer is named on the page.
_KIND_WORDS = {"rule": "rule", "procedure": "procedure", "function": "function", "option": "action",
               "switch": "switch", "invariant": "invariant", "check": "data check", "table": "table",
               "declaration": "", "scenario": "scenario", "waiver": "waiver"}


def section_label(game: Game, source: str, section: str) -> str:
    """The label of a section's heading on the coverage page."""
    slug = re.sub(r"[^a-z0-9]+", "-", f"{source} {section}".lower()).strip("-") or "section"
    return f"coverage-{game.name}-{slug}"


def _citer_rst(who: Citer, target: Callable[[str], str | None]) -> str:
    words = _KIND_WORDS.get(who.kind, who.kind)
    name = who.name + (f" = {who.option}" if who.option is not None else "")
    shown = f"{words} {name}".strip()
    where = f" ({literal(f'{who.pos.path}:{who.pos.line}')})" if who.pos.line else ""
    for anchor in (who.anchor, who.owner):
        label = target(anchor) if anchor else None
        if label is not None:
            inside = "" if anchor == who.anchor else f" in {esc(who.owner.partition(':')[2])}"
            return f":ref:`{esc(shown)} <{label}>`{inside}{where}"
    return esc(shown) + where


def _waiver_rst(game: Game, w: A.Waiver, target: Callable[[str], str | None]) -> str:
    reason = esc(A.WAIVER_REASONS.get(w.reason, w.reason))
    if w.where is None:
        return f"Waived: {reason}."
    if w.reason == "summary":
        for source, d in game.symbols.texts.items():
            for section in d.sections:
                if section.title == w.where or section.title.startswith(w.where + " "):
                    return (f"Waived: {reason}, under :ref:`{esc(w.where)} "
                            f"<{section_label(game, source, section.title)}>`.")
    if w.reason == "component":
        kind = "table" if w.where in game.symbols.tables else "check"
        label = target(f"{kind}:{w.where}")
        name = esc(f"{'table' if kind == 'table' else 'data check'} {w.where}")
        return f"Waived: {reason}, held by " + (f":ref:`{name} <{label}>`" if label else name) + "."
    if w.reason == "example":
        return f"Waived: {reason}, reproduced by {literal(w.where)}."
    return f"Waived: {reason} ({literal(w.where)})."


def _sentence_rst(game: Game, a: Accounted, target: Callable[[str], str | None], switches: str) -> list[str]:
    body: list[str] = []
    if a.readings:
        options = ", ".join(f"{literal(f'{c.name}={c.option}')}" for c in a.readings)
        body += [f"**Several readings**: {options} ({switches}).", ""]
    if a.cited_by:
        body += ["Cited by:", ""]
        body += [f"* {_citer_rst(c, target)}" for c in a.cited_by]
        body.append("")
    for w in a.waived:
        body += [_waiver_rst(game, w, target), ""]
    if not a.cited_by and not a.waived:
        body += ["**Not accounted for**: no rule cites this sentence and no waiver gives a reason.", ""]
    out = [f".. container:: rules-coverage rules-coverage-{a.status}", ""]
    out += ["   .. container:: rules-coverage-de", "", f"      „{esc(a.sentence.text)}“", ""]
    out += ["   .. container:: rules-coverage-by", ""]
    out += [f"      {line}" if line else "" for line in body]
    return out + [""]


def figures_rst(cov: Coverage) -> list[str]:
    """The figures of a coverage as a small table."""
    f = cov.figures()
    reasons = f["waived_by_reason"]
    assert isinstance(reasons, dict)
    rows = [["sentences", str(f["sentences"])], ["cited by the spec", str(f["cited"])],
            *[[f"waived: {esc(A.WAIVER_REASONS[r])}", str(n)] for r, n in reasons.items()],
            ["accounted for neither way", str(f["unaccounted"])],
            ["waived but cited", str(f["cited_and_waived"])],
            ["citations that match no sentence", str(f["unmatched_citations"])]]
    return list_table(["", "count"], rows, [30, 8], "rules-coverage-figures")


def coverage_rst(game: Game, target: Callable[[str], str | None], switches: str,
                 more: Sequence[tuple[Citer, A.Citation]] = ()) -> str:
    """The page: figures, every citation that matches no sentence, then each kept text section by section and
    sentence by sentence with what accounts for it.  ``target`` gives the docs label of a citer's anchor (None:
    no place of its own); ``switches`` is the reStructuredText that links the switch table; ``more`` are further
    citations (scenario tests)."""
    cov = coverage(game, list(more))
    out = figures_rst(cov)
    if cov.unmatched:
        out += ["Citations that match no sentence of the kept text:", ""]
        out += [f"* {_citer_rst(who, target)}: *{esc(c.section)}* „{esc(c.quote)}“" for who, c in cov.unmatched]
        out.append("")
    else:
        out += ["Every citation of the spec matches a sentence of the kept text.", ""]
    for source, text in cov.texts.items():
        title = game.symbols.sources[source].title
        out += heading(f"{title}", "-")
        by_index = {a.sentence.index: a for a in cov.sentences if a.source == source}
        for section, sentences in text.sections:
            out += [f".. _{section_label(game, source, section)}:", ""] + heading(section, "~")
            for s in sentences:
                out += _sentence_rst(game, by_index[s.index], target, switches)
    return "\n".join(out) + "\n"
