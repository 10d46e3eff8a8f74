"""Every sentence of a game's source texts accounted for: cited by the spec, waived with a reason, or neither.

A spec keeps the text of its sources (``text rulebook { section ... }``); each
of its sentences is either **cited** by a declaration of the spec (a rule, a
procedure, an option, a switch option, an invariant, a data check, a table,
...), or **waived** (``waive ... because flavour | example | component |
summary``), or **unaccounted for**.  Quotations are matched by
:mod:`interpreter.sourcetext`, the same matching the checker uses.  The
other direction, citations that match no sentence of a kept text, is listed
too (the checker refuses them, so for a loaded spec it is empty).

>>> from rattus_rules import load_rules
>>> cov = coverage(load_rules(game="ratten_scharf"))
>>> cov.figures()["unaccounted"]
0
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_never

import attrs

from interpreter import Game
from interpreter import ast as A
from interpreter.english import English, child_blocks
from interpreter.sourcetext import Sentence, SourceText

#: What cites a sentence, in the order a page lists them.
CITER_KINDS = ("rule", "procedure", "function", "option", "switch", "invariant", "check", "table",
               "declaration", "scenario")


@attrs.frozen
class Citer:
    """A part of the spec (or a scenario test) that cites a sentence.

    ``anchor`` names it as the generated docs do (``rule:three_per_region``,
    ``switch:ability_window``, ``check:forty_nine_tokens``, ``table:strips``,
    an option's anchor); a switch option also names its ``option`` value.
    """

    kind: str
    name: str
    anchor: str
    pos: A.Pos = attrs.field(eq=False)
    option: str | None = None
    #: the procedure a `rule` or an option stands in (its anchor), where the docs show no place of its own
    owner: str = ""


@attrs.frozen
class Accounted:
    """One sentence of a source text and what accounts for it."""

    source: str
    sentence: Sentence
    cited_by: tuple[Citer, ...]
    waived: tuple[A.Waiver, ...]

    @property
    def by_spec(self) -> tuple[Citer, ...]:
        """The parts of the spec citing this sentence (a scenario test that cites it accounts for nothing)."""
        return tuple(c for c in self.cited_by if c.kind != "scenario")

    @property
    def status(self) -> str:
        """``cited`` (by the spec), ``waived`` or ``unaccounted``."""
        return "cited" if self.by_spec else "waived" if self.waived else "unaccounted"

    @property
    def readings(self) -> tuple[Citer, ...]:
        """The switch options citing this sentence, where more than one does: its several readings."""
        options = tuple(c for c in self.cited_by if c.kind == "switch")
        return options if len(options) > 1 else ()


@attrs.frozen
class Coverage:
    """How a spec accounts for the sentences of every source text it keeps."""

    texts: dict[str, SourceText]
    sentences: tuple[Accounted, ...]
    #: citations (and waived sentences) of a source whose text is kept, found in no sentence of it
    unmatched: tuple[tuple[Citer, A.Citation], ...]

    def by_status(self, status: str) -> list[Accounted]:
        """The sentences of one status, in text order."""
        return [a for a in self.sentences if a.status == status]

    @property
    def cited_and_waived(self) -> list[Accounted]:
        """Sentences the spec both cites and waives: a waiver that says no rule carries out what one does."""
        return [a for a in self.sentences if a.by_spec and a.waived]

    @property
    def complete(self) -> bool:
        """Whether every sentence is accounted for, no waiver contradicts a citation and no citation is unmatched."""
        return not self.by_status("unaccounted") and not self.cited_and_waived and not self.unmatched

    def figures(self) -> dict[str, object]:
        """The counts, as ``rattus check --json`` prints them."""
        reasons = {r: sum(1 for a in self.by_status("waived") if any(w.reason == r for w in a.waived))
                   for r in A.WAIVER_REASONS}
        return {
            "sentences": len(self.sentences),
            "cited": len(self.by_status("cited")),
            "waived": len(self.by_status("waived")),
            "waived_by_reason": reasons,
            "unaccounted": len(self.by_status("unaccounted")),
            "cited_and_waived": len(self.cited_and_waived),
            "unmatched_citations": len(self.unmatched),
            "sources": {name: sum(1 for a in self.sentences if a.source == name) for name in self.texts},
        }

    def by_section(self) -> list[tuple[str, str, dict[str, int]]]:
        """Each section of each kept text, in text order, with how many of its sentences have each status."""
        out: list[tuple[str, str, dict[str, int]]] = []
        for a in self.sentences:
            if not out or out[-1][:2] != (a.source, a.sentence.section):
                out.append((a.source, a.sentence.section, {"cited": 0, "waived": 0, "unaccounted": 0}))
            out[-1][2][a.status] += 1
        return out

    def to_json(self) -> dict[str, object]:
        """The figures and every sentence not cited (with its section and, if waived, its reasons), and every
        unmatched citation."""
        def one(a: Accounted) -> dict[str, object]:
            return {"source": a.source, "section": a.sentence.section, "sentence": a.sentence.text,
                    "reasons": [{"reason": w.reason, "where": w.where} for w in a.waived]}
        return {**self.figures(),
                "sections": [{"source": source, "section": section, **counts}
                             for source, section, counts in self.by_section()],
                "unaccounted_sentences": [one(a) for a in self.by_status("unaccounted")],
                "waived_sentences": [one(a) for a in self.by_status("waived")],
                "cited_and_waived_sentences": [one(a) for a in self.cited_and_waived],
                "unmatched": [{"path": c.pos.path, "line": c.pos.line, "source": c.source, "section": c.section,
                               "quote": c.quote, "by": f"{who.kind} {who.name}"} for who, c in self.unmatched]}


def citers(game: Game) -> Iterator[tuple[Citer, A.Citation]]:
    """Every citation of the spec with the part that makes it, in spec order."""
    english = English(game.checked, None)
    for f in game.checked.files:
        for d in f.declarations:
            yield from _declaration_citers(d, english)


def _declaration_citers(d: A.Declaration, english: English) -> Iterator[tuple[Citer, A.Citation]]:
    match d:
        case A.ProcedureDecl():
            who = Citer("procedure", d.name, f"procedure:{d.name}", d.pos)
            yield from ((who, c) for c in d.citations)
            options = {id(opt): anchor for anchor, opt, _ in english.options_of(d)}
            yield from _block_citers(d.body, options, who.anchor)
        case A.FunctionDecl():
            who = Citer("function", d.name, f"function:{d.name}", d.pos)
            yield from ((who, c) for c in d.citations)
        case A.SwitchDecl():
            for o in d.options:
                who = Citer("switch", d.ident, f"switch:{d.name}", o.pos, o.value)
                yield from ((who, c) for c in o.citations)
        case A.SettingDecl():
            who = Citer("setting", d.ident, f"setting:{d.name}", d.pos)
            yield from ((who, c) for c in d.citations)
        case A.Condition():
            who = Citer(d.kind, d.name, f"{d.kind}:{d.name}", d.pos)
            yield from ((who, c) for c in d.citations)
        case A.TableDecl():
            who = Citer("table", d.name, f"table:{d.name}", d.pos)
            yield from ((who, c) for c in d.citations)
        case A.GameDecl() | A.PlayersDecl() | A.EnumDecl() | A.GraphDecl() | A.PiecesDecl() | A.StateDecl() \
                | A.ZoneDecl() | A.ScopeDecl() | A.LimitDecl() | A.ScoreDecl():
            name = {A.GameDecl: "game", A.PlayersDecl: "players", A.ScoreDecl: "score"}.get(type(d)) \
                or str(getattr(d, "name", ""))
            what = d.kind if isinstance(d, A.StateDecl) else type(d).__name__.replace("Decl", "").lower()
            who = Citer("declaration", f"{what} {name}" if what != name else name, f"decl:{name}", d.pos)
            yield from ((who, c) for c in d.citations)
        case A.SourceDecl() | A.MainDecl() | A.TextDecl() | A.Waiver() | A.PictureDecl():
            pass  # they cite nothing (a waiver's sentences are waived, not cited)
        case _:
            assert_never(d)


def _block_citers(block: A.Block, options: dict[int, str], owner: str) -> Iterator[tuple[Citer, A.Citation]]:
    for st in block.statements:
        if isinstance(st, A.Rule):
            who = Citer("rule", st.name, f"rule:{st.name}", st.pos, owner=owner)
            yield from ((who, c) for c in st.citations)
        elif isinstance(st, A.Choose):
            for opt in st.options:
                who = Citer("option", opt.verb, options.get(id(opt), ""), opt.pos, owner=owner)
                yield from ((who, c) for c in opt.citations)
        elif isinstance(st, A.Chance):
            who = Citer("option", st.verb, options.get(id(st), ""), st.pos, owner=owner)
            yield from ((who, c) for c in st.citations)
        for child in child_blocks(st):
            yield from _block_citers(child, options, owner)


def coverage(game: Game, more: list[tuple[Citer, A.Citation]] | None = None) -> Coverage:
    """How the spec (and ``more`` citations, e.g. of scenario tests) accounts for each sentence of its texts."""
    texts = {name: SourceText(d) for name, d in game.symbols.texts.items()}
    cited: dict[tuple[str, int], list[Citer]] = {}
    unmatched: list[tuple[Citer, A.Citation]] = []
    for who, c in [*citers(game), *(more or [])]:
        text = texts.get(c.source)
        if text is None:
            continue
        found = text.find(c)
        if found is None:
            unmatched.append((who, c))
            continue
        for i in found:
            mine = cited.setdefault((c.source, i), [])
            if who not in mine:
                mine.append(who)
    waived: dict[tuple[str, int], list[A.Waiver]] = {}
    for w in game.symbols.waivers:
        text = texts.get(w.source)
        if text is None:
            continue
        for c in w.sentences():
            found = text.find(c)
            if found is None:
                unmatched.append((Citer("waiver", w.reason, "", w.pos), c))
                continue
            for i in found:
                waived.setdefault((w.source, i), []).append(w)
    sentences = tuple(Accounted(name, s, tuple(cited.get((name, s.index), ())), tuple(waived.get((name, s.index), ())))
                      for name, text in texts.items() for s in text.sentences)
    return Coverage(texts, sentences, tuple(unmatched))


def report(cov: Coverage) -> list[str]:
    """The coverage as lines for ``rattus check``: the figures, then each sentence unaccounted for (and each
    contradiction or unmatched citation) with its source and section; nothing for a spec that keeps no text."""
    if not cov.texts:
        return []  # the spec keeps no source text: there is nothing to account for
    f = cov.figures()
    reasons = f["waived_by_reason"]
    assert isinstance(reasons, dict)
    by_reason = ", ".join(f"{n} {r}" for r, n in reasons.items() if n)
    lines = [f"coverage: {f['sentences']} sentences of {', '.join(cov.texts)} — {f['cited']} cited, "
             f"{f['waived']} waived" + (f" ({by_reason})" if by_reason else "")
             + f", {f['unaccounted']} neither"]
    for source, section, counts in cov.by_section():
        lines.append(f"  {source} {section!r}: {counts['cited']} cited, {counts['waived']} waived"
                     + (f", {counts['unaccounted']} NEITHER" if counts["unaccounted"] else ""))
    for a in cov.by_status("unaccounted"):
        lines.append(f"  not accounted for: {a.source} {a.sentence.section!r}: \"{a.sentence.text}\"")
    for a in cov.cited_and_waived:
        who = ", ".join(f"{c.kind} {c.name}" for c in a.by_spec)
        lines.append(f"  waived ({', '.join(w.reason for w in a.waived)}) but cited by {who}: "
                     f"{a.source} {a.sentence.section!r}: \"{a.sentence.text}\"")
    if not cov.unmatched:
        lines.append("  every citation matches a sentence of the kept text")
    for citer, c in cov.unmatched:
        lines.append(f"  {c.pos}: {citer.kind} {citer.name} cites no sentence of {c.source}: "
                     f"{c.section!r} \"{c.quote}\"")
    return lines
