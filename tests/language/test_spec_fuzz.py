"""Generated specs that parse: whatever they compute, a game only ever stops with an error of the rules.

The mutation tests (``tests/rattus/test_spec_robustness.py``) mostly make
text that does not parse.  These tests write whole specs that do: random
declarations, functions, initial values, scores, invariants, switches,
decisions (binding numbers and lists), chance events, a procedure that waits
for decisions inside a loop and calls itself, lists kept in variables, and
statements built from the grammar, with numbers
drawn near the language's bounds (``interpreter.ast.MAX_INT``).  Each spec is
loaded and played with random choices.  What it may do:

- be refused when it loads, with a :class:`SpecError` whose every diagnostic
  has a position;
- stop a game with a :class:`RulesError` (a spec that goes wrong at run time);
- otherwise play, every state on the way saved as JSON and loaded back to the
  same state, every score a number within the bounds.

Any other exception (``ZeroDivisionError`` out of a score, a number past the
bound stored in a state that then cannot be loaded, a hang) fails the test.
``SPEC_FUZZ_EXAMPLES`` sets the number of specs (default 40).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import RulesError, SpecError, load_spec
from interpreter.ast import MAX_INT
from interpreter.checker import MAX_PLAYERS
from tests.spec_fuzzing import NUMBERS, number_text, play_randomly, round_trip

EXAMPLES = int(os.environ.get("SPEC_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
CITE = 'cite book "Rules" "A sentence."'


class SpecWriter:
    """Writes one random spec that parses, drawing every choice from Hypothesis."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.counters = ["c0", "c1"]
        self.state = True  # whether the expression being written may read game state
        self.seat = True  # whether a seat `p` is in scope
        self.call = True  # whether it may call the function `f`

    def draw(self, strategy: st.SearchStrategy[object]) -> object:
        """One drawn value."""
        return self.data.draw(strategy)

    def pick(self, options: list[str]) -> str:
        """One of ``options``."""
        return str(self.draw(st.sampled_from(options)))

    def number(self) -> str:
        """A number literal, often near the bounds (negative ones written as negations)."""
        return number_text(int(self.draw(st.sampled_from(NUMBERS))))  # type: ignore[call-overload]

    def int_expr(self, depth: int, local: list[str]) -> str:
        """An expression of numbers."""
        leaves: list[Callable[[], str]] = [self.number]
        if self.state:
            leaves += [lambda: self.pick(self.counters), lambda: "k[first_player]"]
        if self.state and self.seat:
            leaves.append(lambda: "k[p]")
        if local:
            leaves.append(lambda: self.pick(local))
        if depth <= 0:
            return self.draw(st.sampled_from(leaves))()  # type: ignore[operator, no-any-return]
        d = depth - 1
        kind = self.pick(["leaf", "leaf", "arith", "arith", "minmax", "abs", "cond", "size", "sum", "count"]
                         + ["f"] * self.call)
        match kind:
            case "leaf":
                return self.draw(st.sampled_from(leaves))()  # type: ignore[operator, no-any-return]
            case "arith":
                op = self.pick(["+", "-", "*", "//", "%"])
                return f"({self.int_expr(d, local)} {op} {self.int_expr(d, local)})"
            case "minmax":
                return f"{self.pick(['min', 'max'])}({self.int_expr(d, local)}, {self.int_expr(d, local)})"
            case "abs":
                return f"abs({self.int_expr(d, local)})"
            case "cond":
                return f"(if {self.bool_expr(d, local)} then {self.int_expr(d, local)} else {self.int_expr(d, local)})"
            case "size":
                return f"size({self.list_expr(d, local)})"
            case "sum":
                return f"sum(x in {self.list_expr(d, local)}: {self.int_expr(d, [*local, 'x'])})"
            case "count":
                return f"count(x in {self.list_expr(d, local)} where {self.bool_expr(d, [*local, 'x'])})"
            case _:
                return f"f({self.int_expr(d, local)})"

    def list_expr(self, depth: int, local: list[str]) -> str:
        """A list of numbers."""
        kind = self.pick(["range", "literal", "comprehension"])
        if kind == "range":
            return f"({self.int_expr(min(depth, 1), local)} .. {self.int_expr(min(depth, 1), local)})"
        if kind == "literal":
            items = [self.int_expr(depth - 1, local) for _ in range(int(self.draw(st.integers(0, 3))))]  # type: ignore[call-overload]
            return f"[{', '.join(items)}]"
        inner = self.list_expr(depth - 1, local)
        return f"[{self.int_expr(depth - 1, [*local, 'y'])} for y in {inner}]"

    def kept_list(self, local: list[str]) -> str:
        """A list to keep or loop over: of numbers, or of lists of numbers."""
        if self.draw(st.integers(0, 2)) == 0:
            return f"[{self.list_expr(1, local)}, {self.list_expr(1, local)}]"
        return self.list_expr(2, local)

    def bool_expr(self, depth: int, local: list[str]) -> str:
        """A condition."""
        d = max(depth - 1, 0)
        kind = self.pick(["compare", "compare", "and", "or", "not", "lit", "switch", "in"])
        match kind:
            case "compare":
                op = self.pick(["==", "!=", "<", "<=", ">", ">="])
                return f"({self.int_expr(d, local)} {op} {self.int_expr(d, local)})"
            case "and" | "or" if depth > 0:
                return f"({self.bool_expr(d, local)} {kind} {self.bool_expr(d, local)})"
            case "not":
                return f"(not {self.bool_expr(d, local)})"
            case "switch":
                return f'(rule == "{self.pick(["plain", "odd"])}")'
            case "in":
                return f"({self.int_expr(d, local)} in {self.list_expr(d, local)})"
            case _:
                return self.pick(["true", "false"])

    def statement(self, depth: int, local: list[str], loops: int = 0) -> str:
        """One statement that does not decide (it may loop, bounded by the step budget)."""
        d = depth - 1
        kind = self.pick(["assign", "assign", "add", "keyed", "if", "for", "let", "while", "keep", "call"]
                         if depth > 0 else ["assign", "add", "keyed", "keep"])
        match kind:
            case "assign":
                return f"{self.pick(self.counters)} = {self.int_expr(2, local)}"
            case "add":
                return f"{self.pick(self.counters)} {self.pick(['+=', '-='])} {self.int_expr(1, local)}"
            case "keyed":
                return f"k[p] {self.pick(['=', '+=', '-='])} {self.int_expr(1, local)}"
            case "keep":
                return f"kept = {self.kept_list(local)}"
            case "call":
                # a procedure that waits for decisions inside a loop: its list and values are kept
                return f"call step(p, {self.int_expr(1, local)}, {self.kept_list(local)})"
            case "if":
                return (f"if {self.bool_expr(1, local)} {{ {self.statement(d, local, loops)} }} "
                        f"else {{ {self.statement(d, local, loops)} }}")
            case "for":
                name = f"i{loops}"
                return f"for {name} in {self.list_expr(1, local)} {{ {self.statement(d, [*local, name], loops + 1)} }}"
            case "let":
                # a local of the statement's own block, used at once
                name = f"v{loops}"
                return f"let {name} = {self.int_expr(1, local)}\n  c1 += {name} % 3"
            case _:
                return f"while {self.bool_expr(1, local)} and c1 < 50 {{ c1 += 1 }}"

    def block(self, depth: int, local: list[str]) -> str:
        """A few statements."""
        count = int(self.draw(st.integers(0, 3)))  # type: ignore[call-overload]
        return "\n    ".join(self.statement(depth, local) for _ in range(count))

    def spec(self) -> str:
        """The whole spec text."""
        low = int(self.draw(st.integers(1, 3)))  # type: ignore[call-overload]
        high = low + int(self.draw(st.integers(0, 2)))  # type: ignore[call-overload]
        if self.draw(st.integers(0, 7)) == 0:
            high = int(self.draw(st.sampled_from([MAX_PLAYERS, MAX_PLAYERS + 1, 10**9])))  # type: ignore[call-overload]
        none: list[str] = []
        self.state = self.seat = self.call = False
        initial = [self.int_expr(1, none) for _ in range(3)]
        self.state = True
        function = self.int_expr(2, ["n"])
        invariant = self.bool_expr(1, none)
        picked = self.kept_list(["depth"])  # in `step`, where there is no `p`
        self.call = self.seat = True
        score = self.int_expr(2, none)
        lo, hi = self.int_expr(1, none), self.int_expr(1, none)
        if self.draw(st.integers(0, 3)):  # mostly a few options, so that games go on
            lo, hi = "0", self.pick(["0", "2", "5"])
        return f'''
game fuzz "Fuzz"
  {CITE}
source book "A book"
players {low} to {high}
  {CITE}
switch rule "Which rule" {{
  default option "plain" "The plain rule." {CITE}
  option "odd" "The odd rule." {CITE}
}}
counter c0 = {initial[0]}
counter c1 = {initial[1]}
counter k[player] = {initial[2]}
counter turns = 0
var kept = none
function f(n: int) = {function}
  {CITE}
invariant sane
  {CITE}
  holds {invariant}
score p = {score}
  {CITE}
main play
procedure step(q: player, depth: int, items)
  {CITE}
{{
  for x in items {{
    choose by q {{
      "pick" y in {picked}
        {CITE}
      {{
        c1 = (c1 + 1) % 100
      }}
      "deeper" when depth > 0 and depth < 40
        {CITE}
      {{
        call step(q, depth + 1, items)
      }}
      "done"
        {CITE}
      {{
        break
      }}
    }}
  }}
}}
procedure play
  {CITE}
{{
  let p = first_player
  loop {{
    choose by p {{
      "take" n in {lo} .. {hi}, m in {self.kept_list(none)}
        {CITE}
      {{
        {self.block(2, ['n'])}
      }}
      "pass" when {self.bool_expr(1, none)}
        {CITE}
      {{
        {self.block(2, none)}
      }}
      "wait"
        {CITE}
      {{
      }}
    }}
    chance "roll" d in 1 .. {self.pick(["1", "6"])}
      {CITE}
    {{
      {self.block(1, ['d'])}
    }}
    turns += 1
    rule last
      {CITE}
    {{
      if turns >= 12 or {self.bool_expr(1, none)} {{
        finish [p]
      }}
    }}
    p = next(p)
  }}
}}
'''


