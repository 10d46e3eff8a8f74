"""Sphinx configuration of the rattus-rules documentation (built by `make docs`, warnings are errors)."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))
sys.path.insert(0, str(DOCS / "_ext"))

from rattus_rules import __version__  # noqa: E402

project = "rattus-rules"
author = "the rattus-rules authors"
copyright = "2010 Åse & Henrik Berg (the game Rattus); the rattus-rules authors (this project)"
version = release = __version__

extensions = [
    "sphinx.ext.autodoc",
    "myst_parser",
    "rattus_docs",
    "circled",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "examples", "Thumbs.db", ".DS_Store"]
highlight_language = "text"
smartquotes = False  # citations and spec text are shown exactly as written
pygments_style = "friendly"

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options: dict[str, object] = {}

myst_heading_anchors = 3

html_theme = "alabaster"
html_static_path = ["_static"]
templates_path = ["_templates"]
html_css_files = ["rattus.css"]
html_title = "rattus-rules"
html_sidebars = {"**": ["rattus-navigation.html", "about.html", "searchfield.html", "navigation.html",
                        "relations.html"]}
html_theme_options = {
    "description": "The rules of Rattus as data",
    # Alabaster uses page_width also as the width below which the whole navigation becomes a dark
    # block above the page.  A width with a percentage is no valid media-query value, so that narrow
    # layout never starts; rattus.css has its own for phones (the navigation after the page).
    "page_width": "min(1280px, 100%)",
    "sidebar_width": "240px",
    "fixed_sidebar": True,
    "body_max_width": "none",
}
