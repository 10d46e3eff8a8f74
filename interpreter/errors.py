"""Error types of the rules language.

Spec problems are reported as :class:`Diagnostic` values (``path:line:col:
message`` with the offending line and a caret), collected into one
:class:`SpecError`.  Problems found while a game runs are :class:`RuleError`
(a spec that cannot go on), :class:`IllegalAction` (a move the rules forbid)
and :class:`InvariantViolation`; each carries the citations of the rule
concerned.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from .ast import Citation, Pos

#: At most this many characters of a source line are shown under a diagnostic.
SHOWN_LINE = 160


@attrs.frozen
class Diagnostic:
    """One problem in spec text, at a position."""

    pos: Pos
    message: str
    source_line: str = ""
    #: The problem is that a file given by the user (``data``) could not be read at all: not a regular
    #: file, too large, not text, or an error of the system (a command line calls that bad input).
    unreadable_input: bool = False

    def format(self) -> str:
        """``path:line:col: message`` with the line and a caret under the column."""
        head = f"{self.pos.path}:{self.pos.line}:{self.pos.column}: {self.message}"
        if not self.source_line:
            return head
        line = self.source_line.rstrip("\n").expandtabs(1)
        column = max(self.pos.column - 1, 0)
        if len(line) > SHOWN_LINE:  # a window around the column, so that a huge line stays short
            start = max(0, min(column - SHOWN_LINE // 2, len(line) - SHOWN_LINE))
            line = ("..." if start else "") + line[start:start + SHOWN_LINE] + (
                "..." if start + SHOWN_LINE < len(line) else "")
            column = column - start + (3 if start else 0)
        return f"{head}\n    {line}\n    {' ' * column}^"


def shown(value: Any) -> str:
    """A value's repr for a message, cut to 80 characters (a number too long to print is named so)."""
    try:
        return f"{value!r:.80}"
    except ValueError:  # an int of more digits than Python prints
        return "(a value too long to show)"


class RulesError(Exception):
    """Base class of every error the language raises on purpose."""


class SpecError(RulesError):
    """A spec (or its component data) is malformed; holds every problem found."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))


def format_citations(citations: Iterable[Citation]) -> str:
    """The citations as one line each, for messages."""
    return "\n".join(f"  cites {c}" for c in citations)


class RuleError(RulesError):
    """The spec reached a state it cannot go on from (for example an empty decision)."""

    def __init__(self, message: str, pos: Pos, citations: Sequence[Citation] = ()):
        self.message = message
        self.pos = pos
        self.citations = tuple(citations)
        text = f"{pos}: {message}"
        if self.citations:
            text += "\n" + format_citations(self.citations)
        super().__init__(text)


class IllegalAction(RulesError):
    """An action that is not legal in the state it was applied to.

    ``reason`` says why, ``citations`` name the rule text it breaks and
    ``legal`` lists what was legal instead.  The state is left unchanged.
    """

    def __init__(
        self,
        action: str,
        reason: str,
        citations: Sequence[Citation] = (),
        legal: Sequence[str] = (),
    ):
        self.action = action
        self.reason = reason
        self.citations = tuple(citations)
        self.legal = tuple(legal)
        text = f"illegal action {action!r}: {reason}"
        if self.citations:
            text += "\n" + format_citations(self.citations)
        super().__init__(text)


class InvariantViolation(RulesError):
    """A declared invariant does not hold; names it and its citation."""

    def __init__(self, name: str, pos: Pos, citations: Sequence[Citation], after: str = ""):
        self.name = name
        self.pos = pos
        self.citations = tuple(citations)
        text = f"{pos}: invariant {name} is broken"
        if after:
            text += f" after {after!r}"
        if self.citations:
            text += "\n" + format_citations(self.citations)
        super().__init__(text)
