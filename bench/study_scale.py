"""How `rattus study` scales: the speed-up from 1 to 2 local workers, and the time for 1 M pairs on paper.

Runs the same study with 1 worker (the yardstick) and with 2 worker processes,
checks that both give the same results, and prints the wall-time ratio with
the machine's load average (other work on the cores lowers it).  From the CPU
time per game it then estimates, on paper, the time for 1 M paired games of
one switch option (1 M games under the option plus 1 M under the defaults) on
1 core, 16 cores and a cluster of 10 nodes of 16 cores each.

Usage::

    python bench/study_scale.py [--games 48] [--players 4] [--agent random] [--efficiency 0.9]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rattus_rules.tools.study.study import StudyParams, run_study  # noqa: E402


def hours(seconds: float) -> str:
    """A duration in the largest fitting unit."""
    if seconds >= 2 * 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 120:
        return f"{seconds / 60:.0f} min"
    return f"{seconds:.0f} s"


def main() -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=48, help="seeds per player count (default 48)")
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--agent", default="random")
    parser.add_argument("--efficiency", type=float, default=None,
                        help="parallel efficiency assumed for 16 cores and the cluster (default: the measured one)")
    args = parser.parse_args()
    params = StudyParams(players=tuple(args.players), games=args.games, agent=args.agent)
    load = os.getloadavg()
    one = run_study(params, workers=1)
    two = run_study(params, workers=2)
    after = os.getloadavg()
    same = one["results"] == two["results"]
    speedup = one["run"]["seconds"] / two["run"]["seconds"]
    games = one["run"]["games"]
    per_game = one["run"]["cpu_seconds"] / games
    print(f"study: agent {args.agent}, players {args.players}, {args.games} seeds, {games} games "
          f"({len(params.options())} options + the defaults per seed)")
    print(f"cores: {os.cpu_count()}; load average before {load[0]:.1f}, after {after[0]:.1f}")
    print(f"1 worker : {one['run']['seconds']:.1f} s wall, {one['run']['cpu_seconds']:.1f} s CPU")
    print(f"2 workers: {two['run']['seconds']:.1f} s wall, {two['run']['cpu_seconds']:.1f} s CPU")
    print(f"speed-up 1 -> 2 workers: {speedup:.2f} (efficiency {speedup / 2:.0%}); same results: {same}")
    print(f"CPU per game: {1000 * per_game:.1f} ms; wall per game with 1 worker: "
          f"{1000 * one['run']['seconds'] / games:.1f} ms")
    eff = args.efficiency if args.efficiency is not None else min(1.0, speedup / 2)
    pair = 2 * per_game  # one game under the option, one under the defaults
    print(f"1 M pairs of one switch option ({2_000_000} games, {1000 * pair:.1f} ms CPU per pair), "
          f"parallel efficiency {eff:.0%} beyond one core:")
    for label, cores in (("1 core", 1), ("16 cores", 16), ("10 nodes x 16 cores", 160)):
        seconds = 1e6 * pair / (1 if cores == 1 else cores * eff)
        print(f"  {label:<20} {hours(seconds)}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
