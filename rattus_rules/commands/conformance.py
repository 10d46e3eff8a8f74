"""`rattus conformance export DIR`, `make DIR` and `check --engine CMD [KIT_DIR]`: the conformance kits."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from interpreter.files import why_unread

from .common import EXIT_OK, EXIT_RULES, EXIT_USAGE, UsageError, command_game

#: The longest ``--timeout`` accepted, in seconds.
MAX_TIMEOUT = 3600.0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `conformance` subcommand with `export` and `check`."""
    p = sub.add_parser("conformance", help="the conformance kit: export it, check an engine against it",
                       description="The kit (perft vectors, golden playthroughs, recorded games, JSON Schemas) "
                                   "ships in the package, one for each game (--game NAME); see "
                                   "conformance/README.md and docs/protocol.md.")
    p.set_defaults(any_game=True)
    kit = p.add_subparsers(dest="kit_command", required=True, metavar="ACTION")
    e = kit.add_parser("export", help="copy the kit and its README into a folder")
    e.add_argument("dir", help="the folder to write: a new or empty one")
    e.set_defaults(run=run_export, any_game=True)
    m = kit.add_parser("make", help="make the kit of the game from its spec (any game, your own too)",
                       description="Generate the kit of the selected game (--game NAME) from its rules alone: "
                                   "perft vectors, golden playthroughs, recorded games and their verdicts, "
                                   "a README; then `rattus --game NAME conformance check --engine CMD DIR`.")
    m.add_argument("dir", help="the folder to write: a new or empty one")
    m.set_defaults(run=run_make, any_game=True)
    c = kit.add_parser("check", help="drive an engine that speaks the referee protocol through every vector")
    c.add_argument("--engine", required=True, metavar="CMD",
                   help='the engine\'s command line, e.g. "rattus serve" or "node my_engine.js"')
    c.add_argument("kit", nargs="?", metavar="KIT_DIR", help="a kit folder (default: the kit in the package)")
    c.add_argument("--perft-depth", type=int, metavar="D", help="check perft counts only up to depth D")
    c.add_argument("--only", metavar="TEXT", help="only the vectors whose name contains TEXT")
    c.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="seconds the engine may take to answer one request (default 10, kit.ANSWER_TIMEOUT); "
                        "one that gives no answer in time is killed and the check stops with exit 2")
    c.add_argument("--fresh-engine", action="store_true",
                   help="start a fresh engine process for every vector (slower: by default one process checks "
                        "the vectors while they pass, and a failing vector is checked again alone)")
    c.set_defaults(run=run_check, any_game=True)


def _no_kit(game: str | None) -> UsageError:
    from ..games import game_name

    return UsageError(f"no conformance kit is shipped for {game_name(game)}: "
                      f"`rattus --game {game_name(game)} conformance make DIR` makes one from its rules")


def _check_target(target: Path) -> None:
    """Refuse to write a kit where a file is, or into a folder that holds anything: a stale file
    would be checked with the new kit, and a link in it written through."""
    if target.exists() and not target.is_dir():
        raise UsageError(f"{target} exists and is not a folder")
    try:
        if target.is_dir() and any(target.iterdir()):
            raise UsageError(f"{target} is not empty: name a new or empty folder")
    except OSError as err:
        raise UsageError(f"cannot write the kit to {target}: {why_unread(err)}") from None


def run_make(args: argparse.Namespace) -> int:
    """Generate the kit of the selected game into a folder."""
    from ..tools.kit.conformance import build, is_default
    from ..tools.kit.kit import kits_dir

    target = Path(args.dir)
    _check_target(target)
    game = command_game(args)  # resolved once: the kit is built from it
    files = build(game)
    readme = kits_dir() / "README.md"
    if is_default(game) and readme.is_file():  # Rattus's README is written by hand
        files["README.md"] = readme.read_text(encoding="utf-8")
    try:
        for rel, text in sorted(files.items()):
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            (target / rel).write_text(text, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write the kit to {target}: {why_unread(err)}") from None
    print(f"made {len(files)} files in {target} (start with {target / 'README.md'})")
    return EXIT_OK


def run_export(args: argparse.Namespace) -> int:
    """Write the kit into a folder."""
    from ..tools.kit.kit import export, kit_dir

    target = Path(args.dir)
    _check_target(target)
    game = command_game(args)  # resolved once
    if not (kit_dir(game) / "perft.json").is_file():
        raise _no_kit(game.name)
    try:
        written = export(target, game)
    except OSError as err:
        raise UsageError(f"cannot write the kit to {target}: {why_unread(err)}") from None
    print(f"wrote {len(written)} files to {target} (start with {target / 'README.md'})")
    return EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    """Check an engine; exit 0 if every vector passes, 1 if one fails, 2 if the engine or kit is unusable.

    An engine that does not answer a request within ``--timeout`` seconds is killed; the check stops (exit 2).
    """
    from ..tools.kit.kit import ANSWER_TIMEOUT, EngineError, check, kit_dir

    kit = Path(args.kit) if args.kit else None
    game = command_game(args)  # resolved once: the kit's files are checked against it
    if kit is None and not (kit_dir(game) / "perft.json").is_file():
        raise _no_kit(game.name)
    if kit is not None and not (kit / "perft.json").is_file():
        raise UsageError(f"{kit} is not a kit folder (no perft.json); `rattus conformance export DIR` writes one")
    if args.perft_depth is not None and args.perft_depth < 1:
        raise UsageError("--perft-depth must be at least 1")
    timeout = ANSWER_TIMEOUT if args.timeout is None else args.timeout
    if not 0 < timeout <= MAX_TIMEOUT:  # (also refuses nan)
        raise UsageError(f"--timeout must be more than 0 and at most {MAX_TIMEOUT:g} seconds")
    passed = failed = skipped = 0
    try:
        for result in check(args.engine, kit, args.perft_depth, args.only, timeout, game,
                            args.fresh_engine):
            print(result.format(), flush=True)
            skipped += result.skipped
            passed += result.passed and not result.skipped
            failed += not result.passed
    except EngineError as err:
        print(f"rattus: {err}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as err:
        raise UsageError(f"cannot read the kit: {err.filename or kit}: {why_unread(err)}") from None
    except (ValueError, KeyError) as err:
        raise UsageError(f"cannot read the kit: {err}") from None
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return EXIT_RULES if failed else EXIT_OK
