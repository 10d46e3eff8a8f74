"""Renaming pieces: the same position with other pieces in the same places.

A player who cannot see some faces cannot tell a position from the same
position with those pieces exchanged.  :func:`relabelled` makes such a twin:
every reference to a piece follows a mapping (the zones that hold it, the
kept values and the locals of the running procedures whose declared type is
a piece or a list of pieces, the face-up and seen marks), and the pending
decision is listed again.  The twin's structure is the state's own, so the
rules go on from it as from any state; only which face lies where differs.

What refers to a piece is read from the types the checker gave (a ``var``'s
declared type, :func:`.stored.local_types` for locals): a value the checker
knows no single type of is left as it is, so a spec that keeps pieces in
untyped variables is refused (:class:`Unrelabelable`) rather than renamed in
part.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .compiler import LOOP_ITEMS, loop_counters
from .runtime import State
from .stored import local_types
from .types import ANY, ListType, PieceType, Type


class Unrelabelable(ValueError):
    """The state keeps a value that may be a piece where the checker knows no type for it."""


def _maps(t: Type | None) -> bool:
    """Whether values of type ``t`` may hold pieces (a piece, or a list of them at any depth)."""
    if isinstance(t, PieceType):
        return True
    if isinstance(t, ListType):
        return _maps(t.elem)
    return False


def _unknown(t: Type | None) -> bool:
    """Whether the checker knows no single type for values of ``t`` (so they might be pieces)."""
    return t is None or t == ANY or (isinstance(t, ListType) and _unknown(t.elem))


def _renamed(value: Any, mapping: Mapping[int, int]) -> Any:
    if type(value) is list:
        return [_renamed(v, mapping) for v in value]
    if type(value) is int:
        return mapping.get(value, value)
    return value


def _may_hold_piece(value: Any, pieces: Mapping[int, int]) -> bool:
    """Whether an untyped value holds a number that is a renamed piece."""
    if type(value) is list:
        return any(_may_hold_piece(v, pieces) for v in value)
    return type(value) is int and value in pieces and pieces[value] != value


def relabelled(state: State, mapping: Mapping[int, int]) -> State:
    """A copy of ``state`` in which piece ``p`` is called ``mapping[p]`` (pieces not named keep theirs).

    ``mapping`` must be a permutation of the pieces it names, each onto a piece
    of the same ``pieces`` declaration; :class:`ValueError` otherwise, and
    :class:`Unrelabelable` when a value the checker knows no type of holds a
    piece that would be renamed.  The copy's history is kept as it is.
    """
    g = state.game
    moved = {p: q for p, q in mapping.items() if p != q}
    if sorted(moved) != sorted(moved.values()):
        raise ValueError("a relabelling must be a permutation of the pieces it names")
    for p, q in moved.items():
        if not (0 <= p < len(g.piece_types) and 0 <= q < len(g.piece_types)):
            raise ValueError(f"no piece {p if not 0 <= p < len(g.piece_types) else q}")
        if g.piece_types[p] != g.piece_types[q]:
            raise ValueError(f"pieces {p} and {q} are of different declarations")
    st = state.clone()
    if not moved:
        return st
    for table in st.zones.values():
        for key, pieces in table.items():
            table[key] = [moved.get(p, p) for p in pieces]
    for p, q in moved.items():
        st.loc[q] = state.loc[p]
        st.face_up[q] = state.face_up[p]
        st.seen[q] = state.seen[p]
    symbols = g.symbols
    for name, table in st.vals.items():
        t = symbols.declared_state_type(symbols.states[name])
        if _maps(t):
            for key, value in table.items():
                table[key] = _renamed(value, moved)
        elif _unknown(t) and any(_may_hold_piece(v, moved) for v in table.values()):
            raise Unrelabelable(f"{name} holds values of no declared type that may be pieces")
    for frame in st.frames:
        proc = g.procedures[frame[0]]
        counters = {loop_counters(int(items.removeprefix(LOOP_ITEMS)))[1] for items in proc.loops}
        types: dict[str, Type] = local_types(proc.decl, g.checked)
        for items, loop in proc.loops.items():  # the list a loop that may stop inside goes through
            types[items] = g.checked.type_of(loop.domain)
        env = frame[2]
        for local, value in env.items():
            t = types.get(local)
            if _maps(t):
                env[local] = _renamed(value, moved)
            elif _unknown(t) and _may_hold_piece(value, moved) and local not in counters:
                raise Unrelabelable(f"local {local} of {proc.name} holds a value of no known type that may be a piece")
    if st.frames:
        top = st.frames[-1]
        st._pend(g.procedures[top[0]].code[top[1]][1], top[2])
    return st
