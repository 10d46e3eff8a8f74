"""Action notation: the one writer and reader of action texts, seats and pieces, for any game.

An action is a value: the branch of the decision it takes and the values it
binds (see :class:`Action`).  Its text is the branch's verb, then one word per
bound value, written by the value's checker type:

==============  ==============================  ===========
type            word                            example
==============  ==============================  ===========
``player``      ``P`` and the seat number       ``P2``
``piece:T``     the piece's word (below)        ``#7``
``bool``        ``yes`` / ``no``                ``yes``
``list:T``      the items' words joined by +    ``3+4``
empty list      ``[]``                          ``[]``
no value        ``-``                           ``-``
anything else   the value as text               ``north``
==============  ==============================  ===========

:func:`value_word` writes one value, :func:`words` and :func:`text` an option
(a branch index and its values), refusing with :class:`Unwritable` a value whose
word could not be read back from an action text: a text or key that is empty,
holds a space or is a reserved word, a list inside a list, an item holding
``+``; :class:`Reader` reads words back into values, so that a text is
matched to a legal option by value.  Seats are written by
:func:`seat` (read by :func:`read_seat`) and :func:`who` (a seat or
``chance``) everywhere: actions, logs, records, protocol answers.

This module knows no game: a piece is written by the word its game gives it
(:attr:`interpreter.game.Game.piece_words`): ``#`` and its key (:func:`piece`)
unless whoever loaded the game gave each piece a word of its own
(:meth:`~interpreter.game.Game.write_pieces`: the ``rattus_rules`` package gives
every game the faces its records write, ``draw 3:red+blue``), so that every
text of a game, in its history, log, legal actions and errors, is in one
notation.  Pieces may share a word (two tokens that look alike): a text naming
such a word means the first option in the decision's order that it writes
(:class:`Reader` does not read such words; the state compares texts, the first
taking precedence).  A caller may still pass its own ``piece_word`` (a
player's-eye record writes an unseen piece ``?``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, assert_never

import attrs

from .ast import NOWHERE
from .errors import RuleError
from .errors import shown as _shown
from .types import (
    AnyType,
    BoolType,
    EntityType,
    GraphType,
    IntType,
    ListType,
    NoneType,
    PieceType,
    PlayerType,
    SwitchType,
    TextType,
    Type,
    ZoneType,
    element_type,
)


class Bound(Protocol):
    """What notation reads of a decision's bound variable: its type."""

    @property
    def type(self) -> Type:
        """The checker's type of the variable (it decides how its value is written)."""


class Branch(Protocol):
    """What notation reads of a decision's branch: its verb and its bound variables, in order."""

    @property
    def verb(self) -> str:
        """The first word of the branch's action texts."""

    @property
    def bindings(self) -> Sequence[Bound]:
        """The variables the branch binds, in the order their words follow the verb."""

#: The player of a chance event (`State.current_player` while it waits for its outcome).
CHANCE_PLAYER = -1
#: How chance is written where a seat would be.
CHANCE = "chance"
SEAT_PREFIX = "P"
PIECE_PREFIX = "#"
#: The word of a missing value (``none``).
NO_VALUE = "-"
#: Joins the words of a list's items.
LIST_JOIN = "+"
#: The word of an empty list.
EMPTY_LIST = "[]"
#: The longest action text (a stored state's history holds no longer one).
MAX_ACTION_TEXT = 10_000
YES, NO = "yes", "no"
#: At most this many readings of a text naming pieces by words they share (:meth:`Reader.alike`).
MAX_ALIKE = 64

#: An option of a decision: (branch index, bound values).
Option = tuple[int, tuple[Any, ...]]


# ------------------------------------------------------------------ seats
def seat(player: int) -> str:
    """A seat as actions, logs and records write it: ``P0``, ``P1``…"""
    return f"{SEAT_PREFIX}{player}"


def who(player: int) -> str:
    """Who decides: a seat (:func:`seat`), or ``chance`` for :data:`CHANCE_PLAYER`."""
    return CHANCE if player == CHANCE_PLAYER else seat(player)


def read_seat(word: str) -> int | None:
    """The seat number a word writes (``P3`` → 3), or None if it writes none."""
    digits = word[len(SEAT_PREFIX):]
    if word.startswith(SEAT_PREFIX) and digits.isascii() and digits.isdigit() and str(int(digits)) == digits:
        return int(digits)
    return None


# ----------------------------------------------------------------- values
def is_piece_type(t: Type) -> bool:
    """Whether values of checker type ``t`` are pieces (written by their word, or a caller's)."""
    return isinstance(t, PieceType)


def piece(key: Any) -> str:
    """A piece's word by its key, ``#7``: how a game writes its pieces unless given words of its own."""
    return f"{PIECE_PREFIX}{key}"


