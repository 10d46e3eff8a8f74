"""The play server (`rattus play --web`) against hostile requests (issue 24, items 1 to 4): other sites' requests,
framing, a stalled client, a malformed Content-Length."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from rattus_rules.tools.views.play import TOKEN_HEADER, PlayServer, make_play_server


class Served:
    """A play server in a thread, and a way to send it exactly the request a test wants."""

    def __init__(self, server: PlayServer, port: int) -> None:
        self.server = server
        self.port = port
        self.host = f"127.0.0.1:{port}"
        status, headers, page = self.send("GET", "/")
        assert status == 200
        found = re.search(r'"token":"([^"]+)"', page)
        assert found, "the play page carries a token"
        self.token = found.group(1)
        self.page_headers = headers

    def send(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
             timeout: float = 20) -> tuple[int, dict[str, str], str]:
        """One request with exactly these headers (plus Host); status, headers (lower-case names) and text."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            named = any(k.lower() == "host" for k in (headers or {}))
            conn.putrequest(method, path, skip_host=named, skip_accept_encoding=True)
            for name, value in (headers or {}).items():
                conn.putheader(name, value)
            if body is not None and not any(k.lower() == "content-length" for k in (headers or {})):
                conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            answer = conn.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read().decode()
        finally:
            conn.close()

    def post(self, path: str, body: Any, **headers: str) -> tuple[int, Any]:
        """A POST as the page sends it, with the given headers changed (a value "" drops that header)."""
        sent = {"Content-Type": "application/json", TOKEN_HEADER: self.token, "Origin": f"http://{self.host}",
                "Sec-Fetch-Site": "same-origin"}
        sent.update({k.replace("_", "-"): v for k, v in headers.items()})
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        status, _, text = self.send("POST", path, raw, {k: v for k, v in sent.items() if v != ""})
        return status, json.loads(text)


@pytest.fixture(scope="module", params=["rattus", "ratten_scharf"])
def served(request: pytest.FixtureRequest) -> Iterator[Served]:
    """A play server of each game (the play page serves any game of the registry) with a socket timeout of
    1 s on a free port."""
    server = PlayServer(seed=3, game=request.param)
    httpd = make_play_server(server, 0, timeout=1)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield Served(server, httpd.server_port)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


def test_the_page_itself_may_start_and_play_a_game(served: Served) -> None:
    status, view = served.post("/api/games", {"players": 2})
    assert status == 200, view
    status, view = served.post(f"/api/games/{view['game']}/actions", {"action": view["legal"][0]})
    assert status == 200, view
    # a client that sends neither Origin nor Sec-Fetch-Site (not a browser) with the token is taken too
    assert served.post("/api/games", {"players": 2}, Origin="", Sec_Fetch_Site="")[0] == 200


