"""The replay viewer on the second game: a game with no picture of its own is shown as text, step by step."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game
from rattus_rules.cli import main
from tests.rattus.browser import WIDTHS, browser, open_page, screenshot, shots  # noqa: F401

GAME = "ratten_scharf"


def _page_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="rattus-data">(.*?)</script>', html, re.S)
    assert found, "the page holds its data"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.fixture
def page_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    record, page = tmp_path / "game.json", tmp_path / "game.html"
    assert main(["--game", GAME, "play", "-n", "2", "-s", "4", "-q", "--record", str(record)]) == 0
    assert main(["--game", GAME, "view", str(record), "-o", str(page)]) == 0
    assert f"wrote {page}: " in capsys.readouterr().err
    return page


def test_the_page_shows_each_position_as_text(page_file: Path, scharf: Game) -> None:
    data = _page_data(page_file.read_text(encoding="utf-8"))
    assert data["title"] == "Ratten Scharf: a recorded game (omniscient)"
    assert data["components"] == scharf.provenance_note() and "every piece face" in data["about"]
    frames = data["frames"]
    assert frames and all("svg" not in f and f["players"] is None for f in frames)
    first = "\n".join(data["lines"][n] for n in frames[0]["text"])
    assert first.startswith("Ratten Scharf, 2 players; to move: chance")
    end = "\n".join(data["lines"][n] for n in frames[-1]["text"])
    assert "\n  height: " in end and "\n  top_strip: " in end and "scores: P0 " in end
    assert not re.search(r"top_strip: \d+ at", end)  # strips by their faces, never by their numbers
    assert re.search(r"\n  loser = (P[01]|-)\n", end), end  # a seat by its word, never by its number
    assert data["verdict"]["status"] == "legal"


def test_the_page_steps_through_the_game_in_a_browser(page_file: Path, open_page: Any,  # noqa: F811
                                                      shots: Path) -> None:  # noqa: F811
    data = _page_data(page_file.read_text(encoding="utf-8"))
    watched = open_page(*WIDTHS["1280"])
    page = watched.page
    page.goto(page_file.as_uri())
    assert page.inner_text("#title") == "Ratten Scharf: a recorded game (omniscient)"
    assert page.locator("#players-section").is_hidden() and page.locator("#picture svg").count() == 0
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    shown = page.inner_text("#picture pre.position")
    assert shown == "\n".join(data["lines"][n] for n in data["frames"][5]["text"])
    assert "height: 1 at " in shown
    page.keyboard.press("End")
    assert "Legal" in page.inner_text("#verdict-box") and "scores: P0 " in page.inner_text("#picture pre.position")
    screenshot(page, shots, "viewer-ratten-scharf-1280")
    assert not watched.errors, watched.errors
    assert all(u.startswith("file://") for u in watched.requests), watched.requests
