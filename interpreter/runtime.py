"""The runtime: last stage (parse → check → compile → run).

A :class:`State` is plain data: counters and variables, the pieces in their
zones, who has seen which face, the used limits, the random generator's state
and the program position as a stack of frames ``[procedure, instruction,
locals]``.  It runs until the program reaches a decision or a chance event,
then waits for :meth:`State.apply`.  Any state can be cloned, stored as JSON
and resumed.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn

import attrs

from . import ast as A
from .ast import MAX_INT
from .codegen import STEP_LIMIT, NotOfType, Stuck, TooLarge, Values, bounded
from .compiler import (
    CALL,
    CHANCE,
    CHOOSE,
    FINISH,
    RESUME,
    RETURN,
    Branch,
    Decision,
    Pending,
    Procedure,
    Unlisted,
)
from .errors import IllegalAction, InvariantViolation, RuleError, RulesError
from .errors import shown as _shown
from .native import place_of as native_place
from .notation import CHANCE_PLAYER, Action, Unwritable, normal, who
from .notation import text as option_text
from .types import PieceType, PlayerType, Type

if TYPE_CHECKING:
    from .game import Game

#: `current_player` once the game has ended.
TERMINAL_PLAYER = -2
#: The deepest procedures may call each other without a decision in between.
MAX_CALL_DEPTH = 10_000
#: The most options a decision or chance event may have.
MAX_OPTIONS = 100_000
STATE_FORMAT = 1

_MASK = (1 << 64) - 1


def _splitmix(state: int) -> tuple[int, int]:
    """One step of SplitMix64: (new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


@attrs.define
class World:
    """What depends on the player count only: nodes in play and their neighbours."""

    nodes: dict[str, list[Any]]
    adjacent: dict[str, dict[Any, list[Any]]]


class State:
    """A game position.  See the module docstring."""

    __slots__ = (
        "_history",
        "_history_written",
        "budget",
        "check_invariants",
        "face_up",
        "frames",
        "game",
        "lazy",
        "loc",
        "log",
        "n",
        "pending",
        "rng",
        "scope_limits",
        "seats",
        "seen",
        "settings",
        "start",
        "trail",
        "used",
        "vals",
        "variant",
        "winners",
        "world",
        "zones",
    )

    game: Game
    budget: int  # steps the running code may still take (see codegen.STEP_LIMIT)
    n: int
    seats: list[int]
    settings: dict[str, str]
    world: World
    vals: dict[str, dict[Any, Any]]
    zones: dict[str, dict[Any, list[int]]]
    loc: list[tuple[str, Any]]
    face_up: list[bool]
    seen: list[int]
    used: dict[str, set[Any]]
    variant: int  # which generated code runs this state (by its settings)
    scope_limits: dict[str, list[str]]
    frames: list[list[Any]]
    rng: int
    pending: Pending | None
    winners: list[int] | None
    #: The actions and chance outcomes taken: texts, and (decision, option) pairs whose text is written
    #: when the history is read (:attr:`history`); the first :attr:`_history_written` of them are texts.
    _history: list[Any]
    _history_written: int
    log: list[str] | None
    check_invariants: bool
    #: List a decision's options when they are first read, not when the decision is reached: for
    #: replaying actions known in advance (:meth:`apply` then tests the one option named, and lists
    #: nothing).  Errors of a listing (no legal option, too many) then come when it is read.
    lazy: bool
    #: Where :meth:`undo` replays from: the position when the state was started, loaded or last
    #: marked (:meth:`mark_start`); None after a hand edit (:func:`interpreter.edit.refresh`).
    start: State | None
    #: The options taken since :attr:`start`, newest first, as linked cells
    #: ``(older cells, option, rng after it)``: shared by clones, never changed in place.
    trail: tuple[Any, tuple[int, tuple[Any, ...]], int] | None

    # ---------------------------------------------------------------- queries
    @property
    def history(self) -> list[str]:
        """The text of every action and chance outcome taken, oldest first (this state's own list).

        The C back end keeps the options it takes and writes their texts here, when the history is
        read: the same texts, which depend on the option alone (see :func:`.native.written_later`)."""
        h = self._history
        if self._history_written < len(h):
            words = self.game.piece_words
            for i in range(self._history_written, len(h)):
                entry = h[i]
                if type(entry) is tuple:
                    h[i] = entry[0].text(entry[1], words)
            self._history_written = len(h)
        return h

    @history.setter
    def history(self, texts: list[str]) -> None:
        self._history = texts
        self._history_written = len(texts)

    @property
    def current_player(self) -> int:
        """The seat to move, :data:`CHANCE_PLAYER` or :data:`TERMINAL_PLAYER`."""
        p = self.pending
        return TERMINAL_PLAYER if p is None else p.player

    def is_chance_node(self) -> bool:
        """Whether the game waits for a chance outcome."""
        return self.pending is not None and self.pending.decision.chance

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.pending is None

    def _texts(self) -> list[str]:
        p = self.pending
        if p is None:
            return []
        if p.texts is None:
            words = self.game.piece_words
            p.texts = [p.decision.text(o, words) for o in p.options]
        return p.texts

    def legal_actions(self) -> list[Action]:
        """Every legal action (or chance outcome) here, in the spec's order, as values (no text is read)."""
        p = self.pending
        if p is None:
            return []
        words = self.game.piece_words
        decision = p.decision
        out = []
        for i, (b, values) in enumerate(p.options):
            args = tuple(decision.words((b, values), words)[1:]) if values else ()
            out.append(Action(decision.branches[b].verb, args, i, b, values))
        return out

    def legal_action_texts(self) -> list[str]:
        """The text of every legal action."""
        return list(self._texts())

    def num_legal_actions(self) -> int:
        """How many legal actions there are (cheaper than listing them)."""
        p = self.pending
        return 0 if p is None else len(p.options)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: each outcome with its probability (uniform)."""
        if not self.is_chance_node():
            return []
        actions = self.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]

    def decision_citations(self) -> tuple[A.Citation, ...]:
        """The rule text of the decision the game waits for."""
        return self.pending.decision.citations if self.pending else ()

    def decision_rule(self) -> str:
        """The name of the rule (or procedure) that asks the pending decision."""
        return self.pending.decision.rule if self.pending else ""

    def scores(self) -> list[int]:
        """Each player's score, by the spec's `score` declaration."""
        return [self.game.score(self, p) for p in self.seats]

    def winner(self) -> list[int] | None:
        """The winners once the game has ended, else None."""
        return None if self.winners is None else list(self.winners)

    def face(self, piece: int) -> dict[str, Any]:
        """A piece's face: its table row without the provenance column."""
        g = self.game
        row = g.piece_rows[piece]
        skip = g.piece_provenance_column[piece]
        return {k: (list(v) if isinstance(v, list) else v) for k, v in row.items() if k != skip}

    def observation(self, player: int) -> dict[str, Any]:
        """What one player may see: all public state, and only the faces they may see.

        Face-down pieces appear as ``None`` unless they are face up or the player has
        looked at them; pieces in hidden zones are never named by identity.
        """
        if not 0 <= player < self.n:
            raise ValueError(f"no player {player} in a {self.n}-player game")
        g = self.game
        zones: dict[str, list[list[Any]]] = {}
        for name, table in self.zones.items():
            hidden = g.hidden_zones[name]
            rows = []
            for key, lst in table.items():
                faces = [self.face(p) if (not hidden or self.can_see(p, player)) else None for p in lst]
                rows.append([_key_out(key), faces])
            zones[name] = rows
        to_move = self.current_player
        return {
            "player": player,
            "players": self.n,
            "to_move": to_move,
            "settings": {g.switches[k].ident: v for k, v in sorted(self.settings.items())},
            "values": {name: [[_key_out(k), v] for k, v in table.items()] for name, table in self.vals.items()},
            "zones": zones,
            "decision": self.decision_rule() if to_move == player else None,
            "legal_actions": self.legal_action_texts() if to_move == player else [],
            "winners": self.winner(),
        }

    # --------------------------------------------------------------- applying
    def find(self, action: Action | str) -> int:
        """The index of an action among the legal ones; raise :class:`IllegalAction` (TypeError if
        ``action`` is neither an :class:`Action` nor a text).

        An :class:`Action` listed by this state (or one equal to it here) is found by its
        index; a text is read once (:mod:`.notation`) and its values looked up among the
        options, the texts of the options being made only for a text not found so.
        """
        if not isinstance(action, (str, Action)):
            raise TypeError(f"an action is an Action or its text, not {type(action).__name__}")
        p = self.pending
        text = normal(action if isinstance(action, str) else action.text)
        if p is None:
            raise IllegalAction(text, "the game is over")
        if (isinstance(action, Action) and 0 <= action.index < len(p.options)
                and p.decision.text(p.options[action.index], self.game.piece_words) == text):
            return action.index
        index = self._read(text)
        if index is not None:
            return index
        if p.by_text is None:  # of options written alike (pieces that look alike), the first
            p.by_text = {t: i for i, t in reversed(list(enumerate(self._texts())))}
        index = p.by_text.get(text)
        if index is None:
            reason, cites = self.game.explain(self, text)
            raise IllegalAction(text, reason, cites, self._texts())
        return index

    def _read(self, text: str) -> int | None:
        """The index of the option an action text writes, read by value; None if not found so."""
        p = self.pending
        assert p is not None
        decision = p.decision
        readings = decision.readings.get(text)
        known = readings is not None
        if readings is None:
            readings = self._readings(decision, text)
        # of options written alike (pieces that look alike), the first is meant
        found = min((i for i in map(self.option_index, readings) if i >= 0), default=-1)
        # the words were read exactly, but values equal across types (1 == True) could still meet
        if found < 0 or decision.text(p.options[found], self.game.piece_words) != text:
            return None
        if not known:
            decision.readings[text] = readings
        return found

    def option_index(self, option: tuple[int, tuple[Any, ...]]) -> int:
        """The index of an option (branch index, values) of the pending decision, or -1."""
        p = self.pending
        if p is None:
            return -1
        table = p.by_option
        if table is None and type(p.options) is Values:  # one value per option: find it, no table
            try:
                return p.options.index(option)
            except ValueError:
                return -1
        if table is None:
            try:
                table = dict(zip(p.options, range(len(p.options))))
            except TypeError:  # values holding lists
                table = {_frozen(o): i for i, o in enumerate(p.options)}
            p.by_option = table
        try:
            return table.get(option, -1)
        except TypeError:
            return table.get(_frozen(option), -1)

    def apply(self, action: Action | str) -> None:
        """Apply a legal action (an :class:`Action` or its text) and run to the next decision.

        An illegal action raises :class:`IllegalAction` and leaves the state unchanged.
        Where the options are not listed (:attr:`lazy`), the option the text names is
        tested on its own (:meth:`admitted`).
        """
        p = self.pending
        if p is not None and not p.listed and isinstance(action, (str, Action)):
            text = normal(action if isinstance(action, str) else action.text)
            option = self.admitted(text)
            if option is not None:
                self._advance(p, option, text)
                return
        self.apply_index(self.find(action))

    def admitted(self, text: str) -> tuple[int, tuple[Any, ...]] | None:
        """The option (branch index, values) an action text names if it is legal here, else None,
        found without listing the options: its words are read by the branches of its verb, and
        the option is tested by the decision's admission test (one generated function, made
        from the same `choose` as the listing).  A text means the first option written so, as a
        lookup among the listed options finds it: of two branches that both admit the text, the
        earlier; where the text names a piece by a word several pieces share (tokens that look
        alike) and more than one of them is admitted, only the listing's order tells which is
        first, and None is returned (:meth:`find` lists the options and takes the first)."""
        p = self.pending
        if p is None:
            return None
        decision = p.decision
        readings, known = self._readings_known(decision, text)
        admit = decision.admits[self.variant]
        env = self.frames[-1][2]
        found: tuple[int, tuple[Any, ...]] | None = None
        for option in readings:
            if found is not None and option[0] != found[0]:
                break  # an earlier branch admits the text
            self.budget = STEP_LIMIT
            try:
                ok = admit(self, env, option)
            except RulesError:
                raise
            except Exception as err:
                raise self._located(err, decision.pos, decision.citations) from err
            if ok:
                if found is not None:  # two pieces that look alike, both legal: the listing says which is first
                    return None
                found = option
        if found is not None:
            if not known:  # remembered once legal somewhere: as many as the options the rules make
                decision.readings[text] = readings
            p.admitted = found
        return found

    def admitted_listed(self, text: str) -> tuple[tuple[int, tuple[Any, ...]], int] | None:
        """What :meth:`admitted` finds, and its index, where the pending decision is listed: the text's
        readings are looked up among the listed options instead of tested one by one (an option is
        admitted exactly when it is listed), so :meth:`apply_index` can take it.  None wherever
        :meth:`admitted` may say otherwise or the listed option is not the very same value as the
        text's (``1`` and ``True``): then ask :meth:`admitted`."""
        p = self.pending
        if p is None:
            return None
        options = p.options
        kind = type(options)
        if kind is Unlisted:
            return None
        decision = p.decision
        readings = decision.readings.get(text)
        known = readings is not None
        if readings is None:
            readings = self._readings(decision, text)
        if len(readings) == 1:  # the usual text: one reading, found by value where the options can (C's find)
            find = getattr(kind, "find", None)
            at = None if find is None else find(options, readings[0])
            if at is not None:  # (found with the very same values, or not there)
                if at < 0:
                    return None
                if not known:
                    decision.readings[text] = readings
                return readings[0], at
        found: tuple[int, tuple[Any, ...]] | None = None
        at = -1
        for option in readings:
            if found is not None and option[0] != found[0]:
                break  # an earlier branch admits the text
            try:
                index = options.index(option)
            except ValueError:
                continue
            if found is not None:  # two pieces that look alike, both legal: admitted() says None
                return None
            found, at = option, index
        if found is None:
            return None
        for a, b in zip(options[at][1], found[1]):  # the very same values (_same, quicker for the usual kinds)
            kind = type(a)
            if kind is not type(b) or (kind is not int and kind is not str and not _same(a, b)):
                return None
        if not known:
            decision.readings[text] = readings
        return found, at

    def _readings_known(self, decision: Decision, text: str) -> tuple[tuple[tuple[int, tuple[Any, ...]], ...], bool]:
        """The text's readings (:meth:`_readings`), and whether the decision remembers them already."""
        readings = decision.readings.get(text)
        if readings is not None:
            return readings, True
        return self._readings(decision, text), False

    def _readings(self, decision: Decision, text: str) -> tuple[tuple[int, tuple[Any, ...]], ...]:
        """The options of a decision whose text is ``text``, earlier branches first (any state); a word
        several pieces share (tokens that look alike) is read as each of them."""
        verb, _, rest = text.partition(" ")
        args = rest.split(" ") if rest else []
        reader = self.game.reader
        out = []
        for b, branch in enumerate(decision.branches):
            if branch.verb != verb:
                continue
            values = reader.values(branch, args)
            # the words were read exactly, but values equal across types (1 == True) could still
            # meet; the text is made afresh, not remembered: a text that is not legal must leave
            # nothing behind (each distinct illegal text would grow the decision's memory)
            for read in ((values,) if values is not None else reader.alike(branch, args)):
                if self._written(branch, read) == text:
                    out.append((b, read))
        return tuple(out)

    def _written(self, branch: Branch, values: tuple[Any, ...]) -> str | None:
        """The action text of values read from a text, or None if no option could have them
        (values no action text can write: the text was illegal)."""
        try:
            return option_text(branch, values, self.game.piece_words)
        except Unwritable:
            return None

    def apply_index(self, index: int) -> None:
        """Apply the legal action with this index in :meth:`legal_actions`."""
        try:  # (a subscript, not .get: the common path is the one a random game takes every decision)
            native = self.game.native_runners[self.variant]
        except KeyError:
            native = None
        if native is not None:  # taken and run on in C (see native.runner), unless it says Python is to: a lazy
            # state, an index that is not a plain int (a bool or numpy's: taken as the Python code takes it), ...
            try:
                made = native[2](self, native[1], index)
            except Exception as err:
                self._failed_in_c(err)
            if made is True:  # the usual answer first
                return
            if made is not NotImplemented:  # (a state that checks its invariants is left to Python)
                self._ran(made)
                return
        p = self.pending
        if p is None:
            raise IllegalAction(str(index), "the game is over")
        options = p.options
        if not 0 <= index < len(options):
            raise IllegalAction(str(index), f"there are {len(options)} legal actions")
        option = options[index]
        self._advance(p, option, p.texts[index] if p.texts is not None else None)

    def _failed_in_c(self, err: Exception) -> NoReturn:
        """Raise what an error of the C code taking an action is (while handling it, in :meth:`apply_index`
        or its C twin, see ``crt.h``): a rule error itself, any other the rule error at its place in the spec."""
        if isinstance(err, RulesError):
            raise err
        raise self._run_failed(err) from (None if isinstance(err, (Stuck, TooLarge)) else err)

    def _advance(self, p: Pending, option: tuple[int, tuple[Any, ...]], text: str | None) -> None:
        """Take a legal option of the pending decision (its text, if known) and run on."""
        decision = p.decision
        for value in option[1]:  # kept in the frame: bounded as any kept value is
            if type(value) is list or (type(value) is int and not -MAX_INT <= value <= MAX_INT):
                self._kept(value, decision)
        if text is None:
            text = decision.text(option, self.game.piece_words)
        if type(p.options) is Unlisted:  # a decision left behind is never listed
            p.options.forget()
        self._history.append(text)
        if self.log is not None:
            self.log.append(f"{who(p.player)}: {text}")
        self.trail = (self.trail, option, self.rng)
        branch = decision.branches[option[0]]
        frame = self.frames[-1]
        values = option[1]
        if values:
            env = frame[2]
            for b, value in zip(branch.bindings, values):
                env[b.var] = value
        frame[1] = branch.target
        self.pending = None
        self._run()
        if self.check_invariants:
            self.assert_invariants(text)

    def _kept(self, value: Any, decision: Decision) -> None:
        """Check a value an option binds, as :func:`~.codegen.bounded` checks a kept value: a
        :class:`RuleError` at the decision for one no stored state could hold."""
        try:
            bounded(value)
        except TooLarge as err:
            raise RuleError(str(err), decision.pos, decision.citations) from None

    def apply_option(self, option: tuple[int, tuple[Any, ...]]) -> None:
        """Apply a legal option given as (branch index, values), listed or not; raise
        :class:`IllegalAction` (the state unchanged) if it is not legal here.

        The values must be of the kinds the listing binds (``True`` is not taken for ``1``,
        nor ``1.0``, nor a tuple for a list: :meth:`interpreter.notation.Reader.fits`).
        Unlisted options (:attr:`lazy`) are tested on their own (:meth:`admitted`), except
        where the types of the values do not say their kinds (``any``): then they are listed.
        A one-option test spends no listing budget, so a decision too large to list
        (a :class:`RuleError` when listed) may still take an option tested on its own."""
        p = self.pending
        if p is not None and p.admitted is not None and option is p.admitted:  # just found legal by admitted()
            self._advance(p, option, None)
            return
        if not (type(option) is tuple and len(option) == 2 and type(option[0]) is int
                and type(option[1]) is tuple):
            raise TypeError(f"an option is (branch index, values), not {_shown(option)}")
        if p is None:
            raise IllegalAction(_shown(option), "the game is over")
        branches = p.decision.branches
        b, values = option
        if not (0 <= b < len(branches) and self.game.reader.fits(branches[b], values)):
            raise IllegalAction(_shown(option), "not an option of this decision (a branch index and values of "
                                "the kinds its bindings hold)", p.decision.citations, self._texts())
        if p.listed or not self.game.reader.kinds_known(branches[b]):
            # listed, or values whose kinds the types do not say: the listed option must be
            # the very same value (1 and True are equal, but only one of them is an option)
            options = p.listing()
            index = self.option_index(option)
            if index < 0 or not _same(options[index], option):
                raise IllegalAction(_shown(option), "not a legal option here", p.decision.citations, self._texts())
            self.apply_index(index)
            return
        self.budget = STEP_LIMIT
        try:
            ok = p.decision.admits[self.variant](self, self.frames[-1][2], option)
        except RulesError:
            raise
        except Exception as err:
            raise self._located(err, p.decision.pos, p.decision.citations) from err
        if not ok:
            raise IllegalAction(_shown(option), "not a legal option here", p.decision.citations, self._texts())
        self._advance(p, option, None)

    def random_chance_index(self) -> int:
        """Draw a chance outcome's index from the generator kept in the state."""
        p = self.pending
        if p is None or not p.decision.chance:
            raise RuleError("not at a chance event", A.NOWHERE)
        self.rng, bits = _splitmix(self.rng)
        return bits % len(p.options)

    def apply_random_chance(self) -> None:
        """Resolve the pending chance event with the state's own generator."""
        self.apply_index(self.random_chance_index())

    def advance_chance(self) -> None:
        """Resolve chance events until a player decides or the game ends."""
        while self.pending is not None and self.pending.decision.chance:
            self.apply_index(self.random_chance_index())

    # ------------------------------------------------------------------ undo
    def mark_start(self) -> None:
        """Make this position the one :meth:`undo` goes back to at most (a state is marked when it is
        started or loaded; a scenario marks the position it set up by hand)."""
        self.start = None
        self.trail = None
        self.start = self.clone()

    def _restarted(self, rng: int) -> State:
        """This position as the start (:attr:`start`) of a new state whose generator is ``rng``: a state that
        shares all of this one's parts, as starts are shared (:meth:`undo` copies a start, never changes it).
        Only for a position that nothing changes any more (see :meth:`Game.new_state`)."""
        made = object.__new__(type(self))
        for slot in State.__slots__:
            setattr(made, slot, getattr(self, slot))
        made.rng = rng
        return made

    def undoable(self) -> int:
        """How many actions :meth:`undo` can take back (those since the state was started, loaded or marked)."""
        count, cell = 0, self.trail
        while cell is not None:
            count, cell = count + 1, cell[0]
        return count if self.start is not None else 0

    def undo(self) -> None:
        """Take back the last action or chance outcome: the state becomes what it was before it, the
        random generator's state included (as python-chess's ``Board.pop()``).

        The position is rebuilt by replaying, from the position the state was started or loaded in
        (:meth:`mark_start`), the exact options taken since (the very token drawn, not only its face).
        ValueError if there is nothing to take back: no action since then, or the state was edited by
        hand after it (a scenario's or a record's edit; see :func:`interpreter.edit.refresh`).
        """
        start, last = self.start, self.trail
        if start is None or last is None:
            why = "no action since the state was started or loaded" if start is not None else \
                "the position was edited by hand since its last action"
            raise ValueError(f"nothing to undo: {why}")
        kept = last[0]
        options = []
        cell = kept
        while cell is not None:
            options.append(cell[1])
            cell = cell[0]
        replay = start.clone()
        for option in reversed(options):
            replay.apply_option(option)
        for slot in State.__slots__:
            setattr(self, slot, getattr(replay, slot))
        self.start = start
        self.trail = kept
        self.rng = kept[2] if kept is not None else start.rng

    # ------------------------------------------------------------ invariants
    def broken_invariants(self) -> list[str]:
        """The names of the declared invariants that do not hold now."""
        return [name for name, decl, fn in self.game.invariants if not self._holds(name, decl, fn)]

    def assert_invariants(self, after: str = "") -> None:
        """Raise :class:`InvariantViolation` for the first declared invariant that fails."""
        for name, decl, fn in self.game.invariants:
            if not self._holds(name, decl, fn):
                raise InvariantViolation(name, decl.pos, decl.citations, after)

    def _holds(self, name: str, decl: A.Condition, fn: Any) -> bool:
        """Evaluate one invariant; one that cannot be evaluated is a :class:`RuleError` at it."""
        self.budget = STEP_LIMIT
        try:
            return bool(fn(self, {}))
        except RulesError:
            raise
        except Exception as err:
            raise RuleError(f"invariant {name} cannot be evaluated: {type(err).__name__}: {err}",
                            decl.pos, decl.citations) from err

    def evaluate(self, fn: Any, env: dict[str, Any], pos: A.Pos, cites: tuple[A.Citation, ...]) -> Any:
        """The value of a compiled expression of the spec (written at ``pos``) in this state,
        with a full step budget; one that cannot be evaluated is a :class:`RuleError` there."""
        self.budget = STEP_LIMIT
        try:
            return fn(self, env)
        except RulesError:
            raise
        except Exception as err:
            raise self._located(err, pos, cites) from (None if isinstance(err, (Stuck, TooLarge)) else err)

    # ------------------------------------------------------- piece movements
    def move_piece(self, piece: int, zone: str, key: Any) -> None:
        """Move a piece to the end of a zone; face down again if the zone is hidden."""
        old_zone, old_key = self.loc[piece]
        self.zones[old_zone][old_key].remove(piece)
        target = self.zones[zone][key]
        target.append(piece)
        self.loc[piece] = (zone, key)
        self.face_up[piece] = not self.game.hidden_zones[zone]

    def swap_pieces(self, a: int, b: int) -> None:
        """Exchange the places of two pieces."""
        za, ka = self.loc[a]
        zb, kb = self.loc[b]
        la, lb = self.zones[za][ka], self.zones[zb][kb]
        ia, ib = la.index(a), lb.index(b)
        la[ia], lb[ib] = b, a
        self.loc[a], self.loc[b] = (zb, kb), (za, ka)

    def begin_scope(self, scope: str) -> None:
        """Make every limit counted in this scope available again."""
        for limit in self.scope_limits.get(scope, ()):
            self.used[limit].clear()

    def can_see(self, piece: int, player: int) -> bool:
        """Whether a player may see a piece's face."""
        return self.face_up[piece] or bool(self.seen[piece] >> player & 1)

    # --------------------------------------------------------------- running
    def _run(self) -> None:
        """Run the frames on to the next decision or chance event, or the end of the game."""
        native = None if self.lazy else self.game.native_runners.get(self.variant)
        if native is not None:  # the same loop in C (see native.runner): it hands over what it does not run
            try:
                made = native[0](self, native[1])
            except RulesError:
                raise
            except Exception as err:
                raise self._run_failed(err) from (None if isinstance(err, (Stuck, TooLarge)) else err)
            if made is True:
                return
            if made is not False:
                self._ran(made)
                return
        self._run_python()

    def _ran(self, made: Pending | bool | None) -> None:
        """Go on from what the C run loop gave, where it did not settle it (True): the decision reached,
        None at the end of the game, or False where the Python loop is to go on from the frames' position."""
        if made is None:
            self.pending = None
        elif made is False:
            self._run_python()
        else:
            assert isinstance(made, Pending)
            self._pended(made)

    def _run_failed(self, err: Exception) -> RuleError:
        """The error of a C run, at the instruction it left the frames at (as the Python loop leaves them)."""
        frames = self.frames
        procs = self.game.procedures
        last = frames[-1] if frames else None
        proc, at = (procs[last[0]], last[1]) if last else (None, 0)
        return self._located(err, proc.positions[at] if proc else A.NOWHERE, proc.citations[at] if proc else ())

    def _run_python(self) -> None:
        frames = self.frames
        procs = self.game.procedures
        v = self.variant
        self.budget = STEP_LIMIT  # one budget for the generated code of the whole run
        steps = 0  # and as many resumptions (kept in a local: this loop is hot)
        pc = 0
        fr: list[Any] = []
        try:
            while frames:
                fr = frames[-1]
                code = procs[fr[0]].code
                env = fr[2]
                pc = fr[1]
                while True:
                    op, a, b = code[pc]
                    if op == RESUME:
                        # calls and returns without a decision in between count as steps too
                        steps += 1
                        if steps > STEP_LIMIT:
                            raise Stuck()
                        pc = a[v](self, env)
                    elif op == CALL:
                        fr[1] = pc + 1
                        if len(frames) >= MAX_CALL_DEPTH:
                            raise RuleError(f"no decision reached: procedures call each other more than "
                                            f"{MAX_CALL_DEPTH} deep", procs[fr[0]].positions[pc])
                        frames.append([a, 0, b[v](self, env)])
                        break
                    elif op == RETURN:
                        frames.pop()
                        break
                    elif op in (CHOOSE, CHANCE):
                        fr[1] = pc
                        if self.lazy:
                            self.pending = Pending.unlisted(
                                a, CHANCE_PLAYER if a.player is None else a.player(self, env), self._list)
                            return
                        self._pended(a.pends[v](self, env, a))
                        return
                    elif op == FINISH:
                        fr[1] = pc  # (winners refused leave the frame there, as C's run loop leaves it)
                        self.winners = self._winners(a[v](self, env), procs[fr[0]], pc)
                        frames.clear()
                        return
        except RulesError:
            raise
        except Exception as err:  # a spec that goes wrong at run time: say where
            fr[1] = pc
            proc = procs[fr[0]] if fr else None
            located = self._located(err, proc.positions[pc] if proc else A.NOWHERE, proc.citations[pc] if proc else ())
            raise located from (None if isinstance(err, (Stuck, TooLarge)) else err)
        self.pending = None

    def _pended(self, pending: Pending) -> None:
        """Wait at a decision whose options are listed: a :class:`RuleError` if there are none or too many."""
        a = pending.decision
        if not pending.options:
            raise RuleError("a decision with no legal option", a.pos, a.citations)
        if len(pending.options) > MAX_OPTIONS:
            raise RuleError(f"a decision with more than {MAX_OPTIONS} options", a.pos, a.citations)
        self.pending = pending

    def of_type(self, value: Any, t: Type, what: str, named: str, none: bool = True) -> Any:
        """``value``, kept where the spec declares type ``t`` (``what`` says where, ``named``
        how the spec names the type), if it is of that type in this game (or none, if
        ``none``): a value of type `any` is checked here as a stored state would be
        (:func:`fits`); :class:`NotOfType` otherwise."""
        if (value is None and not none) or (value is not None and not fits(self.game, value, t, self.n)):
            raise NotOfType(f"{what} holds {named}{' (or none)' if none else ''}, not {_shown(value)}")
        return value

    def usable_key(self, limit: str, key: Any) -> Any:
        """``key``, if it is a key of ``limit`` (one value of each of its key domains, as a
        stored state's `used` holds); :class:`NotOfType` otherwise (a key of type `any`)."""
        dims = self.game.symbols.limits[limit].dims
        if key not in all_keys([self.game.domain(d, self.n) for d in dims]):
            raise NotOfType(f"limit {limit} has no key {_shown(key)}")
        return key

    def _winners(self, seats: Any, proc: Procedure, pc: int) -> list[int]:
        """The winners the `finish` at ``pc`` names: each a seat of this game, once (a seat
        named twice wins once)."""
        if type(seats) is not list or not all(type(s) is int and 0 <= s < self.n for s in seats):
            raise RuleError(f"finish names winners that are not seats of this game: {_shown(seats)}",
                            proc.positions[pc], proc.citations[pc])
        return sorted(set(seats))

    def _located(self, err: Exception, pos: A.Pos, cites: tuple[A.Citation, ...]) -> RuleError:
        """A :class:`RuleError` for an error of generated code, at the spec text that ran (if
        known), else at ``pos``."""
        place = self.game.exprs.gen.locate(err.__traceback__) or native_place(err)
        if place is not None:
            pos, cites = place
        if isinstance(err, (Stuck, TooLarge, NotOfType)):
            return RuleError(str(err), pos, cites)
        if isinstance(err, OverflowError):  # Python could not count it: len() of a range past sys.maxsize
            return RuleError(f"a range too long to count: more than {A.MAX_INT} numbers", pos, cites)
        return RuleError(f"the rules cannot go on: {type(err).__name__}: {err}", pos, cites)

    def _list(self, pending: Pending) -> Sequence[tuple[int, tuple[Any, ...]]]:
        """List the options of the pending decision (of a :attr:`lazy` state), as ``_run`` does."""
        decision = pending.decision
        self.budget = STEP_LIMIT
        try:
            options = decision.pends[self.variant](self, self.frames[-1][2], decision).options
        except RulesError:
            raise
        except Exception as err:
            raise self._located(err, decision.pos, decision.citations) from err
        if not options:
            raise RuleError("a decision with no legal option", decision.pos, decision.citations)
        if len(options) > MAX_OPTIONS:
            raise RuleError(f"a decision with more than {MAX_OPTIONS} options", decision.pos, decision.citations)
        return options

    def _pend(self, decision: Decision, env: dict[str, Any]) -> None:
        """Wait at ``decision`` again, its options listed now (a state loaded or edited by hand):
        a decision waited at before is left behind, never to be listed against the new state."""
        old = self.pending
        if old is not None and type(old.options) is Unlisted:
            old.options.forget()
        self.pending = None
        pending = Pending.unlisted(decision, CHANCE_PLAYER, self._list)
        pending.listing()
        self.budget = STEP_LIMIT
        pending.player = CHANCE_PLAYER if decision.player is None else decision.player(self, env)
        self.pending = pending

    # ---------------------------------------------------------- copy and JSON
    def clone(self, into: State | None = None) -> State:
        """An independent copy.

        ``into``, a state no longer needed, is made that copy and returned (perft and searches copy one
        state into the same spare state again and again): the C back end rewrites in place the parts of
        it that nothing else holds, making and freeing no container; anything else is replaced by a copy.
        Afterwards it shares nothing that can change with this state, just as a new clone."""
        native = self.game.native_runners.get(self.variant)
        if into is not None and type(into) is not type(self) and isinstance(into, State):
            into.__class__ = type(self)  # (the copy's class is this state's, as a new clone's: see native_class)
        if native is not None:  # the same copy, made in C (unless it says Python is to make it)
            made = native[3](self) if into is None else native[3](self, into)
            if made is not NotImplemented:
                return made  # type: ignore[no-any-return]
        if into is not None:
            if into is self:
                raise ValueError("a state cannot be cloned into itself")
            copy = self.clone()
            for slot in State.__slots__:
                setattr(into, slot, getattr(copy, slot))
            return into
        c = object.__new__(type(self))  # (State, or the class whose methods are C: see native_class)
        c.budget = STEP_LIMIT
        c.game = self.game
        c.n = self.n
        c.seats = self.seats
        c.settings = self.settings
        c.variant = self.variant
        c.world = self.world
        c.vals = {k: v.copy() for k, v in self.vals.items()}
        c.zones = {k: {kk: vv.copy() for kk, vv in v.items()} for k, v in self.zones.items()}
        c.loc = self.loc.copy()
        c.face_up = self.face_up.copy()
        c.seen = self.seen.copy()
        c.used = {k: v.copy() for k, v in self.used.items()}
        c.frames = [[f[0], f[1], _copy_env(f[2])] for f in self.frames]
        c.scope_limits = self.scope_limits
        c.rng = self.rng
        c.winners = None if self.winners is None else list(self.winners)
        c._history = self._history.copy()
        c._history_written = self._history_written
        c.log = None if self.log is None else self.log.copy()
        c.check_invariants = self.check_invariants
        c.lazy = self.lazy
        c.start = self.start
        c.trail = self.trail
        c.pending = None
        if self.pending is not None:
            p = self.pending
            if p.listed:
                c.pending = Pending(p.decision, p.player, p.options, p.texts, p.by_text)
            else:
                c.pending = Pending.unlisted(p.decision, p.player, c._list)
        return c

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-compatible data (see :meth:`Game.state_from_json`)."""
        g = self.game
        return {
            "format": STATE_FORMAT,
            "game": g.name,
            "players": self.n,
            "settings": {g.switches[k].ident: v for k, v in sorted(self.settings.items())},
            "vals": {name: [[_key_out(k), v] for k, v in table.items()] for name, table in self.vals.items()},
            "zones": {name: [[_key_out(k), [g.piece_keys[p] for p in lst]] for k, lst in table.items()]
                      for name, table in self.zones.items()},
            "face_up": [g.piece_keys[p] for p, up in enumerate(self.face_up) if up],
            "seen": [[g.piece_keys[p], bits] for p, bits in enumerate(self.seen) if bits],
            # sets iterate in an order that depends on string hashing: sort for a stable text
            "used": {name: sorted((_key_out(k) for k in used), key=repr) for name, used in self.used.items()},
            # copies, not the live locals: the result is a snapshot that later steps do not change
            "frames": [[g.procedures[f[0]].name, f[1], _copy_env(f[2])] for f in self.frames],
            "rng": self.rng,
            "winners": None if self.winners is None else list(self.winners),
            "history": list(self.history),
            "log": None if self.log is None else list(self.log),
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        to_move = "nobody (game over)" if self.is_terminal() else who(self.current_player)
        return f"<State {self.game.name} players={self.n} to move: {to_move}, {len(self.history)} actions>"


def native_class(module: ModuleType) -> type[State]:
    """The class of the states a C module (:mod:`.native`) runs: a subclass of :class:`State` that adds no
    slot and only puts C functions (``crt.h``: method descriptors, called with no Python frame) in the places
    of the methods a game loop calls at every action (``apply_index``, ``is_terminal``, ``num_legal_actions``,
    ``is_chance_node``, the property ``current_player``; and ``clone``, once a node of a search, and
    ``_restarted``, once a game); each does what the Python one does, calling it wherever that is not plain.
    One per module; State itself where the module cannot lay one out.  A state of it is a State in every
    other way (``isinstance``, slots, JSON, clones)."""
    made = module.__dict__.get("state_class_made")
    if made is None:
        cls = type("State", (State,), {"__slots__": (), "__module__": State.__module__,
                                       "__qualname__": State.__qualname__, "__doc__": State.__doc__})
        made = module.state_class(cls, (State.apply_index, State.is_terminal, State.num_legal_actions,
                                        State.is_chance_node, State._ran, State._failed_in_c,
                                        State.__dict__["current_player"], TERMINAL_PLAYER,
                                        State._restarted, State.clone)) or State
        module.__dict__["state_class_made"] = made
    return made


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same kinds throughout (``1`` and ``True`` are equal, not the same)."""
    if type(a) is not type(b):
        return False
    if type(a) is tuple or type(a) is list:
        return len(a) == len(b) and all(map(_same, a, b))
    return bool(a == b)


def _frozen(option: tuple[int, tuple[Any, ...]]) -> Any:
    """An option as a dict key: lists (at any depth) as tuples."""
    def freeze(v: Any) -> Any:
        return tuple(freeze(x) for x in v) if isinstance(v, list) else v
    return (option[0], tuple(freeze(v) for v in option[1]))


def _copy_env(env: dict[str, Any]) -> dict[str, Any]:
    out = env.copy()
    for k, v in out.items():
        if type(v) is list:
            out[k] = v.copy()
    return out


def _key_out(key: Any) -> list[Any]:
    if key is None:
        return []
    if isinstance(key, tuple):
        return list(key)
    return [key]


def key_in(key: Sequence[Any]) -> Any:
    """The inverse of the JSON key encoding."""
    if len(key) == 0:
        return None
    if len(key) == 1:
        return key[0]
    return tuple(key)


def all_keys(domains: Sequence[list[Any]]) -> list[Any]:
    """Every key of a state indexed by these domains (values, tuples, or None)."""
    if not domains:
        return [None]
    if len(domains) == 1:
        return list(domains[0])
    return list(itertools.product(*domains))


def fits(game: Any, value: Any, t: Type, n: int) -> bool:
    """Whether a value is none or a value of type ``t`` in an ``n``-player game of ``game`` (a
    seat of it, a piece of those pieces, a key of that table, ...): the one test of a kept
    value of a declared type, at run time (:meth:`State.of_type`) and in a stored state."""
    if value is None:
        return True
    ok = bool(game.reader.holds(value, t))
    if ok and isinstance(t, PlayerType):
        return bool(0 <= value < n)
    if ok and isinstance(t, PieceType):
        return bool(game.piece_types[value] == t.pieces)
    return ok
