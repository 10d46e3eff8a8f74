"""Each command resolves its game once and passes the value down (issue 25): every command that plays,
reads or checks a game (``rattus replay``, ``view``, ``scenario``, ``study``, ``serve`` (the referee),
``interpretations``, ``play``, ``perft``, ``render``, ``validate`` (one record and an archive), ``tournament``,
``strength``, ``decisive``, ``conformance make`` and ``check``) loads the rules once, and nothing it calls
looks the game up by its name again (:mod:`tests.resolving` counts both; the caches that would hide a
look-up are emptied).

Each command is run on more than one thing (files, games, work items), so that a look-up per thing
would show.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from rattus_rules import cli
from rattus_rules.algorithms import decisive, strength, tournament  # noqa: F401  (imported before counting)
from rattus_rules.commands import records, serve, study, view  # noqa: F401  (imported before counting)
from rattus_rules.tools.kit import (
    kit,  # noqa: F401  (imported lazily by the command)
    referee,
)
from rattus_rules.tools.records.validate import record_game
from rattus_rules.tools.study import study_report  # noqa: F401  (imported lazily by the command)
from rattus_rules.tools.study.study import Job, run_job
from tests.resolving import Counts, counting

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "rattus" / "scenarios"


def _once(counts: Counts) -> None:
    assert (counts.resolves, counts.loads) == (1, 1), f"resolved {counts.resolves}, loaded {counts.loads} times"
    assert counts.looked_up == 0, f"looked up by name again: {dict(counts.lookups)}"


@pytest.fixture(scope="module")
def records_made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("records")
    out = {}
    for game in ("rattus", "ratten_scharf"):
        out[game] = folder / f"{game}.json"
        out[game].write_text(json.dumps(record_game(2, seed=4, game_name=game)), encoding="utf-8")
    short = record_game(2, seed=4)  # a record's first entries: legal so far (quick to try under every reading)
    out["short"] = folder / "short.json"
    out["short"].write_text(json.dumps({**short, "entries": short["entries"][:12]}), encoding="utf-8")
    return out


@pytest.mark.parametrize("game", ["rattus", "ratten_scharf"])
def test_replay_resolves_its_game_once(game: str, records_made: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    with counting(monkeypatch) as counts:
        assert cli.main(["replay", str(records_made[game]), "--at", "20"]) == 0
    assert "after 20 of" in capsys.readouterr().out
    _once(counts)
    with counting(monkeypatch) as counts:
        assert cli.main(["replay", "--json", str(records_made[game])]) == 0
    assert json.loads(capsys.readouterr().out)["position"]
    _once(counts)


@pytest.mark.parametrize("game", ["rattus", "ratten_scharf"])
def test_view_resolves_its_game_once(game: str, records_made: dict[str, Path], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "game.html"
    with counting(monkeypatch) as counts:
        assert cli.main(["view", str(records_made[game]), "-o", str(page)]) == 0
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    _once(counts)


def test_scenario_resolves_rattus_once_for_every_file(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(SCENARIOS / name) for name in ("final_round.scn", "knight_example.scn", "monk_example.scn")]
    with counting(monkeypatch) as counts:
        assert cli.main(["scenario", *files]) == 0
    assert capsys.readouterr().out.count(": ok") == 3
    _once(counts)


def test_study_resolves_its_game_once_for_every_work_item(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "ratten_scharf", "study", "--players", "2", "--games", "3", "--chunk", "1",
            "--switch", "table-size", "--workers", "1", "-o", str(tmp_path / "study")]
    with counting(monkeypatch) as counts:
        assert cli.main(argv) == 0
    assert "wrote" in capsys.readouterr().out
    _once(counts)


def test_a_study_worker_resolves_the_game_once_for_all_its_work_items(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a worker of another process does: it is given work items that name the game, not the game."""
    items = [Job(2, "random", range(s, s + 1), 40, (("table-size", "7"),), "ratten_scharf") for s in range(3)]
    with counting(monkeypatch) as counts:
        tallies = [run_job(item) for item in items]
    assert [t["default"]["games"] for t in tallies] == [1, 1, 1]
    _once(counts)


