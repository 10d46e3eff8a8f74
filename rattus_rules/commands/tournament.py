"""`rattus tournament` and `rattus strength`: agents against each other in every seat rotation."""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path

from ..api import keep_in_process
from ..games import DEFAULT_GAME
from ..tools.progress import progress as bar_of
from .common import (
    EXIT_OK,
    UsageError,
    add_parallel_options,
    check_output,
    command_game,
    dask_target,
    seed_arg,
    workers_arg,
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `tournament` and `strength` subcommands."""
    p = sub.add_parser(
        "tournament", help="agents against each other in every seat rotation: win shares and ratings",
        description="Play one agent per seat (e.g. ismcts-200 greedy greedy) on each game seed, once in every "
                    "rotation of the seats; print each agent's win share with its 95 % interval and the "
                    "Bradley-Terry ratings.")
    p.add_argument("agents", nargs="+", metavar="AGENT",
                   help="one agent per seat: random, greedy, ismcts or ismcts-ITERATIONS[-ROLLOUT]")
    p.add_argument("--games", type=int, default=10, help="game seeds, each played in every rotation (default 10)")
    p.add_argument("--seed", "-s", type=seed_arg, default=0, help="first game seed (default 0)")
    add_parallel_options(p)
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.set_defaults(run=run_tournament_command, any_game=True)

    s = sub.add_parser(
        "strength", help="how strong the ISMCTS player is: tournaments against greedy and random, as a page",
        description="For every player count, ISMCTS at each budget against the greedy and the random player, "
                    "in every seat rotation; write a Markdown page (answer first) and its JSON.")
    s.add_argument("--players", "-n", type=int, nargs="+", default=None,
                   help="player counts (default: every count the game allows)")
    s.add_argument("--budgets", type=int, nargs="+", default=[30, 100], metavar="ITERATIONS",
                   help="search iterations per decision (default 30 100)")
    s.add_argument("--games", type=int, default=10, help="game seeds per line-up (default 10)")
    s.add_argument("--seed", "-s", type=seed_arg, default=0, help="first game seed (default 0)")
    add_parallel_options(s)
    s.add_argument("--markdown", metavar="FILE", required=True, help="the page to write")
    s.set_defaults(run=run_strength_command, any_game=True)


def _positive(**values: int | None) -> None:
    for name, value in values.items():
        if value is not None and value < 1:
            raise UsageError(f"--{name} must be at least 1, not {value}")


def run_tournament_command(args: argparse.Namespace) -> int:
    """Play the tournament and print its table."""
    from ..algorithms.tournament import CHUNK, TournamentParams, run_tournament

    _positive(games=args.games)
    args.workers = workers_arg(args.workers)
    check_output(args.json, "--json")
    game = keep_in_process(command_game(args))  # resolved once; the games played here use it
    try:
        params = TournamentParams(players=len(args.agents), lineup=tuple(args.agents), games=args.games,
                                  seed=args.seed, game=game)
    except ValueError as err:
        raise UsageError(str(err)) from None
    try:
        with bar_of(len(range(0, args.games, CHUNK)), "tournament", unit=" work item") as bar:
            result = run_tournament(params, workers=args.workers, tick=bar.update, dask=dask_target(args))
    except OSError as err:
        raise UsageError(f"cannot run on {args.dask}: {err}") from None
    print(f"{result['games']} games ({result['cut']} cut), {params.players} players, seeds "
          f"{result['seeds'][0]}-{result['seeds'][1]}, every rotation of {' '.join(params.lineup)}")
    ratings = result["ratings"]
    for name, a in sorted(result["agents"].items(), key=lambda kv: -kv[1]["win_share"]):
        print(f"  {name:<22} wins {100 * a['win_share']:5.1f} % of {a['seats']} seats "
              f"[{100 * a['low']:.1f}, {100 * a['high']:.1f}]  rating {ratings[name]:+.0f}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return EXIT_OK


def run_strength_command(args: argparse.Namespace) -> int:
    """Play the strength tournaments and write the page."""
    from ..algorithms.strength import line_ups, markdown, run_strength

    _positive(games=args.games, **{"budgets": min(args.budgets)})
    args.workers = workers_arg(args.workers)
    game = keep_in_process(command_game(args))  # resolved once; the games played here use it
    rules = game.rules
    counts = list(range(rules.min_players, rules.max_players + 1))
    players = args.players or counts
    if any(n not in counts for n in players):
        raise UsageError(f"--players takes {counts[0]} to {counts[-1]} ({rules.title})")
    check_output(args.markdown, "--markdown")
    chosen = game.name
    items = len(line_ups(players, args.budgets)) * args.games
    try:
        with bar_of(items, "strength", unit=" game seed") as bar:
            result = run_strength(game, players, args.budgets, args.games, args.seed, args.workers,
                                  dask_target(args), done=bar.update)
    except OSError as err:
        raise UsageError(f"cannot run on {args.dask}: {err}") from None
    named = [] if chosen == DEFAULT_GAME else ["--game", chosen]
    command = shlex.join(["rattus", *named, "strength", "--players", *map(str, players), "--budgets",
                          *map(str, args.budgets), "--games", str(args.games), "--seed", str(args.seed),
                          "--markdown", str(args.markdown)])
    page = Path(args.markdown)
    page.write_text(markdown(result, command, f"How strong the search is: {rules.title}"), encoding="utf-8")
    page.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {page} and {page.with_suffix('.json')} ({result['seconds']:.0f} s)")
    return EXIT_OK
