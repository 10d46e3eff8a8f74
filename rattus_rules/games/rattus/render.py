"""Pictures of the board and of a game state, as SVG text drawn from the data.

:func:`board_svg` draws the board of a loaded spec: every region of the region
table, coloured by the smallest player count that uses it, and every row of the
adjacency table as an edge — solid if the data marks it verified, dashed if it
is a reconstruction.  :func:`state_svg` draws a game state: cubes per player and
face-down rat tokens per region, the plague, the castle, the cards held, the
supplies and the revealed tokens.  Region positions are presentation only
(:mod:`rattus_rules.games.rattus.layout`).

Every drawn region and edge carries ``data-`` attributes naming what it shows,
so that tests (and tools) can read the picture back.  The pictures are built
as element trees (:mod:`xml.etree.ElementTree`) and serialised by it, so every
attribute value and text that comes from a state or from data is escaped: a
stored state cannot put markup, or a script, into a picture; a character XML
does not allow is written as its ``\\uXXXX`` notation.

>>> from rattus_rules import load_rules, new_game
>>> svg = board_svg(load_rules())
>>> svg.startswith("<svg") and 'data-region="Gallia"' in svg
True
>>> "plague" in state_svg(new_game(3, seed=1))
True
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from interpreter import Game, State, notation
from rattus_rules.tools.records.validate import seat_name
from rattus_rules.tools.views.webpage import xml_safe

from .layout import MAP_WIDTH, positions
from .names import BOARD, FIRST_USED_WITH_PLAYERS, REGIONS, View

#: The note every page that shows the board or tokens carries (the brief: say which data is reconstructed).
COMPONENTS_NOTE = ("Part of the component data is a reconstruction, not verified: the board's adjacency "
                   "(dashed lines are reconstructed neighbours) and most token faces. See the components page "
                   "of the documentation.")


#: Colour of each player's cubes (seat 0, 1, 2, 3): presentation only.
PLAYER_COLOURS = ("#d62728", "#e8b400", "#2ca02c", "#1f77b4")
#: Fill of a region by the smallest player count that uses it (the board's colours).
REGION_FILLS = {2: "#f3e4bd", 3: "#d8b47a", 4: "#9c6b3d"}
_INK = "#2b2118"
_RECONSTRUCTED = "#8a8a8a"
_PLAGUE = "#b3001b"

# The Rattus spec's names this module reads (rattus_rules.games.rattus.names): the board, its regions and the column
# that says from how many players on a region is used.
GRAPH, REGION_TABLE, PLAYERS_COLUMN = BOARD, REGIONS, FIRST_USED_WITH_PLAYERS


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

_SVG_NS = "http://www.w3.org/2000/svg"
Element = ET.Element


def _attr_name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _el(parent: Element | None, tag: str, text: str | None = None, **kw: Any) -> Element:
    """An element (under ``parent`` if given); keyword ``class_`` is ``class``, ``_`` in names is ``-``.

    Every text and attribute value passes :func:`~rattus_rules.tools.views.webpage.xml_safe`: a character XML
    does not allow (U+FFFE in a seat's name, say) is written as its ``\\uXXXX`` notation, so the picture stays
    well-formed (ElementTree escapes markup, not those)."""
    attrib = {_attr_name(k): xml_safe(str(v)) for k, v in kw.items() if v is not None}
    node = ET.Element(tag, attrib) if parent is None else ET.SubElement(parent, tag, attrib)
    if text is not None:
        node.text = xml_safe(text)
    return node


def _text(parent: Element, x: float, y: float, s: str, size: int = 13, anchor: str = "middle",
          weight: str = "normal", fill: str = _INK, cls: str | None = None) -> Element:
    return _el(parent, "text", s, x=round(x, 1), y=round(y, 1), font_size=size, text_anchor=anchor,
               font_weight=weight, fill=fill, class_=cls)


def _svg(width: int, height: int, title: str, body: Iterable[Element]) -> str:
    root = _el(None, "svg", xmlns=_SVG_NS, width=width, height=height, viewBox=f"0 0 {width} {height}",
               font_family="Helvetica, Arial, sans-serif", role="img")
    _el(root, "title", title)
    _el(root, "rect", width=width, height=height, fill="#fbf8f1")
    root.extend(body)
    ET.indent(root, space="")
    return ET.tostring(root, encoding="unicode") + "\n"


def _edge_line(parent: Element, e: Edge, pos: dict[str, tuple[int, int]], opacity: str | None = None) -> None:
    (x1, y1), (x2, y2) = pos[e.a], pos[e.b]
    style: dict[str, Any] = ({"stroke": _INK, "stroke_width": "2.5"} if e.verified else
                             {"stroke": _RECONSTRUCTED, "stroke_width": "1.8", "stroke_dasharray": "7 5"})
    kind = "verified" if e.verified else "reconstructed"
    line = _el(parent, "line", class_=f"edge {kind}", data_a=e.a, data_b=e.b, x1=x1, y1=y1, x2=x2, y2=y2,
               opacity=opacity, **style)
    _el(line, "title", f"{e.a} – {e.b}: {kind} ({e.provenance})")


def _text_colour(players: int) -> str:
    return "#ffffff" if players >= 4 else _INK


def board_svg(game: Game) -> str:
    """An SVG picture of the board: regions, adjacency, player counts, verified and reconstructed edges."""
    regions = regions_with_players(game)
    pos, height = positions([r for r, _ in regions])
    height += 95
    edges = _el(None, "g", class_="edges")
    for e in board_edges(game):
        if e.a in pos and e.b in pos:
            _edge_line(edges, e, pos)
    drawn = _el(None, "g", class_="regions")
    for name, players in regions:
        x, y = pos[name]
        fill = REGION_FILLS.get(players, "#dddddd")
        label = f"{players}+ players" if players else "never in play"
        g = _el(drawn, "g", class_="region", data_region=name, data_players=players)
        _el(g, "title", f"{name}: in play with {label}")
        _el(g, "rect", x=x - 58, y=y - 22, width=116, height=44, rx=12, fill=fill, stroke=_INK, stroke_width="1.2")
        _text(g, x, y - 2, name, 14, weight="bold", fill=_text_colour(players))
        _text(g, x, y + 14, label, 10, fill=_text_colour(players))
    title = f"{game.title}: the board from the component data"
    return _svg(MAP_WIDTH, height, title, [edges, drawn, _board_legend(height - 95, game)])


def _board_legend(top: int, game: Game) -> Element:
    out = _el(None, "g", class_="legend")
    _text(out, 20, top + 14, "Legend", 13, "start", "bold")
    x = 20
    for players in range(game.min_players, game.max_players + 1):
        fill = REGION_FILLS.get(players, "#dddddd")
        _el(out, "rect", x=x, y=top + 26, width=34, height=18, rx=5, fill=fill, stroke=_INK)
        _text(out, x + 42, top + 40, f"in play from {players} players", 12, "start")
        x += 200
    y = top + 70
    _el(out, "line", x1=20, y1=y, x2=70, y2=y, stroke=_INK, stroke_width="2.5")
    _text(out, 80, y + 4, "neighbours, verified by a rule text", 12, "start")
    _el(out, "line", x1=380, y1=y, x2=430, y2=y, stroke=_RECONSTRUCTED, stroke_width="1.8",
        stroke_dasharray="7 5")
    _text(out, 440, y + 4, "neighbours, reconstructed (not verified)", 12, "start")
    return out


# ------------------------------------------------------------------- states


def _value(state: State, name: str, key: Any = None, default: Any = None) -> Any:
    return state.vals.get(name, {}).get(key, default)


def _token_label(face: dict[str, Any]) -> str:
    symbols = "+".join(str(s) for s in face.get("symbols", []))
    return f"{face.get('threshold', '?')}: {symbols}"


def state_svg(state: State, shown: Callable[[int], bool] | None = None,
              names: Sequence[str] | None = None, panel: bool = True) -> str:
    """An SVG picture of a game state: cubes, face-down tokens, the plague, castle, cards and supplies.

    A face-down token's face is named in its tooltip only where ``shown`` (a
    predicate on tokens: a record has stated the face) allows; without
    ``shown`` no face-down face is named.  ``names`` are the seats' names (a
    record's), shown beside ``P0``….  Without ``panel`` only the board is drawn
    (and the stock and the revealed tokens below it): a page that shows the
    players in a table of its own gives the board the room.
    """
    if not panel:
        return board_only_svg(state, shown)
    game = state.game
    all_regions = [r for r, _ in regions_with_players(game)]
    in_play = set(state.world.nodes[GRAPH])
    pos, map_height = positions(all_regions)
    panel_x = MAP_WIDTH + 10
    width = MAP_WIDTH + 360
    plague = _value(state, "plague")
    edges = _el(None, "g", class_="edges")
    for e in board_edges(game):
        if e.a in in_play and e.b in in_play:
            _edge_line(edges, e, pos, opacity="0.45")
    drawn = _el(None, "g", class_="regions")
    for region in all_regions:
        _state_region(drawn, state, region, pos[region], region in in_play, region == plague,
                      shown or (lambda t: False))
    side, bottom = _state_panel(state, panel_x, names)
    return _svg(width, max(map_height + 40, bottom + 16), f"{game.title}: a game state",
                [edges, drawn, _state_legend(map_height + 10), side])


def token_place(region: str, index: int) -> str:
    """The ``data-place`` key of the token at place ``index`` (from 1) of a region in the board's picture (a
    region's own key is its name)."""
    return f"{region} {index}"


