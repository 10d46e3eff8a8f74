"""Sphinx extension: Ⓐ, Ⓑ, Ⓒ … drawn as a letter in a CSS circle, so that they never show as boxes.

The rulebook names its turn phases Ⓐ, Ⓑ and Ⓒ, and the spec cites those
headings.  Few fonts have the circled letters (U+24B6–U+24E9); where none does,
a browser shows an empty box.  This extension writes each of them as the plain
letter in ``<span class="rattus-circled">A</span>`` — in running
text, headings (and so the navigation), inline code and highlighted code
blocks — and ``rattus.css`` draws the circle.

>>> split_circled("Ⓒ Bewegung")
[('C', True), (' Bewegung', False)]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from docutils import nodes
from docutils.transforms import Transform
from sphinx.application import Sphinx

#: Circled Latin capital and small letters.
CIRCLED = re.compile("[\u24b6-\u24e9]")
CLASS = "rattus-circled"


def plain(ch: str) -> str:
    """The letter inside a circled letter: ``Ⓐ`` → ``A``, ``ⓐ`` → ``a``."""
    code = ord(ch)
    return chr(ord("A") + code - 0x24B6) if code < 0x24D0 else chr(ord("a") + code - 0x24D0)


def split_circled(text: str) -> list[tuple[str, bool]]:
    """Text cut into runs: (letter, True) for each circled letter, (text, False) between them."""
    out: list[tuple[str, bool]] = []
    at = 0
    for m in CIRCLED.finditer(text):
        if m.start() > at:
            out.append((text[at:m.start()], False))
        out.append((plain(m.group()), True))
        at = m.end()
    if at < len(text):
        out.append((text[at:], False))
    return out


def circled_html(text: str) -> str:
    """Escaped HTML text (no markup inside a tag) with each circled letter as a span."""
    return CIRCLED.sub(lambda m: f'<span class="{CLASS}">{plain(m.group())}</span>', text)


class CircledLetters(Transform):
    """Replace circled letters in text (not in literal blocks, raw HTML or comments) by spans."""

    default_priority = 800  # before the toc and titles are collected (doctree-read, 880)

    def apply(self, **kwargs: Any) -> None:
        skip = (nodes.literal_block, nodes.raw, nodes.comment, nodes.FixedTextElement)
        for text in list(self.document.findall(nodes.Text)):
            parent = text.parent
            if parent is None or not CIRCLED.search(text) or isinstance(parent, skip):
                continue
            if any(isinstance(a, skip) for a in _ancestors(parent)):
                continue
            new: list[nodes.Node] = []
            for run, circled in split_circled(str(text)):
                if circled:
                    new.append(nodes.inline(run, run, classes=[CLASS]))
                else:
                    new.append(nodes.Text(run))
            parent.replace(text, new)


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    out = []
    while node.parent is not None:
        node = node.parent
        out.append(node)
    return out


def _wrap_highlighter(app: Sphinx) -> None:
    """Highlighted code blocks: circled letters become spans after Pygments made the HTML."""
    highlighter = getattr(app.builder, "highlighter", None)
    if highlighter is None or getattr(highlighter, "_rattus_circled", False):
        return
    original: Callable[..., str] = highlighter.highlight_block

    def highlight_block(*args: Any, **kwargs: Any) -> str:
        return circled_html(original(*args, **kwargs))

    highlighter.highlight_block = highlight_block
    highlighter._rattus_circled = True


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the transform and the code-block wrapper."""
    app.add_transform(CircledLetters)
    app.connect("builder-inited", _wrap_highlighter)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
