"""The public Python API: load the rules of Rattus (or of another game: :mod:`rattus_rules.games`),
start and restore games.

>>> from rattus_rules import new_game
>>> state = new_game(4, seed=7)
>>> state.current_player            # chance events of setup are resolved: P0 places
0
>>> state.legal_actions()[0].text
'start Anglia'
>>> state.apply("start Gallia")
>>> state.current_player
1
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from interpreter import Citation, Game, State, load_spec, notation

from .games import game_name, hooks
from .paths import project_root, spec_dir


@functools.lru_cache(maxsize=8)
def _load(folder: str, data: str | None, name: str) -> Game:
    game = load_spec(Path(folder), data=data, display_root=project_root())
    # the package of the registry name, and the one the tools find by the name the rules give the game
    # (faces, views: rattus_rules.games): each checks that the spec has what it reads
    for owner in dict.fromkeys((name, game.name)):
        check = hooks(owner).check
        if check is not None:
            check(game)
    return game


def load_rules(data: str | Path | None = None, game: str | None = None) -> Game:
    """The compiled rules of a game; ``data`` names a folder of corrected component tables.

    ``game`` is a name from the registry or a folder (:mod:`rattus_rules.games`);
    None is Rattus (or the game chosen with ``rattus --game``).  Loaded once
    per folder and data path and cached.  Raises :class:`interpreter.SpecError`,
    or :class:`rattus_rules.games.UnknownGame` (a ValueError).
    """
    return _load(str(spec_dir(game)), None if data is None else str(Path(data).resolve()), game_name(game))


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
    game: str | None = None,
) -> State:
    """A new game of Rattus for 2 to 4 players (or of another ``game``: see :func:`load_rules`).

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
    rules = load_rules(data, game)
    return rules.new_state(
        players,
        seed=secrets.randbits(64) if seed is None else check_seed(seed),
        settings=interpretations,
        log=log,
        check_invariants=check_invariants,
        resolve_setup_chance=resolve_setup_chance,
    )


def state_from_json(stored: Mapping[str, Any], data: str | Path | None = None, game: str | None = None) -> State:
    """Restore a state saved with ``state.to_json()``; ValueError if it is not one a game can reach.

    Structure, references, program position and the spec's invariants are
    checked (see :mod:`interpreter.stored`).
    """
    return load_rules(data, game).state_from_json(stored)


@attrs.frozen
class Option:
    """One reading of an interpretation switch."""

    value: str
    description: str
    default: bool
    citations: tuple[Citation, ...]


@attrs.frozen
class Interpretation:
    """A named point where the rule text allows several readings."""

    id: str
    question: str
    options: tuple[Option, ...]

    @property
    def default(self) -> str:
        """The project's reading."""
        return next(o.value for o in self.options if o.default)

    def to_json(self) -> dict[str, Any]:
        """The switch as JSON: id, question, default, and each option with its citations."""
        return {"id": self.id, "question": self.question, "default": self.default,
                "options": [{"value": o.value, "description": o.description, "default": o.default,
                             "citations": [citation_json(c) for c in o.citations]} for o in self.options]}


def interpretations(data: str | Path | None = None, game: str | None = None) -> list[Interpretation]:
    """Every interpretation switch of the spec, in spec order."""
    rules = load_rules(data, game)
    return [
        Interpretation(
            d.ident,
            d.question,
            tuple(Option(o.value, o.description, o.default, o.citations) for o in d.options),
        )
        for d in rules.switches.values()
    ]


def citation_json(citation: Citation) -> dict[str, str]:
    """A German citation as JSON: source, section, quote."""
    return {"source": citation.source, "section": citation.section, "quote": citation.quote}


#: How a seat is written in actions, logs and records: ``P0``, ``P1``, ... (:func:`interpreter.notation.seat`).
player_label = notation.seat
