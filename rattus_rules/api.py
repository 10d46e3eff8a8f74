"""The public Python API: load the rules of Rattus (or of another game: :mod:`rattus_rules.games`),
start and restore games.

>>> from rattus_rules import new_game
>>> state = new_game(4, seed=7)
>>> state.current_player            # chance events of setup are resolved: P0 places
0
>>> first = state.legal_actions()[0]
>>> first.text.split()[0]           # where P0 starts: the actions are the spec's words (README.md shows more)
'start'
>>> state.apply(first)
>>> state.current_player
1
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from interpreter import Citation, Game, SpecError, State, load_spec, notation
from interpreter.ast import SettingDecl
from interpreter.data import MAX_TABLE_BYTES, path_problem, resolve_file
from interpreter.files import read_text

from .games import GAMES_PATH_ENV, SPEC_DIR_ENV, faces_of, game_name, hooks
from .games import ResolvedGame as ResolvedGame
from .paths import project_root, spec_dir

#: The most compiled games kept loaded (by spec folder and content of the component data); the least
#: recently used is forgotten first.
MAX_LOADED = 8
_loaded: OrderedDict[tuple[str, str, str], Game] = OrderedDict()
#: Every loaded game still in use somewhere (a state holds its game), also once forgotten by ``_loaded``.
_alive: weakref.WeakValueDictionary[tuple[str, str, str], Game] = weakref.WeakValueDictionary()
_loaded_lock = threading.Lock()


def _load_spec(folder: str, data: str | None, name: str) -> Game:
    game = load_spec(Path(folder), data=data, display_root=project_root())
    # the package of the registry name, and the one the tools find by the name the rules give the game
    # (faces, views: rattus_rules.games): each checks that the spec has what it reads
    for owner in dict.fromkeys((name, game.name)):
        check = hooks(owner).check
        if check is not None:
            check(game)
    # every text of the game (history, log, legal actions, errors) writes a piece as its records, the
    # command line and the referee do: by its face (one notation everywhere)
    faces = faces_of(game)
    with contextlib.suppress(ValueError):  # faces no action text can hold (a row of one empty list...): keys
        game.write_pieces([faces.written(p) for p in range(len(game.piece_rows))])
    return game


def _content_key(folder: str, data: str | None, name: str) -> str:
    """What tells loaded games apart: ``shipped``; for a data path, the sha256 of the table files it gives
    (so that two folders holding the same tables share one compiled game); ``path:DATA`` where those
    files cannot be read here (loading them says why)."""
    if data is None:
        return "shipped"
    digest = hashlib.sha256()
    override = Path(data)
    mine = False
    try:
        for decl in sorted(_load(folder, None, name).symbols.tables.values(), key=lambda d: d.file):
            if path_problem(decl.file) is not None:
                return f"path:{data}"
            path = resolve_file(decl, Path(folder), override)
            mine = mine or path != Path(folder) / decl.file
            text = read_text(path, MAX_TABLE_BYTES)
            digest.update(f"{decl.file}\0{len(text)}\0{text}".encode("utf-8", "surrogatepass"))
    except (OSError, ValueError, SpecError):
        return f"path:{data}"
    return f"sha256:{digest.hexdigest()}" if mine else f"path:{data}"


def _load(folder: str, data: str | None, name: str) -> Game:
    """A game's compiled rules with these component tables, shared by every caller that gives the same
    tables (:func:`_content_key`) while any uses them; at most :data:`MAX_LOADED` are kept beyond that."""
    key = (folder, _content_key(folder, data, name), name)
    with _loaded_lock:
        found = _loaded.get(key) or _alive.get(key)
        if found is not None:
            _loaded[key] = found
            _loaded.move_to_end(key)
            return found
    game = _load_spec(folder, data, name)
    if key[1] != "shipped" and _content_key(folder, data, name) != key[1]:
        return game  # the files changed while they were read: not kept for another caller
    with _loaded_lock:
        game = _loaded.get(key) or _alive.setdefault(key, game)
        _loaded[key] = game
        _loaded.move_to_end(key)
        while len(_loaded) > MAX_LOADED:
            _loaded.popitem(last=False)
    return game


def forget_loaded() -> None:
    """Forget every loaded game (a back end or spec folder chosen anew loads them again)."""
    with _loaded_lock:
        _loaded.clear()
        _alive.clear()
        _in_process.clear()


def load_rules(data: str | Path | None = None, game: str | None = None) -> Game:
    """The compiled rules of a game; ``data`` names a folder of corrected component tables.

    ``game`` is a name from the registry or a folder (:mod:`rattus_rules.games`);
    None is Rattus (or the game chosen with ``rattus --game``).  Loaded once
    per folder and content of the data's tables and cached (two data folders holding the same tables
    share one compiled game).  Raises :class:`interpreter.SpecError`,
    or :class:`rattus_rules.games.UnknownGame` (a ValueError).
    """
    return _load(str(spec_dir(game)), None if data is None else str(Path(data).resolve()), game_name(game))


def resolve(game: str | ResolvedGame | None = None, data: str | Path | None = None) -> ResolvedGame:
    """A game resolved once (:class:`ResolvedGame`): by name or folder as :func:`load_rules` takes it
    (None: the selected game); a game already resolved is returned as it is (unless ``data`` asks for
    other component tables)."""
    if isinstance(game, ResolvedGame):
        if data is None:
            return game
        game = game.name
    rules = load_rules(data, game)
    name = game_name(game)
    found = hooks(name)
    return ResolvedGame(name, rules, found, faces_of(rules), found if rules.name == name else hooks(rules.name))


#: The games resolved by :func:`resolve_in_process`, by name and the environment that finds their folders.
_in_process: dict[tuple[str, str, str], ResolvedGame] = {}


def resolve_in_process(name: str) -> ResolvedGame:
    """A game of the registry by its name (or folder), resolved once per process and kept.

    For the workers of another process (the study's on local processes or a Dask cluster): a resolved
    game cannot cross a process, so a work item carries the game's name and its settings, and each worker
    resolves the game at its first item.  Kept by the name and ``$RATTUS_SPEC_DIR`` and
    ``$RATTUS_GAMES_PATH`` (which choose the folder); forgotten by :func:`forget_loaded`.
    """
    key = (name, os.environ.get(SPEC_DIR_ENV, ""), os.environ.get(GAMES_PATH_ENV, ""))
    with _loaded_lock:
        found = _in_process.get(key)
    if found is None:
        found = resolve(name)
        with _loaded_lock:
            found = _in_process.setdefault(key, found)
    return found


def keep_in_process(game: ResolvedGame) -> ResolvedGame:
    """Make a game the command resolved the one :func:`resolve_in_process` gives for its name in this
    process (so that what runs here does not resolve it again); the game."""
    key = (game.name, os.environ.get(SPEC_DIR_ENV, ""), os.environ.get(GAMES_PATH_ENV, ""))
    with _loaded_lock:
        _in_process[key] = game
    return game


def rules_of(game: str | ResolvedGame | None = None, data: str | Path | None = None) -> Game:
    """The loaded rules of a game given by name, folder or as resolved already (:func:`load_rules`)."""
    if isinstance(game, ResolvedGame):
        return game.rules if data is None else load_rules(data, game.name)
    return load_rules(data, game)


#: The largest seed: seeds are 0 to 2^64-1 (the seed rule of docs/decision-model.rst; records store them).
MAX_SEED = (1 << 64) - 1


def check_seed(seed: int) -> int:
    """The seed, if it is one (0 to :data:`MAX_SEED`); ValueError otherwise."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        shown = repr(seed) if len(repr(seed)) <= 40 else f"{repr(seed)[:20]}... ({len(repr(seed))} characters)"
        raise ValueError(f"a seed is a whole number from 0 to 2^64-1, not {shown}")
    return seed


def new_game(
    players: int,
    seed: int | None = None,
    interpretations: Mapping[str, str] | None = None,
    data: str | Path | None = None,
    *,
    check_invariants: bool = False,
    log: bool = False,
    resolve_setup_chance: bool = True,
    game: str | ResolvedGame | None = None,
) -> State:
    """A new game of Rattus for 2 to 4 players (or of another ``game``: see :func:`load_rules`; or one
    resolved already, :func:`resolve`).

    ``seed`` (0 to 2^64-1) seeds the generator kept in the state (random if None);
    ``interpretations`` maps switch ids to options (see :func:`interpretations`);
    ``data`` loads a user's board or token table instead of the shipped one.
    With ``resolve_setup_chance`` (the default here) the chance events before the first player
    decision are drawn from the state's generator, so the state returned waits
    for a player; otherwise it may wait at a chance node, as
    ``load_rules().new_state(...)`` does by default (its ``resolve_setup_chance`` is False:
    the same keyword names the one difference: ``new_game`` and ``new_state`` give the same state
    when it agrees).
    """
    rules = rules_of(game, data)
    return rules.new_state(
        players,
        seed=secrets.randbits(64) if seed is None else check_seed(seed),
        settings=interpretations,
        log=log,
        check_invariants=check_invariants,
        resolve_setup_chance=resolve_setup_chance,
    )


def state_from_json(stored: Mapping[str, Any], data: str | Path | None = None,
                    game: str | ResolvedGame | None = None) -> State:
    """Restore a state saved with ``state.to_json()``; ValueError if it is not one a game can reach
    (``game``: by name, see :func:`load_rules`, or resolved already, :func:`resolve`).

    Structure, references, program position and the spec's invariants are
    checked (see :mod:`interpreter.stored`).
    """
    return rules_of(game, data).state_from_json(stored)


@attrs.frozen
class Option:
    """One reading of an interpretation switch."""

    value: str
    description: str
    default: bool
    citations: tuple[Citation, ...]


@attrs.frozen
class Interpretation:
    """A named point where the rule text allows several readings, or a game setting (a whole number
    the players choose, such as a table's size: ``setting`` true, its values as options)."""

    id: str
    question: str
    options: tuple[Option, ...]
    setting: bool = False

    @property
    def default(self) -> str:
        """The project's reading."""
        return next(o.value for o in self.options if o.default)

    def to_json(self) -> dict[str, Any]:
        """The switch as JSON: id, question, default, and each option with its citations."""
        return {"id": self.id, "question": self.question, "default": self.default, "setting": self.setting,
                "options": [{"value": o.value, "description": o.description, "default": o.default,
                             "citations": [citation_json(c) for c in o.citations]} for o in self.options]}


def interpretations(data: str | Path | None = None, game: str | ResolvedGame | None = None) -> list[Interpretation]:
    """Every interpretation switch of the spec, in spec order, then every game setting (of a game given by
    name, or resolved already: :func:`rules_of`)."""
    rules = rules_of(game, data)
    return [
        Interpretation(
            d.ident,
            d.question,
            tuple(Option(o.value, o.description, o.default, o.citations) for o in d.options),
            isinstance(d, SettingDecl),
        )
        for d in rules.switches.values()
    ]


def citation_json(citation: Citation) -> dict[str, str]:
    """A German citation as JSON: source, section, quote."""
    return {"source": citation.source, "section": citation.section, "quote": citation.quote}


#: How a seat is written in actions, logs and records: ``P0``, ``P1``, ... (:func:`interpreter.notation.seat`).
player_label = notation.seat
