"""`rattus check`, `rattus play` and `rattus interpretations`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from interpreter import SpecError, State, load_spec, notation

from ..algorithms.agents import add_bound_option, bound_text, play_random
from ..api import interpretations, new_game
from ..games import log_lines
from ..paths import spec_dir
from ..tools.coverage import coverage
from ..tools.coverage import report as coverage_report
from .common import (
    EXIT_OK,
    EXIT_RULES,
    EXIT_USAGE,
    PLAYERS_HELP,
    UsageError,
    add_json_option,
    add_rules_options,
    check_data_path,
    check_output,
    check_players,
    command_game,
    parse_interpretations,
    print_json,
    print_provenance,
    seed_arg,
)
from .records import recorder_for, write_record


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add this module's subcommands."""
    p = sub.add_parser("check", help="parse and check a spec (default: the game's, see --game)")
    p.add_argument("path", nargs="?", help="a spec folder or .rules file")
    p.add_argument("--data", metavar="PATH", help="a folder of corrected component tables")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 unless every sentence of the spec's source texts is cited or waived")
    add_json_option(p, "the outcome (counts and coverage, or every problem with its position)")
    p.set_defaults(run=run_check, any_game=True)

    p = sub.add_parser("play", help="play a game with random players and print its log")
    p.add_argument("--players", "-n", type=int, default=None, help=PLAYERS_HELP)
    p.add_argument("--seed", "-s", type=seed_arg, default=0, help="seed of the game and the players")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="leave out the turn-by-turn log (the settings, scores and winner are printed)")
    p.add_argument("--check-invariants", action="store_true", help="check every invariant after each step")
    add_bound_option(p)
    add_rules_options(p)
    p.set_defaults(run=run_play, any_game=True)

    p = sub.add_parser("interpretations", help="list the interpretation switches and the game settings")
    p.add_argument("--data", metavar="PATH", help=argparse.SUPPRESS)
    add_json_option(p, "the switches")
    p.set_defaults(run=run_interpretations, any_game=True)


def run_check(args: argparse.Namespace) -> int:
    """Exit 0 if the spec is fine, 1 with positioned errors otherwise.

    Tables given with ``--data`` that cannot be read at all (a FIFO, a device, too large, not text) are
    bad input: exit 2, with the same positioned errors.
    """
    path = Path(args.path) if args.path else spec_dir()
    if not path.exists():
        raise UsageError(f"no such spec path: {path}")
    check_data_path(args.data)
    try:
        game = load_spec(path, data=args.data)
    except SpecError as err:
        code = EXIT_USAGE if any(d.unreadable_input for d in err.diagnostics) else EXIT_RULES
        if args.json:
            print_json({"ok": False, "problems": [
                {"path": d.pos.path, "line": d.pos.line, "column": d.pos.column, "end_line": d.pos.end_line,
                 "end_column": d.pos.end_column, "message": d.message} for d in err.diagnostics]})
            return code
        print(str(err), file=sys.stderr)
        print(f"{len(err.diagnostics)} problem(s) found", file=sys.stderr)
        return code
    s = game.symbols
    cov = coverage(game)
    code = EXIT_RULES if args.strict and not cov.complete else EXIT_OK
    if args.json:
        print_json({"ok": True, "title": game.title, "procedures": len(s.procedures), "rules": len(s.rules),
                    "switches": len(s.switches), "invariants": len(s.invariants), "checks": len(s.checks),
                    "coverage": cov.to_json(), "complete": cov.complete, "backend": game.backend().backend})
        return code
    counts = ((s.procedures, "procedure"), (s.rules, "rule"), (s.switches, "switch"), (s.invariants, "invariant"),
              (s.checks, "data check"))
    print(f"ok: {game.title} — " + ", ".join(_count(len(items), noun) for items, noun in counts))
    print(f"runs on: {game.backend().describe()}")
    for line in coverage_report(cov):
        print(line)
    if code != EXIT_OK:
        print("--strict: not every sentence is accounted for (cite it, or waive it with a reason)", file=sys.stderr)
    return code


def _count(n: int, noun: str) -> str:
    """``1 rule``, ``2 rules``, ``0 switches``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}{'es' if noun.endswith('ch') else 's'}"


def run_play(args: argparse.Namespace) -> int:
    """Play one game with random players; print the turn-by-turn log, scores and winner."""
    chosen = parse_interpretations(args.interpretation)
    check_output(getattr(args, "record", None), "--record")
    game = command_game(args)  # the command's game, resolved once
    args.players = check_players(args.players, resolved=game)
    bound = args.max_decisions
    try:
        state = new_game(args.players, seed=args.seed, interpretations=chosen, game=game,
                         log=not args.quiet, check_invariants=args.check_invariants,
                         resolve_setup_chance=False)
    except ValueError as err:
        raise UsageError(str(err)) from None
    recorder = recorder_for(args, state, game)  # --record FILE (commands/records.py); its options checked before output
    printed = 0
    settings = ", ".join(f"{k}={v}" for k, v in chosen.items()) or "defaults"
    print(f"{state.game.title}, {args.players} players, seed {args.seed}, interpretations: {settings}")
    print(bound_text(bound))
    if state.game.piece_keys and state.log is not None:
        print("(the whole game, hidden faces included: pieces are written as records write them)")

    told = game.views  # the game's own words, resolved once

    def step(state: State, index: int) -> None:
        nonlocal printed
        if recorder is None:
            state.apply_index(index)
        else:
            recorder.apply(state, index)
        if state.log is not None:
            for line in log_lines(state, printed):
                print(("" if line.startswith(told.log_turns + told.log_events)
                       else "  ") + _headline(line, told.log_turns))
            printed = len(state.log)

    played = play_random(state, args.seed, bound, step)
    if played.cut:
        print(f"Cut: the game did not end within {played.decisions} player decisions (games cut: 1)")
    scores = state.scores()
    shown = ", ".join(f"{notation.seat(p)} {s}" for p, s in enumerate(scores))
    print(("Scores so far: " if played.cut else "Final scores: ") + shown)
    winners = state.winner() or []
    print("Winner: " + (" and ".join(notation.seat(w) for w in winners) or "none, the game did not end"))
    print_provenance(state.game)
    if recorder is not None:
        write_record(args, recorder)
    return EXIT_OK


def _headline(line: str, turns: tuple[str, ...]) -> str:
    if line.startswith(turns):
        return f"— {line} —"
    return line


def run_interpretations(args: argparse.Namespace) -> int:
    """Print each switch: id, question, default, alternatives, citations."""
    game = command_game(args)  # resolved once: rules that do not load are the command's error
    items = interpretations(game=game)
    if args.json:
        print_json([item.to_json() for item in items])
        return EXIT_OK
    for item in items:
        if item.setting:
            continue
        print(f"{item.id}: {item.question}")
        for o in item.options:
            mark = "default" if o.default else "option "
            print(f"  {mark} {o.value}: {o.description}")
            for c in o.citations:
                print(f"          cites {c}")
        print()
    for item in items:
        if not item.setting:
            continue
        values = [o.value for o in item.options]
        print(f"{item.id} (a game setting, not a reading): {item.question}")
        print(f"  values {', '.join(values)}; default {item.default}")
        for c in item.options[0].citations:
            print(f"          cites {c}")
        print()
    return EXIT_OK
