"""Game records: write them, validate them, and find the readings under which they are legal.

A record is JSON (schema: ``rattus_rules/schema/record.schema.json``; guide:
``docs/records.md``)::

    {"format": "rattus-record", "version": 1, "kind": "omniscient",
     "seats": ["red", "yellow"], "interpretations": {"reveal-order": "placed"},
     "components": {"source": "shipped", "sha256": "…"}, "seed": 7,
     "entries": [{"by": "chance", "action": "start-token 1:peasant+monk"},
                 {"by": "P0", "action": "start Gallia"},
                 {"reveal": "2:M+merchant+monk"}, …]}

Entries come in the order things happen: player actions (``by`` a seat
``P0``…), chance outcomes (``by`` ``chance``; a token is written as its face,
or ``?`` in a players-eye record), and right after an entry that turned tokens
face up, one ``reveal`` entry per token with its face.  ``look`` entries (the
Witch) are optional.

:func:`validate` answers with a :class:`Verdict`: legal (the final scores, or
"legal so far"), illegal (the first bad entry, why, the rule and its German
text, what was legal there), or not a record (the JSON path of the problem).
It never raises.

How a players-eye record is checked: tokens whose face the record has not
stated are interchangeable.  The validator plays the game with concrete
tokens: an unknown draw takes any token the rules allow; when the record
later reveals a face the token in play does not show, the validator lets a
token of the right face take its place, moving up to four tokens round
(:func:`interpreter.edit.exchange_identities`), provided no face the record
stated changes and every earlier chance outcome could still have happened (it
keeps a copy of the state before each).  The record is illegal only if no
token of the token set can be there.

>>> from rattus_rules.records import record_game, validate
>>> verdict = validate(record_game(2, seed=4))
>>> verdict.status, verdict.finished
('legal', True)
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any

import attrs
import fastjsonschema

from interpreter import Citation, Game, IllegalAction, RulesError, State, notation
from interpreter.codegen import Values
from interpreter.compiler import Branch, Pending
from interpreter.edit import Marks, exchange_identities, newly_revealed, newly_seen, refresh
from interpreter.files import read_text
from interpreter.types import PieceType

from .agents import RandomPlayer
from .api import citation_json, load_rules
from .faces import UNKNOWN, Face, face_text, piece_face
from .terminal import one_line

FORMAT = "rattus-record"
VERSION = 1
OMNISCIENT = "omniscient"
PLAYERS_EYE = "players-eye"
KINDS = (OMNISCIENT, PLAYERS_EYE)
CHANCE = notation.CHANCE
LEGAL, ILLEGAL, NOT_A_RECORD = "legal", "illegal", "not-a-record"
#: How often the faces of one entry's tokens may be rebound before giving up.
REBIND_LIMIT = 200
#: The most tokens one rebinding may move round, and how many moves it may try.
CYCLE_LIMIT = 4
SEARCH_BUDGET = 4000
#: The longest record text read, in characters (a whole game is some 10,000).
MAX_RECORD_CHARS = 4_000_000


def read_record_file(path: str) -> str:
    """A record file's text: a regular file only (a FIFO or a device is refused, never waited on),
    read no further than one character past the longest record (so that it is refused).

    Raise ValueError or OSError.
    """
    return read_text(path, 4 * (MAX_RECORD_CHARS + 1))[:MAX_RECORD_CHARS + 1]

Option = tuple[int, tuple[Any, ...]]


# ---------------------------------------------------------------- the format
@functools.cache
def schema() -> dict[str, Any]:
    """The JSON Schema of a record (shipped in the package)."""
    text = resources.files("rattus_rules").joinpath("schema/record.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.cache
def _schema_check() -> Callable[[Any], Any]:
    """The schema compiled to Python (fastjsonschema, from the shipped file only): one pass over a
    record that stops at the first error, raising ``JsonSchemaValueException``."""
    check: Callable[[Any], Any] = fastjsonschema.compile(schema())
    return check


@functools.cache
def _entry_shapes() -> Callable[[Any], bool]:
    """A quick test that accepts an entry only if it has one of the three shapes of the schema's
    ``entry``, each value matching the schema's own pattern (read from the shipped schema, and
    matched as the compiled schema matches it); anything else is left to the schema.

    Checking a record's entries this way costs a fraction of the compiled schema's check (its
    ``dependencies`` and ``anyOf`` are general); the result is the same for the entries it accepts.
    """
    defs = schema()["$defs"]
    props = defs["entry"]["properties"]

    def pattern(spec: dict[str, Any]) -> Callable[[str], Any]:
        # as fastjsonschema compiles a pattern: an unescaped $ is the end of the text (\Z), not of a line
        return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", spec["pattern"])).search

    by, action, face, seat = (pattern(props["by"]), pattern(props["action"]), pattern(defs["face"]),
                              pattern(defs["seat"]))
    longest = props["action"]["maxLength"]

    def fits(entry: Any) -> bool:
        if type(entry) is not dict:
            return False
        if len(entry) == 2:
            who = entry.get("by")
            if type(who) is not str:
                return False
            text = entry.get("action")
            if text is not None:
                return type(text) is str and len(text) <= longest and action(text) is not None and by(who) is not None
            seen = entry.get("look")
            return type(seen) is str and face(seen) is not None and seat(who) is not None
        shown = entry.get("reveal")
        return len(entry) == 1 and type(shown) is str and face(shown) is not None

    return fits


def _schema_error(record: Any) -> fastjsonschema.JsonSchemaValueException | None:
    """The first place where a record breaks its schema (header, then entries in order), or None.

    Where every entry has a common shape (see :func:`_entry_shapes`), the header is checked
    alone by the compiled schema; otherwise, or if the header fails, the whole record is.
    """
    check = _schema_check()
    entries = record.get("entries") if type(record) is dict else None
    if type(entries) is list and all(map(_entry_shapes(), entries)):
        try:
            check({**record, "entries": []})
            return None
        except fastjsonschema.JsonSchemaValueException:
            pass  # found again, at its place, by the whole check
    try:
        check(record)
    except fastjsonschema.JsonSchemaValueException as err:
        return err
    return None


#: The most entries a record may have (the schema's ``maxItems``; a game has a few hundred).
MAX_ENTRIES: int = schema()["properties"]["entries"]["maxItems"]


@functools.lru_cache(maxsize=16)
def components_digest(game: Game) -> str:
    """sha256 of the component facts: every table's rows without their provenance, as canonical JSON."""
    facts = {}
    for name in sorted(game.tables):
        table = game.tables[name]
        facts[name] = [{k: v for k, v in row.items() if k != table.provenance_column} for row in table.rows]
    text = json.dumps(facts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_json_default)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _json_default(value: Any) -> Any:
    if isinstance(value, set | frozenset | tuple):
        return sorted(value) if isinstance(value, set | frozenset) else list(value)
    return str(value)


