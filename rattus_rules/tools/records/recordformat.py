"""The record format, for any game: its JSON Schema, the check of a record's shape, writing records.

A record (see :mod:`rattus_rules.tools.records.walk` for what its entries mean) is a
JSON object: a header (``format``, ``version``, ``kind``, ``seats``, optionally
``game``, ``viewer``, ``interpretations``, ``components``, ``seed``,
``comment``) and its ``entries``.  What differs from game to game is said by a
:class:`RecordFormat`: the format's name and version (the caller's: this module
names none), the game (its players, switches, components) and how its records
write a piece's face (:class:`Faces`, with the pattern of a face for the
schema).  :meth:`RecordFormat.schema` builds the JSON Schema from that; a
game's package may ship it as a file for other implementations (a test then
keeps the file equal to what is built).

Work and memory are bounded for any input: a text longer than
:data:`MAX_RECORD_CHARS` is refused unread, a record of more than
:data:`MAX_ENTRIES` entries before anything else, and the schema check is
compiled (fastjsonschema) and stops at the first error.

>>> from rattus_rules.tools.records.recordformat import seats_pattern
>>> seats_pattern(4), seats_pattern(12)[:20]
('P[0-3]', '(P0|P1|P2|P3|P4|P5|P')
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import fastjsonschema

from interpreter import notation
from interpreter.edit import Marks, newly_revealed, newly_seen
from interpreter.files import read_text
from interpreter.game import Game
from interpreter.runtime import State

from .walk import (
    KINDS,
    OMNISCIENT,
    PLAYERS_EYE,
    Faces,
    Verdict,
    components_digest,
    not_a_record,
    option_words,
)

#: The longest record text read, in characters (a whole game is some 10,000).
MAX_RECORD_CHARS = 4_000_000
#: The most entries a record may have (a game has a few hundred).
MAX_ENTRIES = 10_000
#: The longest action text of an entry, unless the game's faces are long (:attr:`RecordFormat.longest_action`).
MAX_ACTION = 200


def seats_pattern(count: int) -> str:
    """A regular expression (unanchored) matching the words of seats 0 .. count-1 (:func:`notation.seat`)."""
    if count <= 10:
        return f"{notation.SEAT_PREFIX}[0-{count - 1}]"
    return "(" + "|".join(notation.seat(p) for p in range(count)) + ")"


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(value: Any) -> tuple[str, int] | None:
    """Where a text (or an object's key) of parsed JSON holds a lone surrogate, and its code: ``("$.seats[0]",
    0xD800)``; None if none does.  JSON's ``\\ud800`` escapes can write them, UTF-8 cannot: such a text
    would fail wherever it is written out.  One pass, without recursion (the JSON may be deep)."""
    stack: list[tuple[str, Any]] = [("$", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found is not None:
                return where, ord(found.group())
        elif isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                found = _SURROGATE.search(key) if isinstance(key, str) else None
                if found is not None:
                    return f"{where} (a key)", ord(found.group())
                stack.append((f"{where}.{key}", child))
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", child) for i, child in reversed(list(enumerate(item))))
    return None


#: How many texts one test of :class:`_Accepted` remembers (texts of records repeat: a game's actions and faces).
ACCEPTED_MEMORY = 50_000


class _Accepted:
    """A test of a text that depends on the text alone, remembering up to :data:`ACCEPTED_MEMORY`
    texts it accepted (so the memory is bounded whatever records are read)."""

    __slots__ = ("known", "test")

    def __init__(self, test: Callable[[str], bool]):
        self.test = test
        self.known: set[str] = set()

    def __call__(self, text: str) -> bool:
        if text in self.known:
            return True
        if not self.test(text):
            return False
        if len(self.known) < ACCEPTED_MEMORY:
            self.known.add(text)
        return True


@attrs.frozen(eq=False)
class RecordFormat:
    """How records of one game are written: the format's name and version, the game, its faces.

    ``names_game``: whether the header says which game the record is of (``"game": NAME``);
    a record that names another game is then refused.  A format that does not name its
    game (the default game of a registry, whose records predate the field) still
    accepts the field when it names this game.
    """

    name: str
    version: int
    schema_id: str
    game: Game
    faces: Faces
    names_game: bool = False

    @functools.cached_property
    def _faces_read(self) -> set[str]:
        """Faces of reveal and look entries the game's faces read (:meth:`Faces.canonical`), up to
        :data:`ACCEPTED_MEMORY` (texts of records repeat)."""
        return set()

    # ------------------------------------------------------------ schema
    @functools.cached_property
    def longest_action(self) -> int:
        """The longest action text of an entry: :data:`MAX_ACTION`, or room for a verb and four
        of the game's longest faces if that is more (faces are made of table rows, of any length)."""
        faces = self.faces
        longest = max((len(faces.written(p)) for p in range(len(self.game.piece_types))), default=0)
        return max(MAX_ACTION, 40 + 4 * max(longest, len(faces.unknown)))

    @functools.cached_property
    def schema_dict(self) -> dict[str, Any]:
        """The JSON Schema of a record of this game (draft-07)."""
        game, faces = self.game, self.faces
        noun = faces.noun
        seat = seats_pattern(game.max_players)
        props: dict[str, Any] = {
            "format": {"const": self.name},
            "version": {"const": self.version},
            "game": {"description": "The game the record is of (its name in the rules).", "const": game.name},
            "kind": {
                "description": f"{OMNISCIENT}: every {noun}'s face is written when it enters play; {PLAYERS_EYE}: "
                               f"faces are known only once revealed or looked at, draws may be written with "
                               f"the face {faces.unknown}.",
                "enum": list(KINDS),
            },
            "seats": {
                "description": f"The players in turn order, the start player first: seats[0] is "
                               f"{notation.seat(0)}.",
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": 60},
                "minItems": game.min_players,
                "maxItems": game.max_players,
            },
            "viewer": {
                "description": f"Whose record a {PLAYERS_EYE} record is: a seat "
                               f"({notation.seat(0)}..{notation.seat(game.max_players - 1)}) or spectator.",
                "type": "string",
                "pattern": f"^({seat}|spectator)$",
            },
            "interpretations": {
                "description": "Interpretation switch settings by id; switches not named take their default.",
                "type": "object",
                "propertyNames": {"pattern": "^[a-z][a-z0-9_-]*$"},
                "additionalProperties": {"type": "string"},
            },
            "components": {
                "description": "Which component data the game used.",
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "source": {"description": "shipped (the tables of the rules) or a free description of "
                                              "other tables.", "type": "string"},
                    "sha256": {"description": "sha256 of the component facts (every table's rows without their "
                                              "provenance, as canonical JSON).",
                               "type": "string", "pattern": "^[0-9a-f]{64}$"},
                },
            },
            "seed": {"description": "The seed of the game's random generator, if a program played it.",
                     "type": "integer", "minimum": 0, "maximum": 2 ** 64 - 1},
            "comment": {"type": "string"},
            "entries": {"description": f"At most {MAX_ENTRIES:,} entries (a game has a few hundred).",
                        "type": "array", "maxItems": MAX_ENTRIES, "items": {"$ref": "#/$defs/entry"}},
        }
        required = ["format", "version", "kind", "seats", "entries"]
        if self.names_game:
            required.insert(2, "game")
        return {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "$id": self.schema_id,
            "title": f"{game.title} game record",
            "description": f"A game of {game.title} as a header and its entries in order: player actions, chance "
                           f"outcomes, and the faces of {noun}s turned face up or looked at.",
            "type": "object",
            "required": required,
            "additionalProperties": False,
            "properties": props,
            "$defs": {
                "seat": {"type": "string", "pattern": f"^{seat}$"},
                "face": {"description": f"A {noun}'s face: {faces.form}, e.g. {faces.example}.",
                         "type": "string", "pattern": f"^{faces.pattern}$"},
                "entry": {
                    "description": f"One of three shapes, told apart by their keys. An action {{by, action}}: a "
                                   f"player's action (by a seat) or a chance outcome (by {notation.CHANCE}), as "
                                   f"text: a verb and its values; {noun}s are written as faces or "
                                   f"{faces.unknown}. A reveal {{reveal}}: the face of a {noun} the rules turned "
                                   f"face up, in the order they were turned, right after the entry that turned "
                                   f"them. A look {{look, by}}: the face of a {noun} a player looked at, right "
                                   f"after the entry; optional.",
                    "type": "object",
                    "additionalProperties": False,
                    "minProperties": 1,
                    "properties": {
                        "by": {"type": "string", "pattern": f"^({seat}|{notation.CHANCE})$"},
                        "action": {"type": "string", "pattern": "^[a-z][a-z0-9-]*( [^ ]+)*$",
                                   "maxLength": self.longest_action},
                        "reveal": {"$ref": "#/$defs/face"},
                        "look": {"$ref": "#/$defs/face"},
                    },
                    "dependencies": {
                        "action": {"required": ["by"], "maxProperties": 2},
                        "reveal": {"maxProperties": 1},
                        "look": {"required": ["by"], "maxProperties": 2,
                                 "properties": {"by": {"$ref": "#/$defs/seat"}}},
                        "by": {"anyOf": [{"required": ["action"]}, {"required": ["look"]}]},
                    },
                },
            },
        }

    @functools.cached_property
    def _compiled(self) -> Callable[[Any], Any]:
        """The schema compiled to Python (fastjsonschema): one pass that stops at the first error."""
        check: Callable[[Any], Any] = fastjsonschema.compile(self.schema_dict)
        return check

    @functools.cached_property
    def _entries_fit(self) -> Callable[[list[Any]], bool]:
        """A quick test of a list of entries: true if each has one of the three shapes of the schema's
        ``entry``, each value matching the schema's own pattern (matched as the compiled schema
        matches it); anything else is left to the schema.  Its result is the schema's for the
        entries it accepts, at a fraction of the cost (the schema's ``dependencies`` and ``anyOf``
        are general).  An entry holding a lone surrogate is not accepted either (:func:`lone_surrogate`
        finds it), so an entry it accepts holds none: its keys are the schema's, its seat is one of
        the pattern's words, and its other texts are checked here."""
        defs = self.schema_dict["$defs"]
        props = defs["entry"]["properties"]

        def pattern(spec: dict[str, Any]) -> Callable[[str], Any]:
            # as fastjsonschema compiles a pattern: an unescaped $ is the end of the text (\Z), not of a line
            return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", spec["pattern"])).search

        by, action, face, seat = (pattern(props["by"]), pattern(props["action"]), pattern(defs["face"]),
                                  pattern(defs["seat"]))
        longest = props["action"]["maxLength"]
        surrogate = _SURROGATE.search

        def plain(text: str) -> bool:
            return text.isascii() or surrogate(text) is None

        good_by = _Accepted(lambda t: by(t) is not None)
        good_seat = _Accepted(lambda t: seat(t) is not None)
        good_action = _Accepted(lambda t: len(t) <= longest and action(t) is not None and plain(t))
        good_face = _Accepted(lambda t: face(t) is not None and plain(t))

        def fits(entry: Any) -> bool:
            if type(entry) is not dict:
                return False
            if len(entry) == 2:
                who = entry.get("by")
                if type(who) is not str:
                    return False
                text = entry.get("action")
                if text is not None:
                    return type(text) is str and good_action(text) and good_by(who)
                seen = entry.get("look")
                return type(seen) is str and good_face(seen) and good_seat(who)
            shown = entry.get("reveal")
            return len(entry) == 1 and type(shown) is str and good_face(shown)

        actions, seats, faces = good_action.known, good_by.known, good_face.known

        def all_fit(entries: list[Any]) -> bool:
            for entry in entries:  # texts accepted before pass at once (the sets hold texts only)
                if type(entry) is dict:
                    if len(entry) == 2:
                        text, who = entry.get("action"), entry.get("by")
                        if type(text) is str and type(who) is str and text in actions and who in seats:
                            continue
                    elif len(entry) == 1:
                        shown = entry.get("reveal")
                        if type(shown) is str and shown in faces:
                            continue
                if not fits(entry):
                    return False
            return True

        return all_fit

    def _common_entries(self, record: Any) -> bool:
        """Whether the record is a dict whose entries are a list of the common shapes (:attr:`_entries_fit`):
        then they break no rule of the schema and hold no lone surrogate."""
        entries = record.get("entries") if type(record) is dict else None
        return type(entries) is list and self._entries_fit(entries)

    def _schema_error(self, record: Any, common: bool | None = None) -> fastjsonschema.JsonSchemaValueException | None:
        """The first place where a record breaks the schema (header, then entries in order), or None.

        Where every entry has a common shape (``common``: known already, see :meth:`_common_entries`),
        the header is checked alone by the compiled schema; otherwise, or if the header fails, the whole
        record is.
        """
        check = self._compiled
        if common if common is not None else self._common_entries(record):
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

    def _schema_message(self, err: fastjsonschema.JsonSchemaValueException) -> str:
        name = str(err.name)
        if err.rule == "pattern" and name.endswith((".reveal", ".look")):
            shown = repr(err.value)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            return f"{shown} is not a {self.faces.noun} face ({self.faces.form}, like {self.faces.example})"
        if err.rule == "const" and name == "data.game":
            hint = (f" (choose that game: --game {err.value})"
                    if isinstance(err.value, str) and re.fullmatch(r"[A-Za-z0-9_.-]{1,60}", err.value) else "")
            return f"a record of {one_word(err.value)}, not of {self.game.name}{hint}"
        missing = [k for k in self.schema_dict["required"] if isinstance(err.value, dict) and k not in err.value]
        if err.rule == "required" and name == "data" and missing == ["game"]:
            return (f"the record names no game: a record of {self.game.name} says so "
                    f"(\"game\": \"{self.game.name}\")")
        return str(err.message).removeprefix(name).strip()

    # ------------------------------------------------------------- checks
    def check(self, record: Any) -> Verdict | None:
        """None if ``record`` is a record of this format (and its switches exist), else a not-a-record verdict.

        A record of more than :data:`MAX_ENTRIES` entries is refused before anything
        else; the schema check stops at the first error, in the schema's order: the
        header, then the entries in order; then each stated face is read by the game's
        faces, and each switch setting by the game.
        """
        entries = record.get("entries") if isinstance(record, dict) else None
        if isinstance(entries, list) and len(entries) > MAX_ENTRIES:
            return not_a_record("$.entries", f"{len(entries):,} entries: a record has at most {MAX_ENTRIES:,} "
                                             "(a whole game has a few hundred)")
        self._compiled, self._entries_fit  # noqa: B018  # made first: an error in them is the format's, not the record's
        common = self._common_entries(record)  # (then only the header may hold a lone surrogate)
        found = lone_surrogate({**record, "entries": []} if common else record)
        if found is not None:
            where, code = found
            return not_a_record(where, f"a lone surrogate (U+{code:04X}) is not a character: a record's text must be "
                                       "Unicode that UTF-8 can write")
        try:
            err = self._schema_error(record, common)
            if err is not None:
                return not_a_record("$" + str(err.name).removeprefix("data"), self._schema_message(err))
        except Exception as err:  # values JSON cannot hold (sets, objects...)
            return not_a_record("$", f"not JSON data: {type(err).__name__}: {err}")
        read = self._faces_read
        for i, entry in enumerate(record.get("entries", [])):
            if "action" in entry:  # (an action entry has no other key but by: the schema says so)
                continue
            for key in ("reveal", "look"):
                if key in entry:  # the schema checks the shape of a face; its meaning is checked here
                    word = entry[key]
                    if word in read:
                        continue
                    try:
                        self.faces.canonical(word)
                    except ValueError as err:
                        return not_a_record(f"$.entries[{i}].{key}", str(err))
                    if len(read) < ACCEPTED_MEMORY:
                        read.add(word)
        for ident, value in record.get("interpretations", {}).items():
            try:
                self.game.settings_for({ident: value})
            except ValueError as err:
                return not_a_record(f"$.interpretations.{ident}", str(err))
        return None

    # ------------------------------------------------------------ writing
    def header(self, seats: Sequence[str], kind: str = OMNISCIENT, settings: Mapping[str, str] | None = None,
               seed: int | None = None, source: str = "shipped", viewer: str | None = None) -> dict[str, Any]:
        """A record's header (with an empty entry list).  ``settings`` by switch id; defaults are left out."""
        game = self.game
        chosen = {}
        for name, value in (settings or {}).items():
            key = name.replace("-", "_")
            if key in game.switches and game.defaults[key] != value:
                chosen[game.switches[key].ident] = value
        rec: dict[str, Any] = {"format": self.name, "version": self.version}
        if self.names_game:
            rec["game"] = game.name
        rec |= {"kind": kind, "seats": list(seats)}
        if viewer is not None:
            rec["viewer"] = viewer
        rec["interpretations"] = chosen
        rec["components"] = {"source": source, "sha256": components_digest(game)}
        if seed is not None:
            rec["seed"] = seed
        rec["entries"] = []
        return rec


