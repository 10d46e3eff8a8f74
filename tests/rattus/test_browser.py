"""The replay viewer and the play page in a real browser (Debian's Chromium, driven by Playwright).

Each test clicks through a page, takes screenshots at laptop and phone widths,
and checks what is on screen against the rules.  They skip, saying why,
where no browser is installed (`make browser`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter.session import citations_json
from rattus_rules.tools.records.validate import PLAYERS_EYE, record_game
from rattus_rules.tools.views.frames import record_frames
from rattus_rules.tools.views.play import PlayServer
from rattus_rules.tools.views.viewer import viewer_html

from .browser import WIDTHS, browser, open_page, screenshot, serving, shots  # noqa: F401
from .drawn import check_board
from .test_viewer import spoiled


def write_page(folder: Path, name: str, record: dict[str, Any]) -> str:
    path = folder / f"{name}.html"
    path.write_text(viewer_html(record), encoding="utf-8")
    return path.as_uri()


def drawn(page: Any) -> str:
    """The picture as the page holds it now (after its script placed it), as SVG text."""
    return str(page.locator("#picture svg").evaluate("(s) => new XMLSerializer().serializeToString(s)"))


def where(page: Any) -> tuple[int, int]:
    """The step shown and the last step, read from the page."""
    words = page.inner_text("#where").split()  # "step K of N · record entry E"
    return int(words[1]), int(words[3])


def test_viewer_steps_through_a_recorded_game(open_page: Any, shots: Path, tmp_path: Path) -> None:  # noqa: F811
    record = record_game(2, seed=4)
    frames, verdict = record_frames(record)
    url = write_page(tmp_path, "game", record)
    watched = open_page(*WIDTHS["1280"])
    page = watched.page
    page.goto(url)
    assert where(page) == (0, len(frames) - 1)
    assert page.locator("#picture svg g.region").count() == 12
    assert page.locator("#entries li").count() == len(record["entries"])
    assert page.locator("#entries li.current").first.inner_text() == f"chance: {record['entries'][0]['action']}"
    german = page.locator("#step blockquote[lang=de]").first.inner_text()
    assert german == frames[0].citations[0].quote
    screenshot(page, shots, "viewer-start-1280")
    for _ in range(7):
        page.keyboard.press("ArrowRight")
    assert where(page)[0] == 7
    frame = frames[7]
    check_board(drawn(page), frame.state)  # the numbers a person reads, not the data-* attributes
    assert frame.rule in page.inner_text("#step")
    shown = page.locator("#entries li.current").first.inner_text()
    assert shown.endswith(record["entries"][frame.index or 0]["action"])
    supplies = [str(frame.state.vals["supply"][p]) for p in frame.state.seats]
    rows = page.locator("#players tr").all_inner_texts()[1:]  # seat, score, supply, castle, cards
    assert [r.split("\t")[2] for r in rows] == supplies
    assert [r.split("\t")[1] for r in rows] == [str(n) for n in frame.state.scores()]
    page.keyboard.press("ArrowLeft")
    assert where(page)[0] == 6
    # the slider
    page.locator("#slider").evaluate("(s) => { s.value = '20'; s.dispatchEvent(new Event('input')); }")
    assert where(page)[0] == 20
    check_board(drawn(page), frames[20].state)
    cubes = [g.get_attribute("data-cubes") for g in page.locator("#picture svg g.region[data-in-play=yes]").all()]
    state = frames[20].state
    assert cubes == [" ".join(str(state.vals["cubes"][(p, r)]) for p in state.seats)
                     for r in [r for r in _drawn_order(state) if r in state.world.nodes["board"]]]
    # a click on an entry of the list jumps there
    target = frames[12].index
    page.locator(f"#entries li[data-entry='{target}']").click()
    assert where(page)[0] == 12
    page.keyboard.press("End")
    assert where(page)[0] == len(frames) - 1
    check_board(drawn(page), frames[-1].state)
    box = page.inner_text("#verdict-box")
    assert "Legal" in box and "Winner" in box
    final = page.locator("#final-scores tr").all_inner_texts()[1:]
    assert sorted(int(r.split("\t")[1]) for r in final) == sorted(verdict.scores)
    screenshot(page, shots, "viewer-end-1280")
    assert not watched.errors, watched.errors
    assert all(u.startswith("file://") for u in watched.requests), watched.requests


def _drawn_order(state: Any) -> list[str]:
    from rattus_rules.games.rattus.render import regions_with_players

    return [r for r, _ in regions_with_players(state.game)]


def test_viewer_shows_why_an_illegal_record_is_illegal(open_page: Any, shots: Path,  # noqa: F811
                                                       tmp_path: Path) -> None:
    record, bad = spoiled(record_game(4, seed=3), "P1", "plague Atlantis")
    url = write_page(tmp_path, "illegal", record)
    for name, size in WIDTHS.items():
        watched = open_page(*size)
        page = watched.page
        page.goto(url)
        step, last = where(page)
        assert step == last, "an illegal record opens at its first bad entry"
        box = page.locator("#verdict-box")
        assert "illegal" in (box.get_attribute("class") or "")
        text = box.inner_text()
        assert f"entry {bad} is refused" in text and "Atlantis" in text and "Legal there:" in text
        assert box.locator("blockquote[lang=de]").count() >= 1
        assert page.locator("#entries li.bad").inner_text().endswith("plague Atlantis")
        assert page.locator("#entries li.unchecked").count() == len(record["entries"]) - bad - 1
        assert page.locator("#entries li.bad").is_visible()
        screenshot(page, shots, f"viewer-illegal-{name}")
        # the picture fits the window
        width = page.locator("#picture svg").bounding_box()["width"]
        assert 0 < width <= size[0]
        assert not watched.errors, watched.errors


def test_viewer_of_a_players_eye_record_hides_tokens(open_page: Any, shots: Path,  # noqa: F811
                                                     tmp_path: Path) -> None:
    record = record_game(3, seed=6, kind=PLAYERS_EYE, viewer=1)
    looks = {e["look"] for e in record["entries"] if "look" in e}
    url = write_page(tmp_path, "players-eye", record)
    watched = open_page(*WIDTHS["1440"])
    page = watched.page
    page.goto(url)
    _, last = where(page)
    drawn = 0
    for _ in range(0, last, 9):
        titles = page.locator("#picture svg g.token title").all_text_contents()
        drawn += len(titles)
        for t in titles:
            if t != "face down":
                assert t.removeprefix("face down: ").replace(": ", ":") in looks, t
        for _ in range(9):
            page.keyboard.press("ArrowRight")
    assert "players-eye" in page.inner_text("#about")
    screenshot(page, shots, "viewer-players-eye-1440")
    assert not watched.errors, watched.errors
    assert drawn > 50, "face-down tokens are drawn"


# ------------------------------------------------------------- the play page
@pytest.fixture
def play_url() -> Iterator[tuple[PlayServer, str]]:
    server = PlayServer(seed=3)
    with serving(server) as url:
        yield server, url


def test_play_a_game_in_the_browser(open_page: Any, shots: Path,  # noqa: F811
                                    play_url: tuple[PlayServer, str], tmp_path: Path) -> None:
    server, url = play_url
    watched = open_page(*WIDTHS["1440"])
    page = watched.page
    page.goto(url)
    page.select_option("#players", "2")
    page.select_option("#seat", "0")
    page.fill("#seed", "8")
    page.select_option("select[data-switch='reveal-order']", "placed")
    screenshot(page, shots, "play-setup-1440")
    page.click("#start")
    page.wait_for_selector("#actions button")
    assert page.locator("#setup-view").is_hidden()
    (session,) = server.games.values()
    assert session.state.settings["reveal_order"] == "placed" and session.human == 0
    buttons = page.locator("#actions button").evaluate_all("bs => bs.map(b => b.dataset.action)")
    assert buttons == list(dict.fromkeys(session.legal()))  # grouped by verb, each action once
    cites = citations_json(session.state.decision_citations())
    assert all(c["quote"] in page.inner_text("#action-help") for c in cites)  # the first action's rule
    screenshot(page, shots, "play-start-1440")
    # a click on a region chooses the action naming it
    page.locator("#picture g.region.clickable[data-region='Gallia']").click()
    page.wait_for_selector("#log li.mine")
    assert page.locator("#log li.mine").first.inner_text().startswith("P0: start Gallia")
    assert {"by": "P0", "action": "start Gallia"} in session.seen.entries
    # the record can be downloaded at any time
    with page.expect_download() as download:
        page.click("#download")
    path = tmp_path / "record.json"
    download.value.save_as(path)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["kind"] == "players-eye" and len(record["entries"]) == len(session.seen.entries)
    # play on: always the first button; the page follows the game
    for click in range(400):
        if page.locator("#turn h2").inner_text().startswith("The game is over"):
            break
        before = len(session.log)
        page.locator("#actions button").first.click()
        page.wait_for_function(f"() => !document.getElementById('error').hidden || "
                               f"document.querySelectorAll('#log li').length > {before}")
        assert page.locator("#error").is_hidden()
        if len(session.log) % 40 == 0:
            screenshot(page, shots, "play-midgame-1440")
        if click % 15 == 0:
            check_board(drawn(page), session.state)  # what the page draws, against the game's own numbers
    text = page.inner_text("#turn")
    assert session.state.is_terminal() and "Scores:" in text
    check_board(drawn(page), session.state)
    assert all(f"P{p} {s}" in text for p, s in enumerate(session.state.scores()))
    assert page.locator("#download-full").is_visible()
    screenshot(page, shots, "play-over-1440")
    for name in ("1280", "phone"):
        page.set_viewport_size({"width": WIDTHS[name][0], "height": WIDTHS[name][1]})
        screenshot(page, shots, f"play-over-{name}")
        assert page.locator("#picture svg").bounding_box()["width"] <= WIDTHS[name][0]
    assert not watched.errors, watched.errors
    assert all(u.startswith(url) for u in watched.requests), watched.requests
