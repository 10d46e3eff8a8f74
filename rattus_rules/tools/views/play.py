"""The play page: ``rattus play --web`` lets a person play any game of the registry in the browser against
random players.

A small web application (`Bottle <https://bottlepy.org>`_) serves, on
127.0.0.1 only, one self-contained page (:mod:`rattus_rules.tools.views.webpage`) and a
JSON interface to it.  The game is resolved once (:class:`~rattus_rules.games.ResolvedGame`).  At the start
the person chooses the number of players, their seat, a seed and a reading for every interpretation
switch.  Then the page shows the position as they see it (hidden pieces stay hidden unless the rules let
them see them), drawn by the game's picture (its package's ``picture`` hook, else the ``picture`` its spec
declares, :mod:`rattus_rules.tools.views.picture`; else as text), whose turn it is, their legal actions
grouped by verb (each with its rule and German text on hover or focus), what the other players and chance
did since the person's last move, and every step of the game.

An action is also chosen on the picture: each carries the places (the picture's ``data-place`` keys) whose
clicks, in turn, choose it.  Where the spec declares a ``click`` for its verb, those are the two places
it names (for Ratten Scharf, a strip is laid by choosing the strip, then clicking the field of its first
symbol and that of its last); otherwise the game's package may name them (its ``action_places`` hook).
A click, or Enter on a place, takes the one action it means, or marks the few it may mean.  The record of
the game can be downloaded at any time: as a players-eye record (what the person saw), and, once the game
is over, as an omniscient one.

Every request is untrusted: bodies are small JSON objects whose fields are
checked one by one; an answer is JSON, an error ``{"error": ...}`` with status
400 (bad input), 403 (not from the page), 404 (no such game), 408 (too slow),
409 (not now), 413 (too large) or 415 (not JSON).  At most :data:`MAX_GAMES`
games are kept; the oldest is dropped.

Any page the person opens in the same browser can send requests to 127.0.0.1,
so a request that changes anything (a ``POST``) is taken only from the play
page itself: its ``Origin`` and ``Sec-Fetch-Site`` (where the browser sends
them) must name this server, its ``Content-Type`` must be
``application/json`` (which another site cannot send without the server's
consent), and it must carry, in the ``X-Rattus-Token`` header, the token
minted for the page that sent it (an HMAC of a fresh nonce under a secret of
this server run; no other origin can read the page to learn it).  Every answer
carries a ``Content-Security-Policy`` with ``frame-ancestors 'none'``,
``X-Frame-Options: DENY`` and ``X-Content-Type-Options: nosniff``.

A client that stalls cannot hold up another: a request's body is read before
any lock is taken, a connection silent for :data:`SOCKET_TIMEOUT` seconds is
dropped, and each game has its own lock (the server's lock guards only the
table of games).

>>> app = PlayServer().app
>>> sorted(r.rule for r in app.routes)[:2]
['/', '/api/games']
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import socketserver
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import attrs
import bottle  # type: ignore[import-untyped]

from interpreter import IllegalAction, State, notation
from interpreter.edit import option_words
from interpreter.notation import Unwritable
from interpreter.session import citations_json
from rattus_rules.algorithms.agents import RandomPlayer
from rattus_rules.api import interpretations, resolve
from rattus_rules.games import ResolvedGame, position_text
from rattus_rules.tools.records.recordformat import utf8_json
from rattus_rules.tools.records.validate import OMNISCIENT, PLAYERS_EYE, Recorder, dumps, seat_label
from rattus_rules.tools.views.picture import option_clicks, picture_svg
from rattus_rules.tools.views.viewer import entry_text
from rattus_rules.tools.views.webpage import asset, page, page_policy

#: The most games one server keeps (the oldest is dropped).
MAX_GAMES = 32
#: The largest request body accepted, in bytes.
MAX_BODY = 16 * 1024
#: The largest seed accepted.
MAX_SEED = 2**63 - 1
#: The most characters of an action's text.
MAX_ACTION = 200
#: Seconds a connection may stay silent before the server drops it.
SOCKET_TIMEOUT = 10.0
#: The header that carries the page's token on every request that changes something.
TOKEN_HEADER = "X-Rattus-Token"
#: Headers every answer carries (a page's own Content-Security-Policy replaces the first).
SECURITY_HEADERS = (("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"),
                    ("X-Frame-Options", "DENY"), ("X-Content-Type-Options", "nosniff"),
                    ("Referrer-Policy", "no-referrer"))


class BadRequest(ValueError):
    """Input the play interface refuses; ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int = 400, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


