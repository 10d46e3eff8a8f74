"""The replay viewer on the second game: a game with no Python of its own is drawn from the picture its spec
declares (spec/ratten_scharf/picture.rules), step by step, on a wide screen and on a phone."""

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


def test_the_page_draws_each_position_from_the_declared_picture(page_file: Path, scharf: Game) -> None:
    data = _page_data(page_file.read_text(encoding="utf-8"))
    assert data["title"] == "Ratten Scharf: a recorded game (omniscient)"
    assert data["components"] == scharf.provenance_note() and "every piece face" in data["about"]
    frames = data["frames"]
    assert frames and all("svg" in f and "text" not in f and f["players"] is None for f in frames)
    first = "".join(data["lines"][n] for n in frames[0]["svg"])
    assert first.startswith("<svg") and 'data-place="j10"' in first and ">S</text>" in first  # the start strip
    end = "".join(data["lines"][n] for n in frames[-1]["svg"])
    assert 'class="laid"' in end  # the strip just laid, outlined
    assert re.search(r'class="place [^"]*mark', end) or "R</text>" not in end  # a rat showing is marked
    assert data["verdict"]["status"] == "legal"


def test_the_groups_a_strip_scored_are_highlighted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, page = tmp_path / "game.json", tmp_path / "game.html"
    assert main(["--game", GAME, "play", "-s", "3", "-q", "--record", str(record)]) == 0
    assert main(["--game", GAME, "view", str(record), "-o", str(page)]) == 0
    data = _page_data(page.read_text(encoding="utf-8"))
    pictures = ["".join(data["lines"][n] for n in f["svg"]) for f in data["frames"]]
    lit = [i for i, svg in enumerate(pictures) if 'class="place highlight' in svg]
    assert lit, "a game of seed 3 scores a group"
    entry = data["frames"][lit[0] - 1]["entries"][-1]  # the step before: the lay that scored
    assert "lay" in data["entries"][entry]["text"]


@pytest.mark.parametrize("size", ["1280", "phone"])
def test_the_page_steps_through_the_game_in_a_browser(page_file: Path, open_page: Any,  # noqa: F811
                                                      shots: Path, size: str) -> None:  # noqa: F811
    watched = open_page(*WIDTHS[size])
    page = watched.page
    page.goto(page_file.as_uri())
    assert page.inner_text("#title") == "Ratten Scharf: a recorded game (omniscient)"
    picture = page.locator("#picture svg")
    assert picture.count() == 1 and picture.is_visible()
    start = page.locator('#picture [data-place="j10"] text').first
    assert start.text_content() == "S" and start.is_visible()  # the start strip's S, in the middle of the table
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert page.locator("#picture rect.laid").count() == 3  # the strip just laid: three fields outlined
    box = picture.bounding_box()
    assert box is not None and box["width"] <= WIDTHS[size][0] and box["x"] >= 0  # the table is not cut off
    signs = page.locator('#picture g.place text[text-anchor="middle"]')
    sizes = signs.evaluate_all("(ts) => ts.map(t => t.getBoundingClientRect().height)")
    assert sizes and min(sizes) >= 8  # the signs on the fields can be read, on a phone too
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.keyboard.press("End")
    assert "Legal" in page.inner_text("#verdict-box")
    screenshot(page, shots, f"viewer-ratten-scharf-{size}")
    assert not watched.errors, watched.errors
    assert all(u.startswith("file://") for u in watched.requests), watched.requests


def test_the_docs_draw_a_recorded_position_from_the_declared_picture() -> None:
    """docs/ratten-scharf.rst shows a recorded game's table drawn by the renderer at the docs' build
    (``.. rattus-generated:: picture RECORD[#STEP]``, docs/_ext/rattus_docs.py)."""
    from rattus_rules.tools.docs.picturepage import record_picture_rst

    docs = Path(__file__).resolve().parents[2] / "docs"
    record = docs / "decisive" / "ratten_scharf" / "cover-default-2p-seed2.json"
    entries = len(json.loads(record.read_text(encoding="utf-8"))["entries"])
    end = record_picture_rst(record)
    assert end.startswith(".. raw:: html") and "<svg" in end and end.count("data-place=") == 19 * 19
    assert f"after {entries} of the {entries} entries" in end and "The game is over." in end
    assert "<code>picture table</code>" in end
    early = record_picture_rst(record, 3, "a game")
    assert "(step 3 in the viewer)" in early and "<code>a game</code>" in early and early != end
    with pytest.raises(ValueError, match="not one of its steps"):
        record_picture_rst(record, 10_000)
    page = (docs / "ratten-scharf.rst").read_text(encoding="utf-8")
    assert "\n.. rattus-generated:: picture decisive/ratten_scharf/cover-default-2p-seed2.json\n" in page
