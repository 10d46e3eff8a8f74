"""Pictures of the board and of a game state, as SVG text drawn from the data.

:func:`board_svg` draws the board of a loaded spec: every region of the region
table, coloured by the smallest player count that uses it, and every row of the
adjacency table as an edge — solid if the data marks it verified, dashed if it
is a reconstruction.  :func:`state_svg` draws a game state: cubes per player and
face-down rat tokens per region, the plague, the castle, the cards held, the
supplies and the revealed tokens.  Region positions are presentation only
(:mod:`rattus_rules.layout`).

Every drawn region and edge carries ``data-`` attributes naming what it shows,
so that tests (and tools) can read the picture back.

>>> from rattus_rules import load_rules, new_game
>>> svg = board_svg(load_rules())
>>> svg.startswith("<svg") and 'data-region="Gallia"' in svg
True
>>> "plague" in state_svg(new_game(3, seed=1))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import attrs

from interpreter import Game, State

from .layout import MAP_WIDTH, positions

#: Colour of each player's cubes (seat 0, 1, 2, 3): presentation only.
PLAYER_COLOURS = ("#d62728", "#e8b400", "#2ca02c", "#1f77b4")
#: Fill of a region by the smallest player count that uses it (the board's colours).
REGION_FILLS = {2: "#f3e4bd", 3: "#d8b47a", 4: "#9c6b3d"}
_INK = "#2b2118"
_RECONSTRUCTED = "#8a8a8a"
_PLAGUE = "#b3001b"

# The Rattus spec's names this module reads (the spec declares them in game.rules).
GRAPH, REGION_TABLE, PLAYERS_COLUMN = "board", "regions", "first_used_with_players"


@attrs.frozen
class Edge:
    """One row of the adjacency table, as drawn."""

    a: str
    b: str
    verified: bool
    provenance: str


def board_edges(game: Game) -> list[Edge]:
    """Every row of the board's edge table with whether the spec counts it verified."""
    g = game.symbols.graphs[GRAPH]
    table = game.tables[g.edges]
    return [Edge(str(row[g.source]), str(row[g.target]), game.verified(g.edges, row[table.key]),
                 table.provenance(row[table.key])) for row in table.rows]


def regions_with_players(game: Game) -> list[tuple[str, int]]:
    """Every region with the smallest player count that has it in play (0: never in play)."""
    nodes_table = game.symbols.graphs[GRAPH].nodes
    out = []
    for key in game.tables[nodes_table].keys:
        counts = [n for n in range(game.min_players, game.max_players + 1)
                  if key in game.world(n).nodes[GRAPH]]
        out.append((str(key), min(counts) if counts else 0))
    return out


# ----------------------------------------------------------------- drawing


def _attrs(**kw: Any) -> str:
    return "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in kw.items() if v is not None)


def _text(x: float, y: float, s: str, size: int = 13, anchor: str = "middle", weight: str = "normal",
          fill: str = _INK, cls: str | None = None) -> str:
    where = _attrs(x=round(x, 1), y=round(y, 1), font_size=size, text_anchor=anchor, font_weight=weight, fill=fill,
                   class_=cls)
    return f"<text{where}>{escape(s)}</text>"


def _svg(width: int, height: int, title: str, body: Iterable[str]) -> str:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" role="img">')
    return "\n".join([head, f"<title>{escape(title)}</title>",
                      f'<rect width="{width}" height="{height}" fill="#fbf8f1"/>', *body, "</svg>"]) + "\n"


def _edge_line(e: Edge, pos: dict[str, tuple[int, int]], extra: str = "") -> str:
    (x1, y1), (x2, y2) = pos[e.a], pos[e.b]
    style = (f'stroke="{_INK}" stroke-width="2.5"' if e.verified
             else f'stroke="{_RECONSTRUCTED}" stroke-width="1.8" stroke-dasharray="7 5"')
    kind = "verified" if e.verified else "reconstructed"
    return (f'<line class="edge {kind}" data-a={quoteattr(e.a)} data-b={quoteattr(e.b)} '
            f'x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {style}{extra}>'
            f"<title>{escape(f'{e.a} – {e.b}: {kind} ({e.provenance})')}</title></line>")