def action_places(state: State, words: Sequence[str]) -> list[list[str]]:
    """For the play page: the places of the board whose click chooses an action (its words): each region in
    play it names, the token it names by region and place, and for ``reveal N`` the plague region's token N."""
    view = View(state)
    in_play = {str(r) for r in view.in_play}
    out: list[list[str]] = []
    for at, word in enumerate(words[1:], 1):
        if word in in_play:
            out.append([word])
            if at + 1 < len(words) and words[at + 1].isdigit():
                out.append([token_place(word, int(words[at + 1]))])
    plague = view.plague
    if words[:1] == ["reveal"] and len(words) == 2 and words[1].isdigit() and plague is not None:
        out.append([token_place(str(plague), int(words[1]))])
    return out


def board_only_svg(state: State, shown: Callable[[int], bool] | None = None,
                   names: Sequence[str] | None = None) -> str:
    """The board of a game state without the side panel (the replay viewer's picture): the regions with
    their cubes, tokens and the plague, the legend, and a line on the stock and the revealed tokens.
    ``names`` is taken for the viewer's picture hook; the seats are in the page's own table."""
    game = state.game
    all_regions = [r for r, _ in regions_with_players(game)]
    in_play = set(state.world.nodes[GRAPH])
    pos, map_height = positions(all_regions)
    edges = _el(None, "g", class_="edges")
    for e in board_edges(game):
        if e.a in in_play and e.b in in_play:
            _edge_line(edges, e, pos, opacity="0.45")
    drawn = _el(None, "g", class_="regions")
    plague = _value(state, "plague")
    for region in all_regions:
        _state_region(drawn, state, region, pos[region], region in in_play, region == plague,
                      shown or (lambda t: False))
    zones = state.zones
    stock = len(zones.get("stock", {}).get(None, []))
    revealed = zones.get("out", {}).get(None, [])
    # the legend and the stock in the board's empty top left corner, one line each
    legend = _el(None, "g", class_="legend")
    _el(legend, "rect", x=12, y=8, width=16, height=16, rx=4, fill="#3a2f2a")
    _text(legend, 20, 20, "?", 11, fill="#ffffff")
    _text(legend, 34, 21, "a face-down rat token", 12, "start")
    _el(legend, "circle", cx=20, cy=39, r=9, fill=_PLAGUE)
    _text(legend, 20, 43, "☠", 11, fill="#ffffff")
    _text(legend, 34, 43, "the plague", 12, "start")
    _el(legend, "rect", x=13, y=54, width=14, height=14, fill=PLAYER_COLOURS[0], stroke=_INK, stroke_width="0.6")
    _text(legend, 34, 65, "a player's cubes", 12, "start")
    tokens = _el(None, "g", class_="tokens", data_stock=stock, data_revealed=len(revealed))
    _text(tokens, 12, 87, f"stock: {stock} tokens · revealed: {len(revealed)}", 12, "start")
    return _svg(MAP_WIDTH, map_height + 8, f"{game.title}: a game state", [edges, drawn, legend, tokens])


