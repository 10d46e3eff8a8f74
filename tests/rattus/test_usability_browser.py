"""Issue 28 in Chromium: the replay viewer as a person sees it at 1280 x 800 and on a 390 x 844 phone.

Screenshots of the start, the middle, the end and an illegal record at both sizes; on each, what a
person would check: the window is not scrolled on load, no page-wide horizontal scroll, nothing of the
board (and of an illegal record's refusal) cut off at 1280 x 800, the board's text at least 11 px there,
one step numbering, the address followed, the final scores and the winner said plainly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rattus_rules.frames import record_frames
from rattus_rules.records import record_game, validate

from .browser import WIDTHS, browser, open_page, screenshot, shots  # noqa: F401
from .test_browser import where, write_page
from .test_viewer import spoiled

#: The smallest text a person reads on the board at 1280 px wide, in CSS pixels.
READABLE_PX = 11

#: The layout facts of a page, read in the browser.
_LAYOUT = """() => {
  const d = document.documentElement;
  const svg = document.querySelector('#picture svg');
  const box = svg ? svg.getBoundingClientRect() : null;
  const scale = svg ? svg.getScreenCTM().a : 1;
  const sizes = svg ? Array.from(svg.querySelectorAll('text'))
      .filter(t => t.getBBox().width > 0)
      .map(t => parseFloat(t.getAttribute('font-size')) * scale) : [];
  return {scrollY: window.scrollY, scrollWidth: d.scrollWidth, clientWidth: d.clientWidth,
          board: box && {top: box.top, bottom: box.bottom, left: box.left, right: box.right},
          smallest: sizes.length ? Math.min(...sizes) : null, texts: sizes.length};
}"""


def layout(page: Any) -> dict[str, Any]:
    """Scroll position, page width, the board's box and its smallest text size (CSS px)."""
    found: dict[str, Any] = page.evaluate(_LAYOUT)
    return found


def check_seen(page: Any, size: tuple[int, int]) -> dict[str, Any]:
    """What every screenshot must show: the window at the top, no page-wide horizontal scroll."""
    seen = layout(page)
    assert seen["scrollY"] == 0, f"the window was scrolled to {seen['scrollY']} px"
    assert seen["scrollWidth"] <= seen["clientWidth"], f"page-wide horizontal scroll: {seen}"
    if size[0] >= 1280:
        board = seen["board"]
        assert board["top"] >= 0 and board["left"] >= 0, board
        assert board["bottom"] <= size[1] and board["right"] <= size[0], f"the board is cut off: {board}"
        assert seen["smallest"] >= READABLE_PX, f"board text of {seen['smallest']:.1f} px at {size[0]} px wide"
    return seen


def test_the_viewer_at_start_middle_and_end(open_page: Any, shots: Path, tmp_path: Path) -> None:  # noqa: F811
    record = record_game(4, seed=3)
    frames, verdict = record_frames(record)
    url = write_page(tmp_path, "game", record)
    middle = len(frames) // 2
    for name, size in (("1280", WIDTHS["1280"]), ("phone", WIDTHS["phone"])):
        watched = open_page(*size)
        page = watched.page
        for label, k in (("start", 0), ("middle", middle), ("end", len(frames) - 1)):
            page.goto(f"{url}#{k}")
            page.reload()  # the address is read on load
            assert where(page)[0] == k
            seen = check_seen(page, size)
            screenshot(page, shots, f"usability-viewer-{label}-{name}")
            # one numbering, both labelled: the step and the record entry it shows
            frame = frames[k]
            shown = page.inner_text("#where")
            if frame.index is None:
                assert shown == f"step {k} of {len(frames) - 1} · the end"
            else:
                assert shown == f"step {k} of {len(frames) - 1} · record entry {frame.index}"
                assert page.inner_text("#step h2") == f"Record entry {frame.index} (step {k})"
                # the record list follows the step inside its own box (the list is numbered by entry)
                current = page.locator("#entries li.current").first
                assert current.get_attribute("data-entry") == str(frame.index)
                box, item = page.locator("#entries").bounding_box(), current.bounding_box()
                assert box is not None and item is not None
                assert box["y"] - 1 <= item["y"] and item["y"] + item["height"] <= box["y"] + box["height"] + 1
                if label == "middle":
                    assert page.locator("#entries").evaluate("(l) => l.scrollTop") > 0
            assert seen["texts"] > 30
        # the end: the scores and the winner plainly, and a score column in the players' table
        winners = frames[-1].state.winner() or []
        box_text = page.inner_text("#verdict-box")
        assert ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(f"P{w}" for w in winners) in box_text
        rows = page.locator("#final-scores tr").all_inner_texts()
        assert rows[0].split("\t") == ["player", "final score"]
        assert sorted(int(r.split("\t")[1]) for r in rows[1:]) == sorted(verdict.scores)
        assert [int(r.split("\t")[1]) for r in rows[1:]] == sorted(verdict.scores, reverse=True)
        head = page.locator("#players tr").first.inner_text().split("\t")
        assert head[:2] == ["seat", "score"]
        assert not watched.errors, watched.errors


