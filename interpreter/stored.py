"""Stored states read back with suspicion: :meth:`Game.state_from_json` checks everything.

A stored state (see :meth:`State.to_json`) may come from anywhere, so before
it is believed this module checks, knowing nothing of any particular game:

- its structure: exactly the expected fields, each of the right JSON type,
  values of bounded size and nesting;
- every reference: the switches and their options, every state variable and
  zone of the spec with exactly the keys its dimensions give for this number
  of players (a ``var`` that declares its type holding none or values of
  it), every piece once and in exactly one zone, known pieces in the
  face-up and seen lists, known limits used with keys of their dimensions,
  winners among the seats;
- the program position: the main procedure at the bottom, each caller
  stopped just after calling the procedure above it, the top one at a
  decision, each frame's locals ones its procedure has, of the type the
  checker knows for each (or none), its loop counters indices into their
  lists; the decision must be able to list its options;
- what the runtime itself keeps true (pieces in open zones are face up; a
  finished game has winners and no program left) and every invariant the
  spec declares.

A state stored before its game wrote pieces by words of their own (faces:
:meth:`interpreter.game.Game.write_pieces`) writes them in its ``history`` and
``log`` by their keys, ``draw #14``: each such word naming a piece of the game
is read as that piece and written the game's way, ``draw 3:red+blue``
(:func:`rewritten`), so that every text of the state is in one notation.

Anything else is a :class:`ValueError` saying what and where.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, assert_never

from . import ast as A
from .checker import MAX_DIMS, Checked
from .codegen import MAX_KEPT_DEPTH
from .codegen import MAX_LIST as MAX_RUNTIME_LIST
from .codegen import MAX_TEXT as MAX_KEPT_TEXT
from .compiler import CALL, CHANCE, CHOOSE, LOOP_INDEX, LOOP_ITEMS, Procedure, loop_counters
from .errors import RulesError
from .notation import MAX_ACTION_TEXT, Reader, piece
from .runtime import MAX_CALL_DEPTH, STATE_FORMAT, State, all_keys, fits, key_in
from .symbols import Kind, Symbols
from .types import ANY, NONE, Type, element_type


class Loader(Protocol):
    """What a stored state is checked against: the game reading it back
    (:class:`interpreter.game.Game`, the layer above, which calls :func:`state_from_data`)."""

    @property
    def name(self) -> str:
        """The game's name, as its ``game`` declaration gives it (a stored state names it)."""

    @property
    def symbols(self) -> Symbols:
        """Everything the spec declares, by kind and name."""

    @property
    def checked(self) -> Checked:
        """The checker's result for the spec (the types of locals among it)."""

    @property
    def procedures(self) -> list[Procedure]:
        """The compiled procedures, by index (the code the stored frames point into)."""

    @property
    def proc_index(self) -> dict[str, int]:
        """The index of each procedure in :attr:`procedures`, by name."""

    @property
    def main_index(self) -> int:
        """The index of the main procedure in :attr:`procedures`."""

    @property
    def piece_keys(self) -> list[Any]:
        """Each piece's key, by piece id."""

    @property
    def piece_by_key(self) -> dict[Any, int]:
        """Each piece's id, by key."""

    @property
    def piece_words(self) -> list[str]:
        """How the game's texts write each piece, by piece id."""

    @property
    def piece_types(self) -> list[str]:
        """The name of each piece's ``pieces`` declaration, by piece id."""

    @property
    def hidden_zones(self) -> dict[str, bool]:
        """Whether each zone is hidden rather than public, by name."""

    @property
    def reader(self) -> Reader:
        """Reads action words back into values (and tells whether a value is of a type)."""

    def domain(self, dim: str, n: int) -> list[Any]:
        """The keys of a dimension in an ``n``-player game."""

    def settings_for(self, chosen: Mapping[str, str] | None) -> dict[str, str]:
        """Complete switch settings from the chosen ones."""

    def _blank_state(self, players: int, settings: dict[str, str], seed: int) -> State:
        """A state with nothing set up yet."""

_FIELDS = {"format", "game", "players", "settings", "vals", "zones", "face_up", "seen", "used",
           "frames", "rng", "winners", "history", "log"}
