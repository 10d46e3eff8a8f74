"""What a Rattus state picture shows a person: the text drawn in it, read back, and what the state says it
should be.

The tests of the pictures (tests/rattus/test_drawn.py, the browser tests) compare the two.  Only drawn text
counts: the ``<text>`` elements of the SVG (a ``<title>`` is a tooltip, a ``data-*`` attribute is for
scripts; neither is what a person reads).  The groups of the picture (``g.region``, ``g.player``,
``g.castle``, ``g.tokens``) only say which drawn text belongs together.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Any

from interpreter import State, notation

SVG = "{http://www.w3.org/2000/svg}"


def texts(element: ET.Element) -> list[str]:
    """The drawn texts under an element, in document order (tooltips left out)."""
    return ["".join(t.itertext()).strip() for t in element.iter(f"{SVG}text")]


def _groups(svg: ET.Element, cls: str) -> Iterable[ET.Element]:
    return (g for g in svg.iter(f"{SVG}g") if cls in (g.get("class") or "").split())


def _numbers(drawn: list[str]) -> list[int]:
    return [int(t) for t in drawn if t.isdigit()]


def read_picture(svg_text: str) -> dict[str, Any]:
    """What a person reads in a state picture: per region (by its drawn name) the cube numbers in seat order,
    the face-down tokens (``?``), the revealed faces, the plague mark; per seat the lines beside its colour;
    the castle's numbers; the token counts; the status line."""
    svg = ET.fromstring(svg_text)
    regions = {}
    for g in _groups(svg, "region"):
        name, *rest = texts(g)
        regions[name] = {"in_play": "not in play" not in rest, "cubes": _numbers(rest), "hidden": rest.count("?"),
                         "revealed": [t for t in rest if ":" in t], "plague": "☠" in rest}
    players = [texts(g) for g in _groups(svg, "player")]
    (castle,) = _groups(svg, "castle")
    (tokens,) = _groups(svg, "tokens")
    (status,) = [t for t in svg.iter(f"{SVG}text") if "status" in (t.get("class") or "").split()]
    return {"regions": regions, "players": players, "castle": _numbers(texts(castle)), "tokens": texts(tokens),
            "status": "".join(status.itertext()), "all": texts(svg)}


def _face(state: State, piece: int) -> str:
    face = state.face(piece)
    return f"{face.get('threshold', '?')}: " + "+".join(str(s) for s in face.get("symbols", []))


def expected_picture(state: State) -> dict[str, Any]:
    """What the picture of ``state`` must show, from the state's own values (not from the picture's code)."""
    vals, zones = state.vals, state.zones
    board = set(state.world.nodes["board"])
    plague = vals["plague"][None]
    regions = {}
    for region in map(str, state.game.table_keys["regions"]):  # all twelve are drawn, in play or not
        if region not in board:
            regions[region] = {"in_play": False, "cubes": [], "hidden": 0, "revealed": [], "plague": False}
            continue
        pieces = zones["rats"][region]
        regions[region] = {"in_play": True, "cubes": [vals["cubes"][(p, region)] for p in state.seats],
                           "hidden": sum(1 for t in pieces if not state.face_up[t]),
                           "revealed": [_face(state, t) for t in pieces if state.face_up[t]],
                           "plague": region == plague}
    players = []
    for p in state.seats:
        cards = [str(c) for c, h in vals["holder"].items() if h == p]
        mark = "  ◀ to move" if p == state.current_player else ""
        players.append([f"{notation.seat(p)}{mark}", f"supply {vals['supply'][p]} · castle {vals['castle'][p]}",
                        "cards: " + (", ".join(cards) or "none")])
    stock, boxed, out = (len(zones[z][None]) for z in ("stock", "box", "out"))
    return {"regions": regions, "players": players, "castle": [vals["castle"][p] for p in state.seats],
            "tokens_head": [f"rat tokens: {stock} in the stock, {boxed} out of the game", f"revealed so far: {out}"]}


def check_picture(svg_text: str, state: State) -> None:
    """Assert that the picture shows the numbers and labels of ``state`` (AssertionError says what differs)."""
    seen, want = read_picture(svg_text), expected_picture(state)
    assert seen["regions"] == want["regions"], _diff(seen["regions"], want["regions"])
    assert seen["players"] == want["players"]
    assert seen["castle"] == want["castle"]
    assert seen["tokens"][:2] == want["tokens_head"]
    if state.is_terminal():
        assert seen["status"].startswith("game over")
    elif state.is_chance_node():
        assert seen["status"] == f"waiting for chance ({state.decision_rule()})"
    else:
        assert seen["status"] == f"{notation.seat(state.current_player)} to decide ({state.decision_rule()})"


def check_board(svg_text: str, state: State) -> None:
    """Assert that a board-only picture (the replay viewer's:
    :func:`rattus_rules.games.rattus.render.board_only_svg`) shows the regions of ``state`` as
    :func:`check_picture` reads them, and the stock and revealed counts; the seats are in the page's table, not
    in this picture."""
    svg = ET.fromstring(svg_text)
    regions = {}
    for g in _groups(svg, "region"):
        name, *rest = texts(g)
        regions[name] = {"in_play": "not in play" not in rest, "cubes": _numbers(rest), "hidden": rest.count("?"),
                         "revealed": [t for t in rest if ":" in t], "plague": "☠" in rest}
    want = expected_picture(state)
    assert regions == want["regions"], _diff(regions, want["regions"])
    assert not list(_groups(svg, "player")), "the seats are the page's table, not the picture's"
    (tokens,) = _groups(svg, "tokens")
    stock, out = (len(state.zones[z][None]) for z in ("stock", "out"))
    assert texts(tokens) == [f"stock: {stock} tokens · revealed: {out}"]


def _diff(seen: dict[str, Any], want: dict[str, Any]) -> str:
    return "; ".join(f"{r}: drawn {seen.get(r)}, state {want.get(r)}" for r in sorted(set(seen) | set(want))
                     if seen.get(r) != want.get(r))
