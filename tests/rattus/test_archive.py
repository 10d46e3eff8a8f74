"""`rattus validate` on archives: folders, globs and JSON-lines files, validated by worker processes."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from rattus_rules.cli import main
from rattus_rules.tools.executor import run_all
from rattus_rules.tools.progress import Progress
from rattus_rules.tools.records import archive as archive_module
from rattus_rules.tools.records.archive import JSON_LINES, Result, list_items, summary, validate_archive
from rattus_rules.tools.records.validate import MAX_RECORD_CHARS, dumps, record_game

GAMES = Path(__file__).resolve().parents[2] / "conformance" / "games"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of records (legal, illegal, broken) and a JSON-lines file of more."""
    root = tmp_path_factory.mktemp("archive")
    for path in sorted(GAMES.glob("*.json")):
        shutil.copy(path, root / path.name)
    (root / "sub").mkdir()
    (root / "sub" / "broken.json").write_text('{"format": "rattus-record",', encoding="utf-8")
    good = record_game(2, seed=3)
    bad = dict(good, entries=[*good["entries"], {"by": "P0", "action": "end"}])
    lines = [json.dumps(good), "", json.dumps(bad), "[1, 2", json.dumps({"x": 1})]
    (root / "more.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def statuses(results: list[Result]) -> list[tuple[str, str]]:
    return [(r.name, r.verdict["status"]) for r in results]


def test_an_archive_is_listed_in_order(archive: Path) -> None:
    items = list_items([str(archive)])
    names = [i.name for i in items]
    files = sorted(p for p in archive.rglob("*") if p.suffix in (".json", *JSON_LINES))
    assert [n.split(":")[0] for n in names] == [str(p) for p in files for _ in range(4 if p.suffix == ".jsonl" else 1)]
    assert [n for n in names if ".jsonl" in n] == [f"{archive / 'more.jsonl'}:{k}" for k in (1, 3, 4, 5)]


def test_verdicts_do_not_depend_on_the_number_of_workers(archive: Path) -> None:
    one = validate_archive([str(archive)], workers=1)
    two = validate_archive([str(archive)], workers=2)
    assert [(r.name, r.verdict) for r in one] == [(r.name, r.verdict) for r in two]
    expected = json.loads((GAMES / "expected.json").read_text())
    by_name = {Path(r.name).name: r.verdict for r in one}
    for name, want in expected.items():
        assert by_name[name]["status"] == want["status"]
        assert by_name[name].get("index") == want.get("index")
    jsonl = {r.name.rsplit(":", 1)[1]: r.verdict["status"] for r in one if ".jsonl:" in r.name}
    assert jsonl == {"1": "legal", "3": "illegal", "4": "not-a-record", "5": "not-a-record"}
    counts = summary(one)
    assert counts["records"] == len(one) == sum(v for k, v in counts.items() if k != "records")


class CountingBar(Progress):
    """A bar that is never drawn but remembers what it was told."""

    def __init__(self) -> None:
        super().__init__(None, "test", "record", io.StringIO())
        self.total: float | None = None
        self.count = 0.0

    def set_total(self, total: float | None) -> None:
        self.total = total

    def update(self, n: float = 1) -> None:
        self.count += n


def test_a_progress_bar_counts_every_record(archive: Path) -> None:
    bar = CountingBar()
    results = validate_archive([str(archive)], workers=2, bar=bar)
    assert bar.total == bar.count == len(results)


def test_a_glob_and_several_sources(archive: Path) -> None:
    results = validate_archive([str(archive / "legal-2p-*.json"), str(archive / "sub")], workers=1)
    assert [Path(n).name for n, _ in statuses(results)] == [
        "legal-2p-omniscient.json", "legal-2p-players-eye.json", "broken.json"]
    with pytest.raises(ValueError, match="no file matches"):
        list_items([str(archive / "nothing-*.json")])
    with pytest.raises(ValueError, match="no such file"):
        list_items([str(archive / "missing.json")])


def test_a_line_too_long_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text("x" * (5 * MAX_RECORD_CHARS) + "\n" + json.dumps(record_game(2, seed=1)) + "\n")
    results = validate_archive([str(path)], workers=1)
    assert statuses(results)[0][1] == "not-a-record" and "characters" in results[0].verdict["reason"]
    assert results[1].verdict["finished"]


def test_control_characters_in_names_are_escaped(tmp_path: Path) -> None:
    path = tmp_path / "evil\x1b[32mlegal.json"
    path.write_text(dumps(record_game(2, seed=1)))
    line = validate_archive([str(tmp_path)], workers=1)[0].line()
    assert "\x1b" not in line and "\\u001b[32m" in line
    record = tmp_path / "sub"
    record.mkdir()
    (record / "a\nb\x07 Gallia ö.json").write_text("{}")
    assert "/a\\u000ab\\u0007 Gallia ö.json: not a record: $: " in validate_archive([str(record)], workers=1)[0].line()


def test_the_executor_keeps_the_order(tmp_path: Path) -> None:
    assert run_all(sum, [[k, k] for k in range(20)], workers=2) == [2 * k for k in range(20)]


def test_cli_validates_an_archive(archive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(archive), "--workers", "2"]) == 2  # the worst verdict: a non-record
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any(line.endswith("legal-2p-omniscient.json: legal, 196 entries, scores 8-6, winner P0")
               or "legal-2p-omniscient.json: legal" in line for line in lines)
    assert "illegal at entry 239" in out and "not a record" in out
    assert "total" in out and "2 workers" in out
    assert main(["validate", str(archive / "legal-*.json"), "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["validate", str(archive / "legal-*.json"), str(archive / "illegal-plague-stays.json"),
                 "--json", "--workers", "1"]) == 1
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert data["summary"]["illegal"] == 1 and data["summary"]["legal (finished)"] == 6
    assert [Path(r["name"]).name for r in data["records"]][-1] == "illegal-plague-stays.json"


