"""Bounded work: one step budget per run, bounded ranges, numbers, lists, decisions and call depth.

A spec's code may run away in many ways: nested loops, numbers that square
themselves, lists that double, ranges and decisions of a trillion values, a
data check summing a trillion numbers, procedures calling each other forever.
Each ends soon with a positioned error (a :class:`SpecError` at load time, a
:class:`RuleError` once a game runs), never a hang or a MemoryError.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import RuleError, SpecError, State, load_spec
from interpreter.ast import MAX_INT
from interpreter.codegen import MAX_KEPT_DEPTH, MAX_LIST, MAX_RANGE, STEP_LIMIT
from interpreter.runtime import MAX_CALL_DEPTH, MAX_OPTIONS

HEADER = '''game g "G" cite src "S" "x"
source src "A source"
players 2 to 2
main play
counter n = 1
'''
CITE = 'cite src "S" "x"'


def start(folder: Path, body: str, extra: str = "") -> None:
    """Load a spec whose `play` procedure has this body, and start a game."""
    (folder / "a.rules").write_text(HEADER + extra + f"procedure play {CITE} {{\n{body}\n}}\n", encoding="utf-8")
    load_spec(folder).new_state(2)


@pytest.mark.parametrize("body, message", [
    ("let x = 0\nloop { loop { x = x + 1 } }", "no decision reached"),
    ("let x = 0\nfor i in 1 .. 1000 { for j in 1 .. 1000 { x = x + 1 } }", "no decision reached"),
    ("let x = 0\nwhile true { for i in 1 .. 10 { x = i } }", "no decision reached"),
    ("let x = 0\nloop { x = sum(i in 1 .. 100000: i) }", "no decision reached"),
    ("let x = sum(i in 1 .. 1000000: sum(j in 1 .. 1000000: j))", "no decision reached"),
    ("let l = [sum(j in 1 .. 1000: j) for i in 1 .. 1000000]", "no decision reached"),
    ("let x = 2\nloop { x = x * x }", "a product larger than"),
    ("let x = 1\nloop { x = x + x }", "a number larger than"),
    ("loop { n += n }", "a number larger than"),
    (f"let x = {MAX_INT}\nx = x + 1", "a number larger than"),
    ("let l = [1]\nloop { l = l + l }", f"a list of more than {MAX_LIST} items"),
    ("let l = 1 .. 1000000000000", f"holds more than {MAX_RANGE} numbers"),
    ("let x = 0\nfor i in 1 .. 1000000000000 { x = i }", "no decision reached"),
    ('choose by first_player { "take" k in 1 .. 1000000000000 ' + CITE + " { } }", "no decision reached"),
    ('choose by first_player { "take" k in 1 .. 200000 ' + CITE + " { } }",
     f"a decision with more than {MAX_OPTIONS} options"),
    ('choose by first_player { "take" a in 1 .. 100000, b in 1 .. 100000 where a == b ' + CITE + " { } }",
     "no decision reached"),
    ('chance "draw" k in 1 .. 1000000000000 ' + CITE + " { }", "no decision reached"),
    ("call play()", f"procedures call each other more than {MAX_CALL_DEPTH} deep"),
])
def test_runaway_code_stops_with_a_positioned_rule_error(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(RuleError, match=message) as caught:
        start(tmp_path, body)
    assert caught.value.pos.line >= 6 and caught.value.pos.path.endswith("a.rules")


@pytest.mark.parametrize("cond", [
    "sum(i in 1 .. 1000000000000: i) > 0",
    "sum(i in 1 .. 1000000: sum(j in 1 .. 1000000: j)) > 0",
    "(1 .. 1000000000000) != [1]",
    f"{MAX_INT} * {MAX_INT} > 0",
])
def test_a_runaway_data_check_is_a_spec_error_at_the_check(tmp_path: Path, cond: str) -> None:
    with pytest.raises(SpecError, match="fails check big") as caught:
        start(tmp_path, "", f"check big {CITE} holds {cond}\n")
    assert [d.pos.line for d in caught.value.diagnostics] == [6]


def test_the_budget_is_for_a_whole_run_and_starts_again_with_each_run(tmp_path: Path) -> None:
    # each run takes more than half the budget: fine run after run ...
    rounds = STEP_LIMIT * 2 // 3
    (tmp_path / "a.rules").write_text(HEADER + f'''procedure play {CITE} {{
  loop {{
    for i in 1 .. {rounds} {{ }}
    choose by first_player {{ "go" {CITE} {{ }} }}
  }}
}}
''', encoding="utf-8")
    state = load_spec(tmp_path).new_state(2)
    for _ in range(3):
        state.apply("go")
    # ... but two such loops in one run are too many
    (tmp_path / "a.rules").write_text(HEADER + f'''procedure play {CITE} {{
  for i in 1 .. {rounds} {{ }}
  for i in 1 .. {rounds} {{ }}
}}
''', encoding="utf-8")
    with pytest.raises(RuleError, match="no decision reached"):
        load_spec(tmp_path).new_state(2)


def test_numbers_beyond_the_bound_are_refused_where_written(tmp_path: Path) -> None:
    (tmp_path / "a.rules").write_text(HEADER + f"counter m = {MAX_INT + 1}\nprocedure play {CITE} {{ }}\n",
                                      encoding="utf-8")
    with pytest.raises(SpecError, match=f"larger than {MAX_INT}") as caught:
        load_spec(tmp_path)
    assert [(d.pos.line, d.pos.column) for d in caught.value.diagnostics] == [(6, 13)]


def test_loops_nested_beyond_what_python_compiles_are_a_positioned_spec_error(tmp_path: Path) -> None:
    body = "loop { " * 25 + "break " + "}" * 25
    (tmp_path / "a.rules").write_text(HEADER + f"procedure play {CITE} {{\n{body}\n}}\n", encoding="utf-8")
    with pytest.raises(SpecError, match="nested too deeply") as caught:
        load_spec(tmp_path)
    assert caught.value.diagnostics[0].pos.line == 7


# What a game keeps (variables, locals, a loop's list, an option's values) is bounded as a
# stored state is, so that every state a game reaches can be saved and loaded again.
ASK = 'choose by first_player { "ok" ' + CITE + " { } }"


# A number past the bound is refused where it is computed, before any list holds it (docs/language.rst).
@pytest.mark.parametrize("body, message", [
    (f"var_v = [{MAX_INT} + 1]", f"a number larger than {MAX_INT}: {MAX_INT + 1}\\n"),
    (f"let l = [[x + {MAX_INT}] for x in [1, 2]]", f"a number larger than {MAX_INT}: {MAX_INT + 1}\\n"),
    ("let l = [1]\nfor i in 1 .. 4 { l = [l] }", f"a list nested more than {MAX_KEPT_DEPTH} deep"),
    (f"for x in [{MAX_INT} + 1, 2] {{ {ASK} }}", f"a number larger than {MAX_INT}: {MAX_INT + 1}\\n"),
    (f'choose by first_player {{ "take" k in {MAX_INT} .. {MAX_INT} + 1 {CITE} {{ {ASK} }} }}', "a number larger"),
])
def test_a_value_no_stored_state_could_hold_is_not_kept(tmp_path: Path, body: str, message: str) -> None:
    body = body.replace("var_v", "v")
    (tmp_path / "a.rules").write_text(HEADER + "var v = none\n" + f"procedure play {CITE} {{\n{body}\n{ASK}\n}}\n",
                                      encoding="utf-8")
    game = load_spec(tmp_path)
    states = []
    with pytest.raises(RuleError, match=message) as caught:
        states.append(game.new_state(2))
        while states[0].pending is not None:
            before = states[0].to_json()
            states[0].apply_index(states[0].num_legal_actions() - 1)
    assert caught.value.pos.line >= 7
    if states:  # an option's value is refused before anything changed: the state is as it was
        assert states[0].to_json() == before
        game.state_from_json(before)


@pytest.mark.parametrize("body", [
    f"v = [[[[{MAX_INT}]]]]",
    f'choose by first_player {{ "take" k in {MAX_INT} - 1 .. {MAX_INT} {CITE} {{ {ASK} }} }}',
    f"for x in [[[{-MAX_INT}]]] {{ {ASK} }}",
])
def test_values_at_the_bounds_are_kept_and_stored(tmp_path: Path, body: str) -> None:
    (tmp_path / "a.rules").write_text(HEADER + "var v = none\n" + f"procedure play {CITE} {{\n{body}\n{ASK}\n}}\n",
                                      encoding="utf-8")
    game = load_spec(tmp_path)
    state = game.new_state(2)
    while state.pending is not None:
        again = game.state_from_json(state.to_json())
        assert again.to_json() == state.to_json()
        state.apply_index(state.num_legal_actions() - 1)


def test_a_decision_deeper_than_a_thousand_calls_is_stored(tmp_path: Path) -> None:
    (tmp_path / "a.rules").write_text(HEADER + f'''procedure play {CITE} {{
  call down(1)
}}
procedure down(d: int) {CITE} {{
  if d < 2000 {{
    call down(d + 1)
  }} else {{
    {ASK}
  }}
}}
''', encoding="utf-8")
    game = load_spec(tmp_path)
    state = game.new_state(2)
    assert len(state.frames) == 2001
    again = game.state_from_json(state.to_json())
    again.apply("ok")
    assert again.pending is None


def play_to_end(tmp_path: Path, text: str) -> State:
    """Load a spec (the header, `var w`, then ``text``), start a game and take the last option until it ends."""
    (tmp_path / "a.rules").write_text(HEADER + "var w = none\n" + text, encoding="utf-8")
    state = load_spec(tmp_path).new_state(2)
    while state.pending is not None:
        state.apply_index(state.num_legal_actions() - 1)
    return state


CALLED = f"procedure f(x) {CITE} {{ {ASK} }}\n"


@pytest.mark.parametrize("body, message", [
    (f"call f(n + {MAX_INT})", "a number larger than"),
    ("call f([[[[[1]]]]])", f"a list nested more than {MAX_KEPT_DEPTH} deep"),
    ("w = [x for x in 1 .. 600000]\ncall f(w + w)", f"a list of more than {MAX_LIST} items"),
])
def test_the_arguments_of_a_procedure_that_waits_are_kept_values(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play_to_end(tmp_path, CALLED + f"procedure play {CITE} {{\n{body}\n}}\n")


def test_a_loop_that_does_not_wait_may_pass_lists_it_does_not_keep(tmp_path: Path) -> None:
    state = play_to_end(tmp_path, f"procedure play {CITE} {{\nfor x in [n, [[[[[1]]]]]] {{ n = 2 }}\n"
                                  f"{ASK}\nfinish [first_player]\n}}\n")
    assert state.vals["n"][None] == 2


def test_a_number_past_the_bound_is_refused_where_it_is_computed_even_if_not_kept(tmp_path: Path) -> None:
    with pytest.raises(RuleError, match=f"a number larger than {MAX_INT}: {MAX_INT + 1}\n") as caught:
        play_to_end(tmp_path, f"procedure play {CITE} {{\nfor x in [n + {MAX_INT}, [[[[[1]]]]]] {{ n = 2 }}\n"
                              f"{ASK}\nfinish [first_player]\n}}\n")
    assert caught.value.pos.line == 8


def test_a_seat_named_twice_in_finish_wins_once(tmp_path: Path) -> None:
    state = play_to_end(tmp_path, f"procedure play {CITE} {{\n{ASK}\nfinish [first_player, first_player]\n}}\n")
    assert state.winners == [0]
    assert state.game.state_from_json(state.to_json()).winners == [0]


@pytest.mark.parametrize("winners", ["[w]", "[first_player, w]"])
def test_finish_with_a_winner_that_is_no_seat_is_a_rule_error(tmp_path: Path, winners: str) -> None:
    with pytest.raises(RuleError, match="not seats of this game") as caught:
        play_to_end(tmp_path, f"procedure play {CITE} {{\nw = 5\n{ASK}\nfinish {winners}\n}}\n")
    assert caught.value.pos.line == 10


@pytest.mark.parametrize("value", ["[1]", "none", '"12"'])
def test_a_score_that_is_not_a_number_is_a_rule_error(tmp_path: Path, value: str) -> None:
    state = play_to_end(tmp_path, f"score p = w\n  {CITE}\nprocedure play {CITE} {{\nw = {value}\n{ASK}\n"
                                  f"finish [first_player]\n}}\n")
    with pytest.raises(RuleError, match="is not a number"):
        state.game.score(state, 0)


@pytest.mark.parametrize("decl, message", [
    ("counter c[player, player, player, player, player, player, player, player, player] = 0", "at most 8"),
    (f'procedure g {CITE} {{ choose by first_player {{ "{"x" * 65}" {CITE} {{ }} }} }}', "at most 64 characters"),
])
def test_more_keys_or_a_longer_verb_than_a_stored_state_holds_is_a_spec_error(tmp_path: Path, decl: str,
                                                                               message: str) -> None:
    with pytest.raises(SpecError, match=message):
        play_to_end(tmp_path, decl + f"\nprocedure play {CITE} {{\n{ASK}\n}}\n")
