"""The normative decision model as Markdown, for the conformance kit (``decision-model.md``).

The page ``docs/decision-model.rst`` is written in reStructuredText for Sphinx, with
its tables generated from the spec (:mod:`rattus_rules.games.rattus.modelgen`).  An engine author
who has only the exported kit needs the same page as text: :func:`model_markdown`
expands the generated parts and turns the reStructuredText this page uses (titles,
paragraphs, lists, definition lists, code blocks, list tables and inline markup) into
Markdown.  Anything else it meets is a ValueError, so that the page cannot grow a
construct the kit's copy would lose silently.

>>> rst_to_markdown("Title\\n=====\\n\\nA ``verb`` and :doc:`protocol`.\\n")
'# Title\\n\\nA `verb` and protocol.\\n'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from interpreter import Game

from .modelgen import PAGES

#: A line of a page that stands for a generated part.
_GENERATED = re.compile(r"^(?P<indent>[ \t]*)\.\. rattus-generated::[ \t]*(?P<name>\S+)[ \t]*$", re.MULTILINE)
_LEVELS = {"=": "#", "-": "##", "~": "###"}
_ROLE = re.compile(r"(?::(?:doc|ref|term):|ROLE)`(?P<body>[^`]+)`")
_LITERAL = re.compile(r"``(?P<body>.+?)``")


def _inline(text: str) -> str:
    """Inline reStructuredText as Markdown: ````x```` as ```x```, roles as their title, escapes dropped."""
    def role(m: re.Match[str]) -> str:
        body = m.group("body")
        title = body.split("<", 1)[0].strip() if "<" in body else body
        return title.replace("\\_", "_")

    text = _ROLE.sub(role, text)
    text = _LITERAL.sub(lambda m: "`" + m.group("body") + "`", text)
    return text.replace("\\_", "_").replace("\\ ", "")


def _cell(text: str) -> str:
    return _inline(" ".join(text.split())).replace("|", "\\|")


def _table(lines: list[str], start: int) -> tuple[list[str], int]:
    """A ``list-table`` from ``start`` as a Markdown table; the lines and the index after it."""
    i = start + 1
    while i < len(lines) and lines[i].strip().startswith(":"):
        i += 1
    rows: list[list[str]] = []
    while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
        line = lines[i]
        if line.startswith("   * - "):
            rows.append([line[7:]])
        elif line.startswith("     - "):
            rows[-1].append(line[7:])
        elif line.strip():
            rows[-1][-1] += " " + line.strip()
        i += 1
    if not rows:
        raise ValueError(f"line {start + 1}: a list-table without rows")
    head, body = rows[0], rows[1:]
    out = ["| " + " | ".join(_cell(c) for c in head) + " |", "|" + " --- |" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in body]
    return out, i


def _indented(lines: list[str], start: int, width: int) -> tuple[list[str], int]:
    """The block indented by at least ``width`` from ``start`` (blank lines inside kept), dedented."""
    out: list[str] = []
    i = start
    while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" " * width)):
        out.append(lines[i][width:])
        i += 1
    while out and not out[-1].strip():
        out.pop()
    return out, i


def rst_to_markdown(text: str) -> str:
    """The reStructuredText of the decision model's page as Markdown (ValueError for a construct it
    does not know)."""
    # inline literals and roles may run over a line end: turn them before the lines are read one by one
    text = re.sub(r"``((?:(?!\n\s*\n).)+?)``", lambda m: "`" + m.group(1) + "`", text, flags=re.DOTALL)
    text = re.sub(r":(?:doc|ref|term):`([^`]+)`", lambda m: "ROLE`" + m.group(1) + "`", text)
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        stripped = line.strip()
        if stripped and nxt and set(nxt) <= set("=-~") and len(nxt) >= len(stripped) and nxt[0] in _LEVELS:
            out += [f"{_LEVELS[nxt[0]]} {_inline(stripped)}", ""]
            i += 2
            continue
        if stripped.startswith(".. list-table::"):
            table, i = _table(lines, i)
            out += [*table, ""]
            continue
        if stripped.startswith(".. code-block::"):
            language = stripped.split("::", 1)[1].strip()
            width = len(line) - len(line.lstrip()) + 3
            block, i = _indented(lines, i + 1, width)
            while block and not block[0].strip():
                block.pop(0)
            pad = " " * (width - 3)
            out += [pad + f"```{language}", *[pad + b for b in block], pad + "```", ""]
            continue
        if stripped.startswith(".. "):
            raise ValueError(f"line {i + 1}: no Markdown for {stripped[:40]!r}")
        if stripped and not line.startswith(" ") and nxt.startswith("   ") and nxt.strip() and not (
                stripped[0] in "*-" or re.match(r"\d+\.", stripped)):
            body, i = _indented(lines, i + 1, 3)  # a definition list item: the term, then its text
            out.append(f"**{_inline(stripped)}**")
            out.append("")
            out += [f": {_inline(b)}" if k == 0 else (f"  {_inline(b)}" if b.strip() else "")
                    for k, b in enumerate(_definition(body))]
            out.append("")
            continue
        out.append(_inline(line.rstrip()))
        i += 1
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def _definition(body: list[str]) -> list[str]:
    """A definition's text: its code blocks turned to fences (indented under the definition)."""
    text = rst_to_markdown("\n".join(body)).rstrip("\n")
    return text.splitlines()


def expand(text: str, game: Game, parts: Mapping[str, Callable[[Game], str]] = PAGES) -> str:
    """A page's text with every ``rattus-generated`` line replaced by its generated part."""
    def one(m: re.Match[str]) -> str:
        name = m.group("name")
        if name not in parts:
            raise ValueError(f"no generated part {name!r} for the kit's decision model")
        pad = m.group("indent")
        return "\n".join(pad + line if line else "" for line in parts[name](game).splitlines())

    return _GENERATED.sub(one, text)


def model_markdown(game: Game, page: str) -> str:
    """The decision model page ``page`` (reStructuredText) with its tables for ``game``, as Markdown."""
    head = ("<!-- Generated from docs/decision-model.rst and the spec by `make golden`; do not edit. -->\n\n")
    return head + rst_to_markdown(expand(page, game))