@FUZZ
@given(st.data(), st.integers(0, 2**32))
def test_generated_specs_only_fail_with_spec_or_rule_errors(tmp_path: Path, data: st.DataObject,
                                                            seed: int) -> None:
    (tmp_path / "fuzz.rules").write_text(SpecWriter(data).spec(), encoding="utf-8")
    play_randomly(tmp_path, seed, settings=[{}, {"rule": "odd"}])


def write(tmp_path: Path, text: str) -> Path:
    """A one-file spec folder holding the generator's header and ``text``."""
    (tmp_path / "a.rules").write_text(f'''
game toy "Toy"
  {CITE}
source book "A book"
players 2 to 2
  {CITE}
main play
{text}''', encoding="utf-8")
    return tmp_path


ONE_TURN = f'''
procedure play
  {CITE}
{{
  choose by first_player {{
    "go" {CITE} {{ STEP }}
  }}
  finish [first_player]
}}
'''


def test_a_score_that_cannot_be_computed_is_a_rule_error_at_the_score(tmp_path: Path) -> None:
    game = load_spec(write(tmp_path, f"counter z = 0\nscore p = 1 // z\n  {CITE}\n"
                           + ONE_TURN.replace("STEP", "z = 0")))
    state = game.new_state(2)
    state.apply("go")
    with pytest.raises(RulesError, match="ZeroDivisionError") as err:
        game.score(state, 0)
    assert err.value.pos.line == 9 and err.value.citations


