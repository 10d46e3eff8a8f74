"""A referee session: many games driven by JSON requests, one line each (the wire of ``serve``).

Nothing here knows a particular game.  A :class:`Host` says how a game is
started or restored, how the pieces an action names are written, and may add
commands of its own; :class:`Session` keeps the games by id and answers
requests; :func:`serve` reads request lines from a byte stream and writes one
response line for each.  Every request is a JSON object with a ``cmd`` and an
optional ``id`` (echoed) and only the fields of its command
(:data:`REQUEST_FIELDS`, with the host's); every answer has ``ok``, and on failure an
``error`` object with a ``code`` and a ``message`` (an illegal action also
names the rule and its citations).  A malformed or oversized line gets an
error answer and the session goes on.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any

from . import notation
from .ast import Citation
from .checker import suggest
from .edit import turned_face_up
from .errors import RulesError, SpecError
from .game import Game
from .notation import CHANCE, CHANCE_PLAYER, value_word
from .runtime import State
from .types import PieceType

#: The version of the wire protocol; a client may ask for it in ``hello``.
PROTOCOL_VERSION = 1
#: The longest request line read, in bytes (a longer one is answered with ``too-long``).
MAX_LINE = 4 << 20
#: How many games one session keeps at a time.
MAX_GAMES = 10_000
#: How many different component data sets (by content) the games of one session may use at a time: each
#: is a compiled copy of the rules (a megabyte or two), shared by every game that uses it.
MAX_DATA_SETS = 8
#: How many states one session keeps for ``load`` by handle at a time (``save`` with ``keep``; ``drop`` with
#: ``handle`` forgets one).
MAX_KEPT = 10_000
#: How many texts of options naming pieces a session keeps for one game's rules (then it starts afresh).
MAX_NAMED_TEXTS = 100_000
#: Chance modes of a game: the client resolves chance events, or the state's own generator does.
CHANCE_MODES = ("client", "seed")
#: A lone surrogate: JSON text can write one (``\ud800``), UTF-8 cannot.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

#: The fields each request of the session's own commands may have besides ``cmd`` and ``id``
#: (a host adds the fields of its own with :meth:`Host.request_fields`); any other field is a ``bad-request``.
REQUEST_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"version"}), "new": frozenset({"game", "chance", "replace"}),
    "load": frozenset({"state", "handle", "game", "chance", "replace"}), "drop": frozenset({"game", "handle"}),
    "games": frozenset(),
    "legal": frozenset({"game", "detail"}), "apply": frozenset({"game", "action", "index"}),
    "chance": frozenset({"game", "force", "draw"}), "state": frozenset({"game", "player"}),
    "save": frozenset({"game", "keep"}), "explain": frozenset({"game", "action", "index"}), "quit": frozenset(),
    "undo": frozenset({"game"}),
}

Request = Mapping[str, Any]
Reply = dict[str, Any]


class ProtocolError(Exception):
    """A request that cannot be answered: becomes an error object with ``code`` and ``message``."""

    def __init__(self, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        """The error object of the answer."""
        return {"code": self.code, "message": self.message, **self.extra}


def citation_json(c: Citation) -> dict[str, str]:
    """A citation as JSON: source, section and the quoted sentence."""
    return {"source": c.source, "section": c.section, "quote": c.quote}


def citations_json(cites: Iterable[Citation]) -> list[dict[str, str]]:
    """Several citations as JSON, without repeats."""
    out: list[dict[str, str]] = []
    for c in cites:
        item = citation_json(c)
        if item not in out:
            out.append(item)
    return out


class Host:
    """What a game adds to a session; override the methods.  The defaults write the game's own texts."""

    #: The protocol's name given in ``hello``.
    name = "rules-referee"

    def hello(self) -> dict[str, Any]:
        """Extra fields of the ``hello`` answer (the game's name, its switches...)."""
        return {}

    def new_state(self, request: Request) -> State:
        """A new game from a ``new`` request (players, seed, switches, data); ValueError if bad."""
        raise ProtocolError("unsupported", "this referee cannot start games")

    def load_state(self, stored: Mapping[str, Any], request: Request) -> State:
        """A state from saved JSON (``load``); ValueError if it is not one."""
        raise ProtocolError("unsupported", "this referee cannot load states")

    def piece_word(self, state: State) -> Callable[[int], str]:
        """How actions and chance outcomes write a piece: as the game's own texts do
        (:attr:`interpreter.game.Game.piece_words`)."""
        return state.game.piece_words.__getitem__

    def commands(self) -> dict[str, Callable[[Session, Request], Reply]]:
        """Commands of the game's own, by name."""
        return {}

    def request_fields(self) -> dict[str, frozenset[str]]:
        """The fields the game adds to requests, by command (``new``, ``load`` and each of its own commands)."""
        return {}


