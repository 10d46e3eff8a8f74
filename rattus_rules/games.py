"""The game registry: which games there are, and where each one's rules live.

A game is a folder of ``*.rules`` files with its ``data/`` tables — nothing
else is needed to check it, play it and count its moves.  The registry finds
games by name:

* every folder ``spec/<name>/`` shipped with the package (in a checkout, the
  ``spec/`` folder beside it): today ``rattus``, the default;
* every folder ``<name>/`` inside the folders listed in ``$RATTUS_GAMES_PATH``
  (separated like ``$PATH``), for games of your own;
* a path: ``--game path/to/folder`` (or ``game="path/to/folder"``) loads any
  folder of rules.

``$RATTUS_SPEC_DIR`` still points the default game, Rattus, at another folder
(a patched copy: see :mod:`rattus_rules.paths`).  A game may also have a small
package of its own words and pictures; Rattus has :mod:`rattus_rules`, which
registers how setup ends and how its pieces are written (:class:`GameHooks`).

>>> "rattus" in known_games()
True
>>> game_dir("ratus")
Traceback (most recent call last):
...
rattus_rules.games.UnknownGame: no game 'ratus'; did you mean 'rattus'? (known games: rattus)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs

from interpreter import Game
from interpreter.checker import suggest

#: The game loaded when none is named.
DEFAULT_GAME = "rattus"
#: The environment variable listing further folders of games.
GAMES_PATH_ENV = "RATTUS_GAMES_PATH"

_HERE = Path(__file__).resolve().parent


class UnknownGame(ValueError):
    """A game name the registry does not know (the message lists the known ones)."""


@attrs.frozen
class GameHooks:
    """What a game's own package tells the game-agnostic tools (all optional).

    ``turn_procedure``: the procedure whose first decision ends setup (perft
    starts there; without it, at the first player decision);
    ``piece_word``: how a piece is written in a chance outcome's text, for the
    ``first`` chance rule of perft;
    ``check``: run once when the rules load, it raises :class:`~interpreter.SpecError`
    if the spec lacks a name the game's package reads.
    """

    turn_procedure: str | None = None
    piece_word: Callable[[Game, int], str] | None = None
    check: Callable[[Game], None] | None = None


_HOOKS: dict[str, GameHooks] = {}
_selected: str | None = None


def register_hooks(name: str, hooks: GameHooks) -> None:
    """Tell the tools about a game's own words (called by the game's package)."""
    _HOOKS[name] = hooks


def hooks(game: str | None = None) -> GameHooks:
    """The hooks of a game (empty ones if its package gave none)."""
    return _HOOKS.get(game_name(game), GameHooks())


def spec_roots() -> list[Path]:
    """The folders whose subfolders are games, in the order they are searched."""
    roots = [_HERE / "spec", _HERE.parent / "spec"]
    roots += [Path(p) for p in os.environ.get(GAMES_PATH_ENV, "").split(os.pathsep) if p]
    return roots


def _is_game(folder: Path) -> bool:
    return folder.is_dir() and any(folder.glob("*.rules"))


def _found() -> Iterator[tuple[str, Path]]:
    for root in spec_roots():
        if root.is_dir():
            for folder in sorted(root.iterdir()):
                if _is_game(folder):
                    yield folder.name, folder


def known_games() -> dict[str, Path]:
    """Every game found by name: name → folder (the first folder of a name wins)."""
    return dict(_known(os.environ.get(GAMES_PATH_ENV, "")))


@functools.lru_cache(maxsize=8)
def _known(games_path: str) -> tuple[tuple[str, Path], ...]:
    """The games found with this ``$RATTUS_GAMES_PATH`` (looked up once per value)."""
    out: dict[str, Path] = {}
    for name, folder in _found():
        out.setdefault(name, folder)
    return tuple(out.items())


def _is_path(game: str) -> bool:
    return os.sep in game or "/" in game or game.startswith(".")


def game_name(game: str | None = None) -> str:
    """The registry name of a game (``None``: the selected one, else the default)."""
    chosen = game if game is not None else (_selected or DEFAULT_GAME)
    return str(Path(chosen).resolve()) if _is_path(chosen) else chosen


def game_dir(game: str | None = None) -> Path:
    """The folder of a game's rules: by name or path (``None``: the selected game, else the default).

    Raises :class:`UnknownGame` (a ValueError) naming the known games.
    """
    name = game_name(game)
    if name == DEFAULT_GAME:
        from .paths import SPEC_DIR_ENV

        chosen = os.environ.get(SPEC_DIR_ENV)
        if chosen:
            return Path(chosen)
    if _is_path(name):
        folder = Path(name)
        if not _is_game(folder):
            raise UnknownGame(f"no game in {name}: a game is a folder of *.rules files")
        return folder
    known = known_games()
    if name in known:
        return known[name]
    raise UnknownGame(f"no game {name!r}{suggest(name, list(known))} (known games: {', '.join(known) or 'none'})")


def select(game: str | None) -> None:
    """Make ``game`` the one loaded when none is named (the command line's ``--game``); None: the default."""
    global _selected
    if game is not None:
        game_dir(game)
    _selected = game
