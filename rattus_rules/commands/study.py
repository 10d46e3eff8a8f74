"""`rattus study`: which readings matter, by paired games on all cores or a Dask cluster."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from ..algorithms.agents import AGENTS, add_bound_option, parse_agent
from ..api import MAX_SEED
from ..games import DEFAULT_GAME
from ..tools.progress import progress as study_bar
from ..tools.study.study import CHUNK, DECISION_CAP, StudyParams, counts_text, jobs, run_study
from .common import (
    EXIT_OK,
    UsageError,
    add_parallel_options,
    check_output,
    check_output_folder,
    command_game,
    dask_target,
    parse_interpretations,
    seed_arg,
    workers_arg,
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `study` subcommand."""
    p = sub.add_parser(
        "study", help="paired games under each switch option against the defaults: which readings matter",
        description="Play paired games (same seeds, agents and chance draws) under each interpretation "
                    "switch option and under the defaults; write JSON, CSV, plots and an HTML report.")
    p.add_argument("--players", "-n", type=int, nargs="+", default=None,
                   help="player counts (default: every count the game allows)")
    p.add_argument("--games", type=int, default=100, help="seeds (pairs) per player count (default 100)")
    p.add_argument("--agent", "-a", action="append", default=[], metavar="NAME[:GAMES]",
                   help=f"the players' agent ({', '.join(AGENTS)}, ismcts-ITERATIONS[-ROLLOUT]; default random), "
                        "optionally with its own number of games; repeatable: one study per agent")
    p.add_argument("--seed", "-s", type=seed_arg, default=0, help="first game seed (default 0)")
    p.add_argument("--switch", action="append", default=None, metavar="ID", help="study only this switch; repeatable")
    add_bound_option(p)
    p.add_argument("--base", action="append", default=[], metavar="ID=VALUE",
                   help="compare each option with games under this setting instead of the default "
                        "(for example a table size); repeatable")
    p.add_argument("--chunk", type=int, default=CHUNK, help=f"seeds per work item (default {CHUNK})")
    add_parallel_options(p)
    p.add_argument("--output", "--out", "-o", dest="output", default="study",
                   help="folder for study.json, study.csv, plots, report.html (default: study)")
    p.add_argument("--markdown", metavar="FILE", help="also write the report as Markdown (for the docs)")
    p.add_argument("--title", metavar="TEXT", help="the report's title (default: Which readings matter)")
    p.set_defaults(run=run, any_game=True)


def _agents(items: list[str], games: int) -> list[tuple[str, int]]:
    out = []
    for item in items or ["random"]:
        name, sep, count = item.partition(":")
        try:
            parse_agent(name)
        except ValueError as err:
            raise UsageError(str(err)) from None
        if sep and not count.isdigit():
            raise UsageError(f"--agent takes NAME or NAME:GAMES, not {item!r}")
        if sep and int(count) < 1:
            raise UsageError(f"--agent {item}: GAMES must be at least 1")
        out.append((name, int(count) if sep else games))
    return out


def run(args: argparse.Namespace) -> int:
    """Run one study per agent, print the largest winner-change rates, write the files."""
    from ..tools.study.study_report import NO_PLOTS, can_plot, write_report

    for option, value in (("--games", args.games), ("--chunk", args.chunk)):
        if value is not None and value < 1:
            raise UsageError(f"{option} must be at least 1, not {value}")
    args.workers = workers_arg(args.workers)
    dask = dask_target(args)
    game = command_game(args)  # the game chosen with --game, resolved once: the studies are given it
    rules = game.rules
    counts = list(range(rules.min_players, rules.max_players + 1))
    player_counts = args.players or counts
    bad = [n for n in player_counts if n not in counts]
    if bad:
        raise UsageError(f"--players takes {counts_text(range(counts[0], counts[-1] + 1))}, "
                         f"not {', '.join(map(str, bad))} ({rules.title})")
    agents = _agents(args.agent, args.games)
    for agent, games in [("", args.games), *agents]:  # every seed an agent plays, not only the first
        last = args.seed + games - 1
        if last > MAX_SEED:
            given = f"--agent {agent}:{games}" if agent and games != args.games else f"--games {games}"
            raise UsageError(f"--seed {args.seed} with {given} plays seeds up to {last}, past the "
                             "largest seed, 2^64-1")
    check_output_folder(args.output, "--output")
    check_output(args.markdown, "--markdown")
    if not can_plot():  # said before the games are played, not after
        print(f"rattus study: {NO_PLOTS}", file=sys.stderr)
    results = []
    for agent, games in agents:
        params = StudyParams(players=tuple(player_counts), games=games, agent=agent, seed=args.seed, game=game,
                             switches=None if args.switch is None else tuple(args.switch),
                             cap=args.max_decisions, chunk=args.chunk,
                             base=tuple(sorted((k.replace("_", "-"), v)
                                               for k, v in parse_interpretations(args.base).items())))
        try:
            params.check(game)
        except ValueError as err:
            raise UsageError(str(err)) from None
        def progress(line: str, agent: str = agent) -> None:
            print(f"{agent}: {line}", file=sys.stderr)

        try:
            with study_bar(len(jobs(params, game)), f"study, {agent} agent", unit=" work item") as bar:
                result = run_study(params, workers=args.workers, dask=dask, progress=progress,
                                   done=bar.update, game=game)
        except OSError as err:  # the Dask scheduler cannot be reached
            raise UsageError(f"cannot run the study on {args.dask}: {err}") from None
        results.append(result)
        for players, r in result["results"].items():
            top = sorted(r["options"], key=lambda o: -o["winner_change"]["mean"])[:3]
            shown = ", ".join(f"{o['switch']}={o['option']} {100 * o['winner_change']['mean']:.0f} %"
                              f" [{100 * o['winner_change']['low']:.0f}, {100 * o['winner_change']['high']:.0f}]"
                              for o in top)
            print(f"{agent}, {players} players: winner changes most under {shown}")
    markdown = Path(args.markdown) if args.markdown else None
    bound = [] if args.max_decisions == DECISION_CAP else ["--max-decisions", str(args.max_decisions or 0)]
    chosen = game.name
    named = [] if chosen == DEFAULT_GAME else ["--game", chosen]
    command = shlex.join(["rattus", *named, "study", "--players", *map(str, player_counts), "--seed", str(args.seed),
                          *[x for r in results for x in ("--agent", f"{r['params']['agent']}:{r['params']['games']}")],
                          *bound,
                          *[x for s in args.switch or [] for x in ("--switch", s)],
                          *[x for b in args.base for x in ("--base", b)]])
    try:
        title = (args.title or "Which readings matter") + ("" if chosen == DEFAULT_GAME else f": {rules.title}")
        written = write_report(results, Path(args.output), title=title, markdown=markdown, command=command,
                               game=game)
    except ValueError as err:
        raise UsageError(str(err)) from None
    print(f"wrote {len(written)} files to {args.output}" + (f" and {markdown}" if markdown else ""))
    return EXIT_OK