def _requests(record: dict[str, object]) -> bytes:
    lines: list[dict[str, object]] = [{"id": 0, "cmd": "hello"}]
    for seed in range(3):
        started = f"g{seed + 1}"
        lines += [{"cmd": "new", "players": 2, "seed": seed, "chance": "seed"}, {"cmd": "legal", "game": started},
                  {"cmd": "state", "game": started}]
    lines.append({"cmd": "validate", "record": record})
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


@pytest.mark.parametrize("game", ["rattus", "ratten_scharf"])
def test_serve_resolves_its_game_once_for_every_request(game: str, records_made: dict[str, Path],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    record = json.loads(records_made[game].read_text(encoding="utf-8"))
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_requests(record))))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, write_through=True))
    with counting(monkeypatch) as counts:
        assert cli.main(["--game", game, "serve"]) == 0
    answers = [json.loads(line) for line in out.getvalue().decode().splitlines()]
    assert len(answers) == 11 and all(a["ok"] for a in answers), answers
    assert answers[-1]["verdict"]["status"] == "legal"
    _once(counts)


def test_a_referee_session_given_its_game_resolved_looks_nothing_up(records_made: dict[str, Path],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from rattus_rules.api import resolve

    game = resolve("ratten_scharf")
    with counting(monkeypatch) as counts:
        session = referee.referee_session(game)
        started = session.answer({"cmd": "new", "players": 2, "seed": 1})
        assert session.answer({"cmd": "legal", "game": started["game"]})["ok"]
    assert (counts.resolves, counts.loads, counts.looked_up) == (0, 0, 0), counts


@pytest.mark.parametrize("argv", [
    ["interpretations"], ["--game", "ratten_scharf", "interpretations", "--json"],
    ["play", "--players", "2", "--seed", "3"], ["--game", "ratten_scharf", "play", "--seed", "1"],
    ["perft", "-n", "2", "-d", "2", "--chance", "first"], ["--game", "ratten_scharf", "perft", "-d", "2", "--divide"],
    ["tournament", "greedy", "random", "--games", "2", "-w", "1"],
    ["--game", "ratten_scharf", "strength", "--players", "2", "--budgets", "2", "--games", "1", "-w", "1",
     "--markdown", "{tmp}/strength.md"],
    ["render", "board", "-o", "{tmp}/board.svg"],
    ["render", "state", "--players", "3", "--moves", "6", "-o", "{tmp}/state.svg"],
    ["render", "state", "--from", "{rattus}", "--at", "30", "-o", "{tmp}/state.svg"],
    ["validate", "{rattus}"], ["--game", "ratten_scharf", "validate", "--json", "{ratten_scharf}"],
    ["validate", "--which-interpretations", "{short}"],
    ["validate", "--workers", "1", "{rattus}", "{rattus}", "{rattus}"],
    ["conformance", "make", "{tmp}/kit"], ["--game", "ratten_scharf", "conformance", "make", "{tmp}/kit"],
    ["--game", "ratten_scharf", "conformance", "check", "--only", "perft/2p", "--perft-depth", "1",
     "--engine", f"{sys.executable} -m rattus_rules --game ratten_scharf serve"],
], ids=lambda argv: " ".join(a for a in argv if "{" not in a and "/" not in a))
def test_every_other_command_resolves_its_game_once(argv: list[str], records_made: dict[str, Path], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    names = {"tmp": tmp_path, **records_made}
    argv = [a.format(**names) for a in argv]
    with counting(monkeypatch) as counts:
        assert cli.main(argv) == 0, argv
    _once(counts)


def test_decisive_resolves_its_game_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    option = {"switch": "table-size", "option": "7", "compared": 6, "winner_change": {"mean": 0.5, "low": 0.2}}
    found = {"game": {"name": "ratten_scharf"}, "params": {"agent": "random"},
             "results": {"2": {"options": [option]}}}
    study_file = tmp_path / "study.json"
    study_file.write_text(json.dumps({"studies": [found]}), encoding="utf-8")
    argv = ["--game", "ratten_scharf", "decisive", str(study_file), "--out", str(tmp_path / "games"),
            "--markdown", str(tmp_path / "decisive.md"), "--limit", "1"]
    with counting(monkeypatch) as counts:
        assert cli.main(argv) == 0
    assert "table-size=7" in (tmp_path / "decisive.md").read_text(encoding="utf-8")
    _once(counts)
