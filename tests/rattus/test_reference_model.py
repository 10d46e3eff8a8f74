"""The spec and an independent Python model of the rules (tests/rattus/reference_model.py) agree, step by step.

Random games for 2, 3 and 4 players under random interpretation settings are
played by the spec and by the model side by side: at every step both must
offer the same legal actions (the same player or chance deciding), and after
every step both must show the same game: cubes in supply, regions and castle,
card holders, plague region, every token's place (and order within a region),
who looked at which token, phase, the player who ended the game, and at the
end the winners.  Any rule changed on one side only shows up as a difference
at the first step where it matters.
"""

from __future__ import annotations

import random

import pytest

from interpreter import State
from rattus_rules import interpretations, new_game
from rattus_rules.paths import spec_dir

from .reference_model import Components, Rattus, differences, spec_legal, spec_view

SWITCHES = {i.id: ([o.value for o in i.options], i.default) for i in interpretations()}
COMPONENTS = Components(spec_dir() / "data")
#: How a game's actions are picked: uniformly, or with a taste for placing cubes
#: (which reaches the end of the supply of cubes and short placements more often).
STYLES = ("uniform", "placer")


def pick(rng: random.Random, legal: list[str], style: str) -> str:
    if style == "placer":
        places = [a for a in legal if a.startswith(("place", "start", "peasant"))]
        if places and rng.random() < 0.8:
            return rng.choice(places)
        if rng.random() < 0.5:  # fewer card abilities: games move on
            plain = [a for a in legal if a.split()[0] not in ("monk", "merchant", "witch", "king")]
            if plain:
                return rng.choice(plain)
    return rng.choice(legal)


def play_both(players: int, seed: int, settings: dict[str, str], style: str = "uniform") -> tuple[State, Rattus]:
    """Play one game with the spec and the model in lockstep; fail at the first difference."""
    state = new_game(players, seed=seed, interpretations=settings, resolve_setup_chance=False)
    model = Rattus(COMPONENTS, players, {ident: settings.get(ident, default)
                                         for ident, (_, default) in SWITCHES.items()})
    rng = random.Random(seed)
    history: list[str] = []
    while True:
        legal = spec_legal(state)
        where = f"{players} players, seed {seed}, {settings}, after {history[-6:]} (step {len(history)})"
        assert sorted(legal) == sorted(model.legal()), (
            f"legal actions differ, {where}:\n spec only: {sorted(set(legal) - set(model.legal()))}"
            f"\n model only: {sorted(set(model.legal()) - set(legal))}")
        if not legal:
            break
        assert model.pending is not None and state.current_player == model.pending[0], where
        text = pick(rng, legal, style)
        history.append(text)
        state.apply_index(legal.index(text))
        model.apply(text)
        diff = list(differences(spec_view(state), model.view()))
        assert not diff, f"after {text!r}, {where}:\n  " + "\n  ".join(diff)
    assert state.is_terminal() and model.pending is None
    assert state.winner() == model.winners
    assert state.scores() == [model.population(p) for p in range(players)]
    return state, model


def random_settings(rng: random.Random) -> dict[str, str]:
    return {ident: rng.choice(values) for ident, (values, _) in SWITCHES.items()}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_default_rules_agree(players: int) -> None:
    for seed in range(3):
        play_both(players, seed, {}, STYLES[seed % 2])


@pytest.mark.parametrize("block", range(6))
def test_random_settings_agree(block: int) -> None:
    for seed in range(block * 6, block * 6 + 6):
        rng = random.Random(1000 + seed)
        play_both(2 + seed % 3, seed, random_settings(rng), STYLES[(seed // 3) % 2])


def test_every_switch_value_is_played() -> None:
    """Each value of each switch, alone against the defaults, for each player count."""
    for ident, (values, default) in SWITCHES.items():
        for value in values:
            if value != default:
                for players in (2, 3, 4):
                    play_both(players, players * 7 + len(value), {ident: value}, STYLES[players % 2])


def test_the_games_reach_the_rare_corners() -> None:
    """The random games above are not all alike: both ends of the game, Witch swaps, Knight moves happen."""
    seen: set[str] = set()
    for seed in range(12):
        state, model = play_both(2 + seed % 3, seed, random_settings(random.Random(1000 + seed)),
                                 STYLES[(seed // 3) % 2])
        seen.update(text.split()[0] for text in state.history)
        seen.add("ended-by-cubes" if any(s == 0 for s in model.supply) or model.stock else "ended-by-supply")
    assert {"witch-swap", "neutral", "merchant", "monk", "king", "reveal", "place-extra", "peasant"} <= seen
    assert {"ended-by-cubes", "ended-by-supply"} <= seen