#: Texts of options that name pieces, once made, by decision (None: its options name none; the state's own
#: texts then): they depend on the option and on how the host writes pieces only.  Decisions live as long as
#: the rules that hold them: their ids stay theirs.
Named = dict[int, dict[tuple[int, tuple[Any, ...]], str] | None]


class _Game:
    """A game of the session: its state, chance mode, and the texts of the pending decision."""

    __slots__ = ("by_text", "chance", "named", "pending", "state", "texts", "word")

    def __init__(self, state: State, chance: str, word: Callable[[int], str], named: Named):
        self.state = state
        self.chance = chance
        self.word = word
        self.pending: object = None
        self.texts: list[str] = []
        self.by_text: dict[str, int] = {}
        #: The texts of options naming pieces made for the games of these rules (shared by them).
        self.named = named

    def refresh(self) -> None:
        """Make the texts of the pending decision's options (once per decision)."""
        st = self.state
        p = st.pending
        if p is self.pending:
            return
        self.pending = p
        if p is None:
            self.texts = []
        else:
            key = id(p.decision)
            named = self.named.get(key, _UNSEEN)
            if named is _UNSEEN:
                if len(self.named) >= MAX_NAMED_TEXTS:
                    self.named.clear()
                named = self.named[key] = {} if _names_pieces(p.decision) else None
            if named is None:
                self.texts = st.legal_action_texts()
            else:
                texts = []
                for o in p.options:
                    text = named.get(o)
                    if text is None:
                        if len(named) >= MAX_NAMED_TEXTS:
                            named.clear()
                        text = named[o] = option_text(st, o, self.word)
                    texts.append(text)
                self.texts = texts
        by_text: dict[str, int] = {}
        for i, t in enumerate(self.texts):
            by_text.setdefault(t, i)
        self.by_text = by_text


#: Not yet seen (a decision in :data:`Named`).
_UNSEEN: Any = object()


def _names_pieces(decision: Any) -> bool:
    """Whether some option of a decision names a piece (then its texts are the host's)."""
    return any(isinstance(b.type, PieceType) for br in decision.branches for b in br.bindings)


def option_text(state: State, option: tuple[int, tuple[Any, ...]], word: Callable[[int], str]) -> str:
    """An option of the pending decision as text, pieces written by ``word``."""
    decision = state.pending.decision  # type: ignore[union-attr]
    return notation.text(decision.branches[option[0]], option[1], state.game.piece_words, word)


def to_move(state: State) -> int | str | None:
    """Who the game waits for: a seat, ``"chance"``, or None once it is over."""
    p = state.pending
    if p is None:
        return None
    return CHANCE if p.player == CHANCE_PLAYER else p.player