#: A seat as records write it: ``P0``… (:func:`interpreter.notation.seat`).
seat_label = notation.seat


def header(game: Game, seats: Sequence[str], kind: str = OMNISCIENT, settings: Mapping[str, str] | None = None,
           seed: int | None = None, source: str = "shipped", viewer: str | None = None) -> dict[str, Any]:
    """A record's header (with an empty entry list).  ``settings`` by switch id; defaults are left out."""
    chosen = {}
    for name, value in (settings or {}).items():
        key = name.replace("-", "_")
        if key in game.switches and game.defaults[key] != value:
            chosen[game.switches[key].ident] = value
    rec: dict[str, Any] = {"format": FORMAT, "version": VERSION, "kind": kind, "seats": list(seats)}
    if viewer is not None:
        rec["viewer"] = viewer
    rec["interpretations"] = chosen
    rec["components"] = {"source": source, "sha256": components_digest(game)}
    if seed is not None:
        rec["seed"] = seed
    rec["entries"] = []
    return rec


class Recorder:
    """Writes the record of a game while it is played: use :meth:`apply` instead of ``state.apply_index``.

    ``kind`` is omniscient (faces of tokens are written when they enter play)
    or players-eye (draws are written ``?``; ``viewer`` — a seat — also
    writes the faces their Witch looked at).
    """

    def __init__(self, state: State, kind: str = OMNISCIENT, seats: Sequence[str] | None = None,
                 seed: int | None = None, viewer: int | None = None, source: str = "shipped"):
        if kind not in KINDS:
            raise ValueError(f"a record is {' or '.join(KINDS)}, not {kind!r}")
        self.kind = kind
        self.viewer = viewer
        names = list(seats) if seats else [seat_label(p) for p in state.seats]
        view = None if kind == OMNISCIENT else (seat_label(viewer) if viewer is not None else "spectator")
        self.record = header(state.game, names, kind, {state.game.switches[k].ident: v
                                                       for k, v in state.settings.items()},
                             seed, source, view)
        self.entries: list[dict[str, Any]] = self.record["entries"]

    def apply(self, state: State, index: int) -> None:
        """Apply the legal action with this index and write its entries."""
        game = state.game
        before = Marks.of(state)
        by = notation.who(state.current_player)
        hide = self.kind == PLAYERS_EYE and by == CHANCE
        words = _option_words(state, state.pending.options[index] if state.pending else (0, ()),
                              lambda t: UNKNOWN if hide else face_text(game, t))
        state.apply_index(index)
        self.entries.append({"by": by, "action": " ".join(words)})
        for t in newly_revealed(before, state):
            self.entries.append({"reveal": face_text(game, t)})
        if self.kind == PLAYERS_EYE and self.viewer is not None:
            for t, player in newly_seen(before, state):
                if player == self.viewer:
                    self.entries.append({"look": face_text(game, t), "by": seat_label(player)})


def record_game(players: int, seed: int = 0, interpretations: Mapping[str, str] | None = None,
                kind: str = OMNISCIENT, viewer: int | None = None, data: str | None = None) -> dict[str, Any]:
    """Play a game with random players (chance from the state's generator) and return its record."""
    game = load_rules(data)
    state = game.new_state(players, seed=seed, settings=interpretations)
    recorder = Recorder(state, kind, seed=seed, viewer=viewer, source="shipped" if data is None else str(data))
    player = RandomPlayer(seed)
    while not state.is_terminal():
        index = state.random_chance_index() if state.is_chance_node() else player.choose(state)
        recorder.apply(state, index)
    return recorder.record


def dumps(record: Mapping[str, Any]) -> str:
    """A record as JSON text, one entry a line."""
    head = {k: v for k, v in record.items() if k != "entries"}
    lines = json.dumps(head, ensure_ascii=False, indent=2)[:-2]
    entries = record.get("entries", [])
    body = ",\n".join("    " + json.dumps(e, ensure_ascii=False) for e in entries)
    return lines + ',\n  "entries": [\n' + body + ("\n" if entries else "") + "  ]\n}\n"


# --------------------------------------------------------------- the verdict
@attrs.frozen
class Verdict:
    """What the validator says about a record.

    ``status`` is ``legal``, ``illegal`` or ``not-a-record``.  ``entries`` is
    how many entries were checked and found legal.  A legal record has
    ``finished`` with ``scores`` and ``winners``, or says who is ``next``.  An
    illegal one names the first bad entry (``index``, 0-based as in the JSON
    path ``$.entries[index]``), ``reason``, the ``rule`` asking the decision,
    its German ``citations`` and the ``legal`` alternatives there.  A
    non-record has ``path`` (a JSON path) and ``reason``.
    """

    status: str
    entries: int = 0
    finished: bool = False
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    next: str = ""
    index: int | None = None
    entry: Any = None
    reason: str = ""
    rule: str = ""
    citations: tuple[Citation, ...] = ()
    legal: tuple[str, ...] = ()
    path: str = ""
    warnings: tuple[str, ...] = ()
    settings: tuple[tuple[str, str], ...] = ()
    state: State | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def ok(self) -> bool:
        """Whether the record is legal (finished or so far)."""
        return self.status == LEGAL

    @property
    def exit_code(self) -> int:
        """0 legal, 1 illegal, 2 not a record."""
        return {LEGAL: 0, ILLEGAL: 1}.get(self.status, 2)

    def format(self, seats: Sequence[str] | None = None) -> str:
        """The verdict as text for people."""
        out = []
        if self.status == NOT_A_RECORD:
            out.append(f"not a record: {self.path or '$'}: {self.reason}")
        elif self.status == LEGAL:
            if self.finished:
                out.append(f"legal: the game is over after {self.entries} entries")
                out.append("final scores: "
                           + ", ".join(f"{seat_name(p, seats)} {s}" for p, s in enumerate(self.scores)))
                out.append("winner: " + " and ".join(seat_name(w, seats) for w in self.winners))
            else:
                out.append(f"legal so far, {self.entries} entries, next to move: {self.next}")
        else:
            shown = json.dumps(self.entry, ensure_ascii=False)
            out.append(f"illegal: entry {self.index} ($.entries[{self.index}]): {shown}")
            out.append(f"  why: {self.reason}")
            if self.rule:
                out.append(f"  rule: {self.rule}")
            for c in self.citations:
                out.append(f"  cites {c}")
            if self.legal:
                some = list(self.legal[:30]) + ([f"… ({len(self.legal) - 30} more)"] if len(self.legal) > 30 else [])
                out.append("  legal there: " + ", ".join(some))
        for w in self.warnings:
            out.append(f"warning: {w}")
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        """The verdict as JSON-compatible data."""
        return {
            "status": self.status, "entries": self.entries, "finished": self.finished,
            "scores": list(self.scores), "winners": list(self.winners), "next": self.next,
            "index": self.index, "entry": self.entry, "reason": self.reason, "rule": self.rule,
            "citations": [citation_json(c) for c in self.citations],
            "legal": list(self.legal), "path": self.path, "warnings": list(self.warnings),
            "settings": dict(self.settings),
        }