@attrs.define
class Session:
    """One game: the game resolved, the state, the person's seat, the random players and the records being
    written."""

    game: ResolvedGame
    state: State
    human: int
    others: RandomPlayer
    seen: Recorder
    full: Recorder
    log: list[dict[str, Any]] = attrs.field(factory=list)
    rules: dict[str, list[dict[str, str]]] = attrs.field(factory=dict)
    lock: threading.Lock = attrs.field(factory=threading.Lock)

    def apply(self, index: int) -> None:
        """Apply a legal action (or chance outcome) by its index; log it as the person may see it."""
        st = self.state
        who = notation.who(st.current_player)
        rule = st.decision_rule()
        self.rules.setdefault(rule, citations_json(st.decision_citations()))
        first = len(self.seen.entries)
        self.full.apply(st.clone(), index)
        self.seen.apply(st, index)
        texts = [entry_text(e, None) for e in self.seen.entries[first:]]
        self.log.append({"by": who, "you": who == seat_label(self.human), "entries": texts, "rule": rule})

    def run_others(self) -> None:
        """Let chance and the random players move until it is the person's turn or the game is over."""
        st = self.state
        while not st.is_terminal() and (st.is_chance_node() or st.current_player != self.human):
            self.apply(st.random_chance_index() if st.is_chance_node() else self.others.choose(st))

    def shown(self, piece: int) -> bool:
        """Whether the person may see this piece's face."""
        return bool(self.state.can_see(piece, self.human))

    def word(self, piece: int) -> str:
        """A piece as the person may see it: its face as records write it, or the unknown face."""
        faces = self.game.faces
        return faces.written(piece) if self.shown(piece) else faces.unknown

    def legal(self) -> list[str]:
        """The person's legal actions as text (pieces they may not see written as the unknown face)."""
        return [" ".join(words) for words in self.option_words()]

    def option_words(self) -> list[list[str]]:
        """The words of each of the person's legal actions (none when it is not their turn)."""
        st = self.state
        if st.is_terminal() or st.is_chance_node() or st.current_player != self.human:
            return []
        try:
            return [option_words(st, i, self.word) for i in range(st.num_legal_actions())]
        except Unwritable:  # an action no text can write: the person cannot be offered it by name
            return []

    def actions(self, said: list[list[str]]) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, str]]]]:
        """Each legal action with its verb, its values as written, the key of its rule's German text (the
        option's own citations, then its decision's) and the places on the picture whose clicks choose it
        (``paths``; and ``pick``, the words that are not clicked, where the spec declares the clicks); and
        those texts by key."""
        st = self.state
        p = st.pending
        if p is None or not said:
            return [], {}
        decision = p.decision
        clicked = option_clicks(st)
        places = self.game.hooks.action_places
        out, cites = [], {}
        for index, (words, (branch_index, _)) in enumerate(zip(said, p.options)):
            branch = decision.branches[branch_index]
            key = f"{decision.rule}/{branch_index}"
            if key not in cites:
                cites[key] = citations_json(branch.citations + decision.citations)
            verb, *rest = words
            action: dict[str, Any] = {"text": " ".join(words), "verb": verb, "words": rest, "rule": decision.rule,
                                      "cites": key}
            if index in clicked:
                at, path = clicked[index]
                action["paths"] = [path]
                action["pick"] = " ".join(w for j, w in enumerate(rest) if j != at)
            else:
                action["paths"] = places(st, words) if places is not None else []
            out.append(action)
        return out, cites

    def picture(self) -> dict[str, str]:
        """The position as the person sees it: ``{"svg": ...}`` drawn by the game's package or its declared
        picture, else ``{"text": ...}``."""
        st, drawn = self.state, self.game.hooks.picture
        svg = drawn(st, self.shown, None) if drawn is not None else picture_svg(st, self.shown)
        return {"svg": svg} if svg is not None else {"text": position_text(st, self.shown)}

    def seat_rows(self) -> list[dict[str, Any]]:
        """The table of the seats: the game package's, else each seat's score (the page shows every key but
        ``seat``, ``label``, ``to_move`` and ``winner`` as a column, in order)."""
        st = self.state
        rows = self.game.hooks.seat_rows
        if rows is not None:
            return rows(st, None)
        winners = (st.winner() or []) if st.is_terminal() else []
        return [{"seat": notation.seat(p), "label": notation.seat(p), "score": score, "winner": p in winners,
                 "to_move": p == st.current_player and not st.is_terminal()} for p, score in enumerate(st.scores())]

    def view(self, gid: str) -> dict[str, Any]:
        """What the page shows now."""
        st = self.state
        said = self.option_words()
        legal = [" ".join(words) for words in said]
        actions, cites = self.actions(said)
        out: dict[str, Any] = {
            "game": gid, "seat": seat_label(self.human), "players": self.seat_rows(),
            **self.picture(), "legal": legal, "actions": actions, "action_cites": cites,
            "log": self.log, "rules": self.rules,
            "over": st.is_terminal(), "rule": st.decision_rule() if legal else "",
            "citations": citations_json(st.decision_citations()) if legal else [],
            "components": components_note(self.game),
        }
        if st.is_terminal():
            out["scores"] = st.scores()
            out["winners"] = st.winner() or []
        return out


