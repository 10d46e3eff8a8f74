"""The `rattus` command line.

Exit codes: 0 fine, 1 a rule or spec error, 2 bad usage or input, 3 an internal
error (a bug: please report it).  No traceback reaches the user: any exception
the commands do not handle themselves ends in a one-line message.

Each subcommand lives in a module of :mod:`rattus_rules.commands` (or, when only one game has it, of
that game's package: ``rattus render``) with a ``register(subparsers)`` function;
:data:`COMMAND_MODULES` lists them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any, TextIO, cast

from interpreter import RulesError, SpecError
from interpreter.checker import suggest

from . import __version__
from .commands.common import EXIT_INTERNAL, EXIT_RULES, EXIT_USAGE, UsageError, check_data_path
from .games import DEFAULT_GAME, GAMES_PATH_ENV, UnknownGame, game_name, known_games, select
from .tools.executor import ClusterError
from .tools.terminal import EscapingStream

COMMAND_MODULES = (
    "rattus_rules.commands.core",
    "rattus_rules.commands.bench",
    "rattus_rules.games.rattus.render_command",
    "rattus_rules.commands.records",
    "rattus_rules.commands.serve",
    "rattus_rules.commands.view",
    "rattus_rules.commands.study",
    "rattus_rules.commands.tournament",
    "rattus_rules.commands.decisive",
    "rattus_rules.commands.conformance",
    "rattus_rules.commands.web",
)
#: Commands that other programs start, often, for one session each (the referee: a client starts it, and the
#: conformance check starts one for each vector): the module of each, whose parser is built alone when the
#: command line names it (:func:`command_alone`), without importing every other command's module.
ALONE = {"serve": "rattus_rules.commands.serve"}


class Parser(argparse.ArgumentParser):
    """An argument parser that suggests the nearest choice for a typo (subcommands, ``--chance``, ...)."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is not None and value not in choices:
            names = [str(c) for c in choices]
            raise argparse.ArgumentError(
                action, f"invalid choice: {value!r}{suggest(str(value), names)} (choose from {', '.join(names)})")
        super()._check_value(action, value)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand (``only``: with the subcommands of that module alone)."""
    parser = Parser(
        prog="rattus", description="The rules of Rattus as data: check the spec, play, validate games.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    game = parser.add_argument("--game", "-g", metavar="NAME")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES if only is None else (only,):
        importlib.import_module(name).register(sub)
    game.help = (f"the game: a name (spec/NAME/, or a folder in ${GAMES_PATH_ENV}) or a folder of *.rules files "
                 f"(default {DEFAULT_GAME}); for {', '.join(_any_game(parser))} (the others are for "
                 f"{DEFAULT_GAME} only)")
    return parser


def _any_game(parser: argparse.ArgumentParser) -> list[str]:
    """The subcommands of ``parser`` that work with any game (they set ``any_game``)."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            out += [name for name, sub in action.choices.items() if sub.get_default("any_game")]
    return out


def command_alone(argv: Sequence[str]) -> str | None:
    """The module of an :data:`ALONE` command the command line names, if it surely names one: its first
    word that is no option (nor the value of ``--game``); None where anything else comes first (``--help``,
    ``--version``, an unknown option), so that the full parser reads it."""
    words = iter(argv)
    for word in words:
        name, given, _ = word.partition("=")
        if word == "-g" or (len(name) > 2 and "--game".startswith(name)):  # argparse reads a prefix as the option
            if not given:
                next(words, None)
        elif not word.startswith("-"):
            return ALONE.get(word)
        elif not word.startswith("-g"):  # -gNAME is the game too
            return None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    Everything written to the terminal goes through :mod:`rattus_rules.tools.terminal`:
    control characters from untrusted input are shown as escapes.
    """
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = cast(TextIO, EscapingStream(out)), cast(TextIO, EscapingStream(err))
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser(command_alone(sys.argv[1:] if argv is None else argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0) if stop.code in (0, None) else EXIT_USAGE
    try:
        check_data_path(getattr(args, "data", None))
        _select_game(args)
        return int(args.run(args))
    except (UsageError, UnknownGame) as err:
        print(f"rattus: {err}", file=sys.stderr)
        return EXIT_USAGE
    except SpecError as err:  # with --data the tables are the user's input: bad input, not a spec error
        print(str(err), file=sys.stderr)
        return EXIT_USAGE if getattr(args, "data", None) else EXIT_RULES
    except RulesError as err:  # a spec error, a rule error or a broken invariant, with its citations
        print(str(err), file=sys.stderr)
        return EXIT_RULES
    except ClusterError as err:  # a Dask cluster that failed (rattus_rules.tools.executor): one line
        print(f"rattus: {err}", file=sys.stderr)
        return EXIT_INTERNAL
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("rattus: interrupted", file=sys.stderr)
        return 130
    except (RecursionError, MemoryError) as err:  # input too large or too deeply nested to handle
        print(f"rattus: the input is too large or too deeply nested ({type(err).__name__})", file=sys.stderr)
        return EXIT_USAGE
    except Exception as err:  # a bug: one line, never a traceback
        print(f"rattus: internal error: {type(err).__name__}: {_one_line(str(err))}", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        select(None)


def _select_game(args: argparse.Namespace) -> None:
    """Make ``--game`` the game every command loads; UsageError where a command is for Rattus only."""
    if args.game is None:
        return
    if game_name(args.game) != DEFAULT_GAME and not getattr(args, "any_game", False):
        works = ", ".join(sorted(name for name in known_commands() if name))
        raise UsageError(f"`rattus {args.command}` is for {DEFAULT_GAME} only; --game works with: {works}")
    select(args.game)


def reference_rst() -> str:
    """The command line's reference page: every subcommand with its help, from the argument parser itself
    (the documentation's ``rattus-generated:: cli``)."""
    from .tools.docs.cliref import parser_rst

    return parser_rst(build_parser(), "The ``rattus`` command; exit codes: 0 fine, 1 a rule or spec error, "
                                      "2 bad usage or input.")


def known_commands() -> list[str]:
    """The subcommands that work with any game (``--game``)."""
    return _any_game(build_parser())


__all__ = ["build_parser", "known_commands", "known_games", "main"]


def _one_line(text: str, limit: int = 300) -> str:
    """A message on one line, cut short if long."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit] + "..."


if __name__ == "__main__":
    sys.exit(main())