def test_the_viewer_follows_the_address(open_page: Any, tmp_path: Path) -> None:  # noqa: F811
    record = record_game(2, seed=4)
    url = write_page(tmp_path, "game", record)
    page = open_page(*WIDTHS["1280"]).page
    page.goto(url)
    assert where(page)[0] == 0
    page.evaluate("() => { window.location.hash = '#17'; }")
    page.wait_for_function("() => document.getElementById('where').textContent.startsWith('step 17 ')")
    assert where(page)[0] == 17 and page.evaluate("() => window.scrollY") == 0
    page.go_back()
    page.wait_for_function("() => document.getElementById('where').textContent.startsWith('step 0 ')")


def test_an_illegal_record_shows_board_and_refusal_uncut(open_page: Any, shots: Path,  # noqa: F811
                                                         tmp_path: Path) -> None:
    record, bad = spoiled(record_game(4, seed=3), "P1", "plague Atlantis")
    assert validate(record).status == "illegal"
    url = write_page(tmp_path, "illegal", record)
    for name, size in (("1280", WIDTHS["1280"]), ("phone", WIDTHS["phone"])):
        page = open_page(*size).page
        page.goto(url)
        check_seen(page, size)
        refusal = page.locator("#verdict-box").bounding_box()
        assert refusal is not None
        if size[0] >= 1280:  # the refusal's head is on the first screen, beside the board
            assert refusal["y"] >= 0 and refusal["y"] + 60 <= size[1], refusal
        assert f"entry {bad} is refused" in page.inner_text("#verdict-box h2")
        screenshot(page, shots, f"usability-viewer-illegal-{name}")


def test_a_phone_zooms_the_board_inside_its_box(open_page: Any, shots: Path, tmp_path: Path) -> None:  # noqa: F811
    url = write_page(tmp_path, "game", record_game(3, seed=2))
    page = open_page(*WIDTHS["phone"]).page
    page.goto(url + "#10")
    assert page.locator("#zoom").is_visible()
    page.click("#zoom")
    seen = layout(page)
    assert seen["scrollWidth"] <= seen["clientWidth"], "zooming must not scroll the page sideways"
    assert seen["smallest"] >= READABLE_PX, f"zoomed board text of {seen['smallest']:.1f} px"
    box = page.locator("#picture").evaluate("(b) => ({sw: b.scrollWidth, cw: b.clientWidth})")
    assert box["sw"] > box["cw"], "the zoomed board scrolls inside its own box"
    assert page.get_attribute("#zoom", "aria-pressed") == "true"
    screenshot(page, shots, "usability-viewer-zoomed-phone")
    page.click("#zoom")
    assert layout(page)["smallest"] < READABLE_PX  # fitted to the phone again: the whole board in view
    assert page.locator("#picture").evaluate("(b) => b.scrollWidth <= b.clientWidth")
