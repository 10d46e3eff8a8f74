"""Rat-token faces written as text: ``threshold:symbols`` such as ``2:M+merchant+monk``.

Records and scenarios name tokens by their face, never by a token id (another
implementation's ids mean nothing here).  Symbols are the card classes (the
spec's ``enum class``: ``peasant merchant monk knight witch king``), ``M``
(Mehrheit, majority) and ``A`` (Alle, all); their order does not matter when a
face is read, and :func:`face_text` writes them in a fixed order: ``M``, ``A``,
then the classes in rulebook order.

>>> str(Face.parse("2:monk+merchant+M"))
'2:M+merchant+monk'
>>> Face.parse("7:M")
Traceback (most recent call last):
...
ValueError: a rat token's threshold is 1 to 6, not 7 (in '7:M')
"""

from __future__ import annotations

import functools

import attrs

from interpreter import Game

from .names import SYMBOLS, THRESHOLD, classes

#: Symbols that are letters, not classes, in the order faces are written.
LETTERS = ("M", "A")


def _order() -> dict[str, int]:
    """Each symbol's place in a written face: the letters, then the classes of the Rattus spec in its order."""
    from rattus_rules.api import load_rules

    return symbol_order(classes(load_rules()))


@functools.lru_cache(maxsize=4)
def symbol_order(classes: tuple[str, ...]) -> dict[str, int]:
    """Each symbol of faces and its place in a written face: the letters, then these classes in order."""
    return {s: i for i, s in enumerate(LETTERS + classes)}

#: The lowest and highest threshold a face may show.
LOWEST, HIGHEST = 1, 6

#: How an unknown face is written in a player's-eye record.
UNKNOWN = "?"


@attrs.frozen(order=False)
class Face:
    """The front of a rat token: a threshold and a set of symbols."""

    threshold: int
    symbols: frozenset[str]

    @classmethod
    def parse(cls, text: str, order: dict[str, int] | None = None) -> Face:
        """Read ``threshold:symbol+symbol...`` (symbols of ``order``, :func:`symbol_order`; None: those of
        the Rattus loaded); raise ValueError with a reason."""
        head, sep, tail = text.strip().partition(":")
        if not sep or not head.strip().isdigit():
            raise ValueError(f"a rat token's face is written threshold:symbols, like 2:M+merchant+monk, "
                             f"not {text!r}")
        threshold = int(head)
        if not LOWEST <= threshold <= HIGHEST:
            raise ValueError(f"a rat token's threshold is {LOWEST} to {HIGHEST}, not {threshold} (in {text!r})")
        symbols = [s.strip() for s in tail.split("+")]
        order = _order() if order is None else order
        for s in symbols:
            if s not in order:
                raise ValueError(f"unknown symbol {s!r} in {text!r} (symbols: {', '.join(order)})")
        if len(set(symbols)) != len(symbols):
            raise ValueError(f"a symbol appears twice in {text!r}")
        return cls(threshold, frozenset(symbols))

    def __str__(self) -> str:
        return self.written(_order())

    def written(self, order: dict[str, int]) -> str:
        """The face as text, its symbols in this order."""
        return f"{self.threshold}:" + "+".join(sorted(self.symbols, key=order.__getitem__))


def piece_face(game: Game, piece: int) -> Face:
    """The face of a token (a piece of the game) by its table row."""
    row = game.piece_rows[piece]
    return Face(int(row[THRESHOLD]), frozenset(str(s) for s in row[SYMBOLS]))


def face_text(game: Game, piece: int) -> str:
    """A token's face as text, e.g. ``2:M+merchant+monk``."""
    return piece_face(game, piece).written(symbol_order(classes(game)))


def face_pattern(game: Game) -> str:
    """A regular expression (unanchored) for a face as records write it: a threshold, a colon,
    symbols joined by ``+`` in any order (:meth:`Face.parse` then reads it)."""
    symbol = "(" + "|".join(symbol_order(classes(game))) + ")"
    return f"[{LOWEST}-{HIGHEST}]:{symbol}(\\+{symbol})*"


def is_face(text: str) -> bool:
    """Whether ``text`` reads as a face."""
    try:
        Face.parse(text)
    except ValueError:
        return False
    return True


@attrs.frozen
class TokenFaces:
    """How Rattus records write rat tokens (:class:`rattus_rules.tools.records.walk.Faces`): by their
    face, ``threshold:symbols`` (this module), or ``?`` unseen."""

    game: Game
    unknown: str = UNKNOWN
    form: str = "threshold:symbols"
    noun: str = "token"
    example: str = "2:M+merchant+monk"

    @property
    def pattern(self) -> str:
        """A threshold, a colon, symbols joined by ``+`` (in any order: the schema does not say which)."""
        return face_pattern(self.game)

    def written(self, piece: int) -> str:
        """A token's face, its symbols in the one order this package writes."""
        return face_text(self.game, piece)

    def canonical(self, word: str) -> str:
        """A face written with its symbols in any order (the game's symbols), written in the one order."""
        return canonical_face(word, classes(self.game))

    def looks_like_face(self, word: str) -> bool:
        """Faces, and only faces, have a colon among an action's words."""
        return ":" in word


@functools.lru_cache(maxsize=4096)
def canonical_face(text: str, symbols: tuple[str, ...] | None = None) -> str:
    """A face as written (symbols in any order) in the one order this package writes; ValueError if none.

    ``symbols``: the game's classes (:func:`rattus_rules.games.rattus.names.classes`); None: those of the Rattus loaded.
    """
    if symbols is None:
        return str(Face.parse(text))
    order = symbol_order(symbols)
    return Face.parse(text, order).written(order)
