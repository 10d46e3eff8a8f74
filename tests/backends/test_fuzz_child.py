"""The spec fuzzer's hook for the other back ends: a child process plays the spec, and dies alone.

:func:`tests.spec_fuzzing.play_randomly` (used by every spec fuzzer) compares
its Python play with a child process running each other back end that runs
here.  These tests check the plumbing on the Python back end (always there),
and that a child killed by a signal fails the test with the signal named.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter import RuleError
from tests.spec_fuzzing import BackendChild, comparable, trace

from .harness import BACKENDS, GAMES, load, running, skip_unless

BROKEN = """game broken "Broken"
  cite book "Rules" "A sentence."
source book "Rules" file "000"
players 2 to 2
  cite book "Rules" "A sentence."
main play
procedure play
  cite book "Rules" "A sentence."
{
  let x = 1 // 0
}
"""


@pytest.fixture(scope="module")
def child() -> Iterator[BackendChild]:
    child = BackendChild("python")
    yield child
    child.close()


@pytest.mark.parametrize("name", ["nim", "gifts"])
def test_a_child_traces_what_this_process_traces(child: BackendChild, name: str) -> None:
    ours = trace(GAMES[name], 3, 40, [{}], "python")
    assert len(ours) > 10 and ours[-1][0] == "end"
    assert child.trace(GAMES[name], 3, 40, [{}]) == ours


def test_spec_and_rule_errors_cross_the_process_boundary(child: BackendChild, tmp_path: Path) -> None:
    (tmp_path / "broken.rules").write_text(BROKEN, encoding="utf-8")
    ours = trace(tmp_path, 1, 10, None, "python")
    assert ours[0][0] in ("spec error", "game")
    assert child.trace(tmp_path, 1, 10, None) == ours
    (tmp_path / "broken.rules").write_text("game", encoding="utf-8")
    assert child.trace(tmp_path, 1, 10, None)[0][0] == "spec error"


def test_a_child_killed_by_a_signal_fails_with_the_signal_named() -> None:
    dying = BackendChild("python", [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"])
    with pytest.raises(AssertionError, match="killed by SIGSEGV") as err:
        dying.trace(GAMES["nim"], 1, 10, None)
    assert "game nim" in str(err.value)  # the spec that did it is shown


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_c_child_traces_what_python_traces(name: str) -> None:
    """The fuzzer's comparison on the shipped and toy games: the C child (auto) plays as Python does."""
    skip_unless("c")
    ours = json.loads(json.dumps(trace(GAMES[name], 5, 80, [{}], "python")))
    assert len(ours) >= 8 and ours[-1][0] == "end"
    assert BackendChild.of("auto").trace(GAMES[name], 5, 80, [{}]) == ours


RANGE_TOO_LONG = """game huge "Huge"
  cite book "Rules" "A sentence."
source book "A book"
players 2 to 2
  cite book "Rules" "A sentence."
main play
procedure play
  cite book "Rules" "A sentence."
{
  loop {
    choose by first_player {
      "take" n in 0 .. count(x in (0 .. 9223372036854775807) where true)
        cite book "Rules" "A sentence."
      {
        finish [first_player]
      }
    }
  }
}
"""


def test_a_range_too_long_to_count_is_refused_in_the_same_words(tmp_path: Path) -> None:
    skip_unless("c")
    (tmp_path / "huge.rules").write_text(RANGE_TOO_LONG, encoding="utf-8")
    ours = trace(tmp_path, 1, 5, None, "python")
    theirs = BackendChild.of("auto").trace(tmp_path, 1, 5, None)
    assert ours[-1][0] == "rule error" and "a range too long to count" in ours[-1][4]
    assert comparable(theirs) == comparable(json.loads(json.dumps(ours)))  # the same place and citations
    assert theirs == json.loads(json.dumps(ours))  # and the same words


def test_the_size_of_a_long_range_is_the_same_on_both_back_ends() -> None:
    """Found by the spec fuzzer: `size(a .. 10**18)` was a number in Python and a rule error in C (fixed)."""
    skip_unless("c")
    folder = Path(__file__).parent / "specs" / "range_size"
    settings = [{}, {"rule": "odd"}]
    ours = comparable(json.loads(json.dumps(trace(folder, 4579, 60, settings, "python"))))
    assert any(entry[0] == "end" for entry in ours)
    assert comparable(BackendChild.of("auto").trace(folder, 4579, 60, settings)) == ours


#: What each option of specs/overflow does: a number past 2**63-1 computed on the way (a sum, a difference,
#: a `sum` aggregate) is a rule error at its statement, even where what follows (`size` of a range, `//`,
#: `%`, a comparison) would bring it back within the bound; a `sum` whose partial sums pass the bound but
#: whose total does not is a number.
OVERFLOW: dict[str, tuple[int, str] | int] = {
    "range": (14, "-18446744073709551614"),
    "halved": (15, "18446744073709551614"),
    "compared": (16, "9223372036854775808"),
    "below": (17, "-9223372036854775808"),
    "sum": 9223372036854775807,
    "overflowing": (19, "9223372036854775808"),
    "small": 1,
}


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_number_past_the_bound_on_the_way_is_the_same_rule_error_on_both_back_ends(backend: str) -> None:
    """Found by the spec fuzzer (seed 1047): `size(0 .. (c0 + c0))` was 0 in Python (unbounded numbers until
    one is kept) and a rule error in C (64 bits); every number the rules compute is now within the bound."""
    skip_unless(backend)
    game = load(Path(__file__).parent / "specs" / "overflow", backend)
    assert running(game) == backend
    outcomes: dict[str, Any] = {}
    for text in game.new_state(2).legal_action_texts():
        state = game.new_state(2)
        try:
            state.apply(text)
            outcomes[text] = state.vals["kept"][None]
        except RuleError as err:
            assert [c.pos.line for c in err.citations] == [err.pos.line, 11], text  # the option's and the procedure's
            outcomes[text] = (err.pos.line, err.message.removeprefix("a number larger than 9223372036854775807: "))
    assert outcomes == OVERFLOW


def test_the_fuzzers_trace_of_a_number_past_the_bound_is_the_same_on_both_back_ends() -> None:
    skip_unless("c")
    folder = Path(__file__).parent / "specs" / "overflow"
    ours = json.loads(json.dumps(trace(folder, 1047, 10, None, "python")))
    assert ours[-1][0] == "rule error"
    assert BackendChild.of("auto").trace(folder, 1047, 10, None) == ours  # the same place, citations and words


def test_a_binding_listed_once_is_charged_and_stuck_as_on_python() -> None:
    """Found by the Ratten Scharf spec fuzzer: a binding that does not read the one just before it
    (specs/reused: `l` does not read `s`) is listed once and reused by the Python back end, charged once
    more and its filter tested once; C listed it per value of `s`, so it was stuck turns earlier (fixed)."""
    skip_unless("c")
    folder = Path(__file__).parent / "specs" / "reused"
    ours = comparable(json.loads(json.dumps(trace(folder, 1, 20, None, "python"))))
    assert [len(entry[1]) for entry in ours[1:-1]] == [66, 246, 966, 3846, 15366, 61446]  # 2 * (wide + 1) * 3
    assert ours[-1][0] == "rule error" and ours[-1][2].endswith("reused.rules:17:5")  # stuck near the limit
    assert comparable(BackendChild.of("auto").trace(folder, 1, 20, None)) == ours