def test_an_initial_value_that_cannot_be_computed_is_a_rule_error_at_its_declaration(tmp_path: Path) -> None:
    game = load_spec(write(tmp_path, "counter z = 0\ncounter y = 1 // (1 - 1)\n" + ONE_TURN.replace("STEP", "z = 1")))
    with pytest.raises(RulesError, match="ZeroDivisionError") as err:
        game.new_state(2)
    assert err.value.pos.line == 9


@pytest.mark.parametrize("start", ["z + 1", "w[first_player]", "size(players) + g()"])
def test_a_start_value_cannot_read_game_state(tmp_path: Path, start: str) -> None:
    # start values are computed before there is any state: the one declared later would be missing
    text = f"counter y = {start}\ncounter z = 0\ncounter w[player] = 0\nfunction g() = z\n  {CITE}\n"
    with pytest.raises(SpecError, match="game state; start values cannot") as err:
        load_spec(write(tmp_path, text + ONE_TURN.replace("STEP", "")))
    assert err.value.diagnostics[0].pos.line == 8


@pytest.mark.parametrize("op", ["+=", "-="])
@pytest.mark.parametrize("target", ["z", "k[first_player]", "v"])
def test_adding_a_number_over_and_over_stops_at_the_bound(tmp_path: Path, op: str, target: str) -> None:
    # each addition is within the bound; their sum is not, and a state holding it could not be loaded
    step = f"for i in 1 .. 3 {{ {target} {op} {MAX_INT} }}"
    if target == "v":
        step = f"let v = 0\n{step}"
    game = load_spec(write(tmp_path, "counter z = 0\ncounter k[player] = 0\n" + ONE_TURN.replace("STEP", step)))
    state = game.new_state(2)
    with pytest.raises(RulesError, match="a number larger than"):
        state.apply("go")


