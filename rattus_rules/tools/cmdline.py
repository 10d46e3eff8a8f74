"""What every command of the ``rattus`` command line shares, the front door's and a game's own
(``rattus render``): the exit codes, the usage error, the options that choose the rules (``--data``,
``--interpretation``, ``--seed``), checked output paths, and a record's position after some entries.

The commands import this module (:mod:`rattus_rules.commands.common` adds what only they use); it is
below them, so that a tool or a game's package with a command of its own needs nothing above it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from interpreter import State
from interpreter.files import why_unread

from ..api import ResolvedGame
from .records.validate import Verdict, replay

EXIT_OK, EXIT_RULES, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
#: A stored state file larger than this is refused before it is read.
MAX_STATE_BYTES = 10_000_000


class UsageError(Exception):
    """Bad command-line input (exit code 2)."""


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


def parse_interpretations(items: Sequence[str]) -> dict[str, str]:
    """``["id=value", ...]`` as a dict; raise UsageError if malformed."""
    out = {}
    for item in items:
        ident, sep, value = item.partition("=")
        if not sep or not ident or not value:
            raise UsageError(f"--interpretation takes ID=VALUE, not {item!r}")
        out[ident.strip()] = value.strip()
    return out


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


def write_output(text: str, path: str | None) -> None:
    """Write ``text`` to ``path`` (standard output if None or ``-``); UsageError if that fails."""
    if path is None or path == "-":
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None


@attrs.frozen
class Position:
    """A record's position after its first ``at`` of ``total`` entries (see :func:`record_position`)."""

    state: State
    verdict: Verdict
    shown: Callable[[int], bool]
    at: int
    total: int


def record_position(record: Any, at: int | None, args: argparse.Namespace, path: str,
                    game: ResolvedGame | None = None) -> Position:
    """Replay the first ``at`` entries (all if None) of a record (parsed JSON) read from ``path``, as a
    record of ``game`` (resolved once by the command; None: the selected game with ``--data``).

    UsageError if it is not a record or ``at`` lies outside it.
    """
    chosen = parse_interpretations(args.interpretation)
    if at is not None and at < 0:
        raise UsageError("--at counts entries: 0 or more")
    entries = record.get("entries") if isinstance(record, dict) else None
    if at is not None and isinstance(entries, list) and at > len(entries):
        raise UsageError(f"--at {at}: {path} has only {len(entries)} entries (--at 0..{len(entries)})")
    try:
        state, verdict, shown = (replay(record, at, chosen, data=args.data) if game is None
                                 else replay(record, at, chosen, game_name=game))
    except ValueError as err:
        raise UsageError(f"{path}: {err}") from None
    total = len(record["entries"])
    return Position(state, verdict, shown, total if at is None else at, total)
