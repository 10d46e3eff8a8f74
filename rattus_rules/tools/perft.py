"""Perft: count the legal player-action sequences of a given length, for any game.

As in chess engines, ``perft(state, depth)`` walks every legal player action
to the given depth and counts the sequences; comparing counts with another
engine finds differences in legal-move generation quickly.  Chance events met
on the way are resolved, on each branch's own copy of the state, by one of two
rules:

* ``seed``: the state's own random generator (SplitMix64 seeded by the game's
  seed) — reproducible by this engine;
* ``first``: the outcome whose text sorts first, with pieces written by the
  game's ``piece_word`` (by default as the game's action texts write them: their
  faces in a game loaded by this package, else ``#key``) — reproducible by any
  engine that writes pieces the same way.

Sequences that reach the end of the game before ``depth`` actions are not
counted.  The last action of a sequence is counted, not applied ("bulk
counting", the usual perft technique): each legal action at depth ``depth - 1``
ends exactly one sequence, so ``perft(state, 1)`` is the number of legal
actions, and only the positions up to ``depth - 1`` actions deep are made.
How a game reaches its first position (setup) is the game's own business;
:func:`perft` starts from any state.

>>> from pathlib import Path
>>> from interpreter import load_spec
>>> game = load_spec(Path(__file__).parents[2] / "tests" / "language" / "specs" / "nim")   # a toy game
>>> state = game.new_state(2, seed=1)
>>> perft(state, 1) == state.num_legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable

from interpreter import Game, State
from interpreter.edit import option_words

CHANCE_RULES = ("seed", "first")
#: The deepest perft a command counts (the ``perft`` command's ``--depth``, the benchmark's ``--perft-depth``): the
#: count grows about tenfold with each step.
MAX_PERFT_DEPTH = 12

#: How a game writes a piece in an outcome's text for the ``first`` rule: (game, piece) → text.
PieceWord = Callable[[Game, int], str]


def piece_key(game: Game, index: int) -> str:
    """A piece as the game's action texts write it (:attr:`interpreter.game.Game.piece_words`: ``#key``
    unless the game was given words, such as faces): the default :data:`PieceWord`."""
    return game.piece_words[index]


def first_outcome(state: State, piece_word: PieceWord | None = None) -> int:
    """The index of the chance outcome whose text (pieces written by ``piece_word``) sorts first."""
    game = state.game
    word = piece_word or piece_key
    texts = [" ".join(option_words(state, i, lambda t: word(game, t))) for i in range(state.num_legal_actions())]
    return min(range(len(texts)), key=texts.__getitem__)


def resolve_chance(state: State, chance: str = "seed", piece_word: PieceWord | None = None) -> None:
    """Resolve chance events until a player decides or the game ends."""
    if chance == "seed":
        state.advance_chance()
        return
    if chance != "first":
        raise ValueError(f"chance is resolved by {' or '.join(CHANCE_RULES)}, not {chance!r}")
    while state.is_chance_node():
        state.apply_index(first_outcome(state, piece_word))


def perft(state: State, depth: int, chance: str = "seed", piece_word: PieceWord | None = None) -> int:
    """How many legal player-action sequences of length ``depth`` start here."""
    if depth < 0:
        raise ValueError("depth must be at least 0")
    if state.is_chance_node():
        state = state.clone()
        resolve_chance(state, chance, piece_word)
    return _count(state, depth, chance, piece_word, [None] * (depth + 1))


def _count(state: State, depth: int, chance: str, piece_word: PieceWord | None, spares: list[State | None]) -> int:
    """:func:`perft` of a state that waits for no chance event.  ``spares[d]`` is a state no longer needed
    that the children at ``d`` actions from the end are copied into (:meth:`State.clone`'s ``into``): one
    state per depth, copied into again for each of its siblings, rather than a new copy made and freed."""
    if depth == 0:
        return 1
    p = state.pending
    if p is None:
        return 0
    if depth == 1:  # bulk counting: each legal action ends one sequence, none needs applying
        return len(p.options)
    total = 0
    child = spares[depth - 1]
    for i in range(len(p.options)):
        child = state.clone(child)
        child.apply_index(i)
        q = child.pending
        if q is not None and q.decision.chance:
            resolve_chance(child, chance, piece_word)
            q = child.pending
        if depth == 2:  # (the last ply counted here: one call fewer per position)
            total += 0 if q is None else len(q.options)
        else:
            total += _count(child, depth - 1, chance, piece_word, spares)
    spares[depth - 1] = child
    return total


def divide(state: State, depth: int, chance: str = "seed", piece_word: PieceWord | None = None,
           started: Callable[[int], None] | None = None, done: Callable[[], None] | None = None) -> dict[str, int]:
    """Perft split by the first action: action text → count of the sequences starting with it.

    ``started(n)`` is told how many first actions there are, ``done()`` after each (for progress bars).
    """
    if depth < 1:
        raise ValueError("divide needs depth at least 1")
    if state.is_chance_node():
        state = state.clone()
        resolve_chance(state, chance, piece_word)
    texts = state.legal_action_texts()
    if started is not None:
        started(len(texts))
    out = {}
    spares: list[State | None] = [None] * depth
    child = None
    for i, text in enumerate(texts):
        child = state.clone(child)
        child.apply_index(i)
        if child.is_chance_node():
            resolve_chance(child, chance, piece_word)
        out[text] = _count(child, depth - 1, chance, piece_word, spares)
        if done is not None:
            done()
    return out
