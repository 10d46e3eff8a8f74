"""The benchmark runs and prints its figures (no timing is asserted)."""

from __future__ import annotations

import pytest

from interpreter import Game
from rattus_rules.api import load_rules
from rattus_rules.cli import main
from rattus_rules.tools.bench.benchmark import measure_games, play_random_game


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
    assert "random games side by side: the C back end, the Python back end and the game's hand-written" in out
    assert "C/Python" in out and "Python/model" in out
    side = [line.split() for line in out.splitlines() if line.startswith(("rattus ", "ratten_scharf "))]
    assert ["rattus", "2", "5"] in [row[:3] for row in side]
    assert ["ratten_scharf", "2", "5"] in [row[:3] for row in side]
    assert "where the time goes, Rattus on python, 2 players" in out and "listing a turn" in out
    assert "2x the model is" in out
    assert "perft after setup, seed 0" in out and "seq/s" in out
    assert "records validated per second" in out and "players-eye" in out
    assert "getting the parser" in out and "no cache" in out and "cache warm" in out
    assert "first build of a variant" in out and "rat_check=both" in out
    assert "decision bound: 10000 player decisions per game; games cut at the bound: 0" in out


def test_the_record_benchmark_prints_both_kinds_and_the_yardstick(capsys: pytest.CaptureFixture[str]) -> None:
    from rattus_rules.tools.bench.recordbench import main as bench_records

    assert bench_records(["--seconds", "0", "--records", "2", "--any-core"]) == 0
    out = capsys.readouterr().out
    assert "omniscient" in out and "players-eye" in out and "yardstick" in out and "ratio" in out
    assert "lazy replay/s" in out
    rows = [line.split()[:2] for line in out.splitlines() if line.startswith(("rattus ", "ratten_scharf "))]
    assert rows == [[game, kind] for game in ("rattus", "ratten_scharf") for kind in ("omniscient", "players-eye")]
    assert bench_records(["--seconds", "0", "--conformance", "--game", "rattus", "--any-core"]) == 0
    out = capsys.readouterr().out
    assert "conformance kit" in out and [line.split()[2] for line in out.splitlines()
                                          if line.startswith("rattus ")] == ["6", "6"]  # 3 games, 2 rounds


def test_the_lazy_yardstick_replays_the_game_by_its_texts(rules: Game) -> None:
    # the second yardstick: a lazy state, each text tested on its own; it ends where the record does
    from rattus_rules.tools.bench.recordbench import conformance_records, lazy_replay_plan
    from rattus_rules.tools.records.validate import validate

    for record in conformance_records()["players-eye"]:
        lazy_replay_plan(rules, record)()  # raises IllegalAction if a text were not legal
        verdict = validate(record)
        assert verdict.finished and verdict.state is not None and verdict.state.lazy


def test_the_record_yardstick_replays_the_game(rules: Game) -> None:
    from rattus_rules.tools.bench.recordbench import conformance_records, replay_plan

    records = conformance_records()
    assert all(records.values())
    replay = replay_plan(rules, records["omniscient"][0])
    replay()  # raises if an index is not legal


def test_the_engines_side_by_side_play_the_same_seeds(rules: Game) -> None:
    from rattus_rules.tools.bench.benchmark import (
        load_reference_model,
        measure_side_by_side,
        reference_model_path,
        side_by_side_engines,
    )

    for name in ("rattus", "ratten_scharf"):
        path = reference_model_path(name)
        assert path is not None and path.parent.name == name
        game = rules if name == "rattus" else load_rules(game=name)
        engines = side_by_side_engines(name, 2, {"python": game}, load_reference_model(path))
        assert set(engines) == {"python", "model"}
        figures = measure_side_by_side(name, 2, engines, seconds=0.0, min_games=2, block=2)
        assert figures.games == 2 and set(figures.seconds) == {"python", "model"}
        assert figures.per_second("model") > 0 and figures.ratio("python", "model") > 0


def test_the_model_of_ratten_scharf_plays_the_very_games_of_the_spec() -> None:
    """Its options come in the spec's order, so the same picks by index make the same game."""
    import random

    from rattus_rules.paths import spec_dir
    from rattus_rules.tools.bench.benchmark import load_reference_model, reference_model_path

    path = reference_model_path("ratten_scharf")
    assert path is not None
    model = load_reference_model(path)
    game = load_rules(game="ratten_scharf")
    components = model.Components(spec_dir("ratten_scharf") / "data")
    settings = {game.switches[name].ident: value for name, value in game.defaults.items()}
    for seed in range(3):
        state, engine, rng = game.new_state(2, seed=seed), model.new_model(components, 2, settings), random.Random(seed)
        while not state.is_terminal():
            index = rng.randrange(state.num_legal_actions())
            assert engine.pending[1][index] == model.spec_legal(state)[index]  # the model writes strips by key
            state.apply_index(index)
            engine.apply(engine.pending[1][index])
        assert engine.pending is None and engine.points == state.scores()


def test_a_back_end_that_cannot_run_is_said_not_measured() -> None:
    from rattus_rules.tools.bench.benchmark import backend_running, load_under

    game, _ = load_under("python", "ratten_scharf")
    assert game is not None and backend_running(game) == "python"
    found, why = load_under("c", "ratten_scharf")
    assert (found is None) == (why.startswith(("not in this tree", "does not build"))), why


def test_perft_counts_the_last_ply_in_bulk(rules: Game) -> None:
    from rattus_rules.tools.bench.benchmark import measure_perft
    from rattus_rules.tools.kit.conformance import start_position
    from rattus_rules.tools.perft import perft

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
    from rattus_rules.tools.bench.benchmark import (
        load_reference_model,
        measure_split,
        reference_model_path,
        turn_decisions,
    )

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
