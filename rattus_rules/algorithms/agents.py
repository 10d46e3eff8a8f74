"""Simple players for simulations: a seeded random player, a one-step greedy player, random play with a bound.

Both players know no game: they see only the legal actions, and the greedy
player the spec's ``score`` declaration (:meth:`interpreter.State.scores`).
:data:`AGENTS` names them for the study (``rattus study --agent greedy``).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from interpreter import State

from .ismcts import ISMCTSPlayer, SearchParams, parse_params

#: Player decisions after which a random game is cut off.  Under ``phase-b-optional=yes`` a game can
#: go on forever (docs/rules-as-written.md: a position where nobody can place any more);
#: random games end long before this bound (a few hundred decisions), so a game that
#: reaches it is reported as cut, not as finished.
DECISION_BOUND = 10_000


class Agent(Protocol):
    """A player: picks the index of one of the legal actions."""

    def choose(self, state: State) -> int:
        """The index of the chosen legal action."""


class RandomPlayer:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        """The index of the chosen legal action."""
        return self.rng.randrange(state.num_legal_actions())


class GreedyPlayer:
    """One step ahead on the spec's ``score``: keeps what scores best right after its action.

    For each legal action it applies the action to a copy of the state, lets
    chance events happen on the copy from its own generator (not the game's)
    until the next player decision, and reads the scores there.  It takes the
    action with the highest own score (the spec's ``score``), then the lowest
    best score of the others; among equals it picks at random.  The copy holds
    the whole state, so the look-ahead may see hidden faces: the player is
    stronger than a human at choices whose effect shows at once (which token
    to reveal first), and blind to anything beyond one decision.
    """

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        """The index of the chosen legal action."""
        count = state.num_legal_actions()
        if count == 1:
            return 0
        me = state.current_player
        best: list[int] = []
        best_value: tuple[int, int] | None = None
        for index in range(count):
            look = state.clone()
            look.apply_index(index)
            while look.is_chance_node():
                look.apply_index(self.rng.randrange(look.num_legal_actions()))
            scores = look.scores()
            others = [s for p, s in enumerate(scores) if p != me]
            value = (scores[me], -max(others, default=0))
            if best_value is None or value > best_value:
                best, best_value = [index], value
            elif value == best_value:
                best.append(index)
        return best[0] if len(best) == 1 else self.rng.choice(best)


#: The agents a study or tournament can use, by name: each is made from a seed.  A search takes its
#: settings in its name (:func:`parse_agent`): ``ismcts`` is ``ismcts-200``.
AGENTS: dict[str, Callable[[int], Agent]] = {"random": RandomPlayer, "greedy": GreedyPlayer,
                                             "ismcts": lambda seed: _ismcts(seed, "")}


def _ismcts(seed: int, settings: str) -> Agent:
    return ISMCTSPlayer(seed, parse_params(settings) if settings else SearchParams())


def parse_agent(name: str) -> tuple[str, str]:
    """An agent's name as ``(kind, settings)``: ``greedy`` is ``("greedy", "")``, ``ismcts-500-greedy`` is
    ``("ismcts", "500-greedy")``; ValueError for an unknown kind or settings it does not take."""
    kind, _, settings = name.partition("-")
    if kind not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; one of {', '.join(AGENTS)} (ismcts-ITERATIONS[-ROLLOUT])")
    if settings and kind != "ismcts":
        raise ValueError(f"agent {kind} takes no settings, not {name!r}")
    if settings:
        parse_params(settings)
    return kind, settings


def make_agent(name: str, seed: int) -> Agent:
    """The agent of that name (see :func:`parse_agent`), seeded."""
    kind, settings = parse_agent(name)
    return _ismcts(seed, settings) if settings else AGENTS[kind](seed)


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
