"""Hostile saved states cannot put markup into a picture (issue 9, section 4).

Every field of a stored state, one at a time, is replaced by a payload that
closes an attribute and opens a ``<script>``.  The state is either refused
with a clean ``ValueError`` or drawn; a drawing must parse as XML and hold no
``script`` element, and the payload, where it shows, is text.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rattus_rules import state_from_json
from rattus_rules.cli import main
from rattus_rules.games.rattus.render import state_svg
from rattus_rules.games.rattus.render_command import random_state

PAYLOAD = '"/><script>alert(1)</script><g x="'
SVG = "{http://www.w3.org/2000/svg}"
Path_ = tuple[Any, ...]


def leaves(value: Any, path: Path_ = ()) -> Iterator[Path_]:
    """The path of every scalar in a JSON value (list indices and dict keys)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, (*path, i))
    else:
        yield path


def replaced(value: Any, path: Path_, new: Any) -> Any:
    """A copy of a JSON value with the scalar at ``path`` replaced."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (replaced(v, rest, new) if k == head else v) for k, v in value.items()}
    return [replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]


def assert_safe(svg: str) -> None:
    root = ET.fromstring(svg)
    assert not [e for e in root.iter() if e.tag.rsplit("}", 1)[-1].lower() == "script"]
    assert "<script" not in svg


def test_a_payload_in_every_field_of_a_stored_state_is_refused_or_drawn_as_text() -> None:
    stored = random_state(3, seed=1, moves=40).to_json()
    paths = list(leaves(stored))
    assert len(paths) > 200
    drawn = refused = 0
    for path in paths:
        hostile = replaced(stored, path, PAYLOAD)
        try:
            svg = state_svg(state_from_json(hostile))
        except ValueError:
            refused += 1  # refused on load (a clean error)
            continue
        assert_safe(svg)
        drawn += 1
    assert drawn + refused == len(paths)
    print(f"{drawn} hostile states drawn safely, {refused} refused")
    assert drawn > 20, "too few hostile states were drawn: the test would not notice an escaping bug"


def test_payload_in_values_the_picture_prints_is_text(tmp_path: Path) -> None:
    state = random_state(2, seed=3, moves=30)
    state.vals["supply"][0] = PAYLOAD
    state.vals["phase"][None] = PAYLOAD
    holder = state.vals["holder"]
    holder[PAYLOAD] = 1
    svg = state_svg(state, names=[PAYLOAD, "b"])
    assert_safe(svg)
    root = ET.fromstring(svg)
    player = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "player")
    assert player.get("data-supply") == PAYLOAD
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert PAYLOAD in texts
    stored = tmp_path / "s.json"
    data = random_state(2, seed=3, moves=30).to_json()
    data["vals"]["supply"][0][1] = PAYLOAD
    stored.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "s.svg"
    code = main(["render", "state", "--from", str(stored), "-o", str(out)])
    assert code in (0, 2)
    if code == 0:
        assert_safe(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", [PAYLOAD, "]]><x/>", "&amp;<", "\u202e"])
def test_seat_names_are_text(name: str) -> None:
    svg = state_svg(random_state(2, seed=1, moves=5), names=[name, name])
    assert_safe(svg)
    texts = [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert any(name in t for t in texts)