def _text_colour(players: int) -> str:
    return "#ffffff" if players >= 4 else _INK


def board_svg(game: Game) -> str:
    """An SVG picture of the board: regions, adjacency, player counts, verified and reconstructed edges."""
    regions = regions_with_players(game)
    pos, height = positions([r for r, _ in regions])
    height += 95
    body: list[str] = ['<g class="edges">']
    body += [_edge_line(e, pos) for e in board_edges(game) if e.a in pos and e.b in pos]
    body.append("</g>")
    body.append('<g class="regions">')
    for name, players in regions:
        x, y = pos[name]
        fill = REGION_FILLS.get(players, "#dddddd")
        label = f"{players}+ players" if players else "never in play"
        body.append(f'<g class="region" data-region={quoteattr(name)} data-players="{players}">'
                    f"<title>{escape(f'{name}: in play with {label}')}</title>"
                    f'<rect x="{x - 58}" y="{y - 22}" width="116" height="44" rx="12" fill="{fill}" '
                    f'stroke="{_INK}" stroke-width="1.2"/>'
                    + _text(x, y - 2, name, 14, weight="bold", fill=_text_colour(players))
                    + _text(x, y + 14, label, 10, fill=_text_colour(players)) + "</g>")
    body.append("</g>")
    body += _board_legend(height - 95, game)
    title = f"{game.title}: the board from the component data"
    return _svg(MAP_WIDTH, height, title, body)


def _board_legend(top: int, game: Game) -> list[str]:
    out = ['<g class="legend">', _text(20, top + 14, "Legend", 13, "start", "bold")]
    x = 20
    for players in range(game.min_players, game.max_players + 1):
        fill = REGION_FILLS.get(players, "#dddddd")
        out.append(f'<rect x="{x}" y="{top + 26}" width="34" height="18" rx="5" fill="{fill}" stroke="{_INK}"/>')
        out.append(_text(x + 42, top + 40, f"in play from {players} players", 12, "start"))
        x += 200
    y = top + 70
    out.append(f'<line x1="20" y1="{y}" x2="70" y2="{y}" stroke="{_INK}" stroke-width="2.5"/>')
    out.append(_text(80, y + 4, "neighbours, verified by a rule text", 12, "start"))
    out.append(f'<line x1="380" y1="{y}" x2="430" y2="{y}" stroke="{_RECONSTRUCTED}" stroke-width="1.8" '
               'stroke-dasharray="7 5"/>')
    out.append(_text(440, y + 4, "neighbours, reconstructed (not verified)", 12, "start"))
    out.append("</g>")
    return out


# ------------------------------------------------------------------- states


def _value(state: State, name: str, key: Any = None, default: Any = None) -> Any:
    return state.vals.get(name, {}).get(key, default)


def _token_label(face: dict[str, Any]) -> str:
    symbols = "+".join(str(s) for s in face.get("symbols", []))
    return f"{face.get('threshold', '?')}: {symbols}"


def state_svg(state: State) -> str:
    """An SVG picture of a game state: cubes, face-down tokens, the plague, castle, cards and supplies."""
    game = state.game
    all_regions = [r for r, _ in regions_with_players(game)]
    in_play = set(state.world.nodes[GRAPH])
    pos, map_height = positions(all_regions)
    panel_x = MAP_WIDTH + 10
    width = MAP_WIDTH + 300
    plague = _value(state, "plague")
    body: list[str] = ['<g class="edges">']
    body += [_edge_line(e, pos, ' opacity="0.45"') for e in board_edges(game)
             if e.a in in_play and e.b in in_play]
    body.append("</g>")
    body.append('<g class="regions">')
    for region in all_regions:
        body.append(_state_region(state, region, pos[region], region in in_play, region == plague))
    body.append("</g>")
    body += _state_legend(map_height + 10)
    panel, bottom = _state_panel(state, panel_x)
    body += panel
    return _svg(width, max(map_height + 40, bottom + 16), f"{game.title}: a game state", body)


