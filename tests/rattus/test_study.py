"""`rattus study`: paired games, intervals, the same results on any number of workers and on Dask."""

from __future__ import annotations

import csv
import json
import math
import socket
from pathlib import Path

import attrs
import pytest

from rattus_rules.algorithms.agents import GreedyPlayer
from rattus_rules.api import new_game
from rattus_rules.cli import main
from rattus_rules.tools.executor import partition, run_all
from rattus_rules.tools.study.stats import mean_interval, t_quantile, wilson
from rattus_rules.tools.study.study import StudyParams, play_game, run_study

SMALL = StudyParams(players=(2, 3), games=6, switches=("tie-break", "final-reveal-order"), chunk=2)


def test_wilson_interval_matches_the_formula_and_contains_the_rate() -> None:
    low, high = wilson(9, 100)
    assert (round(low, 4), round(high, 4)) == (0.0481, 0.1623)  # by hand: centre 0.10517, half 0.05710
    assert wilson(0, 20)[0] == 0.0 and 0.15 < wilson(0, 20)[1] < 0.17
    assert wilson(20, 20)[1] == 1.0
    for k, n in ((1, 3), (5, 40), (39, 40)):
        lo, hi = wilson(k, n)
        assert lo < k / n < hi


def test_mean_interval_uses_student_t() -> None:
    assert t_quantile(3) == pytest.approx(3.182, abs=1e-3)
    assert t_quantile(30) == pytest.approx(2.042, abs=2e-3)
    assert t_quantile(1000) == pytest.approx(1.962, abs=2e-3)
    est = mean_interval({0: 5, 10: 5})
    half = 2.262 * math.sqrt((10 * 25 / 9) / 10)
    assert est.mean == 5 and est.high - 5 == pytest.approx(half, abs=1e-9)
    assert mean_interval({}).n == 0


def _square(x: int) -> int:
    return x * x


def test_executor_keeps_the_order_of_items() -> None:
    assert partition(7, 3) == [range(0, 3), range(3, 6), range(6, 7)]
    assert run_all(_square, list(range(9)), workers=2) == [x * x for x in range(9)]
    with pytest.raises(ValueError):
        partition(5, 0)


@pytest.mark.parametrize("workers", [1, 2])
def test_executor_tells_each_item_done_as_its_result_arrives(workers: int) -> None:
    seen: list[int] = []
    results = run_all(_square, list(range(5)), workers=workers, done=lambda: seen.append(len(seen)))
    assert results == [0, 1, 4, 9, 16] and seen == [0, 1, 2, 3, 4]


def test_study_output_folder_is_checked_before_the_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["study", "--games", "1", "-o", str(blocker)]) == 2
    assert main(["study", "--games", "1", "-o", str(blocker / "below")]) == 2
    err = capsys.readouterr().err
    assert "not a folder" in err and "games" not in err  # refused before any game was played


def test_study_results_do_not_depend_on_the_workers() -> None:
    one = run_study(SMALL, workers=1)
    two = run_study(SMALL, workers=2)
    assert one["results"] == two["results"]
    assert one["run"]["games"] == 2 * 6 * (1 + len(SMALL.options()))  # 2 player counts, 6 seeds


def test_study_results_do_not_depend_on_the_chunk_size() -> None:
    assert run_study(attrs.evolve(SMALL, chunk=1), workers=1)["results"] == \
        run_study(attrs.evolve(SMALL, chunk=5), workers=1)["results"]


