"""Game records: write them, validate them, and find the readings under which they are legal.

A record is JSON (schema: ``rattus_rules/schema/record.schema.json``; guide
with a whole example: ``docs/records.md``): a header (``format``, ``version``,
``kind``, ``seats``, ``interpretations``, ``components``, ``seed``) and its
``entries``.  Entries come in the order things happen: player actions (``by``
a seat ``P0``…), chance outcomes (``by`` ``chance``; a piece is written as its
face, or ``?`` in a players-eye record), and right after an entry that turned
pieces face up, one ``reveal`` entry per piece with its face.  ``look``
entries (a seat shown a hidden face) are optional.

:func:`validate` answers with a :class:`Verdict`: legal (the final scores, or
"legal so far"), illegal (the first bad entry, why, the rule and its German
text, what was legal there), or not a record (the JSON path of the problem).
It never raises.

The walk itself knows no game: it is :mod:`rattus_rules.tools.records.walk`;
this module adds the record format (schema, header, writing records, the
interpretations search) and writes pieces as the game's package says
(:func:`rattus_rules.games.faces_of`).  How a players-eye record is checked:
pieces whose face the record has not stated are interchangeable.  The
validator plays the game with concrete pieces: an unknown draw takes any piece
the rules allow; when the record later reveals a face the piece in play does
not show, the validator lets a piece of the right face take its place, moving
up to four pieces round (:func:`interpreter.edit.exchange_identities`),
provided no face the record stated changes and every earlier chance outcome
could still have happened (it keeps a copy of the state before each).  The
record is illegal only if no piece of the game can be there.

>>> from rattus_rules.tools.records.validate import record_game, validate
>>> verdict = validate(record_game(2, seed=4))
>>> verdict.status, verdict.finished
('legal', True)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any

import attrs

from interpreter import Game, State, notation
from rattus_rules.algorithms.agents import RandomPlayer
from rattus_rules.api import ResolvedGame, load_rules, rules_of
from rattus_rules.games import DEFAULT_GAME, faces_of
from rattus_rules.tools.records import recordformat
from rattus_rules.tools.records.recordformat import (
    MAX_ENTRIES as MAX_ENTRIES,
)
from rattus_rules.tools.records.recordformat import (
    MAX_RECORD_CHARS as MAX_RECORD_CHARS,
)
from rattus_rules.tools.records.recordformat import (
    RecordFormat as RecordFormat,
)
from rattus_rules.tools.records.recordformat import (
    dumps as dumps,
)
from rattus_rules.tools.records.recordformat import (
    load_record_text as load_record_text,
)
from rattus_rules.tools.records.recordformat import (
    read_record_file as read_record_file,
)
from rattus_rules.tools.records.walk import (
    CHANCE as CHANCE,
)
from rattus_rules.tools.records.walk import (
    ILLEGAL as ILLEGAL,
)
from rattus_rules.tools.records.walk import (
    KINDS as KINDS,
)
from rattus_rules.tools.records.walk import (
    LEGAL as LEGAL,
)
from rattus_rules.tools.records.walk import (
    NOT_A_RECORD as NOT_A_RECORD,
)
from rattus_rules.tools.records.walk import (
    OMNISCIENT as OMNISCIENT,
)
from rattus_rules.tools.records.walk import (
    PLAYERS_EYE as PLAYERS_EYE,
)
from rattus_rules.tools.records.walk import (
    Faces,
    check_entries,
)
from rattus_rules.tools.records.walk import (
    RecordWalk as RecordWalk,
)
from rattus_rules.tools.records.walk import (
    Verdict as Verdict,
)
from rattus_rules.tools.records.walk import (
    components_digest as components_digest,
)
from rattus_rules.tools.records.walk import (
    not_a_record as not_a_record,
)
from rattus_rules.tools.records.walk import (
    seat_name as seat_name,
)

from ..terminal import one_line

FORMAT = "rattus-record"
VERSION = 1
#: The ``$id`` of the record schema.
SCHEMA_ID = "urn:rattus-rules:record:1"


@functools.lru_cache(maxsize=16)
def record_format(game: Game, faces: Faces | None = None) -> RecordFormat:
    """How records of ``game`` are written: this package's format, the game's faces (``faces``, resolved
    already: :attr:`rattus_rules.api.ResolvedGame.faces`; else :func:`rattus_rules.games.faces_of`); a
    record of any game but the default names its game."""
    return RecordFormat(FORMAT, VERSION, SCHEMA_ID, game, faces_of(game) if faces is None else faces,
                        names_game=game.name != DEFAULT_GAME)


def format_of(game: ResolvedGame) -> RecordFormat:
    """How records of a game resolved already are written (:func:`record_format` with its faces)."""
    return record_format(game.rules, game.faces)


# ---------------------------------------------------------------- the format
@functools.cache
def schema() -> dict[str, Any]:
    """The JSON Schema of a Rattus record, as shipped in the package for other implementations
    (what :meth:`RecordFormat.schema_dict` builds for Rattus; a test keeps them equal)."""
    text = resources.files("rattus_rules").joinpath("schema/record.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


seat_label = notation.seat


def header(game: Game, seats: Sequence[str], kind: str = OMNISCIENT, settings: Mapping[str, str] | None = None,
           seed: int | None = None, source: str = "shipped", viewer: str | None = None) -> dict[str, Any]:
    """A record's header (with an empty entry list).  ``settings`` by switch id; defaults are left out."""
    return record_format(game).header(seats, kind, settings, seed, source, viewer)


