"""Simple players for simulations: a seeded random player, and random play with a decision bound."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from dataclasses import dataclass

from interpreter import State

#: Player decisions after which a random game is cut off.  Under ``phase-b-optional=yes`` a game can
#: go on forever (docs/rules-as-written.md: every region holds three tokens, no cube on the board,
#: nobody places); random games end long before this bound (a few hundred decisions), so a game that
#: reaches it is reported as cut, not as finished.
DECISION_BOUND = 10_000


class RandomPlayer:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        """The index of the chosen legal action."""
        return self.rng.randrange(state.num_legal_actions())


@dataclass(frozen=True)
class Played:
    """How a random game went: actions applied (decisions and chance outcomes), player decisions, and
    whether it was cut at the decision bound before its end."""

    actions: int
    decisions: int
    cut: bool


def play_random(state: State, seed: int = 0, max_decisions: int | None = DECISION_BOUND,
                step: Callable[[State, int], None] | None = None) -> Played:
    """Play random players (chance from the state's generator) until the game ends or ``max_decisions``
    player decisions were made (``None``: no bound).  ``step(state, index)`` applies each action
    (default ``state.apply_index``), e.g. to record or print it."""
    player = RandomPlayer(seed)
    apply = step or (lambda s, i: s.apply_index(i))
    actions = decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            index = state.random_chance_index()
        else:
            if max_decisions is not None and decisions >= max_decisions:
                return Played(actions, decisions, True)
            index = player.choose(state)
            decisions += 1
        apply(state, index)
        actions += 1
    return Played(actions, decisions, False)


def play_out(state: State, seed: int = 0, max_decisions: int | None = DECISION_BOUND) -> State:
    """Play a game to its end (or to the decision bound: see :func:`play_random`)."""
    play_random(state, seed, max_decisions)
    return state


def _bound(text: str) -> int | None:
    """An option value as a decision bound: a whole number, 0 for none."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value or None


def add_bound_option(parser: argparse.ArgumentParser) -> None:
    """The ``--max-decisions N`` option of the tools that play random games (0: no bound)."""
    parser.add_argument("--max-decisions", type=_bound, default=DECISION_BOUND, metavar="N",
                        help=f"cut a game after N player decisions (default {DECISION_BOUND}; 0: no bound)")


def bound_text(bound: int | None, cut: int | None = None) -> str:
    """How a tool says which decision bound it used, and how many games it cut there."""
    text = (f"decision bound: {bound} player decisions per game" if bound
            else "decision bound: none (a game under phase-b-optional=yes may never end)")
    return text if cut is None else f"{text}; games cut at the bound: {cut}"
