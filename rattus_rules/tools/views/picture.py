"""A game's declared picture drawn as SVG: one renderer for every game that declares one.

A spec may say how its game is drawn (``picture`` in the rules language, see
docs/language.rst): a place per row of a table, laid out at whole-number
coordinates, each place showing a label (a value's face), a colour, a number
in its corner (a height, a stack), a mark, an outline and a highlight; which
colour stands for each seat; and, for the play page, how an action's argument
is chosen by clicking two places.  This module evaluates that declaration on
a state and draws it.  Nothing here knows a game: a third game needs no
Python to be seen.

Everything drawn comes from the spec and its tables, which are untrusted:
texts are escaped (a character XML does not allow written as its ``\\uXXXX``
notation: :func:`~rattus_rules.tools.views.webpage.xml_safe`), colours are taken from a fixed list of names or as
``#rrggbb`` (anything else is drawn grey), labels are cut short, and the
number of places is bounded (:data:`MAX_PLACES`).

>>> from rattus_rules import new_game
>>> svg = picture_svg(new_game(2, seed=1, game="ratten_scharf"))
>>> svg is not None and svg.startswith("<svg") and 'data-place="j10"' in svg
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

import attrs

from interpreter import RulesError, State, notation
from interpreter import ast as A
from interpreter.notation import value_word
from interpreter.types import ANY, EntityType

from .webpage import xml_safe


def _escaped(text: str) -> str:
    """Text for SVG: markup escaped, characters XML does not allow written as their notation."""
    return html.escape(xml_safe(text))


#: A picture draws at most this many places (a larger one is not drawn: the page shows text).
MAX_PLACES = 2_500
#: A label shows at most this many characters.
MAX_LABEL = 4
#: The side of a place, in SVG units.
CELL = 30
#: Colour names a picture may use, and how each is drawn (fill, text on it).
PALETTE: dict[str, tuple[str, str]] = {
    "green": ("#2e7d32", "#ffffff"), "red": ("#c62828", "#ffffff"), "blue": ("#1565c0", "#ffffff"),
    "yellow": ("#f9a825", "#000000"), "orange": ("#ef6c00", "#000000"), "purple": ("#6a1b9a", "#ffffff"),
    "black": ("#212121", "#ffffff"), "white": ("#fafafa", "#000000"), "grey": ("#9e9e9e", "#000000"),
    "gray": ("#9e9e9e", "#000000"), "brown": ("#6d4c41", "#ffffff"), "pink": ("#ec407a", "#000000"),
}
_HEX = re.compile(r"#[0-9a-fA-F]{6}\Z")
EMPTY_FILL = "#f3efe6"


@attrs.frozen
class Place:
    """One place of a picture as evaluated on a state."""

    key: str
    x: int
    y: int
    label: str
    colour: str | None
    count: int | None
    mark: bool
    outline: bool
    highlight: bool


def declared(state: State) -> A.PictureDecl | None:
    """The game's first declared picture, if it declares one."""
    return next(iter(state.game.symbols.pictures.values()), None)


def _value(state: State, e: A.Expr, env: dict[str, Any]) -> Any:
    return state.evaluate(state.game.picture_code[id(e)], env, e.pos, ())


def _text(value: Any, state: State) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value_word(value, ANY, state.game.piece_words)) if not isinstance(value, (str, int)) else str(value)


def colour_of(name: Any) -> tuple[str, str] | None:
    """How a colour a picture names is drawn (fill, text), or None for no colour (a grey for an unknown one)."""
    if name is None or str(name).strip().lower() in ("", "none"):
        return None
    text = str(name).strip().lower()
    if text in PALETTE:
        return PALETTE[text]
    if _HEX.match(text):
        return text, "#000000"
    return PALETTE["grey"]


def places(state: State, picture: A.PictureDecl) -> list[Place]:
    """Every place of the picture on this state (a copy is read: the state does not change)."""
    look = state.clone()
    out: list[Place] = []
    parts = {p.part: p.expr for p in picture.parts}
    for key in look.game.table_keys[picture.table]:
        env = {picture.var: key}
        if picture.where is not None and not _value(look, picture.where, env):
            continue
        if len(out) >= MAX_PLACES:
            raise ValueError(f"the picture {picture.name} has more than {MAX_PLACES} places")
        x, y = _value(look, picture.x, env), _value(look, picture.y, env)
        got = {name: _value(look, e, env) for name, e in parts.items()}
        count = got.get("count")
        out.append(Place(str(key), int(x), int(y), _text(got.get("label"), look)[:MAX_LABEL],
                         None if got.get("colour") is None else str(got["colour"]),
                         count if isinstance(count, int) and not isinstance(count, bool) else None,
                         bool(got.get("mark")), bool(got.get("outline")), bool(got.get("highlight"))))
    return out


def seat_colours(state: State, picture: A.PictureDecl) -> list[str | None]:
    """The colour name that stands for each seat (None where the picture says none)."""
    if picture.seat_var is None or picture.seat_colour is None:
        return [None for _ in state.seats]
    return [str(v) if (v := _value(state, picture.seat_colour, {picture.seat_var: p})) is not None else None
            for p in state.seats]


