"""Output that cannot steer the terminal: control characters from input are shown as escapes.

Records, scenarios and data are untrusted, and their texts (seat names, action
texts, keys) end up in messages.  A control character in them (an escape
sequence, a carriage return, a bidirectional override) could move the cursor,
clear a line or reorder text, so that a record prints a fake verdict.  The
command line therefore writes through :class:`EscapingStream`, which shows
every such character as a ``\\uXXXX`` escape (also valid inside JSON strings);
line ends and tabs pass.
"""

from __future__ import annotations

from typing import Any, TextIO

_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_CONTROLS = [c for c in (*range(0x00, 0x20), *range(0x7F, 0xA0), *_BIDI) if chr(c) not in "\n\t"]
#: Every character to escape, with its escape.
ESCAPES = {c: f"\\u{c:04x}" for c in _CONTROLS}


def escape_controls(text: str) -> str:
    """The text with control and bidirectional-control characters (not line ends or tabs) as escapes."""
    return text.translate(ESCAPES)


#: The escapes of :data:`ESCAPES`, and line ends and tabs too.
ONE_LINE_ESCAPES = {**ESCAPES, **{ord(c): f"\\u{ord(c):04x}" for c in "\n\t"}}


def one_line(text: str) -> str:
    """The text as one line: every control character, line ends and tabs included, as an escape.

    For names taken from input (seat names, say), which must not start a line of their own.

    >>> one_line("x\\nfake: legal")
    'x\\\\u000afake: legal'
    """
    return text.translate(ONE_LINE_ESCAPES)


class EscapingStream:
    """A text stream that writes everything through :func:`escape_controls` (other calls pass)."""

    def __init__(self, inner: TextIO):
        self.inner = inner

    def write(self, text: str) -> int:
        """Write the escaped text."""
        self.inner.write(escape_controls(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
