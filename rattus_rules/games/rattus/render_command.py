"""`rattus render`: pictures of the board and of a game state, as SVG.

``rattus render board [-o FILE]`` draws the board from the component data;
``rattus render state --players N --seed S [--moves K]`` draws the state of a
game after K random decisions (chance from the game's own generator),
``rattus render state --from STATE.json`` a stored state, and
``rattus render state --from GAME.json --at N`` the position of a game record
after its first N entries (default: all).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from interpreter import State
from interpreter.files import read_text, why_unread
from rattus_rules.algorithms.agents import RandomPlayer
from rattus_rules.api import ResolvedGame, new_game, resolve, state_from_json
from rattus_rules.tools.cmdline import (
    EXIT_OK,
    EXIT_RULES,
    MAX_STATE_BYTES,
    UsageError,
    add_rules_options,
    check_output,
    check_players,
    parse_interpretations,
    record_position,
    seed_arg,
    write_output,
)
from rattus_rules.tools.records.validate import FORMAT, ILLEGAL, seats_of

from .render import board_svg, state_svg


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
    s.add_argument("--seed", "-s", type=seed_arg, default=0, help="seed of the game and the random players")
    s.add_argument("--moves", "-k", type=int, default=0,
                   help="random decisions to play after setup (default 0: the first placement)")
    s.add_argument("--from", dest="stored", metavar="FILE.json",
                   help="draw a state stored with state.to_json(), or the position of a game record, instead")
    s.add_argument("--at", type=int, default=None, metavar="N",
                   help="with --from a game record: the position after its first N entries (default: all)")
    s.add_argument("--output", "-o", metavar="FILE", help="write the SVG here (default: standard output)")
    add_rules_options(s)
    s.set_defaults(run=run_state)


def random_state(players: int, seed: int, moves: int, interpretations: dict[str, str] | None = None,
                 data: str | None = None, game: ResolvedGame | None = None) -> State:
    """A game after ``moves`` random decisions by seeded random players (chance by the game's generator;
    ``game``: Rattus resolved once by the caller, else loaded with ``data``).

    >>> random_state(3, seed=1, moves=5).history[-1].split()[0]
    'start'
    """
    state = new_game(players, seed=seed, interpretations=interpretations, data=data, game=game)
    player = RandomPlayer(seed)
    done = 0
    while done < moves and not state.is_terminal():
        state.apply_index(player.choose(state))
        state.advance_chance()
        done += 1
    return state


def run_board(args: argparse.Namespace) -> int:
    """Write the board picture."""
    check_output(args.output, "--output", "an SVG picture")
    write_output(board_svg(resolve(None, args.data).rules), args.output)  # resolved once
    return EXIT_OK


def _read_json(path: str) -> Any:
    try:
        text = read_text(path, MAX_STATE_BYTES)
    except (OSError, ValueError) as err:  # also a FIFO, a device, a file too large
        raise UsageError(f"cannot read {path}: {why_unread(err)}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"{path} is not JSON: line {err.lineno}: {err.msg}") from None
    except (RecursionError, ValueError) as err:
        raise UsageError(f"{path} is not JSON: {err}") from None


def run_state(args: argparse.Namespace) -> int:
    """Write the picture of a random game's state, of a stored one, or of a record's position."""
    check_output(args.output, "--output", "an SVG picture")
    if args.at is not None and not args.stored:
        raise UsageError("--at N goes with --from GAME.json (a game record)")
    if args.stored:
        stored = _read_json(args.stored)
        if not isinstance(stored, dict):
            raise UsageError(f"{args.stored} holds neither a stored state nor a game record")
        if stored.get("format") == FORMAT:
            return _draw_record_position(stored, args)
        if args.at is not None:
            raise UsageError(f"--at N needs a game record; {args.stored} holds a stored state")
        try:
            state = state_from_json(stored, game=resolve(None, args.data))  # resolved once
        except ValueError as err:
            raise UsageError(f"{args.stored}: {err}") from None
        except (TypeError, KeyError, IndexError, AttributeError, RecursionError) as err:
            # the API's own checks of a stored state should turn these into ValueErrors
            raise UsageError(f"{args.stored} does not hold a valid stored state "
                             f"({type(err).__name__}: {err})") from None
    else:
        if args.moves < 0:
            raise UsageError("--moves must be 0 or more")
        game = resolve(None, args.data)  # the command's game, resolved once
        check_players(args.players, resolved=game)
        try:
            state = random_state(args.players, args.seed, args.moves,
                                 parse_interpretations(args.interpretation), game=game)
        except ValueError as err:
            raise UsageError(str(err)) from None
    try:
        svg = state_svg(state)
    except (ValueError, TypeError, KeyError, IndexError) as err:
        if not args.stored:
            raise
        raise UsageError(f"{args.stored}: cannot draw the stored state ({type(err).__name__}: {err})") from None
    write_output(svg, args.output)
    return EXIT_OK


def _draw_record_position(record: dict[str, Any], args: argparse.Namespace) -> int:
    """Draw a record's position after ``--at`` entries; if an earlier entry is illegal, where it was refused."""
    position = record_position(record, args.at, args, args.stored, resolve(None, args.data))  # resolved once
    if position.verdict.status == ILLEGAL:
        print(f"the record is illegal before entry {position.at}; drawing the position where entry "
              f"{position.verdict.index} was refused:", file=sys.stderr)
        print(position.verdict.format(seats_of(record)), file=sys.stderr)
    write_output(state_svg(position.state, position.shown, seats_of(record)), args.output)
    return EXIT_RULES if position.verdict.status == ILLEGAL else EXIT_OK
