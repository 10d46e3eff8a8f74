"""`rattus play --web`: the play page's JSON interface takes only well-formed input, hides hidden tokens,
plays the other seats, and hands out the record (tests/rattus/test_browser.py plays it in a browser)."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from rattus_rules import interpretations
from rattus_rules.cli import main
from rattus_rules.tools.records.validate import validate
from rattus_rules.tools.views.play import MAX_BODY, TOKEN_HEADER, PlayServer

from .browser import serving

SVG = "{http://www.w3.org/2000/svg}"


class Client:
    """Talks to a play server on 127.0.0.1 as its page does (with the token the page carries)."""

    def __init__(self, base: str) -> None:
        self.base = base
        with urllib.request.urlopen(base + "/", timeout=30) as answer:
            html = answer.read().decode()
        found = re.search(r'"token":"([^"]+)"', html)
        assert found, "the play page carries its token"
        self.token = found.group(1)

    def call(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", TOKEN_HEADER: self.token,
                                                  **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, text = answer.status, answer.read().decode()
        except urllib.error.HTTPError as err:
            status, text = err.code, err.read().decode()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[PlayServer, Client]]:
    """A play server on a free port, in a thread."""
    server = PlayServer(seed=5)
    with serving(server) as url:
        yield server, Client(url.rstrip("/"))


def test_the_page_and_the_setup(served: tuple[PlayServer, Client]) -> None:
    _, client = served
    status, html = client.call("GET", "/")
    assert status == 200 and html.startswith("<!DOCTYPE html>")
    assert "connect-src &#x27;self&#x27;" in html and html.count("<script") == 2
    status, setup = client.call("GET", "/api/setup")
    assert status == 200 and setup["players"] == [2, 3, 4] and setup["seed"] == 5
    assert [s["id"] for s in setup["switches"]] == [i.id for i in interpretations()]
    assert all(s["selected"] == s["default"] for s in setup["switches"])
    assert all(o["citations"] for s in setup["switches"] for o in s["options"])


@pytest.mark.parametrize(("body", "says"), [
    ([], "JSON object"),
    ({"players": 9}, "between 2 and 4"),
    ({"players": "4"}, "whole number"),
    ({"players": True}, "whole number"),
    ({"players": 2, "seat": 2}, "between 0 and 1"),
    ({"seed": -1}, "between 0"),
    ({"seed": 10**30}, "between 0"),
    ({"interpretations": {"no-such-switch": "x"}}, "no-such-switch"),
    ({"interpretations": {"reveal-order": "sideways"}}, "sideways"),
    ({"interpretations": ["reveal-order"]}, "interpretations"),
    ({"interpretations": {"reveal-order": 3}}, "interpretations"),
    ({"cheat": 1}, "unknown field"),
])
def test_a_new_game_refuses_bad_input(served: tuple[PlayServer, Client], body: Any, says: str) -> None:
    status, answer = served[1].call("POST", "/api/games", body)
    assert status == 400 and says in answer["error"]


def test_bodies_that_are_not_small_json_are_refused(served: tuple[PlayServer, Client]) -> None:
    client = served[1]
    assert client.call("POST", "/api/games", raw=b"{")[0] == 400
    assert client.call("POST", "/api/games", raw=b"\xff\xfe")[0] == 400
    assert client.call("POST", "/api/games", raw=b"[" * 100000)[0] == 413
    nested = b"[" * (MAX_BODY // 2) + b"]" * (MAX_BODY // 2)
    assert client.call("POST", "/api/games", raw=nested)[0] == 400
    assert client.call("GET", "/api/games/nope")[0] == 404
    status, answer = client.call("DELETE", "/api/games")
    assert status == 405 and "error" in answer
    status, answer = client.call("GET", "/api/setup", headers={"Host": "evil.example:80"})
    assert status == 403 and "127.0.0.1" in answer["error"]


def test_a_game_against_random_players(served: tuple[PlayServer, Client]) -> None:
    server, client = served
    status, view = client.call("POST", "/api/games", {"players": 3, "seat": 1, "seed": 11,
                                                      "interpretations": {"reveal-order": "placed"}})
    assert status == 200, view
    gid = view["game"]
    session = server.games[gid]
    assert session.state.settings["reveal_order"] == "placed"
    assert view["seat"] == "P1" and view["legal"] and view["rule"] and view["citations"]
    assert any(step["by"] == "P0" for step in view["log"]), "P0 moved before the person"
    status, answer = client.call("POST", f"/api/games/{gid}/actions", {"action": "start Atlantis"})
    assert status == 400 and answer["citations"] and answer["rule"] == view["rule"]
    for bad in ({"action": 3}, {"action": ""}, {"action": "x" * 300}, {"action": "start Gallia", "more": 1}):
        assert client.call("POST", f"/api/games/{gid}/actions", bad)[0] == 400
    assert client.call("GET", f"/api/games/{gid}/record?kind=omniscient")[0] == 409
    assert client.call("GET", f"/api/games/{gid}/record?kind=other")[0] == 400
    moves = 0
    while not view["over"]:
        state = session.state
        hidden = [t for t in range(len(state.face_up)) if not state.can_see(t, 1)]
        svg = ET.fromstring(view["svg"])
        named = [t.text for g in svg.iter(f"{SVG}g") if g.get("class") == "token"
                 for t in g.iter(f"{SVG}title") if t.text != "face down"]
        assert len(named) <= len(state.vals["holder"]) and (named == [] or hidden)
        status, view = client.call("POST", f"/api/games/{gid}/actions", {"action": view["legal"][-1]})
        assert status == 200, view
        moves += 1
        assert moves < 400
    assert view["scores"] == session.state.scores() and view["winners"]
    assert client.call("POST", f"/api/games/{gid}/actions", {"action": "take monk"})[0] == 409
    for kind in ("players-eye", "omniscient"):
        status, record = client.call("GET", f"/api/games/{gid}/record?kind={kind}")
        assert status == 200 and record["kind"] == kind
        verdict = validate(record)
        assert verdict.ok and verdict.finished and list(verdict.scores) == view["scores"], verdict.format()
    assert "?" in json.dumps(client.call("GET", f"/api/games/{gid}/record")[1])


def test_the_server_keeps_a_bounded_number_of_games(served: tuple[PlayServer, Client]) -> None:
    server, client = served
    from rattus_rules.tools.views import play as playweb

    first = None
    for _ in range(playweb.MAX_GAMES + 2):
        view = client.call("POST", "/api/games", {"players": 2})[1]
        first = first or view["game"]
    assert len(server.games) == playweb.MAX_GAMES
    assert client.call("GET", f"/api/games/{first}")[0] == 404


def test_play_web_command_line_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--web", "--port", "70000"]) == 2
    assert main(["play", "--web", "--record", "x.json"]) == 2
    assert main(["play", "--web", "-i", "no-such=1", "--port", "0"]) == 2
    assert "rattus:" in capsys.readouterr().err
