"""Lone surrogates in records (issue 24, item 12): JSON's ``\\ud800`` escapes write them, UTF-8 cannot, so a
record holding one made `validate`, `replay`, `view` and `--which-interpretations` fail with exit 3
(UnicodeEncodeError), and an archive run with `--json` lost all its output.  Now such a record is refused at
the field, with exit 2, and an archive's JSON output survives any record and any file name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rattus_rules.cli import main
from rattus_rules.tools.records import archive
from rattus_rules.tools.records.recordformat import lone_surrogate

RECORD = Path(__file__).resolve().parents[2] / "conformance" / "games" / "legal-2p-omniscient.json"


def _record() -> dict[str, Any]:
    return dict(json.loads(RECORD.read_text(encoding="utf-8")))


def _changed(where: str) -> tuple[dict[str, Any], str]:
    """The shipped 2-player record with a lone surrogate at ``where``, and the field as a verdict names it."""
    record = _record()
    if where == "seat":
        record["seats"] = ["\ud800", "P1"]
        return record, "$.seats[0]"
    if where == "action":
        k = next(i for i, e in enumerate(record["entries"]) if e.get("by") == "P0")
        record["entries"][k]["action"] = "start \udc00"
        return record, f"$.entries[{k}].action"
    if where == "key":
        record["comment\udfff"] = "x"
        return record, "$ (a key)"
    if where == "switch":
        record["interpretations"] = {"reveal-order": "placed\ud83d"}
        return record, "$.interpretations.reveal-order"
    raise AssertionError(where)


COMMANDS = [["validate"], ["validate", "--json"], ["validate", "--which-interpretations"], ["replay"],
            ["view", "--output", "{out}"], ["render", "state", "--from", "{file}", "--at", "1"]]


@pytest.mark.parametrize("where", ["seat", "action", "key", "switch"])
@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_a_lone_surrogate_is_refused_at_its_field(where: str, command: list[str], tmp_path: Path) -> None:
    record, field = _changed(where)
    file = tmp_path / "record.json"
    file.write_text(json.dumps(record), encoding="utf-8")  # ensure_ascii: the surrogate as a \u escape
    args = [a.replace("{out}", str(tmp_path / "v.html")).replace("{file}", str(file)) for a in command]
    if "{file}" not in " ".join(command):
        args.append(str(file))
    run = subprocess.run([sys.executable, "-m", "rattus_rules", *args], capture_output=True, timeout=300)
    out, err = run.stdout.decode("utf-8"), run.stderr.decode("utf-8")  # both UTF-8: nothing unwritable
    assert run.returncode == 2, err
    assert "Traceback" not in err and "internal error" not in err + out
    said = out + err
    assert "lone surrogate" in said and (field in said or command == ["validate", "--json"]), said
    if command == ["validate", "--json"]:
        verdict = json.loads(out)
        assert verdict["status"] == "not-a-record" and verdict["path"] == field


def test_a_lone_surrogate_is_found_in_deep_json_without_recursion() -> None:
    deep: Any = "\ud800"
    for _ in range(100_000):
        deep = [deep]
    found = lone_surrogate({"x": deep})
    assert found is not None and found[0].startswith("$.x[0][0]") and found[1] == 0xD800
    assert lone_surrogate({"emoji": "\U0001F600", "pair": json.loads('"\\ud83d\\ude00"')}) is None


def _archive(tmp_path: Path) -> Path:
    folder = tmp_path / "archive"
    folder.mkdir()
    for where in ("seat", "action"):
        record, _ = _changed(where)
        (folder / f"{where}.json").write_text(json.dumps(record), encoding="utf-8")
    (folder / os.fsdecode(b"legal-\xff\xfe.json")).write_bytes(RECORD.read_bytes())
    (folder / "lines.jsonl").write_bytes(b'{"seats": ["\\ud800"]}\n\xff\xfe not UTF-8\n'
                                         + json.dumps(_record()).encode() + b"\n")
    return folder


def test_an_archives_json_output_survives_any_record_and_file_name(tmp_path: Path) -> None:
    folder = _archive(tmp_path)
    run = subprocess.run([sys.executable, "-m", "rattus_rules", "validate", "--json", "--workers", "1", str(folder)],
                         capture_output=True, timeout=300)
    assert run.returncode == 2 and b"Traceback" not in run.stderr
    report = json.loads(run.stdout.decode("utf-8"))   # strict UTF-8: every byte of it
    names = [r["name"].rsplit("/", 1)[-1] for r in report["records"]]
    assert names == ["action.json", "legal-\\xff\\xfe.json", "lines.jsonl:1", "lines.jsonl:2", "lines.jsonl:3",
                     "seat.json"]
    statuses = [r["verdict"]["status"] for r in report["records"]]
    assert statuses == ["not-a-record", "legal", "not-a-record", "not-a-record", "legal", "not-a-record"]
    assert report["summary"]["records"] == 6


def test_the_json_output_is_written_even_if_a_name_slips_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(archive, "shown_name", lambda name: name)   # as before the fix: names unescaped
    assert main(["validate", "--json", "--workers", "1", str(_archive(tmp_path))]) == 2
    out = capsys.readouterr().out
    out.encode("utf-8")   # no lone surrogate in the output: it can be written
    assert len(json.loads(out)["records"]) == 6


def test_shown_names() -> None:
    assert archive.shown_name(os.fsdecode(b"a\xffb")) == "a\\xffb"
    assert archive.shown_name("a\ud800b") == "a\\ud800b"
    assert archive.shown_name("Gallia \u00e9 \U0001F600") == "Gallia \u00e9 \U0001F600"
