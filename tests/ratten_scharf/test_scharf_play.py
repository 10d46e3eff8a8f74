"""Ratten Scharf on the play page (`rattus --game ratten_scharf play --web`), drawn from its declared picture:
a strip is laid by choosing the strip, then clicking the field of its first symbol and that of its last
(the spec's ``click``), never from a list of every placement; the keyboard does the same; whose turn and
what the other player did are shown; every error is JSON.  In Chromium at 1280 x 800 and 390 x 844."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from rattus_rules.tools.views.play import TOKEN_HEADER, PlayServer
from tests.rattus.browser import WIDTHS, browser, open_page, screenshot, serving, shots  # noqa: F401
from tests.rattus.test_usability_browser import READABLE_PX, check_seen, layout


def _server() -> PlayServer:
    return PlayServer(seed=4, game="ratten_scharf")


def test_each_action_is_a_strip_and_two_fields_of_the_picture() -> None:
    server = _server()
    view = server.new_game({"seed": 4, "seat": 0})
    (session,) = server.games.values()
    lay = [a for a in view["actions"] if a["verb"] == "lay"]
    assert lay and len(lay) == len(view["actions"]) == len(session.legal())
    drawn = set(__import__("re").findall(r'data-place="([^"]+)"', view["svg"]))
    for action in lay:
        ((first, last),) = action["paths"]
        assert {first, last} <= drawn and first != last
        strip, line = action["words"]
        assert action["pick"] == strip and line == f"{first}-{last}"  # the line from its first field to its last
    assert len({a["pick"] for a in lay}) <= 2  # a handful of strips to choose, not a button per placement
    assert view["players"][0]["label"] == "P0" and "score" in view["players"][0]
    assert "Ratten Scharf" in server.index()


def test_errors_are_json_never_a_500() -> None:
    server = _server()
    with serving(server) as url:
        with urllib.request.urlopen(url, timeout=30) as answer:
            html = answer.read().decode()
        token = html.split('"token":"', 1)[1].split('"', 1)[0]

        def post(path: str, body: Any) -> tuple[int, Any]:
            request = urllib.request.Request(url.rstrip("/") + path, data=json.dumps(body).encode(), method="POST",
                                             headers={"Content-Type": "application/json", TOKEN_HEADER: token})
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return answer.status, json.loads(answer.read().decode())
            except urllib.error.HTTPError as err:
                return err.code, json.loads(err.read().decode())

        status, view = post("/api/games", {"seed": 4, "seat": 1, "interpretations": {"cover": "any-depth"}})
        assert status == 200 and any(step["by"] == "P0" for step in view["log"])  # the other player laid first
        for body in ({"action": "lay nothing a1-a3"}, {"action": 5}, {"action": "x" * 300}):
            status, answer = post(f"/api/games/{view['game']}/actions", body)
            assert status == 400 and answer["error"], (body, answer)
        status, answer = post("/api/games", {"interpretations": {"table-size": "21"}})
        assert status == 400 and "table-size" in answer["error"]
        status, answer = post("/api/games", {"players": 3})
        assert status == 400 and "players" in answer["error"]


def _start(opener: Any, url: str, size: tuple[int, int]) -> Any:
    page = opener(*size).page
    page.goto(url)
    page.fill("#seed", "4")
    page.select_option("select[data-switch='no-fit']", "end")
    page.click("#start")
    page.wait_for_selector("#actions button.pick")
    return page


def _wait_for_move(page: Any, session: Any, before: int) -> None:
    page.wait_for_function(f"() => !document.getElementById('error').hidden || "
                           f"document.querySelectorAll('#log li').length > {before}")
    assert page.locator("#error").is_hidden(), page.inner_text("#error")


def _lay_by_clicks(page: Any, session: Any, keyboard: bool = False) -> str:
    """Choose the last strip offered, click (or Enter on) a marked field, then a field marked next; the
    action the server took."""
    before = len(session.log)
    legal = list(session.legal())
    page.locator("#actions button.pick").last.click()
    first = page.locator("#picture g.place.clickable").first
    key = str(first.get_attribute("data-place"))
    if keyboard:
        first.focus()
        page.keyboard.press("Enter")
    else:
        first.click()
    assert page.locator(f"#picture g.place.chosen[data-place='{key}']").count() == 1
    second = page.locator("#picture g.place.clickable").first
    assert second.get_attribute("data-place") != key
    if keyboard:
        assert second.evaluate("(g) => g === document.activeElement")  # the focus moved to the next fields
        page.keyboard.press("Enter")
    else:
        second.click()
    _wait_for_move(page, session, before)
    mine = [s for s in session.log if s["you"]][-1]["entries"][0].split(": ", 1)[1]
    assert mine in legal and mine.startswith("lay ") and f" {key}-" in mine
    return mine


def test_a_strip_is_laid_by_clicks_on_the_table(open_page: Any, shots: Path) -> None:  # noqa: F811
    server = _server()
    with serving(server) as url:
        page = _start(open_page, url, WIDTHS["1280"])
        (session,) = server.games.values()
        assert page.inner_text("h1") == "Ratten Scharf: play against random players"
        # not a button per placement: a button per strip, then the fields
        assert page.locator("#actions button").count() <= 2
        assert page.locator("#picture g.place.clickable").count() > 3
        for _ in range(3):
            _lay_by_clicks(page, session)
        # Escape takes back the first click
        page.locator("#picture g.place.clickable").first.click()
        assert page.locator("#picture g.place.chosen").count() == 1
        page.keyboard.press("Escape")
        assert page.locator("#picture g.place.chosen").count() == 0
        # whose turn, and what the other player did since the person's last move (a turn lays two strips)
        for _ in range(3):
            _lay_by_clicks(page, session, keyboard=True)
            assert page.inner_text("#whose").startswith(f"Your turn (P{session.human}): ")
            last = max(i for i, s in enumerate(session.log) if s["you"])
            since = [" · ".join(s["entries"]) for s in session.log[last + 1:]]
            assert page.locator("#recent li").all_inner_texts() == since
            if any(line.startswith("P1: lay ") for line in since):
                break
        assert any(line.startswith("P1: lay ") for line in since), since
        assert page.inner_text("#players-table").splitlines()[0].split("\t")[:2] == ["seat", "score"]
        page.evaluate("() => window.scrollTo(0, 0)")
        screenshot(page, shots, "scharf-play-midgame-1280")
        check_seen(page, WIDTHS["1280"])
        page.set_viewport_size({"width": WIDTHS["phone"][0], "height": WIDTHS["phone"][1]})
        page.evaluate("() => window.scrollTo(0, 0)")
        screenshot(page, shots, "scharf-play-midgame-phone")
        check_seen(page, WIDTHS["phone"])


def test_a_phone_plays_by_clicks_too(open_page: Any, shots: Path) -> None:  # noqa: F811
    server = _server()
    with serving(server) as url:
        page = _start(open_page, url, WIDTHS["phone"])
        (session,) = server.games.values()
        for _ in range(2):
            _lay_by_clicks(page, session)
        page.evaluate("() => window.scrollTo(0, 0)")
        check_seen(page, WIDTHS["phone"])
        screenshot(page, shots, "scharf-play-phone")
        # zoomed, the table's text is readable and the table scrolls in its own box; clicks still lay
        page.click("#zoom")
        seen = layout(page)
        assert seen["scrollWidth"] <= seen["clientWidth"] and seen["smallest"] >= READABLE_PX, seen
        assert page.locator("#picture").evaluate("(b) => b.scrollWidth > b.clientWidth")
        _lay_by_clicks(page, session)
        assert page.get_attribute("#zoom", "aria-pressed") == "true"
        screenshot(page, shots, "scharf-play-phone-zoomed")
