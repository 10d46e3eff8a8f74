"""Both back ends of the language side by side: load a game under a back end, and play two in lockstep.

The Python back end (the generated Python code) is the reference; the C back
end (issue 26) must play the same games.  A back end is chosen with the ``backend``
keyword of :func:`interpreter.load_spec` (or, for the package's own loads, the
environment variable ``RULES_BACKEND``: :func:`selected`).  :func:`unavailable` says why a back end cannot
run here (no C back end in this tree yet, no compiler, a build that fails), and
the tests of that back end skip with the reason.

:func:`lockstep` plays one game on a reference state and a candidate state,
picking every action (chance included) by index with one ``random.Random``,
and compares at every step who decides, the legal action texts, the whole
state as JSON, and at the end the scores and winners.  At random steps the
candidate is replaced by a state its game loads from the reference's JSON, so
that a state stored by one back end goes on in the other the same way; with
the Python back end as candidate, that is what the comparison checks.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, RulesError, SpecError, State, load_spec
from rattus_rules.tools.bench.benchmark import backend_running as running
from rattus_rules.tools.bench.benchmark import backend_selected as selected

__all__ = ["BACKENDS", "GAMES", "ROOT", "game", "load", "lockstep", "random_settings", "running", "selected",
           "skip_unless", "switch_options", "unavailable"]

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ("python", "c")
#: The games played by both back ends: the shipped ones and the toy games of the language tests.
GAMES: dict[str, Path] = {
    "rattus": ROOT / "spec" / "rattus",
    "ratten_scharf": ROOT / "spec" / "ratten_scharf",
    "nim": ROOT / "tests" / "language" / "specs" / "nim",
    "gifts": ROOT / "tests" / "language" / "specs" / "gifts",
}
#: A game is cut after this many actions (some switch options let a game go on forever).
MAX_ACTIONS = 3000


def load(folder: Path, backend: str, data: Path | None = None) -> Game:
    """A spec folder loaded under ``backend`` (``python``, ``c`` or ``auto``: :func:`interpreter.load_spec`)."""
    return load_spec(folder, data=data, backend=backend)


@functools.cache
def unavailable(backend: str) -> str | None:
    """Why ``backend`` cannot run here, or None if it can (a toy game loaded under it runs on it)."""
    if backend == "python":
        return None
    try:
        game = load(GAMES["nim"], backend)
    except Exception as err:  # a build that fails: the reason is the skip message
        return f"the {backend} back end does not build here: {type(err).__name__}: {str(err)[:300]}"
    if running(game) != backend:
        return f"no {backend} back end in this tree yet (issue 26): the game loaded runs on {running(game)}"
    return None


def skip_unless(backend: str) -> None:
    """Skip the calling test, with the reason, if ``backend`` cannot run here."""
    reason = unavailable(backend)
    if reason is not None:
        pytest.skip(reason)


@functools.cache
def _game(name: str, backend: str) -> Game | str:
    try:
        return load(GAMES[name], backend)
    except SpecError as err:  # `c` refuses a spec with a construct the C emitter cannot write yet, naming it
        if backend == "python":
            raise
        return f"{name} does not run wholly on the {backend} back end yet: {str(err)[:300]}"


def game(name: str, backend: str) -> Game:
    """A game of :data:`GAMES` loaded under ``backend`` (once per run); the test skips, saying why, where
    that back end cannot run here or cannot run this game."""
    skip_unless(backend)
    found = _game(name, backend)
    if isinstance(found, str):
        pytest.skip(found)
    return found


def switch_options(game: Game) -> list[dict[str, str]]:
    """Settings to play: the defaults, and each other option of each switch alone (by switch name)."""
    out: list[dict[str, str]] = [{}]
    for name, switch in game.switches.items():
        out += [{name: o.value} for o in switch.options if not o.default]
    return out


def random_settings(game: Game, rng: random.Random) -> dict[str, str]:
    """A random option for every switch (by switch name)."""
    return {name: rng.choice([o.value for o in switch.options]) for name, switch in game.switches.items()}


def _outcome(state: State) -> tuple[str, Any]:
    """What a state shows a player of it: who decides and the legal texts, or the rule error instead."""
    try:
        return "legal", (state.current_player, state.legal_action_texts())
    except RulesError as err:
        return "rule error", (type(err).__name__, str(err))


def lockstep(reference: Game, candidate: Game, players: int, seed: int,
             settings: Mapping[str, str] | None = None, reload: float = 0.1) -> State:
    """Play one random game on both games and fail at the first difference; the reference's last state.

    ``reload``: the chance, at each step, that the candidate is replaced by its
    game's load of the reference state's JSON."""
    chosen = dict(settings or {})
    ref = reference.new_state(players, seed=seed, settings=chosen or None)
    cand = candidate.new_state(players, seed=seed, settings=chosen or None)
    rng, swap = random.Random(seed), random.Random(~seed)
    history: list[str] = []
    for step in range(MAX_ACTIONS):
        where = f"{players} players, seed {seed}, {chosen}, step {step}, after {history[-5:]}"
        if swap.random() < reload:
            cand = candidate.state_from_json(ref.to_json())
        stored = ref.to_json()
        assert cand.to_json() == stored, f"the states differ, {where}"
        seen = _outcome(ref)
        assert _outcome(cand) == seen, f"the decisions differ, {where}: {_outcome(cand)} != {seen}"
        if seen[0] == "rule error" or ref.is_terminal():
            break
        index = rng.randrange(ref.num_legal_actions())
        history.append(ref.legal_action_texts()[index])
        errors = []
        for state in (ref, cand):
            try:
                state.apply_index(index)
            except RulesError as err:
                errors.append((type(err).__name__, str(err)))
        assert len(errors) in (0, 2) and (not errors or errors[0] == errors[1]), f"{errors}, {where}"
        if errors:
            break
    assert cand.is_terminal() == ref.is_terminal()
    if ref.is_terminal():
        assert cand.scores() == ref.scores() and cand.winner() == ref.winner(), chosen
    return ref
