"""Perft for Rattus: count the legal player-action sequences of a given length.

As in chess engines, ``perft(state, depth)`` walks every legal player action
to the given depth and counts the sequences; comparing counts with another
engine finds differences in legal-move generation quickly.  Chance events met
on the way are resolved, on each branch's own copy of the state, by one of two
rules:

* ``seed``: the state's own random generator (SplitMix64 seeded by the game's
  seed) — reproducible by this engine;
* ``first``: the outcome whose text, with tokens written as faces
  (``draw 1:merchant+monk``), sorts first — reproducible by any engine that
  knows the token table.

Sequences that reach the end of the game before ``depth`` actions are not
counted.

>>> state, _ = start_position(2, seed=1)
>>> perft(state, 1) == state.num_legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from interpreter import State
from interpreter.edit import option_words, procedure_of
from rattus_rules.agents import RandomPlayer
from rattus_rules.api import load_rules
from rattus_rules.faces import face_text
from rattus_rules.records import OMNISCIENT, Recorder

CHANCE_RULES = ("seed", "first")
#: The procedure whose first decision ends setup.
TURN_PROCEDURE = "player_turn"


def first_outcome(state: State) -> int:
    """The index of the chance outcome whose text (tokens as faces) sorts first."""
    game = state.game
    texts = [" ".join(option_words(state, i, lambda t: face_text(game, t))) for i in range(state.num_legal_actions())]
    return min(range(len(texts)), key=texts.__getitem__)


def resolve_chance(state: State, chance: str = "seed") -> None:
    """Resolve chance events until a player decides or the game ends."""
    if chance == "seed":
        state.advance_chance()
        return
    if chance != "first":
        raise ValueError(f"chance is resolved by {' or '.join(CHANCE_RULES)}, not {chance!r}")
    while state.is_chance_node():
        state.apply_index(first_outcome(state))


def start_position(players: int, seed: int = 0, interpretations: Mapping[str, str] | None = None,
                   chance: str = "seed", data: str | None = None) -> tuple[State, dict[str, Any]]:
    """The position after setup, and the omniscient record of setup.

    Setup's chance events follow the chance rule; its player decisions (the
    initial placements) are made by a random player seeded with ``seed``.  The
    record lets another engine rebuild exactly this position.
    """
    game = load_rules(data)
    state = game.new_state(players, seed=seed, settings=interpretations)
    recorder = Recorder(state, OMNISCIENT, seed=seed, source="shipped" if data is None else str(data))
    player = RandomPlayer(seed)
    while not state.is_terminal() and procedure_of(state) != TURN_PROCEDURE:
        if state.is_chance_node():
            index = state.random_chance_index() if chance == "seed" else first_outcome(state)
        else:
            index = player.choose(state)
        recorder.apply(state, index)
    return state, recorder.record


def perft(state: State, depth: int, chance: str = "seed") -> int:
    """How many legal player-action sequences of length ``depth`` start here."""
    if depth < 0:
        raise ValueError("depth must be at least 0")
    if state.is_chance_node():
        state = state.clone()
        resolve_chance(state, chance)
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    total = 0
    for i in range(state.num_legal_actions()):
        child = state.clone()
        child.apply_index(i)
        if depth == 1:
            total += 1
            continue
        total += perft(child, depth - 1, chance)
    return total


def divide(state: State, depth: int, chance: str = "seed",
           started: Callable[[int], None] | None = None, done: Callable[[], None] | None = None) -> dict[str, int]:
    """Perft split by the first action: action text → count of the sequences starting with it.

    ``started(n)`` is told how many first actions there are, ``done()`` after each (for progress bars).
    """
    if depth < 1:
        raise ValueError("divide needs depth at least 1")
    if state.is_chance_node():
        state = state.clone()
        resolve_chance(state, chance)
    texts = state.legal_action_texts()
    if started is not None:
        started(len(texts))
    out = {}
    for i, text in enumerate(texts):
        child = state.clone()
        child.apply_index(i)
        out[text] = perft(child, depth - 1, chance)
        if done is not None:
            done()
    return out