def value_word(value: Any, t: Type, piece_words: Sequence[str],
               piece_word: Callable[[int], str] | None = None) -> str:
    """The word of a value of checker type ``t`` in an action, a log line or a view (a piece by
    ``piece_word`` if given, else by its word among ``piece_words``: see the module)."""
    if value is None:
        return NO_VALUE
    if isinstance(t, PlayerType):
        return seat(value)
    if isinstance(t, PieceType):
        return piece_words[value] if piece_word is None else piece_word(value)
    if isinstance(value, bool):
        return YES if value else NO
    if isinstance(value, list):
        if not value:
            return EMPTY_LIST
        return LIST_JOIN.join(value_word(v, element_type(t), piece_words, piece_word) for v in value)
    return str(value)


class Unwritable(RuleError):
    """An option's value that no action text can write so that it reads back as that value.

    Raised by :func:`words` and :func:`text`, with no position: the runtime raises it again
    at the decision (:meth:`interpreter.compiler.Decision.text`).
    """

    def __init__(self, message: str) -> None:
        super().__init__(message, NOWHERE)


def action_word(value: Any, t: Type, piece_words: Sequence[str],
                piece_word: Callable[[int], str] | None = None) -> str:
    """:func:`value_word` of a value an option binds; :class:`Unwritable` unless it is one
    word that reads back: no space in it, not empty, not a reserved word (``-``, ``[]``), and
    a list of such words none of which holds ``+`` (no list in a list)."""
    kind = type(value)
    if (kind is int and not isinstance(t, PieceType)) or kind is bool or value is None:
        return value_word(value, t, piece_words, piece_word)  # a number, a seat, yes/no or -
    word = value_word(value, t, piece_words, piece_word)
    if kind is list:
        for item in value:
            if type(item) is list:
                raise Unwritable(f"an option binds a list inside a list, {_shown(value)}: its text could "
                                 f"not say where each list ends")
            item_word = value_word(item, element_type(t), piece_words, piece_word)
            if item_word == EMPTY_LIST or LIST_JOIN in item_word or _spaced(item_word):
                raise Unwritable(f"an option binds a list holding {_shown(item)}, which its text "
                                 f"could not write as one item")
    if _spaced(word) or (word in _RESERVED and kind is not list):
        raise Unwritable(f"an option binds {_shown(value)}, which an action text cannot write as one word")
    if word == NO_VALUE:  # a list of one item written -: it would be read as none
        raise Unwritable(f"an option binds {_shown(value)}, which an action text would write as none")
    return word


#: Words that write a value of their own: a text or key written so would be read as that value.
_RESERVED = frozenset({NO_VALUE, EMPTY_LIST})
_SPACE = re.compile(r"\s")


def _spaced(word: str) -> bool:
    """Whether a word is empty or would be split in two (or more) by ``str.split``."""
    return not word or _SPACE.search(word) is not None


def words(branch: Branch, values: Sequence[Any], piece_words: Sequence[str],
          piece_word: Callable[[int], str] | None = None) -> list[str]:
    """An option's words: the verb, then each value's word (a piece by ``piece_word`` if given);
    :class:`Unwritable` for a value no action text can write (see :func:`action_word`), or
    words longer in all than :data:`MAX_ACTION_TEXT`."""
    out = [branch.verb, *(action_word(v, b.type, piece_words, piece_word) for v, b in zip(values, branch.bindings))]
    if sum(map(len, out)) + len(out) > MAX_ACTION_TEXT:
        raise Unwritable(f"an option's action text would be longer than {MAX_ACTION_TEXT} characters")
    return out


def text(branch: Branch, values: Sequence[Any], piece_words: Sequence[str],
         piece_word: Callable[[int], str] | None = None) -> str:
    """An option's text: its :func:`words` joined by spaces."""
    if not values:
        return branch.verb
    return " ".join(words(branch, values, piece_words, piece_word))


def normal(action_text: str) -> str:
    """An action text with its words separated by single spaces (how texts are compared)."""
    return " ".join(action_text.split())