def _state_legend(y: int) -> Element:
    out = _el(None, "g", class_="legend")
    _el(out, "rect", x=20, y=y, width=18, height=18, rx=4, fill="#3a2f2a")
    _text(out, 29, y + 13, "?", 11, fill="#ffffff")
    _text(out, 44, y + 13, "a face-down rat token", 12, "start")
    _el(out, "circle", cx=230, cy=y + 9, r=10, fill=_PLAGUE)
    _text(out, 230, y + 13, "☠", 12, fill="#ffffff")
    _text(out, 246, y + 13, "the plague", 12, "start")
    _el(out, "rect", x=340, y=y + 2, width=14, height=14, fill=PLAYER_COLOURS[0], stroke=_INK, stroke_width="0.6")
    _text(out, 360, y + 13, "a player's cubes in the region", 12, "start")
    return out


def _state_region(parent: Element, state: State, region: str, at: tuple[int, int], in_play: bool, plague: bool,
                  shown: Callable[[int], bool]) -> None:
    x, y = at
    w, h = 136, 84
    left, top = x - w // 2, y - h // 2
    if not in_play:
        g = _el(parent, "g", class_="region", data_region=region, data_in_play="no")
        _el(g, "rect", x=left, y=top, width=w, height=h, rx=10, fill="#eeeeee", stroke="#bbbbbb",
            stroke_dasharray="4 4")
        _text(g, x, y - 4, region, 13, fill="#999999")
        _text(g, x, y + 14, "not in play", 11, fill="#999999")
        return
    pieces = state.zones.get("rats", {}).get(region, [])
    hidden = [p for p in pieces if not state.face_up[p]]
    face_up = [p for p in pieces if state.face_up[p]]
    cubes = [(p, int(_value(state, "cubes", (p, region), 0))) for p in state.seats]
    stroke = {"stroke": _PLAGUE, "stroke_width": "3.5"} if plague else {"stroke": _INK, "stroke_width": "1.2"}
    g = _el(parent, "g", class_="region", data_region=region, data_place=region, data_in_play="yes",
            data_tokens=len(hidden),
            data_revealed=len(face_up), data_cubes=" ".join(str(c) for _, c in cubes),
            data_plague="yes" if plague else None)
    _el(g, "rect", x=left, y=top, width=w, height=h, rx=10, fill="#fffdf6", **stroke)
    _text(g, x, top + 16, region, 13, weight="bold")
    # face-down rat tokens: small dark tiles
    for i, p in enumerate(hidden):
        tx = left + 8 + i * 22
        index = pieces.index(p) + 1  # its place in the region, from 1
        tile = _el(g, "g", class_="token", data_index=index, data_place=token_place(region, index))
        _el(tile, "title", f"face down: {_token_label(state.face(p))}" if shown(p) else "face down")
        _el(tile, "rect", x=tx, y=top + 24, width=18, height=18, rx=4, fill="#3a2f2a")
        _text(tile, tx + 9, top + 37, "?", 11, fill="#ffffff")
    for i, p in enumerate(face_up):
        _text(g, left + 8 + (len(hidden) + i) * 22, top + 37, _token_label(state.face(p)), 11, "start",
              fill=_PLAGUE, cls="revealed-token")
    if plague:
        mark = _el(g, "g", class_="plague")
        _el(mark, "circle", cx=left + w - 16, cy=top + 33, r=11, fill=_PLAGUE)
        _text(mark, left + w - 16, top + 37, "☠", 13, fill="#ffffff")
        _el(mark, "title", "the plague")
    # cubes per player
    for i, (p, n) in enumerate(cubes):
        cx = left + 8 + i * 32
        _el(g, "rect", class_="cubes", data_player=p, x=cx, y=top + 52, width=14, height=14,
            fill=PLAYER_COLOURS[p % len(PLAYER_COLOURS)], opacity="1" if n else "0.25", stroke=_INK,
            stroke_width="0.6")
        _text(g, cx + 17, top + 64, str(n), 11, "start")


