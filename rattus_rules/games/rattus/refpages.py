"""The Rattus package's reference pages: the language reference in Rattus words, the pictures and the
API; the language's own parts come from :mod:`rattus_rules.tools.docs.refgen`, and the command line's
page from the front door itself (:func:`rattus_rules.cli.reference_rst`).
"""

from __future__ import annotations

from collections.abc import Callable

from interpreter import Game
from rattus_rules.tools.docs import refgen
from rattus_rules.tools.docs.refgen import modules
from rattus_rules.tools.docs.rst import heading, indent

from .wording import VOCABULARY


def language_rst(game: Game | None = None) -> str:
    """The language reference, its examples taken from the Rattus spec and read in Rattus words."""
    return refgen.language_rst(game, VOCABULARY)


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
    "board-svg": board_svg_rst,
    "state-svg": state_svg_rst,
    "api": api_rst,
}