def one_word(value: Any) -> str:
    """A value of a record, shown in a message: a text as itself, cut to 40 characters, else as JSON."""
    shown = value if isinstance(value, str) else json.dumps(value)[:40]
    return repr(shown[:40])


class Recorder:
    """Writes the record of a game while it is played: use :meth:`apply` instead of ``state.apply_index``.

    ``kind`` is omniscient (the faces of pieces are written when they enter play)
    or players-eye (what chance brings into play is written unknown; ``viewer`` — a
    seat — also writes the faces that seat was shown).
    """

    def __init__(self, state: State, fmt: RecordFormat, kind: str = OMNISCIENT, seats: Sequence[str] | None = None,
                 seed: int | None = None, viewer: int | None = None, source: str = "shipped"):
        if kind not in KINDS:
            raise ValueError(f"a record is {' or '.join(KINDS)}, not {kind!r}")
        self.kind = kind
        self.viewer = viewer
        self.faces = fmt.faces
        names = list(seats) if seats else [notation.seat(p) for p in state.seats]
        view = None if kind == OMNISCIENT else (notation.seat(viewer) if viewer is not None else "spectator")
        self.record = fmt.header(names, kind, {state.game.switches[k].ident: v for k, v in state.settings.items()},
                                 seed, source, view)
        self.entries: list[dict[str, Any]] = self.record["entries"]

    def apply(self, state: State, index: int) -> None:
        """Apply the legal action with this index and write its entries."""
        before = Marks.of(state)
        by = notation.who(state.current_player)
        hide = self.kind == PLAYERS_EYE and by == notation.CHANCE
        written = self.faces.written
        unknown = self.faces.unknown
        words = option_words(state, state.pending.options[index] if state.pending else (0, ()),
                             (lambda t: unknown) if hide else written)
        state.apply_index(index)
        self.entries.append({"by": by, "action": " ".join(words)})
        for t in newly_revealed(before, state):
            self.entries.append({"reveal": written(t)})
        if self.kind == PLAYERS_EYE and self.viewer is not None:
            for t, player in newly_seen(before, state):
                if player == self.viewer:
                    self.entries.append({"look": written(t), "by": notation.seat(player)})


