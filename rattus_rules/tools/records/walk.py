"""Walking a record of a game: its entries checked against the rules, one by one.

A record is a game written down as entries, in the order things happened: a
player's action (``{"by": "P0", "action": ...}``), a chance outcome (``{"by":
"chance", "action": ...}``), and right after an entry that turned pieces face
up, one ``{"reveal": FACE}`` per piece; ``{"look": FACE, "by": SEAT}`` when a
player was shown a face.  A record is *omniscient* (every piece a chance
outcome brings into play is written by its face) or *players-eye* (such a piece
is written as unknown; reveal and look entries state faces).  The header says
the seats, the kind, optionally the seed and the component digest.

Records write pieces by their *faces*, never by an id: the side that tells
pieces apart for the players; pieces of one face are interchangeable until the
record identifies one.  How a game writes and reads faces comes in as a
:class:`Faces` (its package's words); nothing here knows a game.

:class:`RecordWalk` plays the record on a state made with ``lazy=True`` (an
action entry is tested on its own, see :meth:`interpreter.runtime.State.admitted`)
and answers with a :class:`Verdict`: legal (finished with scores, or so far),
illegal (the first bad entry, why, the rule and its citations, what was legal
there), or not a record.  How a players-eye record is checked: pieces whose
face the record has not stated are interchangeable; an unknown draw takes any
piece the rules allow; when the record later states a face the piece in play
does not show, a piece of that face takes its place, moving up to
:data:`CYCLE_LIMIT` pieces round (:func:`interpreter.edit.exchange_identities`),
provided no stated face changes and every earlier chance outcome could still
have happened.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from interpreter import notation
from interpreter.ast import Citation
from interpreter.codegen import Values
from interpreter.compiler import Branch, Decision, Pending
from interpreter.edit import exchange_identities, looked_since, newly_revealed, newly_seen, refresh, turned_face_up
from interpreter.errors import IllegalAction, RulesError
from interpreter.game import Game
from interpreter.runtime import State
from interpreter.session import citation_json
from interpreter.types import PieceType

OMNISCIENT = "omniscient"
PLAYERS_EYE = "players-eye"
KINDS = (OMNISCIENT, PLAYERS_EYE)
CHANCE = notation.CHANCE
LEGAL, ILLEGAL, NOT_A_RECORD = "legal", "illegal", "not-a-record"
#: How often the faces of one entry's pieces may be rebound before giving up.
REBIND_LIMIT = 200
#: The most pieces one rebinding may move round, and how many moves it may try.
CYCLE_LIMIT = 4
SEARCH_BUDGET = 4000
#: How many texts read from records the option texts of a game remember (see :class:`_OptionTexts`).
MEMORY = 50_000
#: How many player decisions the listed passes of a game count options at, to choose the pass
#: (:func:`check_entries`), and above how many options per decision on average the lazy pass is chosen.
#: Measured on the shipped games' conformance records (callgrind): a game that lists about 15 options per
#: player decision takes 0.6x the instructions on its listed pass; one that lists 160-230 takes 0.65x on
#: its lazy pass (a listing tries every place for a piece, a lazy pass tests the one the record names).
LISTING_SAMPLE = 50
LAZY_ABOVE = 50

Option = tuple[int, tuple[Any, ...]]


class Faces(Protocol):
    """How a game's records write its pieces: by their faces (a game's package provides it)."""

    @property
    def unknown(self) -> str:
        """How a record writes a piece whose face its writer did not see (such as ``?``)."""
        ...

    @property
    def form(self) -> str:
        """How a face is written, for messages."""
        ...

    @property
    def noun(self) -> str:
        """What the game calls its pieces, for messages (``piece``, ``stone``)."""
        ...

    @property
    def pattern(self) -> str:
        """A regular expression matching every written face (and perhaps more), for the
        record's JSON Schema: unanchored, in the dialect JSON Schema shares with Python."""
        ...

    @property
    def example(self) -> str:
        """A face as written, for messages."""
        ...

    def written(self, piece: int) -> str:
        """A piece's face, written the one way records write it."""
        ...

    def canonical(self, word: str) -> str:
        """The one writing of the face ``word`` writes (in any writing the game accepts);
        ValueError saying why if it writes none."""
        ...

    def looks_like_face(self, word: str) -> bool:
        """Whether a word is meant as a face (rather than another value of an action)."""
        ...

    def __hash__(self) -> int:
        """Faces are kept with what is made from them per game: they are values (hashable)."""
        ...


@attrs.frozen(eq=False)
class RowFaces:
    """Faces for a game whose package says nothing of them: a piece's face is its table row.

    The row's values but its key and provenance, in column order, are joined by ``:``
    (a flag ``yes`` or ``no``, a list's items by ``+``, white space written ``_``); a piece with no other column
    is written by the name of its kind.  Pieces with equal rows look alike: records
    cannot tell them apart, as players cannot.  A word is a face only if some piece
    shows it, exactly.  A piece not seen is written ``?`` (``??`` if a piece shows ``?``...).
    """

    game: Game
    noun: str = "piece"

    @functools.cached_property
    def unknown(self) -> str:
        """How a piece not seen is written: ``?``, or as many ``?`` as it takes to be no piece's face."""
        word = "?"
        while word in self._faces:
            word += "?"
        return word

    @functools.cached_property
    def _by_piece(self) -> tuple[str, ...]:
        game = self.game
        keys = {name: game.tables[decl.table].key for name, decl in game.symbols.pieces.items()}
        out = []
        for piece, row in enumerate(game.piece_rows):
            kind = game.piece_types[piece]
            skip = {keys[kind], game.piece_provenance_column[piece]}
            values = [_face_word(v) for k, v in row.items() if k not in skip]
            out.append(":".join(values) if values else kind)
        return tuple(out)

    @functools.cached_property
    def _faces(self) -> frozenset[str]:
        return frozenset(self._by_piece)

    @property
    def form(self) -> str:
        """How a face is written, for messages: the columns it is made of."""
        game = self.game
        kinds = []
        for name, decl in game.symbols.pieces.items():
            table = game.tables[decl.table]
            columns = [c for c in table.columns if c not in (table.key, table.provenance_column)]
            kinds.append(":".join(columns) if columns else f"the word {name}")
        return " or ".join(dict.fromkeys(kinds)) or "no face"

    @property
    def example(self) -> str:
        """The first piece's face."""
        return self._by_piece[0] if self._by_piece else self.unknown

    @property
    def pattern(self) -> str:
        """Every face there is, spelled out (syntax characters escaped, as both Python and ECMA 262 read them)."""
        return "(" + "|".join(_literal(f) for f in sorted(self._faces, key=lambda f: (-len(f), f))) + ")"

    def written(self, piece: int) -> str:
        """The piece's face: its row's values (see the class)."""
        return self._by_piece[piece]

    def canonical(self, word: str) -> str:
        """The face itself, if a piece shows it; else ValueError naming some that do."""
        if word in self._faces:
            return word
        some = sorted(self._faces)
        shown = ", ".join(some[:8]) + (f" … ({len(some) - 8} more)" if len(some) > 8 else "")
        raise ValueError(f"no {self.noun} shows the face {word[:40]!r} (faces: {shown})")

    def looks_like_face(self, word: str) -> bool:
        """Whether a piece shows this face."""
        return word in self._faces


