"""What the pictures show a person: the numbers and labels drawn in a state picture (SVG ``<text>``), in the
viewer's frames and on the play page, against the state's own values at several steps of a recorded game.

The other picture tests read ``data-*`` attributes, which a picture drawing every cube count as n-1 kept
right; these read what is drawn (tests/rattus/drawn.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interpreter import State
from rattus_rules.games.rattus.render import state_svg
from rattus_rules.tools.records.validate import PLAYERS_EYE, record_game, walk
from rattus_rules.tools.views.frames import record_frames
from rattus_rules.tools.views.play import PlayServer
from rattus_rules.tools.views.viewer import viewer_data

from .browser import serving
from .drawn import check_board, check_picture, read_picture
from .test_play_web import Client

KIT = Path(__file__).resolve().parents[2] / "conformance" / "games"


def _steps(n: int, count: int = 7) -> list[int]:
    """``count`` steps spread over ``n`` (the first and the last among them)."""
    return sorted({round(k * (n - 1) / (count - 1)) for k in range(count)})


@pytest.mark.parametrize("name", ["legal-2p-omniscient.json", "legal-3p-omniscient.json",
                                  "legal-4p-omniscient.json"])
def test_a_state_picture_draws_the_states_numbers(name: str) -> None:
    record = json.loads((KIT / name).read_text(encoding="utf-8"))
    states, verdict = walk(record)
    assert verdict.finished
    picked = [states[k][1] for k in _steps(len(states))]
    assert sum(sum(sum(r["cubes"]) for r in read_picture(state_svg(s))["regions"].values()) for s in picked) > 0
    for state in picked:
        check_picture(state_svg(state), state)


def test_the_picture_reader_sees_a_cube_count_that_is_drawn_wrong() -> None:
    # the reader itself must not be blind: a picture with one number changed is refused
    states, _ = walk(json.loads((KIT / "legal-2p-omniscient.json").read_text(encoding="utf-8")))
    state = next(s for _, s in states if any(s.vals["cubes"].values()))
    region = next(r for (p, r), n in state.vals["cubes"].items() if n)
    picture = state_svg(state)
    shown = read_picture(picture)["regions"][region]["cubes"]
    wrong = picture.replace(f">{max(shown)}</text>", ">97</text>", 1)
    assert wrong != picture
    with pytest.raises(AssertionError):
        check_picture(wrong, state)


def _viewer_pictures(record: dict[str, Any]) -> list[str]:
    shown = viewer_data(record)
    return ["\n".join(shown["lines"][n] for n in f["svg"]) for f in shown["frames"]]


@pytest.mark.parametrize(("players", "seed", "kind"), [(2, 5, None), (4, 3, None), (3, 6, PLAYERS_EYE)])
def test_the_viewer_draws_the_numbers_of_each_frames_state(players: int, seed: int, kind: str | None) -> None:
    record = record_game(players, seed) if kind is None else record_game(players, seed, kind=kind, viewer=1)
    frames, _ = record_frames(record)
    pictures = _viewer_pictures(record)
    assert len(pictures) == len(frames)
    for k in _steps(len(frames)):
        check_board(pictures[k], frames[k].state)


def test_the_play_page_draws_the_numbers_of_the_game() -> None:
    server = PlayServer(seed=5)
    with serving(server) as url:
        client = Client(url.rstrip("/"))
        status, view = client.call("POST", "/api/games", {"players": 4, "seat": 2, "seed": 17})
        assert status == 200, view
        state: State = server.games[view["game"]].state
        moves = 0
        while not view["over"]:
            if moves % 9 == 0:
                check_board(view["svg"], state)
            status, view = client.call("POST", f"/api/games/{view['game']}/actions", {"action": view["legal"][0]})
            assert status == 200, view
            moves += 1
            assert moves < 400
        check_board(view["svg"], state)
        assert moves > 20
