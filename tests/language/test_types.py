"""The checker's types (interpreter/types.py): frozen values, one class per kind, printed as
the messages have always shown them, and read from a spec by one function."""

from __future__ import annotations

import doctest
from pathlib import Path
from typing import get_args

import attrs
import pytest

from interpreter import types as T
from interpreter.types import (
    ANY,
    BOOL,
    INT,
    NONE,
    PLAYER,
    TEXT,
    EntityType,
    GraphType,
    ListType,
    PieceType,
    SwitchType,
    ZoneType,
    column_type,
    element_type,
    spec_type,
)


def test_every_kind_prints_as_messages_show_it() -> None:
    kinds = [INT, BOOL, TEXT, PLAYER, NONE, ANY, EntityType("colours"), PieceType("stone"), ZoneType("stone"),
             ListType(ListType(PLAYER)), GraphType("paths"), SwitchType("variant")]
    assert [str(t) for t in kinds] == ["int", "bool", "text", "player", "none", "any", "entity:colours",
                                       "piece:stone", "zone:stone", "list:list:player", "graph:paths",
                                       "switch:variant"]
    assert {type(t) for t in kinds} == set(get_args(T.Type))  # one of each kind


def test_every_class_of_the_module_is_a_kind() -> None:
    classes = {v for v in vars(T).values() if isinstance(v, type) and attrs.has(v) and v.__module__ == T.__name__}
    assert classes == set(get_args(T.Type))


def test_types_are_frozen_values() -> None:
    assert ListType(EntityType("a")) == ListType(EntityType("a")) != ListType(EntityType("b"))
    assert len({ListType(INT), ListType(INT), INT}) == 2
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        ListType(INT).elem = BOOL  # type: ignore[misc]


def test_element_type() -> None:
    assert element_type(ListType(PieceType("p"))) == PieceType("p")
    assert element_type(INT) == ANY


def test_spec_type_reads_the_types_a_spec_names() -> None:
    pieces, entities = {"stone"}, {"colours", "int"}
    assert spec_type("stone", pieces, entities) == PieceType("stone")
    assert spec_type("player", pieces, entities) == PLAYER
    assert spec_type("int", pieces, entities) == INT  # the basic type before a table of that name
    assert spec_type("colours", pieces, entities) == EntityType("colours")
    assert spec_type("nothing", pieces, entities) is None


def test_column_type_reads_the_column_types_a_table_declares() -> None:
    entities = {"colours", "fields", "flag"}
    assert [column_type(w, entities) for w in ("int", "text", "flag", "set")] == [INT, TEXT, BOOL, ListType(TEXT)]
    assert column_type("colours", entities) == EntityType("colours")  # an enum or a table
    assert column_type("bool", entities) is None and column_type("player", entities) is None  # not column words


def test_column_words_are_read_by_column_type_only() -> None:
    # one definition: no other module tells column types apart by their words
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    word = re.compile(r"""(==|!=|in)\s*\(?["'](flag|set)["']|["'](flag|set)["']\s*:""")
    found = [f"{path.relative_to(root)}:{n}" for folder in ("interpreter", "rattus_rules")
             for path in sorted((root / folder).rglob("*.py")) if path.name != "types.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if word.search(line)]
    assert not found, found


def test_the_module_examples_hold() -> None:
    result = doctest.testmod(T)
    assert result.attempted >= 2 and result.failed == 0


def test_a_tables_column_types_are_read_once_by_the_symbols(tmp_path: Path) -> None:
    # the types the data is read with are those the checker knows: a column naming an enum is
    # checked against it, one naming a table holds that table's keys (text here); no module but the
    # symbols and the checker reads a column's written type again
    from interpreter import SpecError, load_spec
    (tmp_path / "g.rules").write_text('''
game g "G" cite src "S" "x"
source src "A source"
players 2 to 2
main play
enum colour = red, blue
table shades from "shades.csv" {
  key name: text
  column hue: colour
  column next: shades
  column n: int
  cite src "S" "x"
}
procedure play cite src "S" "x" { choose by first_player { "a" cite src "S" "x" { } } }
''', encoding="utf-8")
    (tmp_path / "shades.csv").write_text("name,hue,next,n\nsky,blue,rose,1\nrose,red,sky,2\n", encoding="utf-8")
    game = load_spec(tmp_path)
    assert game.tables["shades"].rows[0] == {"name": "sky", "hue": "blue", "next": "rose", "n": 1}
    assert game.symbols.column_type("shades", "next") == EntityType("shades")
    (tmp_path / "shades.csv").write_text("name,hue,next,n\nsky,green,rose,1\nrose,red,sky,2\n", encoding="utf-8")
    with pytest.raises(SpecError, match=r"column hue: 'green' is not one of red, blue"):
        load_spec(tmp_path)
    import interpreter.data
    assert "column_type" not in Path(interpreter.data.__file__).read_text(encoding="utf-8").replace(
        "Symbols.column_type", "")