#: The characters a regular expression of JSON Schema (ECMA 262) escapes to read them literally: only these
#: (ECMA 262 refuses the other escapes :func:`re.escape` makes, of - # & ~ and spaces, under its u flag).
_SYNTAX = re.compile(r"([\^$\\.*+?()\[\]{}|/])")


def _literal(text: str) -> str:
    """A regular expression matching ``text`` alone, read alike by Python and by ECMA 262."""
    return _SYNTAX.sub(r"\\\1", text)


def _face_word(value: Any) -> str:
    """A value of a table row in a face: a flag as ``yes``/``no`` (as tables write it), a list's items by ``+``."""
    if isinstance(value, bool):
        return notation.YES if value else notation.NO
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value) if isinstance(value, set | frozenset) else value
        return notation.LIST_JOIN.join(_face_word(v) for v in items)
    return "_".join(str(value).split()) or "_"


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

@attrs.frozen
class Verdict:
    """What the validator says about a record.

    ``status`` is ``legal``, ``illegal`` or ``not-a-record``.  ``entries`` is
    how many entries were checked and found legal.  A legal record has
    ``finished`` with ``scores`` and ``winners``, or says who is ``next``.  An
    illegal one names the first bad entry (``index``, 0-based as in the JSON
    path ``$.entries[index]``), ``reason``, the ``rule`` asking the decision,
    its ``citations`` and the ``legal`` alternatives there.  A
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
    label = notation.seat(seat)
    if seats and 0 <= seat < len(seats) and seats[seat] != label:
        return f"{label} ({seats[seat]})"
    return label


#: The longest JSON path and reason a not-a-record verdict gives (they may quote the record: cut past these).
MAX_PATH, MAX_REASON = 200, 500


def not_a_record(path: str, reason: str) -> Verdict:
    """The verdict for input that is not a record (its path and reason cut to :data:`MAX_PATH`, :data:`MAX_REASON`)."""
    return Verdict(NOT_A_RECORD, path=_cut(path, MAX_PATH), reason=_cut(reason, MAX_REASON))


def _cut(text: str, limit: int) -> str:
    """A text, cut to ``limit`` characters (the last one an ellipsis) if longer."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


@attrs.define
class _Snapshot:
    """A chance outcome that named a piece: the state before it and the option taken."""

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


class Rewind(Exception):
    """A fast pass needs the states before the chance outcomes, which it did not keep."""


class _Incomplete(Exception):
    """The record ends before the faces of the pieces its last entry turned face up."""

    def __init__(self, waiting: str):
        self.waiting = waiting