class Session:
    """The games of one client, and the answers to its requests."""

    def __init__(self, host: Host):
        self.host = host
        self.games: dict[str, _Game] = {}
        #: How many kept games (and states kept by handle) use each set of compiled rules (by identity): at
        #: most MAX_DATA_SETS of them.
        self.uses: dict[int, int] = {}
        #: States saved with ``keep``, by handle (a copy each: the game goes on without changing them).
        self.kept: dict[str, State] = {}
        #: The texts of options naming pieces, by the rules of the games (each game written by the host's words).
        self.named: weakref.WeakKeyDictionary[Game, Named] = weakref.WeakKeyDictionary()
        self.counter = 0
        self.closed = False
        self.handlers: dict[str, Callable[[Request], Reply]] = {
            "hello": self.hello, "new": self.new, "load": self.load, "drop": self.drop, "games": self.list_games,
            "legal": self.legal, "apply": self.apply, "chance": self.chance, "state": self.state,
            "save": self.save, "explain": self.explain, "quit": self.quit, "undo": self.undo,
        }
        for name, fn in host.commands().items():
            self.handlers[name] = lambda req, fn=fn: fn(self, req)  # type: ignore[misc]
        added = host.request_fields()
        #: The fields each command's request may have besides ``cmd`` and ``id``.
        self.fields = {name: REQUEST_FIELDS.get(name, frozenset()) | added.get(name, frozenset())
                       for name in self.handlers}
        #: The same with ``cmd`` and ``id``.
        self.allowed = {name: known | {"cmd", "id"} for name, known in self.fields.items()}

    # ------------------------------------------------------------- the wire
    def answer_line(self, line: bytes | str) -> str:
        """The answer (one JSON line, no newline) to one request line; never raises."""
        try:
            request = parse_line(line)
        except (ValueError, RecursionError) as err:
            return _dump({"id": None, "ok": False, "error": {"code": "malformed",
                                                             "message": f"not a JSON line: {err}"}})
        return _dump(self.answer(request))

    def answer(self, request: Any) -> Reply:
        """The answer to one request (parsed JSON); never raises."""
        rid = request.get("id") if isinstance(request, dict) else None
        if not isinstance(rid, str | int | float | type(None)) or isinstance(rid, bool):
            rid = None
        try:
            if not isinstance(request, dict):
                raise ProtocolError("malformed", "a request is a JSON object with a `cmd`")
            cmd = request.get("cmd")
            handler = self.handlers.get(cmd) if isinstance(cmd, str) else None
            if handler is None:
                hint = suggest(cmd, self.handlers) if isinstance(cmd, str) else ""
                raise ProtocolError("unknown-command", f"unknown command {_shown(cmd)}{hint}",
                                    commands=sorted(self.handlers))
            self.check_fields(str(cmd), request)
            reply = handler(request)
        except ProtocolError as err:
            return {"id": rid, "ok": False, "error": err.to_json()}
        except SpecError as err:
            return {"id": rid, "ok": False, "error": {"code": "spec-error", "message": str(err)}}
        except RulesError as err:
            return {"id": rid, "ok": False, "error": {"code": "rules-error", "message": str(err),
                                                      "citations": citations_json(getattr(err, "citations", ()))}}
        except ValueError as err:
            return {"id": rid, "ok": False, "error": {"code": "bad-request", "message": str(err)}}
        except RecursionError:
            return {"id": rid, "ok": False, "error": {"code": "bad-request", "message": "nested too deeply"}}
        except Exception as err:  # a bug must still be an answer, never the end of the session
            return {"id": rid, "ok": False, "error": {"code": "internal",
                                                      "message": f"{type(err).__name__}: {err}"}}
        reply["id"] = rid
        reply["ok"] = True
        return reply

    # ------------------------------------------------------------- helpers
    def check_fields(self, cmd: str, request: Request) -> None:
        """Refuse a request with a field its command does not have (a misspelt field must not pass unnoticed)."""
        known = self.fields[cmd]
        if self.allowed[cmd].issuperset(request):
            return
        unknown = sorted(k for k in request if k not in known and k not in ("cmd", "id"))
        if unknown:
            names = ", ".join(f"`{k}`"[:60] for k in unknown[:10])
            allowed = ", ".join(f"`{k}`" for k in sorted(known | {"cmd", "id"}))
            raise ProtocolError("bad-request", f"`{cmd}` has no field {names} (its fields: {allowed})")

    def flag(self, request: Request, name: str) -> bool:
        """A field that is true or false (absent or null: false)."""
        value = request.get(name)
        if value is not None and not isinstance(value, bool):
            raise ProtocolError("bad-request", f"`{name}` is true or false, not {_shown(value)}")
        return bool(value)

    def game(self, request: Request) -> _Game:
        """The game a request names."""
        gid = request.get("game")
        found = self.games.get(gid) if isinstance(gid, str) else None
        if found is None:
            raise ProtocolError("unknown-game", f"no game {gid!r}", games=sorted(self.games)[:50])
        return found

    @staticmethod
    def _use(uses: dict[int, int], state: State, change: int) -> None:
        """Count a game more (1) or less (-1) among the users of its compiled rules (by identity)."""
        key = id(state.game)
        uses[key] = uses.get(key, 0) + change
        if not uses[key]:
            del uses[key]

    def check_new_id(self, request: Request) -> None:
        """Refuse a ``game`` id that is not one, or is kept already without ``replace: true`` (before any
        work is done for the request)."""
        gid = request.get("game")
        if gid is None:
            return
        if not isinstance(gid, str) or not 0 < len(gid) <= 100:
            raise ProtocolError("bad-request", "a game id is a string of 1 to 100 characters")
        lone = _LONE_SURROGATE.search(gid)
        if lone is not None:  # JSON's \ud800 escape writes one; UTF-8 cannot: every answer naming the game would
            raise ProtocolError("bad-request", f"a game id holds a lone surrogate (U+{ord(lone.group()):04X}), "
                                "which is not a character: an id is Unicode text that UTF-8 can write")
        if gid in self.games and not self.flag(request, "replace"):
            raise ProtocolError("game-exists", f"a game {gid!r} is kept already: drop it, choose another id, "
                                               "or say `replace: true`")

    def add(self, state: State, request: Request) -> Reply:
        """Keep a new game under the request's ``game`` id (or a fresh one)."""
        chance = request.get("chance", "client")
        if chance not in CHANCE_MODES:
            raise ProtocolError("bad-request", f"chance is one of {', '.join(CHANCE_MODES)}, not {chance!r}")
        self.check_new_id(request)
        gid = request.get("game")
        if gid is None:
            self.counter += 1
            gid = f"g{self.counter}"
            while gid in self.games:
                self.counter += 1
                gid = f"g{self.counter}"
        if gid not in self.games and len(self.games) >= MAX_GAMES:
            raise ProtocolError("too-many-games", f"a session keeps at most {MAX_GAMES} games; drop some")
        replaced = self.games.get(gid)
        uses = dict(self.uses)
        if replaced is not None:
            self._use(uses, replaced.state, -1)
        if id(state.game) not in uses and len(uses) >= MAX_DATA_SETS:
            raise ProtocolError("too-many-data-sets", f"the games of a session use at most {MAX_DATA_SETS} "
                                f"different sets of component data; drop the games of one")
        named = self.named.get(state.game)
        if named is None:
            named = self.named[state.game] = {}
        g = _Game(state, chance, self.host.piece_word(state), named)
        outcomes = self._auto(g)
        self._use(uses, state, 1)
        self.uses = uses
        self.games[gid] = g
        reply = {"game": gid, **self.status(g)}
        if outcomes:
            reply["outcomes"] = outcomes
        return reply

    def status(self, g: _Game) -> Reply:
        """Who is to move and in which decision; scores and winners once the game is over."""
        st = g.state
        out: Reply = {"to_move": to_move(st), "rule": st.decision_rule()}
        if st.pending is None:
            out["scores"] = st.scores()
            out["winners"] = st.winner()
        return out

    def _auto(self, g: _Game) -> list[dict[str, Any]]:
        """In chance mode ``seed``: resolve chance events with the state's generator; what was drawn."""
        out: list[dict[str, Any]] = []
        st = g.state
        while g.chance == "seed" and st.is_chance_node():
            g.refresh()
            index = st.random_chance_index()
            out.append(self._apply(g, index))
        return out

    def _apply(self, g: _Game, index: int) -> dict[str, Any]:
        """Apply an option; its text and the pieces it turned face up."""
        st = g.state
        text = g.texts[index]
        was_up = st.face_up.copy()
        st.apply_index(index)
        if st.face_up == was_up:
            return {"action": text, "revealed": []}
        return {"action": text, "revealed": [g.word(p) for p in turned_face_up(was_up, st)]}

    def _find(self, g: _Game, request: Request) -> int:
        """The option a request's ``action`` (text) or ``index`` names; an illegal-action error if none."""
        g.refresh()
        if "index" in request:
            index = request["index"]
            if "action" in request:
                raise ProtocolError("bad-request", "give the `action` or its `index`, not both")
            if type(index) is not int:
                raise ProtocolError("bad-request", f"`index` is a whole number, not {_shown(index)}")
            if not 0 <= index < len(g.texts):  # both bounds: a negative index would name an option from the end
                reason = f"there are {len(g.texts)} legal actions, no index {index}"
                raise ProtocolError("illegal-action", reason, reason=reason, rule=g.state.decision_rule(),
                                    citations=citations_json(g.state.decision_citations()),
                                    legal=list(dict.fromkeys(g.texts)))
            return index
        text = request.get("action")
        if not isinstance(text, str):
            raise ProtocolError("bad-request", "give the `action` as text (or its `index` among the legal ones)")
        text = " ".join(text.split())
        index = g.by_text.get(text)
        if index is None:
            raise self.illegal(g, text)
        return index

    def illegal(self, g: _Game, text: str) -> ProtocolError:
        """The error object for an action that is not legal: why, the rule and its text, what is legal."""
        st = g.state
        if st.pending is None:
            return ProtocolError("illegal-action", f"illegal action {text!r}: the game is over", action=text,
                                 reason="the game is over", rule="", citations=[], legal=[])
        reason, cites = st.game.explain(st, text)
        return ProtocolError("illegal-action", f"illegal action {text!r}: {reason}", action=text, reason=reason,
                             rule=st.decision_rule(), citations=citations_json(cites),
                             legal=list(dict.fromkeys(g.texts)))

    def action_detail(self, g: _Game, index: int) -> dict[str, Any]:
        """One legal action with its structured fields and the citations of the rule offering it."""
        st = g.state
        decision = st.pending.decision  # type: ignore[union-attr]
        branch_index, values = st.pending.options[index]  # type: ignore[union-attr]
        branch = decision.branches[branch_index]
        args = [{"name": b.var, "type": str(b.type),
                 "value": value_word(v, b.type, st.game.piece_words, g.word)}
                for v, b in zip(values, branch.bindings)]
        return {"text": g.texts[index], "verb": branch.verb, "args": args, "rule": decision.rule,
                "citations": citations_json(branch.citations + decision.citations)}

    # ------------------------------------------------------------ commands
    def hello(self, request: Request) -> Reply:
        """The handshake: protocol name and version, commands, and what the game adds."""
        wanted = request.get("version", PROTOCOL_VERSION)
        if wanted != PROTOCOL_VERSION:
            raise ProtocolError("version", f"this referee speaks protocol version {PROTOCOL_VERSION}, not {wanted!r}",
                                version=PROTOCOL_VERSION)
        return {"protocol": self.host.name, "version": PROTOCOL_VERSION, "max_line": MAX_LINE,
                "commands": sorted(self.handlers), **self.host.hello()}

    def new(self, request: Request) -> Reply:
        """Start a game (``game``: under this id; one kept already only with ``replace: true``)."""
        self.check_new_id(request)
        return self.add(self.host.new_state(request), request)

    def load(self, request: Request) -> Reply:
        """Restore a saved state as a game: a state this session kept (by its ``handle``), or one given as
        JSON, which is checked in full like any input."""
        if "handle" in request:
            self.check_new_id(request)
            return self.add(self.kept_state(request), request)
        stored = request.get("state")
        if not isinstance(stored, dict):
            raise ProtocolError("bad-request", "`state` is a saved state (the object `save` answers)")
        self.check_new_id(request)
        return self.add(self.host.load_state(stored, request), request)

    def drop(self, request: Request) -> Reply:
        """Forget a game, or (with ``handle``) a state kept by ``save`` with ``keep``."""
        if "handle" in request:
            if "game" in request:
                raise ProtocolError("bad-request", "`drop` takes a `game` or a `handle`, not both")
            self._use(self.uses, self.kept_under(request["handle"]), -1)
            del self.kept[request["handle"]]
            return {}
        g = self.game(request)
        self._use(self.uses, g.state, -1)
        del self.games[request["game"]]
        return {}

    def list_games(self, request: Request) -> Reply:
        """The ids of the games kept."""
        return {"games": list(self.games)}

    def legal(self, request: Request) -> Reply:
        """The legal actions (or chance outcomes) as texts, or with ``detail`` as objects."""
        g = self.game(request)
        g.refresh()
        reply = self.status(g)
        if self.flag(request, "detail"):
            seen: set[str] = set()
            actions = []
            for i, t in enumerate(g.texts):
                if t not in seen:
                    seen.add(t)
                    actions.append(self.action_detail(g, i))
            reply["actions"] = actions
        else:
            reply["actions"] = list(g.by_text)
        return reply

    def apply(self, request: Request) -> Reply:
        """Apply an action (or force a chance outcome) by text or index; an illegal one changes nothing."""
        g = self.game(request)
        index = self._find(g, request)
        done = self._apply(g, index)
        outcomes = self._auto(g)
        reply = {**done, **self.status(g)}
        if outcomes:
            reply["outcomes"] = outcomes
        return reply

    def chance(self, request: Request) -> Reply:
        """The chance outcomes with their probabilities; or force one (``force``), or draw one (``draw``)."""
        g = self.game(request)
        draw = self.flag(request, "draw")
        if "force" in request and (draw or not isinstance(request["force"], str)):
            raise ProtocolError("bad-request", "give `force` or `draw`, not both"
                                if draw else "`force` is a chance outcome as text")
        st = g.state
        if not st.is_chance_node():
            raise ProtocolError("not-chance", "the game does not wait for a chance event", **self.status(g))
        g.refresh()
        if "force" in request:
            return self.apply({"game": request["game"], "action": request["force"]})
        if draw:
            index = st.random_chance_index()
            done = self._apply(g, index)
            return {**done, **self.status(g)}
        n = len(g.texts)
        counts: dict[str, int] = {}
        for t in g.texts:
            counts[t] = counts.get(t, 0) + 1
        return {**self.status(g), "outcomes": [{"action": t, "count": c, "probability": c / n}
                                               for t, c in counts.items()]}

    def state(self, request: Request) -> Reply:
        """The omniscient state, or with ``player`` what that player may see."""
        g = self.game(request)
        st = g.state
        player = request.get("player")
        if player is None:
            return {**self.status(g), "state": st.to_json()}
        if not isinstance(player, int) or isinstance(player, bool):
            raise ProtocolError("bad-request", "`player` is a seat number")
        seen = st.observation(player)
        if seen["legal_actions"]:
            g.refresh()
            seen["legal_actions"] = list(g.by_text)
        return {**self.status(g), "observation": seen}

    def save(self, request: Request) -> Reply:
        """The state as JSON, to be given back to ``load``; with ``keep``, a copy kept in the session
        instead, and the handle that loads it again."""
        g = self.game(request)
        if self.flag(request, "keep"):
            if len(self.kept) >= MAX_KEPT:
                raise ProtocolError("too-many-kept", f"a session keeps at most {MAX_KEPT} saved states; drop some "
                                    "(`drop` with their `handle`)")
            handle = secrets.token_urlsafe(18)
            self.kept[handle] = g.state.clone()
            self._use(self.uses, g.state, 1)  # its compiled rules stay in use while it is kept
            return {"handle": handle}
        return {"state": g.state.to_json()}

    def kept_state(self, request: Request) -> State:
        """A copy of the state kept under the request's ``handle``: written by this session itself, so
        not checked again as a stranger's state would be (a handle is unguessable and good only here)."""
        if set(request) - {"cmd", "id", "handle", "game", "chance", "replace"}:
            raise ProtocolError("bad-request", "`load` takes a `handle` (from `save` with `keep`) or a `state`, "
                                "with `game`, `chance` and `replace` only")
        handle = request["handle"]
        return self.kept_under(handle).clone()

    def kept_under(self, handle: Any) -> State:
        """The state kept under a handle; ``unknown-handle`` if there is none."""
        kept = self.kept.get(handle) if isinstance(handle, str) else None
        if kept is None:
            raise ProtocolError("unknown-handle", f"no state kept under the handle {_shown(handle)} (a handle is "
                                "good in the session that saved it, until it is dropped)")
        return kept

    def explain(self, request: Request) -> Reply:
        """Whether an action is legal here; the rule offering it, or why not and the rule concerned."""
        g = self.game(request)
        try:
            index = self._find(g, request)
        except ProtocolError as err:
            if err.code != "illegal-action":
                raise
            return {"legal": False, **{k: v for k, v in err.extra.items() if k != "legal"}}
        return {"legal": True, "action": g.texts[index], "reason": "it is among the legal actions",
                **self.action_detail(g, index)}

    def undo(self, request: Request) -> Reply:
        """Take back the game's last action or chance outcome (:meth:`State.undo`): the game is as it was
        before it, its generator included.  In chance mode ``seed`` the outcomes drawn after a player's
        action go with it, back to that player's decision.  ``nothing-to-undo`` (the game unchanged) at the
        position the game was started or loaded in."""
        g = self.game(request)
        before = g.state.clone()
        st = g.state
        taken: list[str] = []
        try:
            while True:
                option = st.trail[1] if st.trail is not None else None
                st.undo()
                assert option is not None  # undo() refuses when nothing was taken
                taken.append(option_text(st, option, g.word))
                if not (g.chance == "seed" and st.is_chance_node()):
                    break
        except ValueError as err:
            g.state = before
            raise ProtocolError("nothing-to-undo", str(err), **self.status(g)) from None
        g.refresh()
        return {"undone": taken[::-1], **self.status(g)}

    def quit(self, request: Request) -> Reply:
        """End the session after this answer."""
        self.closed = True
        return {}


