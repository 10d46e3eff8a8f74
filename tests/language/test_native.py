"""The C back end (interpreter/native.py, interpreter/cgen.py) against the Python one, its reference.

Both back ends play the same games to the same states (JSON), legal actions and scores; a spec that
goes wrong fails with the same RuleError, at the same place, with the same citations; what C cannot
write yet stays Python (``auto``) or is refused by name (``c``); a built module is only loaded from
a folder and a file that nobody else can write.  Where there is no C compiler these tests skip.
"""

from __future__ import annotations

import json
import os
import random
import sysconfig
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, RuleError, SpecError, load_spec, native
from interpreter.codegen import STEP_LIMIT
from interpreter.errors import IllegalAction
from interpreter.runtime import RESUME, TERMINAL_PLAYER, State

SPECS = Path(__file__).parent / "specs"
TOOLS = native.toolchain()
pytestmark = pytest.mark.skipif(isinstance(TOOLS, str), reason=f"the C back end cannot run here: {TOOLS}")


def both(path: Path) -> tuple[Game, Game]:
    """The same spec loaded for each back end (C where it can, else Python)."""
    return load_spec(path, backend="auto"), load_spec(path, backend="python")


def play_in_lockstep(c: Game, py: Game, players: int, seed: int) -> int:
    """Play one random game on both, comparing everything a user sees after every action; its length."""
    a, b = c.new_state(players, seed), py.new_state(players, seed)
    rng = random.Random(seed)
    steps = 0
    while True:
        assert a.to_json() == b.to_json(), (seed, steps)
        assert a.legal_action_texts() == b.legal_action_texts(), (seed, steps)
        assert [x.values for x in a.legal_actions()] == [x.values for x in b.legal_actions()]
        if steps % 5 == 2:  # a mid-game state: cloned and stored, then played on in C
            assert a.clone().to_json() == a.to_json()
            stored = c.state_from_json(a.to_json())
            assert stored.to_json() == a.to_json() and stored.legal_action_texts() == a.legal_action_texts()
        if a.is_terminal():
            break
        i = rng.randrange(a.num_legal_actions())
        a.apply_index(i)
        b.apply_index(i)
        steps += 1
    assert a.scores() == b.scores() and a.winner() == b.winner()
    return steps


def test_nim_runs_wholly_in_c() -> None:
    game = load_spec(SPECS / "nim", backend="c")
    report = game.backend()
    assert report.backend == "c" and report.native == report.functions > 0
    resumes = [fns[0] for proc in game.procedures for op, fns, _ in proc.code if op == RESUME]
    assert resumes and all(type(f).__name__ == "builtin_function_or_method" for f in resumes)
    assert "C back end: all" in report.describe()


@pytest.mark.parametrize("spec", ["nim", "gifts"])
def test_toy_games_play_the_same_on_both_back_ends(spec: str) -> None:
    c, py = both(SPECS / spec)
    assert c.backend().backend == "c"
    lengths = [play_in_lockstep(c, py, n, seed) for n in range(c.min_players, c.max_players + 1) for seed in range(12)]
    assert sum(lengths) > 50


HEADER = '''game g "G" cite src "S" "x"
source src "A source"
players 2 to 2
main play
counter n = 1
counter m[player] = 0
var who: player = none
'''
CITE = 'cite src "S" "x"'


@pytest.mark.parametrize("body", [
    "let x = 0\nloop { loop { x = x + 1 } }",
    "let x = 0\nfor i in 1 .. 1000 { for j in 1 .. 1000 { x = x + 1 } }",
    "let x = 0\nloop { x = sum(i in 1 .. 100000: i) }",
    "let x = 2\nloop { x = x * x }",
    "let x = 1\nloop { x = x + x }",
    "loop { n += n }",
    "let x = 9223372036854775807\nx = x + 1",
    "let x = 0\nfor i in 1 .. 1000000000000 { x = i }",
    'choose by first_player { "take" k in 1 .. 1000000000000 ' + CITE + " { } }",
    'choose by first_player { "take" a in 1 .. 100000, b in 1 .. 100000 where a == b ' + CITE + " { } }",
    'chance "draw" k in 1 .. 1000000000000 ' + CITE + " { }",
    "let x = 0\nrule r " + CITE + " { x = 5 // (n - 1) }",
    "let x = 7 % (n - 1)",
    "let x = next(who)",
    "let x = 0\nfor p in players where p == who { x = 1 }\nlet y = [1, 2] + [3]\nn = 5 // 0",
    "let x = m[5]",
    "m[3] = 1",
    "let x = -9223372036854775807\nx = x - 2",
    "m[0] = 1000000000000000000\nlet x = 0\nif m[1] in (m[1] .. m[0]) { x = 1 }",
    "let x = size(0 .. 9223372036854775807)",
    "m[0] = 3\nlet x = size(m[0] .. 1) + size(1 .. 5000000)\nn = x // 0",
])
def test_a_spec_that_goes_wrong_fails_alike_on_both(tmp_path: Path, body: str) -> None:
    (tmp_path / "a.rules").write_text(HEADER + f"procedure play {CITE} {{\n{body}\n}}\n", encoding="utf-8")
    errors: list[Any] = []
    for backend in ("auto", "python"):
        game = load_spec(tmp_path, backend=backend)
        with pytest.raises(RuleError) as caught:
            game.new_state(2)
        errors.append((caught.value.message, caught.value.pos, caught.value.citations))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("procs", [
    # calls nested past the bound: the C run loop hands the call over to the Python loop, which refuses it
    f"procedure play {CITE} {{\n call deeper(1)\n}}\nprocedure deeper(k: int) {CITE} {{\n call deeper(k + 1)\n}}\n",
    # calls that never reach a decision: the run loop's step count, as the Python loop's
    f"procedure play {CITE} {{\n loop {{ call maybe() }}\n}}\n"
    f"procedure maybe {CITE} {{\n if n == 5 {{ choose by first_player {{ \"pass\" {CITE} {{ }} }} }}\n}}\n",
    # a listing that goes wrong inside a called procedure, and new locals that do
    f"procedure play {CITE} {{\n call ask(0)\n}}\nprocedure ask(k: int) {CITE} {{\n"
    f" choose by first_player {{ \"take\" i in 1 .. 5 // k {CITE} {{ }} }}\n}}\n",
    f"procedure play {CITE} {{\n call ask(5 // (n - 1))\n}}\nprocedure ask(k: int) {CITE} {{\n"
    f" choose by first_player {{ \"take\" i in 1 .. k {CITE} {{ }} }}\n}}\n",
])
def test_the_c_run_loop_fails_alike(tmp_path: Path, procs: str) -> None:
    (tmp_path / "a.rules").write_text(HEADER + procs, encoding="utf-8")
    errors: list[Any] = []
    for backend in ("c", "python"):
        game = load_spec(tmp_path, backend=backend)
        assert (game.native_runners.get(0) is not None) == (backend == "c")
        with pytest.raises(RuleError) as caught:
            game.new_state(2)
        errors.append((caught.value.message, caught.value.pos, caught.value.citations))
    assert errors[0] == errors[1]


def test_a_filter_not_reading_the_option_costs_alike_on_both(tmp_path: Path) -> None:
    body = ('choose by first_player { "take" k in 1 .. 10 where sum(j in 1 .. 200000: j) > 0 ' + CITE + " { } }\n"
            "finish [first_player]")
    (tmp_path / "a.rules").write_text(HEADER + f"procedure play {CITE} {{\n{body}\n}}\n", encoding="utf-8")
    outcomes = []
    for backend in ("c", "python"):
        game = load_spec(tmp_path, backend=backend)
        try:
            outcomes.append(game.new_state(2).legal_action_texts())
        except RuleError as err:
            outcomes.append([err.message])
    assert outcomes[0] == outcomes[1] == [f"take {k}" for k in range(1, 11)]


