"""Simple players for simulations: a seeded random player."""

from __future__ import annotations

import random

from interpreter import State


class RandomPlayer:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        """The index of the chosen legal action."""
        return self.rng.randrange(state.num_legal_actions())


def play_out(state: State, seed: int = 0) -> State:
    """Play a game to its end: random players, chance from the state's generator."""
    player = RandomPlayer(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_index(player.choose(state))
    return state
