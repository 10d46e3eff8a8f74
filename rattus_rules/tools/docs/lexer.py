"""A Pygments lexer for the rules language, so that ``rules`` code blocks are highlighted.

The keywords are read from the grammar itself (every quoted word in
``interpreter/grammar.lark``), so the lexer follows the language as it grows.
Registered as the Pygments lexer ``rules`` (entry point in pyproject.toml)
and in the documentation's Sphinx configuration.

>>> from pygments import highlight
>>> from pygments.formatters import NullFormatter
>>> tokens = list(RulesLexer().get_tokens('rule r cite rulebook "A" "b" { x += 1 }  # note'))
>>> [value for kind, value in tokens if kind in Keyword]
['rule', 'cite']
"""

from __future__ import annotations

import re
from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups, words  # type: ignore[import-untyped]
from pygments.token import (  # type: ignore[import-untyped]
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from interpreter.builtins import BUILTINS, SPECIAL_NAMES
from interpreter.parser import grammar_text, terminal_pattern

#: Words of the language that start a declaration (at the start of a line).
DECLARATION_WORDS = ("game", "source", "players", "enum", "table", "graph", "pieces", "counter", "var",
                     "zone", "scope", "limit", "switch", "check", "invariant", "function", "procedure",
                     "score", "main")
#: Words that are values.
CONSTANT_WORDS = ("true", "false", "none")
#: Aggregates: words followed by a parenthesis.
AGGREGATE_WORDS = ("all", "any", "count", "sum", "most", "least", "first")


def grammar_keywords() -> list[str]:
    """Every keyword of the grammar: the quoted words in ``grammar.lark``."""
    found = set(re.findall(r'"([a-z][a-z_]*)"', grammar_text()))
    return sorted(found)


_KEYWORDS = [w for w in grammar_keywords() if w not in DECLARATION_WORDS + CONSTANT_WORDS + AGGREGATE_WORDS
             and w not in ("and", "or", "not", "in")]


class RulesLexer(RegexLexer):  # type: ignore[misc]
    """Highlights specs written in the rules language (``*.rules``)."""

    name = "Rules"
    aliases: ClassVar[list[str]] = ["rules"]
    filenames: ClassVar[list[str]] = ["*.rules"]
    mimetypes: ClassVar[list[str]] = ["text/x-rules"]

    tokens: ClassVar[dict[str, list[object]]] = {
        "root": [
            (words(DECLARATION_WORDS, prefix=r"^", suffix=r"\b"), Keyword.Declaration),
            (r"\n", Whitespace),
            (r"[ \t\r]+", Whitespace),
            (terminal_pattern("COMMENT"), Comment.Single),
            (r"(cite)(\s+)([A-Za-z_]\w*)", bygroups(Keyword, Whitespace, Name.Namespace)),
            (terminal_pattern("STRING"), String.Double),
            (words(CONSTANT_WORDS, suffix=r"\b"), Keyword.Constant),
            (words(("and", "or", "not", "in"), suffix=r"\b"), Operator.Word),
            (words(AGGREGATE_WORDS, suffix=r"(?=\s*\()"), Name.Builtin),
            (words(tuple(_KEYWORDS), suffix=r"\b"), Keyword),
            (words(tuple(BUILTINS), suffix=r"(?=\s*\()"), Name.Builtin),
            (words(tuple(SPECIAL_NAMES), suffix=r"\b"), Name.Builtin.Pseudo),
            (r"[A-Za-z_]\w*", Name),
            (r"\d+", Number.Integer),
            (r"\.\.|==|!=|<=|>=|\+=|-=|//|[-+*%<>=]", Operator),
            (r"[{}()\[\],:.]", Punctuation),
            (r".", Text),
        ],
    }