# ---------------------------------------------------------------- actions
@attrs.frozen
class Action:
    """A legal move as a value: the decision branch it takes and the values it binds, with its text.

    ``verb`` and ``args`` are the words of :attr:`text` (``take 3``, ``move north 2``).  Two
    actions are equal (and hash alike) when their texts are equal, whichever state they came
    from: the text is what logs, records and protocols exchange.  ``index``, ``branch`` and
    ``values`` say where the action sits among the legal actions of the state that listed it
    (:meth:`State.legal_actions`); they are not compared (two pieces that look alike make equal
    actions: one listed is applied by its index, while its text names the first of them).  An
    action made from text alone (:meth:`from_text`) has ``index`` -1 and no values: applying it
    reads its text.
    """

    verb: str
    args: tuple[str, ...]
    index: int = attrs.field(eq=False, repr=False, default=-1)
    branch: int = attrs.field(eq=False, repr=False, default=-1)
    values: tuple[Any, ...] = attrs.field(eq=False, repr=False, default=())

    @property
    def text(self) -> str:
        """The action as text, as used in logs and records."""
        return " ".join((self.verb, *self.args)) if self.args else self.verb

    @property
    def option(self) -> Option:
        """The (branch index, values) this action takes in the state that listed it."""
        return (self.branch, self.values)

    @classmethod
    def from_text(cls, action_text: str) -> Action:
        """The action a text writes (not checked against any state); ValueError if it is empty."""
        parts = action_text.split()
        if not parts:
            raise ValueError("an action text has a verb")
        return cls(parts[0], tuple(parts[1:]))

    def __str__(self) -> str:
        return self.text


# ---------------------------------------------------------------- reading
class Unreadable(ValueError):
    """A word that is not the word of any value of a type (or a type this reader does not read)."""


_Parse = Callable[[str], Any]


class Reader:
    """Reads words back into values, by checker type, for one game's pieces and tables.

    Reading is exact: a word is read only if writing the value read gives the same
    word back (``01`` is not the word of 1), so a text matched by its values is the
    text of the option matched.  Types whose words are ambiguous (``any``, keys that
    print alike, the word ``-``) are not read, nor a piece's word that another piece
    shares: callers then compare texts.
    """

    def __init__(self, piece_words: Sequence[str], table_keys: Mapping[str, Sequence[Any]]):
        self.piece_words = piece_words
        self.table_keys = table_keys
        self._parsers: dict[Type, _Parse] = {}
        # id of a branch -> (the branch, kept so that its id is not reused; a parser per binding)
        self._by_branch: dict[int, tuple[Branch, list[_Parse]]] = {}
        self._keys: dict[str, set[tuple[type, Any]]] = {}  # a table's keys with their kinds

    def value(self, word: str, t: Type) -> Any:
        """The value of type ``t`` written ``word``; :class:`Unreadable` if there is none (or it is ambiguous)."""
        return self._parser_of(t)(word)

    def values(self, branch: Branch, args: Sequence[str]) -> tuple[Any, ...] | None:
        """The values a branch's words write, or None if they write none (or cannot be read)."""
        bindings = branch.bindings
        if len(bindings) != len(args):
            return None
        known = self._by_branch.get(id(branch))
        if known is not None and known[0] is branch:
            parsers = known[1]
        else:
            parsers = [self._parser_of(b.type) for b in bindings]
            self._by_branch[id(branch)] = (branch, parsers)
        try:
            return tuple([parse(w) for parse, w in zip(parsers, args)])
        except Unreadable:
            return None

    def alike(self, branch: Branch, args: Sequence[str]) -> list[tuple[Any, ...]]:
        """The values a branch's words may write where a piece's word is shared by several pieces
        (pieces that look alike): one tuple per such piece, in piece order; none if no word is
        shared, the others cannot be read (:meth:`values` reads the rest), or there would be more
        than :data:`MAX_ALIKE` (the caller then compares texts)."""
        bindings = branch.bindings
        shared = self._shared
        if len(bindings) != len(args) or not any(w in shared for w in args):
            return []
        out: list[tuple[Any, ...]] = [()]
        for binding, word in zip(bindings, args):
            if isinstance(binding.type, PieceType) and word in shared:
                if len(out) * len(shared[word]) > MAX_ALIKE:
                    return []
                out = [v + (p,) for v in out for p in shared[word]]
                continue
            try:
                value = self.value(word, binding.type)
            except Unreadable:
                return []
            out = [v + (value,) for v in out]
        return out

    @functools.cached_property
    def _shared(self) -> dict[str, list[int]]:
        """Each word several pieces share, with those pieces."""
        by_word: dict[str, list[int]] = {}
        for piece_id, word in enumerate(self.piece_words):
            by_word.setdefault(word, []).append(piece_id)
        return {w: found for w, found in by_word.items() if len(found) > 1}

    def fits(self, branch: Branch, values: Sequence[Any]) -> bool:
        """Whether ``values`` are of the exact kinds of Python value the branch's bindings hold.

        A bool is not a number here, a tuple is not a list and a float is no value of any type:
        a value that only compares equal to a legal one (``True == 1``, ``1.0 == 1``) is not
        taken for it, so an option given as values binds what the listing would have bound.
        Where the type does not say the kind (``any``, a table whose keys this reader does not
        have: see :meth:`kinds_known`), any plain value (none, yes/no, a number, a text, a list
        of these) fits.
        """
        bindings = branch.bindings
        return len(bindings) == len(values) and all(
            self._fits(v, b.type) for v, b in zip(values, bindings))

    def holds(self, value: Any, t: Type) -> bool:
        """Whether ``value`` is of the exact kind of Python value a value of type ``t`` is (see :meth:`fits`)."""
        return self._fits(value, t)

    def kinds_known(self, branch: Branch) -> bool:
        """Whether the types of a branch's bindings say the exact kind of each value (see :meth:`fits`)."""
        return all(self._known(b.type) for b in branch.bindings)

    def _known(self, t: Type) -> bool:
        match t:
            case PlayerType() | IntType() | PieceType() | BoolType() | TextType():
                return True
            case EntityType(table=table):
                return table in self.table_keys
            case ListType(elem=item):
                return self._known(item)
            case AnyType() | NoneType() | ZoneType() | GraphType() | SwitchType():
                return False
            case _:
                assert_never(t)

    def _fits(self, value: Any, t: Type) -> bool:
        match t:
            case PlayerType() | IntType():
                return type(value) is int
            case PieceType():
                return type(value) is int and 0 <= value < len(self.piece_words)
            case BoolType():
                return type(value) is bool
            case TextType():
                return type(value) is str
            case EntityType(table=table) if table in self.table_keys:
                keys = self._keys.get(table)
                if keys is None:
                    keys = self._keys[table] = {(type(k), k) for k in self.table_keys[table]}
                return type(value) in _SCALARS and (type(value), value) in keys
            case ListType(elem=item):
                return type(value) is list and all(self._fits(v, item) for v in value)
            case EntityType() | AnyType() | NoneType() | ZoneType() | GraphType() | SwitchType():
                return _plain(value)
            case _:
                assert_never(t)

    def _parser_of(self, t: Type) -> _Parse:
        parse = self._parsers.get(t)
        if parse is None:
            parse = self._parsers[t] = self._parser(t)
        return parse

    def _parser(self, t: Type) -> _Parse:
        match t:
            case PlayerType():
                return _seat
            case PieceType():
                return _pieces(self.piece_words)
            case BoolType():
                return _by_word({YES: True, NO: False}, 2)
            case IntType():
                return _int
            case TextType():
                return _text
            case EntityType(table=table) if table in self.table_keys:
                keys = self.table_keys[table]
                return _by_word({str(k): k for k in keys}, len(keys))
            case ListType(elem=item):
                def items(word: str) -> list[Any]:
                    if word == EMPTY_LIST:
                        return []
                    out = [self.value(w, item) for w in word.split(LIST_JOIN)]
                    if value_word(out, t, self.piece_words) != word:
                        raise Unreadable(word)
                    return out
                return items
            # values these words cannot tell apart (1 and "1" print alike), or no action binds
            case EntityType() | AnyType() | NoneType() | ZoneType() | GraphType() | SwitchType():
                return _unreadable
            case _:
                assert_never(t)


