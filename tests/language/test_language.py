"""The rules language on its own: positioned errors, the checker, a non-Rattus game."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import IllegalAction, RuleError, SpecError, load_spec, parse_text
from interpreter.checker import check

NIM = Path(__file__).parent / "specs" / "nim"

HEADER = '''
game g "G" cite src "S" "x"
source src "A source"
players 2 to 2
main play
'''


def spec_errors(text: str) -> list[str]:
    """Parse and check a one-file spec; return the formatted diagnostics."""
    try:
        files = [parse_text(text, "t.rules")]
        check(files, {"t.rules": text.splitlines()})
    except SpecError as err:
        return [d.format() for d in err.diagnostics]
    return []


# ---------------------------------------------------------------------- parsing


def test_syntax_error_has_path_line_column_and_caret() -> None:
    errors = spec_errors(HEADER + "procedure play cite src \"S\" \"x\" {\n  let x = (1 + \n}\n")
    assert len(errors) == 1
    head, line, caret = errors[0].splitlines()
    assert head.startswith("t.rules:8:1: unexpected '}'")
    assert line.strip() == "}"
    assert caret.strip() == "^"


def test_unexpected_character() -> None:
    errors = spec_errors(HEADER + "procedure play cite src \"S\" \"x\" { let x = 1 $ 2 }\n")
    assert errors and errors[0].startswith("t.rules:6:") and "unexpected character '$'" in errors[0]


def test_unexpected_end_of_file() -> None:
    errors = spec_errors(HEADER + "procedure play cite src \"S\" \"x\" {")
    assert errors and "unexpected" in errors[0] and errors[0].startswith("t.rules:6:")


def test_deep_nesting_is_a_clean_error() -> None:
    text = HEADER + "function f() = " + "(" * 5000 + "1" + ")" * 5000 + " cite src \"S\" \"x\"\n"
    errors = spec_errors(text)
    assert errors and "nesting deeper" in errors[0]


def test_too_large_input_is_refused() -> None:
    errors = spec_errors("#" * 2_000_000)
    assert errors and "larger than" in errors[0]


# --------------------------------------------------------------------- checking


def test_unknown_name_suggests_the_nearest() -> None:
    errors = spec_errors(HEADER + '''
counter supply[player] = 20
procedure play cite src "S" "x" { supplly[first_player] -= 1 }
''')
    assert len(errors) == 1
    assert "t.rules:8:35:" in errors[0] and "unknown name 'supplly'" in errors[0]
    assert "did you mean 'supply'?" in errors[0]


def test_all_problems_are_reported_together() -> None:
    errors = spec_errors(HEADER + '''
procedure play cite src "S" "x" {
  let a = nope
  call missing()
  break
  let b = 1 + true
}
''')
    joined = "\n".join(errors)
    assert len(errors) == 4
    assert "unknown name 'nope'" in joined
    assert "unknown procedure 'missing'" in joined
    assert "`break` outside a loop" in joined
    assert "`+` needs numbers, found a bool" in joined


def test_rules_switches_and_invariants_need_citations() -> None:
    errors = spec_errors(HEADER + '''
switch s "Q?" { default option "a" "A" }
invariant i holds true
procedure play { }
''')
    joined = "\n".join(errors)
    assert "option 'a' of switch s has no citation" in joined
    assert "invariant 'i' has no citation" in joined
    assert "procedure 'play' has no citation" in joined


def test_rule_blocks_need_a_citation_by_grammar() -> None:
    errors = spec_errors(HEADER + 'procedure play cite src "S" "x" { rule r { } }\n')
    assert errors and "expected" in errors[0] and '"cite"' in errors[0]


def test_citation_names_a_known_source() -> None:
    errors = spec_errors(HEADER + 'procedure play cite srx "S" "x" { }\n')
    assert errors and "unknown source 'srx'; did you mean 'src'?" in errors[0]


def test_switch_options_are_checked_where_compared() -> None:
    errors = spec_errors(HEADER + '''
switch order "Q?" {
  default option "placed" "P" cite src "S" "x"
  option "chosen" "C" cite src "S" "x"
}
procedure play cite src "S" "x" { if order == "choosen" { } }
''')
    assert len(errors) == 1 and "switch order has no option 'choosen'; did you mean 'chosen'?" in errors[0]


def test_arity_and_keys_are_checked() -> None:
    errors = spec_errors(HEADER + '''
counter c[player] = 0
function f(a, b) = a + b cite src "S" "x"
procedure play cite src "S" "x" {
  let x = f(1)
  let y = c[first_player, first_player]
  let z = min(1)
}
''')
    joined = "\n".join(errors)
    assert "function f takes 2 argument(s), not 1" in joined
    assert "c takes 1 key(s), not 2" in joined
    assert "min takes 2 argument(s), not 1" in joined


def test_recursion_is_refused() -> None:
    errors = spec_errors(HEADER + '''
function f(a) = g(a) cite src "S" "x"
function g(a) = f(a) cite src "S" "x"
procedure play cite src "S" "x" { }
''')
    assert any("may not recurse" in e for e in errors)


def test_missing_declarations() -> None:
    errors = spec_errors('procedure p { }')
    joined = "\n".join(errors)
    assert "no `game` declaration" in joined and "no `players` declaration" in joined
    assert "no `main` declaration" in joined


# --------------------------------------------------------- a game that is not Rattus


def test_nim_plays_to_the_end() -> None:
    game = load_spec(NIM)
    state = game.new_state(2, seed=1, check_invariants=True)
    assert state.legal_action_texts() == ["take 1", "take 2", "take 3"]
    for action in ["take 3", "take 3"]:
        state.apply(action)
    assert state.legal_action_texts() == ["take 1"]
    state.apply("take 1")
    assert state.is_terminal()
    assert state.winner() == [0]
    assert state.scores() == [4, 3]


def test_illegal_action_explains_with_the_rule_text() -> None:
    game = load_spec(NIM)
    state = game.new_state(3, seed=1)
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply("take 4")
    assert "'4' is not one of `1 .. min(3, size(heap))`" in info.value.reason
    assert any("Take one, two or three counters." in c.quote for c in info.value.citations)
    assert info.value.legal == ("take 1", "take 2", "take 3")
    assert state.to_json() == before
    with pytest.raises(IllegalAction, match="not 'give'"):
        state.apply("give 1")


def test_state_round_trips_through_json_mid_game() -> None:
    game = load_spec(NIM)
    state = game.new_state(2, seed=3)
    state.apply("take 2")
    copy = game.state_from_json(state.to_json())
    assert copy.to_json() == state.to_json()
    assert copy.legal_action_texts() == state.legal_action_texts()
    copy.apply("take 3")
    assert copy.to_json() != state.to_json()


def test_bad_table_data_is_positioned(tmp_path: Path) -> None:
    for f in NIM.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    (tmp_path / "counters.csv").write_text("id,colour\n1,red\nx,blue\n1,green\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(tmp_path)
    text = str(info.value)
    assert "counters.csv:3:1: table counters, column id: 'x' is not a whole number" in text
    assert "counters.csv:4:1: table counters: key 1 appears twice" in text


@pytest.mark.parametrize("cell", ["re\x00d", "\x1b[31mred", "r\x7fed", "r\x85ed"])
def test_a_cell_with_a_control_character_is_refused_where_it_is(tmp_path: Path, cell: str) -> None:
    # a cell's text becomes words of actions, faces and pages: no control characters in it
    for f in NIM.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    (tmp_path / "counters.csv").write_text(f"id,colour\n1,red\n2,{cell}\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(tmp_path)
    code = ord(next(c for c in cell if c not in "redm[31"))
    assert f"counters.csv:3:2: table counters, column colour: a control character (U+{code:04X})" in str(info.value)
    (tmp_path / "counters.csv").write_text('id,colour\n1,red\n2,"dark\tred"\n', encoding="utf-8")
    assert load_spec(tmp_path).table_rows["counters"][2]["colour"] == "dark\tred"  # a tab is text


def test_a_decision_without_options_is_a_rule_error(tmp_path: Path) -> None:
    (tmp_path / "g.rules").write_text(HEADER + '''
procedure play cite src "S" "x" {
  choose by first_player { "pick" n in [] { } }
}
''', encoding="utf-8")
    game = load_spec(tmp_path)
    with pytest.raises(RuleError, match=r"g\.rules:8:3: a decision with no legal option"):
        game.new_state(2)


def test_an_endless_loop_is_a_rule_error(tmp_path: Path) -> None:
    (tmp_path / "g.rules").write_text(HEADER + '''
procedure play cite src "S" "x" {
  loop { }
}
''', encoding="utf-8")
    game = load_spec(tmp_path)
    with pytest.raises(RuleError, match="no decision reached"):
        game.new_state(2)


def test_enum_literals_are_checked_wherever_an_enum_value_is_expected() -> None:
    errors = spec_errors(HEADER + '''
enum colour = red, green
var owner[colour] = none
limit used[colour] once per turn
scope turn
function is_red(c: colour) = c == "red" cite src "S" "x"
procedure paint(c: colour) cite src "S" "x" { }
procedure play cite src "S" "x" {
  let a = owner["gren"]
  let b = is_red("rde")
  use used["blu"]
  call paint("greem")
  let d = "pink" in colour
  let e = owner["green"] == none and is_red("red")
}
''')
    joined = "\\n".join(errors)
    assert len(errors) == 5, joined
    assert "'gren' is not a value of enum colour; did you mean 'green'?" in joined
    assert "'rde' is not a value of enum colour; did you mean 'red'?" in joined
    assert "'blu' is not a value of enum colour" in joined
    assert "'greem' is not a value of enum colour; did you mean 'green'?" in joined
    assert "'pink' is not a value of enum colour" in joined


C = 'cite src "S" "x"'
CHOOSE = f'choose by first_player {{ "a" {C} {{ }} }}'


@pytest.mark.parametrize("body, message", [
    (f"procedure play {C} {{ call q(1) }}\nprocedure q(n: int) {C} {{ {CHOOSE} }}\n",
     "t.rules:8:13: parameter 'n' hides a state name (declared at t.rules:6:1)"),
    (f"function f(n: int) = n + 1 {C}\nprocedure play {C} {{ let x = f(1)\n {CHOOSE} }}\n",
     "t.rules:7:12: parameter 'n' hides a state name"),
    (f'procedure play {C} {{ choose by first_player {{ "a" n in 1 .. 2 {C} {{ }} }} }}\n',
     "value name 'n' hides a state name"),
    (f'procedure play {C} {{ chance "d" n in 1 .. 2 {C} {{ }}\n {CHOOSE} }}\n', "value name 'n' hides a state name"),
    (f"procedure play {C} {{ for n in 1 .. 2 {{ }}\n {CHOOSE} }}\n", "loop name 'n' hides a state name"),
    (f"procedure play {C} {{ let x = sum(n in 1 .. 2: n)\n {CHOOSE} }}\n", "value name 'n' hides a state name"),
    (f"procedure play {C} {{ let x = [n for n in 1 .. 2]\n {CHOOSE} }}\n", "value name 'n' hides a state name"),
    (f"procedure play {C} {{ let n = 2\n {CHOOSE} }}\n", "local name 'n' hides a state name"),
    (f"procedure play {C} {{ let players = 2\n {CHOOSE} }}\n", "local name 'players' hides a language name"),
])
def test_a_local_name_never_hides_a_global_one(body: str, message: str) -> None:
    # a parameter, bound value, loop name or `let` named like a counter would be read where a
    # reader of the spec sees the counter: refused at its own position, naming both
    errors = spec_errors(HEADER + "counter n = 1\n" + body)
    assert len(errors) == 1 and message in errors[0], errors


def test_a_data_check_reads_no_game_state_even_through_functions() -> None:
    # a function reading state passed the checker when a `check` called it, and the spec then failed
    # at load with an AttributeError of the data context
    errors = spec_errors(HEADER + '''
counter c = 0
function reads() = c == 0 cite src "S" "x"
function reads_too() = reads() cite src "S" "x"
function pure(n) = n + 1 > 0 cite src "S" "x"
check direct cite src "S" "x" holds c == 0
check through cite src "S" "x" holds reads()
check through_two cite src "S" "x" holds reads_too()
check fine cite src "S" "x" holds pure(1)
procedure play cite src "S" "x" { if reads_too() { } }
''')
    assert [e.splitlines()[0] for e in errors] == [
        "t.rules:11:37: 'c' is game state; data checks cannot read it",
        "t.rules:12:38: function reads reads game state; data checks cannot call it",
        "t.rules:13:42: function reads_too reads game state; data checks cannot call it",
    ]
