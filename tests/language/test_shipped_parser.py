"""The LALR parser shipped beside the grammar is the one the grammar makes.

A grammar change without `make parser` would not give wrong results (a stale
parser is never used: it is rebuilt), but every first load would be slow again;
this test makes the forgotten step visible.
"""

from __future__ import annotations

import lark
import pytest

from interpreter import parser


def test_the_shipped_parser_is_current() -> None:
    made_with = parser.shipped_parser_lark_version()
    assert made_with, "no parser shipped beside the grammar: run `make parser`"
    if made_with != lark.__version__:
        pytest.skip(f"shipped parser made with lark {made_with}, lark {lark.__version__} installed")
    assert parser.shipped_parser(parser.grammar_text()) is not None, "grammar changed: run `make parser`"


def test_a_stale_shipped_parser_is_not_used() -> None:
    assert parser.shipped_parser(parser.grammar_text() + "\n// changed\n") is None


def test_the_shipped_parser_parses_like_a_fresh_one() -> None:
    shipped = parser.shipped_parser(parser.grammar_text())
    if shipped is None:
        pytest.skip("no current shipped parser for this lark version")
    fresh = lark.Lark(parser.grammar_text(), **parser._LARK_OPTIONS)
    text = 'game g "G"\nprocedure p cite s "a" "b" { let x = if a then [1, 2] else sum(q in players: q) }\n'
    assert shipped.parse(text) == fresh.parse(text)
