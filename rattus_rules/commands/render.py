"""`rattus render`: pictures of the board and of a game state, as SVG.

``rattus render board [-o FILE]`` draws the board from the component data;
``rattus render state --players N --seed S [--moves K]`` draws the state of a
game after K random decisions (chance from the game's own generator), and
``rattus render state --from STATE.json`` a stored state.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from interpreter import State

from ..agents import RandomPlayer
from ..api import load_rules, new_game, state_from_json
from ..render import board_svg, state_svg
from .common import EXIT_OK, UsageError, add_rules_options, parse_interpretations


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `rattus render board` and `rattus render state`."""
    p = sub.add_parser("render", help="draw the board or a game state as SVG")
    kinds = p.add_subparsers(dest="picture", required=True, metavar="PICTURE")

    b = kinds.add_parser("board", help="the board: regions, neighbours, player counts, verified edges")
    b.add_argument("--output", "-o", metavar="FILE", help="write the SVG here (default: standard output)")
    b.add_argument("--data", metavar="PATH", help="a folder (or CSV file) of corrected component tables")
    b.set_defaults(run=run_board)

    s = kinds.add_parser("state", help="a game state: cubes, rat tokens, plague, castle, cards")
    s.add_argument("--players", "-n", type=int, default=4, help="2, 3 or 4 (default 4)")
    s.add_argument("--seed", "-s", type=int, default=0, help="seed of the game and the random players")
    s.add_argument("--moves", "-k", type=int, default=0,
                   help="random decisions to play after setup (default 0: the first placement)")
    s.add_argument("--from", dest="stored", metavar="STATE.json",
                   help="draw a state stored with state.to_json() instead")
    s.add_argument("--output", "-o", metavar="FILE", help="write the SVG here (default: standard output)")
    add_rules_options(s)
    s.set_defaults(run=run_state)


def random_state(players: int, seed: int, moves: int, interpretations: dict[str, str] | None = None,
                 data: str | None = None) -> State:
    """A game after ``moves`` random decisions by seeded random players (chance by the game's generator).

    >>> random_state(3, seed=1, moves=5).history[-1].split()[0]
    'start'
    """
    state = new_game(players, seed=seed, interpretations=interpretations, data=data)
    player = RandomPlayer(seed)
    done = 0
    while done < moves and not state.is_terminal():
        state.apply_index(player.choose(state))
        state.advance_chance()
        done += 1
    return state


def _write(svg: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(svg)
        return
    try:
        Path(output).write_text(svg, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write {output}: {err.strerror}") from None


def run_board(args: argparse.Namespace) -> int:
    """Write the board picture."""
    _write(board_svg(load_rules(args.data)), args.output)
    return EXIT_OK


def run_state(args: argparse.Namespace) -> int:
    """Write the picture of a random game's state, or of a stored one."""
    if args.stored:
        try:
            stored = json.loads(Path(args.stored).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as err:
            raise UsageError(f"cannot read {args.stored}: {err}") from None
        except json.JSONDecodeError as err:
            raise UsageError(f"{args.stored} is not JSON: line {err.lineno}: {err.msg}") from None
        if not isinstance(stored, dict):
            raise UsageError(f"{args.stored} does not hold a stored state")
        try:
            state = state_from_json(stored, data=args.data)
        except ValueError as err:
            raise UsageError(f"{args.stored}: {err}") from None
    else:
        if args.moves < 0:
            raise UsageError("--moves must be 0 or more")
        try:
            state = random_state(args.players, args.seed, args.moves,
                                 parse_interpretations(args.interpretation), args.data)
        except ValueError as err:
            raise UsageError(str(err)) from None
    _write(state_svg(state), args.output)
    return EXIT_OK
