"""`rattus serve` over a long session (issue 24, items 9 and 10): games with their own data folders share the
compiled rules by the content of the tables, the data sets in use are bounded, and `new` or `load` with the id
of a kept game is refused unless it says `replace: true`."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.session import MAX_DATA_SETS
from rattus_rules import load_rules
from rattus_rules.paths import spec_dir
from rattus_rules.tools.kit.referee import referee_session


def _folder(tmp_path: Path, name: str, note: str | None = None) -> str:
    """A data folder with a copy of the shipped board (its last provenance changed to ``note``)."""
    folder = tmp_path / name
    folder.mkdir()
    text = (spec_dir() / "data" / "board.csv").read_text(encoding="utf-8")
    if note is not None:
        head, _, last = text.rstrip("\n").rpartition("\n")
        text = head + "\n" + last.rsplit(",", 1)[0] + f",{note}\n"
    (folder / "board.csv").write_text(text, encoding="utf-8")
    return str(folder)


def test_data_folders_with_the_same_tables_share_one_compiled_game(tmp_path: Path) -> None:
    session = referee_session()
    folders = [_folder(tmp_path, f"d{i}") for i in range(40)]
    for i, folder in enumerate(folders):
        answer = session.answer({"cmd": "new", "players": 3, "seed": i, "data": folder})
        assert answer["ok"], answer
    games = {id(g.state.game) for g in session.games.values()}
    assert len(games) == 1 and session.uses == {games.pop(): 40}
    assert load_rules(folders[0]) is load_rules(folders[-1]) is not load_rules()
    assert load_rules(_folder(tmp_path, "other", "reconstruction (other)")) is not load_rules(folders[0])


def test_the_data_sets_of_a_session_are_bounded(tmp_path: Path) -> None:
    session = referee_session()
    assert session.answer({"cmd": "new", "players": 2, "game": "shipped"})["ok"]
    for i in range(MAX_DATA_SETS - 1):
        answer = session.answer({"cmd": "new", "players": 2, "game": f"d{i}",
                                 "data": _folder(tmp_path, f"d{i}", f"reconstruction ({i})")})
        assert answer["ok"], answer
    one_more = _folder(tmp_path, "more", "reconstruction (more)")
    answer = session.answer({"cmd": "new", "players": 2, "data": one_more})
    assert answer["error"]["code"] == "too-many-data-sets" and str(MAX_DATA_SETS) in answer["error"]["message"]
    assert session.answer({"cmd": "new", "players": 2, "data": _folder(tmp_path, "again", "reconstruction (0)")})["ok"]
    assert session.answer({"cmd": "new", "players": 4})["ok"]   # a data set in use already
    # replacing the only game of a data set by one of another frees its place
    assert session.answer({"cmd": "new", "players": 2, "game": "d1", "replace": True, "data": one_more})["ok"]
    assert session.answer({"cmd": "drop", "game": "d2"})["ok"]
    assert session.answer({"cmd": "new", "players": 2, "data": _folder(tmp_path, "last", "x")})["ok"]
    assert len(session.uses) == MAX_DATA_SETS and sum(session.uses.values()) == len(session.games)


@pytest.mark.parametrize("cmd", ["new", "load"])
def test_a_kept_game_is_not_replaced_unless_the_request_says_so(cmd: str) -> None:
    session = referee_session()
    assert session.answer({"cmd": "new", "players": 2, "seed": 1, "game": "mine", "chance": "seed"})["ok"]
    assert session.answer({"cmd": "apply", "game": "mine", "action": "start Gallia"})["ok"]
    before = session.answer({"cmd": "save", "game": "mine"})["state"]
    fresh = session.answer({"cmd": "new", "players": 3, "seed": 2})
    request = ({"cmd": "new", "players": 3, "seed": 2} if cmd == "new"
               else {"cmd": "load", "state": session.answer({"cmd": "save", "game": fresh["game"]})["state"]})
    answer = session.answer({**request, "game": "mine"})
    assert not answer["ok"] and answer["error"]["code"] == "game-exists" and "replace" in answer["error"]["message"]
    assert session.answer({"cmd": "save", "game": "mine"})["state"] == before
    answer = session.answer({**request, "game": "mine", "replace": "yes"})
    assert answer["error"]["code"] == "bad-request"
    answer = session.answer({**request, "game": "mine", "replace": False})
    assert answer["error"]["code"] == "game-exists"
    assert session.answer({**request, "game": "mine", "replace": True})["ok"]
    assert session.answer({"cmd": "save", "game": "mine"})["state"] != before
    assert session.uses == {id(load_rules()): 2}


def test_replace_and_the_new_errors_are_in_the_protocol_schema() -> None:
    from rattus_rules.tools.kit.schemas import validator

    assert validator("protocol", "request-new").is_valid({"cmd": "new", "players": 2, "game": "g", "replace": True})
    assert not validator("protocol", "request-new").is_valid({"cmd": "new", "players": 2, "replace": "yes"})
    assert "replace" in validator("protocol").schema["$defs"]["request-load"]["properties"]
    codes = validator("protocol").schema["$defs"]
    text = str(codes)
    assert "'game-exists'" in text and "'too-many-data-sets'" in text