def read_record_file(path: str) -> str:
    """A record file's text: a regular file only (a FIFO or a device is refused, never waited on),
    read no further than one character past the longest record (so that it is refused).

    Raise ValueError or OSError.
    """
    return read_text(path, 4 * (MAX_RECORD_CHARS + 1))[:MAX_RECORD_CHARS + 1]


def load_record_text(text: str) -> tuple[Any, Verdict | None]:
    """Parse JSON text; on a syntax error the not-a-record verdict says where.

    A text longer than :data:`MAX_RECORD_CHARS` is refused unread.  An object that gives a
    key twice is refused (at its JSON path): JSON readers differ on which value they keep.
    """
    if len(text) > MAX_RECORD_CHARS:
        return None, not_a_record("$", f"more than {MAX_RECORD_CHARS:,} characters: a record is at most that "
                                       "long (a whole game is some 10,000)")
    repeated: list[tuple[dict[str, Any], str]] = []

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs) and not repeated:
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    repeated.append((obj, key))
                    break
                seen.add(key)
        return obj

    try:
        record = json.loads(text, object_pairs_hook=unique)
    except json.JSONDecodeError as err:
        return None, not_a_record(f"line {err.lineno} column {err.colno}", f"not JSON: {err.msg}")
    except (RecursionError, ValueError) as err:
        return None, not_a_record("$", f"not JSON: {err}")
    if repeated:
        obj, key = repeated[0]
        return None, not_a_record(json_path(record, obj), f"an object gives the key {one_word(key)} twice (JSON "
                                                           "readers differ on which value they keep)")
    return record, None