@pytest.mark.parametrize("binds", [
    # a leading part tested once, then a part reading the value tested for each
    "k in 1 .. 10 where sum(j in 1 .. 200000: j) > 0 and k % 2 == 0",
    "k in 1 .. 3, q in 1 .. 10 where sum(j in 1 .. 100000: j) > 0 and q > k",
    # a leading part that fails: the same error, at the same place, on both
    "k in 1 .. 10 where 5 // (n - 1) > 0 and k > 1",
    "k in 1 .. 10 where 5 // (n - 1) > 0 and k > 1, q in 1 .. 3",
    # ... but only if there are values to filter (none here: no error, no options)
    "k in 1 .. 0 where 5 // (n - 1) > 0 and k > 1",
    "k in 1 .. 3, q in 1 .. 0 where 5 // (n - 1) > 0",
    # a part reading the value first: the whole filter is tested for each value
    "k in 1 .. 10 where k > 1 and sum(j in 1 .. 200000: j) > 0",
    # a decision of one value tests its `when` on its listing's line (an error is said at the binding), after
    # its domain where its filter has a leading part, else before it
    "k in 1 .. 10 when 5 // (n - 1) > 0",
    "k in 1 .. (5 // (n - 1)) when n > 5",
    "k in 1 .. (5 // (n - 1)) where n > 0 and k > 0 when n > 5",
    "k in 1 .. 0 where 5 // (n - 1) > 0 and k > 1 when 5 // (n - 1) > 0",
    "k in 1 .. 3 where n > 0 and k > 1 when n > 0",
])
def test_a_split_filter_lists_and_fails_alike(tmp_path: Path, binds: str) -> None:
    outcomes = _one_choice_on_both(tmp_path, binds)
    assert outcomes[0] == outcomes[1]


def _one_choice_on_both(folder: Path, binds: str, functions: str = "") -> list[Any]:
    """A game of one decision with these bindings (and these spec functions), its first decision's texts on
    C then Python (see :func:`_first_decision_on_both`)."""
    body = f'choose by first_player {{ "take" {binds} {CITE} {{ }} }}\nfinish [first_player]'
    (folder / "a.rules").write_text(HEADER + functions + f"procedure play {CITE} {{\n{body}\n}}\n",
                                    encoding="utf-8")
    return _first_decision_on_both(folder, lambda state: state.legal_action_texts())


#: Functions a filter calls: each part of a function written out in place is split as a part of the filter is.
SPLIT_FUNCTIONS = f"""
function heavy(k: int) = sum(j in 1 .. 200000: j) > 0 and k % 2 == 0
  {CITE}
function both_heavy(k: int, q: int) = heavy(q) and k < q
  {CITE}
function failing(k: int) = 5 // (n - 1) > 0 and k > 1
  {CITE}
"""


@pytest.mark.parametrize("binds", [
    # a part not reading the value tested once (200,000 steps), the rest for each value: within the budget
    "k in 1 .. 10 where heavy(k)",
    "k in 1 .. 10 where n > 0 and heavy(k)",
    "k in 1 .. 3, q in 1 .. 10 where both_heavy(k, q)",
    # a leading part that fails: the same error, at the same place, on both (only if there are values)
    "k in 1 .. 10 where failing(k)",
    "k in 1 .. 0 where failing(k)",
    "k in 1 .. 10 where failing(k) when n > 0",
])
def test_a_filter_written_as_a_function_call_is_split_alike(tmp_path: Path, binds: str) -> None:
    outcomes = _one_choice_on_both(tmp_path, binds, SPLIT_FUNCTIONS)
    assert outcomes[0] == outcomes[1]
    assert "no decision reached" not in str(outcomes[0])


#: A function of values the same at every read of a listing (a counter, a literal): C computes it once per listing
#: and spends its steps again at each other read, as Python computes it afresh.
HELD_FUNCTIONS = f"""
function heavy(k: int) = sum(j in 1 .. 200000: j) > 0 and k > 0
  {CITE}
"""


@pytest.mark.parametrize("reads, stuck", [(3, False), (6, True)])
@pytest.mark.parametrize("where", ["branch", "value"])
def test_a_value_held_for_a_listing_spends_its_steps_at_each_read(tmp_path: Path, reads: int, stuck: bool,
                                                                  where: str) -> None:
    if where == "branch":  # read in each branch's `when`
        options = " ".join(f'"o{i}" when heavy(n) {CITE} {{ }}' for i in range(reads))
    else:  # read for each value, after a part that reads the value (not split off: read per value)
        options = f'"o" k in 1 .. {reads} where k > 0 and heavy(n) {CITE} {{ }}'
    body = f"choose by first_player {{ {options} }}\nfinish [first_player]"
    (tmp_path / "a.rules").write_text(HEADER + HELD_FUNCTIONS + f"procedure play {CITE} {{\n{body}\n}}\n",
                                      encoding="utf-8")
    outcomes = _first_decision_on_both(tmp_path, lambda state: state.legal_action_texts())
    assert outcomes[0] == outcomes[1]
    assert ("no decision reached" in str(outcomes[0])) == stuck, outcomes[0]


HELD_LIMIT = HEADER + f"""enum colour = red, blue
scope turn
limit taken[colour] once per turn
  {CITE}
function free(c: colour) = taken[c] and n < 9
  {CITE}
procedure play {CITE} {{
  begin turn
  loop {{
    choose by first_player {{
      "take-red" when free("red") and taken["red"] {CITE} {{ use taken["red"] n += 1 }}
      "take-blue" when taken["blue"] and free("blue") {CITE} {{ use taken["blue"] }}
      "again" when not taken["red"] and not free("blue") {CITE} {{ begin turn }}
      "end" when not free("red") {CITE} {{ finish [first_player] }}
    }}
  }}
}}
"""


def test_a_value_held_for_a_listing_is_read_afresh_by_the_next(tmp_path: Path) -> None:
    """Each listing reads a limit and a function of it in several branches (C: once per listing); a body uses
    the limit, or begins the turn again, between two listings, or another state is listed: each lists what its
    state now allows."""
    (tmp_path / "a.rules").write_text(HELD_LIMIT, encoding="utf-8")
    seen = []
    for backend in ("c", "python"):
        game = load_spec(tmp_path, backend=backend)
        assert (game.native_runners.get(0) is not None) == (backend == "c")
        state = game.new_state(2)
        texts = [state.legal_action_texts()]
        for action in ("take-red", "take-blue", "again", "take-blue"):
            state.apply(action)
            texts.append(state.legal_action_texts())
        texts.append(game.new_state(2).legal_action_texts())  # another state: its own limits
        seen.append((texts, state.budget, state.vals["n"]))
    assert seen[0] == seen[1]
    assert seen[0][0] == [["take-red", "take-blue"], ["take-blue", "end"], ["again", "end"],
                          ["take-red", "take-blue"], ["take-red"], ["take-red", "take-blue"]], seen[0]


def _first_decision_on_both(folder: Path, read: Callable[[Any], Any]) -> list[Any]:
    """On C then Python: what ``read`` gives of a 2-player game's first decision, with the budget left, or
    the rule error that stopped it (message, place, citations)."""
    outcomes: list[Any] = []
    for backend in ("c", "python"):
        game = load_spec(folder, backend=backend)
        assert (game.native_runners.get(0) is not None) == (backend == "c")
        try:
            state = game.new_state(2)
            outcomes.append((read(state), state.budget))
        except RuleError as err:
            outcomes.append((err.message, err.pos, err.citations))
    return outcomes


@pytest.mark.parametrize("binds, stuck", [
    ("k in 1 .. 100000", True),  # one value: listed on the run's budget, as in Python
    ("k in 1 .. 2, q in 1 .. 100000 where q > k", False),  # several: on the listing's own count, as in Python
])
def test_a_listing_after_a_long_run_is_stuck_alike(tmp_path: Path, binds: str, stuck: bool) -> None:
    body = (f'let x = sum(j in 1 .. 950000: j)\nchoose by first_player {{ "take" {binds} {CITE} {{ }} }}\n'
            "finish [first_player]")
    (tmp_path / "a.rules").write_text(HEADER + f"procedure play {CITE} {{\n{body}\n}}\n", encoding="utf-8")
    outcomes = _first_decision_on_both(tmp_path, lambda state: state.num_legal_actions())
    assert outcomes[0] == outcomes[1]
    assert ("no decision reached" in str(outcomes[0])) == stuck


