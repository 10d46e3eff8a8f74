"""The Rattus package's reference pages: the language reference in Rattus words, the command
line (from its argument parser), the pictures and the API; the language's own parts come from
:mod:`rattus_rules.tools.docs.refgen`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from typing import Any

from interpreter import Game
from rattus_rules.tools.docs import refgen
from rattus_rules.tools.docs.refgen import modules
from rattus_rules.tools.docs.rst import esc, heading, indent

from .wording import VOCABULARY


def language_rst(game: Game | None = None) -> str:
    """The language reference, its examples taken from the Rattus spec and read in Rattus words."""
    return refgen.language_rst(game, VOCABULARY)


# ------------------------------------------------------------ command line

HELP_WIDTH = 96


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, helps.get(name, ""), sub


def _help(parser: argparse.ArgumentParser) -> str:
    original: Any = parser.formatter_class
    parser.formatter_class = lambda prog: original(prog, width=HELP_WIDTH)
    try:
        return parser.format_help()
    finally:
        parser.formatter_class = original


def cli_rst(game: Game | None = None) -> str:
    """Every subcommand of ``rattus`` with its help, from the argument parser itself."""
    from rattus_rules.cli import build_parser

    parser = build_parser()
    out = ["The ``rattus`` command; exit codes: 0 fine, 1 a rule or spec error, 2 bad usage or input.", "",
           ".. code-block:: text", "", *indent(_help(parser).splitlines(), 3), ""]
    for name, summary, sub in _subcommands(parser):
        out += [f".. _rules-cli-{name}:", ""] + heading(f"rattus {name}", "-")
        if summary:
            out += [esc(summary[0].upper() + summary[1:]) + ".", ""]
        out += [".. code-block:: text", "", *indent(_help(sub).splitlines(), 3), ""]
        for sub_name, sub_summary, subsub in _subcommands(sub):
            out += heading(f"rattus {name} {sub_name}", "~")
            if sub_summary:
                out += [esc(sub_summary[0].upper() + sub_summary[1:]) + ".", ""]
            out += [".. code-block:: text", "", *indent(_help(subsub).splitlines(), 3), ""]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- pictures

#: The state drawn in the docs: players, seed, random moves after setup.
SAMPLE_STATE = (4, 2, 90)


def _raw_svg(svg: str, caption: str) -> str:
    lines = [".. raw:: html", "", '   <figure class="rules-picture">', *indent(svg.splitlines(), 3),
             f"   <figcaption>{caption}</figcaption>", "   </figure>", ""]
    return "\n".join(lines) + "\n"


def board_svg_rst(game: Game) -> str:
    """The board picture, inline."""
    from .render import board_svg

    return _raw_svg(board_svg(game), "The board drawn from <code>regions.csv</code> and <code>board.csv</code>.")


def state_svg_rst(game: Game) -> str:
    """A game state, inline: a 4-player game after random moves."""
    from rattus_rules.games.rattus.render_command import random_state

    from .render import state_svg

    players, seed, moves = SAMPLE_STATE
    state = random_state(players, seed, moves)
    return _raw_svg(state_svg(state), f"A {players}-player game (seed {seed}) after {moves} random decisions: "
                    f"<code>rattus render state --players {players} --seed {seed} --moves {moves}</code>.")


# --------------------------------------------------------------------- API


def api_rst(game: Game | None = None) -> str:
    """An autodoc section for every module of :mod:`interpreter` and :mod:`rattus_rules`."""
    out: list[str] = []
    for package, title in (("rattus_rules", "The Rattus package"), ("interpreter", "The rules language")):
        out += heading(f"{title}: {package}", "-")
        for name in modules(package):
            out += heading(name, "~")
            # a package's members are its modules' (documented there); only its docstring here
            members = [] if name == package else ["   :members:"]
            out += [f".. automodule:: {name}", *members, ""]
    return "\n".join(out) + "\n"


#: Each generated reference part: name → function.
PAGES: dict[str, Callable[[Game], str]] = {
    **refgen.PAGES,
    "language": language_rst,
    "cli": cli_rst,
    "board-svg": board_svg_rst,
    "state-svg": state_svg_rst,
    "api": api_rst,
}
