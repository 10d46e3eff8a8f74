"""Soak every combination of switch options: random games, none may stop with a rule error.

For each combination of the options of the chosen switches (by default every
interpretation switch of the game; game settings stay as given), ``games``
random games are played from seeds 0, 1, ... (or from ``--first-seed``: a run
stopped early is taken up where it stopped).  A game that raises a rule error
(a decision with no option, a broken invariant with ``--invariants``) is
reported with how to replay it; the run exits 1 if any did.  The games go in
rounds of ``--chunk`` seeds over every combination, so that a run stopped early has
played about as many games of each; ``--out FILE`` rewrites a summary there after
each round (the command, the back end, every combination's tally).  Any game of the
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
from pathlib import Path

import attrs

from interpreter import RulesError

from ...algorithms.agents import DECISION_BOUND, play_random
from ...api import interpretations, new_game, rules_of


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
            players = 2 if game != "rattus" else 2 + seed % 3
            message = message or (f"seed {seed}: {err}\n  replay: rattus --game {game} play --players {players} "
                                  f"--seed {seed} {shown}")
    return Tally(settings, count, cut, errors, message)


def run(game: str, games: int, switches: Sequence[str] | None, fixed: dict[str, str], jobs: int = 1,
        invariants: bool = False, chunk: int = 500, note: Callable[[str], None] = print,
        rounds: Callable[[list[Tally]], None] | None = None, first_seed: int = 0) -> list[Tally]:
    """Soak every combination (with the ``fixed`` settings added): one :class:`Tally` each.

    Seeds ``first_seed`` to ``first_seed + games - 1`` go in rounds of ``chunk`` over every combination;
    after each round ``rounds`` (if given) gets the tallies so far."""
    every = [tuple(sorted({**fixed, **combo}.items())) for combo in combinations(game, switches)]
    todo = [(game, settings, first_seed + first, min(chunk, games - first), invariants)
            for first in range(0, games, chunk) for settings in every]
    merged: dict[tuple[tuple[str, str], ...], Tally] = {}
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        for number, t in enumerate(pool.map(soak, todo), 1):
            old = merged.get(t.settings)
            merged[t.settings] = t if old is None else Tally(t.settings, old.games + t.games, old.cut + t.cut,
                                                             old.errors + t.errors, old.first_error or t.first_error)
            done = merged[t.settings]
            if done.games == games:
                note(f"{describe(done.settings)}: {done.games} games, {done.errors} stopped by a rule error, "
                     f"{done.cut} cut" + (f"\n  {done.first_error}" if done.first_error else ""))
            if rounds is not None and number % len(every) == 0:
                rounds(list(merged.values()))
    return list(merged.values())


def describe(settings: tuple[tuple[str, str], ...]) -> str:
    """Settings as ``id=value, ...``."""
    return ", ".join(f"{k}={v}" for k, v in settings)


def summary(tallies: Sequence[Tally], command: str, backend: str, seconds: float, games: int,
            first_seed: int = 0) -> str:
    """The text a run writes to ``--out``: what ran, on which back end, and every combination's tally."""
    total = sum(t.games for t in tallies)
    errors = sum(t.errors for t in tallies)
    least = min((t.games for t in tallies), default=0)
    state = "finished" if least >= games else f"still running (or stopped): {least} of {games} games per combination"
    lines = [f"command: {command}", f"back end: {backend}", f"status: {state}",
             f"{len(tallies)} combinations, {total} games "
             f"(seeds {first_seed} to {first_seed + max(least - 1, 0)} at least, each combination), "
             f"{errors} stopped by a rule error, {sum(t.cut for t in tallies)} cut ({seconds:.0f} s)", ""]
    for t in sorted(tallies, key=lambda t: t.settings):
        lines.append(f"{describe(t.settings)}: {t.games} games, {t.errors} stopped by a rule error, {t.cut} cut")
        if t.first_error:
            lines.append(f"  {t.first_error}")
    return "\n".join(lines) + "\n"


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
    parser.add_argument("--first-seed", type=int, default=0,
                        help="seed of each combination's first game (default 0): take up a run stopped early")
    parser.add_argument("--chunk", type=int, default=500, help="seeds per round and work item (default 500)")
    parser.add_argument("--out", type=Path, default=None,
                        help="write a summary here after each round (the command, back end and every tally)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.chunk < 1:
        parser.error("--games and --chunk are at least 1")
    if not 0 <= args.first_seed <= 2**62:
        parser.error("--first-seed is from 0 to 2**62")
    fixed = dict(item.split("=", 1) for item in args.setting)
    rules = rules_of(args.game)
    backend = rules.backend(rules.settings_for(fixed)).backend
    command = "python -m rattus_rules.tools.bench.combinations " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"soak of {args.game}: {args.games} games per combination, back end {backend}", flush=True)
    began = time.perf_counter()

    def write(tallies: list[Tally]) -> None:
        if args.out is not None:
            args.out.write_text(summary(tallies, command, backend, time.perf_counter() - began, args.games,
                                              args.first_seed),
                                encoding="utf-8")

    tallies = run(args.game, args.games, args.switch, fixed, args.jobs, args.invariants, args.chunk, rounds=write,
                  first_seed=args.first_seed)
    write(tallies)
    total = sum(t.games for t in tallies)
    errors = sum(t.errors for t in tallies)
    print(f"{len(tallies)} combinations, {total} games, {errors} stopped by a rule error "
          f"({time.perf_counter() - began:.0f} s)", flush=True)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
