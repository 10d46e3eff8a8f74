"""Fuzzing specs that parse, for any game: play one with random choices, and mutate the values of one.

:func:`play_randomly` loads a spec folder and plays it as far as its rules go,
saving and loading every state on the way; only a :class:`SpecError` with
positions (when it loads) or a :class:`RulesError` (when it runs) may stop it.
:func:`mutate_values` changes what a spec computes without breaking its
syntax: numbers become numbers near the language's bound, operators other
operators of their kind, so the mutated spec mostly loads and plays deep.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

from hypothesis import strategies as st

from interpreter import RulesError, SpecError, load_spec
from interpreter.ast import MAX_INT
from interpreter.checker import MAX_PLAYERS
from interpreter.runtime import State

#: Numbers a mutation writes: small ones, and ones at and near the bound of the language.
NUMBERS = [0, 1, 2, 3, 7, -1, -5, 1000, 2**31, 2**62, MAX_INT, MAX_INT - 1, 10**18]

#: Operators a mutation exchanges for another of the same group.
SWAPS = [["+", "-", "*", "//", "%"], ["==", "!=", "<", "<=", ">", ">="], ["+=", "-="],
         ["and", "or"], ["true", "false"], ["min", "max"], ["all", "any"], ["most", "least"]]
_GROUP = {op: group for group in SWAPS for op in group}
# strings and comments are matched so that nothing inside them is changed
_VALUE = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|\b\d+\b|//|[=!<>+-]=|\.\.|[-+*%<>]|\b[a-z]+\b')


def number_text(n: int) -> str:
    """A number as spec text (a negative one as a negation in brackets)."""
    return f"(-{-n})" if n < 0 else str(n)


def mutate_values(text: str, data: st.DataObject, times: int = 3) -> str:
    """``text`` with one to ``times`` numbers or operators changed, drawn from Hypothesis."""
    for _ in range(data.draw(st.integers(1, times))):
        spots = [m for m in _VALUE.finditer(text) if m.group()[0].isdigit() or m.group() in _GROUP]
        if not spots:
            return text
        m = spots[data.draw(st.integers(0, len(spots) - 1))]
        old = m.group()
        if old[0].isdigit():
            new = number_text(data.draw(st.sampled_from(NUMBERS)))
        else:
            new = data.draw(st.sampled_from([op for op in _GROUP[old] if op != old]))
        text = text[:m.start()] + new + text[m.end():]
    return text


def round_trip(state: State) -> None:
    """A state saved as JSON loads back to a state that saves to the same JSON."""
    text = json.dumps(state.to_json())
    again = state.game.state_from_json(json.loads(text))
    assert json.dumps(again.to_json()) == text


def by_text_too(state: State, index: int) -> dict[str, object] | None:
    """The state after the option at ``index`` is applied by its action text to a clone (as
    JSON), and the same text found at that index: the notation reads back what it wrote.
    None if the option cannot be written (the rule error then comes from ``apply_index``)."""
    try:
        text = state.legal_action_texts()[index]
    except RulesError:
        return None
    assert state.pending is not None
    options = state.pending.options
    found = state.find(text)  # the first of equal options (a domain may hold a value twice)
    assert options[found] == options[index], f"the text {text!r} finds another option"
    other = state.clone()
    other.apply(text)
    return other.to_json()


def play_randomly(folder: Path, seed: int, steps: int = 60, settings: list[dict[str, str]] | None = None) -> None:
    """Load a spec folder and play it with random choices, at its two smallest player counts.

    Each state on the way is saved and loaded again and the invariants are
    checked; each option taken is also taken by its action text, on a clone, to
    the same state; the scores at the end are numbers within the bound.  A spec
    refused at load must say where; a game may stop with a :class:`RulesError`.
    """
    try:
        game = load_spec(folder)
    except SpecError as err:
        for d in err.diagnostics:
            assert d.pos.path and d.pos.line >= 1 and d.pos.column >= 1, d.format()
        return
    assert 1 <= game.min_players <= game.max_players <= MAX_PLAYERS
    rng = random.Random(seed)
    for players in sorted({game.min_players, min(game.min_players + 1, game.max_players)}):
        for chosen in settings or [{}]:
            try:
                state = game.new_state(players, seed=seed, settings=chosen, check_invariants=True)
                round_trip(state)
                for _ in range(steps):
                    if state.pending is None:
                        break
                    if state.pending.player < 0:
                        state.apply_random_chance()
                    else:
                        index = rng.randrange(state.num_legal_actions())
                        by_text = by_text_too(state, index)
                        state.apply_index(index)
                        if by_text is not None:
                            assert by_text == state.to_json(), "applied by text, an option reached another state"
                    round_trip(state)
                    state.assert_invariants("a step")
                for seat in range(players):
                    assert -MAX_INT <= game.score(state, seat) <= MAX_INT
            except RulesError as err:
                assert err.pos.line >= 0, err


class SpecCopy:
    """A private copy of a game's spec folder (with its data), one file of it changed per example."""

    def __init__(self, source: Path, folder: Path) -> None:
        shutil.copytree(source, folder)
        self.folder = folder
        self.files = {f.name: f.read_text(encoding="utf-8") for f in sorted(folder.glob("*.rules"))}

    def play_with_values_changed(self, data: st.DataObject, seed: int, steps: int = 120) -> None:
        """Change values of one spec file (:func:`mutate_values`), :func:`play_randomly`, put the file back."""
        name = data.draw(st.sampled_from(sorted(self.files)))
        (self.folder / name).write_text(mutate_values(self.files[name], data), encoding="utf-8")
        try:
            play_randomly(self.folder, seed, steps=steps)
        finally:
            (self.folder / name).write_text(self.files[name], encoding="utf-8")
