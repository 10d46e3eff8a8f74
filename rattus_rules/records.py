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

The walk itself knows no game: it is :mod:`interpreter.tools.records`, and this
module gives it Rattus's words (:class:`TokenFaces`: a token is written by its
face) besides the record format (schema, header, writing records, the
interpretations search).  How a players-eye record is checked: tokens whose face the record has not
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
import json
import re
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any

import attrs
import fastjsonschema

from interpreter import Game, State, notation
from interpreter.edit import Marks, newly_revealed, newly_seen
from interpreter.files import read_text
from interpreter.tools.records import (
    CHANCE as CHANCE,
)
from interpreter.tools.records import (
    ILLEGAL as ILLEGAL,
)
from interpreter.tools.records import (
    KINDS as KINDS,
)
from interpreter.tools.records import (
    LEGAL as LEGAL,
)
from interpreter.tools.records import (
    NOT_A_RECORD as NOT_A_RECORD,
)
from interpreter.tools.records import (
    OMNISCIENT as OMNISCIENT,
)
from interpreter.tools.records import (
    PLAYERS_EYE as PLAYERS_EYE,
)
from interpreter.tools.records import (
    RecordWalk as RecordWalk,
)
from interpreter.tools.records import (
    Verdict as Verdict,
)
from interpreter.tools.records import (
    check_entries,
    option_words,
)
from interpreter.tools.records import (
    components_digest as components_digest,
)
from interpreter.tools.records import (
    not_a_record as not_a_record,
)
from interpreter.tools.records import (
    seat_name as seat_name,
)

from .agents import RandomPlayer
from .api import load_rules
from .faces import UNKNOWN, Face, face_text
from .terminal import one_line

FORMAT = "rattus-record"
VERSION = 1
#: The longest record text read, in characters (a whole game is some 10,000).
MAX_RECORD_CHARS = 4_000_000


def read_record_file(path: str) -> str:
    """A record file's text: a regular file only (a FIFO or a device is refused, never waited on),
    read no further than one character past the longest record (so that it is refused).

    Raise ValueError or OSError.
    """
    return read_text(path, 4 * (MAX_RECORD_CHARS + 1))[:MAX_RECORD_CHARS + 1]



@attrs.frozen
class TokenFaces:
    """How Rattus records write rat tokens (:class:`interpreter.tools.records.Faces`): by their
    face, ``threshold:symbols`` (:mod:`rattus_rules.faces`), or ``?`` unseen."""

    game: Game
    unknown: str = UNKNOWN
    form: str = "threshold:symbols"
    noun: str = "token"

    def written(self, piece: int) -> str:
        """A token's face, its symbols in the one order this package writes."""
        return face_text(self.game, piece)

    def canonical(self, word: str) -> str:
        """A face written with its symbols in any order, written in the one order."""
        return canonical_face(word)

    def looks_like_face(self, word: str) -> bool:
        """Faces, and only faces, have a colon among an action's words."""
        return ":" in word


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
        words = option_words(state, state.pending.options[index] if state.pending else (0, ()),
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
        return check_entries(game, record, settings, TokenFaces(game))
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
    run = RecordWalk(game, record, settings, TokenFaces(game), stop=at)
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
    verdict = RecordWalk(game, record, settings, TokenFaces(game)).run(
        lambda i, st: states.append((i, st.clone())))
    return states, verdict


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

