"""The record benchmark's set of Ratten Scharf records (``make bench-records``): seeded random games made
by the game-agnostic tools, the same on every run, all legal and finished, written both ways."""

from __future__ import annotations

import pytest

from rattus_rules.tools.bench.recordbench import bench_records, main
from rattus_rules.tools.records.validate import KINDS, OMNISCIENT, PLAYERS_EYE, record_game, validate

GAME = "ratten_scharf"


def test_the_set_is_made_again_alike_and_every_record_is_legal_and_finished() -> None:
    made = bench_records(GAME, 4)
    assert made == bench_records(GAME, 4)  # reproducible: seeds 1 to 4
    assert set(made) == set(KINDS) and all(len(made[kind]) == 4 for kind in KINDS)
    assert [r["seed"] for r in made[OMNISCIENT]] == [r["seed"] for r in made[PLAYERS_EYE]] == [1, 2, 3, 4]
    assert len({len(r["entries"]) for r in made[OMNISCIENT]}) > 1  # different games, not one game four times
    for kind, records in made.items():
        for record in records:
            assert record["game"] == GAME and record["kind"] == kind
            verdict = validate(record, game_name=GAME)
            assert verdict.ok and verdict.finished, verdict.format()
    # the same game either way: the players-eye record hides what the omniscient one states
    omniscient, eye = made[OMNISCIENT][0], made[PLAYERS_EYE][0]
    assert eye["viewer"] == "P1" and omniscient["entries"] != eye["entries"]
    assert validate(omniscient, game_name=GAME).scores == validate(eye, game_name=GAME).scores
    assert made[PLAYERS_EYE][1] == record_game(2, 2, kind=PLAYERS_EYE, viewer=1, game_name=GAME)


def test_the_benchmark_prints_both_kinds_of_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seconds", "0", "--records", "2", "--game", GAME, "--any-core"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith(GAME)]
    assert [row[1] for row in rows] == [OMNISCIENT, PLAYERS_EYE]
    assert all(int(row[2]) >= 4 and float(row[4]) > 0 and row[5] == "1000" for row in rows)  # 2 rounds of 2


def test_the_benchmark_refuses_what_it_cannot_measure(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--records", "0"], ["--game", "no_such_game"], ["--seconds", "-1"]):
        with pytest.raises(SystemExit) as caught:
            main([*argv, "--any-core"])
        assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "--records must be 1 to" in err and "no game 'no_such_game'" in err


def test_by_default_the_shipped_games_are_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from rattus_rules.games import GAMES_PATH_ENV, known_games
    from rattus_rules.tools.bench.recordbench import benched_games

    toys = Path(__file__).resolve().parents[1] / "language" / "specs"
    monkeypatch.setenv(GAMES_PATH_ENV, str(toys))
    assert "nim" in known_games()  # found, and measured only where --game names it (it may never end)
    assert benched_games() == ["rattus", GAME]