_OPTIONAL = {"log"}
#: The compiler's own locals besides the spec's names: a loop's counters (its list or its index), with
#: the loop's number.
_COUNTER = re.compile(rf"(?:{re.escape(LOOP_ITEMS)}|{re.escape(LOOP_INDEX)})([0-9]+)\Z")
#: Bounds on what a stored value may be: nesting, list length, text length, number size.  The
#: nesting, lengths, numbers and frames are the runtime's own bounds, so that any state a game
#: reaches can be saved and loaded again.
MAX_VALUE_DEPTH = MAX_KEPT_DEPTH
MAX_LIST = MAX_RUNTIME_LIST
MAX_TEXT = MAX_KEPT_TEXT
MAX_FRAMES = MAX_CALL_DEPTH
MAX_HISTORY = 1_000_000


class _Bad(ValueError):
    pass


def _fail(where: str, what: str) -> _Bad:
    return _Bad(f"stored state: {where}: {what}")


#: What may not stand just before a piece written by its key, or just after it (the word would go on).
_WORD_BEFORE = re.compile(r"[\w#-]")
_WORD_AFTER = re.compile(r"[\w-]")


def _old_words(game: Loader) -> dict[str, str]:
    """Each piece's word by its key (``#14``) → the game's word for it (none if the game writes pieces so)."""
    old = {piece(key): word for key, word in zip(game.piece_keys, game.piece_words)}
    return {} if all(k == w for k, w in old.items()) else old


def rewritten(text: str, old: Mapping[str, str], lengths: Sequence[int] | None = None) -> str:
    """A text of a stored state with each piece written by its key (``draw #14``) written by the game's
    word for it instead (``old``: :func:`_old_words`); other words are kept as they are.

    A key is any text a table's cell may hold (spaces, dots, ``#`` and line breaks too: see
    :mod:`interpreter.data`), so the words are found by the keys the game has, not by a pattern: at each
    ``#`` that starts a word, the longest key written there that the word ends with.  ``lengths``:
    :func:`word_lengths` of ``old``, if found already."""
    if "#" not in text:
        return text
    if lengths is None:
        lengths = word_lengths(old)
    out: list[str] = []
    done = 0
    at = text.find("#")
    while at >= 0:
        taken = 0
        if at == 0 or not _WORD_BEFORE.match(text, at - 1):
            for size in lengths:
                word = text[at:at + size]
                if len(word) == size and word in old and not _WORD_AFTER.match(text, at + size):
                    out += [text[done:at], old[word]]
                    done = taken = at + size
                    break
        at = text.find("#", max(taken, at + 1))
    return "".join(out) + text[done:]


def word_lengths(old: Mapping[str, str]) -> tuple[int, ...]:
    """The lengths of the words of ``old`` (:func:`_old_words`), longest first: found once per state read."""
    return tuple(sorted({len(w) for w in old}, reverse=True))


