"""Editing states by hand, and comparing two states: tools for scenarios and validators.

Nothing here knows any particular game.  A scenario builds a position by running
a game to some decision and then overwriting values and moving pieces; after
such edits :func:`refresh` recomputes the decision the game waits for.  A
validator of records written by one player at the table needs to know which
pieces an action turned face up (:func:`newly_revealed`) or let somebody look
at (:func:`newly_seen`), and to exchange two face-down pieces nobody has
identified yet (:func:`exchange_identities`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from . import notation
from .errors import RuleError
from .runtime import State
from .types import PieceType


@attrs.frozen
class Marks:
    """Which pieces are face up and who has looked at which: all that :func:`newly_revealed` and
    :func:`newly_seen` compare, kept from a state before a step without copying the state."""

    face_up: list[bool]
    seen: list[int]

    @classmethod
    def of(cls, state: State) -> Marks:
        """The marks of a state now (copies)."""
        return cls(state.face_up.copy(), state.seen.copy())


def procedure_of(state: State, depth: int = -1) -> str:
    """The name of the procedure of a frame (default: the innermost one), or ``""``."""
    if not state.frames:
        return ""
    try:
        frame = state.frames[depth]
    except IndexError:
        return ""
    return str(state.game.procedures[frame[0]].name)


def frames_of(state: State, procedure: str) -> list[list[Any]]:
    """Every frame of the running program that executes this procedure, outermost first."""
    index = state.game.proc_index.get(procedure)
    if index is None:
        raise KeyError(f"no procedure {procedure!r}")
    return [f for f in state.frames if f[0] == index]


def set_local(state: State, procedure: str, name: str, value: Any) -> int:
    """Set a local variable in every frame of ``procedure``; returns how many frames had it.

    Call :func:`refresh` after the last edit.
    """
    count = 0
    for frame in frames_of(state, procedure):
        if name in frame[2]:
            frame[2][name] = value
            count += 1
    return count


def set_value(state: State, name: str, key: Any, value: Any) -> None:
    """Set ``name[key]`` (a counter or variable; key None for a plain variable)."""
    table = state.vals.get(name)
    if table is None:
        raise KeyError(f"no counter or variable {name!r}")
    if key not in table:
        raise KeyError(f"{name} has no entry {key!r}")
    table[key] = value


def move_to(state: State, piece: int, zone: str, key: Any = None) -> None:
    """Move a piece to the end of ``zone[key]`` (face down again if the zone is hidden)."""
    table = state.zones.get(zone)
    if table is None:
        raise KeyError(f"no zone {zone!r}")
    if key not in table:
        raise KeyError(f"zone {zone} has no entry {key!r}")
    state.move_piece(piece, zone, key)


def find_pieces(state: State, match: Callable[[int], bool], zones: tuple[str, ...] | None = None) -> list[int]:
    """The pieces for which ``match(piece)`` holds, in zone order (optionally only these zones)."""
    out: list[int] = []
    for name, table in state.zones.items():
        if zones is not None and name not in zones:
            continue
        for lst in table.values():
            out.extend(p for p in lst if match(p))
    if zones is not None:
        order = {z: i for i, z in enumerate(zones)}
        out.sort(key=lambda p: order[state.loc[p][0]])
    return out


def refresh(state: State) -> None:
    """Recompute the pending decision after the state was edited by hand.

    Raises :class:`RuleError` if the decision has no legal option any more.  :meth:`State.undo` cannot
    go back past a hand edit (call :meth:`State.mark_start` to undo back to the edited position).
    """
    state.start = None
    state.trail = None
    if not state.frames:
        state.pending = None
        return
    top = state.frames[-1]
    decision = state.game.decision_at(top[0], top[1])
    if decision is None:
        raise RuleError("the program does not wait at a decision", state.game.procedures[top[0]].positions[top[1]])
    state._pend(decision, top[2])


def run_until(state: State, stop: Callable[[State], bool], choose: Callable[[State], int] | None = None,
              limit: int = 10_000) -> None:
    """Apply actions until ``stop(state)`` holds or the game ends.

    Chance events are drawn from the state's generator; players take
    ``choose(state)`` (default: the first legal action).
    """
    for _ in range(limit):
        if state.is_terminal() or stop(state):
            return
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_index(0 if choose is None else choose(state))
    raise RuleError(f"no stop after {limit} actions", state.game.procedures[state.frames[-1][0]].positions[0])


def exchange_identities(state: State, a: int, b: int) -> None:
    """Let two pieces trade places, with everything known about each place.

    The pieces swap zones and positions; whether each place is face up and who
    has looked at it stays with the place.  For two face-down pieces whose
    faces nobody has recorded, the result is a position no observer can tell
    from the first one.  Call :func:`refresh` afterwards if a decision depends
    on where pieces are.
    """
    if a == b:
        return
    state.start = None  # no undo past a hand edit
    state.trail = None
    state.swap_pieces(a, b)
    state.face_up[a], state.face_up[b] = state.face_up[b], state.face_up[a]
    state.seen[a], state.seen[b] = state.seen[b], state.seen[a]


def newly_revealed(before: State | Marks, after: State) -> list[int]:
    """Pieces face down in ``before`` and face up in ``after``, in zone order.

    A piece that is turned face up is usually moved to the end of some zone
    at the same time, so zone order is the order in which they were revealed.
    """
    return turned_face_up(before.face_up, after)


def turned_face_up(was_up: Sequence[bool], after: State) -> list[int]:
    """Pieces face up in ``after`` that were not in ``was_up`` (a copy of an earlier
    ``state.face_up``), in zone order: the cheap form of :func:`newly_revealed`."""
    if was_up == after.face_up:
        return []
    fresh = {p for p, up in enumerate(after.face_up) if up and not was_up[p]}
    if len(fresh) <= 1:  # (the usual case: one piece turned, in no order but its own)
        return list(fresh)
    # only the places where the pieces lie are read, in zone order (every place, if they are not all found so)
    loc = after.loc
    places: dict[str, set[Any]] = {}
    for p in fresh:
        zone, key = loc[p]
        places.setdefault(zone, set()).add(key)
    out = []
    for zone, table in after.zones.items():
        keys = places.get(zone)
        if keys is not None:
            for key, lst in table.items():
                if key in keys:
                    out += [p for p in lst if p in fresh]
    if len(out) == len(fresh):
        return out
    return [p for table in after.zones.values() for lst in table.values() for p in lst if p in fresh]


def looked_since(was_seen: Sequence[int], after: State) -> list[tuple[int, int]]:
    """``(piece, player)`` for each player who looked at a piece since ``was_seen`` (a copy of an
    earlier ``state.seen``): the cheap form of :func:`newly_seen`."""
    if was_seen == after.seen:
        return []
    out = []
    for p, (old, new) in enumerate(zip(was_seen, after.seen)):
        fresh = new & ~old
        player = 0
        while fresh:
            if fresh & 1:
                out.append((p, player))
            fresh >>= 1
            player += 1
    return out


def newly_seen(before: State | Marks, after: State) -> list[tuple[int, int]]:
    """``(piece, player)`` for each player who looked at a piece between the two states."""
    return looked_since(before.seen, after)


def option_pieces(state: State, index: int) -> list[int]:
    """The pieces an option of the pending decision names (values of piece type)."""
    pending = state.pending
    if pending is None:
        return []
    branch_index, values = pending.options[index]
    bindings = pending.decision.branches[branch_index].bindings
    return [v for v, b in zip(values, bindings) if isinstance(b.type, PieceType)]


def option_words(state: State, index: int, piece_word: Callable[[int], str]) -> list[str]:
    """An option of the pending decision as words (:func:`.notation.words`), pieces written by ``piece_word``."""
    pending = state.pending
    if pending is None:
        return []
    branch_index, values = pending.options[index]
    return notation.words(pending.decision.branches[branch_index], values, state.game.piece_keys, piece_word)


__all__ = [
    "exchange_identities",
    "find_pieces",
    "frames_of",
    "move_to",
    "newly_revealed",
    "newly_seen",
    "option_pieces",
    "option_words",
    "procedure_of",
    "refresh",
    "run_until",
    "set_local",
    "set_value",
    "turned_face_up",
]
