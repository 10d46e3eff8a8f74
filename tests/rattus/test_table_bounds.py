"""Rattus's tables that would make the tools slow (issue 24, item 8): a board of 50,000 repeated rows, repeated
edges (tests/language/test_table_repeats.py: the same in the language, and a row found by its key)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.data import MAX_TABLE_PROBLEMS, MAX_TABLE_ROWS
from rattus_rules import load_rules
from rattus_rules.cli import main
from rattus_rules.paths import spec_dir

BOARD = spec_dir() / "data" / "board.csv"


def _board(tmp_path: Path, *extra: str) -> Path:
    folder = tmp_path / "d"
    folder.mkdir()
    shutil.copy(BOARD, folder / "board.csv")
    with (folder / "board.csv").open("a", encoding="utf-8") as f:
        f.writelines(line + "\n" for line in extra)
    return folder


def _lines() -> int:
    return len(BOARD.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("command", [["check"], ["render", "board"], ["perft", "--depth", "1"], ["play", "--web"]])
def test_a_board_of_50000_repeated_rows_is_refused_at_its_line(
        tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    data = _board(tmp_path, *["Gallia,Hispania,x"] * 50_000)
    code = main([*command, "--data", str(data)])
    err = capsys.readouterr().err
    assert code == (1 if command == ["check"] else 2), err
    assert (f"{data / 'board.csv'}:{MAX_TABLE_ROWS + 2}:1: table adjacency has {50_000 + _lines() - 1:,} rows; "
            f"a table may have at most {MAX_TABLE_ROWS:,}") in err
    assert "Traceback" not in err


def test_repeated_edges_are_refused_each_at_its_line_and_counted(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    first = BOARD.read_text(encoding="utf-8").splitlines()[1].split(",")
    a, b = first[0], first[1]
    data = _board(tmp_path, f"{b},{a},the same edge the other way round", *[f"{a},{b},again"] * 30)
    assert main(["check", "--data", str(data)]) == 1
    err = capsys.readouterr().err
    n = _lines()
    assert f"board.csv:{n + 1}:1: table adjacency: the edge {b}–{a} of graph board is given again (line 2)" in err
    assert f"board.csv:{n + 2}:1: table adjacency: the edge {a}–{b} of graph board is given again (line 2)" in err
    assert err.count("is given again") == MAX_TABLE_PROBLEMS
    assert f"table adjacency: {31 - MAX_TABLE_PROBLEMS} more problem(s) like these" in err


def test_the_shipped_tables_give_their_rows_lines() -> None:
    table = load_rules().tables["adjacency"]
    assert table.lines[:3] == (2, 3, 4) and table.line(0) == 2
    assert table.row(table.keys[-1]) is table.rows[-1]
