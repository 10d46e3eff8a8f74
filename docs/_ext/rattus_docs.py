"""Sphinx extension: the pages generated from the Rattus spec and the code.

A line ``.. rattus-generated:: NAME [SPEC]`` in a page is replaced, when Sphinx
reads the page, by the reStructuredText of the generated part NAME (see
``rattus_rules.games.rattus.docgen.PAGES`` and ``rattus_rules.games.rattus.refpages.PAGES``; ``cli``, the
command line's reference, comes from ``rattus_rules.cli.reference_rst``); with a SPEC
folder (relative to the docs) the generic English of that spec (``spec-english``) or
the coverage of its rulebook (``coverage``, linked to that English); ``picture RECORD[#STEP]`` draws
the position of a recorded game (a path relative to the docs; before step STEP, else at its end) by its
game's declared picture.  The rules
language's lexer is registered for ``rules`` code blocks.  After an HTML build,
every game record kept under ``decisive/GAME/`` gets its replay-viewer page
beside it in the output (``decisive/GAME/NAME.html``), for the pages that list
the games a reading decides.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from docutils.parsers.rst import Directive
from sphinx.application import Sphinx

from interpreter import load_spec
from rattus_rules import __version__, cli, load_rules
from rattus_rules.games.rattus import docgen, modelgen, refpages
from rattus_rules.tools.docs.coveragepage import coverage_rst
from rattus_rules.tools.docs.englishpage import english_label, english_rst, english_target
from rattus_rules.tools.docs.lexer import RulesLexer

DOCS = Path(__file__).resolve().parent.parent
_LINE = re.compile(r"^(?P<indent>[ \t]*)\.\. rattus-generated::[ \t]*(?P<name>\S+)(?:[ \t]+(?P<spec>\S+))?[ \t]*$",
                   re.MULTILINE)


def generate(name: str, spec: str | None = None) -> str:
    """The reStructuredText of one generated part."""
    if name == "spec-english":
        if spec is None:
            raise ValueError("spec-english needs a spec folder")
        return english_rst(load_spec(DOCS / spec))
    if name == "picture":
        if spec is None:
            raise ValueError("picture needs a record: picture RECORD.json[#STEP]")
        from rattus_rules.tools.docs.picturepage import record_picture_rst

        path, _, step = spec.partition("#")
        return record_picture_rst(DOCS / path, int(step) if step else None, path)
    if name == "coverage" and spec is not None:  # another game than Rattus: linked to its English page
        other = load_spec((DOCS / spec).resolve(), display_root=DOCS.parent)
        return coverage_rst(other, english_target(other),
                            f":ref:`the switches <{english_label(other, 'switches')}>`")
    if name == "cli":  # the front door's own page (it knows every command; no game's package may)
        return cli.reference_rst()
    game = load_rules()
    if name in docgen.PAGES:
        return docgen.PAGES[name](game)
    if name in refpages.PAGES:
        return refpages.PAGES[name](game)
    if name in modelgen.PAGES:
        return modelgen.PAGES[name](game)
    known = ", ".join(sorted([*docgen.PAGES, *refpages.PAGES, *modelgen.PAGES, "cli", "spec-english", "picture"]))
    raise ValueError(f"no generated part {name!r} (known: {known})")


def expand(text: str) -> str:
    """A page's text with every ``rattus-generated`` line replaced by the part it names."""

    def one(m: re.Match[str]) -> str:
        pad = m.group("indent")
        body = generate(m.group("name"), m.group("spec"))
        return "\n".join(pad + line if line else "" for line in body.splitlines())

    return _LINE.sub(one, text)


def on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    """Expand the generated parts of a page as Sphinx reads it."""
    source[0] = expand(source[0])


class NotExpanded(Directive):
    """Reached only if a ``rattus-generated`` line was not expanded (e.g. inside an included file)."""

    required_arguments = 1
    optional_arguments = 1

    def run(self) -> list[Any]:
        raise self.error("rattus-generated must stand on its own line of a page (it is expanded on reading)")


def write_viewer_pages(outdir: Path, docs: Path = DOCS) -> list[Path]:
    """A replay-viewer page in ``outdir`` beside each record of ``docs/decisive/GAME/*.json``."""
    from rattus_rules.tools.views.viewer import viewer_data, viewer_page

    written = []
    for folder in sorted(p for p in (docs / "decisive").glob("*") if p.is_dir()):
        for path in sorted(folder.glob("*.json")):
            shown = viewer_data(json.loads(path.read_text(encoding="utf-8")), None, None, folder.name)
            target = outdir / path.relative_to(docs).with_suffix(".html")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(viewer_page(shown), encoding="utf-8")
            written.append(target)
    return written


def on_build_finished(app: Sphinx, exception: Exception | None) -> None:
    """After an HTML build, the viewer pages of the decisive games."""
    if exception is None and app.builder.format == "html":
        write_viewer_pages(Path(app.outdir))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the source hook, the guard directive, the rules lexer and the viewer pages."""
    app.connect("source-read", on_source_read)
    app.connect("build-finished", on_build_finished)
    app.add_directive("rattus-generated", NotExpanded)
    app.add_lexer("rules", RulesLexer)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
