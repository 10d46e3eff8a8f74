"""Tournaments: agents against each other in every seat rotation, win rates with intervals, and ratings.

A *line-up* names one agent per seat (``ismcts-200, greedy, greedy``).  For
every game seed the tournament plays the line-up once in each rotation of its
seats (seat ``s`` of rotation ``r`` is played by ``lineup[(s + r) % n]``), so
every agent sits in every seat equally often and a first-player advantage
cancels out.  Each seat's agent is seeded from the game seed and the seat, and
chance events draw from the game's own generator, so a game's result depends
only on its seed and rotation: the merged results are the same whatever the
number of workers.

Each agent's *win share* is its seats' share of the wins (a win shared by
``k`` winners counts ``1/k``), with a 95 % Wilson interval over the seats it
played.  The *rating* is a Bradley–Terry strength fitted to every
pair of seats held by different agents in every game (a winner beats each
non-winner; two winners, or two non-winners, draw), on the Elo scale: a gap
of 400 points means ten to one odds.

>>> r = run_tournament(TournamentParams(players=2, lineup=("greedy", "random"), games=2), workers=1)
>>> sorted(r["agents"]), r["games"]
(['greedy', 'random'], 4)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..api import MAX_SEED, ResolvedGame, resolve_in_process
from ..games import game_name
from ..tools.executor import DaskCluster, partition, run_all
from ..tools.study.stats import wilson
from .agents import DECISION_BOUND, make_agent, parse_agent

#: Seeds per work item.
CHUNK = 2


def _lineup(value: Sequence[str]) -> tuple[str, ...]:
    out = tuple(value)
    for name in out:
        parse_agent(name)  # raises ValueError naming the problem
    return out


def _named(game: str | ResolvedGame | None) -> str:
    return game.name if isinstance(game, ResolvedGame) else game_name(game)


@attrs.frozen
class TournamentParams:
    """What a tournament plays: the player count, one agent per seat, game seeds, the first seed, the game.

    The game is kept by its name (given resolved, its name): the parameters cross processes with the work
    items, a resolved game cannot.  Each process resolves it once (:func:`rattus_rules.api.resolve_in_process`):
    the command's own gives it the game it resolved (:func:`rattus_rules.api.keep_in_process`), a worker of
    another process resolves it at its first work item.
    """

    players: int
    lineup: tuple[str, ...] = attrs.field(converter=_lineup)
    games: int = 10
    seed: int = 0
    cap: int | None = DECISION_BOUND
    game: str = attrs.field(factory=game_name, converter=_named)

    def __attrs_post_init__(self) -> None:
        if len(self.lineup) != self.players:
            raise ValueError(f"a line-up names one agent per seat: {self.players} wanted, "
                             f"{len(self.lineup)} given ({', '.join(self.lineup)})")
        if len(set(self.lineup)) < 2:
            raise ValueError("a tournament needs at least two different agents in its line-up")
        if not 1 <= self.games <= 1_000_000:
            raise ValueError(f"games must be 1 to 1000000, not {self.games}")
        if not 0 <= self.seed <= MAX_SEED - self.games:
            raise ValueError(f"seed must be 0 to {MAX_SEED - self.games}")
        resolve_in_process(self.game).rules.new_state(self.players, seed=0)  # a player count the game has


@attrs.frozen
class Played:
    """One tournament game: its seed, rotation, the agent of each seat, the winners, the scores, cut or not."""

    seed: int
    rotation: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    cut: bool


def play_game(params: TournamentParams, seed: int, rotation: int) -> Played:
    """Play one game of the tournament: rotation ``rotation`` of the line-up, on game seed ``seed``."""
    n = params.players
    seats = tuple(params.lineup[(s + rotation) % n] for s in range(n))
    agents = [make_agent(name, seed * 64 + s) for s, name in enumerate(seats)]
    st = resolve_in_process(params.game).rules.new_state(n, seed=seed)
    decisions = 0
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_index(st.random_chance_index())
            continue
        if params.cap is not None and decisions >= params.cap:
            return Played(seed, rotation, seats, (), tuple(st.scores()), True)
        st.apply_index(agents[st.current_player].choose(st))
        decisions += 1
    return Played(seed, rotation, seats, tuple(st.winner() or ()), tuple(st.scores()), False)


def play_chunk(job: tuple[TournamentParams, range]) -> list[Played]:
    """Play the games of some seeds of a tournament, each in every rotation (one work item)."""
    params, seeds = job
    return [play_game(params, s, r) for s in seeds for r in range(params.players)]


def win_shares(games: Sequence[Played]) -> dict[str, dict[str, Any]]:
    """Each agent's win share over the seats it held, with its 95 % Wilson interval and the seats counted."""
    wins: dict[str, float] = {}
    seats: Counter[str] = Counter()
    for g in games:
        if g.cut:
            continue
        for seat, name in enumerate(g.seats):
            seats[name] += 1
            wins[name] = wins.get(name, 0.0) + (1 / len(g.winners) if seat in g.winners else 0.0)
    out = {}
    for name in sorted(seats):
        low, high = wilson(wins[name], seats[name])
        out[name] = {"win_share": round(wins[name] / seats[name], 6), "low": round(low, 6),
                     "high": round(high, 6), "seats": seats[name]}
    return out