class Recorder(recordformat.Recorder):
    """Writes the record of a game while it is played: use :meth:`apply` instead of ``state.apply_index``.

    ``kind`` is omniscient (faces of pieces are written when they enter play)
    or players-eye (draws are written ``?``; ``viewer`` — a seat — also
    writes the faces that seat was shown).  ``faces``: how the game writes its pieces, if resolved already
    (:attr:`rattus_rules.api.ResolvedGame.faces`).
    """

    def __init__(self, state: State, kind: str = OMNISCIENT, seats: Sequence[str] | None = None,
                 seed: int | None = None, viewer: int | None = None, source: str = "shipped",
                 faces: Faces | None = None):
        super().__init__(state, record_format(state.game, faces), kind, seats, seed, viewer, source)


def record_game(players: int, seed: int = 0, interpretations: Mapping[str, str] | None = None,
                kind: str = OMNISCIENT, viewer: int | None = None, data: str | None = None,
                game_name: str | ResolvedGame | None = None) -> dict[str, Any]:
    """Play a game with random players (chance from the state's generator) and return its record
    (``game_name``: a game of the registry, see :func:`load_rules`, or one resolved already; None: the
    selected one)."""
    game = rules_of(game_name, data)
    state = game.new_state(players, seed=seed, settings=interpretations)
    faces = game_name.faces if isinstance(game_name, ResolvedGame) and data is None else None
    recorder = Recorder(state, kind, seed=seed, viewer=viewer, source="shipped" if data is None else str(data),
                        faces=faces)
    player = RandomPlayer(seed)
    while not state.is_terminal():
        index = state.random_chance_index() if state.is_chance_node() else player.choose(state)
        recorder.apply(state, index)
    return recorder.record


# ------------------------------------------------------------------ checking
def check_format(record: Any, game: Game | None = None) -> Verdict | None:
    """None if ``record`` is a record of the game (default: the rules loaded) by its schema, its
    faces read and its switches exist; else a not-a-record verdict (:meth:`RecordFormat.check`)."""
    return record_format(game if game is not None else load_rules()).check(record)


def validate(record: Any, interpretations: Mapping[str, str] | None = None, data: str | None = None,
             game_name: str | ResolvedGame | None = None) -> Verdict:
    """Check a record (parsed JSON) against the rules of a game (None: the selected one; or one resolved
    already); never raises.

    ``interpretations`` (switch id → value) override the record's header.
    """
    try:
        form = _format(game_name, data)
        bad = form.check(record)
    except Exception as err:  # never raise: a bug here must still be an answer
        return _internal_error(err)
    return bad if bad is not None else _validate_checked(form.game, record, interpretations, form.faces)


def _format(game: str | ResolvedGame | None, data: str | None) -> RecordFormat:
    """The record format of a game by name (None: the selected one), or resolved already (with ``data``
    None: its rules and faces as they are; else its tables replaced)."""
    if isinstance(game, ResolvedGame) and data is None:
        return format_of(game)
    return record_format(rules_of(game, data))


