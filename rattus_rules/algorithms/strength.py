"""How strong the search is: tournaments of ISMCTS at a few budgets against the greedy and random players.

For each player count of the game and each budget, the search plays one seat
against the greedy player (then the random player) in every other seat, in
every seat rotation (:mod:`rattus_rules.algorithms.tournament`).  The page gives each line-up's win
share of the search with its 95 % interval beside the share an equal player
would have (one in ``n``), and the Bradley–Terry ratings of all agents of
that player count, fitted to every game of every line-up together.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ..api import ResolvedGame
from ..tools.executor import DaskCluster, partition, run_all
from .tournament import Played, TournamentParams, bradley_terry, play_chunk, summary

#: The opponents the search meets, in the page's order.
OPPONENTS = ("greedy", "random")


def line_ups(players: Sequence[int], budgets: Sequence[int],
             opponents: Sequence[str] = OPPONENTS) -> list[tuple[int, tuple[str, ...]]]:
    """Every line-up of the page: per player count, per budget, per opponent, one search seat."""
    return [(n, (f"ismcts-{b}", *[o] * (n - 1))) for n in players for b in budgets for o in opponents]


def run_strength(game: str | ResolvedGame, players: Sequence[int], budgets: Sequence[int], games: int, seed: int = 0,
                 workers: int | None = None, dask: str | DaskCluster | None = None,
                 opponents: Sequence[str] = OPPONENTS, done: Callable[[], None] | None = None) -> dict[str, Any]:
    """Play every line-up (:func:`line_ups`) on ``games`` seeds each, all work items in one pool (``game``:
    by name, or resolved already; see :class:`~rattus_rules.algorithms.tournament.TournamentParams` for
    where it is resolved)."""
    params = [TournamentParams(players=n, lineup=lineup, games=games, seed=seed, game=game)
              for n, lineup in line_ups(players, budgets, opponents)]
    name = game if isinstance(game, str) else game.name
    items = [(p, seeds) for p in params for seeds in partition(p.games, 1, p.seed)]
    started = time.perf_counter()
    chunks = run_all(play_chunk, items, workers, dask=dask, done=done)
    seconds = time.perf_counter() - started
    by_params: dict[int, list[Played]] = {}
    for (p, _), played in zip(items, chunks):
        by_params.setdefault(id(p), []).extend(played)
    results = [summary(p, by_params[id(p)]) for p in params]
    ratings = {str(n): bradley_terry([g for p in params if p.players == n for g in by_params[id(p)]])
               for n in players}
    return {"game": name, "players": list(players), "budgets": list(budgets), "games": games, "seed": seed,
            "seconds": round(seconds, 1), "tournaments": results, "ratings": ratings}


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def markdown(result: dict[str, Any], command: str, title: str) -> str:
    """The strength page: the answer first (does the search beat greedy?), then the tables and the method."""
    lines = [f"# {title}", ""]
    beats = []
    for t in result["tournaments"]:
        search, other = t["lineup"][0], t["lineup"][1]
        s = t["agents"][search]
        fair = 1 / t["players"]
        verdict = ("wins more often than an equal player would" if s["low"] > fair
                   else "wins less often than an equal player would" if s["high"] < fair
                   else "cannot be told from an equal player at this sample size")
        if other == "greedy":
            beats.append(f"- {t['players']} players, {search} against {other}: wins {_pct(s['win_share'])} of its "
                         f"seats [{_pct(s['low'])}, {_pct(s['high'])}], where an equal player wins {_pct(fair)}: "
                         f"it {verdict} ({s['seats']} seats).")
    lines += ["**The answer.** The search against the greedy player:", "", *beats, ""]
    for n in result["players"]:
        lines += [f"## {n} players", "",
                  "| line-up | seats | search wins | 95 % interval | an equal player | opponents win (each) |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for t in result["tournaments"]:
            if t["players"] != n:
                continue
            search, other = t["lineup"][0], t["lineup"][1]
            s, o = t["agents"][search], t["agents"][other]
            lines.append(f"| {search} vs {other} | {s['seats']} | {_pct(s['win_share'])} | "
                         f"{_pct(s['low'])} – {_pct(s['high'])} | {_pct(1 / n)} | {_pct(o['win_share'])} |")
        ratings = result["ratings"][str(n)]
        lines += ["", "Bradley–Terry ratings (Elo scale, mean 0), fitted to every game above:", "",
                  "| agent | rating |", "| --- | --- |",
                  *[f"| {a} | {r:+.0f} |" for a, r in sorted(ratings.items(), key=lambda kv: -kv[1])], ""]
    lines += ["## How it was measured", "",
              f"Made by `{command}` in {result['seconds']:.0f} s of wall time. "
              f"Each line-up was played on {result['games']} game seeds (from seed {result['seed']}), each seed "
              "once in every rotation of the seats, so the search sat in every seat equally often. "
              "`ismcts-N` is the information-set search with N iterations per decision (random play-outs of at "
              "most 12 player decisions, scored by the logistic of the lead); it sees only what its seat may "
              "see. The greedy player looks one decision ahead on the spec's `score` and, unlike the search, "
              "may see hidden faces in its look-ahead. A win shared by k players counts 1/k. Intervals are "
              "95 % Wilson intervals over the seats played.", ""]
    return "\n".join(lines)