def _expect(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    """``value`` if it has exactly this JSON type (a bool is not a number here)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if type(value) not in kinds:
        names = " or ".join("a list" if k is list else "an object" if k is dict else
                            "a number" if k is int else "a text" if k is str else k.__name__ for k in kinds)
        raise _fail(where, f"expected {names}, found {_describe(value)}")
    return value


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


def _number(value: Any, where: str, low: int = -A.MAX_INT, high: int = A.MAX_INT + 1) -> int:
    """A stored number from ``low`` up to (not including) ``high``."""
    _expect(value, int, where)
    if not low <= value < high:
        raise _fail(where, f"{value} is out of range")
    return int(value)


def _value(value: Any, where: str, depth: int = 0) -> Any:
    """A plain value as the rules store it: a number, text, truth value, none, or a list of them."""
    if value is None or type(value) is bool:
        return value
    if type(value) is int:
        return _number(value, where)
    if type(value) is str:
        if len(value) > MAX_TEXT:
            raise _fail(where, "text too long")
        return value
    if type(value) is list:
        if depth >= MAX_VALUE_DEPTH:
            raise _fail(where, "nested too deeply")
        if len(value) > MAX_LIST:
            raise _fail(where, "list too long")
        return [_value(v, where, depth + 1) for v in value]
    raise _fail(where, f"not a value: {_describe(value)}")


def _key(raw: Any, where: str) -> Any:
    """A stored key (a list of its parts) as the runtime keeps it."""
    _expect(raw, list, where)
    if len(raw) > MAX_DIMS or not all(type(part) in (int, str) for part in raw):
        raise _fail(where, f"not a key: {_describe(raw)}")
    return key_in(raw)


def _keyed(rows: Any, keys: list[Any], where: str) -> Iterator[tuple[Any, Any]]:
    """The ``[key, value]`` rows of one table, in the order of ``keys``; exactly those keys."""
    _expect(rows, list, where)
    found: dict[Any, Any] = {}
    for row in rows:
        if type(row) is not list or len(row) != 2:
            raise _fail(where, f"not a [key, value] row: {_describe(row)}")
        key = _key(row[0], where)
        if key in found:
            raise _fail(where, f"key {row[0]} twice")
        found[key] = row[1]
    wanted = set(keys)
    unknown = [k for k in found if k not in wanted]
    if unknown:
        raise _fail(where, f"unknown key {_describe(unknown[0])}")
    missing = [k for k in keys if k not in found]
    if missing:
        raise _fail(where, f"key {_describe(missing[0])} is missing")
    for key in keys:
        yield key, found[key]


def _names(data: Any, wanted: Mapping[str, Any], where: str, all_needed: bool = True) -> dict[str, Any]:
    _expect(data, dict, where)
    unknown = sorted(set(data) - set(wanted))
    if unknown:
        raise _fail(where, f"unknown name {_describe(unknown[0])}")
    if all_needed:
        missing = sorted(set(wanted) - set(data))
        if missing:
            raise _fail(where, f"{missing[0]!r} is missing")
    return dict(data)


def _piece(game: Loader, key: Any, where: str) -> int:
    if type(key) not in (int, str) or key not in game.piece_by_key:
        raise _fail(where, f"no piece {_describe(key)}")
    return game.piece_by_key[key]


def procedure_locals(proc: A.ProcedureDecl) -> tuple[frozenset[str], dict[A.Pos, frozenset[str]]]:
    """Every name a procedure's frame may hold, and the names surely bound at each stop.

    The first: parameters and the names of every `let`, `for` and decision
    binding.  The second, for each decision and call (by position): the
    parameters, the `let`s before it in the blocks around it, the variables
    of the `for` loops around it and the bindings of the decisions it lies in.
    """
    every = {p.name for p in proc.params}
    bound: dict[A.Pos, frozenset[str]] = {}

    def walk(block: A.Block, outer: set[str]) -> None:
        scope = set(outer)
        for st in block.statements:
            if isinstance(st, (A.Choose, A.Chance, A.CallProc)):
                bound[st.pos] = frozenset(scope)
            inner: list[tuple[A.Block, set[str]]] = []
            match st:
                case A.Let():
                    scope.add(st.name)
                    every.add(st.name)
                case A.For():
                    inner = [(st.body, {st.var})]
                case A.Choose():
                    inner = [(o.body, {b.var for b in o.bindings}) for o in st.options]
                case A.Chance():
                    inner = [(st.body, {st.binding.var})]
                case A.If() | A.While() | A.Loop() | A.Rule():
                    inner = [(b, set()) for b in A.child_blocks(st)]
                case A.Assign() | A.Break() | A.CallProc() | A.Move() | A.Reveal() | A.Look() | A.Swap() \
                        | A.Begin() | A.Use() | A.Finish() | A.Say():
                    pass  # binds no name, holds no block
                case _:
                    assert_never(st)
            for body, names in inner:
                every.update(names)
                walk(body, scope | names)

    walk(proc.body, set(every))
    return frozenset(every), bound


def local_types(proc: A.ProcedureDecl, checked: Checked) -> dict[str, Type]:
    """The type of the values of each local of a procedure, where the checker knows one type for all.

    A local is set by its parameter, `let`s, assignments, `for` loops and
    decision bindings; where each of them gives a value of one type (or
    none), every value the local holds is of it or none.  A local set with
    values of several types, or of one the checker does not know, has none.
    """
    found: dict[str, set[Type]] = {}
    for p in proc.params:
        found.setdefault(p.name, set()).add(checked.param_types.get(id(p), ANY))
    stack = [proc.body]
    while stack:
        for st in stack.pop().statements:
            sets: list[tuple[str, Type]] = []
            match st:
                case A.Let():
                    sets = [(st.name, checked.type_of(st.value))]
                case A.Assign():
                    if not st.keys and checked.refs.get(id(st)) is Kind.LOCAL:
                        sets = [(st.name, checked.type_of(st.value))]
                case A.For():
                    sets = [(st.var, element_type(checked.type_of(st.domain)))]
                case A.Choose():
                    sets = [(b.var, element_type(checked.type_of(b.domain))) for o in st.options for b in o.bindings]
                case A.Chance():
                    sets = [(st.binding.var, element_type(checked.type_of(st.binding.domain)))]
                case A.If() | A.While() | A.Loop() | A.Rule() | A.Break() | A.CallProc() | A.Move() | A.Reveal() \
                        | A.Look() | A.Swap() | A.Begin() | A.Use() | A.Finish() | A.Say():
                    pass  # sets no local
                case _:
                    assert_never(st)
            for name, t in sets:
                found.setdefault(name, set()).add(t)
            stack.extend(A.child_blocks(st))
    out = {}
    for name, types in found.items():
        kinds = types - {NONE}
        if len(kinds) == 1 and ANY not in kinds:
            out[name] = kinds.pop()
    return out


def state_from_data(game: Loader, data: Any) -> State:
    """Rebuild and check a stored state; raise ValueError on anything a real state cannot be."""
    try:
        return _load(game, data)
    except _Bad:
        raise
    except ValueError as err:
        raise ValueError(f"stored state: {err}") from None
    except RulesError as err:
        raise ValueError(f"stored state: the rules cannot go on from it: {err}") from None
    except RecursionError:
        raise ValueError("stored state: nested too deeply") from None


def _load(game: Loader, data: Any) -> State:
    if not isinstance(data, Mapping):
        raise _fail("top", f"expected an object, found {_describe(data)}")
    if type(data.get("format")) is not int or data["format"] != STATE_FORMAT or data.get("game") != game.name:
        raise ValueError(f"not a stored {game.name} state (format {STATE_FORMAT})")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise _fail("top", f"unknown field {_describe(unknown[0])}")
    missing = sorted(_FIELDS - _OPTIONAL - set(data))
    if missing:
        raise _fail("top", f"field {missing[0]!r} is missing")
    n = _number(data["players"], "players")
    settings = _expect(data["settings"], dict, "settings")
    if not all(type(k) is str and type(v) is str for k, v in settings.items()):
        raise _fail("settings", "switches and options are texts")
    st = game._blank_state(n, game.settings_for(settings), _number(data["rng"], "rng", 0, 2**64))
    symbols = game.symbols

    vals = _names(data["vals"], symbols.states, "vals")
    for name, decl in symbols.states.items():
        where = f"vals.{name}"
        keys = all_keys([game.domain(d, n) for d in decl.dims])
        table = {k: _value(v, where) for k, v in _keyed(vals[name], keys, where)}
        if decl.kind == "counter" and not all(type(v) is int for v in table.values()):
            raise _fail(where, "a counter holds numbers only")
        if decl.kind == "var":
            _check_declared(game, decl, table, n, where)
        st.vals[name] = table

    zones = _names(data["zones"], symbols.zones, "zones")
    for name, z in symbols.zones.items():
        where = f"zones.{name}"
        keys = all_keys([game.domain(d, n) for d in z.dims])
        st.zones[name] = {}
        for key, pieces in _keyed(zones[name], keys, where):
            _expect(pieces, list, where)
            lst = []
            for pk in pieces:
                pid = _piece(game, pk, where)
                if st.loc[pid][0]:
                    raise _fail(where, f"piece {pk} is also in zones.{st.loc[pid][0]}")
                if game.piece_types[pid] != z.piece_type:
                    raise _fail(where, f"piece {pk} is a {game.piece_types[pid]}, not a {z.piece_type}")
                st.loc[pid] = (name, key)
                lst.append(pid)
            st.zones[name][key] = lst
    lost = [game.piece_keys[p] for p, (zone, _) in enumerate(st.loc) if not zone]
    if lost:
        raise _fail("zones", f"piece {lost[0]} is in no zone")

    for pk in _expect(data["face_up"], list, "face_up"):
        pid = _piece(game, pk, "face_up")
        if st.face_up[pid]:
            raise _fail("face_up", f"piece {pk} twice")
        st.face_up[pid] = True
    for pid, (zone, _) in enumerate(st.loc):
        if not game.hidden_zones[zone] and not st.face_up[pid]:
            raise _fail("face_up", f"piece {game.piece_keys[pid]} lies face down in open zone {zone}")
    for row in _expect(data["seen"], list, "seen"):
        if type(row) is not list or len(row) != 2:
            raise _fail("seen", f"not a [piece, players] row: {_describe(row)}")
        pid = _piece(game, row[0], "seen")
        if st.seen[pid]:
            raise _fail("seen", f"piece {row[0]} twice")
        st.seen[pid] = _number(row[1], "seen", 1, 1 << n)

    used = _names(data["used"], symbols.limits, "used", all_needed=False)
    for name, limit in symbols.limits.items():
        where = f"used.{name}"
        allowed = set(all_keys([game.domain(d, n) for d in limit.dims]))
        st.used[name] = set()
        for raw in _expect(used.get(name, []), list, where):
            key = _key(raw, where)
            if key not in allowed or key in st.used[name]:
                raise _fail(where, f"key {_describe(raw)} unknown or twice")
            st.used[name].add(key)

    st.frames = _frames(game, data["frames"], n)
    st.winners = _winners(data["winners"], n)
    if st.winners is not None and st.frames:
        raise _fail("winners", "the game has winners but its program goes on")
    history = _expect(data["history"], list, "history")
    if len(history) > MAX_HISTORY or not all(type(h) is str and len(h) <= MAX_ACTION_TEXT for h in history):
        raise _fail("history", "expected a list of action texts")
    old = _old_words(game)
    lengths = word_lengths(old)
    st.history = [rewritten(h, old, lengths) for h in history] if old else list(history)
    if old and not all(len(h) <= MAX_ACTION_TEXT for h in st.history):
        raise _fail("history", f"an action text with its pieces written as the game writes them is longer than "
                    f"{MAX_ACTION_TEXT} characters")
    log = data.get("log")
    if log is not None:
        _expect(log, list, "log")
        if len(log) > MAX_HISTORY or not all(type(line) is str and len(line) <= MAX_TEXT for line in log):
            raise _fail("log", "expected a list of texts")
        st.log = [rewritten(line, old, lengths) for line in log] if old else list(log)
        if old and not all(len(line) <= MAX_TEXT for line in st.log):
            raise _fail("log", f"a line with its pieces written as the game writes them is longer than "
                        f"{MAX_TEXT} characters")
    if st.frames:
        top = st.frames[-1]
        try:
            st._pend(game.procedures[top[0]].code[top[1]][1], top[2])
        except Exception as err:  # a local missing or of the wrong kind, no option left, ...
            raise _fail(f"frames[{len(st.frames) - 1}]", f"the decision there cannot list its options "
                        f"({type(err).__name__}: {err})") from None
        _check_decider(st, f"frames[{len(st.frames) - 1}]")
    broken = st.broken_invariants()
    if broken:
        invariant = symbols.invariants[broken[0]]
        cites = "; ".join(str(c) for c in invariant.citations)
        raise _fail("invariants", f"invariant {broken[0]} ({invariant.pos}) does not hold"
                    + (f" ({cites})" if cites else ""))
    st.mark_start()  # undo goes back to the loaded position at most
    return st


def _check_declared(game: Loader, decl: A.StateDecl, table: Mapping[Any, Any], n: int, where: str) -> None:
    """The values of a ``var`` that says what it holds (``var top[spot]: stone = none``) are none or of
    that type: a piece of those pieces, a seat of this game, a key of that table, ..."""
    t = game.symbols.declared_state_type(decl)
    if t is None:
        return
    for value in table.values():
        if not fits(game, value, t, n):
            raise _fail(where, f"{_describe(value)} is not a {decl.type} (nor none)")


def _check_decider(st: State, where: str) -> None:
    """The decision waited at is chance's, or a seat's of this game (its locals name who decides)."""
    pending = st.pending
    if pending is None or pending.decision.player is None:
        return
    player = pending.player
    if type(player) is not int or not 0 <= player < st.n:
        raise _fail(where, f"the decision there waits for {_describe(player)}, not a seat of a {st.n}-player game")


def _winners(raw: Any, n: int) -> list[int] | None:
    if raw is None:
        return None
    _expect(raw, list, "winners")
    winners = [_number(w, "winners", 0, n) for w in raw]
    if winners != sorted(set(winners)):
        raise _fail("winners", "seats sorted, each once")
    return winners


def _frames(game: Loader, raw: Any, n: int) -> list[list[Any]]:
    """The program position: checked frame by frame, and against each other."""
    _expect(raw, list, "frames")
    if len(raw) > MAX_FRAMES:
        raise _fail("frames", "too many")
    frames: list[list[Any]] = []
    for i, frame in enumerate(raw):
        where = f"frames[{i}]"
        if type(frame) is not list or len(frame) != 3:
            raise _fail(where, f"not a [procedure, position, locals] frame: {_describe(frame)}")
        name, pc, env = frame
        if type(name) is not str or name not in game.proc_index:
            raise _fail(where, f"no procedure {_describe(name)}")
        index = game.proc_index[name]
        proc = game.procedures[index]
        pc = _number(pc, where, 0, len(proc.code))
        top = i == len(raw) - 1
        at = proc.code[pc][1].pos if top and proc.code[pc][0] in (CHOOSE, CHANCE) else \
            proc.positions[pc - 1] if pc > 0 else None
        frames.append([index, pc, _locals(game, proc, env, at, where, n)])
    if not frames:
        return frames
    if frames[0][0] != game.main_index:
        raise _fail("frames[0]", f"the program starts in {game.procedures[game.main_index].name}, "
                    f"not {game.procedures[frames[0][0]].name}")
    for i, (caller, callee) in enumerate(itertools.pairwise(frames)):
        code = game.procedures[caller[0]].code
        op, target, _ = code[caller[1] - 1] if caller[1] > 0 else (None, None, None)
        if op != CALL or target != callee[0]:
            raise _fail(f"frames[{i}]", f"{game.procedures[caller[0]].name} is not waiting for a call of "
                        f"{game.procedures[callee[0]].name} there")
    top_index, top_pc, _ = frames[-1]
    if game.procedures[top_index].code[top_pc][0] not in (CHOOSE, CHANCE):
        raise _fail(f"frames[{len(frames) - 1}]", "the program does not stop at a decision there")
    return frames


def _locals(game: Loader, proc: Procedure, env: Any, at: A.Pos | None, where: str, n: int) -> dict[str, Any]:
    """A frame's locals: names of its procedure with values of their types, every name surely bound at
    its stop, and the compiler's loop counters each an index into its loop's list."""
    _expect(env, dict, where)
    every, bound = procedure_locals(proc.decl)
    types = local_types(proc.decl, game.checked)
    out = {}
    for name, value in env.items():
        if type(name) is not str or not (name in every or _COUNTER.match(name)):
            raise _fail(where, f"{proc.name} has no local {_describe(name)}")
        out[name] = _value(value, f"{where}.{name}")
        t = types.get(name)
        if t is not None and not fits(game, value, t, n):
            raise _fail(f"{where}.{name}", f"{_describe(value)} is not of type {t} (nor none)")
    _check_counters(game, proc, {k: v for k, v in out.items() if k not in every}, where, n)
    missing = sorted(bound.get(at, frozenset()) - set(out)) if at is not None else []
    if missing:
        raise _fail(where, f"{missing[0]!r} is not set, but {proc.name} has set it by then")
    return out


def _check_counters(game: Loader, proc: Procedure, env: Mapping[str, Any], where: str, n: int) -> None:
    """The compiler's counters of a loop (:func:`~interpreter.compiler.loop_counters`) are those of a
    `for` loop of the procedure that may stop inside, and come in pairs: the loop's list, of values of
    the type of its domain, and its index, a number from 0 to the length of that list."""
    for name in env:
        number = _COUNTER.match(name)
        loop = proc.loops.get(loop_counters(int(number[1]))[0]) if number is not None else None
        if number is None or loop is None:
            raise _fail(where, f"{proc.name} has no local {_describe(name)}")
        items_name, index_name = loop_counters(int(number[1]))
        items, index = env.get(items_name), env.get(index_name)
        if type(items) is not list or type(index) is not int or not 0 <= index <= len(items):
            raise _fail(f"{where}.{index_name}", f"not a loop's list {items_name} and an index {index_name} into "
                        f"it: {_describe(items)} and {_describe(index)}")
        t = element_type(game.checked.type_of(loop.domain))
        for k, value in enumerate(items):
            if not fits(game, value, t, n):
                raise _fail(f"{where}.{items_name}[{k}]", f"{_describe(value)} is not of type {t} (the values "
                            f"of the loop at {loop.pos})")
