"""The benchmark runs and prints its figures (no timing is asserted)."""

from __future__ import annotations

import pytest

from interpreter import Game
from rattus_rules.benchmark import measure_games, play_random_game
from rattus_rules.cli import main


def test_random_game_counts_actions_and_decisions(rules: Game) -> None:
    played = play_random_game(rules, 3, seed=5)
    assert 0 < played.decisions < played.actions and not played.cut
    assert play_random_game(rules, 3, seed=5) == played


def test_random_games_are_cut_at_the_decision_bound(rules: Game) -> None:
    # Under phase-b-optional=yes a game may never end (docs/rules-as-written.md): the bound cuts it.
    played = play_random_game(rules, 3, seed=5, max_decisions=10)
    assert played.cut and played.decisions == 10
    figures = measure_games(rules, 2, seconds=0.0, min_games=2, max_decisions=10)
    assert figures.cut == 2


def test_measure_games_plays_at_least_the_minimum(rules: Game) -> None:
    figures = measure_games(rules, 2, seconds=0.0, min_games=3)
    assert figures.games == 3 and figures.actions > figures.decisions > 0
    assert figures.games_per_second > 0


def test_rattus_bench_prints_games_and_load_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0", "--runs", "1", "--players", "2", "--any-core"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "cores" in out and "Python 3." in out
    assert "getting the parser" in out and "no cache" in out and "cache warm" in out
    assert "decision bound: 10000 player decisions per game; games cut at the bound: 0" in out


def test_the_record_benchmark_prints_both_kinds_and_the_yardstick(capsys: pytest.CaptureFixture[str]) -> None:
    from rattus_rules.recordbench import main as bench_records

    assert bench_records(["--seconds", "0", "--any-core"]) == 0
    out = capsys.readouterr().out
    assert "omniscient" in out and "players-eye" in out and "yardstick" in out and "ratio" in out


def test_the_record_yardstick_replays_the_game(rules: Game) -> None:
    from rattus_rules.recordbench import conformance_records, replay_plan

    records = conformance_records()
    assert all(records.values())
    replay = replay_plan(rules, records["omniscient"][0])
    replay()  # raises if an index is not legal
