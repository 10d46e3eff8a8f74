"""Self-contained HTML pages: the replay viewer and the play page share this frame.

A page carries its CSS, its script and its data inline (``rattus_rules/web/``)
and loads nothing from the network: its Content-Security-Policy allows only
the inline style and script it was built with (by hash), and, for a page served
by ``rattus play --web``, requests to the same server.  Data goes in as JSON in
a ``<script type="application/json">`` block and reaches the page only as text
(the scripts never parse it as HTML).

>>> html = page("A <title>", body="<p>hi</p>", data={"x": "</script><b>"}, script="viewer.js")
>>> "</script><b>" in html, "&lt;title&gt;" in html
(False, True)
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import json
from importlib import resources
from typing import Any

_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


@functools.cache
def asset(name: str) -> str:
    """A file of ``rattus_rules/web/`` as text."""
    return resources.files("rattus_rules").joinpath("web", name).read_text(encoding="utf-8")


def json_for_script(data: Any) -> str:
    """JSON that can stand inside a ``<script>`` element: ``<``, ``>`` and ``&`` written as ``\\u`` escapes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_SCRIPT_SAFE)


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def page_policy(script: str, connect_self: bool = False) -> str:
    """The Content-Security-Policy of a page made by :func:`page` with this script: only its own CSS and script."""
    css = asset("rattus.css")
    js = asset("common.js") + asset(script)
    connect = "'self'" if connect_self else "'none'"
    return (f"default-src 'none'; style-src {_digest(css)}; script-src {_digest(js)}; img-src 'none'; "
            f"connect-src {connect}; base-uri 'none'; form-action 'none'")


def page(title: str, body: str, data: Any, script: str, connect_self: bool = False) -> str:
    """An HTML page: ``body`` (trusted markup), ``data`` as JSON, the CSS, ``common.js`` and the named script
    inline."""
    css = asset("rattus.css")
    js = asset("common.js") + asset(script)
    policy = page_policy(script, connect_self)
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{css}</style>",
        "</head>",
        "<body>",
        body,
        f'<script type="application/json" id="rattus-data">{json_for_script(data)}</script>',
        f"<script>{js}</script>",
        "</body>",
        "</html>",
        "",
    ])
