"""Untrusted names cannot steer the terminal, and spec files cannot be links out (issue 9.7).

A seat name in a record may hold an escape sequence, a carriage return or a
bidirectional override that would let the record print a fake verdict: the
command line shows every such character as an escape.  A ``.rules`` file that
is a link leading out of the spec's folder is refused like a table path,
without a line of the file it points at in the message.  (Region names that
an action's text could not carry are refused by the spec's data check
``region_names_plain``: tests/rattus/test_data_checks.py.)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter import SpecError, load_spec
from rattus_rules.cli import main
from rattus_rules.paths import spec_dir
from rattus_rules.tools.terminal import ESCAPES, escape_controls

HOSTILE_NAMES = [
    "\x1b[2K\rgame.json: legal, 1 entries, winner P1",  # erase the line, write a fake verdict
    "red\x1b]0;title\x07",  # set the terminal's title
    "\u202eder",  # right-to-left override
    "blue\x9b2J",  # C1 control sequence introducer
    "green\x00\x08\x7f",
]


def _raw_controls(text: str) -> set[str]:
    return {c for c in text if ord(c) in ESCAPES}


def test_every_control_character_is_escaped_and_nothing_else() -> None:
    for code in range(0x3000):
        c = chr(code)
        escaped = escape_controls(c)
        if c in "\n\t":
            assert escaped == c
        elif code < 0x20 or 0x7F <= code < 0xA0 or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
            assert escaped == f"\\u{code:04x}"
        else:
            assert escaped == c or code in ESCAPES
    assert escape_controls("Gallia → Hispania, Großbritannien") == "Gallia → Hispania, Großbritannien"


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    path = tmp_path_factory.mktemp("record") / "game.json"
    assert main(["play", "-n", "2", "-s", "3", "-q", "--record", str(path)]) == 0
    loaded: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_seat_name_cannot_write_control_characters(name: str, record: dict[str, object], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    entries = list(record["entries"])  # type: ignore[call-overload]
    for cut in (len(entries), 5):  # the whole game, and one cut short so that the next seat is named
        path.write_text(json.dumps({**record, "seats": [name, name], "entries": entries[:cut]}), encoding="utf-8")
        for argv in (["validate", str(path)], ["replay", str(path), "--at", "3"]):
            main(argv)
            out, err = capsys.readouterr()
            assert not _raw_controls(out + err), (argv, out + err)
    # the seat names come out of --json unchanged: JSON's escaping is enough
    path.write_text(json.dumps({**record, "seats": [name, name]}), encoding="utf-8")
    main(["validate", "--json", str(path)])
    json.loads(capsys.readouterr().out)
    for names in ([name, name], ["x\nfake: legal", "y\tz"]):
        path.write_text(json.dumps({**record, "seats": names}), encoding="utf-8")
        main(["replay", "--json", "--at", "3", str(path)])
        out = capsys.readouterr().out
        assert not _raw_controls(out)
        assert json.loads(out)["position"]["names"] == names


def test_a_seat_name_cannot_start_a_line_of_its_own(record: dict[str, object], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**record, "seats": ["x\nfake: legal", "y\tz"]}), encoding="utf-8")
    main(["validate", str(path)])
    out, err = capsys.readouterr()
    assert "x\\u000afake: legal" in out and "y\\u0009z" in out
    assert not any(line.startswith("fake") for line in (out + err).splitlines())


def test_an_illegal_entry_text_cannot_write_control_characters(record: dict[str, object], tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    entries = [dict(e) for e in record["entries"]]  # type: ignore[attr-defined]
    first = next(i for i, e in enumerate(entries) if "action" in e)
    entries[first]["action"] = "start \x1b[31mGallia\r"
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**record, "entries": entries}), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out, err = capsys.readouterr()
    assert not _raw_controls(out + err) and "\\u001b" in out + err


def _spec_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "spec"
    shutil.copytree(spec_dir(), folder)
    return folder


SECRET = "this line of a file outside the spec must never be shown"


def test_a_spec_file_linking_out_of_the_folder_is_refused_unread(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    folder = _spec_copy(tmp_path)
    outside = tmp_path / "outside.rules"
    outside.write_text(f"{SECRET}\n", encoding="utf-8")
    (folder / "extra.rules").symlink_to(outside)
    with pytest.raises(SpecError) as err:
        load_spec(folder)
    assert "leads out of the spec's folder" in str(err.value)
    assert SECRET not in str(err.value)
    assert main(["check", str(folder)]) == 1
    out, errtext = capsys.readouterr()
    assert "leads out" in errtext and SECRET not in out + errtext


def test_a_spec_file_linking_to_a_device_is_refused(tmp_path: Path) -> None:
    folder = _spec_copy(tmp_path)
    (folder / "zero.rules").symlink_to("/dev/zero")
    with pytest.raises(SpecError, match="leads out"):
        load_spec(folder)


def test_a_link_within_the_folder_is_fine(tmp_path: Path) -> None:
    folder = _spec_copy(tmp_path)
    (folder / "game.rules").rename(folder / "game.txt")
    (folder / "game.rules").symlink_to(folder / "game.txt")
    assert load_spec(folder).new_state(2, seed=1).legal_action_texts()