def _state_legend(y: int) -> list[str]:
    return ['<g class="legend">',
            f'<rect x="20" y="{y}" width="18" height="18" rx="4" fill="#3a2f2a"/>' + _text(29, y + 13, "?", 11,
                                                                                          fill="#ffffff"),
            _text(44, y + 13, "a face-down rat token", 12, "start"),
            f'<circle cx="230" cy="{y + 9}" r="10" fill="{_PLAGUE}"/>' + _text(230, y + 13, "☠", 12,
                                                                                fill="#ffffff"),
            _text(246, y + 13, "the plague", 12, "start"),
            f'<rect x="340" y="{y + 2}" width="14" height="14" fill="{PLAYER_COLOURS[0]}" stroke="{_INK}" '
            'stroke-width="0.6"/>',
            _text(360, y + 13, "a player's cubes in the region", 12, "start"),
            "</g>"]


def _state_region(state: State, region: str, at: tuple[int, int], in_play: bool, plague: bool) -> str:
    x, y = at
    w, h = 136, 84
    left, top = x - w // 2, y - h // 2
    if not in_play:
        return (f'<g class="region" data-region={quoteattr(region)} data-in-play="no">'
                f'<rect x="{left}" y="{top}" width="{w}" height="{h}" rx="10" fill="#eeeeee" stroke="#bbbbbb" '
                f'stroke-dasharray="4 4"/>' + _text(x, y - 4, region, 13, fill="#999999")
                + _text(x, y + 14, "not in play", 10, fill="#999999") + "</g>")
    pieces = state.zones.get("rats", {}).get(region, [])
    hidden = [p for p in pieces if not state.face_up[p]]
    shown = [p for p in pieces if state.face_up[p]]
    cubes = [(p, int(_value(state, "cubes", (p, region), 0))) for p in state.seats]
    stroke = f'stroke="{_PLAGUE}" stroke-width="3.5"' if plague else f'stroke="{_INK}" stroke-width="1.2"'
    out = [f'<g class="region" data-region={quoteattr(region)} data-in-play="yes" '
           f'data-tokens="{len(hidden)}" data-revealed="{len(shown)}" '
           f'data-cubes={quoteattr(" ".join(str(c) for _, c in cubes))}'
           + (' data-plague="yes"' if plague else "") + ">",
           f'<rect x="{left}" y="{top}" width="{w}" height="{h}" rx="10" fill="#fffdf6" {stroke}/>',
           _text(x, top + 16, region, 13, weight="bold")]
    # face-down rat tokens: small dark tiles
    for i in range(len(hidden)):
        tx = left + 8 + i * 22
        out.append(f'<rect class="token" x="{tx}" y="{top + 24}" width="18" height="18" rx="4" fill="#3a2f2a"/>'
                   + _text(tx + 9, top + 37, "?", 11, fill="#ffffff"))
    for i, p in enumerate(shown):
        out.append(_text(left + 8 + (len(hidden) + i) * 22, top + 37, _token_label(state.face(p)), 10, "start",
                         fill=_PLAGUE, cls="revealed-token"))
    if plague:
        out.append(f'<g class="plague"><circle cx="{left + w - 16}" cy="{top + 33}" r="11" fill="{_PLAGUE}"/>'
                   + _text(left + w - 16, top + 37, "☠", 13, fill="#ffffff") + "<title>the plague</title></g>")
    # cubes per player
    for i, (p, n) in enumerate(cubes):
        cx = left + 8 + i * 32
        colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        opacity = "1" if n else "0.25"
        out.append(f'<rect class="cubes" data-player="{p}" x="{cx}" y="{top + 52}" width="14" height="14" '
                   f'fill="{colour}" opacity="{opacity}" stroke="{_INK}" stroke-width="0.6"/>'
                   + _text(cx + 17, top + 64, str(n), 11, "start"))
    out.append("</g>")
    return "".join(out)