def test_a_single_addition_within_the_bound_is_kept(tmp_path: Path) -> None:
    game = load_spec(write(tmp_path, "counter z = 0\n" + ONE_TURN.replace("STEP", f"z += {MAX_INT}")))
    state = game.new_state(2)
    state.apply("go")
    assert state.vals["z"][None] == MAX_INT
    round_trip(state)


@pytest.mark.parametrize("high, refused", [(MAX_PLAYERS, False), (MAX_PLAYERS + 1, True), (10**9, True)])
def test_player_counts_are_bounded(tmp_path: Path, high: int, refused: bool) -> None:
    folder = write(tmp_path, ONE_TURN.replace("STEP", "")).joinpath("a.rules")
    folder.write_text(folder.read_text(encoding="utf-8").replace("players 2 to 2", f"players 2 to {high}"),
                      encoding="utf-8")
    if not refused:
        assert load_spec(tmp_path).max_players == MAX_PLAYERS
        return
    with pytest.raises(SpecError, match=f"high <= {MAX_PLAYERS}") as err:
        load_spec(tmp_path)
    assert err.value.diagnostics[0].pos.line == 5


def test_a_start_value_past_the_bound_is_a_rule_error(tmp_path: Path) -> None:
    game = load_spec(write(tmp_path, f"counter k[player] = {MAX_INT} + 1\n" + ONE_TURN.replace("STEP", "")))
    with pytest.raises(RulesError, match="a number larger than") as err:
        game.new_state(2)
    assert err.value.pos.line == 8


def test_a_score_past_the_bound_is_a_rule_error(tmp_path: Path) -> None:
    game = load_spec(write(tmp_path, f"score p = {MAX_INT} + 1\n  {CITE}\n" + ONE_TURN.replace("STEP", "")))
    state = game.new_state(2)
    state.apply("go")
    with pytest.raises(RulesError, match="a number larger than"):
        game.score(state, 1)


@pytest.mark.parametrize("step", [f"z = size(0 .. {MAX_INT})", f"for i in (-{MAX_INT}) .. {MAX_INT} {{ z = 1 }}",
                                  f"z = count(y in (0 .. {MAX_INT}) where y == 3)"])
def test_a_range_too_long_for_python_to_count_is_a_rule_error_in_the_language_s_words(tmp_path: Path,
                                                                                       step: str) -> None:
    game = load_spec(write(tmp_path, "counter z = 0\n" + ONE_TURN.replace("STEP", step)))
    state = game.new_state(2)
    with pytest.raises(RulesError, match="a range too long to count") as err:
        state.apply("go")
    assert "ssize_t" not in str(err.value) and err.value.pos.line == 14