#: What another site can make a browser send (no-cors fetch, a form, a sandboxed frame), and forged tokens.
CROSS_SITE: list[tuple[str, dict[str, str], bytes | None, int]] = [
    ("no-cors fetch, text/plain", {"Content-Type": "text/plain;charset=UTF-8", TOKEN_HEADER: "",
                                   "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, None, 403),
    ("text/plain from no browser", {"Content-Type": "text/plain", TOKEN_HEADER: "", "Origin": "",
                                    "Sec-Fetch-Site": ""}, None, 415),
    ("form-encoded POST", {"Content-Type": "application/x-www-form-urlencoded", TOKEN_HEADER: "",
                           "Origin": "", "Sec-Fetch-Site": ""}, b"players=2", 415),
    ("multipart form", {"Content-Type": "multipart/form-data; boundary=x", TOKEN_HEADER: "", "Origin": "",
                        "Sec-Fetch-Site": ""}, b"--x--", 415),
    ("Origin: null", {"Origin": "null"}, None, 403),
    ("Origin: null without a token", {"Origin": "null", TOKEN_HEADER: ""}, None, 403),
    ("another origin", {"Origin": "http://evil.example"}, None, 403),
    ("another port of this machine", {"Origin": "http://127.0.0.1:1"}, None, 403),
    ("https of this host", {"Origin": "https://127.0.0.1"}, None, 403),
    ("Sec-Fetch-Site: cross-site", {"Sec-Fetch-Site": "cross-site"}, None, 403),
    ("Sec-Fetch-Site: same-site", {"Sec-Fetch-Site": "same-site"}, None, 403),
    ("Sec-Fetch-Site: none", {"Sec-Fetch-Site": "none"}, None, 403),
    ("JSON without a token", {TOKEN_HEADER: ""}, None, 403),
    ("no Content-Type", {"Content-Type": ""}, None, 415),
    ("a token of another server", {TOKEN_HEADER: "abc.0123456789abcdef"}, None, 403),
    ("a token without its HMAC", {TOKEN_HEADER: "abc"}, None, 403),
    ("a token with an empty nonce", {TOKEN_HEADER: ".abc"}, None, 403),
    ("a token not ASCII", {TOKEN_HEADER: "\u00e9.\u00e9"}, None, 403),
    ("a very long token", {TOKEN_HEADER: "a" * 5000}, None, 403),
]


@pytest.mark.parametrize(("name", "headers", "raw", "status"), CROSS_SITE, ids=[c[0] for c in CROSS_SITE])
def test_requests_from_other_sites_change_nothing(served: Served, name: str, headers: dict[str, str],
                                                  raw: bytes | None, status: int) -> None:
    status_before, mine = served.post("/api/games", {"players": 2})
    assert status_before == 200
    games = dict(served.server.games)
    sent = {k.replace("-", "_"): v for k, v in headers.items()}
    for path in ("/api/games", f"/api/games/{mine['game']}/actions"):
        body: Any = raw if raw is not None else ({"players": 2} if path == "/api/games"
                                                 else {"action": mine["legal"][0]})
        got, answer = served.post(path, body, **sent)
        assert got == status and answer["error"], (name, path, answer)
    assert dict(served.server.games) == games, "nothing was started"
    assert served.send("GET", f"/api/games/{mine['game']}")[0] == 200


def test_33_cross_site_posts_do_not_evict_the_persons_game(served: Served) -> None:
    status, mine = served.post("/api/games", {"players": 2})
    assert status == 200
    for _ in range(33):
        assert served.post("/api/games", {"players": 2}, Content_Type="text/plain;charset=UTF-8",
                           Origin="http://evil.example", Sec_Fetch_Site="cross-site",
                           X_Rattus_Token="")[0] == 403
    assert served.send("GET", f"/api/games/{mine['game']}")[0] == 200


def test_each_page_has_its_own_token(served: Served) -> None:
    tokens = {re.search(r'"token":"([^"]+)"', served.send("GET", "/")[2]).group(1)  # type: ignore[union-attr]
              for _ in range(3)}
    assert len(tokens) == 3
    for token in tokens:
        assert served.post("/api/games", {"players": 2}, X_Rattus_Token=token)[0] == 200


@pytest.mark.parametrize("path", ["/", "/api/setup", "/api/games/nope", "/nope"])
def test_every_answer_forbids_framing_and_sniffing(served: Served, path: str) -> None:
    status, headers, _ = served.send("GET", path)
    assert status in (200, 404)
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"


def test_the_pages_policy_is_a_header_too(served: Served) -> None:
    policy = served.page_headers["content-security-policy"]
    assert "script-src 'sha256-" in policy and "connect-src 'self'" in policy
    assert "default-src 'none'" in policy and policy.endswith("frame-ancestors 'none'")
    for host in ("evil.example", "\u00e9", f"127.0.0.1:{served.port}.evil.example"):
        status, headers, _ = served.send("GET", "/api/setup", headers={"Host": host})
        assert status == 403 and headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("length", ["abc", "1e3", "-5", "0x10", "12 13", "99999999999999999999", "\u0661\u0662"])
def test_a_malformed_content_length_is_a_json_400(served: Served, length: str) -> None:
    status, headers, text = served.send("POST", "/api/games", b'{"players": 2}',
                                        {"Content-Type": "application/json", TOKEN_HEADER: served.token,
                                         "Content-Length": length.encode("utf-8").decode("latin-1")})
    assert status in (400, 413), text
    assert headers["content-type"].startswith("application/json") and json.loads(text)["error"]


@pytest.mark.parametrize("raw", [b'{"\\ud800": 1}', b'{"players": 2, "interpretations": {"\\udfff": "a"}}'])
def test_a_lone_surrogate_in_a_body_is_a_json_400(served: Served, raw: bytes) -> None:
    """JSON may escape a lone surrogate; echoed in an error, it must not make the answer unwritable (it was
    Bottle's HTML "Critical error" page, status 500)."""
    status, headers, text = served.send("POST", "/api/games", raw,
                                        {"Content-Type": "application/json", TOKEN_HEADER: served.token})
    assert status == 400, text
    assert headers["content-type"].startswith("application/json") and json.loads(text)["error"]


def test_a_stalled_client_does_not_hold_up_the_others(served: Served) -> None:
    stalled = socket.create_connection(("127.0.0.1", served.port))
    try:
        stalled.sendall(f"POST /api/games HTTP/1.1\r\nHost: {served.host}\r\nContent-Type: application/json\r\n"
                        f"{TOKEN_HEADER}: {served.token}\r\nContent-Length: 100\r\n\r\n{{\"players\"".encode())
        time.sleep(0.2)
        started = time.monotonic()
        status, _, _ = served.send("GET", "/api/setup", timeout=5)
        assert status == 200
        status, view = served.post("/api/games", {"players": 2})
        assert status == 200
        assert served.send("GET", f"/api/games/{view['game']}", timeout=5)[0] == 200
        assert time.monotonic() - started < 5
        # the server drops the silent client (408) once its socket timeout (1 s here) has passed
        stalled.settimeout(10)
        answer = stalled.recv(4096).decode("latin-1")
        assert answer.startswith("HTTP/1.") and " 408 " in answer.split("\r\n", 1)[0], answer[:200]
    finally:
        stalled.close()


def test_a_client_that_sends_nothing_is_dropped(served: Served) -> None:
    silent = socket.create_connection(("127.0.0.1", served.port))
    try:
        silent.settimeout(10)
        assert silent.recv(4096) == b""
    finally:
        silent.close()


def test_a_busy_game_does_not_hold_up_another(served: Served) -> None:
    status, first = served.post("/api/games", {"players": 2})
    status2, second = served.post("/api/games", {"players": 2})
    assert status == status2 == 200
    busy = served.server.games[first["game"]].lock
    with busy:  # as if the first game were slow to answer
        started = time.monotonic()
        assert served.send("GET", f"/api/games/{second['game']}", timeout=5)[0] == 200
        assert served.post(f"/api/games/{second['game']}/actions", {"action": second["legal"][0]})[0] == 200
        assert served.post("/api/games", {"players": 2})[0] == 200
        assert time.monotonic() - started < 5