def _state_panel(state: State, x: int, names: Sequence[str] | None = None) -> tuple[Element, int]:
    game = state.game
    holder = state.vals.get("holder", {})
    out = _el(None, "g", class_="panel")
    y = 24
    phase = _value(state, "phase", None, "")
    _text(out, x, y, f"{game.title}, {state.n} players — phase: {phase}", 14, "start", "bold")
    y += 22
    to_move = state.current_player
    if state.is_terminal():
        winners = ", ".join(notation.seat(w) for w in state.winner() or [])
        status = f"game over; winner: {winners}"
    elif state.is_chance_node():
        status = f"waiting for chance ({state.decision_rule()})"
    else:
        status = f"{notation.seat(to_move)} to decide ({state.decision_rule()})"
    _text(out, x, y, status, 12, "start", cls="status")
    y += 26
    for p in state.seats:
        colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        cards = [str(c) for c, h in holder.items() if h == p]
        supply, castle = _value(state, "supply", p, 0), _value(state, "castle", p, 0)
        g = _el(out, "g", class_="player", data_player=p, data_supply=supply, data_castle=castle,
                data_cards=" ".join(cards))
        _el(g, "rect", x=x, y=y - 12, width=16, height=16, fill=colour, stroke=_INK)
        mark = "  ◀ to move" if p == to_move else ""
        _text(g, x + 24, y + 1, f"{seat_name(p, names)}{mark}", 13, "start", "bold")
        _text(g, x + 24, y + 19, f"supply {supply} · castle {castle}", 12, "start")
        _text(g, x + 24, y + 37, "cards: " + (", ".join(cards) or "none"), 12, "start")
        y += 58
    y += 6
    _castle(out, x, y, state)
    y += 58
    zones = state.zones
    stock = len(zones.get("stock", {}).get(None, []))
    revealed = zones.get("out", {}).get(None, [])
    boxed = len(zones.get("box", {}).get(None, []))
    tokens = _el(out, "g", class_="tokens", data_stock=stock, data_revealed=len(revealed), data_box=boxed)
    _text(tokens, x, y, f"rat tokens: {stock} in the stock, {boxed} out of the game", 12, "start")
    y += 18
    _text(tokens, x, y, f"revealed so far: {len(revealed)}", 12, "start")
    for p in list(revealed)[-4:][::-1]:
        y += 16
        _text(tokens, x + 12, y, "#" + str(game.piece_keys[p]) + " — " + _token_label(state.face(p)), 11,
              "start", fill=_PLAGUE)
    return out, y


def _castle(parent: Element, x: int, y: int, state: State) -> None:
    counts: Sequence[tuple[int, int]] = [(p, int(_value(state, "castle", p, 0))) for p in state.seats]
    g = _el(parent, "g", class_="castle", data_cubes=" ".join(str(n) for _, n in counts))
    _el(g, "path", d=f"M{x} {y + 40} v-26 h8 v-8 h8 v8 h8 v-8 h8 v8 h8 v26 z", fill="#b9a88a", stroke=_INK)
    _text(g, x + 52, y + 12, "castle (safe from the plague)", 12, "start")
    for i, (p, n) in enumerate(counts):
        cx = x + 52 + i * 40
        _el(g, "rect", x=cx, y=y + 22, width=14, height=14, fill=PLAYER_COLOURS[p % len(PLAYER_COLOURS)],
            stroke=_INK, stroke_width="0.6")
        _text(g, cx + 17, y + 34, str(n), 11, "start")