def test_words_given_after_loading_decide_which_texts_c_may_write_later(tmp_path: Path) -> None:
    # eleven pieces of 999 characters make an action text too long to write: Python refuses the action, and
    # C must too (it kept the option, to write its text when read, by what the short keys allowed)
    (tmp_path / "boxes.csv").write_text("id\na\nb\n", encoding="utf-8")
    binds = ", ".join(f"v{i} in pieces(pile)" for i in range(11))
    (tmp_path / "a.rules").write_text(
        f'game g "G" {CITE}\nsource src "A source"\nplayers 2 to 2\nmain play\n'
        f'table boxes from "boxes.csv" {{\n key id: text\n {CITE}\n}}\npieces box from boxes in pile {CITE}\n'
        f"zone pile of box public\nprocedure play {CITE} {{\n"
        f' choose by first_player {{ "take" {binds} {CITE} {{ }} }}\n finish [first_player]\n}}\n', encoding="utf-8")
    for backend in ("c", "python"):
        game = load_spec(tmp_path, backend=backend)
        assert (game.native_runners.get(0) is not None) == (backend == "c")
        game.write_pieces(["x" * 999, "y" * 999])
        state = game.new_state(2)
        before = state.to_json()
        with pytest.raises(RuleError, match="longer than"):
            state.apply_index(0)
        assert state.to_json() == before and state.history == []


class _Index(int):
    """An index of a type of its own that is an int all the same (as an enum's or a library's may be)."""


@pytest.mark.parametrize("index", [True, _Index(1)])
def test_an_index_that_is_not_a_plain_int_is_taken_alike(index: Any) -> None:
    # C's advance takes plain ints; it refused others with a TypeError the state reported as a rules error
    c, py = both(SPECS / "nim")
    assert c.native_runners[0] is not None
    states = [c.new_state(2, seed=4), py.new_state(2, seed=4)]
    for state in states:
        state.apply_index(index)
    assert states[0].to_json() == states[1].to_json() and states[0].history == ["take 2"]


def _apply_outcome(state: Any, index: Any) -> tuple[Any, ...]:
    """What ``apply_index`` does to a state: its error (kind and words) or none, and the state after it."""
    try:
        state.apply_index(index)
        failed: tuple[str, str] = ("", "")
    except Exception as err:  # compared across back ends: the very same error, or none on both
        failed = (type(err).__name__, str(err))
    return failed, state.to_json(), state.history


#: The methods a game loop calls at every action: C functions on the class of a state whose variant runs in C
#: (and the property current_player, a C getter).
LOOP_METHODS = ("apply_index", "is_terminal", "num_legal_actions", "is_chance_node", "current_player", "clone")
#: Calls of them that the Python methods refuse (or read) as Python refuses any call: C hands them over.
ODD_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("apply_index", (), {}), ("apply_index", (0, 1), {}), ("apply_index", (), {"position": 0}),
    ("is_terminal", (1,), {}), ("num_legal_actions", (), {"all": True}), ("is_chance_node", (None,), {}),
    ("clone", (None, 1), {}), ("clone", (), {"spare": None}), ("clone", (1,), {}),
]


def _methods_in_c(state: State) -> list[bool]:
    """Which of :data:`LOOP_METHODS` are C functions (method or, for a property, getset descriptors) on the
    state's class."""
    kinds = (types.MethodDescriptorType, types.GetSetDescriptorType)
    return [isinstance(getattr(type(state), name), kinds) for name in LOOP_METHODS]


def _set_outcome(state: Any, value: Any) -> tuple[str, str]:
    """What setting (a value) or deleting (None) a state's current_player does: its error, kind and words."""
    try:
        if value is None:
            del state.current_player
        else:
            state.current_player = value
    except Exception as err:  # compared across back ends: the very same error
        return type(err).__name__, str(err)
    return "", ""


