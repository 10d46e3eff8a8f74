"""What several subcommands share: options and error reporting.

What a game's own command needs too (exit codes, the usage error, the rules options, output paths) lives
below, in :mod:`rattus_rules.tools.cmdline`, and is named here as well.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter import Game, RuleError, SpecError

from ..tools.cmdline import EXIT_INTERNAL as EXIT_INTERNAL
from ..tools.cmdline import EXIT_OK as EXIT_OK
from ..tools.cmdline import EXIT_RULES as EXIT_RULES
from ..tools.cmdline import EXIT_USAGE as EXIT_USAGE
from ..tools.cmdline import MAX_STATE_BYTES as MAX_STATE_BYTES
from ..tools.cmdline import Position as Position
from ..tools.cmdline import UsageError as UsageError
from ..tools.cmdline import add_rules_options as add_rules_options
from ..tools.cmdline import check_data_path as check_data_path
from ..tools.cmdline import check_output as check_output
from ..tools.cmdline import check_players as check_players
from ..tools.cmdline import parse_interpretations as parse_interpretations
from ..tools.cmdline import record_position as record_position
from ..tools.cmdline import seed_arg as seed_arg
from ..tools.cmdline import write_output as write_output
from ..tools.records.recordformat import utf8_json

if TYPE_CHECKING:
    from ..api import ResolvedGame

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


#: The help of ``--players`` where any game may be chosen (its count by default: the game's largest).
PLAYERS_HELP = "how many (default: the most the game allows; Rattus: 2, 3 or 4)"


def report_rules_error(err: SpecError | RuleError) -> int:
    """Print a spec or rule error to stderr; exit code 1."""
    print(str(err), file=sys.stderr)
    return EXIT_RULES


def check_output_folder(path: str, option: str) -> None:
    """Refuse an output folder before any work is done: no file in its place, and it can be made and written."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise UsageError(f"{option} {path}: that is a file, not a folder")
    existing = next((p for p in (target, *target.parents) if p.exists()), Path("."))
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise UsageError(f"{option} {path}: {existing} is not a writable folder")


def print_provenance(game: Game) -> None:
    """Say which of the game's component data is not verified (nothing if all of it is)."""
    note = game.provenance_note()
    if note is not None:
        print(note)


def add_json_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--json``: print ``what`` as one JSON document instead of text (shapes: docs/json.md)."""
    parser.add_argument("--json", action="store_true", help=f"print {what} as JSON (see docs/json.md)")


def print_json(data: Any) -> None:
    """Print one JSON document to standard output (a lone surrogate, which UTF-8 cannot write, escaped)."""
    print(utf8_json(data, indent=2))


def command_game(args: argparse.Namespace) -> ResolvedGame:
    """The command's game, resolved once (:func:`rattus_rules.api.resolve`): the one chosen with ``--game``
    (or named by the record read), with the component tables of ``--data`` if the command has it.  The
    command passes this value down; the tools it calls do not look the game up again."""
    from ..api import resolve

    return resolve(None, getattr(args, "data", None))
