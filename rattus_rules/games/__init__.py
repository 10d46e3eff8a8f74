"""The game registry: which games there are, and where each one's rules live.

A game is a folder of ``*.rules`` files with its ``data/`` tables — nothing
else is needed to check it, play it and count its moves.  The registry finds
games by name:

* every folder ``spec/<name>/`` shipped with the package (in a checkout, the
  ``spec/`` folder beside it): ``rattus``, the default, and ``ratten_scharf``
  (Michael Schacht's Ratten Scharf, the second game written in the language,
  which has no Python of its own);
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
rattus_rules.games.UnknownGame: no game 'ratus'; did you mean 'rattus'? (known games: ratten_scharf, rattus)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from interpreter import Game, State
from interpreter.checker import suggest
from rattus_rules.tools.perft import PieceWord
from rattus_rules.tools.records.walk import Faces, RowFaces
from rattus_rules.tools.views import textview

#: The one reason a game ends, where its package names no others (see :class:`GameHooks`).
FINISHED = {"finished": "the rules finished the game"}

#: The game loaded when none is named.
DEFAULT_GAME = "rattus"
#: The environment variable listing further folders of games.
GAMES_PATH_ENV = "RATTUS_GAMES_PATH"
#: The environment variable that points the default game, Rattus, at another folder (:mod:`rattus_rules.paths`).
SPEC_DIR_ENV = "RATTUS_SPEC_DIR"

_HERE = Path(__file__).resolve().parents[1]  # the rattus_rules package folder


class UnknownGame(ValueError):
    """A game name the registry does not know (the message lists the known ones)."""


@attrs.frozen
class ResolvedGame:
    """A game resolved once, to be passed down instead of its name: its registry ``name``, its loaded
    ``rules``, its package's ``hooks`` and how its records write its pieces (``faces``); made by
    :func:`rattus_rules.api.resolve`."""

    name: str
    rules: Game
    hooks: GameHooks
    faces: Faces
    #: The hooks of the package named like the rules' own ``game`` name, which the tools that show a position
    #: read (as :func:`position_text` does; for a game of the registry the same as ``hooks``).
    views: GameHooks = attrs.field(default=attrs.Factory(lambda self: self.hooks, takes_self=True))

    def piece_word(self, game: Game, piece: int) -> str:
        """A piece as the game's records write it, for the tools that take a
        :data:`~rattus_rules.tools.perft.PieceWord` (``game``: these rules; the faces are known already)."""
        return self.faces.written(piece)

    def position_text(self, state: State, shown: Shown | None = None, names: Sequence[str] | None = None) -> str:
        """A position of this game as text (:func:`position_text`, with the hooks and faces resolved already)."""
        if self.views.text_view is not None:
            return self.views.text_view(state, shown, names)
        return textview.position_text(state, _shown_written(self.faces, shown), names)

    def position_json(self, state: State, shown: Shown | None = None,
                      names: Sequence[str] | None = None) -> dict[str, Any]:
        """A position of this game as JSON data (:func:`position_json`, with the hooks and faces resolved already)."""
        if self.views.json_view is not None:
            return self.views.json_view(state, shown, names)
        return textview.position_json(state, _shown_written(self.faces, shown), names)


@attrs.frozen
class KitCases:
    """The cases a game's package picks by hand for its conformance kit (:mod:`rattus_rules.tools.kit.conformance`).

    ``perft``: (players, seed, chance rule, deepest depth) of each perft vector; ``golden``: (name,
    players, seed, switch settings) of each golden playthrough; ``games``: the recorded games and
    what a validator must answer for each; ``vectors``: further perft vectors, written after the
    others; ``files``: further files of the kit (relative path → text).  Each is given the game,
    resolved once (:class:`ResolvedGame`).
    """

    perft: tuple[tuple[int, int, str, int], ...]
    golden: tuple[tuple[str, int, int, dict[str, str]], ...]
    games: Callable[[ResolvedGame], tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]]
    vectors: Callable[[ResolvedGame], list[dict[str, Any]]] = lambda game: []
    files: Callable[[ResolvedGame], dict[str, str]] = lambda game: {}


@attrs.frozen
class GameHooks:
    """What a game's own package tells the game-agnostic tools (all optional).

    ``turn_procedure``: the procedure whose first decision ends setup (perft
    starts there; without it, at the first player decision);
    ``faces``: how the game's records write a piece (its face: see
    :class:`rattus_rules.tools.records.walk.Faces`), made for a loaded game; without
    it a piece's face is its table row (:class:`rattus_rules.tools.records.walk.RowFaces`);
    ``check``: run once when the rules load, it raises :class:`~interpreter.SpecError`
    if the spec lacks a name the game's package reads.
    """

    turn_procedure: str | None = None
    faces: Callable[[Game], Faces] | None = None
    check: Callable[[Game], None] | None = None
    #: The position as text and as JSON (a state, which pieces' faces may be shown, the record's
    #: seat names); without them, every value and zone (:mod:`rattus_rules.tools.views.textview`).
    text_view: Callable[[State, Shown | None, Sequence[str] | None], str] | None = None
    json_view: Callable[[State, Shown | None, Sequence[str] | None], dict[str, Any]] | None = None
    #: Why a game is ending, once it can tell (the study asks after every step until it answers), and
    #: every reason it may give, with what each means; without them a game ends for one reason.
    end_reason: Callable[[State], str | None] | None = None
    end_reasons: Mapping[str, str] = attrs.field(factory=lambda: dict(FINISHED))
    #: What the game's score counts, for the study's plots and tables.
    score_unit: str = "points"
    #: The replay viewer's picture of a position, an SVG (a state, which pieces' faces may be shown, the
    #: record's seat names), and its table of the seats (a row per seat with the keys the page's table
    #: reads, ``rattus_rules/web/common.js``); without them it shows the position as text
    #: (:func:`position_text`) and no table.
    picture: Callable[[State, Shown | None, Sequence[str] | None], str] | None = None
    seat_rows: Callable[[State, Sequence[str] | None], list[dict[str, Any]]] | None = None
    #: What the viewer says of the component data; without it, the game's provenance note.
    components_note: str | None = None
    #: For the play page (:mod:`rattus_rules.tools.views.play`): the places of the game's ``picture`` (their
    #: ``data-place`` keys) whose clicks choose an action, given the state and the action's words: each a
    #: path of places clicked in turn.  Without it, an action is chosen on the picture only where the spec
    #: declares a ``click`` for its verb.
    action_places: Callable[[State, Sequence[str]], list[list[str]]] | None = None
    #: How ``rattus play`` lays out the game's log: lines beginning with one of ``log_turns`` start a
    #: turn (flush left, framed ``— … —``), with one of ``log_events`` a notable event (flush left); every
    #: other line is indented.  Without them every line is indented.
    log_turns: tuple[str, ...] = ()
    log_events: tuple[str, ...] = ()
    #: The hand-picked cases of the game's conformance kit, made when a kit is built; without them the
    #: cases are chosen from the spec (every player count, every switch option, illegal games made
    #: without knowing the game).
    kit: Callable[[], KitCases] | None = None

    @property
    def piece_word(self) -> PieceWord:
        """How the tools write a piece in the texts they make (a chance outcome for perft's ``first``
        rule, the play log, protocol answers): as the game's records write it (:func:`faces_of`:
        the package's faces, else the piece's table row), so that every text of a game is in one
        notation."""
        return _face_word


def faces_of(game: Game) -> Faces:
    """How records of a loaded game write its pieces: its package's :class:`GameHooks` ``faces``,
    else by their table rows (:class:`rattus_rules.tools.records.walk.RowFaces`)."""
    return _faces_of(game, _HOOKS.get(game.name, GameHooks()).faces)


@functools.lru_cache(maxsize=16)
def _faces_of(game: Game, made: Callable[[Game], Faces] | None) -> Faces:
    return RowFaces(game) if made is None else made(game)


def _face_word(game: Game, piece: int) -> str:
    return faces_of(game).written(piece)


#: Which pieces' faces may be shown (by piece); None: all.
Shown = Callable[[int], bool]


def _written(game: Game, shown: Shown | None) -> Callable[[int], str]:
    return _shown_written(faces_of(game), shown)


def _shown_written(faces: Faces, shown: Shown | None) -> Callable[[int], str]:
    if shown is None:
        return faces.written
    return lambda piece: faces.written(piece) if shown(piece) else faces.unknown


def position_text(state: State, shown: Shown | None = None, names: Sequence[str] | None = None) -> str:
    """A position as text: the game package's view, else every value and zone (pieces by face); the
    game looked up by the name its rules give it (a command has it resolved: :meth:`ResolvedGame.position_text`)."""
    view = hooks(state.game.name).text_view
    if view is not None:
        return view(state, shown, names)
    return textview.position_text(state, _written(state.game, shown), names)


def position_json(state: State, shown: Shown | None = None, names: Sequence[str] | None = None) -> dict[str, Any]:
    """A position as JSON data: the game package's view, else every value and zone (pieces by face); the
    game looked up by name (resolved already: :meth:`ResolvedGame.position_json`)."""
    view = hooks(state.game.name).json_view
    if view is not None:
        return view(state, shown, names)
    return textview.position_json(state, _written(state.game, shown), names)


def log_lines(state: State, start: int = 0) -> list[str]:
    """The state's log (kept with ``log=True``) from line ``start``: each piece written as the game's
    records write it (a token by its face), as every text of a game loaded by this package writes it."""
    return (state.log or [])[start:]


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
    try:
        return folder.is_dir() and any(folder.glob("*.rules"))
    except OSError:  # a name too long, a folder that cannot be looked into: no game
        return False


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


def selected() -> str | None:
    """The game chosen with :func:`select` (the command line's ``--game``), or None if none was."""
    return _selected


def follow_record(record: object) -> str | None:
    """Select the game a record names (its ``"game"``) when no game was chosen; the name selected, or None.

    Only a game of the registry by its name is followed (never a path from the record): a record of a
    game not known here, or with no ``"game"``, leaves the choice as it was (the record's check says why).
    """
    if _selected is not None or not isinstance(record, dict):
        return None
    name = record.get("game")
    if not isinstance(name, str) or name == DEFAULT_GAME or _is_path(name) or name not in known_games():
        return None
    select(name)
    return name


def select(game: str | None) -> None:
    """Make ``game`` the one loaded when none is named (the command line's ``--game``); None: the default."""
    global _selected
    if game is not None:
        game_dir(game)
    _selected = game
