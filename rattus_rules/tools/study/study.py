"""Which readings matter: paired games under each interpretation switch option against the defaults.

For every game seed, the study plays one game under the default readings and,
for every other option of every switch, one game in which only that switch is
changed: the same seed, the same agents (each seat its own seeded generator),
and the same chance draws.  Chance events are drawn from one generator per
kind of event (``rule:verb``, seeded from the game seed), not from one stream
for the whole game, so a reading that adds or drops a draw of one kind does not
shift the draws of the other kinds.  Two games of a pair are therefore
identical until the reading makes a difference, and every difference between
them is the reading's doing.  What is compared (winner, scores, length, end
reason, seat wins) is counted per pair and summed; the sums are integers, so
the merged result is the same whatever the number of workers (the seeds are cut
into fixed chunks by :func:`rattus_rules.tools.executor.partition`).

>>> result = run_study(StudyParams(players=(2,), games=2, switches=("tie-break",)), workers=1)
>>> option = result["results"]["2"]["options"][0]
>>> option["switch"], option["option"], option["pairs"]
('tie-break', 'shared', 2)
"""

from __future__ import annotations

import functools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from interpreter import State
from rattus_rules.algorithms.agents import DECISION_BOUND, make_agent, parse_agent
from rattus_rules.api import MAX_SEED, ResolvedGame, interpretations, new_game, resolve, resolve_in_process, rules_of
from rattus_rules.games import GameHooks, game_name, hooks

from ..executor import DaskCluster, local_cores, partition, run_all
from .stats import Estimate, mean_interval, proportion

#: Player decisions after which a study game is cut (a random game is about 100 to 200): some
#: readings allow a game that never ends (``phase-b-optional=yes``).  The bound of random play;
#: cut games are counted and left out of the comparisons.
DECISION_CAP = DECISION_BOUND

#: Seeds per work item: the unit that workers receive.
CHUNK = 8

#: The end reason of a game the study cut at the decision bound.
CUT = "cut"


def end_reasons(game: str | ResolvedGame | None = None) -> tuple[str, ...]:
    """Why a game of ``game`` (by name, or resolved already) may end, as the study counts it: its package's
    reasons (the ``end_reasons`` of :class:`rattus_rules.games.GameHooks`), else ``finished``; and ``cut``."""
    return (*_hooks(game).end_reasons, CUT)


def _hooks(game: str | ResolvedGame | None) -> GameHooks:
    return game.hooks if isinstance(game, ResolvedGame) else hooks(game)


def _named(game: str | ResolvedGame | None) -> str:
    """A study's game as its work items carry it across processes: the registry name."""
    return game.name if isinstance(game, ResolvedGame) else game_name(game)

Tally = dict[str, Any]


@attrs.frozen
class StudyParams:
    """What a study plays: player counts, games per count, agent, first seed, switches (None: all), and
    the game (a registry name or a folder; None: the selected game, else Rattus; given resolved, its name
    is kept: the parameters cross processes, a resolved game cannot).

    ``options`` and ``check`` take the game resolved once by the caller (else they resolve it by name).
    """

    players: tuple[int, ...] = (2, 3, 4)
    games: int = 100
    agent: str = "random"
    seed: int = 0
    switches: tuple[str, ...] | None = None
    cap: int | None = DECISION_CAP
    #: The settings every game of the study starts from, (id, value) pairs: the baseline each option
    #: is compared with, completed with the defaults (empty: the defaults).
    base: tuple[tuple[str, str], ...] = ()
    chunk: int = CHUNK
    game: str = attrs.field(factory=game_name, converter=_named)

    def options(self, game: ResolvedGame | None = None) -> list[tuple[str, str]]:
        """Every (switch, option) to compare with the default, in spec order."""
        known = {i.id: i for i in interpretations(game=self.game if game is None else game)}
        wanted = list(known) if self.switches is None else list(self.switches)
        unknown = [w for w in wanted if w not in known]
        if unknown:
            raise ValueError(f"unknown switch(es): {', '.join(unknown)}; see `rattus interpretations`"
                             if known else f"unknown switch(es): {', '.join(unknown)}; {self.game} has none")
        base = dict(self.base)
        unknown = [b for b in base if b not in known]
        if unknown:
            raise ValueError(f"unknown switch or setting in the baseline: {', '.join(unknown)}")
        for ident, value in base.items():
            if value not in [o.value for o in known[ident].options]:
                raise ValueError(f"the baseline sets {ident} to {value!r}, not one of its options")
        return [(w, o.value) for w in wanted for o in known[w].options if o.value != base.get(w, known[w].default)]

    def check(self, game: ResolvedGame | None = None) -> None:
        """Raise ValueError for impossible parameters."""
        parse_agent(self.agent)  # ValueError for an unknown agent or settings
        rules = rules_of(self.game if game is None else game)
        counts = range(rules.min_players, rules.max_players + 1)
        if not self.players or any(n not in counts for n in self.players):
            raise ValueError(f"players must be {counts_text(counts)} ({rules.title})")
        for name, value in (("games", self.games), ("chunk", self.chunk), ("cap", self.cap)):
            if value is not None and value < 1:
                raise ValueError(f"{name} must be at least 1, not {value}")
        last = self.seed + self.games - 1  # every seed played, not only the first, is a seed
        if not self.seed >= 0 or last > MAX_SEED:
            raise ValueError(f"the seeds {self.seed} .. {last} do not all lie in 0 .. 2^64-1")
        self.options(game)


