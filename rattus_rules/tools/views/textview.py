"""A position of any game as text and as JSON: who is to move, the state's values, the zones, what is legal.

For games whose package draws no view of its own (the command line's replay
uses this one then).  Pieces are written by ``written`` (a record's faces, with
the unknown word for the faces a viewer may not see); seats as ``P0`` with the
record's name beside it if it gives another.

>>> from rattus_rules.tools.views.textview import key_text
>>> key_text(("P0", "north"))
'[P0, north]'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from interpreter import notation
from interpreter.game import Game
from interpreter.notation import is_piece_type
from interpreter.runtime import State
from interpreter.types import ANY, Type, element_type, spec_type

from ..records.walk import option_words, seat_name


def _dim_types(game: Game, dims: Sequence[str]) -> list[Type]:
    entities = game.table_keys
    return [spec_type(d, game.symbols.pieces, entities) or ANY for d in dims]


def _key_words(game: Game, dims: Sequence[str], key: Any) -> tuple[str, ...]:
    """The words of a zone's or a value's key, by the types of its dimensions (a seat as ``P0``)."""
    if not dims:
        return ()
    parts = key if isinstance(key, tuple) else (key,)
    return tuple(notation.value_word(v, t, game.piece_words) for v, t in zip(parts, _dim_types(game, dims)))


def key_text(words: Sequence[str]) -> str:
    """A key's words as written after a name: ``[P0, north]``; nothing for no key."""
    return f"[{', '.join(words)}]" if words else ""


def _value(value: Any, t: Type, written: Callable[[int], str]) -> Any:
    """A state value as JSON data: a piece by ``written`` (its face), sets sorted, tuples as lists."""
    if value is not None and is_piece_type(t):
        return written(value)
    if isinstance(value, set | frozenset):
        return sorted((_value(v, element_type(t), written) for v in value), key=repr)
    if isinstance(value, list | tuple):
        return [_value(v, element_type(t), written) for v in value]
    return value


def value_type(game: Game, name: str) -> Type:
    """The type of a state value: the type it is declared to hold, else ``any``."""
    return game.symbols.declared_state_type(game.symbols.states[name]) or ANY


def position_json(state: State, written: Callable[[int], str],
                  names: Sequence[str] | None = None, *, with_values: bool = True) -> dict[str, Any]:
    """The position as JSON data: to move, the rule asking, every value and zone (pieces by
    ``written``), the legal actions (pieces by ``written``), and at the end scores and winners
    (``with_values=False``: the values left out, for a caller that writes them its own way)."""
    game = state.game
    symbols = game.symbols
    over = state.is_terminal()
    values = {}
    for name, table in state.vals.items() if with_values else ():
        dims, t = symbols.states[name].dims, value_type(game, name)
        values[name] = [{"key": list(_key_words(game, dims, k)), "value": _value(v, t, written)}
                        for k, v in table.items()]
    zones = {}
    for name, zone in state.zones.items():
        dims = symbols.zones[name].dims
        zones[name] = [{"key": list(_key_words(game, dims, k)), "pieces": [written(p) for p in pieces]}
                       for k, pieces in zone.items()]
    legal: list[str] = []
    if not over:
        texts = [" ".join(option_words(state, o, written)) for o in state.pending.options] if state.pending else []
        legal = list(dict.fromkeys(texts))
    return {
        "game": game.name,
        "players": state.n,
        "names": list(names) if names else [notation.seat(p) for p in state.seats],
        "to_move": None if over else notation.who(state.current_player),
        "rule": "" if over else state.decision_rule(),
        "values": values,
        "zones": zones,
        "legal": legal,
        "scores": state.scores() if over else None,
        "winners": [notation.seat(w) for w in state.winner() or []] if over else None,
    }


#: A value held at more keys than this is said to be held "elsewhere" (or "at all N") instead of listing them.
LISTED_KEYS = 8


def _grouped(keys: dict[str, list[str]]) -> str:
    """Keys grouped by the value they hold: ``1 at c1, d1; 0 elsewhere`` (the value held most
    often, if at more than :data:`LISTED_KEYS` keys, is not listed key by key).

    >>> _grouped({"1": ["c1", "d1"], "0": [f"x{i}" for i in range(9)]})
    '1 at c1, d1; 0 elsewhere'
    >>> _grouped({"0": [f"x{i}" for i in range(9)]}), _grouped({"0": ["P0"], "2": ["P1"]})
    ('0 at all 9', '0 at P0; 2 at P1')
    """
    common = max(keys, key=lambda word: len(keys[word]))
    parts = []
    for word, at in keys.items():
        if word == common and len(at) > LISTED_KEYS:
            continue
        parts.append(f"{word} at {', '.join(at)}")
    if len(keys[common]) > LISTED_KEYS:
        parts.append(f"{common} elsewhere" if parts else f"{common} at all {len(keys[common])}")
    return "; ".join(parts)


def position_text(state: State, written: Callable[[int], str], names: Sequence[str] | None = None,
                  max_actions: int = 40) -> str:
    """The position as text, the facts of :func:`position_json`: a line per value (its keys grouped by
    what they hold, :func:`_grouped`) and per zone."""
    data = position_json(state, written, names, with_values=False)  # the values are grouped below
    to_move = state.current_player
    if data["to_move"] is None:
        moving = "nobody, the game is over"
    elif to_move == notation.CHANCE_PLAYER:
        moving = f"chance ({data['rule']})"
    else:
        moving = f"{seat_name(to_move, names)} ({data['rule']})"
    game = state.game
    lines = [f"{game.title}, {state.n} players; to move: {moving}"]
    for name, table in state.vals.items():
        dims, t = game.symbols.states[name].dims, value_type(game, name)
        if not dims:
            lines.append(f"  {name} = {notation.value_word(table[None], t, game.piece_words, written)}")
            continue
        keys: dict[str, list[str]] = {}  # each value's word → the keys that hold it, in key order
        for k, v in table.items():
            keys.setdefault(notation.value_word(v, t, game.piece_words, written), []).append(
                " ".join(_key_words(game, dims, k)))
        lines.append(f"  {name}: {_grouped(keys)}")
    for name, rows in data["zones"].items():
        for row in rows:
            pieces = row["pieces"]
            lines.append(f"  {name}{key_text(row['key'])}: {len(pieces)} [{', '.join(pieces)}]")
    if data["scores"] is not None:
        lines.append("scores: " + ", ".join(f"{seat_name(p, names)} {s}" for p, s in enumerate(data["scores"]))
                     + "; winner: " + " and ".join(seat_name(w, names) for w in state.winner() or []))
    else:
        legal = data["legal"]
        more = f" … ({len(legal) - max_actions} more)" if len(legal) > max_actions else ""
        lines.append(f"legal: {', '.join(legal[:max_actions])}{more}")
    return "\n".join(lines)


__all__ = ["key_text", "position_json", "position_text", "value_type"]
