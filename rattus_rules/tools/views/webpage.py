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
import re
from importlib import resources
from typing import Any

_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
#: What XML 1.0 does not allow in a document (its ``Char`` production leaves these out): C0 controls but tab,
#: line feed and carriage return; lone surrogates; U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _notation(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def xml_safe(text: str) -> str:
    r"""``text`` with every character XML 1.0 does not allow written as its ``\uXXXX`` notation (visible text),
    so that a picture or page holding it stays well-formed.

    >>> xml_safe("P\ufffe1\x01")
    'P\\ufffe1\\u0001'
    """
    return _NOT_XML.sub(_notation, text)


@functools.cache
def asset(name: str) -> str:
    """A file of ``rattus_rules/web/`` as text."""
    return resources.files("rattus_rules").joinpath("web", name).read_text(encoding="utf-8")


def json_for_script(data: Any) -> str:
    """JSON that can stand inside a ``<script>`` element: ``<``, ``>`` and ``&`` written as ``\\u`` escapes, and
    so is every character XML 1.0 does not allow (JSON's escape gives the script the same text)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return _NOT_XML.sub(_notation, text.translate(_SCRIPT_SAFE))


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
