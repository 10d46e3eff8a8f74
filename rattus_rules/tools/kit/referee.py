"""`rattus serve`: the referee of any game over the game-agnostic session of :mod:`interpreter.session`.

What the package adds to the session: games are started with ``players``, ``seed``,
``switches`` and ``data``; pieces in actions and chance outcomes are written by
their face as the game's records write them (:func:`rattus_rules.games.faces_of`); and the
``validate`` command checks a record or a record prefix.  The protocol is
described in ``docs/protocol.md``; every message has a JSON Schema in
``rattus_rules/schema/protocol.schema.json``.

>>> session = referee_session()
>>> session.answer({"id": 1, "cmd": "new", "players": 2, "seed": 1, "chance": "seed"})["to_move"]
0
>>> session.answer({"cmd": "apply", "game": "g1", "action": "start Nowhere"})["error"]["code"]
'illegal-action'
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Mapping
from typing import IO, Any

from interpreter import Game, State
from interpreter.notation import CHANCE
from interpreter.session import Host, ProtocolError, Reply, Request, Session, serve
from rattus_rules.api import check_seed, interpretations, load_rules, new_game, state_from_json
from rattus_rules.games import hooks

from ..records.validate import components_digest, validate

#: Each loaded game's pieces as actions write them (made once per game, not once per game started).
_WORDS: weakref.WeakKeyDictionary[Game, list[str]] = weakref.WeakKeyDictionary()

PROTOCOL_NAME = "rattus-referee"


def _data(request: Request) -> str | None:
    data = request.get("data")
    if data is not None and not isinstance(data, str):
        raise ProtocolError("bad-request", "`data` is the path of a folder of component tables")
    return data


class RattusHost(Host):
    """Rattus for the referee session."""

    name = PROTOCOL_NAME

    def hello(self) -> dict[str, Any]:
        """The game, its player counts, switches and the components' sha256."""
        game = load_rules()
        return {"game": game.name, "players": [game.min_players, game.max_players],
                "switches": {i.id: {"default": i.default, "options": [o.value for o in i.options]}
                             for i in interpretations()},
                "components": {"source": "shipped", "sha256": components_digest(game)}}

    def new_state(self, request: Request) -> State:
        """``players`` (the game's counts), ``seed`` (0..2^64-1, default 0), ``switches`` (id → option), ``data``."""
        players = request.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            game = load_rules()
            raise ProtocolError("bad-request", f"`players` is the number of players ({game.players_text})")
        seed = request.get("seed", 0)
        try:
            check_seed(seed)
        except ValueError:
            raise ProtocolError("bad-request", "`seed` is an integer from 0 to 2^64-1") from None
        switches = _switches(request)
        return new_game(players, seed=seed, interpretations=switches, data=_data(request),
                        resolve_setup_chance=False)

    def load_state(self, stored: Mapping[str, Any], request: Request) -> State:
        """A state saved by ``save``."""
        return state_from_json(stored, data=_data(request))

    def piece_word(self, state: State) -> Callable[[int], str]:
        """Pieces are written as the game's records write them (Rattus: tokens by their face; a game
        without faces of its own: by its table row)."""
        game = state.game
        words = _WORDS.get(game)
        if words is None:
            word = hooks(game.name).piece_word
            words = _WORDS[game] = [word(game, p) for p in range(len(game.piece_rows))]
        return words.__getitem__

    def commands(self) -> dict[str, Callable[[Session, Request], Reply]]:
        """``validate``."""
        return {"validate": validate_command}

    def request_fields(self) -> dict[str, frozenset[str]]:
        """``players``, ``seed``, ``switches`` and ``data`` of ``new``; ``data`` of ``load``; ``validate``'s."""
        return {"new": frozenset({"players", "seed", "switches", "data"}), "load": frozenset({"data"}),
                "validate": frozenset({"record", "switches", "data"})}


def _switches(request: Request) -> dict[str, str]:
    switches = request.get("switches", {})
    if not isinstance(switches, dict) or not all(isinstance(v, str) for v in switches.values()):
        raise ProtocolError("bad-request", "`switches` maps switch ids to options (strings)")
    return switches


def validate_command(session: Session, request: Request) -> Reply:
    """Validate a ``record`` (or a prefix of one): the verdict, the next player and their legal actions."""
    record = request.get("record")
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except (ValueError, RecursionError) as err:
            raise ProtocolError("bad-request", f"`record` is not JSON: {err}") from None
    data = _data(request)
    load_rules(data)  # tables that do not load are a spec-error, not a verdict on the record
    verdict = validate(record, _switches(request), data=data)
    out = verdict.to_json()
    state = verdict.state
    out["to_move"] = None
    if state is not None and not state.is_terminal():
        out["to_move"] = CHANCE if state.is_chance_node() else state.current_player
    return {"verdict": out}


def referee_session() -> Session:
    """A new referee session for Rattus."""
    return Session(RattusHost())


def run(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """Serve the referee protocol on these streams until end of input or ``quit``."""
    serve(referee_session(), stdin, stdout)