class RecordWalk:
    """One pass over a record under fixed settings.

    With ``keep`` false (a fast pass) no copies of states are kept, neither
    before chance outcomes nor before entries whose faces follow; if the pass
    then needs them, to let pieces trade places (:meth:`partner`), it raises
    :class:`Rewind` and the record is validated again with ``keep``.  A
    record whose faces match the pieces as drawn (every legal omniscient
    record, and a players-eye record that follows its seed) never needs them.
    """

    def __init__(self, game: Game, record: Mapping[str, Any], settings: dict[str, str], faces: Faces,
                 stop: int | None = None, keep: bool = True, listed: bool = False):
        self.game = game
        self.faces = faces
        self.keep = keep
        self.listed = listed
        self.record = record
        self.entries: list[dict[str, Any]] = list(record["entries"])
        self.kind = record["kind"]
        self.seats = list(record["seats"])
        self.settings = settings
        self.stop = len(self.entries) if stop is None else max(0, min(stop, len(self.entries)))
        # lazy: an action entry is tested on its own (State.admitted), no decision is listed for it; or
        # (``listed``, see check_entries) every decision is listed as it is reached, and an action entry is
        # still tested on its own
        self.state = game.new_state(len(self.seats), seed=int(record.get("seed", 0)), settings=settings,
                                    lazy=not listed)
        self.observed: set[int] = set()
        self.first_seen: dict[int, int] = {}
        self.snapshots: list[_Snapshot] = []
        self.ended_at: int | None = None
        self.warnings: list[str] = []
        #: whether the chance entries so far are what the header's seed gives (then it is followed on)
        self.follow_seed = "seed" in record
        self.texts = _option_texts(game, faces)
        self.seat_words = [notation.seat(p) for p in range(len(self.seats))]
        digest = record.get("components", {}).get("sha256")
        if digest is not None and digest != components_digest(game):
            self.warnings.append("the record was made with other component data (its sha256 differs from the "
                                 "tables loaded here); faces may not match")

    # ------------------------------------------------------------- results
    def verdict(self, status: str, **kw: Any) -> Verdict:
        """A :class:`Verdict` of this status with the pass's warnings and its settings (by public switch id)."""
        settings = _public_settings(self.game, tuple(self.settings.items()))
        return Verdict(status, warnings=tuple(self.warnings), settings=settings, **kw)

    def run(self, before: Callable[[int, State], None] | None = None) -> Verdict:
        """Walk the entries up to the stop (``before(index, state)`` called before each); the verdict."""
        i = 0
        try:
            if before is None and not self.keep:
                i = self.run_fast()
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

    def run_fast(self) -> int:
        """:meth:`step` over every entry up to the stop, for a fast pass: the usual entry (an action of
        the player or chance event the game waits for) is taken here as :meth:`step` and :meth:`apply`
        take it, with fewer calls (with :meth:`apply` itself if reveal or look entries follow it); any
        other entry by :meth:`step`.  The index reached."""
        entries, stop, seat_words, texts = self.entries, self.stop, self.seat_words, self.texts
        slots_of, observed, first_seen = texts.slots, self.observed, self.first_seen
        listed, omniscient = self.listed, self.kind == OMNISCIENT
        drawn, chance_player = texts.drawn, notation.CHANCE_PLAYER
        sample = listed and texts.sampled[0] < LISTING_SAMPLE  # (count the options of player decisions)
        decisions = options = 0
        i = 0
        # which pieces lie face up (a copy), once made: with no look entry after an entry, whom it let look
        # at a piece changes nothing the record states (see settle), what it turned face up does
        marks: list[bool] | None = None
        while i < stop:
            entry = entries[i]
            text = entry.get("action")
            st = self.state
            pending = st.pending
            nxt = i + 1
            if text is None or pending is None or "  " in text or text != text.strip():
                i = self.step(i)
                marks = None
                continue
            player = pending.player
            index: int | None
            if player == chance_player:
                if entry["by"] != CHANCE:
                    i = self.step(i)
                    marks = None
                    continue
                if self.follow_seed:  # the usual case (see match_chance): the piece the seed draws, as written
                    index = st.random_chance_index()
                    option = pending.options[index]
                    hidden = drawn(pending, text, None, option, omniscient)
                    if hidden is None:
                        option, unknown, index = self.match_drawn(i, text, index)
                    else:
                        unknown = hidden
                else:
                    option, unknown, index = self.match_drawn(i, text, None)
            else:
                if entry["by"] != seat_words[player]:
                    i = self.step(i)
                    marks = None
                    continue
                index = None
                found: Option | None
                if listed:  # (found among the listed options: then taken by its index)
                    if sample:
                        decisions += 1
                        options += len(pending.options)
                    hit = st.admitted_listed(text)
                    if hit is not None:
                        found, index = hit
                    else:
                        found = st.admitted(text)
                else:
                    found = st.admitted(text) if not pending.listed else texts.action(pending, text)
                if found is None:  # (nothing changed: step looks closer)
                    i = self.step(i)
                    marks = None
                    continue
                option, unknown = found, False
            if nxt < stop and "action" not in entries[nxt]:  # reveal or look entries follow: apply reads them
                reached = self.apply_revealed(i, option, unknown, index)  # (the usual one: quicker)
                i = self.apply(i, option, unknown, index) if reached is None else reached
                marks = None
                continue
            # apply, with no reveal or look entry after
            branch = pending.decision.branches[option[0]]
            slots = slots_of.get(id(branch))
            if slots is None:
                slots = texts.piece_slots(branch)
            if marks is None:
                marks = st.face_up.copy()
            was_up = marks
            if index is not None:  # (an index is only found among options listed: reading them lists them)
                st.apply_index(index)
            else:
                st.apply_option(option)
            values = option[1]
            if was_up == st.face_up:  # (then the copy still holds)
                if slots and not unknown:
                    for k in slots:
                        t = values[k]
                        if t not in observed:
                            observed.add(t)
                            first_seen[t] = i
                if st.pending is None and self.ended_at is None:
                    self.ended_at = i
                i = nxt
                continue
            marks = None
            i = self.settle(i, [values[k] for k in slots], unknown, st, turned_face_up(was_up, st), [], [], [], nxt)
        if sample:
            texts.sampled[0] += decisions
            texts.sampled[1] += options
        return i

    def waiting(self) -> str:
        """Who the game waits for, and at which decision, for messages (``nobody`` once it is over)."""
        st = self.state
        if st.is_terminal():
            return "nobody (the game is over)"
        who = CHANCE if st.is_chance_node() else seat_name(st.current_player, self.seats)
        return f"{who} (decision `{st.decision_rule()}`)"

    def to_move(self) -> str:
        """Who decides next, and at which decision, for a legal verdict's ``next`` (the game is not over)."""
        st = self.state
        if st.is_chance_node():
            return f"chance ({st.decision_rule()})"
        return f"{seat_name(st.current_player, self.seats)} ({st.decision_rule()})"

    def legal_texts(self) -> list[str]:
        """The legal options at the current decision, as a record writes them, without repeats."""
        st = self.state
        if st.pending is None:
            return []
        texts = [" ".join(option_words(st, o, self.faces.written)) for o in st.pending.options]
        return list(dict.fromkeys(texts))

    def illegal(self, index: int, reason: str, citations: Sequence[Citation] | None = None) -> _Illegal:
        """The error for illegal entry ``index``: why, the decision's rule and citations, the legal options."""
        st = self.state
        return _Illegal(index, reason, st.decision_rule(),
                        st.decision_citations() if citations is None else citations, self.legal_texts())

    # --------------------------------------------------------------- steps
    def step(self, i: int) -> int:
        """Check entry i (an action) and the reveal/look entries after it; return the next index."""
        entry = self.entries[i]
        st = self.state
        text = entry.get("action")
        if text is None:  # a reveal or a look entry (an entry of the format is one of the three shapes)
            if "reveal" in entry:
                noun = self.faces.noun
                raise self.illegal(i, f"no {noun} is turned face up here: a reveal entry follows the entry that "
                                   f"turned the {noun}", ())
            raise self.illegal(i, f"nobody looks at a {self.faces.noun} here: a look entry follows the action "
                               "that let its player look", ())
        pending = st.pending
        if pending is None:
            raise _Illegal(i, f"the game is over (it ended with entry {self.ended_at})", "", (), ())
        by = entry["by"]
        if "  " in text or text != text.strip():
            text = " ".join(text.split())
        player = pending.player
        expected = CHANCE if player == notation.CHANCE_PLAYER else self.seat_words[player]
        if by != expected:
            waiting = CHANCE if st.is_chance_node() else seat_name(st.current_player, self.seats)
            raise self.illegal(i, f"the game waits for {waiting} (decision `{st.decision_rule()}`), not for {by}")
        if by == CHANCE:
            option, unknown, index = self.match_chance(i, text)
        else:
            (option, unknown), index = self.match_action(i, text), None
        return self.apply(i, option, unknown, index)

    def match_action(self, i: int, text: str) -> tuple[Option, bool]:
        """The option a player's action entry names, and ``True`` with it if a piece is written unknown.

        The text the rules give the option is tested on its own where the decision is not
        listed (:meth:`State.admitted`), else looked up among the options' own texts (made once
        per game, see :class:`_OptionTexts`).  A piece the action binds is written by its face,
        as in chance entries: any piece of that face the rules allow there is taken, one the
        record has not identified first (a players-eye record may write unknown a piece its
        viewer cannot see).  :meth:`State.find` explains an entry that is not legal.
        """
        st = self.state
        assert st.pending is not None
        option = (st.admitted(text) if self.listed or not st.pending.listed
                  else self.texts.action(st.pending, text))
        if option is not None:
            return option, False
        words = text.split()
        if any(w == self.faces.unknown or self.faces.looks_like_face(w) for w in words[1:]):
            candidates, unknown, near = self.face_candidates(words)
            if not candidates:  # a face no piece there shows: perhaps an unstated piece can trade places
                candidates, unknown, near = self.trade_for(i, words, near)
            if unknown and self.kind == OMNISCIENT:
                raise self.illegal(i, f"an omniscient record writes the face of every {self.faces.noun} an action "
                                   "names")
            if candidates:
                fresh = [o for o in candidates if not any(v in self.observed for v in self.option_pieces(o))]
                return (fresh or candidates)[0], unknown
        try:
            return st.pending.options[st.find(text)], False
        except IllegalAction as err:
            raise _Illegal(i, err.reason, st.decision_rule(), err.citations, err.legal) from None

    def match_chance(self, i: int, text: str) -> tuple[Option, bool, int | None]:
        """The option a chance entry names; ``True`` with it if a piece is written unknown; and the
        option's index among the listed options where that is known (else None)."""
        return self.match_drawn(i, text, self.seeded_index())

    def match_drawn(self, i: int, text: str, seeded_index: int | None) -> tuple[Option, bool, int | None]:
        """:meth:`match_chance`, the seed's outcome drawn already (:meth:`seeded_index`: None while the
        record does not follow its seed)."""
        st = self.state
        words = text.split()
        assert st.pending is not None
        if seeded_index is None:
            seeded = None
        else:
            seeded = st.pending.options[seeded_index]
            # the usual case: one piece drawn, the one the seed draws, written as this kind writes it
            drawn = self.texts.drawn(st.pending, text, words, seeded, self.kind == OMNISCIENT)
            if drawn is not None:
                return seeded, drawn, seeded_index
        candidates, unknown = self.texts.outcomes(st.pending, words)
        near: list[tuple[Option, int, str]] = []
        if not candidates:  # none has this text: look closer (a face no piece here shows, a typo...)
            candidates, unknown, near = self.face_candidates(words)
        if unknown and self.kind == OMNISCIENT:
            raise self.illegal(i, f"an omniscient record writes the face of every {self.faces.noun} that enters "
                               f"play (or make the record {PLAYERS_EYE})")
        if self.kind == PLAYERS_EYE and self.states_a_face(candidates or [o for o, _, _ in near], words):
            raise self.illegal(i, f"a {PLAYERS_EYE} record writes every {self.faces.noun} a chance outcome brings "
                               f"into play as {self.faces.unknown} (nobody sees its face then; reveal and look "
                               f"entries state faces); a face here is what an {OMNISCIENT} record writes")
        if not candidates:  # a stated face no piece here shows: perhaps an unstated piece can trade places
            candidates, unknown, near = self.trade_for(i, words, near)
        if not candidates:
            hint = ""
            faces = self.faces
            for word in words[1:]:
                if word.startswith(notation.PIECE_PREFIX):
                    hint = (f": a record writes a piece by its face ({faces.form}) or {faces.unknown}, "
                            "never by an id")
                    break
                if faces.looks_like_face(word) and word != faces.unknown:
                    try:
                        faces.canonical(word)
                    except ValueError as err:
                        hint = f": {err}"
                        break
                    hint = f": no piece {word} can come out of this chance event"
            raise self.illegal(i, f"{text!r} is not a possible outcome of chance event `{st.decision_rule()}`{hint}")
        if seeded is not None:
            if seeded in candidates:  # the piece the seed draws (if it is hidden, the one it will show)
                return seeded, unknown, None
            words_seeded = option_words(st, seeded, self.faces.written)
            self.seed_differs(f"its generator gives {' '.join(words_seeded)!r} at entry {i}")
        if unknown:  # any piece the rules allow: prefer one the record has not identified
            fresh = [o for o in candidates if not any(v in self.observed for v in self.option_pieces(o))]
            return (fresh or candidates)[0], True, None
        return candidates[0], False, None

    def trade_for(self, i: int, words: list[str], near: list[tuple[Option, int, str]]
                  ) -> tuple[list[Option], bool, list[tuple[Option, int, str]]]:
        """For words that state a face no piece here shows (``near``: the options that differ in
        one piece): let an unstated piece of that face trade places with it, then match again."""
        st = self.state
        for option, piece, face in near:
            if piece in self.observed:
                continue
            # this option, with the piece of the face in place of ``piece``, must be possible too
            self.snapshots.append(_Snapshot(st.clone(), option))
            try:
                swaps = self.partner(i, piece, face, set())
            except _Illegal:
                continue
            finally:
                self.snapshots.pop()
            self.exchange(swaps)
            refresh(st)
            return self.face_candidates(words)
        return [], False, near

    def states_a_face(self, options: list[Option], words: list[str]) -> bool:
        """Whether the words write a face (not unknown) where these options have a piece."""
        st = self.state
        assert st.pending is not None
        for option in options[:1]:
            branch = st.pending.decision.branches[option[0]]
            return any(isinstance(b.type, PieceType) and w != self.faces.unknown
                       for b, w in zip(branch.bindings, words[1:]))
        return False

    def seeded_index(self) -> int | None:
        """While the record follows its header's seed: the index of the chance outcome the seed's generator
        gives here (drawn from the state's generator: call it once per chance entry)."""
        st = self.state
        if not self.follow_seed or st.pending is None:
            return None
        return st.random_chance_index()

    def seed_differs(self, how: str) -> None:
        """Warn (once) that the chance entries are not those of the header's seed, and stop following it."""
        self.follow_seed = False
        self.warnings.append(f"the header's seed {self.record['seed']} did not play this game: {how} (the seed "
                             "is not needed to validate; the entries are checked as they are)")

    def face_candidates(self, words: list[str]) -> tuple[list[Option], bool, list[tuple[Option, int, str]]]:
        """Options (of a chance event or a player's decision) matching the words, pieces by face;
        whether a piece is written unknown; and the options that differ only in the face of one
        piece (with that piece and the face wanted)."""
        st = self.state
        assert st.pending is not None
        unknown = False
        candidates: list[Option] = []
        near: list[tuple[Option, int, str]] = []
        for option in st.pending.options:
            branch = st.pending.decision.branches[option[0]]
            if branch.verb != words[0] or len(branch.bindings) != len(words) - 1:
                continue
            ok = True
            wrong: list[tuple[int, str]] = []
            for value, binding, word in zip(option[1], branch.bindings, words[1:]):
                if notation.is_piece_type(binding.type):
                    if word == self.faces.unknown:
                        unknown = True
                        continue
                    try:
                        want = self.faces.canonical(word)
                    except ValueError:
                        ok = False
                        break
                    if want != self.faces.written(value):
                        wrong.append((value, want))
                elif notation.value_word(value, binding.type, self.game.piece_words) != word:
                    ok = False
                    break
            if ok and not wrong:
                candidates.append(option)
            elif ok and len(wrong) == 1:
                near.append((option, *wrong[0]))
        return candidates, unknown, near

    def option_pieces(self, option: Option, state: State | None = None) -> list[int]:
        """The pieces an option binds (its piece values), at the decision of ``state`` (default: the current one)."""
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

    def apply(self, i: int, option: Option, unknown: bool, index: int | None = None) -> int:
        """Take entry ``i``'s option (``index``: its index among the listed options, if known), rebinding
        pieces so the reveal and look entries after it match; the next index."""
        nxt = i + 1
        entries = self.entries
        if nxt < self.stop and "action" not in entries[nxt]:  # a reveal or look entry follows
            reveals, looks, nxt = self.observations(i)
        else:
            reveals, looks = [], []
        pre = self.state
        pending = pre.pending
        assert pending is not None
        pieces = self.option_pieces(option)
        if pieces and self.keep:
            self.snapshots.append(_Snapshot(pre.clone(), option))
        if not (reveals or looks) or not self.keep:  # no copy to rebind from: none needed, or a fast pass
            was_up, was_seen = pre.face_up.copy(), pre.seen.copy()
            if index is not None and pending.listed:  # (an option just listed: taken by its index)
                pre.apply_index(index)
            else:
                pre.apply_option(option)
            if not (reveals or looks) and was_up == pre.face_up and was_seen == pre.seen:
                # nothing turned, looked at or stated
                if pieces and not unknown:
                    observed = self.observed
                    for t in pieces:
                        if t not in observed:
                            observed.add(t)
                            self.first_seen[t] = i
                if self.ended_at is None and pre.pending is None:
                    self.ended_at = i
                return nxt
            revealed, seen = turned_face_up(was_up, pre), looked_since(was_seen, pre)
            if (reveals or looks) and self.first_mismatch(revealed, reveals, seen, looks) is not None:
                raise Rewind  # pieces must trade places: the full pass does that
            return self.settle(i, pieces, unknown, pre, revealed, seen, reveals, looks, nxt)
        chosen = set(pieces)
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
                self.seed_differs(f"the {self.faces.noun} it draws shows {self.faces.written(piece)}, entry {index} "
                                  f"states {face}")
            swaps = self.partner(index, piece, face, busy | (set() if unknown else chosen))
            self.exchange(swaps)
            option = (option[0], tuple(_permute(v, swaps) if self.is_piece_arg(option, k) else v
                                       for k, v in enumerate(option[1])))
            chosen = {_permute(t, swaps) for t in chosen}
            refresh(pre)
        else:
            raise _Illegal(i, f"the faces written after this entry cannot be matched to {self.faces.noun}s")
        return self.settle(i, self.option_pieces(option), unknown, after, revealed, seen, reveals, looks, nxt)

    def apply_revealed(self, i: int, option: Option, unknown: bool, index: int | None) -> int | None:
        """:meth:`apply` in a fast pass, for the usual entry followed by reveal entries alone (no look entry):
        taken at once where the pieces it turned face up are as many as the reveal entries and show the faces
        they state, in order; otherwise gone on with as :meth:`apply` goes on.  The next index; None (nothing
        done) where a look entry follows.  (With no look entry, whom the entry let look at a piece changes
        nothing the record states: :meth:`settle` pairs looks with look entries alone.)"""
        entries, stop = self.entries, self.stop
        reveals: list[tuple[int, str]] = []
        j = i + 1
        while j < stop:
            entry = entries[j]
            if "action" in entry:
                break
            if "reveal" not in entry:
                return None
            reveals.append((j, entry["reveal"]))
            j += 1
        st = self.state
        pending = st.pending
        assert pending is not None
        pieces = self.option_pieces(option)
        was_up = st.face_up.copy()
        if index is not None and pending.listed:  # (an option just listed: taken by its index)
            st.apply_index(index)
        else:
            st.apply_option(option)
        up = st.face_up
        revealed: list[int] | None = None
        if len(reveals) == 1:  # the usual one: a piece the entry names turned, and nothing else
            for t in pieces:
                if up[t] and not was_up[t]:
                    was_up[t] = True
                    if was_up == up:
                        revealed = [t]
                    was_up[t] = False
                    break
        if revealed is None:
            revealed = turned_face_up(was_up, st)
        if len(revealed) == len(reveals):
            faces, canonical = self.texts.faces, self.texts.canonical
            for t, (_, face) in zip(revealed, reveals):
                if faces[t] != canonical(face):
                    break
            else:  # (what settle and commit do where every face is as stated)
                if not unknown:
                    self.mark_all(pieces, i)
                for t, (k, _) in zip(revealed, reveals):
                    self.mark(t, k)
                if self.ended_at is None and st.pending is None:
                    self.ended_at = i
                return j
        if self.first_mismatch(revealed, reveals, [], []) is not None:
            raise Rewind  # pieces must trade places: the full pass does that
        return self.settle(i, pieces, unknown, st, revealed, [], reveals, [], j)

    def settle(self, i: int, pieces: list[int], unknown: bool, after: State, revealed: list[int],
               seen: list[tuple[int, int]], reveals: list[tuple[int, str]], looks: list[tuple[int, str, str]],
               nxt: int) -> int:
        """Check that the reveal and look entries after entry i account for what it turned and showed,
        then make ``after`` the state; return the next index.  ``pieces``: the pieces entry i named."""
        # the counts must agree once the faces do
        if len(reveals) > len(revealed):
            j = reveals[len(revealed)][0]
            self.commit(i, pieces, unknown, after, revealed, reveals, seen, looks)
            raise self.illegal(j, f"entry {i} turned {len(revealed)} {self.faces.noun}(s) face up, the record gives "
                               f"{len(reveals)} reveal entries; the game waits for {self.waiting()}")
        if len(reveals) < len(revealed):
            if nxt < self.stop:
                raise _Illegal(nxt, f"entry {i} turned {len(revealed)} {self.faces.noun}(s) face up, the record gives "
                               f"the face of only {len(reveals)} (a reveal entry must follow for each)",
                               "", (), ())
            # the record (or the part replayed) ends before every face is given
            self.commit(i, pieces, unknown, after, revealed, reveals, seen, looks)
            if self.stop == len(self.entries):
                raise _Incomplete(f"the face of {len(revealed) - len(reveals)} {self.faces.noun}(s) turned face up by "
                                  f"entry {i}")
            return nxt
        extra = self.unmatched_looks(seen, looks)
        if extra is not None:
            who = self.entries[extra]["by"]
            raise _Illegal(extra, f"{who} looked at no {self.faces.noun} with entry {i} (a look entry follows the "
                           "action that let the player look)", "", (), ())
        self.commit(i, pieces, unknown, after, revealed, reveals, seen, looks)
        return nxt

    def is_piece_arg(self, option: Option, k: int) -> bool:
        """Whether value ``k`` of an option at the current decision is a piece."""
        st = self.state
        assert st.pending is not None
        return isinstance(st.pending.decision.branches[option[0]].bindings[k].type, PieceType)

    def first_mismatch(self, revealed: list[int], reveals: list[tuple[int, str]], seen: list[tuple[int, int]],
                       looks: list[tuple[int, str, str]]) -> tuple[int, int, str, set[int]] | None:
        """The first reveal or look entry whose face the piece there does not show, with the pieces
        already matched before it."""
        faces = self.texts.faces  # (compared as written: the record's format check read the entries' faces)
        canonical = self.texts.canonical
        for m, ((j, face), piece) in enumerate(zip(reveals, revealed)):
            want = canonical(face)
            if faces[piece] != want:
                return j, piece, want, set(revealed[:m])
        pairs = self.looked(seen, looks)
        for m, (j, piece, face) in enumerate(pairs):
            want = canonical(face)
            if faces[piece] != want:
                return j, piece, want, set(revealed) | {p for _, p, _ in pairs[:m]}
        return None

    def looked(self, seen: list[tuple[int, int]], looks: list[tuple[int, str, str]]) -> list[tuple[int, int, str]]:
        """Pair each look entry with a piece its player looked at (in order)."""
        out = []
        free = list(seen)
        for j, by, face in looks:
            for k, (piece, player) in enumerate(free):
                if notation.seat(player) == by:
                    out.append((j, piece, face))
                    del free[k]
                    break
        return out

    def unmatched_looks(self, seen: list[tuple[int, int]], looks: list[tuple[int, str, str]]) -> int | None:
        """The index of the first look entry with no piece its player looked at, or None."""
        if not looks:
            return None
        paired = {j for j, _, _ in self.looked(seen, looks)}
        for j, _, _ in looks:
            if j not in paired:
                return j
        return None

    def partner(self, index: int, piece: int, face: str, fixed: set[int]) -> list[tuple[int, int]]:
        """Exchanges that bring a piece of ``face`` to where ``piece`` lies, changing no stated face.

        Searches cycles of at most :data:`CYCLE_LIMIT` pieces: a piece of the
        face takes ``piece``'s place, another piece takes its place, and so on,
        until ``piece`` takes the last one's place.  A piece may take a place
        whose face the record stated only if it shows that face, and every
        chance outcome of the record must still have been possible (checked on
        the states kept before each).  Raises _Illegal if there is none.
        """
        shown = self.faces.written(piece)
        if piece in self.observed or piece in fixed:
            known = self.first_seen.get(piece)
            where = f" (the record stated its face at entry {known})" if known is not None else ""
            raise _Illegal(index, f"the {self.faces.noun} turned here shows {shown}{where}, not {face}", "", (), ())
        pieces = range(len(self.game.piece_rows))
        same = [t for t in pieces if self.texts.faces[t] == face]
        if not same:
            raise _Illegal(index, f"no {self.faces.noun} of the {self.faces.noun} set shows {face}", "", (), ())
        if not self.keep:
            raise Rewind
        state = self.state
        budget = [SEARCH_BUDGET]
        chosen_by = {t: sum(1 for snap in self.snapshots if t in self.option_pieces(snap.option, snap.state))
                     for t in pieces}

        def stated(t: int) -> bool:
            return t in self.observed or t in fixed or state.face_up[t]

        def may_take(y: int, x: int) -> bool:
            """May piece y stand where piece x lies, as far as stated faces go?"""
            return y != x and (not stated(x) or self.texts.faces[y] == self.texts.faces[x])

        def fits(chain: list[int], closed: bool) -> bool:
            """The chance outcomes that gave the places filled so far could have given their new pieces."""
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
        noun = self.faces.noun
        raise _Illegal(index, f"no {noun} {face} can lie here: the {noun} set has {len(same)} such {noun}(s)"
                       + (f", accounted for at {said}" if said else "")
                       + f" and no other unstated {noun} of that face could have come here", "", (), ())

    def admissible(self, swaps: list[tuple[int, int]], only: set[int] | None = None) -> bool:
        """Whether every chance outcome could have given the pieces these exchanges put there
        (with ``only``: the outcomes that gave these pieces)."""
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
        """An option with each piece value moved by the exchanges."""
        assert state.pending is not None
        branch = state.pending.decision.branches[option[0]]
        return (option[0], tuple(_permute(v, swaps) if isinstance(bd.type, PieceType) else v
                                 for v, bd in zip(option[1], branch.bindings)))

    def exchange(self, swaps: list[tuple[int, int]]) -> None:
        """Apply exchanges everywhere; what the record stated stays with the place, not the piece."""
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
        """Make ``after`` the state; note as observed the pieces entry ``i`` and its reveal and look entries state."""
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

    def mark_all(self, pieces: list[int], index: int) -> None:
        """:meth:`mark` each of the pieces."""
        for t in pieces:
            self.mark(t, index)

    def mark(self, piece: int, index: int) -> None:
        """Note a piece as observed, first stated by entry ``index`` (if not yet)."""
        if piece not in self.observed:
            self.observed.add(piece)
            self.first_seen[piece] = index