def bradley_terry(games: Sequence[Played], rounds: int = 2000) -> dict[str, float]:
    """Elo-scale ratings fitted by Hunter's MM algorithm to the pairwise results of every game.

    A draw counts half a win to each side; every agent also gets one draw against a virtual agent
    of the mean strength, so that an agent that never lost keeps a finite rating.  The ratings are
    shifted so that their mean is 0.
    """
    wins: Counter[tuple[str, str]] = Counter()  # (a, b): half-wins of a over b
    names: set[str] = set()
    for g in games:
        if g.cut:
            continue
        won = set(g.winners)
        for i, a in enumerate(g.seats):
            names.add(a)
            for j, b in enumerate(g.seats):
                if i == j or a == b:
                    continue
                if (i in won) == (j in won):
                    wins[(a, b)] += 1
                elif i in won:
                    wins[(a, b)] += 2
    agents = sorted(names)
    if len(agents) < 2:
        return {a: 0.0 for a in agents}
    gamma = dict.fromkeys(agents, 1.0)
    for _ in range(rounds):
        new = {}
        for a in agents:
            won_halves = sum(wins[(a, b)] for b in agents) + 1  # + the virtual draw (half a win, in halves)
            denom = 0.0
            for b in agents:
                n_ab = wins[(a, b)] + wins[(b, a)]
                if n_ab:
                    denom += n_ab / (gamma[a] + gamma[b])
            denom += 2.0 / (gamma[a] + 1.0)  # the virtual agent of strength 1, one game (two halves)
            new[a] = won_halves / denom
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        new = {a: v / math.exp(mean_log) for a, v in new.items()}
        done = max(abs(math.log(new[a] / gamma[a])) for a in agents) < 1e-10
        gamma = new
        if done:
            break
    return {a: round(400.0 * math.log10(gamma[a]), 1) for a in agents}


def run_tournament(params: TournamentParams, workers: int | None = None,
                   tick: Callable[[], None] | None = None, dask: str | DaskCluster | None = None) -> dict[str, Any]:
    """Play the tournament on ``workers`` processes (or a Dask cluster) and sum it up as plain data."""
    items = [(params, seeds) for seeds in partition(params.games, CHUNK, params.seed)]
    played = [g for chunk in run_all(play_chunk, items, workers, dask=dask, done=tick) for g in chunk]
    return summary(params, played)


def summary(params: TournamentParams, played: Sequence[Played]) -> dict[str, Any]:
    """A tournament's results as plain data: its settings, win shares, ratings, cut games."""
    return {
        "game": params.game,
        "players": params.players,
        "lineup": list(params.lineup),
        "seeds": [params.seed, params.seed + params.games - 1],
        "games": len(played),
        "cut": sum(g.cut for g in played),
        "agents": win_shares(played),
        "ratings": bradley_terry(played),
    }

