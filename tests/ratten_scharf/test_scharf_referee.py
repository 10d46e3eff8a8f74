"""`rattus --game ratten_scharf serve` on hostile requests: one error answer each, and no game moves."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from interpreter import Game
from interpreter.session import Session
from tests.referee_session import ask, serving


@pytest.fixture
def referee() -> Iterator[Session]:
    """A referee session serving Ratten Scharf, as `rattus --game ratten_scharf serve` does."""
    with serving("ratten_scharf") as session:
        yield session


@pytest.mark.parametrize("draw", ["yes", 1, [True]])
def test_a_draw_that_is_not_true_or_false_draws_nothing(referee: Session, draw: Any) -> None:
    assert ask(referee, cmd="new", players=2, seed=1)["to_move"] == "chance"
    before = ask(referee, cmd="save", game="g1")["state"]
    reply = ask(referee, cmd="chance", game="g1", draw=draw)
    assert not reply["ok"] and reply["error"]["code"] == "bad-request", reply
    assert ask(referee, cmd="save", game="g1")["state"] == before


def test_a_strip_written_in_another_order_is_an_illegal_outcome(referee: Session) -> None:
    assert ask(referee, cmd="new", players=2, seed=1)["ok"]
    first = ask(referee, cmd="legal", game="g1")["actions"][0]
    verb, face = first.split(" ")
    squares = face.split(":")
    turned = ":".join([squares[1], squares[0], *squares[2:]])
    for text in (f"{verb} {turned}", f"{verb} {face.upper()}", f"{verb} {face}{'x' * 10_000}", f"{verb} {face}é"):
        for request in ({"cmd": "apply", "action": text}, {"cmd": "chance", "force": text}):
            reply = ask(referee, game="g1", **request)
            assert reply["error"]["code"] == "illegal-action" and first in reply["error"]["legal"], reply
    assert ask(referee, cmd="chance", game="g1", force=f"  {verb}   {face} ")["action"] == first


@pytest.mark.parametrize(("name", "value", "said"), [
    ("top_strip", 99, "99 is not a strip"),
    ("top_strip", "x", "'x' is not a strip"),
    ("top_strip", True, "True is not a strip"),
    ("shows", 99, "99 is not a symbols"),
    ("shows", "nutmeg", "'nutmeg' is not a symbols"),
    ("loser", 2, "2 is not a player"),
    ("loser", "P1", "'P1' is not a player"),
])
def test_a_stored_value_of_another_type_than_its_var_declares_is_refused(scharf: Game, name: str, value: Any,
                                                                       said: str) -> None:
    # a var that says what it holds holds none or that: a tampered state fails where it is read,
    # not moves later with a Python error of the rules ("KeyError: 99")
    state = scharf.new_state(2, seed=3)
    while state.is_chance_node() or len(state.history) < 8:
        state.apply_index(0)
    data = state.to_json()
    assert scharf.state_from_json(json.loads(json.dumps(data))).to_json() == data
    rows = data["vals"][name]
    rows[len(rows) // 2][1] = value
    with pytest.raises(ValueError, match=f"vals.{name}: {re.escape(said)}"):
        scharf.state_from_json(data)
