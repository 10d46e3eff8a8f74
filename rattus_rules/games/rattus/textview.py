"""A Rattus position as readable text: for `rattus replay`, scenarios and error reports.

``render_text(state)`` shows every face; pass ``shown`` to say which tokens'
faces may be printed (a player's view, or what a record has revealed), the
others appear as ``?``.

>>> from rattus_rules import new_game
>>> print(render_text(new_game(2, seed=3)).splitlines()[0])
Rattus, 2 players — setup; to move: P0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from interpreter import CHANCE_PLAYER, TERMINAL_PLAYER, State, notation
from interpreter.edit import option_words
from rattus_rules.tools.records.validate import seat_name

from .faces import UNKNOWN, face_text
from .names import View


def render_text(state: State, shown: Callable[[int], bool] | None = None,
                names: Sequence[str] | None = None, max_actions: int = 40) -> str:
    """The position as text: phase, plague, cards, supplies, every region, who is to move."""
    game = state.game
    view = View(state)

    def token(t: int) -> str:
        return face_text(game, t) if shown is None or shown(t) else UNKNOWN

    to_move = state.current_player
    if to_move == TERMINAL_PLAYER:
        moving = "nobody, the game is over"
    elif to_move == CHANCE_PLAYER:
        moving = f"chance ({state.decision_rule()})"
    else:
        moving = seat_name(to_move, names)
    lines = [f"{game.title}, {state.n} players — {view.phase}; to move: {moving}"]
    plague = view.plague
    lines.append(f"plague: {plague if plague is not None else 'not placed yet'}")
    held = [f"{c} {seat_name(view.holder[c], names)}" for c in view.classes if view.holder[c] is not None]
    display = [c for c in view.classes if view.holder[c] is None]
    lines.append("cards: " + (", ".join(held) or "none held") + (f"; display: {' '.join(display)}" if display else ""))
    lines.append("supply: " + ", ".join(f"{seat_name(p, names)} {view.supply[p]}" for p in state.seats)
                 + "; castle: " + ", ".join(f"{seat_name(p, names)} {view.castle[p]}" for p in state.seats))
    out = view.out
    lines.append(f"stock: {len(view.stock)} tokens; out of the game: {len(out)}"
                 + (f" ({', '.join(token(t) for t in out)})" if out else "")
                 + f"; removed at setup: {len(view.box)}")
    in_play = view.in_play
    width = max(len(r) for r in in_play)
    for r in in_play:
        rats = view.rats[r]
        cubes = ", ".join(f"{seat_name(p, names)} {view.cubes[(p, r)]}"
                          for p in state.seats if view.cubes[(p, r)])
        mark = "*" if r == plague else " "
        lines.append(f" {mark}{r:<{width}}  tokens [{', '.join(token(t) for t in rats)}]"
                     + (f"  cubes {cubes}" if cubes else ""))
    if to_move == TERMINAL_PLAYER:
        scores = state.scores()
        lines.append("scores: " + ", ".join(f"{seat_name(p, names)} {s}" for p, s in enumerate(scores))
                     + "; winner: " + " and ".join(seat_name(w, names) for w in state.winner() or []))
    else:
        texts = [" ".join(option_words(state, i, token)) for i in range(state.num_legal_actions())]
        unique = list(dict.fromkeys(texts))
        more = f" … ({len(unique) - max_actions} more)" if len(unique) > max_actions else ""
        lines.append(f"legal ({state.decision_rule()}): {', '.join(unique[:max_actions])}{more}")
    return "\n".join(lines)


def position_json(state: State, shown: Callable[[int], bool] | None = None,
                  names: Sequence[str] | None = None) -> dict[str, Any]:
    """The position as JSON, the same facts :func:`render_text` prints; faces not ``shown`` are ``?``.

    Seats are written ``P0``…; ``names`` (a record's seat names) are given beside them.

    >>> from rattus_rules import new_game
    >>> sorted(position_json(new_game(2, seed=3)))  # doctest: +NORMALIZE_WHITESPACE
    ['cards', 'castle', 'display', 'legal', 'names', 'out', 'phase', 'plague', 'regions', 'removed_at_setup',
     'rule', 'scores', 'stock', 'supply', 'to_move', 'winners']
    """
    game = state.game
    view = View(state)

    def token(t: int) -> str:
        return face_text(game, t) if shown is None or shown(t) else UNKNOWN

    def seat(p: int | None) -> str | None:
        return None if p is None else notation.seat(p)

    to_move = state.current_player
    over = to_move == TERMINAL_PLAYER
    rule = "" if over else state.decision_rule()
    if over:
        moving, legal = None, []
    else:
        moving = notation.who(to_move)
        texts = [" ".join(option_words(state, i, token)) for i in range(state.num_legal_actions())]
        legal = list(dict.fromkeys(texts))
    return {
        "phase": view.phase, "to_move": moving, "rule": rule,
        "names": list(names) if names else [notation.seat(p) for p in state.seats],
        "plague": view.plague,
        "cards": {c: seat(view.holder[c]) for c in view.classes},
        "display": [c for c in view.classes if view.holder[c] is None],
        "supply": {notation.seat(p): view.supply[p] for p in state.seats},
        "castle": {notation.seat(p): view.castle[p] for p in state.seats},
        "stock": len(view.stock),
        "out": [token(t) for t in view.out],
        "removed_at_setup": len(view.box),
        "regions": {r: {"tokens": [token(t) for t in view.rats[r]],
                        "cubes": {notation.seat(p): view.cubes[(p, r)] for p in state.seats}}
                    for r in view.in_play},
        "legal": legal,
        "scores": state.scores() if over else None,
        "winners": [notation.seat(w) for w in state.winner() or []] if over else None,
    }


def players_json(state: State, seats: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Each seat's supply, castle cubes, cards and score (the spec's ``score``: cubes on the board and in
    the castle), whether it is to move, and once the game is over whether it won."""
    vals = state.vals
    holder = vals.get("holder", {})
    scores = state.scores()
    winners = (state.winner() or []) if state.is_terminal() else []
    return [{"seat": notation.seat(p), "label": seat_name(p, seats), "score": scores[p],
             "supply": vals.get("supply", {}).get(p, 0), "castle": vals.get("castle", {}).get(p, 0),
             "cards": [str(c) for c, h in holder.items() if h == p], "winner": p in winners,
             "to_move": p == state.current_player} for p in state.seats]
