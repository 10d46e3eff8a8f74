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
    assert main(["bench", "--seconds", "0", "--runs", "1", "--players", "2", "--any-core", "--perft-depth", "2"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "cores" in out and "Python 3." in out
    assert "against the reference model (tests/rattus/reference_model.py" in out and "spec/model" in out
    assert "where the time goes, 2 players" in out and "listing a turn" in out and "2x the model is" in out
    assert "perft after setup (4 players, seed 0), depth 2:" in out and "sequences/s" in out
    assert "getting the parser" in out and "no cache" in out and "cache warm" in out
    assert "decision bound: 10000 player decisions per game; games cut at the bound: 0" in out


def test_the_record_benchmark_prints_both_kinds_and_the_yardstick(capsys: pytest.CaptureFixture[str]) -> None:
    from rattus_rules.recordbench import main as bench_records

    assert bench_records(["--seconds", "0", "--any-core"]) == 0
    out = capsys.readouterr().out
    assert "omniscient" in out and "players-eye" in out and "yardstick" in out and "ratio" in out
    assert "lazy replay/s" in out


def test_the_lazy_yardstick_replays_the_game_by_its_texts(rules: Game) -> None:
    # the second yardstick: a lazy state, each text tested on its own; it ends where the record does
    from rattus_rules.recordbench import conformance_records, lazy_replay_plan
    from rattus_rules.records import validate

    for record in conformance_records()["players-eye"]:
        lazy_replay_plan(rules, record)()  # raises IllegalAction if a text were not legal
        verdict = validate(record)
        assert verdict.finished and verdict.state is not None and verdict.state.lazy


def test_the_record_yardstick_replays_the_game(rules: Game) -> None:
    from rattus_rules.recordbench import conformance_records, replay_plan

    records = conformance_records()
    assert all(records.values())
    replay = replay_plan(rules, records["omniscient"][0])
    replay()  # raises if an index is not legal


def test_the_yardstick_games_are_the_same_games_on_both_engines(rules: Game) -> None:
    from rattus_rules.benchmark import load_reference_model, measure_against_model, reference_model_path

    path = reference_model_path()
    assert path is not None and path.name == "reference_model.py"
    figures = measure_against_model(rules, load_reference_model(path), 3, seconds=0.0, min_games=2, block=2)
    assert figures.games == 2 and figures.spec_seconds > 0 and figures.model_seconds > 0 and figures.ratio > 0


def test_perft_counts_the_last_ply_in_bulk(rules: Game) -> None:
    from interpreter.tools.perft import perft
    from rattus_rules.benchmark import measure_perft
    from rattus_rules.conformance import start_position

    state, _ = start_position(2, seed=3)
    by_hand = 0
    for i in range(state.num_legal_actions()):
        child = state.clone()
        child.apply_index(i)
        child.advance_chance()
        by_hand += 0 if child.is_terminal() else child.num_legal_actions()
    assert perft(state, 2) == by_hand > state.num_legal_actions() > 0
    figures = measure_perft(2, players=2, seed=3)
    assert figures.sequences == by_hand and figures.per_second > 0


def test_the_time_split_times_the_turn_listing_and_puts_it_back(rules: Game) -> None:
    from rattus_rules.benchmark import load_reference_model, measure_split, reference_model_path, turn_decisions

    path = reference_model_path()
    assert path is not None
    model = load_reference_model(path)
    decisions = turn_decisions(rules)
    assert decisions and all(d.rule for d in decisions)
    before = [list(d.pends) for d in decisions], model.Rattus.options
    split = measure_split(rules, model, 4, 3)
    assert 0 < split.spec_listing < split.spec_total and 0 < split.model_listing < split.model_total
    assert split.budget == split.model_total / 2 and split.per_game(3.0) == 1000.0
    assert ([list(d.pends) for d in decisions], model.Rattus.options) == before  # the wrappers are gone
