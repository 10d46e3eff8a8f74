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

from interpreter import CHANCE_PLAYER, TERMINAL_PLAYER, State
from interpreter.edit import option_words

from .faces import CLASSES, UNKNOWN, face_text


def render_text(state: State, shown: Callable[[int], bool] | None = None,
                names: Sequence[str] | None = None, max_actions: int = 40) -> str:
    """The position as text: phase, plague, cards, supplies, every region, who is to move."""
    game = state.game
    vals = state.vals

    def who(seat: int) -> str:
        if names and 0 <= seat < len(names) and names[seat] != f"P{seat}":
            return f"P{seat} ({names[seat]})"
        return f"P{seat}"

    def token(t: int) -> str:
        return face_text(game, t) if shown is None or shown(t) else UNKNOWN

    to_move = state.current_player
    if to_move == TERMINAL_PLAYER:
        moving = "nobody, the game is over"
    elif to_move == CHANCE_PLAYER:
        moving = f"chance ({state.decision_rule()})"
    else:
        moving = who(to_move)
    lines = [f"{game.title}, {state.n} players — {vals['phase'][None]}; to move: {moving}"]
    plague = vals["plague"][None]
    lines.append(f"plague: {plague if plague is not None else 'not placed yet'}")
    held = [f"{c} {who(vals['holder'][c])}" for c in CLASSES if vals["holder"][c] is not None]
    display = [c for c in CLASSES if vals["holder"][c] is None]
    lines.append("cards: " + (", ".join(held) or "none held") + (f"; display: {' '.join(display)}" if display else ""))
    lines.append("supply: " + ", ".join(f"{who(p)} {vals['supply'][p]}" for p in state.seats)
                 + "; castle: " + ", ".join(f"{who(p)} {vals['castle'][p]}" for p in state.seats))
    out = state.zones["out"][None]
    lines.append(f"stock: {len(state.zones['stock'][None])} tokens; out of the game: {len(out)}"
                 + (f" ({', '.join(token(t) for t in out)})" if out else "")
                 + f"; removed at setup: {len(state.zones['box'][None])}")
    in_play = state.world.nodes["board"]
    width = max(len(r) for r in in_play)
    for r in in_play:
        rats = state.zones["rats"][r]
        cubes = ", ".join(f"{who(p)} {vals['cubes'][(p, r)]}" for p in state.seats if vals["cubes"][(p, r)])
        mark = "*" if r == plague else " "
        lines.append(f" {mark}{r:<{width}}  tokens [{', '.join(token(t) for t in rats)}]"
                     + (f"  cubes {cubes}" if cubes else ""))
    if to_move == TERMINAL_PLAYER:
        scores = state.scores()
        lines.append("scores: " + ", ".join(f"{who(p)} {s}" for p, s in enumerate(scores))
                     + "; winner: " + " and ".join(who(w) for w in state.winner() or []))
    else:
        texts = [" ".join(option_words(state, i, token)) for i in range(state.num_legal_actions())]
        unique = list(dict.fromkeys(texts))
        more = f" … ({len(unique) - max_actions} more)" if len(unique) > max_actions else ""
        lines.append(f"legal ({state.decision_rule()}): {', '.join(unique[:max_actions])}{more}")
    return "\n".join(lines)