def picture_svg(state: State, shown: Any = None, seats: Sequence[str] | None = None) -> str | None:
    """The declared picture of a state as an SVG, or None if the game declares none or it cannot be drawn
    (an expression that fails on this state, too many places): the caller then shows the position as text."""
    picture = declared(state)
    if picture is None:
        return None
    try:
        drawn = places(state, picture)
        colours = seat_colours(state, picture)
    except (RulesError, ValueError, TypeError):
        return None
    if not drawn:
        return None
    xs, ys = [p.x for p in drawn], [p.y for p in drawn]
    left, top = min(xs), min(ys)
    width, height = (max(xs) - left + 1) * CELL, (max(ys) - top + 1) * CELL
    legend = 22
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="rules-picture" viewBox="0 0 {width} {height + legend}" '
           f'width="100%" role="img" '
           f'aria-label="{_escaped(picture.name)}: {len(drawn)} places">']
    for p in drawn:
        cx, cy = (p.x - left) * CELL, (p.y - top) * CELL
        fill, ink = colour_of(p.colour) or (EMPTY_FILL if p.count != 0 else "#ffffff", "#000000")
        if p.count == 0 and p.colour is None and not p.label:
            fill = "#ffffff"
        classes = " ".join(c for c, on in (("outline", p.outline), ("highlight", p.highlight), ("mark", p.mark)) if on)
        out.append(f'<g class="place {classes}" data-place="{_escaped(p.key)}">'
                   f'<rect x="{cx + 1}" y="{cy + 1}" width="{CELL - 2}" height="{CELL - 2}" rx="3" fill="{fill}" '
                   f'stroke="{"#ffd600" if p.highlight else "#cfc8b8"}" stroke-width="{3 if p.highlight else 1}"/>')
        if p.mark:
            out.append(f'<circle cx="{cx + CELL / 2}" cy="{cy + CELL / 2}" r="{CELL / 2 - 4}" fill="none" '
                       f'stroke="{ink}" stroke-width="2" stroke-dasharray="3 2"/>')
        if p.label:
            out.append(f'<text x="{cx + CELL / 2}" y="{cy + CELL / 2 + 3}" text-anchor="middle" font-size="15" '
                       f'font-family="sans-serif" font-weight="bold" fill="{ink}">{_escaped(p.label)}</text>')
        if p.count is not None and p.count > 0:
            out.append(f'<text x="{cx + CELL - 3}" y="{cy + CELL - 3}" text-anchor="end" font-size="12" '
                       f'font-family="sans-serif" fill="{ink}">{p.count}</text>')
        out.append("</g>")
    for p in drawn:  # outlines last, above their neighbours
        if p.outline:
            cx, cy = (p.x - left) * CELL, (p.y - top) * CELL
            out.append(f'<rect class="laid" x="{cx + 1}" y="{cy + 1}" width="{CELL - 2}" height="{CELL - 2}" rx="3" '
                       f'fill="none" stroke="#000000" stroke-width="3"/>')
    x = 4
    for seat, name in enumerate(colours):
        fill = (colour_of(name) or ("#ffffff", "#000000"))[0]
        label = _escaped(seats[seat] if seats and seat < len(seats) else notation.seat(seat))
        out.append(f'<rect x="{x}" y="{height + 5}" width="12" height="12" fill="{fill}" stroke="#000"/>'
                   f'<text x="{x + 16}" y="{height + 16}" font-size="12" font-family="sans-serif">{label}</text>')
        x += 24 + 7 * len(label)
    out.append("</svg>")
    return "".join(out)


def clicks(state: State) -> dict[str, dict[str, Any]]:
    """For the play page: per verb a click chooses, the places each value of its argument goes from and to
    (``{"lay": {"var": "l", "ends": {value word: [first place, last place]}}}``); the values are the rows of
    the click's table."""
    picture = declared(state)
    if picture is None:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for click in picture.clicks:
        ends = {}
        for key in state.game.table_keys[click.table]:
            env = {click.var: key}
            ends[str(key)] = [str(_value(state, click.start, env)), str(_value(state, click.end, env))]
        out[click.verb] = {"var": click.var, "ends": ends}
    return out


def option_clicks(state: State) -> dict[int, tuple[int, list[str]]]:
    """For the play page: each option of the pending decision that a declared ``click`` chooses, by its
    index: which of its values the clicks choose (its place among the values) and the places clicked in
    turn (the one ``from`` gives, then the one ``to`` gives).  Options of other verbs are left out; if an end
    cannot be evaluated on this state, every option is (the page then offers them as buttons)."""
    try:
        return _option_clicks(state)
    except (RulesError, ValueError, TypeError):
        return {}


def _option_clicks(state: State) -> dict[int, tuple[int, list[str]]]:
    picture, pending = declared(state), state.pending
    if picture is None or pending is None or not picture.clicks:
        return {}
    by_verb = {c.verb: c for c in picture.clicks}
    look = state.clone()
    ends: dict[tuple[str, Any], list[str]] = {}
    out: dict[int, tuple[int, list[str]]] = {}
    for index, (branch_index, values) in enumerate(pending.options):
        branch = pending.decision.branches[branch_index]
        click = by_verb.get(branch.verb)
        if click is None:
            continue
        at = next((j for j, b in enumerate(branch.bindings)
                   if isinstance(b.type, EntityType) and b.type.table == click.table), None)
        if at is None:
            continue
        key = (click.verb, values[at])
        if key not in ends:
            env = {click.var: values[at]}
            ends[key] = [str(_value(look, click.start, env)), str(_value(look, click.end, env))]
        out[index] = (at, ends[key])
    return out