def json_path(data: Any, target: object) -> str:
    """The JSON path (``$.entries[3]``) of the value ``target`` (by identity) inside ``data``; ``$`` if none."""
    todo: list[tuple[Any, str]] = [(data, "$")]
    while todo:
        value, path = todo.pop()
        if value is target:
            return path
        if isinstance(value, dict):
            todo.extend((v, f"{path}.{k}" if _PLAIN_KEY.fullmatch(k) else f"{path}[{_key_text(k)}]")
                        for k, v in reversed(value.items()))
        elif isinstance(value, list):
            todo.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(value))))
    return "$"


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,40}")


def _key_text(key: str) -> str:
    """A key in a JSON path: quoted, cut to 40 characters (a lone surrogate escaped: a path is printed)."""
    return utf8_json(key if len(key) <= 40 else key[:40] + "...")


def utf8_json(value: Any, indent: int | None = None) -> str:
    """``value`` as JSON text that UTF-8 can write: non-ASCII characters as they are, but a lone surrogate (which
    JSON's ``\\ud800`` can write and input may hold, echoed in a message or a path) escaped."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, indent=indent)
    return text


def dumps(record: Mapping[str, Any]) -> str:
    """A record as JSON text, one entry a line."""
    head = {k: v for k, v in record.items() if k != "entries"}
    lines = json.dumps(head, ensure_ascii=False, indent=2)[:-2]
    entries = record.get("entries", [])
    body = ",\n".join("    " + json.dumps(e, ensure_ascii=False) for e in entries)
    return lines + ',\n  "entries": [\n' + body + ("\n" if entries else "") + "  ]\n}\n"


__all__ = [
    "MAX_ENTRIES",
    "MAX_RECORD_CHARS",
    "RecordFormat",
    "Recorder",
    "dumps",
    "json_path",
    "load_record_text",
    "read_record_file",
    "seats_pattern",
    "utf8_json",
]