def _call_outcome(state: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """What a call of one of a state's methods does: its answer or its error (kind and words), the state after."""
    try:
        answer: Any = getattr(state, name)(*args, **kwargs)
    except Exception as err:  # compared across back ends: the very same error, or none on both
        answer = (type(err).__name__, str(err))
    return answer, state.to_json(), state.history


@pytest.mark.parametrize("mode", ["plain", "lazy", "check_invariants"])
def test_apply_index_takes_and_refuses_alike_on_both(mode: str) -> None:
    # State.apply_index's path into C's advance, and each way it leaves to Python: an index out of range
    # (either side), a bool or a float, a keyword or a wrong count of arguments, a lazy state, a state that
    # checks its invariants, the game's end; the loop's methods are C functions on the C back end's plain
    # state (and on the one checking its invariants, which they hand to Python), Python's elsewhere
    c, py = both(SPECS / "nim")
    assert c.native_runners[0] is not None and py.native_runners.get(0) is None
    flags = {"lazy": mode == "lazy", "check_invariants": mode == "check_invariants"}
    a, b = c.new_state(2, seed=4, **flags), py.new_state(2, seed=4, **flags)
    assert _methods_in_c(a) == [mode != "lazy"] * len(LOOP_METHODS) and not any(_methods_in_c(b))
    assert isinstance(a, State) and type(b) is State
    rng = random.Random(7)
    took_in_c = steps = 0
    while not b.is_terminal():
        n = b.num_legal_actions()
        assert (a.is_terminal(), a.num_legal_actions(), a.is_chance_node(), a.current_player) == (
            False, n, b.is_chance_node(), b.current_player)
        assert _set_outcome(a, 1) == _set_outcome(b, 1) != ("", "") and _set_outcome(a, None) == _set_outcome(b, None)
        assert _call_outcome(a, "clone", (a,), {}) == _call_outcome(b, "clone", (b,), {})  # (not into itself)
        assert a.clone() == a.clone(a.clone()) == b.clone() == b.clone(into=b.clone())
        for index in (-1, n, n + 3, "0", None):
            assert _apply_outcome(a, index) == _apply_outcome(b, index), index
        float_a, float_b = _apply_outcome(a, 1.0), _apply_outcome(b, 1.0)  # (the same kind of error, but a
        assert float_a[0][0] == float_b[0][0] != "" and float_a[1:] == float_b[1:]  # TypeError words the list's)
        for name, args, kwargs in ODD_CALLS:
            assert _call_outcome(a, name, args, kwargs) == _call_outcome(b, name, args, kwargs), (name, args)
        index = rng.choice([rng.randrange(n), False] + ([True] if n > 1 else []))
        failed, after, history = _apply_outcome(b, index)
        if steps % 3 == 2:
            a.apply_index(index=index)  # (by keyword: taken by the Python method)
        else:
            a.apply_index(index)
            took_in_c += type(a._history[-1]) is tuple  # (an option kept, its text written when the history is read)
        steps += 1
        assert failed == ("", "") and (a.to_json(), a.history) == (after, history), index
    assert a.is_terminal() and b.is_terminal()
    assert (a.num_legal_actions(), a.is_chance_node(), a.current_player) == (
        b.num_legal_actions(), b.is_chance_node(), b.current_player) == (0, False, TERMINAL_PLAYER)
    over = ("IllegalAction", str(IllegalAction("0", "the game is over")))
    assert _apply_outcome(a, 0)[0] == _apply_outcome(b, 0)[0] == over
    for name, args, kwargs in ODD_CALLS:
        assert _call_outcome(a, name, args, kwargs) == _call_outcome(b, name, args, kwargs), (name, args)
    assert (took_in_c > 0) == (mode == "plain")  # C took the plain state's actions, Python the others'


def test_the_loops_methods_in_c_run_what_the_games_runner_holds_now() -> None:
    # a runner taken away (as the benchmark takes it to time the Python code) sends the very same state to
    # Python, and to C again once it is back; states made meanwhile are plain States
    c, py = both(SPECS / "nim")
    a, b = c.new_state(2, seed=4), py.new_state(2, seed=4)
    assert all(_methods_in_c(a))
    runner = c.native_runners[0]
    kinds = []
    try:
        for step in range(4):
            c.native_runners[0] = runner if step % 2 == 0 else None
            a.apply_index(0)
            b.apply_index(0)
            kinds.append(type(a._history[-1]))  # an option kept by C, a text written by Python
        assert type(c.new_state(2, seed=4)) is State
    finally:
        c.native_runners[0] = runner
    assert kinds == [tuple, str, tuple, str] and a == b and a.history == b.history


def test_a_state_of_a_variant_run_in_c_keeps_its_class_through_copies() -> None:
    c, py = both(SPECS / "nim")
    a = c.new_state(2, seed=4)
    cls = type(a)
    assert cls is not State and cls.__mro__[1] is State and cls.__name__ == "State" and cls.__slots__ == ()
    assert type(a.clone()) is cls and type(c.state_from_json(a.to_json())) is cls
    spare = py.new_state(2, seed=1)  # a plain State made the copy: of the copy's class
    assert type(a.clone(into=spare)) is cls and spare == a and spare.clone(into=a) is a and type(a) is cls
    lazy = c.new_state(2, seed=4, lazy=True)
    assert type(lazy) is State and type(lazy.clone()) is State and lazy == a
    for state in (a, spare, lazy):
        state.apply_index(1)
    assert a == spare == lazy and a.history == spare.history == lazy.history


@pytest.mark.parametrize("after", ["n = 5 // (n - 1)", "let x = 1\nloop { x = 1 - x }", "call deeper(1)"])
def test_an_action_that_goes_wrong_in_c_fails_as_in_python(tmp_path: Path, after: str) -> None:
    # the error of the run after the action, raised by apply_index in C as by the Python method: the same
    # RuleError at the same place, caused by the same error (none for a run out of steps or calls too deep)
    procs = (f"procedure play {CITE} {{\n choose by first_player {{ \"go\" {CITE} {{ }} }}\n {after}\n}}\n"
             f"procedure deeper(k: int) {CITE} {{\n call deeper(k + 1)\n}}\n")
    (tmp_path / "a.rules").write_text(HEADER + procs, encoding="utf-8")
    c, py = both(tmp_path)
    failures = []
    for game in (c, py):
        state = game.new_state(2)
        assert _methods_in_c(state) == [game is c] * len(LOOP_METHODS)
        with pytest.raises(RuleError) as caught:
            state.apply_index(0)
        err = caught.value
        failures.append((err.message, err.pos, err.citations, type(err.__cause__), type(err.__context__),
                         err.__suppress_context__))
    assert failures[0] == failures[1]


def test_the_c_back_end_writes_the_history_when_it_is_read() -> None:
    c, py = both(SPECS / "nim")
    a, b = c.new_state(2, seed=4), py.new_state(2, seed=4)
    for _ in range(3):
        a.apply_index(0)
        b.apply_index(0)
    assert any(type(entry) is tuple for entry in a._history)  # options kept, not texts
    copy = a.clone()
    assert a.history == b.history == ["take 1"] * 3 and all(type(t) is str for t in a._history)
    assert copy.history == a.history and copy.to_json() == a.to_json() == b.to_json()


@pytest.mark.parametrize("domain", ["[none, 1]", "[1, none]"])
def test_an_option_binding_none_is_taken_alike_in_c(tmp_path: Path, domain: str) -> None:
    choose = 'choose by first_player { "take" k in ' + domain + " " + CITE + " { } }"
    body = f"{choose}\n{choose}\nfinish [first_player]"
    (tmp_path / "a.rules").write_text(HEADER + f"procedure play {CITE} {{\n{body}\n}}\n", encoding="utf-8")
    c, py = both(tmp_path)
    assert c.native_runners[0] is not None
    outcomes = []
    for game in (c, py):
        state = game.new_state(2)
        taken = []
        for index in (1, 0):
            try:
                state.apply_index(index)
                taken.append(state.history[-1])
            except RuleError as err:
                taken.append((err.message, err.pos, err.citations))
        outcomes.append((taken, state.to_json()))
    assert outcomes[0] == outcomes[1] and "take -" in outcomes[0][0]


def test_states_of_several_player_counts_interleaved_and_cloned_in_c_stay_as_in_python() -> None:
    # the C mirrors of a table remember the order of its keys, per player count (a seat key's index)
    rattus = Path(__file__).parents[2] / "spec" / "rattus"
    c, py = both(rattus)
    assert c.native_runners[0] is not None
    pairs = [(c.new_state(n, seed=n), py.new_state(n, seed=n)) for n in (2, 3, 4, 2)]
    rng = random.Random(7)
    for step in range(120):
        a, b = pairs[step % len(pairs)]
        if a.is_terminal():
            continue
        i = rng.randrange(a.num_legal_actions())
        copy = a.clone()
        a.apply_index(i)
        b.apply_index(i)
        assert a.to_json() == b.to_json()
        assert copy.to_json() != a.to_json() and copy.clone().to_json() == copy.to_json()
        copy.apply_index(i)  # the copy goes its own way, to the same place
        assert copy.to_json() == a.to_json()


def test_a_construct_c_does_not_write_is_named_and_refused_with_c(tmp_path: Path) -> None:
    body = ('let l = [1, 2] + [3]\nif startswith("ab", "a") { n = 2 }\n'
            'choose by first_player { "take" k in l ' + CITE + " { n = k } }\nfinish [first_player]")
    (tmp_path / "a.rules").write_text(HEADER + f"procedure play {CITE} {{\n{body}\n}}\n", encoding="utf-8")
    with pytest.raises(SpecError, match=r"RULES_BACKEND=c: the C back end does not write the builtin startswith yet") \
            as caught:
        load_spec(tmp_path, backend="c")
    assert caught.value.diagnostics[0].pos.line == 10
    c, py = both(tmp_path)
    report = c.backend()
    assert report.backend == "c+python" and 0 < report.native < report.functions
    assert "the builtin startswith" in report.describe()
    play_in_lockstep(c, py, 2, 1)


def test_a_long_loop_within_the_budget_runs_on_both(tmp_path: Path) -> None:
    body = "let x = 0\nfor i in 1 .. 2000 { x = x + i }\nn = x"
    (tmp_path / "a.rules").write_text(HEADER + f"procedure play {CITE} {{\n{body}\nfinish [first_player]\n}}\n",
                                      encoding="utf-8")
    c, py = both(tmp_path)
    assert c.backend().backend == "c"
    assert c.new_state(2).to_json() == py.new_state(2).to_json()
    assert c.new_state(2).to_json()["vals"]["n"] == [[[], 2001000]] and STEP_LIMIT > 2000


def test_the_back_end_is_chosen_by_keyword_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="RULES_BACKEND"):
        native.chosen("fortran")
    monkeypatch.setenv(native.BACKEND_ENV, "python")
    assert load_spec(SPECS / "nim").backend().backend == "python"
    monkeypatch.setenv(native.BACKEND_ENV, "c")
    assert load_spec(SPECS / "nim").backend().backend == "c"
    assert load_spec(SPECS / "nim", backend="python").backend().backend == "python"


def test_without_a_compiler_auto_runs_python_and_c_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "toolchain", lambda: "no C compiler (gcc) found")
    report = load_spec(SPECS / "nim", backend="auto").backend()
    assert report.backend == "python" and "no C compiler" in report.describe()
    with pytest.raises(SpecError, match="no C compiler"):
        load_spec(SPECS / "nim", backend="c")


# ------------------------------------------------------------- the cache

def _module_source(name: str, marker: int) -> str:
    return ("#include <Python.h>\n"
            f"static struct PyModuleDef d = {{PyModuleDef_HEAD_INIT, \"{name}\", NULL, -1, NULL}};\n"
            f"PyMODINIT_FUNC PyInit_{name}(void) {{ PyObject *m = PyModule_Create(&d); "
            f"if (m) PyModule_AddIntConstant(m, \"marker\", {marker}); return m; }}\n")


