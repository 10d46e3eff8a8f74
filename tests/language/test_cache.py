"""The on-disk cache: parsed spec files are kept (as JSON), and never trusted blindly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import lark
import pytest

from interpreter import ast as A
from interpreter import cache, load_spec, parser

#: A spec of two files, a rules file and a table (the cache keeps the rules files).
NIM = Path(__file__).resolve().parent / "specs" / "nim"


def _positions(node: object) -> list[A.Pos]:
    """Every position in a syntax tree, in order (nodes compare without their positions)."""
    if isinstance(node, A.Pos):
        return [node]
    if attrs.has(type(node)):
        return [p for f in attrs.fields(type(node)) for p in _positions(getattr(node, f.name))]  # type: ignore[arg-type]
    if isinstance(node, (tuple, list)):
        return [p for item in node for p in _positions(item)]
    return []


def test_a_stale_shipped_parser_means_building_it_and_nothing_else_is_stored(
        own_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parser, "SHIPPED_PARSER_PATH", tmp_path / "missing.lalr.json")
    built: list[object] = []
    real_init = lark.Lark.__init__

    def counting_init(self: lark.Lark, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(lark.Lark, "__init__", counting_init)
    load_spec(NIM)
    assert len(built) == 1
    # Only parsed files are kept, as JSON; a built parser never goes to disk.
    assert {p.name.split("-")[0] for p in own_cache.iterdir()} == {"ast"}
    assert all(p.suffix == ".json" for p in own_cache.iterdir())


def test_a_second_load_reads_the_parser_and_the_files_back(own_cache: Path) -> None:
    first = load_spec(NIM)
    kinds = sorted({p.name.split("-")[0] for p in own_cache.iterdir()})
    # Only parsed files are cached (a parser is shipped beside the grammar, or built).
    assert kinds == ["ast"]
    assert len(list(own_cache.glob("ast-*"))) == len(list(NIM.glob("*.rules")))
    parser._lark.cache_clear()
    second = load_spec(NIM)
    assert parser._lark.cache_info().currsize == 0  # every file came from the cache: no parser needed
    assert second.checked.files == first.checked.files
    positions = _positions(second.checked.files)
    assert len(positions) > 50 and positions == _positions(first.checked.files)
    state_a, state_b = first.new_state(3, seed=3), second.new_state(3, seed=3)
    assert state_a.legal_action_texts() == state_b.legal_action_texts()


def test_a_load_from_the_cache_imports_no_lark(own_cache: Path) -> None:
    # Lark and the tree builder are imported to parse a text, never to read a file back (a referee's start)
    code = ("import sys; from interpreter import load_spec; load_spec(sys.argv[1]); "
            "print(sorted(m for m in sys.modules if m.startswith('lark') or m == 'interpreter.builder'))")
    env = {**os.environ, "RULES_CACHE_DIR": str(own_cache)}
    runs = [subprocess.run([sys.executable, "-c", code, str(NIM)], capture_output=True, text=True, env=env,
                           check=True).stdout.strip() for _ in range(2)]
    assert "'lark'" in runs[0] and "'interpreter.builder'" in runs[0]  # parsed, then kept
    assert runs[1] == "[]"


def test_a_changed_file_is_parsed_again(own_cache: Path, tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    text = 'game g "G" cite src "S" "x"\nsource src "A source"\nplayers 2 to 2\nmain play\n'
    proc = 'procedure play cite src "S" "x" { choose by first_player { "%s" { } } }\n'
    (folder / "g.rules").write_text(text + proc % "a", encoding="utf-8")
    assert load_spec(folder).new_state(2).legal_action_texts() == ["a"]
    (folder / "g.rules").write_text(text + proc % "b", encoding="utf-8")
    assert load_spec(folder).new_state(2).legal_action_texts() == ["b"]
    assert len(list(own_cache.glob("ast-*"))) == 2


def test_damaged_entries_are_made_again(own_cache: Path) -> None:
    load_spec(NIM)
    for entry in own_cache.iterdir():
        entry.write_bytes(b"not json")
    parser._lark.cache_clear()
    game = load_spec(NIM)
    assert game.new_state(2, seed=1).legal_action_texts()
    assert all(entry.read_bytes() != b"not json" for entry in own_cache.iterdir())


def _as_int(data: object) -> int:
    if type(data) is not int:
        raise ValueError(data)
    return data


def test_no_cache_when_turned_off_or_not_writable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, "")
    assert cache.cache_dir() is None
    assert cache.cached("thing", "k", lambda: 41 + 1, int, _as_int) == 42
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    monkeypatch.setenv(cache.CACHE_ENV, str(blocked))
    assert cache.cached("thing", "k", lambda: 43, int, _as_int) == 43
    assert blocked.read_text(encoding="utf-8").startswith("a file")


def test_the_default_folder_is_in_the_users_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(cache.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / cache.CACHE_NAME


def test_old_entries_are_pruned(own_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    for i in range(6):
        assert cache.cached("thing", str(i), lambda i=i: i, int, _as_int) == i  # type: ignore[misc]
    assert len(list(own_cache.glob("thing-*"))) == 3
    assert cache.cached("thing", "5", lambda: -1, int, _as_int) == 5  # the newest is still there


def test_digests_tell_inputs_apart() -> None:
    assert cache.digest("ab", "c") != cache.digest("a", "bc")
    assert cache.digest(b"x") == cache.digest("x")
