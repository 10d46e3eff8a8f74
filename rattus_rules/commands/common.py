"""What several subcommands share: options and error reporting."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter import Game, RuleError, SpecError
from interpreter.files import why_unread

if TYPE_CHECKING:
    from ..api import ResolvedGame

EXIT_OK, EXIT_RULES, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
#: A stored state file larger than this is refused before it is read.
MAX_STATE_BYTES = 10_000_000


class UsageError(Exception):
    """Bad command-line input (exit code 2)."""


#: The help of every ``--workers`` option, after what the processes do.
WORKERS_HELP = "(default: all cores; at most the cores this process may run on: a larger N is capped, and said)"


#: What every ``--dask`` option says of a cluster.
DASK_HELP = ("run on the Dask distributed scheduler at ADDRESS. A cluster is trusted code: Dask sends work and "
             "results as pickles, so a worker can run any code in this process; use only your own cluster, "
             "over tls:// with --dask-ca/--dask-cert/--dask-key unless it is on this machine")


def add_dask_options(parser: argparse.ArgumentParser) -> None:
    """``--dask ADDRESS`` and the TLS files passed to ``distributed.Security``."""
    parser.add_argument("--dask", metavar="ADDRESS", help=DASK_HELP)
    parser.add_argument("--dask-ca", metavar="FILE", help="with --dask tls://...: the certificate authority's file")
    parser.add_argument("--dask-cert", metavar="FILE", help="with --dask tls://...: this client's certificate file")
    parser.add_argument("--dask-key", metavar="FILE", help="with --dask tls://...: this client's private key file")


def add_parallel_options(parser: argparse.ArgumentParser) -> None:
    """Where the games of a study or tournament run: ``--workers N`` local processes or a Dask cluster."""
    parser.add_argument("--workers", "-w", type=int, default=None, metavar="N", help="local processes " + WORKERS_HELP)
    add_dask_options(parser)


def dask_target(args: argparse.Namespace) -> Any:
    """The cluster the options name (a :class:`~rattus_rules.tools.executor.DaskCluster`), or None; a warning
    on standard error for an address that is neither this machine nor TLS."""
    from ..tools.executor import DaskCluster, dask_warning

    files = {"ca_file": args.dask_ca, "cert_file": args.dask_cert, "key_file": args.dask_key}
    if args.dask is None:
        if any(files.values()):
            raise UsageError("--dask-ca, --dask-cert and --dask-key go with --dask tls://ADDRESS")
        return None
    if any(files.values()) and not args.dask.startswith("tls://"):
        raise UsageError(f"--dask-ca, --dask-cert and --dask-key are for a tls:// address, not {args.dask}")
    warning = dask_warning(args.dask)
    if warning is not None:
        print(f"rattus: warning: {warning}", file=sys.stderr)
    return DaskCluster(args.dask, **files)


def workers_arg(value: int | None) -> int | None:
    """A ``--workers`` value: at least 1 (else :class:`UsageError`), and at most the cores available (a larger
    one is capped, with a note on standard error); None stays None (all cores)."""
    from ..tools.executor import local_cores

    if value is None:
        return None
    if value < 1:
        raise UsageError(f"--workers must be at least 1, not {value}")
    cores = local_cores()
    if value > cores:
        print(f"rattus: --workers {value} capped at the {cores} core(s) available", file=sys.stderr)
        return cores
    return value


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """--interpretation and --data."""
    parser.add_argument(
        "--interpretation", "-i", action="append", default=[], metavar="ID=VALUE",
        help="choose a reading for an interpretation switch (see `rattus interpretations`); repeatable",
    )
    parser.add_argument(
        "--setting", action="append", dest="interpretation", metavar="ID=VALUE",
        help="choose a value for a game setting, such as a table's size (see `rattus interpretations`); "
             "repeatable, recorded like the switches",
    )
    parser.add_argument("--data", metavar="PATH",
                        help="a folder (or CSV file) of corrected component tables")


def seed_arg(text: str) -> int:
    """A ``--seed`` value: a whole number from 0 to 2^64-1 (what a record can store)."""
    from ..api import check_seed

    try:
        return check_seed(int(text))
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err) if "seed" in str(err) else
                                         f"a seed is a whole number from 0 to 2^64-1, not {text[:40]!r}") from None


def check_data_path(data: str | None) -> None:
    """Raise UsageError if ``--data`` names nothing (or a path that cannot be looked at)."""
    if data is None:
        return
    try:
        found = Path(data).exists()
    except OSError as err:  # a name too long, ...
        raise UsageError(f"--data {data[:200]}: {why_unread(err)}") from None
    if not found:
        raise UsageError(f"--data {data}: no such file or folder")


def check_players(players: int | None, data: str | None = None, resolved: ResolvedGame | None = None) -> int:
    """The player count to use: ``players``, or by default the chosen game's largest (``resolved``: the
    game resolved once by the command; else the chosen game with ``data``).

    Raise UsageError naming ``--players`` if the game is not for that many players.
    """
    from ..api import rules_of

    game = rules_of(resolved, data)
    if players is None:
        return game.max_players
    if not game.min_players <= players <= game.max_players:
        raise UsageError(f"--players: {game.title} is for {game.players_text} players, not {players}")
    return players


#: The help of ``--players`` where any game may be chosen (its count by default: the game's largest).
PLAYERS_HELP = "how many (default: the most the game allows; Rattus: 2, 3 or 4)"


def parse_interpretations(items: Sequence[str]) -> dict[str, str]:
    """``["id=value", ...]`` as a dict; raise UsageError if malformed."""
    out = {}
    for item in items:
        ident, sep, value = item.partition("=")
        if not sep or not ident or not value:
            raise UsageError(f"--interpretation takes ID=VALUE, not {item!r}")
        out[ident.strip()] = value.strip()
    return out


def report_rules_error(err: SpecError | RuleError) -> int:
    """Print a spec or rule error to stderr; exit code 1."""
    print(str(err), file=sys.stderr)
    return EXIT_RULES


def check_output(path: str | None, option: str, document: str | None = None) -> None:
    """Refuse an output path before any work is done: its folder must exist and be writable, and it is no folder.

    ``None`` and ``-`` (standard output) pass, unless ``document`` names a document
    that is no text to read (an SVG picture, a web page) and standard output is a
    terminal: then the user is told to name a file or redirect.
    """
    if path is None or path == "-":
        if document is not None and sys.stdout.isatty():
            raise UsageError(f"this writes {document}, not text for a terminal: name a file with {option} FILE, "
                             "or redirect the output (> FILE, or | a program)")
        return
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise UsageError(f"{option} {path}: that is a folder, not a file")
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise UsageError(f"{option} {path}: not writable")


def check_output_folder(path: str, option: str) -> None:
    """Refuse an output folder before any work is done: no file in its place, and it can be made and written."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise UsageError(f"{option} {path}: that is a file, not a folder")
    existing = next((p for p in (target, *target.parents) if p.exists()), Path("."))
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise UsageError(f"{option} {path}: {existing} is not a writable folder")


def write_output(text: str, path: str | None) -> None:
    """Write ``text`` to ``path`` (standard output if None or ``-``); UsageError if that fails."""
    if path is None or path == "-":
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None


def print_provenance(game: Game) -> None:
    """Say which of the game's component data is not verified (nothing if all of it is)."""
    note = game.provenance_note()
    if note is not None:
        print(note)


def add_json_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--json``: print ``what`` as one JSON document instead of text (shapes: docs/json.md)."""
    parser.add_argument("--json", action="store_true", help=f"print {what} as JSON (see docs/json.md)")


def print_json(data: Any) -> None:
    """Print one JSON document to standard output."""
    print(json.dumps(data, ensure_ascii=False, indent=2))