class _OptionTexts:
    """Options by the texts records write, made once per game and option.

    An action entry is the text the rules give the option (the text
    :meth:`State.find` reads); a chance entry writes each piece as its face,
    or as unknown (players-eye).  Looking an entry up here replaces making the
    texts of every legal option at every step; only texts the rules made are
    kept, so the memory is bounded by the game, not by the records read.
    """

    def __init__(self, game: Game, faces: Faces):
        self.game = game
        self.how = faces
        self.faces = [faces.written(t) for t in range(len(game.piece_rows))]
        self.actions: dict[tuple[int, str], Option] = {}  # (id of the decision, text) -> option
        self.written: dict[tuple[int, bool, Option], str] = {}  # (id of the decision, hidden, option) -> text
        self.slots: dict[int, tuple[int, ...]] = {}  # id of a branch -> where its pieces are
        #: (id of a chance decision, a chance entry's text, omniscient) -> whether its pieces are written unknown
        #: and the text with its faces in their one writing, or () for a text :meth:`drawn` leaves to
        #: :meth:`outcomes`; for up to MEMORY texts (they come from records)
        self.drawn_texts: dict[tuple[int, str, bool], tuple[bool, str] | tuple[()]] = {}
        self.canonical_faces: dict[str, str] = {}  # a face as written -> its one writing (see canonical)
        #: player decisions the listed passes of fast walks went through (to LISTING_SAMPLE) and their options
        self.sampled = [0, 0]

    def prefers_lazy(self) -> bool:
        """Whether records of this game are walked quicker by the lazy pass than by the listed one: once
        :data:`LISTING_SAMPLE` player decisions are counted, where they list more than :data:`LAZY_ABOVE`
        options on average (see :func:`check_entries`)."""
        decisions, options = self.sampled
        return decisions >= LISTING_SAMPLE and options > LAZY_ABOVE * decisions

    def canonical(self, word: str) -> str:
        """The one writing of a face (:meth:`Faces.canonical`: ValueError if ``word`` writes none), remembered
        for up to :data:`MEMORY` words."""
        known = self.canonical_faces.get(word)
        if known is None:
            known = self.how.canonical(word)
            if len(self.canonical_faces) < MEMORY:
                self.canonical_faces[word] = known
        return known

    def piece_slots(self, branch: Branch) -> tuple[int, ...]:
        """Which values of a branch's options are pieces."""
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
            words = self.game.piece_words
            for o in reversed(pending.options):  # of options written alike (pieces that look alike), the first
                self.actions[(id(decision), decision.text(o, words))] = o
            option = self.actions.get(key)
        return option if option is not None and option in pending.options else None

    def drawn(self, pending: Pending, text: str, words: list[str] | None, option: Option,
              omniscient: bool) -> bool | None:
        """Whether the words write ``option`` (the seed's outcome of a chance event of one branch) as a
        record of the kind (omniscient or not) writes it without question: pieces by their faces, or
        (players-eye) unknown; then ``True`` if its pieces are written unknown.  None where
        :meth:`outcomes` and the rest of the matching must decide (another outcome, more branches, a
        face no record of the kind writes there).  ``words``: the text's words (None: split here, if needed)."""
        decision = pending.decision
        if len(decision.branches) != 1:
            return None
        shape_key = (id(decision), text, omniscient)
        shape = self.drawn_texts.get(shape_key)
        if shape is None:
            shape = self.drawn_shape(decision, text.split() if words is None else words, omniscient)
            if len(self.drawn_texts) < MEMORY:
                self.drawn_texts[shape_key] = shape
        if not shape:
            return None
        hidden, canonical = shape
        key = (id(decision), hidden, option)
        try:
            written = self.written.get(key)
        except TypeError:  # values holding lists: left to outcomes
            return None
        if written is None:
            how = self.how
            try:
                written = notation.text(decision.branches[0], option[1], self.game.piece_words, (
                    lambda t: how.unknown) if hidden else self.faces.__getitem__)
            except Exception:  # (an option no text writes: outcomes says so, for the first such option)
                return None
            self.written[key] = written
        if written != canonical:
            return None
        return hidden

    def drawn_shape(self, decision: Decision, words: list[str], omniscient: bool) -> tuple[bool, str] | tuple[()]:
        """For :meth:`drawn`, what a chance entry's words say whatever the outcome: whether its pieces are
        written unknown, and the text with each face in its one writing; ``()`` if a record of the kind
        (omniscient or not) does not write the decision's outcomes so (unknown pieces in an omniscient
        record, a face no piece has, a face where a players-eye record writes unknown)."""
        how = self.how
        hidden = how.unknown in words
        if hidden and omniscient:
            return ()
        faces = list(words)
        for k, word in enumerate(words):
            if how.looks_like_face(word):
                try:
                    faces[k] = how.canonical(word)
                except ValueError:
                    return ()
        if not omniscient and any(isinstance(b.type, PieceType) and w != how.unknown
                                  for b, w in zip(decision.branches[0].bindings, words[1:])):
            return ()  # a face where the kind writes unknown
        canonical = " ".join(faces)
        return (hidden, canonical) if canonical else ()

    def outcomes(self, pending: Pending, words: list[str]) -> tuple[list[Option], bool]:
        """The chance outcomes written as these words (faces with symbols in any order), and whether
        their pieces are written unknown."""
        hidden = self.how.unknown in words
        canonical = []
        for word in words:
            if self.how.looks_like_face(word):
                try:
                    word = self.how.canonical(word)
                except ValueError:
                    return [], hidden
            canonical.append(word)
        text = " ".join(canonical)
        decision = pending.decision
        options = pending.listing()
        if isinstance(options, Values) and len(words) == 2 and decision.branches[0].verb == words[0] \
                and isinstance(decision.branches[0].bindings[0].type, PieceType):
            # one piece drawn (the usual chance event): compare faces, make no option texts
            if hidden:
                return list(options), True
            faces = self.faces
            return [(0, (t,)) for t in options.values if faces[t] == canonical[1]], False
        ident = id(decision)
        words = self.game.piece_words
        found = []
        for option in pending.options:
            key = (ident, hidden, option)
            written = self.written.get(key)
            if written is None:
                written = self.written[key] = notation.text(decision.branches[option[0]], option[1], words, (
                    lambda t: self.how.unknown) if hidden else self.faces.__getitem__)
            if written == text:
                found.append(option)
        return found, hidden