@attrs.frozen
class Job:
    """One work item: a chunk of seeds at one player count."""

    players: int
    agent: str
    seeds: range
    cap: int | None
    options: tuple[tuple[str, str], ...]
    game: str
    base: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class Outcome:
    """One played game."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]  # empty if cut
    decisions: int
    end: str
    history: tuple[str, ...]

    @property
    def cut(self) -> bool:
        """Whether the study cut the game at the decision cap."""
        return self.end == "cut"


class ChanceStreams:
    """Chance outcomes from one seeded generator per kind of chance event."""

    def __init__(self, seed: int):
        self.seed = seed
        self.streams: dict[str, random.Random] = {}

    def choose(self, state: State) -> int:
        """The index of the outcome of the pending chance event."""
        assert state.pending is not None
        decision = state.pending.decision
        kind = f"{decision.rule}:{decision.branches[0].verb}"
        rng = self.streams.get(kind)
        if rng is None:
            rng = self.streams[kind] = random.Random(f"{self.seed}:{kind}")
        return rng.randrange(state.num_legal_actions())


def play_game(players: int, seed: int, settings: Mapping[str, str], agent: str,
              cap: int | None = DECISION_CAP, game: str | ResolvedGame | None = None,
              apply: Callable[[State, int], None] | None = None) -> Outcome:
    """Play one study game: seat ``s`` is agent ``agent`` seeded ``seed * 8 + s``; cut after ``cap`` decisions.
    ``apply(state, index)`` applies each action (default ``state.apply_index``), e.g. to record it.
    ``game``: by name (None: the selected one), or resolved already (as a study's work item gives it)."""
    game = resolve(game)
    step = apply or State.apply_index
    state = new_game(players, seed=seed, interpretations=settings, resolve_setup_chance=False, game=game)
    chance = ChanceStreams(seed)
    seats = [make_agent(agent, seed * 8 + s) for s in range(players)]
    decisions = 0
    reason = None
    why = game.hooks.end_reason
    while not state.is_terminal():
        if state.is_chance_node():
            step(state, chance.choose(state))
        else:
            if cap is not None and decisions >= cap:
                return Outcome(tuple(state.scores()), (), decisions, CUT, tuple(state.history))
            step(state, seats[state.current_player].choose(state))
            decisions += 1
        if reason is None and why is not None:
            reason = why(state)
    return Outcome(tuple(state.scores()), tuple(state.winner() or ()), decisions,
                   reason or end_reasons(game)[0], tuple(state.history))


def counts_text(counts: range) -> str:
    """Player counts in words: ``2, 3 or 4``."""
    numbers = [str(n) for n in counts]
    return numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " or " + numbers[-1]


def _reading_tally(games: Iterable[Outcome]) -> Tally:
    t: Tally = {"games": 0, "end": Counter(), "seat_wins": Counter(), "length": Counter(),
                "winning_score": Counter()}
    for g in games:
        t["games"] += 1
        t["end"][g.end] += 1
        if g.cut:
            continue
        t["length"][g.decisions] += 1
        for w in g.winners:
            t["seat_wins"][w] += 1
        t["winning_score"][max(g.scores)] += 1
    return t


def _pair_tally(pairs: Iterable[tuple[Outcome, Outcome]]) -> Tally:
    pairs = list(pairs)
    t: Tally = {"pairs": len(pairs), "compared": 0, "diverged": 0, "winner_changed": 0,
                "score_delta": Counter(), "abs_score_delta": Counter(), "length_delta": Counter(),
                "reading": _reading_tally(b for _, b in pairs)}
    for base, other in pairs:
        if base.cut or other.cut:
            continue
        t["compared"] += 1
        t["diverged"] += base.history != other.history
        t["winner_changed"] += base.winners != other.winners
        t["length_delta"][other.decisions - base.decisions] += 1
        for a, b in zip(base.scores, other.scores):
            t["score_delta"][b - a] += 1
        t["abs_score_delta"][sum(abs(b - a) for a, b in zip(base.scores, other.scores))] += 1
    return t


def run_job(job: Job, game: ResolvedGame | None = None) -> Tally:
    """Play a chunk of seeds under the defaults and under each option; the integer tallies.

    ``game``: the job's game resolved already (where the study runs it in its own process); a worker of
    another process is given the job alone, which names the game and its settings, and resolves the game
    once per process (:func:`rattus_rules.api.resolve_in_process`), not once per job or game.
    ``cpu_seconds`` (the CPU time of the thread that played the chunk) is not a tally: :func:`run_study` takes it out.
    """
    start = time.thread_time()
    played = resolve_in_process(job.game) if game is None else game
    start_from = dict(job.base)
    base = [play_game(job.players, s, start_from, job.agent, job.cap, played) for s in job.seeds]
    out: Tally = {"default": _reading_tally(base), "options": {}}
    for switch, option in job.options:
        others = [play_game(job.players, s, {**start_from, switch: option}, job.agent, job.cap, played)
                  for s in job.seeds]
        out["options"][f"{switch}={option}"] = _pair_tally(zip(base, others))
    out["cpu_seconds"] = time.thread_time() - start
    return out


def merge(a: Tally, b: Tally) -> Tally:
    """Two tallies added up (counts and counters), as a new tally."""
    out: Tally = {}
    for key in a.keys() | b.keys():
        x, y = a.get(key), b.get(key)
        if x is None or y is None:
            out[key] = x if y is None else y
        elif isinstance(x, Counter):
            out[key] = x + y
        elif isinstance(x, dict):
            out[key] = merge(x, y)
        else:
            out[key] = x + y
    return out


def jobs(params: StudyParams, game: ResolvedGame | None = None) -> list[Job]:
    """The work items of a study, in a fixed order that does not depend on the workers (``game``: the
    study's game resolved already, else by its name)."""
    options = tuple(params.options(game))
    return [Job(n, params.agent, seeds, params.cap, options, params.game, params.base)
            for n in params.players for seeds in partition(params.games, params.chunk, params.seed)]


def run_study(params: StudyParams, workers: int | None = None, dask: str | Any | None = None,
              progress: Callable[[str], None] | None = None,
              done: Callable[[], None] | None = None, game: ResolvedGame | None = None) -> dict[str, Any]:
    """Play the study and summarise it (see :func:`summarise`); ``run`` says how it ran.

    ``done`` is called once per work item finished (see :func:`jobs`), for a progress bar.  ``game``: the
    study's game resolved once by the caller (else resolved here from ``params.game``); the work items run
    in this process play it, those sent to other processes carry its name (:func:`run_job`).
    """
    game = resolve(params.game if game is None else game)
    params.check(game)
    items = jobs(params, game)
    start = time.perf_counter()
    tallies = run_all(run_job, items, workers=workers, dask=dask, done=done,
                      here=functools.partial(run_job, game=game))
    seconds = time.perf_counter() - start
    cpu = sum(t.pop("cpu_seconds") for t in tallies)
    merged: dict[int, Tally] = {}
    for job, tally in zip(items, tallies):
        merged[job.players] = merge(merged[job.players], tally) if job.players in merged else tally
    games = sum(t["default"]["games"] + sum(o["pairs"] for o in t["options"].values()) for t in merged.values())
    where = f"dask {dask}" if isinstance(dask, str | DaskCluster) else "dask" if dask is not None else \
        f"{workers or local_cores()} local process(es)"
    result = summarise(params, merged, game)
    result["run"] = {"seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3), "games": games, "where": where}
    if progress is not None:
        progress(f"{games} games in {seconds:.1f} s on {where}")
    return result


def _est(e: Estimate) -> dict[str, float | int]:
    return e.to_json()


def _reading_summary(t: Tally, players: int, reasons: tuple[str, ...]) -> dict[str, Any]:
    finished = t["games"] - t["end"].get(CUT, 0)
    return {
        "games": t["games"],
        "cut": t["end"].get(CUT, 0),
        "end": {r: _est(proportion(t["end"].get(r, 0), t["games"])) for r in reasons},
        "seat_win_rate": [_est(proportion(t["seat_wins"].get(s, 0), finished)) for s in range(players)],
        "length": _est(mean_interval(t["length"])),
        "winning_score": _est(mean_interval(t["winning_score"])),
    }


def _counts(c: Mapping[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in sorted(c.items())}


def summarise(params: StudyParams, merged: Mapping[int, Tally], game: ResolvedGame | None = None) -> dict[str, Any]:
    """Rates with 95 % intervals per player count and option; the raw counts for the distributions
    (``game``: the study's game resolved already, else resolved here from ``params.game``)."""
    game = resolve(params.game if game is None else game)
    results: dict[str, Any] = {}
    reasons = end_reasons(game)
    for players, t in sorted(merged.items()):
        options = []
        for key, p in t["options"].items():
            switch, _, option = key.partition("=")
            options.append({
                "switch": switch,
                "option": option,
                "pairs": p["pairs"],
                "compared": p["compared"],
                "winner_change": _est(proportion(p["winner_changed"], p["compared"])),
                "diverged": _est(proportion(p["diverged"], p["compared"])),
                "score_delta": _est(mean_interval(p["score_delta"])),
                "abs_score_delta": _est(mean_interval(p["abs_score_delta"])),
                "length_delta": _est(mean_interval(p["length_delta"])),
                "reading": _reading_summary(p["reading"], players, reasons),
                "distributions": {k: _counts(p[k]) for k in ("score_delta", "length_delta")}
                | {"length": _counts(p["reading"]["length"])},
            })
        order = {key: i for i, key in enumerate(f"{s}={o}" for s, o in params.options(game))}
        options.sort(key=lambda o: order[f"{o['switch']}={o['option']}"])
        results[str(players)] = {
            "default": _reading_summary(t["default"], players, reasons)
            | {"distributions": {"length": _counts(t["default"]["length"]),
                                 "winning_score": _counts(t["default"]["winning_score"])}},
            "options": options,
        }
    return {
        "game": {"name": params.game, "title": game.rules.title,
                 "end_reasons": dict(game.hooks.end_reasons), "score_unit": game.hooks.score_unit},
        "params": {"players": list(params.players), "games": params.games, "agent": params.agent,
                   "seed": params.seed, "switches": None if params.switches is None else list(params.switches),
                   "cap": params.cap, "chunk": params.chunk, "level": 0.95,
                   "base": dict(params.base)},
        "results": results,
    }


CSV_FIELDS = ("players", "switch", "option", "agent", "pairs", "compared", "cut",
              "winner_change", "winner_change_low", "winner_change_high",
              "diverged", "diverged_low", "diverged_high",
              "abs_score_delta", "abs_score_delta_low", "abs_score_delta_high",
              "score_delta", "score_delta_low", "score_delta_high",
              "length_delta", "length_delta_low", "length_delta_high")
"""The columns every study's CSV has; then, per end reason of the game, ``end_REASON`` and
``end_REASON_default`` (the share of games ending so under the option and under the defaults)."""


def csv_fields(result: Mapping[str, Any]) -> tuple[str, ...]:
    """The CSV columns of a study: :data:`CSV_FIELDS` and the game's end reasons."""
    return CSV_FIELDS + tuple(f"end_{r}{d}" for r in _reasons(result) for d in ("", "_default"))


def _reasons(result: Mapping[str, Any]) -> list[str]:
    """The game's end reasons in a result (``cut`` has a column of its own)."""
    return list(result["game"]["end_reasons"])


def csv_rows(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per player count and option: the figures with their interval bounds."""
    rows = []
    agent = result["params"]["agent"]
    for players, r in result["results"].items():
        for o in r["options"]:
            row: dict[str, Any] = {"players": players, "switch": o["switch"], "option": o["option"],
                                   "agent": agent, "pairs": o["pairs"], "compared": o["compared"],
                                   "cut": o["reading"]["cut"] + r["default"]["cut"]}
            for key in ("winner_change", "diverged", "abs_score_delta", "score_delta", "length_delta"):
                row[key], row[f"{key}_low"], row[f"{key}_high"] = (o[key]["mean"], o[key]["low"], o[key]["high"])
            for reason in _reasons(result):
                row[f"end_{reason}"] = o["reading"]["end"][reason]["mean"]
                row[f"end_{reason}_default"] = r["default"]["end"][reason]["mean"]
            rows.append(row)
    return rows
