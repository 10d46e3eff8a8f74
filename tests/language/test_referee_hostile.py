"""`rattus --game NAME serve` on untrusted lines: every bad line gets one error answer and the session goes on.

Game-agnostic: the referee serves a toy game (nim, through ``$RATTUS_GAMES_PATH``).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter.session import Session, serve
from rattus_rules.games import GAMES_PATH_ENV
from tests.referee_session import Reply, ask, serving

SPECS = Path(__file__).parent / "specs"


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> Iterator[Session]:
    """A referee session serving nim, as `rattus --game nim serve` does."""
    monkeypatch.setenv(GAMES_PATH_ENV, str(SPECS))
    with serving("nim") as session:
        yield session


def _code(reply: Reply) -> str | None:
    return None if reply["ok"] else str(reply["error"]["code"])


def test_a_text_with_a_lone_surrogate_is_answered_and_the_session_goes_on(nim: Session) -> None:
    # "\ud800" is valid JSON, but no UTF-8 text: the answer echoing it must still be written
    lines = [b'{"cmd": "new", "players": 2, "id": 1}', b'{"cmd": "apply", "game": "g1", "action": "\\ud800", "id": 2}',
             b'{"cmd": "hello", "id": "\\udfff"}', b'{"cmd": "games", "id": 3}']
    out = io.BytesIO()
    serve(nim, io.BytesIO(b"\n".join(lines) + b"\n"), out)
    replies = [json.loads(line) for line in out.getvalue().decode("utf-8").splitlines()]
    assert [r["id"] for r in replies] == [1, 2, "\udfff", 3]
    assert replies[1]["error"]["code"] == "illegal-action" and replies[1]["error"]["action"] == "\ud800"
    assert replies[3]["games"] == ["g1"]


@pytest.mark.parametrize(("line", "said"), [
    (b'{"cmd": "games", "id": NaN}', "NaN is not a JSON value"),
    (b'{"cmd": "games", "id": -Infinity}', "-Infinity is not a JSON value"),
    (b'{"cmd": "games", "id": 1e999}', "the number 1e999 is too large"),
    (b'\x00{\x00}', "Expecting value"),  # UTF-16 to json.loads of bytes: {}
    (b'\xff\xfe{\x00}\x00', "can't decode byte 0xff"),
])
def test_a_line_that_is_no_utf8_json_is_malformed(nim: Session, line: bytes, said: str) -> None:
    # a NaN id echoed made the answer no JSON (an internal error); UTF-16 was guessed and read
    out = io.BytesIO()
    serve(nim, io.BytesIO(line + b'\n{"cmd": "games", "id": 1}\n'), out)
    replies = [json.loads(text) for text in out.getvalue().decode("utf-8").splitlines()]
    assert replies[0]["error"]["code"] == "malformed" and said in replies[0]["error"]["message"], replies
    assert replies[1] == {"games": [], "id": 1, "ok": True}


def test_a_line_may_start_with_a_byte_order_mark(nim: Session) -> None:
    assert json.loads(nim.answer_line(b'\xef\xbb\xbf{"cmd": "games", "id": 2}')) == {"games": [], "id": 2, "ok": True}
    for line in (b'\xef\xbb\xbf\xef\xbb\xbf{"cmd": "games"}', '\ufeff{"cmd": "games"}'):  # one only, before bytes
        reply = json.loads(nim.answer_line(line))
        assert reply["error"]["code"] == "malformed" and "byte order mark" in reply["error"]["message"]


@pytest.mark.parametrize("value", ["yes", 1, 0, [True], {}])
def test_draw_and_detail_are_true_or_false(nim: Session, value: Any) -> None:
    assert ask(nim, cmd="new", players=2)["ok"]
    for request in ({"cmd": "chance", "game": "g1", "draw": value}, {"cmd": "legal", "game": "g1", "detail": value}):
        reply = ask(nim, **request)
        assert _code(reply) == "bad-request" and "true or false" in reply["error"]["message"], reply


def test_force_and_draw_together_are_a_bad_request(nim: Session) -> None:
    assert ask(nim, cmd="new", players=2)["ok"]
    reply = ask(nim, cmd="chance", game="g1", force="take 1", draw=True)
    assert _code(reply) == "bad-request" and "`force` or `draw`" in reply["error"]["message"]
    reply = ask(nim, cmd="chance", game="g1", force=1)
    assert _code(reply) == "bad-request" and "`force`" in reply["error"]["message"]


def test_a_data_path_too_long_for_the_system_is_a_spec_error(nim: Session) -> None:
    for request in ({"cmd": "new", "players": 2}, {"cmd": "load", "state": {}}):
        reply = ask(nim, **request, data="x" * 5000)
        assert _code(reply) == "spec-error" and "File name too long" in reply["error"]["message"], reply


def test_the_players_asked_for_are_the_games_own(nim: Session) -> None:
    reply = ask(nim, cmd="new", players="2")
    assert _code(reply) == "bad-request" and "(2 to 3)" in reply["error"]["message"], reply


def test_validate_with_data_that_does_not_load_is_a_spec_error(nim: Session) -> None:
    reply = ask(nim, cmd="validate", record={}, data="/no/such/folder")
    assert _code(reply) == "spec-error" and "data path does not exist" in reply["error"]["message"], reply


def _saved(nim: Session) -> dict[str, Any]:
    assert ask(nim, cmd="new", players=2)["ok"]
    assert ask(nim, cmd="apply", game="g1", action="take 1")["ok"]
    state: dict[str, Any] = ask(nim, cmd="save", game="g1")["state"]
    assert state["frames"][0][2]["p"] == 1
    return state


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s["frames"][0][2].update(p="x"), "frames[0].p: 'x' is not of type player (nor none)"),
    (lambda s: s["frames"][0][2].update(p=7), "frames[0].p: 7 is not of type player (nor none)"),
    (lambda s: s["frames"][0][2].update(p=None), "waits for None, not a seat of a 2-player game"),
    (lambda s: s.update(format=True), "not a stored nim state"),
])
def test_a_tampered_state_is_refused_where_it_is_wrong(nim: Session, change: Any, message: str) -> None:
    state = _saved(nim)
    change(state)
    reply = ask(nim, cmd="load", state=state)
    assert _code(reply) == "bad-request" and message in reply["error"]["message"], reply
    assert ask(nim, cmd="games")["games"] == ["g1"]


@pytest.mark.parametrize(("request_fields", "code", "said"), [
    ({"index": "0"}, "bad-request", "`index` is a whole number, not '0'"),
    ({"index": 1.0}, "bad-request", "`index` is a whole number, not 1.0"),
    ({"index": None}, "bad-request", "`index` is a whole number, not null"),
    ({"index": True}, "bad-request", "`index` is a whole number, not true"),
    ({"index": 0, "action": "take 1"}, "bad-request", "give the `action` or its `index`, not both"),
    ({"index": 99}, "illegal-action", "no index 99"),
    ({"index": -1}, "illegal-action", "no index -1"),          # without the lower bound: the last option, then
    ({"index": -1000}, "illegal-action", "no index -1000"),    # a rules-error; -1000 an internal IndexError
    ({"index": 2**63}, "illegal-action", f"no index {2**63}"),
    ({"index": 10**30}, "illegal-action", f"no index {10**30}"),
])
def test_an_index_that_is_no_index_is_refused_and_nothing_moves(nim: Session, request_fields: dict[str, Any],
                                                                code: str, said: str) -> None:
    ask(nim, cmd="new", players=2, seed=1)
    before = ask(nim, cmd="save", game="g1")["state"]
    reply = ask(nim, cmd="apply", game="g1", **request_fields)
    assert _code(reply) == code and said in reply["error"]["message"], reply
    explained = ask(nim, cmd="explain", game="g1", **request_fields)  # a legal index is explained, not refused
    assert explained.get("legal") is False if code == "illegal-action" else _code(explained) == code, explained
    assert ask(nim, cmd="save", game="g1")["state"] == before


def test_an_index_equal_to_the_number_of_options_is_refused(nim: Session) -> None:
    ask(nim, cmd="new", players=2, seed=1)
    n = len(ask(nim, cmd="legal", game="g1")["actions"])
    before = ask(nim, cmd="save", game="g1")["state"]
    for index in (n, n + 1, -n, -n - 1):
        reply = ask(nim, cmd="apply", game="g1", index=index)
        assert _code(reply) == "illegal-action" and f"there are {n} legal actions, no index {index}" in \
            reply["error"]["message"], reply
        explained = ask(nim, cmd="explain", game="g1", index=index)
        assert explained["ok"] and explained["legal"] is False and f"no index {index}" in explained["reason"]
    assert ask(nim, cmd="save", game="g1")["state"] == before
    assert ask(nim, cmd="apply", game="g1", index=n - 1)["ok"]