def parse_line(line: bytes | str) -> Any:
    """A request line as JSON, strictly: UTF-8, a byte order mark allowed (never guessed to be UTF-16 or
    UTF-32, as ``json.loads`` guesses of bytes), and no ``NaN`` or ``Infinity`` (they are no JSON, and an
    answer could not echo them); ValueError if not."""
    if isinstance(line, bytes):
        text = line.decode("utf-8")
        if text.startswith("\ufeff"):  # one byte order mark before the line, dropped as utf-8-sig drops it
            text = text[1:]
    else:
        text = line
    if text.startswith("\ufeff"):
        raise ValueError("a byte order mark where the JSON starts (one may stand before a line in bytes)")
    return _DECODER.decode(text)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"the number {text[:40]} is too large")
    return number


#: Reads request lines (one decoder for all: ``json.loads`` with options makes one for each line).
_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)
#: Writes answer lines (one encoder for all, as :data:`_DECODER`).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _shown(value: Any) -> str:
    """A value of a request in a message, cut short."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _dump(reply: Reply) -> str:
    try:
        return _ENCODER.encode(reply)
    except (TypeError, ValueError) as err:
        return json.dumps({"id": None, "ok": False,
                           "error": {"code": "internal", "message": f"answer not JSON: {err}"}})


def serve(session: Session, stdin: IO[bytes], stdout: IO[bytes], max_line: int = MAX_LINE) -> None:
    """Answer request lines from ``stdin`` on ``stdout`` until end of input or ``quit``.

    Input is read in chunks as it comes; the answers to every complete line
    of a chunk are written together, before waiting for more.  Blank lines are
    skipped; a line longer than ``max_line`` bytes is skipped to its end and
    answered with a ``too-long`` error.
    """
    too_long = _dump({"id": None, "ok": False,
                      "error": {"code": "too-long", "message": f"a request line has at most {max_line} bytes"}})
    pending = b""
    skipping = False  # inside a line already answered as too long
    while not session.closed:
        chunk = stdin.read1(1 << 16)  # type: ignore[attr-defined]
        done = not chunk
        pending = pending + chunk if pending else chunk
        if done and pending and not skipping:
            pending += b"\n"  # the last line may lack its newline
        out: list[str] = []
        pos = 0
        while not session.closed:
            nl = pending.find(b"\n", pos)
            if nl < 0:
                if len(pending) - pos > max_line:
                    if not skipping:
                        out.append(too_long)
                    skipping = True
                    pos = len(pending)
                break
            line = pending[pos:nl]
            pos = nl + 1
            if skipping:
                skipping = False
            elif len(line) > max_line:
                out.append(too_long)
            elif line.strip():
                out.append(session.answer_line(line))
        pending = pending[pos:]
        if out:
            # a lone surrogate ("\\ud800" in a request, echoed) can only stand inside a JSON string:
            # it is written as that string's escape, as the request wrote it
            stdout.write(("\n".join(out) + "\n").encode("utf-8", "backslashreplace"))
            stdout.flush()
        if done:
            return


__all__ = ["MAX_LINE", "PROTOCOL_VERSION", "REQUEST_FIELDS", "Host", "ProtocolError", "Session", "citation_json",
           "serve"]