def test_a_module_is_cached_privately_and_loaded_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULES_CACHE_DIR", str(tmp_path / "cache"))
    name = f"rules_test_cached_{os.getpid()}"
    built = native.build_and_load(_module_source(name, 1), name, name)
    assert not built.cached and built.module.marker == 1
    entry = tmp_path / "cache" / "native" / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    assert entry.is_file() and entry.stat().st_mode & 0o077 == 0
    assert (tmp_path / "cache" / "native").stat().st_mode & 0o077 == 0


def test_a_module_others_could_write_is_never_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    name = f"rules_test_planted_{os.getpid()}"
    # a working module of the right name, made elsewhere and planted in the cache writable by others
    monkeypatch.setenv("RULES_CACHE_DIR", str(tmp_path / "elsewhere"))
    planted = native.build_and_load(_module_source(name, 666), name, "planted-" + name)
    assert planted.module.marker == 666
    monkeypatch.setenv("RULES_CACHE_DIR", str(tmp_path / "cache"))
    folder = native.native_folder()
    assert folder is not None
    entry = folder / f"{name}{suffix}"
    entry.write_bytes((tmp_path / "elsewhere" / "native" / f"{name}{suffix}").read_bytes())
    entry.chmod(0o666)
    assert not native._safe_file(entry)
    built = native.build_and_load(_module_source(name, 1), name, name)
    assert not built.cached and built.module.marker == 1  # built afresh, the planted one never loaded


def test_a_folder_others_can_write_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    (shared / "native").mkdir(parents=True)
    (shared / "native").chmod(0o777)
    monkeypatch.setenv("RULES_CACHE_DIR", str(shared))
    assert native.native_folder() is None
    (shared / "native").chmod(0o700)
    assert native.native_folder() == shared / "native"
    link = tmp_path / "link"
    link.symlink_to(shared / "native")
    assert not native._safe_folder(link)
    name = f"rules_test_shared_{os.getpid()}"
    (shared / "native").chmod(0o777)
    built = native.build_and_load(_module_source(name, 3), name, name)
    assert built.module.marker == 3 and not list((shared / "native").iterdir())  # built privately, not cached


def _take_game(tmp_path: Path) -> tuple[Game, Game]:
    """A game whose listing reads tables (n, m, who) that Python may change in place: on C and on Python."""
    body = ('loop { choose by first_player { "take" k in 1 .. n where m[0] + k > 0 and (who == none or k > 1) '
            + CITE + " { n += k\nm[0] += 1 } }\nif n > 1000000 { finish [first_player] } }")
    (tmp_path / "a.rules").write_text(HEADER + f"procedure play {CITE} {{\n{body}\n}}\n", encoding="utf-8")
    return both(tmp_path)


def test_a_state_changed_in_place_from_python_is_read_afresh(tmp_path: Path) -> None:
    # the C code keeps arrays mirroring the state's tables (see crt.h); a table changed by Python in
    # place (an edit, a tool) must be read anew, never from a stale mirror
    c, py = _take_game(tmp_path)
    assert c.backend().backend == "c"
    a, b = c.new_state(2), py.new_state(2)
    other = c.new_state(2)  # a second state of the same game, played in between
    for step in range(6):
        other.apply_index(0)
        a.apply_index(a.num_legal_actions() - 1)
        b.apply_index(b.num_legal_actions() - 1)
        for st in (a, b):
            st.vals["n"][None] += 3 * step
            st.vals["m"][0] -= 2
            st.vals["who"][None] = None if step % 2 else 0  # read by the listing, never written by C
        a.apply_index(0)
        b.apply_index(0)
        assert a.to_json() == b.to_json() and a.legal_action_texts() == b.legal_action_texts()


def test_a_clone_whose_tables_change_before_it_runs_is_read_afresh(tmp_path: Path) -> None:
    # State.clone in C hands the mirrors of the parent's tables to the last copy made (crt.h rt_mirror_twin):
    # that copy, or its parent, changed by Python in place after the copy was made must be read as it is now
    c, py = _take_game(tmp_path)
    assert c.backend().backend == "c"
    a, b = c.new_state(2), py.new_state(2)
    for step in range(8):
        a.apply_index(a.num_legal_actions() - 1)
        b.apply_index(b.num_legal_actions() - 1)
        other = (a.clone(), b.clone())
        last = (a.clone(), b.clone())
        if step % 2:
            for st in last:  # the last copy changed before it runs
                st.vals["m"][0] -= step
                st.vals["n"][None] += step
                st.vals["who"][None] = 0 if st.vals["who"][None] is None else None  # read, never written, by C
        else:
            for st in (a, b):  # the parent changed after it was copied: the copies keep what it was
                st.vals["m"][0] += 5
                st.vals["who"][None] = 0 if st.vals["who"][None] is None else None
        for x, y in (last, other, (a, b)):
            x.apply_index(0)
            y.apply_index(0)
            assert x.to_json() == y.to_json() and x.legal_action_texts() == y.legal_action_texts(), step


def test_a_new_state_shares_no_list_with_the_start_later_states_copy(tmp_path: Path) -> None:
    # Game.new_state copies a start made by the first new state of those players and settings (game._Start):
    # that first state, or a clone of it, changed by Python in place (as the tests above change states) must
    # not change what a later new state starts from
    body = 'loop { choose by first_player { "take" k in 1 .. 2 ' + CITE + " { n += k } }\nfinish [first_player] }"
    spec = HEADER + f"var bag[player] = [1, 2] {CITE}\nprocedure play {CITE} {{\n{body}\n}}\n"
    (tmp_path / "a.rules").write_text(spec, encoding="utf-8")
    for game in both(tmp_path):
        first = game.new_state(2, seed=5)
        expected = json.loads(json.dumps(first.to_json()))  # (to_json shares the state's lists)
        first.vals["bag"][0].append(7)
        first.clone().vals["bag"][1].append(8)
        first.vals["m"][1] += 3
        again = game.new_state(2, seed=5)
        assert again.to_json() == expected and again.vals["bag"] == {0: [1, 2], 1: [1, 2]}
        again.vals["bag"][0].append(9)
        assert game.new_state(2, seed=5).to_json() == expected


@pytest.mark.parametrize("winners, in_python", [
    ("[next(first_player), first_player, next(first_player)]", False), ("[]", False),
    ("[who]", True), ("[first_player, who]", True), ("[next(who)]", False)])
