"""Both back ends play the same games: random games of Rattus, Ratten Scharf and the toy games under
every switch option, compared step by step with the Python back end (see :mod:`.harness`).

Each game is played at its smallest and largest player count, at the defaults
and with each other option of each switch alone, and under random settings of
all switches.  The C cases skip, saying why, where the C back end is absent or
cannot build; the Python cases check that a state stored as JSON at any step
loads and goes on the same way.
"""

from __future__ import annotations

import random

import pytest

from .harness import BACKENDS, GAMES, game, lockstep, random_settings, switch_options

#: Random games per game and back end, beside one per switch option.
RANDOM_GAMES = 8


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_switch_option_plays_the_same(name: str, backend: str) -> None:
    reference, candidate = game(name, "python"), game(name, backend)
    for i, settings in enumerate(switch_options(reference)):
        for players in sorted({reference.min_players, reference.max_players}):
            lockstep(reference, candidate, players, seed=i, settings=settings)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_settings_play_the_same(name: str, backend: str) -> None:
    reference, candidate = game(name, "python"), game(name, backend)
    for seed in range(RANDOM_GAMES):
        rng = random.Random(seed)
        players = rng.randint(reference.min_players, reference.max_players)
        lockstep(reference, candidate, players, seed=1000 + seed, settings=random_settings(reference, rng))


def test_the_lockstep_notices_a_difference() -> None:
    """The comparison bites: a candidate whose states differ from the reference's fails it."""
    reference = game("nim", "python")

    class Other:
        """The nim game, but its states are one action ahead."""

        def __getattr__(self, attr: str) -> object:
            return getattr(reference, attr)

        def new_state(self, *args: object, **kwargs: object) -> object:
            state = reference.new_state(*args, **kwargs)  # type: ignore[arg-type]
            state.apply_index(0)
            return state

    with pytest.raises(AssertionError, match="the states differ"):
        lockstep(reference, Other(), 2, seed=1, reload=0.0)  # type: ignore[arg-type]
