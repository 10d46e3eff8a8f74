"""A `var` may say what it holds (`var top[spot]: stone = none`): later passes read its
values' fields through that type, and the checker refuses values of another type."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import RuleError, SpecError, load_spec
from interpreter.checker import check
from interpreter.parser import parse_text

SPEC = '''
game toy "Toy" cite book "R" "x"
source book "A book"
players 2 to 2
table stones from "stones.csv" { key id: int column weight: int cite book "R" "x" }
table spots from "spots.csv" { key spot: text cite book "R" "x" }
pieces stone from stones in heap cite book "R" "x"
zone heap of stone public
zone placed of stone public
var top[spots]: stone = none
counter carried[player] = 0
main play
procedure play cite book "R" "x" {
  for s in pieces(heap) {
    top[first(x in spots)] = s
    move s to placed
  }
  carried[first_player] = top[first(x in spots)].weight
  finish players
}
'''


def test_a_typed_var_lets_later_code_read_the_fields_of_its_values(tmp_path: Path) -> None:
    (tmp_path / "stones.csv").write_text("id,weight\n1,5\n2,7\n", encoding="utf-8")
    (tmp_path / "spots.csv").write_text("spot\nnorth\nsouth\n", encoding="utf-8")
    (tmp_path / "toy.rules").write_text(SPEC, encoding="utf-8")
    game = load_spec(tmp_path)
    st = game.new_state(2, seed=0)
    assert st.is_terminal()
    assert st.vals["carried"][0] == 7  # the last stone laid on the first spot weighs 7
    decl = game.checked.symbols.states["top"]
    assert decl.type == "stone"


def test_without_the_type_a_field_of_the_value_cannot_be_read() -> None:
    text = SPEC.replace("var top[spots]: stone = none", "var top[spots] = none")
    with pytest.raises(SpecError, match="cannot tell what 'weight' is a field of"):
        check([parse_text(text, "t.rules")])


@pytest.mark.parametrize(("change", "message"), [
    ("var top[spots]: stone = 3", "var top holds a piece:stone (or none), not a int"),
    ("var top[spots]: pebble = none", "unknown type 'pebble' for var top"),
])
def test_a_typed_var_refuses_a_start_of_another_type(change: str, message: str) -> None:
    text = SPEC.replace("var top[spots]: stone = none", change)
    with pytest.raises(SpecError, match=re.escape(message)):
        check([parse_text(text, "t.rules")])


def test_a_typed_var_refuses_an_assignment_of_another_type() -> None:
    text = SPEC.replace("top[first(x in spots)] = s", "top[first(x in spots)] = first_player")
    with pytest.raises(SpecError, match=r"var top holds a piece:stone \(or none\), not a player"):
        check([parse_text(text, "t.rules")])


ANY_SPEC = '''
game toy "Toy" cite book "R" "x"
source book "A book"
players 2 to 2
  cite book "R" "x"
table stones from "stones.csv" { key id: int column weight: int cite book "R" "x" }
pieces stone from stones in heap cite book "R" "x"
zone heap of stone public
main play
var w = none
counter c = 0
var who: player = none
var top: stone = none
scope turn cite book "R" "x"
limit power[player] once per turn cite book "R" "x"
procedure f(x: player) cite book "R" "x" { choose by first_player { "ok" cite book "R" "x" { } } }
procedure play cite book "R" "x" {
  BODY
  choose by first_player { "ok" cite book "R" "x" { } }
  finish [first_player]
}
'''


def play_any(tmp_path: Path, body: str) -> None:
    """Play the toy above with ``body`` at the start of `play`, each state saved and loaded on the way."""
    (tmp_path / "stones.csv").write_text("id,weight\n1,5\n2,7\n", encoding="utf-8")
    (tmp_path / "a.rules").write_text(ANY_SPEC.replace("BODY", body), encoding="utf-8")
    game = load_spec(tmp_path)
    state = game.new_state(2)
    while state.pending is not None:
        game.state_from_json(state.to_json())
        state.apply_index(0)


@pytest.mark.parametrize("body, message", [
    ("w = [1]\nc = w", "c holds a number, not \\[1\\]"),
    ("w = true\nc = w", "c holds a number, not True"),
    ("w = none\nc = w", "c holds a number, not None"),
    ("w = 7\nwho = w", "who holds a player \\(or none\\), not 7"),
    ('w = "P1"\nwho = w', "who holds a player"),
    ("w = 99\ntop = w", "top holds a stone"),
    ("w = 7\ncall f(w)", "the parameter x of f holds a player"),
    ("w = 5\nuse power[w]", "limit power has no key 5"),
    ('w = "x"\nuse power[w]', "limit power has no key 'x'"),
    ("w = 5\nlook piece(heap, 1) by w", "look by holds a seat, not 5"),
    ("w = 1000000000000\nlook piece(heap, 1) by w", "look by holds a seat"),
])
def test_a_value_of_type_any_kept_where_a_type_is_declared_must_be_of_it(tmp_path: Path, body: str,
                                                                         message: str) -> None:
    # a stored state holding it could not be loaded again (the stored check reads the same types)
    with pytest.raises(RuleError, match=message) as caught:
        play_any(tmp_path, body)
    assert caught.value.pos.line == 19


@pytest.mark.parametrize("body", ["w = 1\nwho = w\nc = w", "w = none\nwho = w\ntop = w", "w = 0\ncall f(w)",
                                  "w = piece(heap, 1)\ntop = w", "w = 1\nuse power[w]",
                                  "w = 1\nlook piece(heap, 1) by w"])
def test_a_value_of_type_any_of_the_declared_type_is_kept(tmp_path: Path, body: str) -> None:
    play_any(tmp_path, body)
