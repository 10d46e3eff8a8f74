"""The compiler's generated Python: same meaning as the rules text, errors still positioned.

Statements that cannot pause run as generated Python functions (with Python
`if`, `while`, `for`), user functions with plain arguments are inlined, and
action texts are remembered per option.  These small specs check each of
those against values worked out by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import Game, RuleError, load_spec
from interpreter.compiler import leaf_procedures

HEADER = '''
game g "G" cite src "S" "x"
source src "A source"
players 2 to 2
main play
'''


def load(tmp_path: Path, text: str) -> Game:
    (tmp_path / "g.rules").write_text(HEADER + text, encoding="utf-8")
    return load_spec(tmp_path)


def test_loops_ifs_and_breaks_without_decisions(tmp_path: Path) -> None:
    game = load(tmp_path, '''
counter total = 0
counter seen[player] = 0
procedure add(n: int) cite src "S" "x" {
  total += n
}
procedure play cite src "S" "x" {
  let i = 0
  while i < 10 {
    i += 1
    if i % 2 == 0 { continue_marker = 0 } elif i == 7 { break } else { call add(i) }
  }
  loop {
    call add(100)
    if total > 300 { break }
  }
  for p in players where p == 1 {
    seen[p] += 5
  }
  choose by first_player { "done" { } }
}
var continue_marker = 1
''')
    state = game.new_state(2)
    # odd numbers below 7: 1 + 3 + 5 = 9; then +100 until above 300: 309
    assert state.vals["total"][None] == 309
    assert state.vals["seen"] == {0: 0, 1: 5}
    assert state.vals["continue_marker"][None] == 0
    assert state.legal_action_texts() == ["done"]


def test_only_procedures_that_never_pause_are_leaves(tmp_path: Path) -> None:
    game = load(tmp_path, '''
counter n = 0
procedure a cite src "S" "x" { n += 1 }
procedure b cite src "S" "x" { call a() }
procedure asks cite src "S" "x" { choose by first_player { "ok" { } } }
procedure c cite src "S" "x" { call asks() }
procedure loops cite src "S" "x" { if n > 5 { call loops() } }
procedure play cite src "S" "x" { call b() call c() call loops() }
''')
    assert leaf_procedures(game.symbols.procedures) == {"a", "b"}
    state = game.new_state(2)
    assert state.vals["n"][None] == 1
    state.apply("ok")
    assert state.is_terminal() and state.winner() is None


def test_an_inlined_function_does_not_capture_the_callers_names(tmp_path: Path) -> None:
    game = load(tmp_path, '''
counter c[player] = 0
var result = 0
function weighted(x: int) = sum(q in players: c[q] * x)
procedure play cite src "S" "x" {
  c[0] = 1
  c[1] = 2
  result = sum(q in players: weighted(q))
  choose by first_player { "done" { } }
}
''')
    # q = 0 gives 0, q = 1 gives (1 + 2) * 1: 3 (a captured q would give 0*1 + 1*2 twice: 4)
    assert game.new_state(2).vals["result"][None] == 3


def test_an_error_inside_a_called_procedure_points_at_its_statement(tmp_path: Path) -> None:
    (tmp_path / "things.csv").write_text("id\n1\n2\n", encoding="utf-8")
    game = load(tmp_path, '''
table things from "things.csv" { key id: int cite src "S" "x" }
pieces thing from things in pile cite src "S" "x"
zone pile of thing public
var picked = none
procedure pick(i: int) cite src "S" "x" {
  let ok = true
  picked = piece(pile, i)
}
procedure play cite src "S" "x" {
  let before = 1
  call pick(0)
}
''')
    with pytest.raises(RuleError) as info:
        game.new_state(2)
    lines = (tmp_path / "g.rules").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, start=1) if "picked = piece" in text)
    # the failing statement, not the call
    assert f"g.rules:{line}:3: the rules cannot go on" in str(info.value)
    assert "position 0 is not 1 or more" in str(info.value)


@pytest.mark.parametrize("body", ["1", "false and x > 0", "if false then x else 0", "count(q in players: x > 0)",
                                  "min(x, 1)"])
def test_an_argument_that_cannot_be_evaluated_fails_whether_or_not_the_call_is_written_out(
        tmp_path: Path, body: str) -> None:
    # a call written out in place left out an argument its body does not read (or reads only in
    # part of it): f(z // 0) ran when f was small enough to be written out, and failed when not
    game = load(tmp_path, f'''
counter z = 0
counter out = 0
function f(x) = {body} cite src "S" "x"
procedure play cite src "S" "x" {{ out = if f(z // 0) == 0 then 1 else 2 }}
''')
    with pytest.raises(RuleError, match="ZeroDivisionError"):
        game.new_state(2)


def test_an_endless_loop_in_a_procedure_that_never_pauses_is_stopped(tmp_path: Path) -> None:
    game = load(tmp_path, '''
counter n = 0
procedure spin cite src "S" "x" { while n >= 0 { n += 1 } }
procedure play cite src "S" "x" { call spin() }
''')
    with pytest.raises(RuleError, match=r"g\.rules:8:35: no decision reached"):
        game.new_state(2)


def test_texts_of_values_of_mixed_type_are_not_mixed_up(tmp_path: Path) -> None:
    game = load(tmp_path, '''
procedure play cite src "S" "x" {
  loop {
    choose by first_player {
      "pick" v in [1, true, 2]
      { }
      "stop" { break }
    }
  }
}
''')
    state = game.new_state(2)
    assert state.legal_action_texts() == ["pick 1", "pick yes", "pick 2", "stop"]
    state.apply_index(0)
    state.apply_index(1)
    state.apply_index(2)
    state.apply("stop")
    assert state.history == ["pick 1", "pick yes", "pick 2", "stop"]


def test_generated_code_is_kept_for_reading(rules: Game) -> None:
    sources = rules.generated_sources()
    assert sources and all(src.startswith("def ") for src in sources.values())
    compile("\n".join(sources.values()), "<all>", "exec")


SWITCHED = '''
switch mode "How many?" {
  default option "few" "one or two" cite src "S" "x"
  option "many" "one to four" cite src "S" "x"
}
counter n = 0
function limit() = if mode == "many" then 4 else 2
procedure play cite src "S" "x" {
  loop {
    choose by first_player {
      "take" k in 1 .. limit() where mode == "many" or k != 2 or n == 0
      { n += k }
      "stop" when n > 0 and (mode == "few" or n > 3) { break }
    }
  }
}
'''


def test_code_made_for_each_settings_follows_them(tmp_path: Path) -> None:
    game = load(tmp_path, SWITCHED)
    few, many = game.new_state(2), game.new_state(2, settings={"mode": "many"})
    assert (few.variant, many.variant) == (0, 1)
    assert few.legal_action_texts() == ["take 1", "take 2"]
    assert many.legal_action_texts() == ["take 1", "take 2", "take 3", "take 4"]
    few.apply("take 2")
    many.apply("take 2")
    assert few.legal_action_texts() == ["take 1", "stop"]
    assert many.legal_action_texts() == ["take 1", "take 2", "take 3", "take 4"]
    many.apply("take 2")
    assert many.legal_action_texts()[-1] == "stop"
    # a copy, and a state read back from JSON, run the code of their own settings
    again = game.state_from_json(many.to_json())
    assert again.variant == 1 and again.legal_action_texts() == many.legal_action_texts()
    assert many.clone().variant == 1
    assert game.new_state(2, settings={"mode": "many"}).variant == 1  # made once
    # the code made for the settings no longer reads them
    made = "\n".join(game.generated_sources({"mode": "many"}).values())
    assert "settings" not in made and "'many'" not in made


def test_switch_comparisons_are_decided_only_where_python_would_decide_them(tmp_path: Path) -> None:
    (tmp_path / "things.csv").write_text("id\n1\n2\n", encoding="utf-8")
    game = load(tmp_path, '''
switch mode "How?" {
  default option "a" "a" cite src "S" "x"
  option "b" "b" cite src "S" "x"
}
table things from "things.csv" { key id: int cite src "S" "x" }
pieces thing from things in pile cite src "S" "x"
zone pile of thing public
var seen = none
procedure play cite src "S" "x" {
  seen = piece(pile, 5) == 1 or mode == "a"
  choose by first_player { "done" { } }
}
''')
    # `piece(pile, 5)` fails, and must still fail although `mode == "a"` makes the `or` true
    with pytest.raises(RuleError, match="IndexError"):
        game.new_state(2)


def test_beyond_the_variant_limit_code_reads_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter import game as game_module

    monkeypatch.setattr(game_module, "MAX_VARIANTS", 1)
    game = load(tmp_path, SWITCHED)
    many = game.new_state(2, settings={"mode": "many"})
    assert many.variant == 1
    assert many.legal_action_texts() == ["take 1", "take 2", "take 3", "take 4"]
    assert game.new_state(2).legal_action_texts() == ["take 1", "take 2"]
    assert "settings" in "\n".join(game.generated_sources({"mode": "many"}).values())


def test_an_error_after_a_decision_points_at_its_statement(tmp_path: Path) -> None:
    (tmp_path / "things.csv").write_text("id\n1\n2\n", encoding="utf-8")
    game = load(tmp_path, '''
table things from "things.csv" { key id: int cite src "S" "x" }
pieces thing from things in pile cite src "S" "x"
zone pile of thing public
var picked = none
procedure play cite src "S" "x" {
  loop {
    choose by first_player {
      "pick" i in 0 .. 2 {
        rule picking cite src "Picking" "one of them" {
          picked = piece(pile, i)
        }
      }
    }
  }
}
''')
    state = game.new_state(2)
    state.apply("pick 1")
    with pytest.raises(RuleError) as info:
        state.apply("pick 0")
    lines = (tmp_path / "g.rules").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, start=1) if "picked = piece" in text)
    assert f"g.rules:{line}:11: the rules cannot go on" in str(info.value)
    assert info.value.citations and info.value.citations[0].section == "Picking"


def test_a_filter_part_that_does_not_name_the_value_is_tested_once_and_only_if_there_are_values(
        tmp_path: Path) -> None:
    game = load(tmp_path, '''
counter top = 3
counter zero = 0
procedure play cite src "S" "x" {
  loop {
    choose by first_player {
      "pair" a in 1 .. 2, b in 1 .. top where top > 1 and b != a { top -= 1 }
      "none" x in 1 .. zero where 1 // zero == 1 and x > 0 { }
      "one" y in 1 .. top where top > 2 { }
      "stop" { break }
    }
  }
}
''')
    state = game.new_state(2)
    assert state.legal_action_texts() == ["pair 1 2", "pair 1 3", "pair 2 1", "pair 2 3",
                                          "one 1", "one 2", "one 3", "stop"]
    state.apply("pair 1 2")
    assert state.legal_action_texts() == ["pair 1 2", "pair 2 1", "stop"]
    state.apply("pair 2 1")
    assert state.legal_action_texts() == ["stop"]


def test_which_filter_parts_name_the_value_is_the_checkers_name_resolution(tmp_path: Path) -> None:
    # the part of a filter to test once is found on the syntax tree, by the names the checker
    # resolved, looking into a function written out in place; never by reading generated Python
    import ast

    import interpreter.compiler

    tree = ast.parse(Path(interpreter.compiler.__file__).read_text(encoding="utf-8"))
    assert "ast" not in {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    game = load(tmp_path, '''
counter top = 3
function open(n: int, m: int) = top > n and m > n
procedure play cite src "S" "x" {
  loop {
    choose by first_player {
      "take" b in 1 .. 3 where open(1, b) { top -= 1 }
      "stop" { break }
    }
  }
}
''')
    made = "\n".join(game.generated_sources().values())
    assert re.search(r"if _\d+_d and \(\(V_top\[None\] > 1\)\):\n +for _\d+_b in", made)  # once, before the loop
    state = game.new_state(2)
    assert state.legal_action_texts() == ["take 2", "take 3", "stop"]
    state.apply("take 2")
    state.apply("take 3")
    assert state.legal_action_texts() == ["stop"]
