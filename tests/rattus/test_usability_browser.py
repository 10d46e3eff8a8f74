"""Issue 28 in Chromium: the replay viewer as a person sees it at 1280 x 800 and on a 390 x 844 phone.

Screenshots of the start, the middle, the end and an illegal record at both sizes; on each, what a
person would check: the window is not scrolled on load, no page-wide horizontal scroll, nothing of the
board (and of an illegal record's refusal) cut off at 1280 x 800, the board's text at least 11 px there,
one step numbering, the address followed, the final scores and the winner said plainly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rattus_rules.tools.records.validate import record_game, validate
from rattus_rules.tools.views.frames import record_frames
from rattus_rules.tools.views.play import PlayServer

from .browser import WIDTHS, browser, open_page, screenshot, serving, shots  # noqa: F401
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


# ------------------------------------------------------------------ the play page
def _play(opener: Any, url: str, size: tuple[int, int]) -> Any:
    page = opener(*size).page
    page.goto(url)
    page.select_option("#players", "3")
    page.select_option("#seat", "1")
    page.fill("#seed", "5")
    page.select_option("select[data-switch='reveal-order']", "chosen")
    page.click("#start")
    page.wait_for_selector("#actions button")
    return page


def _step(page: Any, session: Any, run: Any) -> None:
    """Do ``run`` (a click or a key) and wait until the server's log grew or the page shows an error."""
    before = len(session.log)
    run()
    page.wait_for_function(f"() => !document.getElementById('error').hidden || "
                           f"document.querySelectorAll('#log li').length > {before}")
    assert page.locator("#error").is_hidden(), page.inner_text("#error")


def test_the_play_page_is_played_on_the_board(open_page: Any, shots: Path) -> None:  # noqa: F811
    server = PlayServer(seed=3)
    with serving(server) as url:
        page = _play(open_page, url, WIDTHS["1280"])
        (session,) = server.games.values()
        on_board = tokens = 0
        for _ in range(120):
            if session.state.is_terminal() or (on_board >= 8 and tokens >= 1):
                break
            token = page.locator("#picture g.token.clickable")
            region = page.locator("#picture g.region.clickable")
            if token.count():
                target, tokens = token.first, tokens + 1
            elif region.count():
                target = region.first
            else:
                _step(page, session, lambda: page.locator("#actions button").first.click())
                continue
            legal_before = list(session.legal())
            before = len(session.log)
            target.click()
            page.wait_for_function(f"() => !document.getElementById('error').hidden || "
                                   f"document.querySelector('#actions button.suggested') !== null || "
                                   f"document.querySelectorAll('#log li').length > {before}")
            if page.locator("#actions button.suggested").count():  # a click that may mean several actions
                assert "choose one" in page.inner_text("#hint")
                suggested = page.locator("#actions button.suggested").first
                assert suggested.evaluate("(b) => b === document.activeElement")  # the focus moved to it
                _step(page, session, lambda: page.keyboard.press("Enter"))  # the keyboard takes it
            assert page.locator("#error").is_hidden(), page.inner_text("#error")
            mine = [s for s in session.log if s["you"]][-1]
            assert mine["entries"][0].split(": ", 1)[1] in legal_before
            on_board += 1
        assert on_board >= 8, f"only {on_board} actions were taken on the board"
        page.evaluate("() => window.scrollTo(0, 0)")  # the focus moved with the person's clicks: look from the top
        check_seen(page, WIDTHS["1280"])
        screenshot(page, shots, "usability-play-midgame-1280")
        # whose turn, and what the bots and chance did since the person's last move, step by step
        banner = page.inner_text("#whose")
        assert banner.startswith(f"Your turn (P{session.human}): ") or banner == "The game is over."
        for _ in range(40):  # until the others have moved since the person's last action
            last = max(i for i, s in enumerate(session.log) if s["you"])
            since = [" · ".join(s["entries"]) for s in session.log[last + 1:]]
            assert page.locator("#recent li").all_inner_texts() == since
            assert page.inner_text("#recent h2") == "Since your last move"
            if any(line.startswith(("P0: ", "P2: ")) for line in since):
                break
            if not since:
                assert page.inner_text("#recent p") == "Nothing: it is your turn again."
            _step(page, session, lambda: page.locator("#actions button").first.click())
        assert since and any(line.startswith(("P0: ", "P2: ")) for line in since), since
        # actions grouped by verb, each with its rule and German sentence on focus and on hover
        groups = page.locator("#actions fieldset.verb")
        verbs = groups.evaluate_all("fs => fs.map(f => f.dataset.verb)")
        assert verbs == list(dict.fromkeys(a.split(" ")[0] for a in session.legal()))
        last_button = page.locator("#actions button").last
        last_button.focus()
        action = str(last_button.get_attribute("data-action"))
        helpbox = page.inner_text("#action-help")
        assert helpbox.startswith(action) and "rule " in helpbox
        assert page.locator("#action-help blockquote[lang=de]").count() >= 1
        page.mouse.move(1, 1)
        page.locator("#actions button").first.hover()
        assert page.inner_text("#action-help").startswith(str(page.locator("#actions button").first
                                                              .get_attribute("data-action")))
        # the keyboard: Tab reaches the board's regions, Enter acts
        region = page.locator("#picture g.region.clickable")
        if region.count():
            region.first.focus()
            assert region.first.evaluate("(g) => g === document.activeElement")
        for name in ("phone",):
            page.set_viewport_size({"width": WIDTHS[name][0], "height": WIDTHS[name][1]})
            page.evaluate("() => window.scrollTo(0, 0)")
            check_seen(page, WIDTHS[name])
            screenshot(page, shots, f"usability-play-midgame-{name}")
