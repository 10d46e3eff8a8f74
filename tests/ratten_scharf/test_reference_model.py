"""The spec and an independent Python model of Ratten Scharf (tests/ratten_scharf/reference_model.py)
agree, decision by decision.

Random games under random interpretation settings are played by the spec and
by the model side by side: at every step both must have the same player (or
chance) deciding and the same legal actions, in the same order, and after every
step both must show the same game: each field's height, strip on top and
symbol showing, the points, the deck, the strips drawn and laid, the loser;
at the end the same winners and scores.  The model reads the component tables
from the folder the spec loaded them from, so it follows a change of the
components (the number of strips, the rats on them) without a change here.
"""

from __future__ import annotations

import random

import pytest

from interpreter import Game, RuleError, State
from rattus_rules.paths import spec_dir

from .reference_model import SWITCHES, Components, DeadEnd, RattenScharf, differences, spec_view


@pytest.fixture(scope="module")
def components() -> Components:
    return Components(spec_dir("ratten_scharf") / "data")


def switch_ids(game: Game) -> dict[str, tuple[list[str], str]]:
    """Each switch of the spec by its public id: its options and its default."""
    return {s.ident: ([o.value for o in s.options], next(o.value for o in s.options if o.default))
            for s in game.switches.values()}


def play_both(game: Game, components: Components, seed: int, settings: dict[str, str],
              careful: bool = False) -> tuple[State, RattenScharf]:
    """One game by the spec and the model in lockstep; fail at the first difference.

    ``careful`` players avoid showing three rats of their own colour where they can
    (so that games also reach the final scoring, not only the early end)."""
    names = {s.ident: name for name, s in game.switches.items()}
    state = game.new_state(2, seed=seed, settings={names[i]: v for i, v in settings.items()} or None)
    model = RattenScharf(components, settings)
    rng = random.Random(seed)
    history: list[str] = []
    while True:
        where = f"seed {seed}, {settings}, after {history[-4:]} (step {len(history)})"
        try:
            legal = state.legal_action_texts()
        except RuleError as err:  # a strip that fits nowhere: the model must be stuck there too
            assert model.pending is None and "no legal option" in str(err), where
            return state, model
        assert legal == model.legal(), (
            f"legal actions differ, {where}:\n spec only: {sorted(set(legal) - set(model.legal()))}"
            f"\n model only: {sorted(set(model.legal()) - set(legal))}")
        if not legal:
            break
        assert model.pending is not None and state.current_player == model.pending[0], where
        text = pick(state, model, rng, legal) if careful else rng.choice(legal)
        history.append(text)
        state.apply(text)
        try:
            model.apply(text)
        except DeadEnd:
            model.pending = None
        diff = list(differences(spec_view(state), model.view()))
        assert not diff, f"after {text!r}, {where}:\n  " + "\n  ".join(diff)
    assert state.is_terminal() and model.pending is None
    assert state.winner() == model.winners
    assert state.scores() == model.points
    return state, model


def pick(state: State, model: RattenScharf, rng: random.Random, legal: list[str]) -> str:
    """A random action after which the mover shows fewer than three rats, if there is one."""
    if state.current_player < 0:
        return rng.choice(legal)
    p = state.current_player
    texts = list(legal)
    rng.shuffle(texts)
    for text in texts:
        _, strip, line = text.split()
        fields = next(f for n, f, _ in model.c.lines if n == line)
        face = model.c.face[int(strip[1:])]
        shows = list(model.shows)
        for f, symbol in zip(fields, face):
            shows[f] = symbol
        own = sum(1 for s in shows if s is not None and model.c.kind[s] == "rat"
                  and model.c.colour[s] == ("green", "red")[p])
        if own < 3:
            return text
    return texts[0]


def random_settings(game: Game, rng: random.Random) -> dict[str, str]:
    """Random options for the switches the model plays (the others stay at their defaults)."""
    return {ident: rng.choice(options) for ident, (options, _) in switch_ids(game).items() if ident in SWITCHES}


def test_the_model_plays_switches_of_the_spec(scharf: Game) -> None:
    """Every switch the model plays is one of the spec's, with the same options and default (a switch the
    model does not know yet is left at its default by every game here)."""
    spec = switch_ids(scharf)
    assert set(SWITCHES) <= set(spec)
    for ident, options in SWITCHES.items():
        assert set(options) == set(spec[ident][0]) and options[0] == spec[ident][1]


@pytest.mark.parametrize("block", range(4))
def test_default_rules_agree(scharf: Game, components: Components, block: int) -> None:
    for seed in range(block * 5, block * 5 + 5):
        play_both(scharf, components, seed, {}, careful=seed % 2 == 1)


@pytest.mark.parametrize("block", range(4))
def test_random_settings_agree(scharf: Game, components: Components, block: int) -> None:
    for seed in range(100 + block * 5, 100 + block * 5 + 5):
        play_both(scharf, components, seed, random_settings(scharf, random.Random(seed)), careful=seed % 3 != 0)


def test_every_switch_value_is_played(scharf: Game, components: Components) -> None:
    """Each option of each switch, alone against the defaults, in games that end both ways."""
    for ident, (options, default) in switch_ids(scharf).items():
        for value in options:
            if value != default and ident in SWITCHES:
                for seed in range(4):
                    play_both(scharf, components, 7 * seed + len(value), {ident: value}, careful=seed % 2 == 0)


def test_the_games_reach_both_ends_and_ties(scharf: Game, components: Components) -> None:
    """The random games above are not all alike: early ends by either colour, final scorings, ties."""
    seen: set[str] = set()
    for seed in range(40):
        _, model = play_both(scharf, components, 200 + seed, {"final-tie": "last-mover"} if seed % 2 else {},
                                 careful=seed % 4 != 0)
        if model.loser is not None:
            seen.add(f"loser {model.loser}")
        elif model.winners is not None:
            seen.add("final scoring")
            if model.points[0] == model.points[1]:
                seen.add("tie")
    assert {"loser 0", "loser 1", "final scoring"} <= seen, seen


def test_the_model_notices_a_changed_rule(scharf: Game, components: Components) -> None:
    """The comparison bites: a model that scores a pair as 2 points parts from the spec in a game."""
    class Greedy(RattenScharf):
        def score_group(self, group: set[int], symbol: str) -> None:
            super().score_group(group | {-1} if len(group) == 2 else group, symbol)

    def play_wrong(seed: int) -> None:
        state = scharf.new_state(2, seed=seed)
        model = Greedy(components)
        rng = random.Random(seed)
        while state.legal_action_texts():
            text = rng.choice(state.legal_action_texts())
            state.apply(text)
            model.apply(text)
            assert not list(differences(spec_view(state), model.view()))

    with pytest.raises(AssertionError):
        for seed in range(10):
            play_wrong(seed)


@pytest.mark.parametrize("final_tie", ["shared", "last-mover"])
def test_ties_at_the_final_scoring_agree(scharf: Game, components: Components, final_tie: str) -> None:
    """Games that end level on points after the final scoring (about one careful game in 25), both ways."""
    ties = 0
    for seed in range(400):
        _, model = play_both(scharf, components, seed, {"final-tie": final_tie}, careful=True)
        if model.loser is None and model.points[0] == model.points[1]:
            ties += 1
            assert model.winners is not None and len(model.winners) == (2 if final_tie == "shared" else 1)
            if ties == 2:
                return
    pytest.fail("fewer than two ties in 400 careful games")
