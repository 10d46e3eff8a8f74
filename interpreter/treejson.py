"""Syntax trees as strict JSON (for the on-disk cache), checked part by part when read back.

A node is a list ``[class name, field, field, ...]``, a position a list
``[path, line, column, end line, end column]``, a tuple a list.  Reading back
is driven by the field types of :mod:`interpreter.ast`: a node of a class its
place does not allow, a field of the wrong type, a name the grammar could not
produce, an operator the language does not have, a wrong length or too deep a
nesting is refused with :class:`ValueError`.  So a tree read back can hold no
more than a tree the parser makes: names stay names, which matters because the
compiler writes names into the Python code it generates.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable
from typing import Any

import attrs

from . import ast as A

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: Deeper JSON than this is refused (the parser keeps real trees far shallower).
MAX_DEPTH = 1000

#: Fields holding free text (a string literal of the spec); every other text field is a name.
_FREE_TEXT = {
    (A.Citation, "section"), (A.Citation, "quote"), (A.Literal, "value"),
    (A.GameDecl, "title"), (A.SourceDecl, "title"), (A.SourceDecl, "file"), (A.TableDecl, "file"),
    (A.SwitchOption, "value"), (A.SwitchOption, "description"), (A.SwitchDecl, "question"),
    (A.SettingDecl, "question"), (A.PictureClick, "verb"),
    (A.Say, "template"), (A.Option, "verb"), (A.Chance, "verb"), (A.SpecFile, "path"),
    (A.TextSection, "title"), (A.TextSection, "sentences"), (A.Waiver, "section"), (A.Waiver, "quotes"),
    (A.Waiver, "where"),
}
#: Fields holding one of a few words.
_CHOICES: dict[tuple[type, str], frozenset[str]] = {
    (A.Unary, "op"): frozenset({"-", "not"}),
    (A.Binary, "op"): frozenset({"+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=",
                                 "in", "not in", "and", "or", ".."}),
    (A.Assign, "op"): frozenset({"=", "+=", "-="}),
    (A.Aggregate, "kind"): frozenset({"all", "any", "count", "sum", "most", "least", "first"}),
    (A.StateDecl, "kind"): frozenset({"counter", "var"}),
    (A.Condition, "kind"): frozenset({"check", "invariant"}),
    (A.PicturePart, "part"): frozenset(A.PICTURE_PARTS),
}

_Decoder = Callable[[Any, int], Any]


def encode(node: object) -> object:
    """A syntax tree (or part of one) as plain JSON data."""
    if isinstance(node, A.Pos):
        return [node.path, node.line, node.column, node.end_line, node.end_column]
    if attrs.has(type(node)):
        fields = attrs.fields(type(node))  # type: ignore[arg-type]
        return [type(node).__name__, *(encode(getattr(node, f.name)) for f in fields)]
    if isinstance(node, tuple):
        return [encode(item) for item in node]
    if node is None or isinstance(node, (str, int)):
        return node
    raise TypeError(f"not part of a syntax tree: {type(node).__name__}")


def decode_spec_file(data: object) -> A.SpecFile:
    """The :class:`ast.SpecFile` written by :func:`encode`; ValueError on anything else."""
    try:
        result = _node_decoder((A.SpecFile,))(data, 0)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    assert isinstance(result, A.SpecFile)
    return result


def _fail(what: str) -> typing.NoReturn:
    raise ValueError(f"not a syntax tree: {what}")


def _decode_pos(data: Any, depth: int) -> A.Pos:
    if not (type(data) is list and len(data) == 5 and type(data[0]) is str
            and all(type(n) is int and n >= 0 for n in data[1:])):
        _fail("position")
    return A.Pos(*data)


def _text_decoder(place: tuple[type, str]) -> _Decoder:
    choices = _CHOICES.get(place)
    pattern = None if place in _FREE_TEXT or choices is not None else _NAME

    def decode(data: Any, depth: int) -> str:
        if type(data) is not str:
            _fail(f"{place[0].__name__}.{place[1]} is not text")
        if choices is not None and data not in choices:
            _fail(f"{place[0].__name__}.{place[1]} {data!r}")
        if pattern is not None and not pattern.match(data):
            _fail(f"{place[0].__name__}.{place[1]} is not a name: {data!r}")
        return data
    return decode


def _scalar_decoder(allowed: tuple[type, ...], place: tuple[type, str]) -> _Decoder:
    text = _text_decoder(place)

    def decode(data: Any, depth: int) -> Any:
        if type(data) not in allowed:
            _fail(f"{place[0].__name__}.{place[1]} has type {type(data).__name__}")
        return text(data, depth) if type(data) is str else data
    return decode


def _optional(inner: _Decoder) -> _Decoder:
    def decode(data: Any, depth: int) -> Any:
        return None if data is None else inner(data, depth)
    return decode


def _sequence(inner: _Decoder) -> _Decoder:
    def decode(data: Any, depth: int) -> tuple[Any, ...]:
        if type(data) is not list:
            _fail("expected a list")
        return tuple(inner(item, depth + 1) for item in data)
    return decode


def _fixed(inners: list[_Decoder]) -> _Decoder:
    def decode(data: Any, depth: int) -> tuple[Any, ...]:
        if type(data) is not list or len(data) != len(inners):
            _fail(f"expected a list of {len(inners)}")
        return tuple(inner(item, depth + 1) for inner, item in zip(inners, data))
    return decode


def _decoder(tp: Any, place: tuple[type, str]) -> _Decoder:
    """How to read a value of type ``tp`` (a field type of an ast class) at ``place``."""
    if tp is A.Pos:
        return _decode_pos
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        members = tuple(a for a in args if a is not type(None))
        inner = (_node_decoder(members) if all(attrs.has(m) for m in members)
                 else _scalar_decoder(members, place))
        return _optional(inner) if len(members) < len(args) else inner
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _sequence(_decoder(args[0], place))
        return _fixed([_decoder(a, place) for a in args])
    if attrs.has(tp):
        return _node_decoder((tp,))
    if tp in (str, int, bool):
        return _scalar_decoder((tp,), place)
    raise TypeError(f"no JSON form for {tp!r}")  # a new kind of field in ast.py


_FIELDS: dict[type, list[_Decoder]] = {}


def _fields(cls: type) -> list[_Decoder]:
    """The field decoders of an ast class (made on first use; classes refer to each other)."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls, vars(A))
        found = _FIELDS[cls] = []
        found.extend(_decoder(hints[f.name], (cls, f.name)) for f in attrs.fields(cls))
    return found


def _node_decoder(allowed: tuple[type, ...]) -> _Decoder:
    by_name = {cls.__name__: cls for cls in allowed}

    def decode(data: Any, depth: int) -> Any:
        if depth > MAX_DEPTH:
            _fail("nested too deeply")
        if type(data) is not list or not data or type(data[0]) is not str:
            _fail("expected a node")
        cls = by_name.get(data[0])
        if cls is None:
            _fail(f"a {data[0]!r} node is not allowed here")
        fields = _fields(cls)
        if len(data) != len(fields) + 1:
            _fail(f"{data[0]} has {len(data) - 1} fields, not {len(fields)}")
        return cls(*(field(item, depth + 1) for field, item in zip(fields, data[1:])))
    return decode
