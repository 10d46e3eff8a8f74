"""Names are resolved once, by the checker; every later pass reads its record.

Shown on a small game that is not Rattus: a parameter is a local wherever the
checker says so — in the generated code, in a `say` and in the English text —
while a counter is state; a parameter may not be named like a counter at all;
and a decision's bindings depend on each other as the tree says (not as the
text of generated code happens to read).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter import SpecError, load_spec
from interpreter import ast as A
from interpreter.english import English
from interpreter.symbols import Kind

SPEC = '''
game toy "Toy" cite book "R" "x"
source book "A book"
players 2 to 2
counter total = 0 cite book "R" "x"
main play
procedure bump(amount: int) cite book "R" "x" {
  amount += 5
  say "local {amount}"
}
procedure play cite book "R" "x" {
  call bump(1)
  say "state {total}"
  choose by first_player {
    "pick" a in 1 .. 2, b in 1 .. 3 where b > a, c in 1 .. 2 where c != a cite book "R" "x" { total += a }
  }
  finish players
}
'''


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root: Path = tmp_path_factory.mktemp("toy")
    (root / "toy.rules").write_text(SPEC, encoding="utf-8")
    return load_spec(root)


def _statements(block: A.Block) -> list[A.Stmt]:
    out: list[A.Stmt] = []
    for st in block.statements:
        out.append(st)
        for inner in A.child_blocks(st):
            out.extend(_statements(inner))
    return out


def test_a_parameter_is_a_local_everywhere_and_a_counter_is_state(toy: Any) -> None:
    bump = toy.checked.symbols.procedures["bump"]
    assign = bump.body.statements[0]
    assert isinstance(assign, A.Assign) and toy.checked.ref(assign) is Kind.LOCAL
    st = toy.new_state(2, seed=0, log=True)
    assert st.vals["total"][None] == 0  # the call changed its own local, not the counter
    assert st.log == ["local 6", "state 0"]  # each `say` reads the name the checker resolved
    kinds = [{name: kind for name, (kind, _) in said.items()} for said in toy.checked.say_names.values()]
    assert sorted(next(iter(k.values())) for k in kinds) == [Kind.LOCAL, Kind.STATE]
    english = English(toy.checked)
    assert [step.text for step in english.block(bump.body)] == ["Increase amount by 5."]  # a local
    play = toy.checked.symbols.procedures["play"]
    choose = next(step for step in english.block(play.body) if step.kind == "decision")
    assert [s.text for s in choose.children[0].children] == ["Increase the total by a."]  # the counter


def test_a_parameter_named_like_a_counter_is_refused(tmp_path: Path) -> None:
    (tmp_path / "toy.rules").write_text(SPEC.replace("bump(amount: int)", "bump(total: int)")
                                        .replace("amount", "total"), encoding="utf-8")
    with pytest.raises(SpecError, match=r"toy\.rules:7:16: parameter 'total' hides a state name"):
        load_spec(tmp_path)


def test_bindings_depend_on_the_bindings_they_read(toy: Any) -> None:
    choose = next(s for s in _statements(toy.checked.symbols.procedures["play"].body) if isinstance(s, A.Choose))
    _, b, c = choose.options[0].bindings
    assert toy.checked.free_locals(b.where) == {"a", "b"}
    assert toy.checked.free_locals(c.where) == {"c", "a"}
    st = toy.new_state(2, seed=0)
    assert st.legal_action_texts() == [f"pick {x} {y} {z}" for x in (1, 2) for y in (1, 2, 3) if y > x
                                       for z in (1, 2) if z != x]


def test_names_bound_inside_an_expression_are_not_read_from_around_it(toy: Any) -> None:
    play = toy.checked.symbols.procedures["play"]
    choose = next(s for s in _statements(play.body) if isinstance(s, A.Choose))
    where = choose.options[0].bindings[1].where
    assert isinstance(where, A.Binary)
    inner = A.Aggregate("count", "a", where.left, where, None, where.pos)  # binds `a` itself
    assert toy.checked.free_locals(inner) == {"b"}


def test_parameter_types_are_resolved_once(tmp_path: Path) -> None:
    text = SPEC.replace("procedure bump(amount: int)", "procedure bump(amount: int, p: player, q)")
    (tmp_path / "toy.rules").write_text(text.replace("call bump(1)", "call bump(1, first_player, 2)"), encoding="utf-8")
    game = load_spec(tmp_path)
    params = game.checked.symbols.procedures["bump"].params
    assert [str(p) for p in params] == ["amount: int", "p: player", "q"]
    assert [str(game.checked.param_types[id(p)]) for p in params] == ["int", "player", "any"]
    assert English(game.checked).signature(params) == "number amount, player p and q"
