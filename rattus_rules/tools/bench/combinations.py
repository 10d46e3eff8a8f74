"""Soak every combination of switch options: random games, none may stop with a rule error.

For each combination of the options of the chosen switches (by default every
interpretation switch of the game; game settings stay as given), ``games``
random games are played from seeds 0, 1, ...  A game that raises a rule error
(a decision with no option, a broken invariant with ``--invariants``) is
reported with how to replay it; the run exits 1 if any did.  Any game of the
registry::

    python -m rattus_rules.tools.bench.combinations --game ratten_scharf --games 20000 \\
        --switch cover --switch group-scoring --switch no-fit --setting table-size=5
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

import attrs

from interpreter import RulesError

from ...algorithms.agents import DECISION_BOUND, play_random
from ...api import interpretations, new_game


@attrs.frozen
class Tally:
    """The games of one combination: how many were played, cut at the decision bound, stopped by an error
    (with the first error's message)."""

    settings: tuple[tuple[str, str], ...]
    games: int
    cut: int
    errors: int
    first_error: str = ""


def combinations(game: str, switches: Sequence[str] | None) -> list[dict[str, str]]:
    """Every combination of the options of these switches (None: every switch, no setting) of a game."""
    known = {i.id: i for i in interpretations(game=game)}
    chosen = [s for s in known if not known[s].setting] if switches is None else list(switches)
    unknown = [s for s in chosen if s not in known]
    if unknown:
        raise ValueError(f"unknown switch(es) of {game}: {', '.join(unknown)}")
    options = [[o.value for o in known[s].options] for s in chosen]
    return [dict(zip(chosen, values)) for values in itertools.product(*options)]


def soak(job: tuple[str, tuple[tuple[str, str], ...], int, int, bool]) -> Tally:
    """Play ``count`` random games from seed ``first`` under settings; a :class:`Tally`."""
    game, settings, first, count, invariants = job
    cut = errors = 0
    message = ""
    for seed in range(first, first + count):
        state = new_game(2 if game != "rattus" else 2 + seed % 3, seed=seed, interpretations=dict(settings),
                         check_invariants=invariants, resolve_setup_chance=False, game=game)
        try:
            cut += play_random(state, seed, DECISION_BOUND).cut
        except RulesError as err:
            errors += 1
            shown = " ".join(f"--interpretation {k}={v}" for k, v in settings)
            message = message or (f"seed {seed}: {err}\n  replay: rattus --game {game} play --seed {seed} {shown}")
    return Tally(settings, count, cut, errors, message)


def run(game: str, games: int, switches: Sequence[str] | None, fixed: dict[str, str], jobs: int = 1,
        invariants: bool = False, chunk: int = 500, note: Callable[[str], None] = print) -> list[Tally]:
    """Soak every combination (with the ``fixed`` settings added): one :class:`Tally` each."""
    todo = []
    for combo in combinations(game, switches):
        settings = tuple(sorted({**fixed, **combo}.items()))
        todo += [(game, settings, first, min(chunk, games - first), invariants) for first in range(0, games, chunk)]
    merged: dict[tuple[tuple[str, str], ...], Tally] = {}
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        for t in pool.map(soak, todo):
            old = merged.get(t.settings)
            merged[t.settings] = t if old is None else Tally(t.settings, old.games + t.games, old.cut + t.cut,
                                                             old.errors + t.errors, old.first_error or t.first_error)
            done = merged[t.settings]
            if done.games == games:
                shown = ", ".join(f"{k}={v}" for k, v in done.settings)
                note(f"{shown}: {done.games} games, {done.errors} stopped by a rule error, {done.cut} cut"
                     + (f"\n  {done.first_error}" if done.first_error else ""))
    return list(merged.values())


def main(argv: list[str] | None = None) -> int:
    """The command line: exit 1 if any game stopped with a rule error."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--game", default="ratten_scharf")
    parser.add_argument("--games", type=int, default=1000, help="games per combination (default 1000)")
    parser.add_argument("--switch", action="append", default=None, help="soak this switch's options; repeatable")
    parser.add_argument("--setting", action="append", default=[], metavar="ID=VALUE",
                        help="a setting (or switch) fixed for every game; repeatable")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--invariants", action="store_true", help="check every invariant after each step")
    args = parser.parse_args(argv)
    fixed = dict(item.split("=", 1) for item in args.setting)
    began = time.perf_counter()
    tallies = run(args.game, args.games, args.switch, fixed, args.jobs, args.invariants)
    total = sum(t.games for t in tallies)
    errors = sum(t.errors for t in tallies)
    print(f"{len(tallies)} combinations, {total} games, {errors} stopped by a rule error "
          f"({time.perf_counter() - began:.0f} s)", flush=True)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
