"""`rattus conformance export DIR` and `rattus conformance check --engine CMD [KIT_DIR]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from interpreter.files import why_unread

from .common import EXIT_OK, EXIT_RULES, EXIT_USAGE, UsageError

#: The longest ``--timeout`` accepted, in seconds.
MAX_TIMEOUT = 3600.0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `conformance` subcommand with `export` and `check`."""
    p = sub.add_parser("conformance", help="the conformance kit: export it, check an engine against it",
                       description="The kit (perft vectors, golden playthroughs, recorded games, JSON Schemas) "
                                   "ships in the package; see conformance/README.md and docs/protocol.md.")
    kit = p.add_subparsers(dest="kit_command", required=True, metavar="ACTION")
    e = kit.add_parser("export", help="copy the kit and its README into a folder")
    e.add_argument("dir", help="the folder to write (created if needed)")
    e.set_defaults(run=run_export)
    c = kit.add_parser("check", help="drive an engine that speaks the referee protocol through every vector")
    c.add_argument("--engine", required=True, metavar="CMD",
                   help='the engine\'s command line, e.g. "rattus serve" or "node my_engine.js"')
    c.add_argument("kit", nargs="?", metavar="KIT_DIR", help="a kit folder (default: the kit in the package)")
    c.add_argument("--perft-depth", type=int, metavar="D", help="check perft counts only up to depth D")
    c.add_argument("--only", metavar="TEXT", help="only the vectors whose name contains TEXT")
    c.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="seconds the engine may take to answer one request (default 10, kit.ANSWER_TIMEOUT); "
                        "one that gives no answer in time is killed and the check stops with exit 2")
    c.set_defaults(run=run_check)


def run_export(args: argparse.Namespace) -> int:
    """Write the kit into a folder."""
    from ..kit import export

    target = Path(args.dir)
    if target.exists() and not target.is_dir():
        raise UsageError(f"{target} exists and is not a folder")
    try:
        written = export(target)
    except OSError as err:
        raise UsageError(f"cannot write the kit to {target}: {why_unread(err)}") from None
    print(f"wrote {len(written)} files to {target} (start with {target / 'README.md'})")
    return EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    """Check an engine; exit 0 if every vector passes, 1 if one fails, 2 if the engine or kit is unusable.

    An engine that does not answer a request within ``--timeout`` seconds is killed; the check stops (exit 2).
    """
    from ..kit import ANSWER_TIMEOUT, EngineError, check

    kit = Path(args.kit) if args.kit else None
    if kit is not None and not (kit / "perft.json").is_file():
        raise UsageError(f"{kit} is not a kit folder (no perft.json); `rattus conformance export DIR` writes one")
    if args.perft_depth is not None and args.perft_depth < 1:
        raise UsageError("--perft-depth must be at least 1")
    timeout = ANSWER_TIMEOUT if args.timeout is None else args.timeout
    if not 0 < timeout <= MAX_TIMEOUT:  # (also refuses nan)
        raise UsageError(f"--timeout must be more than 0 and at most {MAX_TIMEOUT:g} seconds")
    passed = failed = 0
    try:
        for result in check(args.engine, kit, args.perft_depth, args.only, timeout):
            print(result.format(), flush=True)
            passed += result.passed
            failed += not result.passed
    except EngineError as err:
        print(f"rattus: {err}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as err:
        raise UsageError(f"cannot read the kit: {err.filename or kit}: {why_unread(err)}") from None
    except (ValueError, KeyError) as err:
        raise UsageError(f"cannot read the kit: {err}") from None
    print(f"{passed} passed, {failed} failed")
    return EXIT_RULES if failed else EXIT_OK
