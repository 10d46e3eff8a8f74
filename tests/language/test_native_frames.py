"""What each decision costs in the C run loop, and that its savings change nothing a user sees.

The C back end keeps the Pending a state let go of (when nothing else holds it) for the next decision,
the option tuples it took for the next time the same option is taken, and makes the locals of a
called procedure from a prepared dict (see interpreter/crt.h: rt_advance_py, rt_pending_spare,
rt_taken; interpreter/cgen.py: call_env).  These tests hold on to the very objects those savings
could touch (a Pending, an option, a procedure's locals, a clone) and compare every state, trail and
undo with the Python back end, the reference.  Where there is no C compiler they skip.
"""

from __future__ import annotations

import random
import weakref
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, load_spec, native
from interpreter.runtime import State

ROOT = Path(__file__).parents[2]
TOOLS = native.toolchain()
pytestmark = pytest.mark.skipif(isinstance(TOOLS, str), reason=f"the C back end cannot run here: {TOOLS}")


def _both(spec: str) -> tuple[Game, Game]:
    """A shipped game (or a test spec) loaded on each back end; the C one must run its loop in C."""
    folder = ROOT / "spec" / spec if (ROOT / "spec" / spec).is_dir() else Path(__file__).parent / "specs" / spec
    c, py = load_spec(folder, backend="c"), load_spec(folder, backend="python")
    assert c.native_runners[0] is not None
    return c, py


def _trail(state: State) -> list[Any]:
    """The options of a state's trail, oldest first, with the exact type of every value."""
    out = []
    cell = state.trail
    while cell is not None:
        b, values = cell[1]
        out.append((cell[2], type(b), b, tuple((type(v), v) for v in values)))
        cell = cell[0]
    return out[::-1]


@pytest.mark.parametrize("spec, players", [("rattus", 4), ("ratten_scharf", 2), ("nim", 2)])
def test_a_pending_held_by_someone_is_never_reused(spec: str, players: int) -> None:
    c, py = _both(spec)
    a, b = c.new_state(players, seed=3), py.new_state(players, seed=3)
    rng = random.Random(3)
    held: list[tuple[Any, Any, list[str]]] = []
    for step in range(80):
        if a.is_terminal():
            break
        p = a.pending
        assert p is not None
        if step % 3 == 0:  # someone holds the Pending (and sees its options) while the state goes on
            held.append((p, p.decision, a.legal_action_texts()))
        if step % 3 == 1:  # or a weak reference to it
            held.append((weakref.ref(p), p.decision, a.legal_action_texts()))
        i = rng.randrange(a.num_legal_actions())
        a.apply_index(i)
        b.apply_index(i)
        assert a.to_json() == b.to_json()
        assert a.pending is not p
    assert len(held) >= 2
    for p, decision, texts in held:
        if isinstance(p, weakref.ref):  # nothing but the state held it: gone, never made another decision's
            assert p() is None
            continue
        assert p.decision is decision and len(p.options) == len(texts)


@pytest.mark.parametrize("spec, players", [("rattus", 4), ("rattus", 2)])
def test_frames_and_budgets_held_by_someone_are_never_reused(spec: str, players: int) -> None:
    # the C run loop keeps the frame lists returns let go of for the next calls (crt.h rt_frame_done, rt_frame_new)
    # and writes the budget left into the int the state holds (rt_budget_kept), each only where nothing else
    # holds it: frames and budgets held from Python keep what they were, as on the Python back end
    c, py = _both(spec)
    a, b = c.new_state(players, seed=5), py.new_state(players, seed=5)
    rng = random.Random(5)
    held: list[tuple[list[Any], list[Any], Any, str]] = []
    for step in range(120):  # (not to the end: a frame the game's end let go of is left as each loop left it)
        if step % 2 == 0:  # all the frames, and the budget, held while the state goes on
            held.append((list(a.frames), list(b.frames), a.budget, str(a.budget)))
        i = rng.randrange(a.num_legal_actions())
        a.apply_index(i)
        b.apply_index(i)
        assert a.to_json() == b.to_json()
    assert len(held) == 60 and not a.is_terminal()
    for frames_a, frames_b, budget, seen in held:
        assert [list(f) for f in frames_a] == [list(f) for f in frames_b]
        assert str(budget) == seen


@pytest.mark.parametrize("spec, players", [("rattus", 4), ("ratten_scharf", 2), ("nim", 2)])
def test_clones_taking_the_same_options_keep_their_own_pending_trail_and_undo(spec: str, players: int) -> None:
    c, py = _both(spec)
    a, b = c.new_state(players, seed=11), py.new_state(players, seed=11)
    rng = random.Random(11)
    copies: list[tuple[State, State, str]] = []
    for step in range(150):
        if a.is_terminal():
            break
        i = rng.randrange(a.num_legal_actions())
        if step % 10 == 4:  # a clone on each back end takes the same option now, the original later
            ca, cb = a.clone(), b.clone()
            ca.apply_index(i)
            cb.apply_index(i)
            copies.append((ca, cb, ca.to_json()))
        a.apply_index(i)
        b.apply_index(i)
        assert a.to_json() == b.to_json()
        assert _trail(a) == _trail(b)
    assert a.undoable() == b.undoable() > 0
    for ca, cb, seen in copies:  # the originals went on: each copy is still what it was
        assert ca.to_json() == cb.to_json() == seen
        assert _trail(ca) == _trail(cb) and ca.legal_action_texts() == cb.legal_action_texts()
    for _ in range(min(12, a.undoable())):  # undo replays the trail the C back end kept
        a.undo()
        b.undo()
        assert a.to_json() == b.to_json() and _trail(a) == _trail(b)
        assert a.legal_action_texts() == b.legal_action_texts()
    i = 0 if a.is_terminal() else a.num_legal_actions() - 1
    if not a.is_terminal():
        a.apply_index(i)
        b.apply_index(i)
        assert a.to_json() == b.to_json() and a.history == b.history


def test_the_same_option_taken_in_many_games_is_written_and_kept_alike() -> None:
    # the C back end keeps an option it took for the next time: across games, seeds and player counts the
    # texts, trails and states stay those of the Python back end
    c, py = _both("rattus")
    for players in (2, 4):
        for seed in range(3):
            a, b = c.new_state(players, seed=seed), py.new_state(players, seed=seed)
            rng = random.Random(seed)
            while not a.is_terminal():
                i = rng.randrange(a.num_legal_actions())
                a.apply_index(i)
                b.apply_index(i)
            assert a.history == b.history and _trail(a) == _trail(b)
            assert a.to_json() == b.to_json() and a.scores() == b.scores()
            assert c.state_from_json(a.to_json()).to_json() == a.to_json()
