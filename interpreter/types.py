"""The types the checker gives every expression: frozen values, one class per kind.

:data:`Type` is a closed union; a pass that treats each kind apart matches on it
and ends in ``assert_never``, so mypy names a kind it forgets.  A type prints as
the checker's messages show it (``int``, ``entity:T``, ``list:piece:P`` ...).
:func:`spec_type` is the one reader of a type written in a spec (a parameter's
``name: type``).

>>> str(ListType(EntityType("colours")))
'list:entity:colours'
>>> element_type(ListType(PLAYER)) == PLAYER
True
"""

from __future__ import annotations

from collections.abc import Container

import attrs


@attrs.frozen
class IntType:
    """A whole number."""

    def __str__(self) -> str:
        return "int"


@attrs.frozen
class BoolType:
    """A yes/no value (a condition)."""

    def __str__(self) -> str:
        return "bool"


@attrs.frozen
class TextType:
    """A text."""

    def __str__(self) -> str:
        return "text"


@attrs.frozen
class PlayerType:
    """A player (a seat number)."""

    def __str__(self) -> str:
        return "player"


@attrs.frozen
class NoneType:
    """The type of `none`."""

    def __str__(self) -> str:
        return "none"


@attrs.frozen
class AnyType:
    """Not known to the checker: anything goes."""

    def __str__(self) -> str:
        return "any"


@attrs.frozen
class EntityType:
    """A row key of a table, or a value of an enum."""

    table: str

    def __str__(self) -> str:
        return f"entity:{self.table}"


@attrs.frozen
class PieceType:
    """A piece of a `pieces` declaration."""

    pieces: str

    def __str__(self) -> str:
        return f"piece:{self.pieces}"


@attrs.frozen
class ZoneType:
    """A zone holding pieces of a `pieces` declaration."""

    pieces: str

    def __str__(self) -> str:
        return f"zone:{self.pieces}"


@attrs.frozen
class ListType:
    """A list of values of one type."""

    elem: Type

    def __str__(self) -> str:
        return f"list:{self.elem}"


@attrs.frozen
class GraphType:
    """A graph declaration, named."""

    graph: str

    def __str__(self) -> str:
        return f"graph:{self.graph}"


@attrs.frozen
class SwitchType:
    """The setting of a switch."""

    switch: str

    def __str__(self) -> str:
        return f"switch:{self.switch}"


Type = (
    IntType
    | BoolType
    | TextType
    | PlayerType
    | NoneType
    | AnyType
    | EntityType
    | PieceType
    | ZoneType
    | ListType
    | GraphType
    | SwitchType
)

INT = IntType()
BOOL = BoolType()
TEXT = TextType()
PLAYER = PlayerType()
NONE = NoneType()
ANY = AnyType()

#: The types a spec names with a word of its own (besides tables, enums and pieces).
BASIC_TYPES: dict[str, Type] = {"int": INT, "bool": BOOL, "text": TEXT, "player": PLAYER}


def element_type(t: Type) -> Type:
    """The type of the items of a list type (``any`` for any other type)."""
    return t.elem if isinstance(t, ListType) else ANY


#: The column types a table declares by a word of their own (besides enums and other tables).
COLUMN_TYPES: dict[str, Type] = {"int": INT, "text": TEXT, "flag": BOOL, "set": ListType(TEXT)}


def column_type(name: str, entities: Container[str]) -> Type | None:
    """The type of the values of a table column the spec declares as ``name``: a basic
    column type (``int``, ``text``, ``flag`` — yes/no —, ``set`` — ``+``-separated
    words), or an enum or another table (``entities``); None if it names none of them.

    >>> column_type("flag", ()), column_type("set", ()), column_type("colour", {"colour"})
    (BoolType(), ListType(elem=TextType()), EntityType(table='colour'))
    """
    return _named(name, COLUMN_TYPES, entities)


def spec_type(name: str, pieces: Container[str], entities: Container[str]) -> Type | None:
    """The type a spec writes as ``name`` (after ``param:``): a basic type, a `pieces`
    declaration, or a table or enum (``entities``); None if it names none of them."""
    if name in pieces:
        return PieceType(name)
    return _named(name, BASIC_TYPES, entities)


def _named(name: str, basic: dict[str, Type], entities: Container[str]) -> Type | None:
    """A type by a word of its own (``basic``), else an entity (a table or enum), else None."""
    if name in basic:
        return basic[name]
    return EntityType(name) if name in entities else None