_SCALARS = (type(None), bool, int, str)


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether a value is plain data: none, yes/no, a number, a text, or a list of these."""
    if type(value) in _SCALARS:
        return True
    return type(value) is list and depth < 32 and all(_plain(v, depth + 1) for v in value)


def _seat(word: str) -> int:
    n = read_seat(word)
    if n is None:
        raise Unreadable(word)
    return n


def _by_word(table: dict[str, Any], count: int | None) -> _Parse:
    """Reads the words of a table; none if ``count`` values were written and two print alike (the
    words do not say which), or a value is written ``-`` (none)."""
    if (count is not None and len(table) != count) or NO_VALUE in table:
        return _unreadable

    def read(word: str) -> Any:
        try:
            return table[word]
        except KeyError:
            raise Unreadable(word) from None
    return read


def _pieces(piece_words: Sequence[str]) -> _Parse:
    """Reads a piece's word: only a word no other piece has (a word two pieces share means the first
    option of a decision that writes it, which only the decision's order can tell)."""
    seen: dict[str, int] = {}
    for i, word in enumerate(piece_words):
        seen[word] = -1 if word in seen else i
    return _by_word({word: i for word, i in seen.items() if i >= 0}, None)


def _int(word: str) -> int:
    digits = word[1:] if word.startswith("-") else word
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 40 or str(int(word)) != word:
        raise Unreadable(word)
    return int(word)


def _text(word: str) -> str:
    if word == NO_VALUE:
        raise Unreadable(word)
    return word


def _unreadable(word: str) -> Any:
    raise Unreadable(word)


__all__ = [
    "CHANCE",
    "CHANCE_PLAYER",
    "Action",
    "Option",
    "Reader",
    "Unreadable",
    "is_piece_type",
    "normal",
    "piece",
    "read_seat",
    "seat",
    "text",
    "value_word",
    "who",
    "words",
]