def seat_name(seat: int, seats: Sequence[str] | None) -> str:
    """A seat for people: ``P0``, with the record's name beside it if it has another (``P0 (Ada)``).

    >>> seat_name(0, ["Ada", "P1"]), seat_name(1, ["Ada", "P1"]), seat_name(2, None)
    ('P0 (Ada)', 'P1', 'P2')
    """
    if seats and 0 <= seat < len(seats) and seats[seat] != seat_label(seat):
        return f"{seat_label(seat)} ({seats[seat]})"
    return seat_label(seat)


def not_a_record(path: str, reason: str) -> Verdict:
    """The verdict for input that is not a record."""
    return Verdict(NOT_A_RECORD, path=path, reason=reason)


# ------------------------------------------------------------------ checking
def check_format(record: Any, game: Game | None = None) -> Verdict | None:
    """None if ``record`` is a record by the schema (and its switches exist), else a not-a-record verdict.

    Work and memory are bounded: a record of more than :data:`MAX_ENTRIES`
    entries is refused before anything else, and the schema check (compiled)
    stops at the first error, in the schema's order: the header, then the
    entries in order.
    """
    entries = record.get("entries") if isinstance(record, dict) else None
    if isinstance(entries, list) and len(entries) > MAX_ENTRIES:
        return not_a_record("$.entries", f"{len(entries):,} entries: a record has at most {MAX_ENTRIES:,} "
                                         "(a whole game has a few hundred)")
    try:
        err = _schema_error(record)
        if err is not None:
            return not_a_record("$" + str(err.name).removeprefix("data"), _schema_message(err))
    except Exception as err:  # values JSON cannot hold (sets, objects...)
        return not_a_record("$", f"not JSON data: {type(err).__name__}: {err}")
    for i, entry in enumerate(record.get("entries", [])):
        for key in ("reveal", "look"):
            if key in entry:  # the schema checks the shape of a face; its meaning is checked here
                try:
                    canonical_face(entry[key])
                except ValueError as err:
                    return not_a_record(f"$.entries[{i}].{key}", str(err))
    if game is not None:
        for ident, value in record.get("interpretations", {}).items():
            try:
                game.settings_for({ident: value})
            except ValueError as err:
                return not_a_record(f"$.interpretations.{ident}", str(err))
    return None


@functools.lru_cache(maxsize=4096)
def canonical_face(text: str) -> str:
    """A face as written (symbols in any order) in the one order this package writes; ValueError if none."""
    return str(Face.parse(text))