def test_study_on_a_dask_local_cluster_gives_the_same_results(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = run_study(SMALL, dask=cluster.scheduler_address)
        assert main(["study", "-n", "2", "--games", "2", "--switch", "tie-break", "--dask", cluster.scheduler_address,
                     "-o", str(tmp_path)]) == 0
    assert on_dask["results"] == run_study(SMALL, workers=1)["results"]
    assert on_dask["run"]["where"].startswith("dask")
    assert json.loads((tmp_path / "study.json").read_text())["studies"][0]["run"]["where"].startswith("dask")


def test_a_dask_address_where_nothing_listens_fails_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["study", "-n", "2", "--games", "2", "--switch", "tie-break", "--dask", f"tcp://127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert f"cannot run the study on tcp://127.0.0.1:{port}: no Dask scheduler answers there (Connection refused)" \
        in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_reading_that_only_names_the_winner_changes_it_exactly_at_ties() -> None:
    seeds = range(12)
    result = run_study(StudyParams(players=(2,), games=len(seeds), switches=("tie-break",)), workers=1)
    option = result["results"]["2"]["options"][0]
    ties = 0
    for s in seeds:
        base = play_game(2, s, {}, "random")
        shared = play_game(2, s, {"tie-break": "shared"}, "random")
        assert base.history == shared.history and base.scores == shared.scores
        ties += base.scores.count(max(base.scores)) > 1
    assert option["diverged"]["mean"] == 0
    assert round(option["winner_change"]["mean"] * option["compared"]) == ties >= 1
    assert option["score_delta"]["mean"] == 0


def test_cut_games_are_counted_and_left_out() -> None:
    result = run_study(StudyParams(players=(2,), games=2, switches=("tie-break",), cap=5), workers=1)
    r = result["results"]["2"]
    assert r["default"]["cut"] == 2 and r["default"]["end"]["cut"]["mean"] == 1
    assert r["options"][0]["compared"] == 0 and r["options"][0]["pairs"] == 2


def test_paired_games_replay_the_same_game() -> None:
    a = play_game(3, 5, {"final-reveal-order": "placed"}, "random")
    b = play_game(3, 5, {"final-reveal-order": "placed"}, "random")
    assert a == b and a.end in ("rats", "cubes") and a.winners


def test_greedy_player_takes_an_action_with_the_best_own_score() -> None:
    state = new_game(2, seed=3)
    player = GreedyPlayer(1)
    checked = 0
    for _ in range(40):
        values = []
        for i in range(state.num_legal_actions()):
            look = state.clone()
            look.apply_index(i)
            values.append(None if look.is_chance_node() else look.scores()[state.current_player])
        choice = player.choose(state)
        if None not in values:
            assert values[choice] == max(v for v in values if v is not None)
            checked += max(values) != min(values)  # type: ignore[type-var]
        state.apply_index(choice)
        state.advance_chance()
    assert checked >= 5


def test_study_command_writes_json_csv_html_plots_and_markdown(tmp_path: Path) -> None:
    out = tmp_path / "out"
    md = tmp_path / "study.md"
    assert main(["study", "-n", "2", "--games", "3", "--switch", "tie-break", "--switch", "reveal-order",
                 "--agent", "random", "--agent", "greedy:1", "-w", "1", "-o", str(out), "--markdown", str(md)]) == 0
    data = json.loads((out / "study.json").read_text())
    assert [s["params"]["agent"] for s in data["studies"]] == ["random", "greedy"]
    rows = list(csv.DictReader((out / "study.csv").open()))
    assert [(r["agent"], r["switch"], r["option"]) for r in rows] == [  # in the order asked for
        ("random", "tie-break", "shared"), ("random", "reveal-order", "placed"),
        ("greedy", "tie-break", "shared"), ("greedy", "reveal-order", "placed")]
    low, rate, high = (float(rows[0][k]) for k in ("winner_change_low", "winner_change", "winner_change_high"))
    assert low <= rate <= high
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 8 and "paired design" in page
    assert (out / "winner-change-greedy.png").read_bytes()[:4] == b"\x89PNG"
    text = md.read_text()
    assert "![Winner-change rate" in text and "| reveal-order | placed |" in text


@pytest.mark.parametrize("args", [["--agent", "clever"], ["--switch", "no-such-switch"], ["--workers", "0"],
                                  ["--players", "5"], ["--agent", "random:many"]])
def test_study_command_rejects_bad_input(args: list[str], tmp_path: Path) -> None:
    assert main(["study", "--games", "1", "-o", str(tmp_path), *args]) == 2


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "--games must be at least 1, not 0"),
    (["--chunk", "0"], "--chunk must be at least 1, not 0"),
    (["--workers", "-2"], "--workers must be at least 1, not -2"),
    (["--agent", "random:0"], "--agent random:0: GAMES must be at least 1"),
    (["--games", "3", "--seed", str(2**64 - 2)], f"plays seeds up to {2**64}, past the largest seed"),
    (["--games", "1", "--seed", str(2**64 - 1), "--agent", "random:3"],
     f"--seed {2**64 - 1} with --agent random:3 plays seeds up to {2**64 + 1}, past the largest seed"),
    (["-n", "2", "5", "1"], "--players takes 2, 3 or 4, not 5, 1"),
])
def test_study_names_the_option_it_refuses(args: list[str], message: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "-o", str(tmp_path), *args]) == 2
    assert message in capsys.readouterr().err


def test_study_params_check_every_seed_and_name_the_field() -> None:
    with pytest.raises(ValueError, match="chunk must be at least 1, not 0"):
        StudyParams(players=(2,), games=1, chunk=0).check()
    with pytest.raises(ValueError, match=r"the seeds .* do not all lie in 0 \.\. 2\^64-1"):
        StudyParams(players=(2,), games=2, seed=2**64 - 1).check()
    StudyParams(players=(2,), games=1, seed=2**64 - 1).check()  # the largest seed alone is fine
