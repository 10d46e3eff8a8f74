"""`rattus decisive`: for each reading a study shows to matter, a recorded pair of games it decides."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from interpreter.files import read_text, why_unread

from .common import EXIT_OK, UsageError, check_output, check_output_folder, command_game


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `decisive` subcommand."""
    p = sub.add_parser(
        "decisive", help="for each reading a study shows to matter, record a pair of games it decides",
        description="Read a study's JSON (rattus study --out DIR writes DIR/study.json); for each switch option "
                    "whose winner-change interval lies above 0, find the first seed whose pair of games has "
                    "different winners, record both games, check each record, and write the records and a "
                    "Markdown page listing them (rattus view RECORD shows one; the docs build renders a viewer "
                    "page beside each record).")
    p.add_argument("study", help="a study's JSON (study.json)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for the records")
    p.add_argument("--markdown", required=True, metavar="FILE", help="the page listing the games")
    p.add_argument("--agent", metavar="NAME", help="the study's agent to use when the file holds several")
    p.add_argument("--limit", type=int, default=None, help="at most this many readings")
    p.set_defaults(run=run, any_game=True)


def _no_constant(word: str) -> None:
    raise ValueError(f"{word} is not a number in JSON")


def run(args: argparse.Namespace) -> int:
    """Find, record and list the decided pairs."""
    from ..algorithms.decisive import decisive_games

    check_output_folder(args.out, "--out")
    check_output(args.markdown, "--markdown")
    try:
        data = json.loads(read_text(args.study), parse_constant=_no_constant)
    except (OSError, ValueError) as err:
        raise UsageError(f"{args.study}: {why_unread(err)}") from None
    studies = data.get("studies") if isinstance(data, dict) else None
    if not isinstance(studies, list) or not studies:
        raise UsageError(f"{args.study}: not a study's JSON (no 'studies')")
    chosen = [s for s in studies if isinstance(s, dict) and (args.agent is None or
                                                             s.get("params", {}).get("agent") == args.agent)]
    if len(chosen) != 1:
        names = ", ".join(str(s.get("params", {}).get("agent")) for s in studies if isinstance(s, dict))
        raise UsageError(f"{args.study}: name one of its agents with --agent ({names})")
    study = chosen[0]
    about = study.get("game")
    name = about.get("name") if isinstance(about, dict) else None
    game = command_game(args)  # resolved once: every game played and checked is of it
    if name != game.name:
        raise UsageError(f"{args.study} is a study of {name!r}, not {game.name}"
                         + (f": add --game {name}" if isinstance(name, str) else ""))
    page = Path(args.markdown)
    folder = Path(args.out)

    def link(path: Path) -> str:  # the viewer page beside the record (the docs build makes it: docs/conf.py)
        rel = Path(os.path.relpath(path, page.parent))
        return f'<a href="{rel.with_suffix(".html").as_posix()}">viewer</a>, {{download}}`record <{rel.as_posix()}>`'

    try:
        result = decisive_games(study, game, folder, page, link, args.limit, game.rules.title)
    except (KeyError, TypeError, ValueError) as err:
        raise UsageError(f"{args.study}: not a study this version can read ({err})") from None
    print(f"wrote {page}: {result['rows']} readings, {result['seconds']:.0f} s; records and pages in {folder}")
    return EXIT_OK
