"""The text of a source, sentence by sentence, and where a quotation stands in it.

A spec may keep the text its citations quote (``text rulebook { section
"Title" "A sentence." ... }``).  This module is the one definition of how a
quotation is found there, used by the checker (a `cite` or a `waive` of a
sentence that is not there is a spec error) and by the coverage tools (which
sentences are cited, which waived, which neither):

* text is compared after folding white space, markdown asterisks and soft
  hyphens (:func:`normalise`);
* a citation's section names a heading of the text, or the start of some
  (``"Setup"`` names ``"Setup 1"``, ``"Setup 2"``, ...,
  a word at a time): the quotation is looked for in those sections, in order;
* ``...`` in a quotation stands for an elision: its parts are found in order;
  each part covers every sentence it overlaps (an elided sentence is not
  covered).

>>> text = SourceText(A.TextDecl("book", (
...     A.TextSection("Setup 1", ("Shuffle the stones.", "Deal five each."), A.NOWHERE),
...     A.TextSection("Play", ("Draw one.", "Then play one."), A.NOWHERE)), A.NOWHERE))
>>> text.find(A.Citation("book", "Setup", "Shuffle ... five"))
(0, 1)
>>> text.find(A.Citation("book", "Play", "Draw one. Then"))
(2, 3)
>>> text.problem(A.Citation("book", "Play", "Deal five each."))
"the sentence is not in section 'Play' of book: 'Deal five each.'"
"""

from __future__ import annotations

import bisect
import difflib
import re

import attrs

from . import ast as A


def normalise(text: str) -> str:
    """Text as quotations are compared: white space folded, markdown asterisks and soft hyphens dropped."""
    text = text.replace("*", "").replace("\u00ad", "")
    return re.sub(r"\s+", " ", text).strip()


@attrs.frozen
class Sentence:
    """One sentence of a source text: its number (from 0, in text order), its section and its words."""

    index: int
    section: str
    text: str
    pos: A.Pos = attrs.field(eq=False, default=A.NOWHERE)


class SourceText:
    """A source's text as declared by a `text` declaration, ready to find quotations in."""

    def __init__(self, decl: A.TextDecl):
        self.decl = decl
        self.source = decl.source
        self.sentences: list[Sentence] = []
        self.sections: list[tuple[str, list[Sentence]]] = []
        for section in decl.sections:
            mine = [Sentence(len(self.sentences) + i, section.title, s, section.pos)
                    for i, s in enumerate(section.sentences)]
            self.sentences += mine
            self.sections.append((section.title, mine))
        self._titles = [normalise(title) for title, _ in self.sections]
        # by the section a citation names: the sentences there, their words joined, where each starts
        self._joined: dict[str, tuple[list[Sentence], str, list[int]]] = {}

    def sections_named(self, section: str) -> list[tuple[str, list[Sentence]]]:
        """The sections a citation's section names: the heading itself, or the headings it starts, a word at a time."""
        wanted = normalise(section)
        return [part for part, title in zip(self.sections, self._titles)
                if title == wanted or title.startswith(wanted + " ")]

    def _in(self, section: str) -> tuple[list[Sentence], str, list[int]]:
        found = self._joined.get(section)
        if found is None:
            sentences = [s for _, part in self.sections_named(section) for s in part]
            words = [normalise(s.text) for s in sentences]
            starts = [0]
            for w in words[:-1]:
                starts.append(starts[-1] + len(w) + 1)
            found = self._joined[section] = (sentences, " ".join(words), starts)
        return found

    def find(self, c: A.Citation) -> tuple[int, ...] | None:
        """The numbers of the sentences a citation covers, or None where it is not in its section."""
        sentences, whole, starts = self._in(c.section)
        if not sentences:
            return None
        covered: set[int] = set()
        position = 0
        for part in normalise(c.quote).split("..."):
            part = part.strip()
            if not part:
                continue
            found = whole.find(part, position)
            if found < 0:
                return None
            first = bisect.bisect_right(starts, found) - 1
            last = bisect.bisect_right(starts, found + len(part) - 1) - 1
            covered.update(sentences[i].index for i in range(first, last + 1))
            position = found + len(part)
        return tuple(sorted(covered)) if covered else None

    def problem(self, c: A.Citation) -> str | None:
        """Why a citation is not in this text (with the nearest sentence of its section), or None."""
        if self.find(c) is not None:
            return None
        named = self.sections_named(c.section)
        if not named:
            near = difflib.get_close_matches(c.section, [t for t, _ in self.sections], n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            return f"{c.source} has no section {c.section!r}{hint}"
        if not normalise(c.quote).replace(".", "").strip():
            return "the quotation is empty"
        candidates = [s.text for _, part in named for s in part]
        near = difflib.get_close_matches(normalise(c.quote), candidates, n=1, cutoff=0.5)
        hint = f"; the nearest sentence there is {near[0]!r}" if near else ""
        return f"the sentence is not in section {c.section!r} of {c.source}: {normalise(c.quote)!r}{hint}"