def _internal_error(err: Exception) -> Verdict:
    if isinstance(err, RecursionError):
        return not_a_record("$", "nested too deeply")
    return not_a_record("$", f"internal error while validating: {type(err).__name__}: {err}")


def _validate_checked(game: Game, record: Any, interpretations: Mapping[str, str] | None,
                      faces: Faces | None = None) -> Verdict:
    """:func:`validate` for a record that passed :func:`check_format` (``faces``: the game's, if known)."""
    try:
        chosen = dict(record.get("interpretations", {}))
        chosen.update(interpretations or {})
        try:
            settings = game.settings_for(chosen)
        except ValueError as err:
            return not_a_record("$.interpretations", str(err))
        return check_entries(game, record, settings, record_format(game).faces if faces is None else faces)
    except Exception as err:  # never raise: a bug here must still be an answer
        return _internal_error(err)


def prepare(record: Any, interpretations: Mapping[str, str] | None, data: str | None,
            game_name: str | ResolvedGame | None = None) -> tuple[RecordFormat, dict[str, str]]:
    """The record format (the rules and how they write pieces) and the switch settings a well-formed record
    is read with; ValueError if it is not a record.  ``game_name``: a game by name (None: the selected one),
    or resolved already (with ``data`` None: its rules and faces as they are)."""
    form = _format(game_name, data)
    bad = form.check(record)
    if bad is not None:
        raise ValueError(bad.format())
    chosen = dict(record.get("interpretations", {}))
    chosen.update(interpretations or {})
    return form, form.game.settings_for(chosen)


def replay(record: Any, at: int | None = None, interpretations: Mapping[str, str] | None = None,
           data: str | None = None,
           game_name: str | ResolvedGame | None = None) -> tuple[State, Verdict, Callable[[int], bool]]:
    """The state after the first ``at`` entries (all if None), the verdict of that prefix,
    and which pieces' faces the record has stated (players-eye records show only those); ``game_name``
    as :func:`prepare` takes it."""
    form, settings = prepare(record, interpretations, data, game_name)
    run = RecordWalk(form.game, record, settings, form.faces, stop=at)
    verdict = run.run()
    if record["kind"] == OMNISCIENT:
        return run.state, verdict, lambda t: True
    observed = set(run.observed)
    return run.state, verdict, lambda t: t in observed or run.state.face_up[t]


def walk(record: Any, interpretations: Mapping[str, str] | None = None, data: str | None = None,
         game_name: str | ResolvedGame | None = None) -> tuple[list[tuple[int, State]], Verdict]:
    """The state before each action entry of a record (copies), and the verdict (``game_name`` as
    :func:`prepare` takes it).

    Stops at the first illegal entry; raises ValueError if it is not a record.
    """
    form, settings = prepare(record, interpretations, data, game_name)
    states: list[tuple[int, State]] = []
    verdict = RecordWalk(form.game, record, settings, form.faces).run(
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
                          tried_one: Callable[[int, int], None] | None = None,
                          game_name: ResolvedGame | None = None) -> InterpretationReport:
    """Search the switch settings under which a record is legal.

    Start from the header's settings; try every other value of every switch,
    one at a time.  If none is legal, keep the change that got furthest (the
    latest first illegal entry) and try single changes on top of it again, up
    to ``rounds`` times.  Every setting tried is reported with its verdict.
    ``tried_one(done, expected)`` is called after each setting tried, with how
    many were tried and how many the rounds begun so far try (for progress bars).  ``game_name``: the game
    resolved once by the caller (with ``data`` None: as it is); None: the selected game with ``data``.
    """
    form = _format(game_name, data)
    game = form.game
    bad = form.check(record)
    if bad is not None:
        return InterpretationReport((), (), (), bad)
    header_settings = {game.switches[k].ident: v for k, v in game.settings_for(record.get("interpretations")).items()}
    tried: dict[tuple[tuple[str, str], ...], Verdict] = {}

    per_round = sum(len(d.options) - 1 for d in game.switches.values())
    begun = [1]

    def attempt(changes: dict[str, str]) -> Verdict:
        key = tuple(sorted(changes.items()))
        if key not in tried:
            tried[key] = _validate_checked(game, record, changes, form.faces)
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

