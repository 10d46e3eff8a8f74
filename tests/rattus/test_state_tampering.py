"""Tampered stored states (issue 9.3) are refused with a clear error, never believed.

Each case changes one thing in a real stored state (a game in the middle of a
plague spread, six procedures deep, or a finished game).  ``state_from_json``
must raise ValueError naming the problem; ``rattus render state --from``
must exit 2 with that message and no traceback.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from interpreter.compiler import CHANCE, CHOOSE
from rattus_rules import load_rules, new_game, state_from_json
from rattus_rules.cli import main

Stored = dict[str, Any]


def _deep_state() -> Stored:
    """A 3-player game waiting inside a plague spread (six frames on the stack), tokens revealed."""
    state = new_game(3, seed=2)
    while len(state.frames) < 6 or not state.zones["out"][None]:
        state.apply_index(0)
    return state.to_json()


def _finished_state() -> Stored:
    state = new_game(2, seed=4)
    while not state.is_terminal():
        state.apply_index(0)
    return state.to_json()


DEEP = _deep_state()
FINISHED = _finished_state()


def _row(stored: Stored, table: str, key: list[Any], section: str = "vals") -> list[Any]:
    return next(r for r in stored[section][table] if r[0] == key)


def _other_decision(stored: Stored, same_procedure: bool) -> list[Any]:
    """The top frame moved to another decision (of its own procedure, or of another one)."""
    game = load_rules()
    name, pc, env = stored["frames"][-1]
    for proc in game.procedures:
        for i, (op, _, _) in enumerate(proc.code):
            if op in (CHOOSE, CHANCE) and (proc.name == name) == same_procedure and (proc.name, i) != (name, pc):
                return [proc.name, i, env]
    raise AssertionError("no other decision")


def _set(path: list[Any], value: Any) -> Callable[[Stored], None]:
    def change(stored: Stored) -> None:
        target: Any = stored
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
    return change


def _zone_piece(stored: Stored, zone: str) -> Any:
    return next(pieces[0] for _, pieces in stored["zones"][zone] if pieces)


def _two_zones(stored: Stored) -> None:
    _row(stored, "rats", ["Gallia"], "zones")[1].append(_zone_piece(stored, "out"))


def _lost_piece(stored: Stored) -> None:
    stored["zones"]["out"][0][1].pop()


def _face_down_in_open_zone(stored: Stored) -> None:
    stored["face_up"].remove(_zone_piece(stored, "out"))


def _cubes_50(stored: Stored) -> None:
    _row(stored, "cubes", [0, "Gallia"])[1] = 50


def _drop_key(stored: Stored) -> None:
    stored["vals"]["cubes"].pop()


def _twice_key(stored: Stored) -> None:
    stored["vals"]["supply"].append(copy.deepcopy(stored["vals"]["supply"][0]))


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


CASES: dict[str, Callable[[Stored], None]] = {
    # invariants of the spec
    "cubes set to 50": _cubes_50,
    "negative supply": lambda s: _set(["vals", "supply", 0, 1], -3)(s),
    "plague on a region not in play": lambda s: _set(["vals", "plague", 0, 1], "Atlantis")(s),
    "unknown phase": lambda s: _set(["vals", "phase", 0, 1], "party")(s),
    "class card held by seat 7": lambda s: _set(["vals", "holder", 0, 1], 7)(s),
    # pieces
    "one token in two zones": _two_zones,
    "a token in no zone": _lost_piece,
    "unknown token": lambda s: _row(s, "rats", ["Gallia"], "zones")[1].append(999),
    "token as text": lambda s: _row(s, "rats", ["Gallia"], "zones")[1].append("1"),
    "token face down in an open zone": _face_down_in_open_zone,
    "face up twice": lambda s: s["face_up"].append(s["face_up"][0]),
    "face up unknown": lambda s: s["face_up"].append(12345),
    "seen by no one": lambda s: s["seen"].append([_zone_piece(s, "stock"), 0]),
    "seen by player 5": lambda s: s["seen"].append([_zone_piece(s, "stock"), 1 << 5]),
    "seen bits as text": lambda s: s["seen"].append([_zone_piece(s, "stock"), "1"]),
    # winners
    "winners [9]": lambda s: _set(["winners"], [9])(s),
    "winners while the game goes on": lambda s: _set(["winners"], [0])(s),
    "winners as text": lambda s: _set(["winners"], "0")(s),
    "winners twice the same": lambda s: _set(["winners"], [0, 0])(s),
    # the program position
    "dropped caller frames": lambda s: _set(["frames"], s["frames"][2:])(s),
    "dropped a middle frame": lambda s: s["frames"].pop(3),
    "dropped the top frame": lambda s: s["frames"].pop(),
    "top frame moved to another decision of its procedure": lambda s: _set(["frames", -1],
                                                                           _other_decision(s, True))(s),
    "top frame moved to another procedure's decision": lambda s: _set(["frames", -1],
                                                                      _other_decision(s, False))(s),
    "top frame not at a decision": lambda s: _set(["frames", -1, 1], 0)(s),
    "caller not after its call": lambda s: _set(["frames", 2, 1], s["frames"][2][1] + 1)(s),
    "program position as text": lambda s: _set(["frames", -1, 1], "1")(s),
    "program position negative": lambda s: _set(["frames", -1, 1], -1)(s),
    "program position past the end": lambda s: _set(["frames", -1, 1], 10**6)(s),
    "program position true": lambda s: _set(["frames", -1, 1], True)(s),
    "unknown procedure": lambda s: _set(["frames", -1, 0], "__import__")(s),
    "frame of two": lambda s: _set(["frames", -1], s["frames"][-1][:2])(s),
    "a local the procedure lacks": lambda s: _set(["frames", -1, 2, "__class__"], 1)(s),
    "a needed local missing": lambda s: s["frames"][-1][2].pop("r"),
    "a local as an object": lambda s: _set(["frames", -1, 2, "r"], {"a": 1})(s),
    "a local of the wrong kind": lambda s: _set(["frames", -1, 2, "r"], 5)(s),
    "locals as a list": lambda s: _set(["frames", -1, 2], [])(s),
    # the seats a var holds are read only at the end: ender "x" loaded and failed in the final round
    "the ender as text": lambda s: _set(["vals", "ender", 0, 1], "x")(s),
    "the last regular turn a seat of no game": lambda s: _set(["vals", "last_regular", 0, 1], 5)(s),
    # every var of the spec says what it holds: a plague in no region loaded and left no legal option
    "the plague in no region": lambda s: _set(["vals", "plague", 0, 1], "Atlantis")(s),
    "the plague a number": lambda s: _set(["vals", "plague", 0, 1], 3)(s),
    "a card held by a seat of no game": lambda s: _set(["vals", "holder", 0, 1], 7)(s),
    "the phase a number": lambda s: _set(["vals", "phase", 0, 1], 1)(s),
    "the knight's flag a number": lambda s: _set(["vals", "final_knight_moved", 0, 1], 1)(s),
    # the locals of the frames below the top are read once the procedures above them return
    "a caller's seat as text": lambda s: _set(["frames", 1, 2, "p"], "x")(s),
    "a caller's seat out of range": lambda s: _set(["frames", 3, 2, "p"], 5)(s),
    "a caller's region a number": lambda s: _set(["frames", 3, 2, "to"], 5)(s),
    "a caller's region unknown": lambda s: _set(["frames", 3, 2, "to"], "Atlantis")(s),
    "a caller's flag a number": lambda s: _set(["frames", 2, 2, "final"], 0)(s),
    "a caller's count as text": lambda s: _set(["frames", 4, 2, "n"], "2")(s),
    "a loop's index as text": lambda s: _set(["frames", 4, 2, "$i1"], "1")(s),
    "a loop's index past its list": lambda s: _set(["frames", 4, 2, "$i1"], 3)(s),
    "a loop's index negative": lambda s: _set(["frames", 4, 2, "$i1"], -1)(s),
    "a loop's list a number": lambda s: _set(["frames", 4, 2, "$items1"], 5)(s),
    "a loop's list a text": lambda s: _set(["frames", 4, 2, "$items1"], "ab")(s),
    "a loop's list without its index": lambda s: s["frames"][4][2].pop("$i1"),
    # the values a loop goes on with are of its domain's type: a text among numbers loaded, and failed later
    "a loop's list holding a text": lambda s: _set(["frames", 4, 2, "$items1"], [1, "x"])(s),
    "a loop's list holding a list": lambda s: _set(["frames", 4, 2, "$items1"], [1, [2]])(s),
    "counters of a loop the procedure has not": lambda s: s["frames"][4][2].update({"$items7": [1], "$i7": 0}),
    "counters of a loop of another procedure": lambda s: s["frames"][3][2].update({"$items1": [1], "$i1": 0}),
    # variables and their keys
    "supply as text": lambda s: _set(["vals", "supply", 0, 1], "20")(s),
    "supply as true": lambda s: _set(["vals", "supply", 0, 1], True)(s),
    "supply as a float": lambda s: _set(["vals", "supply", 0, 1], 12.0)(s),
    "huge number": lambda s: _set(["vals", "supply", 0, 1], 10**100)(s),
    "a variable missing": lambda s: s["vals"].pop("castle"),
    "an unknown variable": lambda s: _set(["vals", "gold"], [[[], 1]])(s),
    "a key missing": _drop_key,
    "a key twice": _twice_key,
    "an unknown key": lambda s: _set(["vals", "supply", 0, 0], [7])(s),
    "a key true for 1": lambda s: _set(["vals", "supply", 1, 0], [True])(s),
    "rows as an object": lambda s: _set(["vals", "supply"], {"0": 12})(s),
    "deep nesting": lambda s: _set(["vals", "ender", 0, 1], _nested(100_000))(s),
    "long list": lambda s: _set(["vals", "ender", 0, 1], list(range(100_000)))(s),
    "zones missing one": lambda s: s["zones"].pop("box"),
    "an unknown zone": lambda s: _set(["zones", "attic"], [[[], []]])(s),
    # limits
    "an unknown limit": lambda s: _set(["used", "magic"], [])(s),
    "a limit with an unknown key": lambda s: _set(["used", "ability"], [["sword"]])(s),
    # the rest
    "players 9": lambda s: _set(["players"], 9)(s),
    "players as text": lambda s: _set(["players"], "3")(s),
    "unknown switch": lambda s: _set(["settings", "gravity"], "off")(s),
    "unknown option": lambda s: _set(["settings", next(iter(load_rules().switches.values())).ident], "maybe")(s),
    "rng negative": lambda s: _set(["rng"], -1)(s),
    "rng too large": lambda s: _set(["rng"], 2**64)(s),
    "history as text": lambda s: _set(["history"], "start Gallia")(s),
    "history of numbers": lambda s: _set(["history"], [1, 2])(s),
    "log as text": lambda s: _set(["log"], "hello")(s),
    "an extra field": lambda s: _set(["code"], "import os")(s),
    "a field missing": lambda s: s.pop("used"),
    "format 2": lambda s: _set(["format"], 2)(s),
    "another game": lambda s: _set(["game"], "chess")(s),
}

FINISHED_CASES: dict[str, Callable[[Stored], None]] = {
    "winners [9] at the end": lambda s: _set(["winners"], [9])(s),
    "winners unsorted": lambda s: _set(["winners"], [1, 0])(s),
    "a program left after the end": lambda s: _set(["frames"], [["play", 0, {}]])(s),
    "cubes set to 50 at the end": _cubes_50,
}


def _tampered(base: Stored, change: Callable[[Stored], None]) -> Stored:
    stored = copy.deepcopy(base)
    change(stored)
    return stored


def _changed(stored: Stored, base: Stored) -> bool:
    """Whether the JSON texts differ (``==`` would take true for 1)."""
    try:
        return json.dumps(stored) != json.dumps(base)
    except RecursionError:  # the deep-nesting case
        return True


def test_the_untampered_states_load() -> None:
    for base in (DEEP, FINISHED):
        assert state_from_json(copy.deepcopy(base)).to_json() == base


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_tampered_state_is_refused(name: str) -> None:
    stored = _tampered(DEEP, CASES[name])
    assert _changed(stored, DEEP), "the case changed nothing"
    with pytest.raises(ValueError, match=r"stored state|not a stored"):
        state_from_json(stored)


@pytest.mark.parametrize("name", sorted(FINISHED_CASES))
def test_a_tampered_finished_state_is_refused(name: str) -> None:
    stored = _tampered(FINISHED, FINISHED_CASES[name])
    assert _changed(stored, FINISHED)
    with pytest.raises(ValueError, match=r"stored state"):
        state_from_json(stored)


def test_not_an_object_is_refused() -> None:
    for stored in ([], "state", 3, None):
        with pytest.raises(ValueError, match="stored state"):
            state_from_json(stored)  # type: ignore[arg-type]


def test_the_errors_say_what_is_wrong() -> None:
    cases = {
        "cubes set to 50": "cube_conservation",
        "one token in two zones": "is also in zones.",
        "winners [9]": "winners",
        "dropped caller frames": "starts in play",
        "top frame moved to another decision of its procedure": "has set it by then",
        "supply as text": "vals.supply",
        "a caller's seat as text": "frames[1].p: 'x' is not of type player (nor none)",
        "the plague in no region": "vals.plague: 'Atlantis' is not a regions (nor none)",
        "a caller's region unknown": "frames[3].to: 'Atlantis' is not of type entity:regions (nor none)",
        "a loop's index past its list": "frames[4].$i1: not a loop's list $items1 and an index $i1 into it: [1, 2] "
                                        "and 3",
        "a loop's list without its index": "frames[4].$i1: not a loop's list $items1 and an index $i1 into it: "
                                           "[1, 2] and None",
        "a loop's list holding a text": "frames[4].$items1[1]: 'x' is not of type int (the values of the loop at",
        "counters of a loop the procedure has not": "frames[4]: spread has no local '$items7'",
        "counters of a loop of another procedure": "frames[3]: plague_move has no local '$items1'",
    }
    for name, words in cases.items():
        with pytest.raises(ValueError) as caught:
            state_from_json(_tampered(DEEP, CASES[name]))
        assert words in str(caught.value), (name, str(caught.value))


@pytest.mark.parametrize("name", ["cubes set to 50", "one token in two zones", "winners [9]",
                                  "dropped caller frames", "supply as text", "a needed local missing"])
def test_the_command_line_exits_2_without_a_traceback(name: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    stored = tmp_path / "state.json"
    stored.write_text(json.dumps(_tampered(DEEP, CASES[name])), encoding="utf-8")
    code = main(["render", "state", "--from", str(stored), "-o", str(tmp_path / "out.svg")])
    err = capsys.readouterr().err
    assert code == 2
    assert "stored state" in err and "Traceback" not in err
    assert not (tmp_path / "out.svg").exists()