# ------------------------------------------------------------ input checks
def _int(body: Mapping[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{key} must be a whole number")
    if not low <= value <= high:
        raise BadRequest(f"{key} must be between {low} and {high}, not {value}")
    return value


def _body(environ: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON object a request carries, read from the socket (before any lock is taken)."""
    too_large = f"the request body must be a JSON object of at most {MAX_BODY} bytes"
    declared = str(environ.get("CONTENT_LENGTH") or "").strip()
    if not declared:
        raise BadRequest(f"the request needs a Content-Length ({too_large})", 411)
    if not re.fullmatch(r"[0-9]{1,12}", declared):
        raise BadRequest("Content-Length must be a whole number of bytes")
    length = int(declared)
    if length > MAX_BODY:
        raise BadRequest(too_large, 413)
    try:
        raw = environ["wsgi.input"].read(length)
    except OSError:
        raise BadRequest("the request body did not arrive in time", 408) from None
    if len(raw) != length:
        raise BadRequest("the request body is shorter than its Content-Length")
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    return body


def components_note(game: ResolvedGame) -> str:
    """What the page says of the component data: the game package's note, else the spec's provenance."""
    note = game.hooks.components_note
    return note if note is not None else game.rules.provenance_note() or ""


class PlayServer:
    """The play page's web application (``.app``, a Bottle app) and its games."""

    def __init__(self, data: str | None = None, seed: int | None = None, chosen: Mapping[str, str] | None = None,
                 players: int | None = None, game: str | ResolvedGame | None = None) -> None:
        """``seed``, ``chosen`` (switch id → reading) and ``players`` are what the start form offers first;
        ``game`` the game (a name, or resolved already; None: the selected game, resolved once here).
        ValueError if a switch or reading is unknown."""
        self.data = data
        self.seed = seed
        self.resolved = resolve(game, data)
        self.game = self.resolved.rules
        self.game.settings_for(dict(chosen or {}))
        self.chosen = dict(chosen or {})
        self.players = players
        self.games: OrderedDict[str, Session] = OrderedDict()
        self.lock = threading.Lock()
        self.port: int | None = None
        self.secret = secrets.token_bytes(32)
        app = self.app = bottle.Bottle()
        app.add_hook("before_request", self.check_host)
        app.route("/", "GET", self.index)
        app.route("/api/setup", "GET", self.json(self.setup))
        app.route("/api/games", "POST", self.json(self.new_game, posted=True))
        app.route("/api/games/<gid>", "GET", self.json(self.show))
        app.route("/api/games/<gid>/actions", "POST", self.json(self.act, posted=True))
        app.route("/api/games/<gid>/record", "GET", self.record)
        app.error(404)(self.not_found)
        app.error(405)(self.not_found)
        app.error(500)(self.failed)

    # ------------------------------------------------------------- plumbing
    def json(self, handler: Callable[..., dict[str, Any]], posted: bool = False) -> Callable[..., Any]:
        """Wrap a handler: answer JSON; a :class:`BadRequest` becomes its status and ``{"error": ...}``.

        ``posted``: the request changes something: it must come from the play page
        (:meth:`check_sender`), and its JSON body is read (before any lock) and passed as ``body``."""

        def answer(**kw: Any) -> Any:
            bottle.response.content_type = "application/json; charset=utf-8"
            bottle.response.set_header("Cache-Control", "no-store")
            try:
                if posted:
                    self.check_sender(bottle.request)
                    kw["body"] = _body(bottle.request.environ)
                return _dumps(handler(**kw))
            except BadRequest as err:
                bottle.response.status = err.status
                return _dumps({"error": str(err), **err.extra})

        return answer

    def wsgi(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """The application as served: :attr:`app` with :data:`SECURITY_HEADERS` on every answer, and Bottle's
        own error output (a traceback) kept from the terminal."""

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            have = {name.lower() for name, _ in headers}
            headers = headers + [(n, v) for n, v in SECURITY_HEADERS if n.lower() not in have]
            return start_response(status, headers, exc_info)

        environ["wsgi.errors"] = _Discard()
        return self.app(environ, start)  # type: ignore[no-any-return]

    def failed(self, error: bottle.HTTPError) -> str:
        """An error the server did not expect: one line on the terminal, a JSON error to the page."""
        print(f"rattus: internal error in the play server: {type(error.exception).__name__}: {error.exception}",
              file=sys.stderr)
        bottle.response.content_type = "application/json; charset=utf-8"
        return _dumps({"error": "internal error (the server said more on its terminal)"})

    def mint(self) -> str:
        """A fresh token for one page: a nonce and its HMAC under this server run's secret."""
        nonce = secrets.token_urlsafe(12)
        return f"{nonce}.{self._sign(nonce)}"

    def _sign(self, nonce: str) -> str:
        return hmac.new(self.secret, nonce.encode("utf-8", "replace"), hashlib.sha256).hexdigest()

    def check_sender(self, request: bottle.BaseRequest) -> None:
        """Refuse a request that changes something unless it comes from a play page of this server."""
        environ = request.environ  # the raw header values (Bottle's own reading fails on bytes not UTF-8)
        own = "http://" + str(environ.get("HTTP_HOST", ""))
        origin = environ.get("HTTP_ORIGIN")
        if origin is not None and origin != own:
            raise BadRequest(f"requests from other sites are refused (Origin: {origin[:100]!r})", 403)
        site = environ.get("HTTP_SEC_FETCH_SITE")
        if site is not None and site != "same-origin":
            raise BadRequest(f"requests from other sites are refused (Sec-Fetch-Site: {site[:100]!r})", 403)
        kind = str(environ.get("CONTENT_TYPE") or "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            raise BadRequest("the request body must be sent as Content-Type: application/json", 415)
        token = str(environ.get("HTTP_" + TOKEN_HEADER.upper().replace("-", "_")) or "")
        nonce, _, mac = token.partition(".")
        if not (nonce and len(token) <= 200
                and hmac.compare_digest(mac.encode("utf-8", "replace"), self._sign(nonce).encode("ascii"))):
            raise BadRequest(f"the request lacks the {TOKEN_HEADER} of a page of this server (reload the page)",
                             403)

    def not_found(self, error: bottle.HTTPError) -> str:
        """Unknown paths and methods: a JSON error, never a traceback."""
        bottle.response.content_type = "application/json; charset=utf-8"
        return _dumps({"error": f"{error.status_line.split(' ', 1)[-1].lower()}: {bottle.request.path}"})

    def check_host(self) -> None:
        """Answer only requests addressed to this machine by name (against DNS rebinding)."""
        host = str(bottle.request.environ.get("HTTP_HOST", ""))
        name, _, port = host.rpartition(":")
        if name not in ("127.0.0.1", "localhost") or (self.port is not None and port != str(self.port)):
            raise bottle.HTTPResponse(_dumps({"error": "this server answers only http://127.0.0.1"}), 403,
                                      {"Content-Type": "application/json; charset=utf-8"})

    def session(self, gid: str) -> Session:
        """The game with this id (404 if there is none)."""
        with self.lock:
            found = self.games.get(gid)
        if found is None:
            raise BadRequest("no such game (the server keeps the last 32 games; start a new one)", 404)
        return found

    # ------------------------------------------------------------ endpoints
    def index(self) -> str:
        """The play page."""
        bottle.response.set_header("Cache-Control", "no-store")
        bottle.response.set_header("Content-Security-Policy",
                                   page_policy("play.js", connect_self=True) + "; frame-ancestors 'none'")
        title = f"{self.game.title}: play against random players"
        return page(title, asset("play.html"), {"title": title, "components": components_note(self.resolved),
                                                "token": self.mint()}, "play.js", connect_self=True)

    def setup(self) -> dict[str, Any]:
        """What may be chosen at the start: player counts and every switch with its readings."""
        game = self.game
        counts = list(range(game.min_players, game.max_players + 1))
        return {"players": counts, "selected": self.players if self.players in counts else counts[-1],
                "seed": self.seed,
                "switches": [{"id": i.id, "question": i.question, "default": i.default,
                              "selected": self.chosen.get(i.id, i.default),
                              "options": [{"value": o.value, "description": o.description,
                                           "citations": citations_json(o.citations)} for o in i.options]}
                             for i in interpretations(self.data, game=self.resolved)]}

    def new_game(self, body: dict[str, Any]) -> dict[str, Any]:
        """Start a game: ``{"players", "seat", "seed", "interpretations"}``."""
        unknown = set(body) - {"players", "seat", "seed", "interpretations"}
        if unknown:
            raise BadRequest(f"unknown field(s): {', '.join(sorted(map(str, unknown)))}")
        game = self.game
        players = _int(body, "players", game.min_players, game.max_players, game.max_players)
        seat = _int(body, "seat", 0, players - 1, 0)
        seed = _int(body, "seed", 0, MAX_SEED, self.seed if self.seed is not None else secrets.randbelow(10**6))
        chosen = body.get("interpretations", {})
        if not isinstance(chosen, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                   for k, v in chosen.items()):
            raise BadRequest("interpretations must map switch ids to readings (strings)")
        try:
            settings = game.settings_for(chosen)
            state = game.new_state(players, seed=seed, settings=settings)
        except ValueError as err:
            raise BadRequest(str(err)) from None
        names = [("you" if p == seat else f"random {seat_label(p)}") for p in state.seats]
        session = Session(self.resolved, state, seat, RandomPlayer(seed),
                          Recorder(state, PLAYERS_EYE, names, seed=seed, viewer=seat),
                          Recorder(state, OMNISCIENT, names, seed=seed))
        session.run_others()
        gid = secrets.token_urlsafe(9)
        with session.lock:
            with self.lock:
                self.games[gid] = session
                while len(self.games) > MAX_GAMES:
                    self.games.popitem(last=False)
            return session.view(gid)

    def show(self, gid: str) -> dict[str, Any]:
        """The game as the person sees it."""
        session = self.session(gid)
        with session.lock:
            return session.view(gid)

    def act(self, gid: str, body: dict[str, Any]) -> dict[str, Any]:
        """The person's action ``{"action": TEXT}``; then the others move until it is their turn again."""
        session = self.session(gid)
        with session.lock:
            return self._act(gid, session, body)

    def _act(self, gid: str, session: Session, body: dict[str, Any]) -> dict[str, Any]:
        text = body.get("action")
        if not isinstance(text, str) or not 0 < len(text) <= MAX_ACTION or set(body) != {"action"}:
            raise BadRequest(f'the body is {{"action": TEXT}} with a text of at most {MAX_ACTION} characters')
        legal = session.legal()
        if not legal:
            raise BadRequest("it is not your turn" if not session.state.is_terminal() else "the game is over", 409)
        wanted = " ".join(text.split())
        if wanted not in legal:
            try:
                session.state.find(wanted)
                reason, cites = "not one of your legal actions", session.state.decision_citations()
            except IllegalAction as err:
                reason, cites = err.reason, err.citations
            raise BadRequest(f"illegal: {reason}", 400, rule=session.state.decision_rule(),
                             citations=citations_json(cites))
        session.apply(legal.index(wanted))
        session.run_others()
        return session.view(gid)

    def record(self, gid: str) -> str:
        """Download the record: ``?kind=players-eye`` (any time) or ``omniscient`` (once the game is over)."""
        try:
            session = self.session(gid)
            kind = bottle.request.query.get("kind", PLAYERS_EYE)
            if kind not in (PLAYERS_EYE, OMNISCIENT):
                raise BadRequest(f"kind is {PLAYERS_EYE} or {OMNISCIENT}")
            with session.lock:
                if kind == OMNISCIENT and not session.state.is_terminal():
                    raise BadRequest("the omniscient record shows hidden tokens: it is there once the game is over",
                                     409)
                text = dumps((session.seen if kind == PLAYERS_EYE else session.full).record)
        except BadRequest as err:
            bottle.response.status = err.status
            bottle.response.content_type = "application/json; charset=utf-8"
            return _dumps({"error": str(err)})
        bottle.response.content_type = "application/json; charset=utf-8"
        bottle.response.set_header("Content-Disposition", f'attachment; filename="{self.resolved.name}-{kind}.json"')
        return text


def _dumps(value: Any) -> str:
    return utf8_json(value)


class _Discard:
    """A ``wsgi.errors`` stream that drops what it is given (Bottle writes tracebacks there)."""

    def write(self, text: str) -> int:
        """Drop ``text``."""
        return len(text)

    def flush(self) -> None:
        """Nothing to flush."""


class _Quiet(WSGIRequestHandler):
    timeout = SOCKET_TIMEOUT

    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing per request."""


class _Threading(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed (a client that went silent or away) ends quietly; anything else in one line."""
        err = sys.exc_info()[1]
        if not isinstance(err, OSError):
            print(f"rattus: internal error in the play server: {type(err).__name__}: {err}", file=sys.stderr)


def make_play_server(server: PlayServer, port: int = 8000, timeout: float = SOCKET_TIMEOUT) -> WSGIServer:
    """A WSGI server of the play page bound to 127.0.0.1 (``port`` 0: any free port); call ``serve_forever``.

    ``timeout``: seconds a connection may stay silent before it is dropped."""
    handler = type("_Handler", (_Quiet,), {"timeout": timeout})
    httpd = make_server("127.0.0.1", port, server.wsgi, server_class=_Threading, handler_class=handler)
    server.port = httpd.server_port
    return httpd