def test_a_finish_reached_in_c_ends_the_game_as_in_python(tmp_path: Path, winners: str, in_python: bool,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # the C run loop takes a finish itself (the winners sorted, once each) where its winners are seats (or it
    # fails), and leaves anything else to the Python loop, which refuses it: the same winners, or the same
    # RuleError, and the same state after it
    procs = f'procedure play {CITE} {{\n choose by first_player {{ "go" {CITE} {{ }} }}\n finish {winners}\n}}\n'
    (tmp_path / "a.rules").write_text(HEADER + procs, encoding="utf-8")
    c, py = both(tmp_path)
    python_runs = []
    python_run = State._run_python
    monkeypatch.setattr(State, "_run_python", lambda st: python_runs.append(type(st)) or python_run(st))
    outcomes: list[tuple[Any, ...]] = []
    for game in (c, py):
        state = game.new_state(2)
        python_runs.clear()
        try:
            state.apply_index(0)
            outcomes.append((state.winner(), state.frames, state.is_terminal(), state.to_json()))
        except RuleError as err:
            outcomes.append((err.message, err.pos, err.citations, type(err.__cause__), state.to_json()))
        if game is c:  # the finish was taken by the Python loop only where the winners are not all seats
            assert bool(python_runs) == in_python
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("spec, players", [("rattus", 4), ("nim", 3)])
def test_a_new_state_copied_from_the_first_is_the_state_made_afresh(spec: str, players: int) -> None:
    # Game.new_state copies the first position of the first new state of those players and settings (the
    # run to it draws nothing), with the seed's generator: the same state as one made afresh (a state that
    # checks its invariants is never a copy), undone back to the same start; a copy changed in place (as
    # Python may change a state) changes no later one
    root = Path(__file__).parents[2] / "spec" / spec
    for game in both(root if root.is_dir() else SPECS / spec):
        afresh = {seed: game.new_state(players, seed=seed, check_invariants=True) for seed in (1, 2, 3)}
        expected = {seed: json.loads(json.dumps(st.to_json())) for seed, st in afresh.items()}
        for seed in (1, 2, 3, 2):
            st = game.new_state(players, seed=seed)
            assert st.to_json() == expected[seed] and type(st) is game.state_class(st.variant)
            for table in st.zones.values():
                for pieces in table.values():
                    pieces.append(pieces[0] if pieces else 0)
            for table in st.vals.values():
                table.clear()
            st.frames[-1][2]["changed"] = 1
            played = game.new_state(players, seed=seed, resolve_setup_chance=True)
            afresh[seed].advance_chance()
            assert played.to_json() == afresh[seed].to_json()
            rng = random.Random(seed)
            for _ in range(6):
                if not played.is_terminal():
                    played.apply_index(rng.randrange(played.num_legal_actions()))
            assert played.undoable() > 0
            while played.undoable():
                played.undo()
            assert played.to_json() == expected[seed]
        assert list(game._begun) == [(players, None)]  # (copied from the first new state)


def test_a_number_past_the_bound_in_a_listing_is_a_rule_error_on_both(tmp_path: Path) -> None:
    # every number the rules compute is within 2**63-1, a sum only compared too (docs/language.rst,
    # "Numbers"): the listing fails on both, at the same place, with the same words
    body = ("n = 6000000000000000000\nloop { choose by first_player { \"take\" k in 1 .. 3 where "
            f"sum(i in [n, n]: i) > k {CITE} {{ m[0] += k }} }}\nif m[0] > 5 {{ finish [first_player] }} }}")
    (tmp_path / "a.rules").write_text(HEADER + f"procedure play {CITE} {{\n{body}\n}}\n", encoding="utf-8")
    errors: list[Any] = []
    for game in both(tmp_path):
        with pytest.raises(RuleError, match="a number larger than 9223372036854775807: 12000000000000000000") as err:
            game.new_state(2).legal_action_texts()
        errors.append((err.value.message, err.value.pos, err.value.citations))
    assert errors[0] == errors[1] and errors[0][1].line == 10  # the filter


WORLDS_SPEC = '''game g "G" cite src "S" "x"
source src "A source"
players 2 to 4
table spots from "spots.csv" { key spot: text column least: int cite src "S" "x" }
table links from "links.csv" { column a: spots column b: spots cite src "S" "x" }
graph paths on spots edges links(a, b) where row.least <= player_count cite src "S" "x"
main play
procedure play cite src "S" "x" {
  choose by first_player {
    "go" s in nodes(paths) where size(connected(paths, s, [t for t in nodes(paths) where t != "s1"])) > 1
      cite src "S" "x" { }
  }
  finish [first_player]
}
'''

# Two threads list the options of the same compiled module over two worlds (two player counts), each loop
# over `nodes(paths)` calling Python (`connected`) for each node, the interpreter switching threads as
# often as it can: each listing must be the one the Python back end gives.
WORLDS_CHILD = '''
import sys, threading
from pathlib import Path
from interpreter import load_spec
folder = Path(sys.argv[1])
c, py = load_spec(folder, backend="c"), load_spec(folder, backend="python")
assert c.native_runners.get(0) is not None
want = {n: py.new_state(n, seed=1).legal_action_texts() for n in (2, 4)}
assert want[2] != want[4]
wrong = []
def play(n):
    for _ in range(400):
        got = c.new_state(n, seed=1).legal_action_texts()
        if got != want[n]:
            wrong.append((n, got))
sys.setswitchinterval(1e-6)
threads = [threading.Thread(target=play, args=(n,)) for n in (2, 4, 2, 4)]
for t in threads: t.start()
for t in threads: t.join()
print("wrong" if wrong else "ok", wrong[:2])
'''


def test_node_loops_of_two_worlds_in_two_threads_read_their_own_nodes(tmp_path: Path) -> None:
    # crt.h's node indexes (now rt_world_graph's arrays) were freed when another world came, while a loop of
    # another thread still read them (its body had called Python): run in a child process, as a crash would end it
    import subprocess
    import sys

    spots = [(f"s{i}", 2 if i < 12 else 4) for i in range(30)]
    (tmp_path / "spots.csv").write_text("spot,least\n" + "".join(f"{s},{k}\n" for s, k in spots), encoding="utf-8")
    links = [(f"s{i}", f"s{i + 1}") for i in range(29)] + [(f"s{i}", f"s{i + 3}") for i in range(0, 27, 2)]
    (tmp_path / "links.csv").write_text("a,b\n" + "".join(f"{a},{b}\n" for a, b in links), encoding="utf-8")
    (tmp_path / "a.rules").write_text(WORLDS_SPEC, encoding="utf-8")
    load_spec(tmp_path, backend="c")  # (built here, once)
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", WORLDS_CHILD, str(tmp_path)], capture_output=True, text=True,
                          timeout=300, cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ok"), done.stdout[-2000:]


class _Int(int):
    """A number of a type of its own (equal to the plain int)."""


def _look_alikes(option: Any) -> list[Any]:
    """The option, and values equal or near to it that a caller of ``options.index`` may hand in."""
    out: list[Any] = [option, list(option), (option[0], list(option[1])), (option[0] + 1, option[1]),
                      (True if option[0] == 1 else option[0], option[1]), (option[0], option[1] + (1,)),
                      (option[0], option[1][:-1]), (option[0], (*option[1], None)[:len(option[1])])]
    for k, v in enumerate(option[1]):
        others: list[Any] = [None, "zz", -1, 2**70, 1.0 * v if type(v) is int else v, _Int(v) if type(v) is int else v]
        if type(v) is bool:
            others += [int(v), 1 - int(v), not v]
        elif type(v) is int:
            others += [bool(v), v + 1, -2**63]
        for w in others:
            out.append((option[0], option[1][:k] + (w,) + option[1][k + 1:]))
    return out


def _python_index(options: list[Any], option: Any) -> int:
    try:
        return options.index(option)
    except ValueError:
        return -1


def _very_same(a: Any, b: Any) -> bool:
    """Whether two options are equal and each value of the same type."""
    return a == b and all(type(x) is type(y) for x, y in zip(a[1], b[1]))


KINDS_SPEC = HEADER + f"""procedure play {CITE} {{
  loop {{
    choose by first_player {{
      "wrap" bow in [true, false], k in [3, 1, -2] {CITE} {{ n += 1 }}
      "sing" words in ["la", "li"], q in players {CITE} {{ n += 2 }}
      "wait" q in [who, first_player] {CITE} {{ n += 1 }}
    }}
    if n > 6 {{ finish [first_player] }}
  }}
}}
"""


@pytest.mark.parametrize("spec", ["nim", "kinds", "rattus", "ratten_scharf"])
def test_options_are_found_by_value_as_a_list_finds_them(tmp_path: Path, spec: str) -> None:
    # the C options' index() reads the values of the option asked for (no tuple made per option): it must find
    # exactly what == finds in a list of the options, for values of every kind, near misses and look-alikes;
    # find() answers the same where it answers, and finds only an option of the very same values
    if spec == "kinds":
        (tmp_path / "a.rules").write_text(KINDS_SPEC, encoding="utf-8")
    folder = {"kinds": tmp_path, "nim": SPECS / "nim"}.get(spec, SPECS.parents[2] / "spec" / spec)
    game = load_spec(folder, backend="c")
    seen = 0
    for seed in range(3):
        state = game.new_state(game.min_players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert state.pending is not None
            options = state.pending.options
            if type(options).__name__ == "Options":
                listed = list(options)
                for option in listed[:6] + listed[-3:]:
                    for asked in _look_alikes(option):
                        try:
                            found = options.index(asked)
                        except ValueError:
                            found = -1
                        assert found == _python_index(listed, asked), (option, asked)
                        at = options.find(asked)
                        assert at is None or at == found, (option, asked, at)
                        assert at is None or at < 0 or _very_same(listed[at], asked), (option, asked)
                        assert at is not None or asked is not option  # (an option as listed is always answered)
                        seen += 1
            state.apply_index(rng.randrange(state.num_legal_actions()))
    assert seen > 100


SWAPS = f'''game g "G" {CITE}
source src "A source"
players 2 to 3
main play
table boxes from "boxes.csv" {{
  key id: text
  {CITE}
}}
pieces box from boxes in pile {CITE}
zone pile of box public
zone shelf[player] of box public
counter turns = 0
scope turn
scope round
limit grab[player] once per turn {CITE}
limit shuffle[player] once per round {CITE}
procedure play {CITE} {{
  loop {{
    begin round
    for p in players {{
      begin turn
      say "A turn begins."
      turns += 1
      if turns > 40 {{ finish [p] }}
      choose by p {{
        "give" b in pieces(pile) where grab[p] {CITE} {{ use grab[p]
          move b to shelf[p] }}
        "trade" a in pieces(pile), c in pieces(shelf[p]) {CITE} {{ swap a with c }}
        "mix" a in pieces(pile), c in pieces(pile) where shuffle[p] {CITE} {{ use shuffle[p]
          swap a with c }}
        "keep" a in pieces(shelf[p]) {CITE} {{ swap a with a }}
        "pass" {CITE} {{ }}
      }}
    }}
  }}
}}
'''


def _swaps_game(tmp_path: Path) -> tuple[Game, Game]:
    (tmp_path / "boxes.csv").write_text("id\nA\nB\nC\nD\nE\n", encoding="utf-8")
    (tmp_path / "a.rules").write_text(SWAPS, encoding="utf-8")
    return both(tmp_path)


@pytest.mark.parametrize("log", [False, True])
def test_swaps_scopes_and_sayings_in_c_play_as_in_python(tmp_path: Path, log: bool) -> None:
    # `swap`, `begin` and `say` are done in C (crt.h rt_swap, rt_begin_scope, rt_log_on): the same states
    c, py = _swaps_game(tmp_path)
    assert c.backend().backend == "c"
    for seed in range(8):
        a, b = c.new_state(2 + seed % 2, seed, log=log), py.new_state(2 + seed % 2, seed, log=log)
        rng = random.Random(seed)
        while not a.is_terminal():
            assert a.to_json() == b.to_json() and a.legal_action_texts() == b.legal_action_texts()
            i = rng.randrange(a.num_legal_actions())
            a.apply_index(i)
            b.apply_index(i)
        assert a.to_json() == b.to_json() and (a.log == b.log) and (bool(a.log) == log)


@pytest.mark.parametrize("damage", ["place", "used", "missing", "stray"])
def test_a_swap_or_scope_on_data_c_does_not_expect_is_left_to_python(tmp_path: Path, damage: str) -> None:
    # a state changed from Python into data of other kinds: C hands the statement to the State's method
    c, py = _swaps_game(tmp_path)
    outcomes: list[Any] = []
    for game in (c, py):
        state = game.new_state(2, 3)
        for piece in range(len(state.loc)):
            if damage == "place":  # a place as a list, not a tuple: Python unpacks it all the same
                state.loc[piece] = list(state.loc[piece])
            if damage == "stray":  # a place whose zone does not hold the piece: a move or swap of it fails alike
                state.loc[piece] = ("shelf", 1)
        if damage == "used":
            state.used["grab"] = frozenset(state.used["grab"])  # no clear(): an error at `begin turn`
        if damage == "missing":
            state.zones["pile"] = {}  # no pile: swap cannot find it
        taken: list[Any] = []
        rng = random.Random(3)
        for _ in range(30):
            try:
                state.apply_index(rng.randrange(state.num_legal_actions()))
                taken.append(state.history[-1])
            except RuleError as err:
                taken.append((err.message, err.pos, err.citations))
                break
        outcomes.append((taken, state.to_json() if damage == "place" else None))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("edit", ["taken out", "sets anew", "limits anew", "put back"])
def test_a_scope_begun_after_python_changed_its_limits_clears_what_python_clears(tmp_path: Path, edit: str) -> None:
    # C remembers the sets a scope's beginning clears (crt.h rt_scope_live) while the state's scope_limits and used
    # dicts are unchanged and the scope's list holds the same names: limits changed from Python are read afresh
    def edited(st: State, step: int) -> None:
        if step % 3 != 2:
            return
        if edit == "taken out":  # the turn's list emptied in place: grab is no longer made available
            st.scope_limits["turn"].clear()
        elif edit == "sets anew":
            st.used = {name: set(used) for name, used in st.used.items()}
        elif edit == "limits anew":
            st.scope_limits = {name: list(limits) for name, limits in st.scope_limits.items()}
        elif step % 2:  # taken out and put back, in place
            st.scope_limits["turn"].clear()
        else:
            st.scope_limits["turn"].append("grab")

    _swaps_in_lockstep(tmp_path, edited)


def _swaps_in_lockstep(tmp_path: Path, edited: Callable[[State, int], None]) -> None:
    """The swaps game on both back ends in lockstep, each state edited from Python (``edited(state, step)``)
    before each step; the states' JSON and legal actions compared after each."""
    c, py = _swaps_game(tmp_path)
    assert c.backend().backend == "c"
    for seed in range(4):
        a, b = c.new_state(2, seed), py.new_state(2, seed)
        rng = random.Random(seed)
        step = 0
        while not a.is_terminal():
            edited(a, step)
            edited(b, step)
            i = rng.randrange(a.num_legal_actions())
            a.apply_index(i)
            b.apply_index(i)
            assert a.to_json() == b.to_json() and a.legal_action_texts() == b.legal_action_texts(), (seed, step)
            assert all(type(place) is tuple for place in a.loc), (seed, step)
            step += 1


TABLES = f'''game g "G" {CITE}
source src "A source"
players 2 to 3
main play
table spots from "spots.csv" {{
  key id: text
  {CITE}
}}
counter score[player, spots] = 0
counter heat[spots, player] = 1
counter turns = 0
procedure play {CITE} {{
  loop {{
    for p in players {{
      turns += 1
      if turns > 40 {{ finish [p] }}
      choose by p {{
        "add" s in spots {CITE} {{ score[p, s] += 2
          heat[s, p] -= 1 }}
        "set" s in spots where heat[s, p] > -3 {CITE} {{ score[p, s] = heat[s, p] + turns
          heat[s, p] = 7 }}
        "pass" {CITE} {{ }}
      }}
    }}
  }}
}}
'''


def _tables_edited(state: State, edit: int) -> None:
    """Change a state's tables from Python (as a tool may): equal keys anew, another order, a value, new dicts."""
    score, heat = state.vals["score"], state.vals["heat"]
    if edit == 0:  # the same keys as new (equal) objects, in another order
        state.vals["score"] = {(int(str(p)), str(k)): v for (p, k), v in reversed(list(score.items()))}
    elif edit == 1:  # a key taken out and put back (the dict's order changes), a value changed
        key = next(iter(heat))
        heat[key] = heat.pop(key) + 5
    elif edit == 2:  # all the tables anew
        state.vals = {name: dict(table) for name, table in state.vals.items()}


def test_table_writes_at_keys_a_mirror_holds_change_the_dict_as_in_python(tmp_path: Path) -> None:
    # a write of a counter at keys its mirror holds sets the dict's entry by the key and hash the mirror keeps
    # (crt.h rt_mirror_key): states of 2 and 3 players interleaved (a key's flat index depends on the players),
    # clones played on, and tables changed from Python, end as on the Python back end
    (tmp_path / "spots.csv").write_text("id\nA\nB\nC\n", encoding="utf-8")
    (tmp_path / "a.rules").write_text(TABLES, encoding="utf-8")
    c, py = both(tmp_path)
    assert c.backend().backend == "c"
    games = [(c.new_state(2 + seed % 2, seed), py.new_state(2 + seed % 2, seed), random.Random(seed))
             for seed in range(6)]
    step = 0
    while any(not a.is_terminal() for a, _, _ in games):
        if step % 3 == 1:  # all played on as clones (C copies the last clone's tables from mirrors: rt_mirror_twin)
            games = [(a.clone(), b.clone(), rng) for a, b, rng in games]
        for a, b, rng in games:
            if a.is_terminal():
                continue
            if step % 4 == 3:
                _tables_edited(a, step // 4 % 3)
                _tables_edited(b, step // 4 % 3)
            i = rng.randrange(a.num_legal_actions())
            a.apply_index(i)
            b.apply_index(i)
            assert a.to_json() == b.to_json() and a.legal_action_texts() == b.legal_action_texts(), step
            assert list(a.vals["score"]) == list(b.vals["score"]) and list(a.vals["heat"]) == list(b.vals["heat"])
        step += 1
    assert step > 10


def _zones_edited(state: State, edit: str, step: int) -> None:
    """Change a state's zones from Python (as a tool may) into equal data: new lists, dicts or both."""
    if edit == "lists":  # a zone's lists replaced by copies: the dict of the zone changes
        for zone in state.zones.values():
            for key in list(zone):
                zone[key] = list(zone[key])
    elif edit == "zone":  # a zone's dict replaced by a copy holding the same lists
        state.zones["shelf"] = dict(state.zones["shelf"])
    elif edit == "zones":  # all the zones anew
        state.zones = {name: {key: list(pieces) for key, pieces in zone.items()} for name, zone in state.zones.items()}
    elif edit == "order":  # a zone's list changed in place
        state.zones["pile"][None].reverse()
    elif edit == "clone" and step % 2:  # a clone of it played on in between (its zones copied)
        state.clone().apply_index(0)


@pytest.mark.parametrize("edit", ["lists", "zone", "zones", "order", "clone"])
def test_a_move_after_python_changed_the_zones_reads_them_afresh(tmp_path: Path, edit: str) -> None:
    # C finds a zone's list by its place (zone name and key) from slots it keeps (crt.h "zones by place") while
    # st.zones and the zone's dict are the very ones, unchanged: zones changed from Python are read as they are now
    def edited(st: State, step: int) -> None:
        if step % 3 == 1:
            _zones_edited(st, edit, step)

    _swaps_in_lockstep(tmp_path, edited)


NEIGHBOURS_SPEC = WORLDS_SPEC.replace(
    'where size(connected(paths, s, [t for t in nodes(paths) where t != "s1"])) > 1',
    'where size([t for t in neighbours(paths, s) where t != "s1"]) > 1 \n'
    '      and not any(t in nodes(paths) where t == "s4": adjacent(paths, s, t))'
    ' and first(t in neighbours(paths, s) where t != s) != "s2"')


def test_graph_loops_read_the_world_of_the_state_they_run_on(tmp_path: Path) -> None:
    # the C loops over nodes and neighbours read arrays laid out once per world object: a state given
    # another world (its neighbours in another order, a node left out) lists what the Python back end does
    from interpreter.runtime import World

    spots = [(f"s{i}", 2) for i in range(12)]
    (tmp_path / "spots.csv").write_text("spot,least\n" + "".join(f"{s},{k}\n" for s, k in spots), encoding="utf-8")
    links = [(f"s{i}", f"s{i + 1}") for i in range(11)] + [(f"s{i}", f"s{i + 3}") for i in range(0, 9, 2)]
    (tmp_path / "links.csv").write_text("a,b\n" + "".join(f"{a},{b}\n" for a, b in links), encoding="utf-8")
    (tmp_path / "a.rules").write_text(NEIGHBOURS_SPEC, encoding="utf-8")
    c, py = both(tmp_path)
    assert c.backend().backend == "c"
    a, b = c.new_state(2, seed=1), py.new_state(2, seed=1)
    assert a.legal_action_texts() == b.legal_action_texts() != []
    world = a.world
    turned = {k: list(reversed(v)) for k, v in world.adjacent["paths"].items() if k != "s5"}
    for other in (World({"paths": world.nodes["paths"][::-1]}, {"paths": turned}),
                  World({"paths": world.nodes["paths"]}, {"paths": {**turned, None: ["s3", "s1"]}})):
        for st in (a, b):
            st.world = other
            st.pending = None
            st._run()  # (the frames stand at the decision: it is listed again)
        assert a.legal_action_texts() == b.legal_action_texts(), other


def test_a_local_changed_between_calls_is_read_again(tmp_path: Path) -> None:
    # C holds the locals it read across calls while the procedure's env dict is unchanged (crt.h LocalSlot): a
    # local changed in the dict from outside (here by hand) is read again, as the Python back end reads it
    body = (f"let x = 0\nloop {{ choose by first_player {{ \"take\" k in 1 .. 3 where k > x {CITE} {{ x = x + 0 }} }}\n"
            f"m[0] += 1\nif m[0] > 5 {{ finish [first_player] }} }}")
    (tmp_path / "a.rules").write_text(HEADER + f"procedure play {CITE} {{\n{body}\n}}\n", encoding="utf-8")
    c, py = both(tmp_path)
    assert c.backend().backend == "c"
    a, b = c.new_state(2, seed=1), py.new_state(2, seed=1)
    for x in (2, 1, 1, 0):
        for st in (a, b):
            st.apply_index(0)  # (the continuation reads x and writes it: what C holds stays valid)
            st.frames[-1][2]["x"] = x
            st.pending = None
            st._run()  # (the frames stand at the decision: it is listed again)
        assert a.legal_action_texts() == b.legal_action_texts() == [f"take {k}" for k in range(x + 1, 4)], x


LOCALS = Path(__file__).parents[1] / "backends" / "specs" / "locals"


_SOURCES: dict[Path, str] = {}


def _generated_source(monkeypatch: pytest.MonkeyPatch, folder: Path) -> tuple[Game, Game, str]:
    """The spec loaded on both back ends, and the C source made for it (as built or found in the cache; noted at
    the first load in this process: a spec loaded again is not made again)."""
    build = native.build_and_load

    def noting(source: str, *args: Any) -> Any:
        _SOURCES[folder] = source
        return build(source, *args)

    monkeypatch.setattr(native, "build_and_load", noting)
    c, py = both(folder)
    assert c.backend().backend.startswith("c") and folder in _SOURCES
    return c, py, _SOURCES[folder]


@pytest.mark.parametrize("log", [False, True])
def test_leaf_procedures_with_locals_in_c_play_and_fail_as_in_python(monkeypatch: pytest.MonkeyPatch,
                                                                      log: bool) -> None:
    # the leaves of specs/locals run with their locals as C variables (lpc_*), but for a leaf with an untyped
    # parameter (an env dict, lp_*): the same states, logs, states saved mid-game and loaded again, and the same
    # error (a division by zero after locals were written) leaving the same state.  `ask` waits twice, reading its
    # parameters (held in C as its caller made its env) and the locals it wrote before.  (`tally` as a procedure of its
    # own, never run here, stays Python: it reads a local the checker types none, which C reads in a leaf only.)
    c, py, source = _generated_source(monkeypatch, LOCALS)
    assert "static int lpc_" in source and "static int lp_" in source
    finished = failed = 0
    for seed in range(24):
        players = 2 + seed % 2
        a, b = c.new_state(players, seed, log=log), py.new_state(players, seed, log=log)
        rng = random.Random(seed)
        for step in range(200):
            assert a.to_json() == b.to_json() and a.log == b.log, (seed, step)
            assert a.legal_action_texts() == b.legal_action_texts(), (seed, step)
            if a.is_terminal():
                finished += 1
                assert a.scores() == b.scores()
                break
            if step % 4 == 1:  # saved mid-game (the waiting procedure's locals in its frame) and played on
                a = c.state_from_json(a.to_json())
                if log:
                    a.log = list(b.log)
            i = rng.randrange(a.num_legal_actions())
            errors = []
            for st in (a, b):
                try:
                    st.apply_index(i)
                    errors.append(None)
                except RuleError as err:
                    errors.append((err.message, err.pos, err.citations))
            assert errors[0] == errors[1], (seed, step)
            if errors[0] is not None:
                failed += 1
                assert a.to_json() == b.to_json()
                break
    assert finished > 3 and failed > 3 and (not log or any("tallies" in line for line in b.log))