def _schema_message(err: fastjsonschema.JsonSchemaValueException) -> str:
    name = str(err.name)
    if err.rule == "pattern" and name.endswith((".reveal", ".look")):
        shown = repr(err.value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        return f"{shown} is not a token face (threshold:symbols, like 2:M+merchant+monk)"
    return str(err.message).removeprefix(name).strip()


def load_record_text(text: str) -> tuple[Any, Verdict | None]:
    """Parse JSON text; on a syntax error the not-a-record verdict says where.

    A text longer than :data:`MAX_RECORD_CHARS` is refused unread.
    """
    if len(text) > MAX_RECORD_CHARS:
        return None, not_a_record("$", f"more than {MAX_RECORD_CHARS:,} characters: a record is at most that "
                                       "long (a whole game is some 10,000)")
    try:
        return json.loads(text), None
    except json.JSONDecodeError as err:
        return None, not_a_record(f"line {err.lineno} column {err.colno}", f"not JSON: {err.msg}")
    except (RecursionError, ValueError) as err:
        return None, not_a_record("$", f"not JSON: {err}")


def validate(record: Any, interpretations: Mapping[str, str] | None = None, data: str | None = None) -> Verdict:
    """Check a record (parsed JSON) against the rules; never raises.

    ``interpretations`` (switch id → value) override the record's header.
    """
    try:
        game = load_rules(data)
        bad = check_format(record, game)
    except Exception as err:  # never raise: a bug here must still be an answer
        return _internal_error(err)
    return bad if bad is not None else _validate_checked(game, record, interpretations)


def _internal_error(err: Exception) -> Verdict:
    if isinstance(err, RecursionError):
        return not_a_record("$", "nested too deeply")
    return not_a_record("$", f"internal error while validating: {type(err).__name__}: {err}")


def _validate_checked(game: Game, record: Any, interpretations: Mapping[str, str] | None) -> Verdict:
    """:func:`validate` for a record that passed :func:`check_format`."""
    try:
        chosen = dict(record.get("interpretations", {}))
        chosen.update(interpretations or {})
        try:
            settings = game.settings_for(chosen)
        except ValueError as err:
            return not_a_record("$.interpretations", str(err))
        try:
            return _Validation(game, record, settings, keep=False).run()
        except _Rewind:
            return _Validation(game, record, settings).run()
    except Exception as err:  # never raise: a bug here must still be an answer
        return _internal_error(err)


def _prepare(record: Any, interpretations: Mapping[str, str] | None,
             data: str | None) -> tuple[Game, dict[str, str]]:
    """The rules and switch settings a well-formed record is read with; ValueError if it is not a record."""
    game = load_rules(data)
    bad = check_format(record, game)
    if bad is not None:
        raise ValueError(bad.format())
    chosen = dict(record.get("interpretations", {}))
    chosen.update(interpretations or {})
    return game, game.settings_for(chosen)


def replay(record: Any, at: int | None = None, interpretations: Mapping[str, str] | None = None,
           data: str | None = None) -> tuple[State, Verdict, Callable[[int], bool]]:
    """The state after the first ``at`` entries (all if None), the verdict of that prefix,
    and which tokens' faces the record has stated (players-eye records show only those)."""
    game, settings = _prepare(record, interpretations, data)
    run = _Validation(game, record, settings, stop=at)
    verdict = run.run()
    if record["kind"] == OMNISCIENT:
        return run.state, verdict, lambda t: True
    observed = set(run.observed)
    return run.state, verdict, lambda t: t in observed or run.state.face_up[t]


def walk(record: Any, interpretations: Mapping[str, str] | None = None,
         data: str | None = None) -> tuple[list[tuple[int, State]], Verdict]:
    """The state before each action entry of a record (copies), and the verdict.

    Stops at the first illegal entry; raises ValueError if it is not a record.
    """
    game, settings = _prepare(record, interpretations, data)
    states: list[tuple[int, State]] = []
    verdict = _Validation(game, record, settings).run(
        lambda i, st: states.append((i, st.clone())))
    return states, verdict


@attrs.define
class _Snapshot:
    """A chance outcome that named a token: the state before it and the option taken."""

    state: State
    option: Option


class _Illegal(Exception):
    """The first illegal entry: raised inside a validation pass, turned into a verdict."""

    def __init__(self, index: int, reason: str, rule: str = "", citations: Sequence[Citation] = (),
                 legal: Sequence[str] = ()):
        self.index = index
        self.reason = reason
        self.rule = rule
        self.citations = tuple(citations)
        self.legal = tuple(legal)


class _Rewind(Exception):
    """A fast pass needs the states before the chance outcomes, which it did not keep."""


class _Incomplete(Exception):
    """The record ends before the faces of the tokens its last entry turned face up."""

    def __init__(self, waiting: str):
        self.waiting = waiting


class _Validation:
    """One pass over a record under fixed settings.

    With ``keep`` false (a fast pass) no copies of states are kept, neither
    before chance outcomes nor before entries whose faces follow; if the pass
    then needs them, to let tokens trade places (:meth:`partner`), it raises
    :class:`_Rewind` and the record is validated again with ``keep``.  A
    record whose faces match the tokens as drawn (every legal omniscient
    record, and a players-eye record that follows its seed) never needs them.
    """

    def __init__(self, game: Game, record: Mapping[str, Any], settings: dict[str, str], stop: int | None = None,
                 keep: bool = True):
        self.game = game
        self.keep = keep
        self.record = record
        self.entries: list[dict[str, Any]] = list(record["entries"])
        self.kind = record["kind"]
        self.seats = list(record["seats"])
        self.settings = settings
        self.stop = len(self.entries) if stop is None else max(0, min(stop, len(self.entries)))
        # lazy: an action entry is tested on its own (State.admitted), no decision is listed for it
        self.state = game.new_state(len(self.seats), seed=int(record.get("seed", 0)), settings=settings, lazy=True)
        self.observed: set[int] = set()
        self.first_seen: dict[int, int] = {}
        self.snapshots: list[_Snapshot] = []
        self.ended_at: int | None = None
        self.warnings: list[str] = []
        #: whether the chance entries so far are what the header's seed gives (then it is followed on)
        self.follow_seed = "seed" in record
        self.texts = _option_texts(game)
        digest = record.get("components", {}).get("sha256")
        if digest is not None and digest != components_digest(game):
            self.warnings.append("the record was made with other component data (its sha256 differs from the "
                                 "tables loaded here); faces may not match")

    # ------------------------------------------------------------- results
    def verdict(self, status: str, **kw: Any) -> Verdict:
        settings = tuple(sorted((self.game.switches[k].ident, v) for k, v in self.settings.items()))
        return Verdict(status, warnings=tuple(self.warnings), settings=settings, **kw)

    def run(self, before: Callable[[int, State], None] | None = None) -> Verdict:
        i = 0
        try:
            while i < self.stop:
                if before is not None:
                    before(i, self.state)
                i = self.step(i)
        except _Illegal as bad:
            return self.verdict(ILLEGAL, entries=bad.index, index=bad.index, entry=self.entries[bad.index],
                                reason=bad.reason, rule=bad.rule, citations=bad.citations, legal=bad.legal,
                                state=self.state)
        except _Incomplete as wait:
            return self.verdict(LEGAL, entries=self.stop, next=wait.waiting, state=self.state)
        st = self.state
        if st.is_terminal():
            return self.verdict(LEGAL, entries=i, finished=True, scores=tuple(st.scores()),
                                winners=tuple(st.winner() or ()), state=st)
        return self.verdict(LEGAL, entries=i, next=self.to_move(), legal=tuple(self.legal_texts()), state=st)

    def waiting(self) -> str:
        st = self.state
        if st.is_terminal():
            return "nobody (the game is over)"
        who = CHANCE if st.is_chance_node() else seat_name(st.current_player, self.seats)
        return f"{who} (decision `{st.decision_rule()}`)"

    def to_move(self) -> str:
        st = self.state
        if st.is_chance_node():
            return f"chance ({st.decision_rule()})"
        return f"{seat_name(st.current_player, self.seats)} ({st.decision_rule()})"

    def legal_texts(self) -> list[str]:
        st = self.state
        if st.pending is None:
            return []
        texts = [" ".join(_option_words(st, o, lambda t: face_text(self.game, t))) for o in st.pending.options]
        return list(dict.fromkeys(texts))

    def illegal(self, index: int, reason: str, citations: Sequence[Citation] | None = None) -> _Illegal:
        st = self.state
        return _Illegal(index, reason, st.decision_rule(),
                        st.decision_citations() if citations is None else citations, self.legal_texts())

    # --------------------------------------------------------------- steps
    def step(self, i: int) -> int:
        """Check entry i (an action) and the reveal/look entries after it; return the next index."""
        entry = self.entries[i]
        st = self.state
        if "reveal" in entry:
            raise self.illegal(i, "no token is turned face up here: a reveal entry follows the entry that "
                               "turned the token", ())
        if "look" in entry:
            raise self.illegal(i, "nobody looks at a token here: a look entry follows the Witch action", ())
        if st.is_terminal():
            raise _Illegal(i, f"the game is over (it ended with entry {self.ended_at})", "", (), ())
        by, text = entry["by"], " ".join(entry["action"].split())
        if st.is_chance_node() != (by == CHANCE) or (by != CHANCE and by != seat_label(st.current_player)):
            waiting = CHANCE if st.is_chance_node() else seat_name(st.current_player, self.seats)
            raise self.illegal(i, f"the game waits for {waiting} (decision `{st.decision_rule()}`), not for {by}")
        if by == CHANCE:
            option, unknown = self.match_chance(i, text)
        else:
            option, unknown = self.match_action(i, text), False
        return self.apply(i, option, unknown)

    def match_action(self, i: int, text: str) -> Option:
        """The option a player's action entry names: tested on its own where the decision is not
        listed (:meth:`State.admitted`), else looked up among the options' own texts (made once per
        game, see :class:`_OptionTexts`); :meth:`State.find` explains an entry that is not legal."""
        st = self.state
        assert st.pending is not None
        option = st.admitted(text) if not st.pending.listed else self.texts.action(st.pending, text)
        if option is not None:
            return option
        try:
            return st.pending.options[st.find(text)]
        except IllegalAction as err:
            raise _Illegal(i, err.reason, st.decision_rule(), err.citations, err.legal) from None

    def match_chance(self, i: int, text: str) -> tuple[Option, bool]:
        """The option a chance entry names; ``True`` with it if a token is written ``?``."""
        st = self.state
        words = text.split()
        seeded = self.seeded_option()
        assert st.pending is not None
        candidates, unknown = self.texts.outcomes(st.pending, words)
        near: list[tuple[Option, int, Face]] = []
        if not candidates:  # none has this text: look closer (a face no token here shows, a typo...)
            candidates, unknown, near = self.chance_candidates(words)
        if unknown and self.kind == OMNISCIENT:
            raise self.illegal(i, "an omniscient record writes the face of every token that enters play "
                               f"(or make the record {PLAYERS_EYE})")
        if self.kind == PLAYERS_EYE and self.states_a_face(candidates or [o for o, _, _ in near], words):
            raise self.illegal(i, f"a {PLAYERS_EYE} record writes every token a chance outcome brings into play "
                               "as ? (nobody sees its face then; reveal and look entries state faces); "
                               f"a face here is what an {OMNISCIENT} record writes")
        if not candidates:  # a stated face no token here shows: perhaps an unstated token can trade places
            for option, piece, face in near:
                if piece in self.observed:
                    continue
                # this outcome, with the token of the face in place of ``piece``, must be possible too
                self.snapshots.append(_Snapshot(st.clone(), option))
                try:
                    swaps = self.partner(i, piece, face, set())
                except _Illegal:
                    continue
                finally:
                    self.snapshots.pop()
                self.exchange(swaps)
                refresh(st)
                candidates, unknown, near = self.chance_candidates(words)
                break
        if not candidates:
            hint = ""
            for word in words[1:]:
                if word.startswith("#"):
                    hint = ": a record writes a token by its face (threshold:symbols) or ?, never by an id"
                    break
                if ":" in word and word != UNKNOWN:
                    try:
                        Face.parse(word)
                    except ValueError as err:
                        hint = f": {err}"
                        break
                    hint = f": no token {word} can come out of this chance event"
            raise self.illegal(i, f"{text!r} is not a possible outcome of chance event `{st.decision_rule()}`{hint}")
        if seeded is not None:
            if seeded in candidates:  # the token the seed draws (if it is hidden, the one it will show)
                return seeded, unknown
            words_seeded = _option_words(st, seeded, lambda t: face_text(self.game, t))
            self.seed_differs(f"its generator gives {' '.join(words_seeded)!r} at entry {i}")
        if unknown:  # any token the rules allow: prefer one the record has not identified
            fresh = [o for o in candidates if not any(v in self.observed for v in self.option_pieces(o))]
            return (fresh or candidates)[0], True
        return candidates[0], False

    def states_a_face(self, options: list[Option], words: list[str]) -> bool:
        """Whether the words write a face (not ?) where these options have a token."""
        st = self.state
        assert st.pending is not None
        for option in options[:1]:
            branch = st.pending.decision.branches[option[0]]
            return any(isinstance(b.type, PieceType) and w != UNKNOWN for b, w in zip(branch.bindings, words[1:]))
        return False

    def seeded_option(self) -> Option | None:
        """While the record follows its header's seed: the chance outcome the seed's generator gives here."""
        st = self.state
        if not self.follow_seed or st.pending is None:
            return None
        return st.pending.options[st.random_chance_index()]

    def seed_differs(self, how: str) -> None:
        """Warn (once) that the chance entries are not those of the header's seed, and stop following it."""
        self.follow_seed = False
        self.warnings.append(f"the header's seed {self.record['seed']} did not play this game: {how} (the seed "
                             "is not needed to validate; the entries are checked as they are)")

    def chance_candidates(self, words: list[str]) -> tuple[list[Option], bool, list[tuple[Option, int, Face]]]:
        """Options matching the words; whether a token is written ``?``; and the options that differ
        only in the face of one token (with that token and the face wanted)."""
        st = self.state
        assert st.pending is not None
        unknown = False
        candidates: list[Option] = []
        near: list[tuple[Option, int, Face]] = []
        for option in st.pending.options:
            branch = st.pending.decision.branches[option[0]]
            if branch.verb != words[0] or len(branch.bindings) != len(words) - 1:
                continue
            ok = True
            wrong: list[tuple[int, Face]] = []
            for value, binding, word in zip(option[1], branch.bindings, words[1:]):
                if notation.is_piece_type(binding.type):
                    if word == UNKNOWN:
                        unknown = True
                        continue
                    try:
                        want = Face.parse(word)
                    except ValueError:
                        ok = False
                        break
                    if want != piece_face(self.game, value):
                        wrong.append((value, want))
                elif notation.value_word(value, binding.type, self.game.piece_keys) != word:
                    ok = False
                    break
            if ok and not wrong:
                candidates.append(option)
            elif ok and len(wrong) == 1:
                near.append((option, *wrong[0]))
        return candidates, unknown, near

    def option_pieces(self, option: Option, state: State | None = None) -> list[int]:
        st = state or self.state
        assert st.pending is not None
        values = option[1]
        return [values[k] for k in self.texts.piece_slots(st.pending.decision.branches[option[0]])]

    def observations(self, i: int) -> tuple[list[tuple[int, str]], list[tuple[int, str, str]], int]:
        """The reveal and look entries after entry i: (index, face), (index, seat, face); next index."""
        reveals: list[tuple[int, str]] = []
        looks: list[tuple[int, str, str]] = []
        j = i + 1
        while j < self.stop:
            e = self.entries[j]
            if "reveal" in e:
                if looks:
                    raise _Illegal(j, "reveal entries come before the look entries of the same action")
                reveals.append((j, e["reveal"]))
            elif "look" in e:
                looks.append((j, e["by"], e["look"]))
            else:
                break
            j += 1
        return reveals, looks, j

    def apply(self, i: int, option: Option, unknown: bool) -> int:
        reveals, looks, nxt = self.observations(i)
        pre = self.state
        pieces = self.option_pieces(option)
        chosen = set(pieces)
        if chosen and self.keep:
            self.snapshots.append(_Snapshot(pre.clone(), option))
        if not (reveals or looks) or not self.keep:  # no copy to rebind from: none needed, or a fast pass
            assert pre.pending is not None
            marks = Marks.of(pre)
            pre.apply_option(option)
            revealed, seen = newly_revealed(marks, pre), newly_seen(marks, pre)
            if not (revealed or seen or reveals or looks):  # nothing turned, looked at or stated
                self.commit(i, pieces, unknown, pre, [], [], [], [])
                return nxt
            if (reveals or looks) and self.first_mismatch(revealed, reveals, seen, looks) is not None:
                raise _Rewind  # tokens must trade places: the full pass does that
            return self.settle(i, pieces, unknown, pre, revealed, seen, reveals, looks, nxt)
        for _ in range(REBIND_LIMIT):
            assert pre.pending is not None
            after = pre.clone()
            after.apply_option(option)
            revealed = newly_revealed(pre, after)
            seen = newly_seen(pre, after)
            mismatch = self.first_mismatch(revealed, reveals, seen, looks)
            if mismatch is None:
                break
            index, piece, face, busy = mismatch
            if self.follow_seed:
                self.seed_differs(f"the token it draws shows {face_text(self.game, piece)}, entry {index} "
                                  f"states {face}")
            swaps = self.partner(index, piece, face, busy | (set() if unknown else chosen))
            self.exchange(swaps)
            option = (option[0], tuple(_permute(v, swaps) if self.is_piece_arg(option, k) else v
                                       for k, v in enumerate(option[1])))
            chosen = {_permute(t, swaps) for t in chosen}
            refresh(pre)
        else:
            raise _Illegal(i, "the faces written after this entry cannot be matched to tokens")
        return self.settle(i, self.option_pieces(option), unknown, after, revealed, seen, reveals, looks, nxt)

    def settle(self, i: int, pieces: list[int], unknown: bool, after: State, revealed: list[int],
               seen: list[tuple[int, int]], reveals: list[tuple[int, str]], looks: list[tuple[int, str, str]],
               nxt: int) -> int:
        """Check that the reveal and look entries after entry i account for what it turned and showed,
        then make ``after`` the state; return the next index.  ``pieces``: the tokens entry i named."""
        # the counts must agree once the faces do
        if len(reveals) > len(revealed):
            j = reveals[len(revealed)][0]
            self.commit(i, pieces, unknown, after, revealed, reveals, seen, looks)
            raise self.illegal(j, f"entry {i} turned {len(revealed)} token(s) face up, the record gives "
                               f"{len(reveals)} reveal entries; the game waits for {self.waiting()}")
        if len(reveals) < len(revealed):
            if nxt < self.stop:
                raise _Illegal(nxt, f"entry {i} turned {len(revealed)} token(s) face up, the record gives "
                               f"the face of only {len(reveals)} (a reveal entry must follow for each)",
                               "", (), ())
            # the record (or the part replayed) ends before every face is given
            self.commit(i, pieces, unknown, after, revealed, reveals, seen, looks)
            if self.stop == len(self.entries):
                raise _Incomplete(f"the face of {len(revealed) - len(reveals)} token(s) turned face up by "
                                  f"entry {i}")
            return nxt
        extra = self.unmatched_looks(seen, looks)
        if extra is not None:
            who = self.entries[extra]["by"]
            raise _Illegal(extra, f"{who} looked at no token with entry {i} (a look entry follows the "
                           "Witch action of the player who looked)", "", (), ())
        self.commit(i, pieces, unknown, after, revealed, reveals, seen, looks)
        return nxt

    def is_piece_arg(self, option: Option, k: int) -> bool:
        st = self.state
        assert st.pending is not None
        return isinstance(st.pending.decision.branches[option[0]].bindings[k].type, PieceType)

    def first_mismatch(self, revealed: list[int], reveals: list[tuple[int, str]], seen: list[tuple[int, int]],
                       looks: list[tuple[int, str, str]]) -> tuple[int, int, Face, set[int]] | None:
        """The first reveal or look entry whose face the token there does not show, with the tokens
        already matched before it."""
        faces = self.texts.faces  # (compared as written: the entries' faces were read by check_format)
        for m, ((j, face), piece) in enumerate(zip(reveals, revealed)):
            if faces[piece] != canonical_face(face):
                return j, piece, Face.parse(face), set(revealed[:m])
        pairs = self.looked(seen, looks)
        for m, (j, piece, face) in enumerate(pairs):
            if faces[piece] != canonical_face(face):
                return j, piece, Face.parse(face), set(revealed) | {p for _, p, _ in pairs[:m]}
        return None

    def looked(self, seen: list[tuple[int, int]], looks: list[tuple[int, str, str]]) -> list[tuple[int, int, str]]:
        """Pair each look entry with a piece its player looked at (in order)."""
        out = []
        free = list(seen)
        for j, by, face in looks:
            for k, (piece, player) in enumerate(free):
                if seat_label(player) == by:
                    out.append((j, piece, face))
                    del free[k]
                    break
        return out

    def unmatched_looks(self, seen: list[tuple[int, int]], looks: list[tuple[int, str, str]]) -> int | None:
        if not looks:
            return None
        paired = {j for j, _, _ in self.looked(seen, looks)}
        for j, _, _ in looks:
            if j not in paired:
                return j
        return None

    def partner(self, index: int, piece: int, face: Face, fixed: set[int]) -> list[tuple[int, int]]:
        """Exchanges that bring a token of ``face`` to where ``piece`` lies, changing no stated face.

        Searches cycles of at most :data:`CYCLE_LIMIT` tokens: a token of the
        face takes ``piece``'s place, another token takes its place, and so on,
        until ``piece`` takes the last one's place.  A token may take a place
        whose face the record stated only if it shows that face, and every
        chance outcome of the record must still have been possible (checked on
        the states kept before each).  Raises _Illegal if there is none.
        """
        shown = face_text(self.game, piece)
        if piece in self.observed or piece in fixed:
            known = self.first_seen.get(piece)
            where = f" (the record stated its face at entry {known})" if known is not None else ""
            raise _Illegal(index, f"the token turned here shows {shown}{where}, not {face}", "", (), ())
        pieces = range(len(self.game.piece_rows))
        same = [t for t in pieces if piece_face(self.game, t) == face]
        if not same:
            raise _Illegal(index, f"no token of the token set shows {face}", "", (), ())
        if not self.keep:
            raise _Rewind
        state = self.state
        budget = [SEARCH_BUDGET]
        chosen_by = {t: sum(1 for snap in self.snapshots if t in self.option_pieces(snap.option, snap.state))
                     for t in pieces}

        def stated(t: int) -> bool:
            return t in self.observed or t in fixed or state.face_up[t]

        def may_take(y: int, x: int) -> bool:
            """May token y stand where token x lies, as far as stated faces go?"""
            return y != x and (not stated(x) or piece_face(self.game, y) == piece_face(self.game, x))

        def fits(chain: list[int], closed: bool) -> bool:
            """The chance outcomes that gave the places filled so far could have given their new tokens."""
            budget[0] -= 1
            swaps = [(piece, t) for t in chain]
            filled = {piece, *chain} if closed else {piece, *chain[:-1]}
            return self.admissible(swaps, filled)

        order = sorted(pieces, key=lambda t: (stated(t), chosen_by[t], t))

        def search(chain: list[int]) -> list[int] | None:
            last = chain[-1]
            if may_take(piece, last) and fits(chain, True):
                return chain
            if len(chain) >= CYCLE_LIMIT:
                return None
            for y in order:
                if budget[0] <= 0:
                    return None
                if y in chain or y == piece or not may_take(y, last) or not fits([*chain, y], False):
                    continue
                found = search([*chain, y])
                if found is not None:
                    return found
            return None

        for q in same:
            if q == piece or budget[0] <= 0 or not fits([q], False):
                continue
            chain = search([q])
            if chain is not None:
                return [(piece, t) for t in chain]
        accounted = [self.first_seen.get(t) for t in same if t in self.observed]
        said = ", ".join(f"entry {k}" for k in accounted if k is not None)
        raise _Illegal(index, f"no token {face} can lie here: the token set has {len(same)} such token(s)"
                       + (f", accounted for at {said}" if said else "")
                       + " and no other unstated token of that face could have come here", "", (), ())

    def admissible(self, swaps: list[tuple[int, int]], only: set[int] | None = None) -> bool:
        """Whether every chance outcome could have given the tokens these exchanges put there
        (with ``only``: the outcomes that gave these tokens)."""
        moved = {t for pair in swaps for t in pair} if only is None else only
        for snap in self.snapshots:
            if not moved.intersection(self.option_pieces(snap.option, snap.state)):
                continue
            trial = snap.state.clone()
            for a, b in swaps:
                exchange_identities(trial, a, b)
            try:
                refresh(trial)
            except RulesError:
                return False
            assert trial.pending is not None
            if self.mapped(trial, snap.option, swaps) not in trial.pending.options:
                return False
        return True

    @staticmethod
    def mapped(state: State, option: Option, swaps: list[tuple[int, int]]) -> Option:
        assert state.pending is not None
        branch = state.pending.decision.branches[option[0]]
        return (option[0], tuple(_permute(v, swaps) if isinstance(bd.type, PieceType) else v
                                 for v, bd in zip(option[1], branch.bindings)))

    def exchange(self, swaps: list[tuple[int, int]]) -> None:
        """Apply exchanges everywhere; what the record stated stays with the place, not the token."""
        for a, b in swaps:
            exchange_identities(self.state, a, b)
            in_a, in_b = a in self.observed, b in self.observed
            self.observed.discard(a)
            self.observed.discard(b)
            if in_a:
                self.observed.add(b)
            if in_b:
                self.observed.add(a)
            seen_a, seen_b = self.first_seen.pop(a, None), self.first_seen.pop(b, None)
            if seen_a is not None:
                self.first_seen[b] = seen_a
            if seen_b is not None:
                self.first_seen[a] = seen_b
        for snap in self.snapshots:
            for a, b in swaps:
                exchange_identities(snap.state, a, b)
            snap.option = self.mapped(snap.state, snap.option, swaps)
            refresh(snap.state)

    def commit(self, i: int, pieces: list[int], unknown: bool, after: State, revealed: list[int],
               reveals: list[tuple[int, str]], seen: list[tuple[int, int]],
               looks: list[tuple[int, str, str]]) -> None:
        if not unknown:
            for t in pieces:
                self.mark(t, i)
        for t, (j, _) in zip(revealed, reveals):
            self.mark(t, j)
        for j, piece, _ in self.looked(seen, looks):
            self.mark(piece, j)
        self.state = after
        if after.is_terminal() and self.ended_at is None:
            self.ended_at = i

    def mark(self, piece: int, index: int) -> None:
        if piece not in self.observed:
            self.observed.add(piece)
            self.first_seen[piece] = index


class _OptionTexts:
    """Options by the texts records write, made once per game and option.

    An action entry is the text the rules give the option (the text
    :meth:`State.find` reads); a chance entry writes each token as its face,
    or as ``?`` (players-eye).  Looking an entry up here replaces making the
    texts of every legal option at every step; only texts the rules made are
    kept, so the memory is bounded by the game, not by the records read.
    """

    def __init__(self, game: Game):
        self.game = game
        self.faces = [face_text(game, t) for t in range(len(game.piece_rows))]
        self.actions: dict[tuple[int, str], Option] = {}  # (id of the decision, text) -> option
        self.written: dict[tuple[int, bool, Option], str] = {}  # (id of the decision, hidden, option) -> text
        self.slots: dict[int, tuple[int, ...]] = {}  # id of a branch -> where its tokens are

    def piece_slots(self, branch: Branch) -> tuple[int, ...]:
        """Which values of a branch's options are tokens."""
        slots = self.slots.get(id(branch))
        if slots is None:
            slots = self.slots[id(branch)] = tuple(k for k, b in enumerate(branch.bindings)
                                                   if isinstance(b.type, PieceType))
        return slots

    def action(self, pending: Pending, text: str) -> Option | None:
        """The option of a player's decision with this text, if it is legal here."""
        decision = pending.decision
        key = (id(decision), text)
        option = self.actions.get(key)
        if option is None or option not in pending.options:  # options not met yet: note their texts
            keys = self.game.piece_keys
            for o in pending.options:
                self.actions[(id(decision), decision.text(o, keys))] = o
            option = self.actions.get(key)
        return option if option is not None and option in pending.options else None

    def outcomes(self, pending: Pending, words: list[str]) -> tuple[list[Option], bool]:
        """The chance outcomes written as these words (faces with symbols in any order), and whether
        their tokens are written ``?``."""
        hidden = UNKNOWN in words
        canonical = []
        for word in words:
            if ":" in word:
                try:
                    word = canonical_face(word)
                except ValueError:
                    return [], hidden
            canonical.append(word)
        text = " ".join(canonical)
        decision = pending.decision
        options = pending.listing()
        if isinstance(options, Values) and len(words) == 2 and decision.branches[0].verb == words[0] \
                and isinstance(decision.branches[0].bindings[0].type, PieceType):
            # one token drawn (the usual chance event): compare faces, make no option texts
            if hidden:
                return list(options), True
            faces = self.faces
            return [(0, (t,)) for t in options.values if faces[t] == canonical[1]], False
        ident = id(decision)
        keys = self.game.piece_keys
        found = []
        for option in pending.options:
            key = (ident, hidden, option)
            written = self.written.get(key)
            if written is None:
                written = self.written[key] = notation.text(decision.branches[option[0]], option[1], keys, (
                    lambda t: UNKNOWN) if hidden else self.faces.__getitem__)
            if written == text:
                found.append(option)
        return found, hidden


@functools.lru_cache(maxsize=16)
def _option_texts(game: Game) -> _OptionTexts:
    return _OptionTexts(game)


def _permute(v: Any, swaps: list[tuple[int, int]]) -> Any:
    for a, b in swaps:
        v = b if v == a else a if v == b else v
    return v


def _option_words(state: State, option: Option, piece_word: Callable[[int], str]) -> list[str]:
    """An option's words as a record writes them: the verb, then each value (a token by ``piece_word``)."""
    assert state.pending is not None
    return notation.words(state.pending.decision.branches[option[0]], option[1], state.game.piece_keys, piece_word)


# ------------------------------------------------------ which interpretations
@attrs.frozen
class Trial:
    """One setting of the switches tried on a record, and its verdict."""

    changes: tuple[tuple[str, str], ...]  # switch id → value, relative to the record's header
    verdict: Verdict


@attrs.frozen
class InterpretationReport:
    """The settings under which a record is legal, and the first failing entry of the others."""

    base: tuple[tuple[str, str], ...]
    legal: tuple[Trial, ...]
    rejected: tuple[Trial, ...]
    not_a_record: Verdict | None = None

    def to_json(self) -> dict[str, Any]:
        """The report as JSON: the header's settings, and each setting tried (its changes and verdict)."""
        if self.not_a_record is not None:
            return {"status": NOT_A_RECORD, "verdict": self.not_a_record.to_json()}

        def trial(t: Trial) -> dict[str, Any]:
            return {"changes": dict(t.changes), "verdict": t.verdict.to_json()}

        return {"status": LEGAL if self.legal else ILLEGAL, "base": dict(self.base),
                "legal": [trial(t) for t in self.legal], "rejected": [trial(t) for t in self.rejected]}

    def format(self) -> str:
        """The report as text."""
        if self.not_a_record is not None:
            return self.not_a_record.format()

        def show(changes: tuple[tuple[str, str], ...]) -> str:
            return ", ".join(f"{k}={v}" for k, v in changes) or "the record's own settings"

        out = ["settings tried: the record's header (defaults elsewhere), each other value of each switch "
               "one at a time, and greedy combinations of the changes that got furthest"]
        if self.legal:
            out.append("legal under:")
            for t in self.legal:
                out.append(f"  {show(t.changes)}" + ("" if t.verdict.finished else
                                                     f" (legal so far, {t.verdict.entries} entries)"))
        else:
            out.append("legal under: none of the settings tried")
        if self.rejected:
            out.append("illegal under:")
            for t in self.rejected:
                v = t.verdict
                out.append(f"  {show(t.changes)}: entry {v.index}: {json.dumps(v.entry, ensure_ascii=False)} "
                           f"— {v.reason}")
        return "\n".join(out)


def which_interpretations(record: Any, data: str | None = None, rounds: int = 4,
                          tried_one: Callable[[int, int], None] | None = None) -> InterpretationReport:
    """Search the switch settings under which a record is legal.

    Start from the header's settings; try every other value of every switch,
    one at a time.  If none is legal, keep the change that got furthest (the
    latest first illegal entry) and try single changes on top of it again, up
    to ``rounds`` times.  Every setting tried is reported with its verdict.
    ``tried_one(done, expected)`` is called after each setting tried, with how
    many were tried and how many the rounds begun so far try (for progress bars).
    """
    game = load_rules(data)
    bad = check_format(record, game)
    if bad is not None:
        return InterpretationReport((), (), (), bad)
    header_settings = {game.switches[k].ident: v for k, v in game.settings_for(record.get("interpretations")).items()}
    tried: dict[tuple[tuple[str, str], ...], Verdict] = {}

    per_round = sum(len(d.options) - 1 for d in game.switches.values())
    begun = [1]

    def attempt(changes: dict[str, str]) -> Verdict:
        key = tuple(sorted(changes.items()))
        if key not in tried:
            tried[key] = _validate_checked(game, record, changes)
            if tried_one is not None:
                tried_one(len(tried), 1 + per_round * begun[0])
        return tried[key]

    base: dict[str, str] = {}
    best = attempt(base)
    for round_ in range(rounds):
        begun[0] = round_ + 1
        results = []
        for decl in game.switches.values():
            for option in decl.options:
                if option.value == {**header_settings, **base}[decl.ident]:
                    continue
                changes = {**base, decl.ident: option.value}
                if option.value == header_settings[decl.ident]:
                    del changes[decl.ident]
                results.append((changes, attempt(changes)))
        if best.ok or any(v.ok for _, v in results):
            break
        further = [(c, v) for c, v in results if v.status == ILLEGAL and (v.index or 0) > (best.index or 0)]
        if not further:
            break
        base, best = max(further, key=lambda cv: cv[1].index or 0)
    legal = tuple(Trial(k, v) for k, v in tried.items() if v.ok)
    rejected = tuple(Trial(k, v) for k, v in tried.items() if not v.ok)
    return InterpretationReport(tuple(sorted(header_settings.items())), legal, rejected)


def seat_names(record: Any) -> list[str] | None:
    """The seat names of a record as it gives them, if it has them (for JSON output: its escaping is enough)."""
    if isinstance(record, dict) and isinstance(record.get("seats"), list):
        return [str(s) for s in record["seats"]]
    return None


def seats_of(record: Any) -> list[str] | None:
    """The seat names of a record, if it has them, each as one line (control characters escaped) for display."""
    names = seat_names(record)
    return None if names is None else [one_line(s) for s in names]


__all__ = [
    "FORMAT",
    "KINDS",
    "OMNISCIENT",
    "PLAYERS_EYE",
    "VERSION",
    "InterpretationReport",
    "Recorder",
    "Trial",
    "Verdict",
    "check_format",
    "components_digest",
    "dumps",
    "header",
    "load_record_text",
    "record_game",
    "replay",
    "schema",
    "seat_name",
    "validate",
    "walk",
    "which_interpretations",
]

