"""`rattus view`: a recorded game as one self-contained HTML page (see :mod:`rattus_rules.tools.views.viewer`)."""

from __future__ import annotations

import argparse
import sys

from ..tools.records.validate import ILLEGAL
from ..tools.views.viewer import steps_summary, viewer_data, viewer_page
from .common import (
    EXIT_OK,
    EXIT_RULES,
    UsageError,
    add_rules_options,
    check_output,
    command_game,
    parse_interpretations,
    write_output,
)
from .records import load_record_arg


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `rattus view`."""
    p = sub.add_parser("view", help="write a page that steps through a game record in the browser",
                       description="One self-contained HTML file (no network): the position at every entry (the "
                                   "game's picture and table of seats; a game without a picture of its "
                                   "own as text), the rule of each step with its German text. Exit 0: legal "
                                   "record; 1: illegal (the page stops at the first bad entry); 2: not a record.")
    p.add_argument("file", help="a record (JSON; see docs/records.md); - reads standard input")
    p.add_argument("--output", "-o", metavar="FILE", help="write the page here (default: standard output)")
    add_rules_options(p)
    p.set_defaults(run=run_view, any_game=True)


def run_view(args: argparse.Namespace) -> int:
    """Write the viewer page of a record; exit 0 legal, 1 illegal, 2 not a record."""
    check_output(args.output, "--output", "a web page")
    chosen = parse_interpretations(args.interpretation)
    record, code = load_record_arg(args.file)
    if code is not None:
        return code
    game = command_game(args)  # resolved once, after the record (which may name its game) was read
    try:
        shown = viewer_data(record, chosen, game_name=game)
    except ValueError as err:
        raise UsageError(f"{args.file}: {err}") from None
    write_output(viewer_page(shown), args.output)
    if args.output not in (None, "-"):
        print(f"wrote {args.output}: {steps_summary(shown)}", file=sys.stderr)
    return EXIT_RULES if shown["verdict"]["status"] == ILLEGAL else EXIT_OK