@functools.lru_cache(maxsize=64)
def _public_settings(game: Game, settings: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """Settings (switch name, value) by public switch id, sorted, as a verdict gives them."""
    return tuple(sorted((game.switches[k].ident, v) for k, v in settings))


@functools.lru_cache(maxsize=16)
def _option_texts(game: Game, faces: Faces) -> _OptionTexts:
    return _OptionTexts(game, faces)


def _permute(v: Any, swaps: list[tuple[int, int]]) -> Any:
    for a, b in swaps:
        v = b if v == a else a if v == b else v
    return v


def option_words(state: State, option: Option, piece_word: Callable[[int], str]) -> list[str]:
    """An option's words as a record writes them: the verb, then each value (a piece by ``piece_word``)."""
    assert state.pending is not None
    return notation.words(state.pending.decision.branches[option[0]], option[1], state.game.piece_words, piece_word)




def check_entries(game: Game, record: Mapping[str, Any], settings: dict[str, str], faces: Faces) -> Verdict:
    """The verdict on a record whose format is checked: a fast pass, and if pieces must
    trade places (:class:`Rewind`), a second pass that keeps the states it needs.

    The fast pass first runs on a state that lists each decision as it is reached (the C back
    end runs such a state wholly in C), testing each action entry on its own as a lazy state
    does (:meth:`State.admitted`): it takes the same steps as the lazy pass and differs from it
    only where listing a decision fails (a decision with no option or too many, a budget spent
    sooner), and any error of it hands the record to the lazy pass, whose verdict is then the one.
    Where a game's decisions list many options (:meth:`_OptionTexts.prefers_lazy`), listing them
    costs more than the lazy pass's run in Python: then the lazy pass alone walks its records.
    """
    if not _option_texts(game, faces).prefers_lazy():
        try:
            verdict = RecordWalk(game, record, settings, faces, keep=False, listed=True).run()
        except Rewind:
            return RecordWalk(game, record, settings, faces).run()
        except Exception:  # (listing, or anything else: the lazy pass decides, as it always did)
            pass
        else:
            if verdict.state is not None:
                verdict.state.lazy = True  # the state a lazy pass leaves
            return verdict
    try:
        return RecordWalk(game, record, settings, faces, keep=False).run()
    except Rewind:
        return RecordWalk(game, record, settings, faces).run()
