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
from rattus_rules.api import ResolvedGame, check_seed, interpretations, new_game, resolve, rules_of, state_from_json
from rattus_rules.games import hooks

from ..records.validate import Verdict, components_digest, validate

#: Each loaded game's pieces as actions write them (made once per game, not once per game started).
_WORDS: weakref.WeakKeyDictionary[Game, list[str]] = weakref.WeakKeyDictionary()

PROTOCOL_NAME = "rattus-referee"


def _data(request: Request) -> str | None:
    data = request.get("data")
    if data is not None and not isinstance(data, str):
        raise ProtocolError("bad-request", "`data` is the path of a folder of component tables")
    return data


class RattusHost(Host):
    """A game for the referee session: ``game`` by name (None: the selected one) or resolved already
    (:func:`rattus_rules.api.resolve`).

    The game is resolved once per session, when the first request needs it, and kept (rules that do not
    load are not kept: each request that needs them is answered with their spec-error, as the protocol
    says); a request that names other component tables (``data``) plays the game with those tables.
    """

    name = PROTOCOL_NAME

    def __init__(self, game: str | ResolvedGame | None = None):
        self._chosen = game
        self._game = game if isinstance(game, ResolvedGame) else None

    @property
    def game(self) -> ResolvedGame:
        """The session's game, resolved once."""
        if self._game is None:
            self._game = resolve(self._chosen)
        return self._game

    def _game_with(self, request: Request) -> ResolvedGame | str | None:
        """The session's game, or (as it was chosen: by name) the game to load with the other component
        tables a request names (``data``)."""
        if _data(request) is None:
            return self.game
        return self._chosen.name if isinstance(self._chosen, ResolvedGame) else self._chosen

    def hello(self) -> dict[str, Any]:
        """The game, its player counts, switches and the components' sha256."""
        game = self.game.rules
        return {"game": game.name, "players": [game.min_players, game.max_players],
                "switches": {i.id: {"default": i.default, "options": [o.value for o in i.options]}
                             for i in interpretations(game=self.game)},
                "components": {"source": "shipped", "sha256": components_digest(game)}}

    def new_state(self, request: Request) -> State:
        """``players`` (the game's counts), ``seed`` (0..2^64-1, default 0), ``switches`` (id → option), ``data``."""
        players = request.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            game = self.game.rules
            raise ProtocolError("bad-request", f"`players` is the number of players ({game.players_text})")
        seed = request.get("seed", 0)
        try:
            check_seed(seed)
        except ValueError:
            raise ProtocolError("bad-request", "`seed` is an integer from 0 to 2^64-1") from None
        switches = _switches(request)
        return new_game(players, seed=seed, interpretations=switches, data=_data(request),
                        resolve_setup_chance=False, game=self._game_with(request))

    def load_state(self, stored: Mapping[str, Any], request: Request) -> State:
        """A state saved by ``save``."""
        return state_from_json(stored, data=_data(request), game=self._game_with(request))

    def piece_word(self, state: State) -> Callable[[int], str]:
        """Pieces are written as the game's records write them (Rattus: tokens by their face; a game
        without faces of its own: by its table row)."""
        game = state.game
        words = _WORDS.get(game)
        if words is None:
            # the session's game writes pieces by the faces resolved with it; other tables' by their own
            mine = self._game is not None and game is self._game.rules
            word = self._game.piece_word if mine and self._game is not None else hooks(game.name).piece_word
            words = _WORDS[game] = [word(game, p) for p in range(len(game.piece_rows))]
        return words.__getitem__

    def commands(self) -> dict[str, Callable[[Session, Request], Reply]]:
        """``validate``."""
        return {"validate": validate_command}

    def validate(self, record: Any, request: Request) -> Verdict:
        """The verdict on a record of the session's game (with the request's ``switches`` and ``data``)."""
        data, game = _data(request), self._game_with(request)
        rules_of(game, data)  # tables that do not load are a spec-error, not a verdict on the record
        return validate(record, _switches(request), data=data, game_name=game)

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
    host = session.host
    if isinstance(host, RattusHost):
        verdict = host.validate(record, request)
    else:  # a host of its own given this command: the selected game
        data = _data(request)
        rules_of(None, data)  # tables that do not load are a spec-error, not a verdict on the record
        verdict = validate(record, _switches(request), data=data)
    out = verdict.to_json()
    state = verdict.state
    out["to_move"] = None
    if state is not None and not state.is_terminal():
        out["to_move"] = CHANCE if state.is_chance_node() else state.current_player
    return {"verdict": out}


def referee_session(game: str | ResolvedGame | None = None) -> Session:
    """A new referee session for a game (by name, None: the selected one, else Rattus; or resolved
    already): see :class:`RattusHost`."""
    return Session(RattusHost(game))


def run(stdin: IO[bytes], stdout: IO[bytes], game: str | ResolvedGame | None = None) -> None:
    """Serve the referee protocol for a game (as :func:`referee_session` takes it) on these streams until end
    of input or ``quit``."""
    serve(referee_session(game), stdin, stdout)