def _state_panel(state: State, x: int) -> tuple[list[str], int]:
    game = state.game
    holder = state.vals.get("holder", {})
    out = ['<g class="panel">']
    y = 24
    phase = _value(state, "phase", None, "")
    out.append(_text(x, y, f"{game.title}, {state.n} players — phase: {phase}", 14, "start", "bold"))
    y += 22
    to_move = state.current_player
    if state.is_terminal():
        winners = ", ".join(f"P{w}" for w in state.winner() or [])
        status = f"game over; winner: {winners}"
    elif state.is_chance_node():
        status = f"waiting for chance ({state.decision_rule()})"
    else:
        status = f"P{to_move} to decide ({state.decision_rule()})"
    out.append(_text(x, y, status, 12, "start", cls="status"))
    y += 26
    for p in state.seats:
        colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        cards = [str(c) for c, h in holder.items() if h == p]
        out.append(f'<g class="player" data-player="{p}" data-supply="{_value(state, "supply", p, 0)}" '
                   f'data-castle="{_value(state, "castle", p, 0)}" data-cards={quoteattr(" ".join(cards))}>')
        out.append(f'<rect x="{x}" y="{y - 12}" width="16" height="16" fill="{colour}" stroke="{_INK}"/>')
        mark = "  ◀ to move" if p == to_move else ""
        out.append(_text(x + 24, y + 1, f"P{p}{mark}", 13, "start", "bold"))
        out.append(_text(x + 24, y + 19, f"supply {_value(state, 'supply', p, 0)} · castle "
                                         f"{_value(state, 'castle', p, 0)}", 12, "start"))
        out.append(_text(x + 24, y + 37, "cards: " + (", ".join(cards) or "none"), 12, "start"))
        out.append("</g>")
        y += 58
    y += 6
    out.append(_castle(x, y, state))
    y += 58
    zones = state.zones
    stock = len(zones.get("stock", {}).get(None, []))
    revealed = zones.get("out", {}).get(None, [])
    boxed = len(zones.get("box", {}).get(None, []))
    out.append(f'<g class="tokens" data-stock="{stock}" data-revealed="{len(revealed)}" data-box="{boxed}">')
    out.append(_text(x, y, f"rat tokens: {stock} in the stock, {boxed} out of the game", 12, "start"))
    y += 18
    out.append(_text(x, y, f"revealed so far: {len(revealed)}", 12, "start"))
    for p in list(revealed)[-4:][::-1]:
        y += 16
        out.append(_text(x + 12, y, "#" + str(game.piece_keys[p]) + " — " + _token_label(state.face(p)), 11,
                         "start", fill=_PLAGUE))
    out.append("</g>")
    out.append("</g>")
    return out, y


def _castle(x: int, y: int, state: State) -> str:
    counts: Sequence[tuple[int, int]] = [(p, int(_value(state, "castle", p, 0))) for p in state.seats]
    out = [f'<g class="castle" data-cubes={quoteattr(" ".join(str(n) for _, n in counts))}>',
           f'<path d="M{x} {y + 40} v-26 h8 v-8 h8 v8 h8 v-8 h8 v8 h8 v26 z" fill="#b9a88a" stroke="{_INK}"/>',
           _text(x + 52, y + 12, "castle (safe from the plague)", 12, "start")]
    for i, (p, n) in enumerate(counts):
        cx = x + 52 + i * 40
        out.append(f'<rect x="{cx}" y="{y + 22}" width="14" height="14" '
                   f'fill="{PLAYER_COLOURS[p % len(PLAYER_COLOURS)]}" stroke="{_INK}" stroke-width="0.6"/>'
                   + _text(cx + 17, y + 34, str(n), 11, "start"))
    out.append("</g>")
    return "".join(out)
