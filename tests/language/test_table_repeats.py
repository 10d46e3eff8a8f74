"""Tables on a toy game (issue 24, item 8): a fact given twice is refused at its line, a table has a bounded
number of rows, and a row is found by its key, not by a scan (no tool is worse than linear in a table)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from interpreter import SpecError, load_spec
from interpreter.data import MAX_TABLE_ROWS, Table

NIM = Path(__file__).resolve().parent / "specs" / "nim"
EXTRA = '''
table extra from "extra.csv" {
  column name: text
  column size: int
  cite book "Rules" "The heap holds counters."
}
'''
EDGES = '''
table spots from "spots.csv" {
  key spot: text
  cite book "Rules" "The heap holds counters."
}

table links from "links.csv" {
  column a: spots
  column b: spots
  cite book "Rules" "The heap holds counters."
}

graph ring on spots edges links(a, b)
  cite book "Rules" "The heap holds counters."
'''


def _nim(tmp_path: Path, declarations: str, **files: str) -> Path:
    spec = tmp_path / "nim"
    shutil.copytree(NIM, spec)
    with (spec / "nim.rules").open("a", encoding="utf-8") as f:
        f.write(declarations)
    for name, text in files.items():
        (spec / name).write_text(text, encoding="utf-8")
    return spec


def _refused(spec: Path) -> str:
    with pytest.raises(SpecError) as raised:
        load_spec(spec)
    return str(raised.value)


def test_a_repeated_row_of_a_table_without_key_is_refused_at_its_line(tmp_path: Path) -> None:
    spec = _nim(tmp_path, EXTRA, **{"extra.csv": "name,size\nsmall,1\nlarge,9\nsmall,1\n"})
    assert "extra.csv:4:1: table extra: this row repeats line 2" in _refused(spec)
    (spec / "extra.csv").write_text("name,size\nsmall,1\nlarge,9\nsmall,2\n", encoding="utf-8")
    assert load_spec(spec).tables["extra"].lines == (2, 3, 4)


def test_an_edge_given_again_either_way_round_is_refused_at_its_line(tmp_path: Path) -> None:
    x, y, z = "north", "east", "south"
    spec = _nim(tmp_path, EDGES, **{"spots.csv": f"spot\n{x}\n{y}\n{z}\n",
                                    "links.csv": f"a,b\n{x},{y}\n{y},{z}\n{y},{x}\n{x},{y}\n"})
    said = _refused(spec)
    assert f"links.csv:4:1: table links: the edge {y}–{x} of graph ring is given again (line 2)" in said
    assert f"links.csv:5:1: table links: the edge {x}–{y} of graph ring is given again (line 2)" in said
    assert "repeats line" not in said          # said once, as an edge
    (spec / "links.csv").write_text(f"a,b\n{x},{y}\n{y},{z}\n", encoding="utf-8")
    load_spec(spec)


def test_a_table_over_the_row_bound_is_refused_before_its_rows_are_checked(tmp_path: Path) -> None:
    rows = "".join(f"n{i},{i}\n" for i in range(MAX_TABLE_ROWS + 1))
    spec = _nim(tmp_path, EXTRA, **{"extra.csv": "name,size\n" + rows})
    assert f"extra.csv:{MAX_TABLE_ROWS + 2}:1: table extra has {MAX_TABLE_ROWS + 1:,} rows" in _refused(spec)


class _Counted(dict[str, Any]):
    """A row that counts how often its cells are read."""

    reads = 0

    def __getitem__(self, key: str) -> Any:
        _Counted.reads += 1
        return super().__getitem__(key)


def test_a_row_is_found_by_its_key_not_by_a_scan() -> None:
    rows = tuple(_Counted(id=i, provenance=f"p{i}") for i in range(MAX_TABLE_ROWS))
    table = Table("t", "t.csv", "id", (), rows, "provenance")
    _Counted.reads = 0
    for i in range(0, MAX_TABLE_ROWS, 10):
        assert table.provenance(i) == f"p{i}"
    assert _Counted.reads == MAX_TABLE_ROWS // 10   # one read of the provenance cell per call, no scan


# A column naming a table whose keys are whole numbers, declared before that table (whose own key names a
# table keyed by whole numbers, `counters`), and a column naming a table without key (rows are numbered).
WHOLE = '''
table picks from "picks.csv" {
  key name: text
  column w: weights
  column n: numbered
  cite book "Rules" "The heap holds counters."
}

table weights from "weights.csv" {
  key counter: counters
  column weight: int
  cite book "Rules" "The heap holds counters."
}

table numbered from "numbered.csv" {
  column label: text
  cite book "Rules" "The heap holds counters."
}
'''


def test_a_column_naming_a_table_keyed_by_whole_numbers_holds_whole_numbers(tmp_path: Path) -> None:
    spec = _nim(tmp_path, WHOLE, **{"picks.csv": "name,w,n\nx,1,2\ny,2,1\n",
                                     "weights.csv": "counter,weight\n1,5\n2,6\n",
                                     "numbered.csv": "label\nfirst\nsecond\n"})
    game = load_spec(spec)
    assert game.tables["weights"].keys == [1, 2]
    assert [(row["w"], row["n"]) for row in game.tables["picks"].rows] == [(1, 2), (2, 1)]
    assert game.table_rows["weights"][game.tables["picks"].rows[0]["w"]]["weight"] == 5


@pytest.mark.parametrize("cell", ["one", "1.0", "3"])
def test_a_cell_that_names_no_row_of_a_table_keyed_by_whole_numbers_is_refused(tmp_path: Path, cell: str) -> None:
    spec = _nim(tmp_path, WHOLE, **{"picks.csv": f"name,w,n\nx,{cell},1\n",
                                     "weights.csv": "counter,weight\n1,5\n2,6\n",
                                     "numbered.csv": "label\nfirst\n"})
    message = _refused(spec)
    assert "picks.csv:2:" in message and "column w" in message, message
    assert re.search(rf"'?{re.escape(cell)}'? is not a row of weights", message), message
    assert "did you mean" not in message
