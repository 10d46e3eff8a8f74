"""Tournaments: every seat rotation, win shares with intervals, Bradley–Terry ratings, the command line."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rattus_rules.algorithms.tournament import (
    Played,
    TournamentParams,
    bradley_terry,
    play_chunk,
    run_tournament,
    win_shares,
)
from rattus_rules.cli import main


def game(seats: tuple[str, ...], winners: tuple[int, ...]) -> Played:
    return Played(0, 0, seats, winners, tuple(0 for _ in seats), False)


def test_ratings_order_agents_by_their_results() -> None:
    games = [game(("a", "b"), (0,))] * 30 + [game(("a", "b"), (1,))] * 10 + [game(("b", "c"), (0,))] * 30 \
        + [game(("b", "c"), (1,))] * 10
    r = bradley_terry(games)
    assert r["a"] > r["b"] > r["c"]
    assert abs(sum(r.values())) < 1.0
    # three to one odds is about 191 Elo points
    assert 150 < r["a"] - r["b"] < 230
    even = bradley_terry([game(("a", "b"), (0,)), game(("a", "b"), (1,))])
    assert even["a"] == even["b"]
    # an agent that never lost keeps a finite rating
    assert bradley_terry([game(("a", "b"), (0,))] * 5)["a"] < 2000


def test_win_shares_count_shared_wins_in_part() -> None:
    games = [game(("a", "b", "b"), (0, 1)), game(("a", "b", "b"), (2,)), game(("b", "a", "b"), (1,))]
    shares = win_shares(games)
    assert shares["a"]["seats"] == 3 and shares["b"]["seats"] == 6
    assert shares["a"]["win_share"] == pytest.approx((0.5 + 0 + 1) / 3)
    assert shares["b"]["win_share"] == pytest.approx((0.5 + 1) / 6)
    assert 0 <= shares["a"]["low"] <= shares["a"]["win_share"] <= shares["a"]["high"] <= 1


def test_every_agent_sits_in_every_seat() -> None:
    params = TournamentParams(players=3, lineup=("greedy", "random", "random"), games=2)
    played = play_chunk((params, range(0, 2)))
    assert len(played) == 6
    seats = Counter((g.seats.index("greedy")) for g in played)
    assert seats == {0: 2, 1: 2, 2: 2}
    assert all(not g.cut and g.winners for g in played)


def test_results_do_not_depend_on_the_workers() -> None:
    params = TournamentParams(players=2, lineup=("ismcts-5", "random"), games=3)
    assert run_tournament(params, workers=1) == run_tournament(params, workers=2)


@pytest.mark.parametrize("line_up", [("greedy",), ("greedy", "greedy"), ("greedy", "smart"), ("ismcts-0", "greedy")])
def test_bad_line_ups_are_refused(line_up: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        TournamentParams(players=len(line_up), lineup=line_up)


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.json"
    assert main(["tournament", "greedy", "random", "--games", "1", "-w", "1", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "rating" in text
    data = json.loads(out.read_text())
    assert data["games"] == 2 and set(data["agents"]) == {"greedy", "random"}
    assert main(["tournament", "greedy", "clever"]) == 2
    assert "unknown agent 'clever'" in capsys.readouterr().err
    page = tmp_path / "strength.md"
    assert main(["--game", "ratten_scharf", "strength", "--budgets", "3", "--games", "1", "-w", "1",
                 "--markdown", str(page)]) == 0
    text = page.read_text()
    assert text.index("**The answer.**") < text.index("## 2 players") < text.index("## How it was measured")
    assert "ismcts-3 vs greedy" in text and "ismcts-3 vs random" in text
    assert json.loads(page.with_suffix(".json").read_text())["tournaments"][0]["lineup"] == ["ismcts-3", "greedy"]
