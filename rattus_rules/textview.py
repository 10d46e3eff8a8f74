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

from interpreter import CHANCE_PLAYER, TERMINAL_PLAYER, State
from interpreter.edit import option_words

from .faces import CLASSES, UNKNOWN, face_text
from .records import seat_name


def render_text(state: State, shown: Callable[[int], bool] | None = None,
                names: Sequence[str] | None = None, max_actions: int = 40) -> str:
    """The position as text: phase, plague, cards, supplies, every region, who is to move."""
    game = state.game
    vals = state.vals

    def token(t: int) -> str:
        return face_text(game, t) if shown is None or shown(t) else UNKNOWN

    to_move = state.current_player
    if to_move == TERMINAL_PLAYER:
        moving = "nobody, the game is over"
    elif to_move == CHANCE_PLAYER:
        moving = f"chance ({state.decision_rule()})"
    else:
        moving = seat_name(to_move, names)
    lines = [f"{game.title}, {state.n} players — {vals['phase'][None]}; to move: {moving}"]
    plague = vals["plague"][None]
    lines.append(f"plague: {plague if plague is not None else 'not placed yet'}")
    held = [f"{c} {seat_name(vals['holder'][c], names)}" for c in CLASSES if vals["holder"][c] is not None]
    display = [c for c in CLASSES if vals["holder"][c] is None]
    lines.append("cards: " + (", ".join(held) or "none held") + (f"; display: {' '.join(display)}" if display else ""))
    lines.append("supply: " + ", ".join(f"{seat_name(p, names)} {vals['supply'][p]}" for p in state.seats)
                 + "; castle: " + ", ".join(f"{seat_name(p, names)} {vals['castle'][p]}" for p in state.seats))
    out = state.zones["out"][None]
    lines.append(f"stock: {len(state.zones['stock'][None])} tokens; out of the game: {len(out)}"
                 + (f" ({', '.join(token(t) for t in out)})" if out else "")
                 + f"; removed at setup: {len(state.zones['box'][None])}")
    in_play = state.world.nodes["board"]
    width = max(len(r) for r in in_play)
    for r in in_play:
        rats = state.zones["rats"][r]
        cubes = ", ".join(f"{seat_name(p, names)} {vals['cubes'][(p, r)]}"
                          for p in state.seats if vals["cubes"][(p, r)])
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
    vals = state.vals

    def token(t: int) -> str:
        return face_text(game, t) if shown is None or shown(t) else UNKNOWN

    def seat(p: int | None) -> str | None:
        return None if p is None else f"P{p}"

    to_move = state.current_player
    over = to_move == TERMINAL_PLAYER
    rule = "" if over else state.decision_rule()
    if over:
        moving, legal = None, []
    else:
        moving = "chance" if to_move == CHANCE_PLAYER else seat(to_move)
        texts = [" ".join(option_words(state, i, token)) for i in range(state.num_legal_actions())]
        legal = list(dict.fromkeys(texts))
    return {
        "phase": vals["phase"][None], "to_move": moving, "rule": rule,
        "names": list(names) if names else [f"P{p}" for p in state.seats],
        "plague": vals["plague"][None],
        "cards": {c: seat(vals["holder"][c]) for c in CLASSES},
        "display": [c for c in CLASSES if vals["holder"][c] is None],
        "supply": {f"P{p}": vals["supply"][p] for p in state.seats},
        "castle": {f"P{p}": vals["castle"][p] for p in state.seats},
        "stock": len(state.zones["stock"][None]),
        "out": [token(t) for t in state.zones["out"][None]],
        "removed_at_setup": len(state.zones["box"][None]),
        "regions": {r: {"tokens": [token(t) for t in state.zones["rats"][r]],
                        "cubes": {f"P{p}": vals["cubes"][(p, r)] for p in state.seats}}
                    for r in state.world.nodes["board"]},
        "legal": legal,
        "scores": state.scores() if over else None,
        "winners": [f"P{w}" for w in state.winner() or []] if over else None,
    }
