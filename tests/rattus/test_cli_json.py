"""`--json` on check, interpretations, perft, replay, scenario and validate (shapes: docs/json.md),
and progress bars that show on a terminal only."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from rattus_rules import interpretations
from rattus_rules.cli import main
from rattus_rules.games.rattus.faces import face_text
from rattus_rules.tools.kit.conformance import start_position
from rattus_rules.tools.perft import divide, perft
from rattus_rules.tools.progress import PROGRESS_ENV, progress
from rattus_rules.tools.records.validate import dumps, record_game, replay

from ..conftest import ROOT

SCENARIOS = sorted((ROOT / "tests" / "rattus" / "scenarios").glob("*.scn"))


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str], code: int = 0) -> Any:
    assert main(argv) == code
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress bar, nothing else: stderr is not a terminal here
    return json.loads(captured.out)


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    out = tmp_path / "game.json"
    out.write_text(dumps(record_game(2, seed=3)), encoding="utf-8")
    return out


def test_check_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    got = run_json(["check", "--json"], capsys)
    assert got["ok"] is True and got["title"] == "Rattus" and got["switches"] == len(interpretations())
    broken = tmp_path / "x.rules"
    broken.write_text("rule r {\n  nonsense here\n}\n", encoding="utf-8")
    got = run_json(["check", "--json", str(broken)], capsys, code=1)
    assert got["ok"] is False and got["problems"]
    assert {"path", "line", "column", "message"} <= set(got["problems"][0])


def test_interpretations_json(capsys: pytest.CaptureFixture[str]) -> None:
    got = run_json(["interpretations", "--json"], capsys)
    assert [g["id"] for g in got] == [i.id for i in interpretations()]
    for g, item in zip(got, interpretations()):
        assert g["default"] == item.default
        assert [o["value"] for o in g["options"]] == [o.value for o in item.options]
        assert all(c["quote"] for o in g["options"] for c in o["citations"])


def test_perft_json_matches_perft(capsys: pytest.CaptureFixture[str]) -> None:
    got = run_json(["perft", "-n", "2", "-s", "1", "-d", "3", "--json"], capsys)
    state, _ = start_position(2, 1)
    assert got["players"] == 2 and got["seed"] == 1 and got["chance"] == "seed"
    assert got["counts"] == [{"depth": d, "count": perft(state, d)} for d in (1, 2, 3)]
    got = run_json(["perft", "-n", "2", "-s", "1", "-d", "2", "--divide", "--json"], capsys)
    split = divide(state, 2)
    assert got["total"] == perft(state, 2) == sum(split.values())
    assert got["divide"] == [{"action": a, "count": n} for a, n in split.items()]


def test_perft_text_from_divide_matches_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "-n", "3", "-s", "2", "-d", "3", "--chance", "first"]) == 0
    state, _ = start_position(3, 2, chance="first")
    assert capsys.readouterr().out.splitlines()[-1] == f"depth 3: {perft(state, 3, 'first', face_text)}"


def test_replay_json(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(game_file.read_text())
    got = run_json(["replay", str(game_file), "--at", "30", "--json"], capsys)
    state = replay(record, 30)[0]
    assert got["at"] == 30 and got["total"] == len(record["entries"])
    assert got["next_entry"] == record["entries"][30] and got["verdict"]["status"] == "legal"
    pos = got["position"]
    assert pos["plague"] == state.vals["plague"][None]
    assert sum(len(r["tokens"]) for r in pos["regions"].values()) == sum(
        len(state.zones["rats"][r]) for r in state.world.nodes["board"])
    end = run_json(["replay", str(game_file), "--json"], capsys)
    assert end["next_entry"] is None and end["position"]["winners"] and end["position"]["legal"] == []


def test_replay_json_of_a_players_eye_record_hides_faces(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "eye.json"
    assert main(["play", "-n", "2", "-s", "2", "-q", "--record", str(out), "--record-kind", "players-eye"]) == 0
    capsys.readouterr()
    got = run_json(["replay", str(out), "--at", "40", "--json"], capsys)
    tokens = [t for r in got["position"]["regions"].values() for t in r["tokens"]]
    assert "?" in tokens


def test_scenario_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    got = run_json(["scenario", "--json", *map(str, SCENARIOS[:2])], capsys)
    assert got["ok"] is True and [s["file"] for s in got["scenarios"]] == list(map(str, SCENARIOS[:2]))
    assert all(s["status"] == "ok" and s["failures"] == [] and s["position"]["regions"] for s in got["scenarios"])
    bad = tmp_path / "bad.scn"
    bad.write_text(SCENARIOS[0].read_text(encoding="utf-8") + "\nexpect plague Nowhere\n", encoding="utf-8")
    malformed = tmp_path / "malformed.scn"
    malformed.write_text("players nine\n", encoding="utf-8")
    got = run_json(["scenario", "--json", str(bad), str(malformed)], capsys, code=2)
    assert got["ok"] is False
    failed, broken = got["scenarios"]
    assert failed["status"] == "failed" and failed["failures"][0]["message"]
    assert broken["status"] == "malformed" and broken["error"]["line"] == 1


def test_validate_json_and_which_interpretations_json(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(["validate", "--json", str(game_file)], capsys)["status"] == "legal"
    got = run_json(["validate", "--which-interpretations", "--json", str(game_file)], capsys)
    assert got["status"] == "legal" and got["legal"][0]["changes"] == {}
    assert got["legal"][0]["verdict"]["finished"] is True
    assert all(t["verdict"]["status"] != "legal" for t in got["rejected"])


def test_validate_json_of_input_that_is_not_json_is_a_json_verdict(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    got = run_json(["validate", "--json", str(broken)], capsys, code=2)
    assert got["status"] == "not-a-record" and "not JSON" in got["reason"]
    got = run_json(["validate", "--json", "--which-interpretations", str(broken)], capsys, code=2)
    assert got["status"] == "not-a-record" and "not JSON" in got["verdict"]["reason"]


def test_which_interpretations_refuses_what_it_cannot_serve(game_file: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--which-interpretations", "--svg", str(tmp_path / "x.svg"), str(game_file)]) == 2
    assert "--svg" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_perft_shows_progress_with_rate_and_eta_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    monkeypatch.delenv(PROGRESS_ENV, raising=False)
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setattr("rattus_rules.tools.progress.MIN_INTERVAL", 0)
    assert main(["perft", "-n", "2", "-d", "3"]) == 0
    drawn = screen.getvalue()
    assert "depth 3, first actions" in drawn and "17/17 [" in drawn
    assert " action/s]" in drawn and "<00:" in drawn  # rate and ETA
    assert "depth 3: 2007" in capsys.readouterr().out


def test_progress_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = Terminal()
    monkeypatch.setenv(PROGRESS_ENV, "0")
    with progress(3, "off", stream=screen) as bar:
        bar.update(3)
    assert screen.getvalue() == "" and not bar.shown


def test_a_lone_surrogate_in_a_verdict_is_written_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a JSON path names a key holding a lone surrogate (JSON's \ud800); UTF-8 cannot write it: it stays escaped
    # (it was "rattus: internal error: UnicodeEncodeError", exit 3)
    record = tmp_path / "bad.json"
    record.write_text('{"format": 1, "game": "ratten_scharf", "\\ud800": {"a": 1, "a": 2}, "entries": []}',
                      encoding="ascii")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # as a terminal or a pipe writes: strict UTF-8
    monkeypatch.setattr("sys.stdout", out)
    assert main(["validate", "--json", str(record)]) == 2
    out.flush()
    verdict = json.loads(out.buffer.getvalue().decode("utf-8"))  # type: ignore[attr-defined]
    assert verdict["path"] == '$["\\ud800"]' and "twice" in verdict["reason"]  # the path names it escaped


def test_a_lone_surrogate_in_an_archives_verdict_is_written_escaped(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # the archive's lines name each record's verdict with its JSON path (it was "internal error", exit 3)
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text('{"format": 1, "game": "ratten_scharf", "\\ud800": {"a": 1, "a": 2}, '
                                     '"entries": []}', encoding="ascii")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr("sys.stdout", out)
    assert main(["validate", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 2
    out.flush()
    assert '$["\\ud800"]' in out.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]
