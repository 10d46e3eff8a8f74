"""Rattus's action texts read back to the same actions (the notation's round trip on the real game)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from interpreter import Game, notation
from rattus_rules import player_label
from rattus_rules.records import seat_label

from ..language.test_notation import ROUND_TRIP, check_round_trip, random_states


@ROUND_TRIP
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(0, 80))
def test_rattus_actions_read_back(rules: Game, players: int, seed: int, steps: int) -> None:
    for state in random_states(rules, players, seed, steps)[-20:]:
        if not state.is_terminal():
            check_round_trip(state)


def test_the_package_writes_seats_by_the_notation() -> None:
    assert player_label is seat_label is notation.seat
