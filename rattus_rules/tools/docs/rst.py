"""reStructuredText for the generated documentation: escaping, labels, step trees, tables.

The English of :mod:`interpreter.english` is typeset here with :class:`RstMarkup`;
:func:`steps_rst` lays a tree of steps out as nested lists, each rule and option
beside its citations (``rules-en`` and ``rules-de`` containers, set
side by side by the docs' style sheet).

>>> esc("total_moves * 2")
'total\\\\_moves \\\\* 2'
>>> label("option:turn:pick:1")
'rules-option-turn-pick-1'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from interpreter.ast import Citation
from interpreter.english import Markup, Step

_SPECIAL = re.compile(r"([\\`*_|])")


def esc(s: str) -> str:
    """Plain text made safe for running reStructuredText."""
    return _SPECIAL.sub(r"\\\1", s)


def literal(s: str) -> str:
    """Inline literal text (``like this``), safe for any content."""
    if not s:
        return "\\ "
    if "``" in s or s.startswith(" ") or s.endswith(" ") or s.endswith("`"):
        return ":literal:`" + s.replace("\\", "\\\\").replace("`", "\\`") + "`"
    return f"``{s}``"


def label(anchor: str) -> str:
    """The Sphinx label of a generated item (``rule:take_turn`` → ``rules-rule-take-turn``)."""
    return "rules-" + re.sub(r"[^a-z0-9]+", "-", anchor.lower()).strip("-")


def html_id(anchor: str) -> str:
    """The id the label's target has in the built HTML."""
    return label(anchor)


class RstMarkup(Markup):
    """Typesets English for reStructuredText: variables in italics, values as literals, links as refs."""

    def __init__(self, known: set[str] | None = None):
        #: anchors that have a target somewhere in the docs; references to others stay plain text
        self.known = known

    def text(self, s: str) -> str:
        return esc(s)

    def var(self, name: str) -> str:
        return f"*{esc(name)}*"

    def value(self, v: str) -> str:
        return literal(v)

    def verb(self, v: str) -> str:
        return f"**{esc(v)}**"

    def strong(self, s: str) -> str:
        return f"**{s}**"

    def ref(self, kind: str, name: str, shown: str) -> str:
        anchor = name if kind == "option" else f"{kind}:{name}"
        if self.known is not None and anchor not in self.known:
            return literal(shown) + "\\ "  # (an escaped space: a call's "(" may follow the literal)
        title = shown.replace("<", "\\<").replace("`", "\\`")
        return f":ref:`{title} <{label(anchor)}>`\\ "

    def quote(self, s: str) -> str:
        return "„" + esc(s) + "“"


def heading(title: str, char: str) -> list[str]:
    """A section title with its underline."""
    return [title, char * (len(title) + 4), ""]


def indent(lines: Iterable[str], by: int) -> list[str]:
    """Lines indented (blank lines stay blank)."""
    pad = " " * by
    return [pad + line if line else "" for line in lines]


def citations_rst(cites: Sequence[Citation], sources: dict[str, str] | None = None) -> list[str]:
    """The cited passages a rule rests on, one paragraph each."""
    out: list[str] = []
    for c in cites:
        src = (sources or {}).get(c.source, c.source)
        out += [".. container:: rules-cite", "",
                f"   *{esc(c.section)}* ({esc(src)})", "",
                f"   „{esc(c.quote)}“", ""]
    return out


def beside(english: list[str], cites: Sequence[Citation], target: str = "", kind: str = "",
           sources: dict[str, str] | None = None) -> list[str]:
    """English on the left, its citations on the right."""
    out = [f".. container:: rules-rule {kind}".rstrip(), ""]
    if target:
        out += indent([f".. _{target}:", ""], 3)
    out += indent([".. container:: rules-en", "", *indent(english, 3)], 3)
    if cites:
        out += indent([".. container:: rules-de", "", *indent(citations_rst(cites, sources), 3)], 3)
    return out + [""]


def steps_rst(steps: Sequence[Step], targets: bool = True, sources: dict[str, str] | None = None,
              skip_targets: set[str] | None = None) -> list[str]:
    """A tree of steps as nested bullet lists; rules and options beside their citations."""
    out: list[str] = []
    for s in steps:
        body: list[str] = [s.text, ""]
        if s.children:
            body += steps_rst(s.children, targets, sources, skip_targets)
        target = label(s.anchor) if targets and s.anchor and s.anchor not in (skip_targets or set()) else ""
        item = beside(body, s.citations, target, f"rules-{s.kind}", sources) if s.citations or target else body
        while item and not item[-1]:
            item.pop()
        out.append("- " + item[0])
        out += indent(item[1:], 2)
        out.append("")
    return out


def list_table(header: Sequence[str], rows: Iterable[Sequence[str]], widths: Sequence[int] | None = None,
               cls: str = "") -> list[str]:
    """A ``list-table`` (cells are reStructuredText; a cell may hold several lines)."""
    out = [".. list-table::", "   :header-rows: 1"]
    if widths:
        out.append("   :widths: " + " ".join(str(w) for w in widths))
    if cls:
        out.append(f"   :class: {cls}")
    out.append("")
    for row in [list(header), *[list(r) for r in rows]]:
        for i, cell in enumerate(row):
            lines = (cell or "\\ ").split("\n")
            out.append(("   * - " if i == 0 else "     - ") + lines[0])
            out += indent(lines[1:], 7)
    out.append("")
    return out
