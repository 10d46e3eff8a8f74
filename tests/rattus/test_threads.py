"""One loaded game, many threads (issue 9.2): each plays as it would alone.

A fresh :class:`interpreter.Game` is shared by 8 threads, each playing games
under random switch settings, so that the code for new combinations of
settings is made while other threads play.  Every game must equal the same
game played alone, and no more than :data:`interpreter.game.MAX_VARIANTS`
variants may be made.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from interpreter import Game, load_spec
from interpreter import game as game_module
from rattus_rules.paths import spec_dir

THREADS = 8
GAMES_PER_THREAD = 6

Plan = tuple[int, int, dict[str, str]]  # players, seed, settings


def _plans(game: Game, rng: random.Random, count: int) -> list[Plan]:
    options = {d.ident: [o.value for o in d.options] for d in game.switches.values()}
    return [(rng.choice((2, 3, 4)), rng.randrange(10**6),
             {ident: rng.choice(values) for ident, values in options.items()})
            for _ in range(count)]


def _play(game: Game, plan: Plan) -> dict[str, Any]:
    """A whole game with random players (seeded by the plan); the final state as JSON."""
    players, seed, settings = plan
    rng = random.Random(seed)
    state = game.new_state(players, seed=seed, settings=settings, check_invariants=True)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_index(rng.randrange(state.num_legal_actions()))
    return state.to_json()


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Switch threads very often, so that unsafe code would be caught in the act."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(old)


@pytest.mark.slow
def test_threads_sharing_a_game_play_as_if_alone(busy_switching: None) -> None:
    shared = load_spec(spec_dir())
    rng = random.Random(92)
    plans = [_plans(shared, rng, GAMES_PER_THREAD) for _ in range(THREADS)]
    results: list[list[dict[str, Any] | BaseException]] = [[] for _ in range(THREADS)]
    start = threading.Barrier(THREADS)

    def worker(i: int) -> None:
        start.wait()
        for plan in plans[i]:
            try:
                results[i].append(_play(shared, plan))
            except BaseException as err:  # reported below
                results[i].append(err)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    alone = load_spec(spec_dir())
    for i in range(THREADS):
        for plan, got in zip(plans[i], results[i]):
            assert not isinstance(got, BaseException), f"{plan}: {got!r}"
            assert got == _play(alone, plan), plan
    assert len(shared._programs) <= game_module.MAX_VARIANTS


def test_the_variant_limit_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_module, "MAX_VARIANTS", 4)
    game = load_spec(spec_dir())
    plans = _plans(game, random.Random(7), 12)
    states = [game.new_state(2, seed=seed, settings=settings) for _, seed, settings in plans]
    assert len(game._programs) == 4
    assert len({s.variant for s in states}) <= 4
    for (_, seed, settings), state in zip(plans, states):
        alone = load_spec(spec_dir()).new_state(2, seed=seed, settings=settings)
        assert state.legal_action_texts() == alone.legal_action_texts()
