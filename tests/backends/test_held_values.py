"""What the C back end holds or decides early plays as the Python back end computes it afresh.

The C emitter finds a table's array once per listing (not once per read), reads a world's graphs from
arrays, decides conditions on switches when it writes the C of a settings variant, and tests an order of
two numbers for none only where a number may be none.  The toy game ``specs/held`` changes each such value
between two reads: its listings read tables its bodies write (a body writes the table its loop reads), a
limit is used and lifted again within one body, its switch turns conditions on and off, and a number that is
none until an action notes one is compared.  Both back ends must play it alike under every option.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import RulesError

from .harness import BACKENDS, load, lockstep, running, skip_unless, switch_options

HELD = Path(__file__).parent / "specs" / "held"
SEEDS = range(12)


def _ends(backend: str, settings: dict[str, str], players: int) -> list[str]:
    """How each seed's game ends on a back end: "finished", or the rule error's text."""
    game = load(HELD, backend)
    ends = []
    for seed in SEEDS:
        state = game.new_state(players, seed=seed, settings=settings or None)
        try:
            while not state.is_terminal():
                state.apply_index(seed * 7 % state.num_legal_actions())
            ends.append("finished")
        except RulesError as err:
            ends.append(str(err))
    return ends


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_held_game_plays_the_same_under_every_option(backend: str) -> None:
    skip_unless(backend)
    reference, candidate = load(HELD, "python"), load(HELD, backend)
    assert running(candidate) == backend
    for settings in switch_options(reference):
        for players in (2, 3):
            for seed in SEEDS:
                lockstep(reference, candidate, players, seed=seed, settings=settings)


def test_the_held_game_reaches_what_it_tests() -> None:
    """The games reach the order of a none (a rule error) and the end, and each option lists other actions."""
    ends = _ends("python", {}, 2) + _ends("python", {"mode": "odd"}, 2)
    assert "finished" in ends
    assert any("'>' not supported between instances of 'NoneType' and 'int'" in end for end in ends), ends
    game = load(HELD, "python")
    plain = game.new_state(2, seed=0).legal_action_texts()
    odd = game.new_state(2, seed=0, settings={"mode": "odd"}).legal_action_texts()
    assert "take red" in plain and "take red" not in odd  # `open` is decided by the switch


@pytest.mark.parametrize("settings", [{}, {"mode": "odd"}])
def test_the_held_game_ends_the_same_on_both_back_ends(settings: dict[str, str]) -> None:
    """Whole games by a fixed pick, the rule error's words included."""
    skip_unless("c")
    for players in (2, 3):
        assert _ends("c", settings, players) == _ends("python", settings, players)


def test_a_limit_used_and_lifted_in_one_body_is_read_afresh() -> None:
    """`twice` uses a limit, tests it (used: no 5 marks), begins the turn again and tests it (free: one mark)."""
    for backend in BACKENDS:
        skip_unless(backend)
        state = load(HELD, backend).new_state(2, seed=0)
        state.apply("twice red")
        assert state.vals["marks"] == {0: 1, 1: 0}, backend
        assert "take red" in state.legal_action_texts(), backend  # the new turn left red free