@pytest.mark.parametrize("argv", [
    ["--workers", "0"], ["--svg", "x.svg"], ["--which-interpretations"], ["-i", "reveal-order=sideways"],
])
def test_cli_archive_usage_errors(archive: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(archive / "legal-*.json"), *argv]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_archive_of_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path / "none-*.json")]) == 2
    assert "no file matches" in capsys.readouterr().err


def test_fifos_and_dangling_links_in_an_archive_get_a_verdict_line_and_are_never_waited_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a-good.json").write_text(dumps(record_game(2, seed=1)), encoding="utf-8")
    os.mkfifo(tmp_path / "b-pipe.json")       # a writer never comes: opening it plainly would wait for ever
    os.mkfifo(tmp_path / "c-pipe.jsonl")
    (tmp_path / "d-gone.json").symlink_to(tmp_path / "nothing.json")
    results = validate_archive([str(tmp_path)], workers=1)
    assert [Path(r.name).name for r in results] == ["a-good.json", "b-pipe.json", "c-pipe.jsonl", "d-gone.json"]
    assert [r.verdict["status"] for r in results] == ["legal", "not-a-record", "not-a-record", "not-a-record"]
    assert "not a regular file" in results[1].verdict["reason"] and "not a regular file" in results[2].verdict["reason"]
    assert results[3].verdict["reason"] == "cannot read: No such file or directory"   # the name is not repeated
    # named on the command line, and by a glob: the same verdict lines, exit 2
    assert main(["validate", str(tmp_path / "c-pipe.jsonl"), str(tmp_path / "*.json"), "--workers", "1"]) == 2
    out = capsys.readouterr().out
    assert "c-pipe.jsonl: not a record" in out and "b-pipe.json: not a record" in out and "a-good.json: legal" in out


@pytest.mark.parametrize("argv", [["validate"], ["replay"], ["view"], ["render", "state", "--from"]])
def test_a_missing_file_is_named_once(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nothing.json")
    assert main([*argv, missing]) == 2
    assert capsys.readouterr().err.strip() == f"rattus: cannot read {missing}: No such file or directory"


def test_a_folder_without_records_is_refused_not_a_clean_archive(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("no records here", encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 2
    assert f"rattus: no record in {tmp_path}: no *.json or *.jsonl or *.ndjson file below it" in \
        capsys.readouterr().err


def test_a_glob_does_not_follow_links_to_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ** goes down folders, never through a symbolic link to one: a link to a folder above loops (two such
    # links made the listing take exponential time); each file is listed once, by its own path
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.json").write_text("{}")
    (tmp_path / "sub" / "b.json").write_text("{}")
    (tmp_path / "sub" / "up").symlink_to("..")
    (tmp_path / ".hidden.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    for pattern, root in ((str(tmp_path / "**" / "*.json"), f"{tmp_path}/"), ("**/*.json", "")):
        assert [i.name for i in list_items([pattern])] == [f"{root}a.json", f"{root}sub/b.json"]
    assert [i.name for i in list_items(["s*/*.json", "*.json", ".*.json", "sub/b.js**"])] == [
        "sub/b.json", "a.json", ".hidden.json", "sub/b.json"]


def test_an_archive_has_at_most_so_many_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a JSON-lines file of short lines (or a glob of many files) must not list records without end
    monkeypatch.setattr(archive_module, "MAX_ARCHIVE_RECORDS", 5)
    (tmp_path / "many.jsonl").write_text("{}\n" * 6)
    with pytest.raises(ValueError, match="more than 5 records"):
        list_items([str(tmp_path / "many.jsonl")])
    for k in range(6):
        (tmp_path / f"{k}.json").write_text("{}")
    with pytest.raises(ValueError, match="more than 5 records"):
        list_items([str(tmp_path / "*.json")])
    with pytest.raises(ValueError, match="more than 5 records"):
        list_items([str(tmp_path / "0.json")] * 6)
    assert len(list_items([str(tmp_path / "0.json")] * 5)) == 5
