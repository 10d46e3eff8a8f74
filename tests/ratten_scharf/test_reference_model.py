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

from .reference_model import SWITCHES, Components, RattenScharf, differences, spec_legal, spec_view


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

    ``careful`` players show as few rats of their own colour as they can (so that
    games also reach the final scoring, not only the early end)."""
    names = {s.ident: name for name, s in game.switches.items()}
    state = game.new_state(2, seed=seed, settings={names[i]: v for i, v in settings.items()} or None)
    model = RattenScharf(components, {ident: settings.get(ident, default)
                                      for ident, (_, default) in switch_ids(game).items()})
    rng = random.Random(seed)
    history: list[str] = []
    while True:
        where = f"seed {seed}, {settings}, after {history[-4:]} (step {len(history)})"
        try:
            legal = spec_legal(state)
        except RuleError as err:  # a spec without the switch no-fit stops where a strip fits nowhere
            assert "no legal option" in str(err) and (model.aside or model.winners), where
            return state, model
        assert legal == model.legal(), (
            f"legal actions differ, {where}:\n spec only: {sorted(set(legal) - set(model.legal()))}"
            f"\n model only: {sorted(set(model.legal()) - set(legal))}")
        if not legal:
            break
        assert model.pending is not None and state.current_player == model.pending[0], where
        text = pick(state, model, rng, legal) if careful else rng.choice(legal)
        history.append(text)
        state.apply_index(legal.index(text))
        model.apply(text)
        diff = list(differences(spec_view(state), model.view()))
        assert not diff, f"after {text!r}, {where}:\n  " + "\n  ".join(diff)
    assert state.is_terminal() and model.pending is None
    assert state.winner() == model.winners
    assert state.scores() == model.points
    return state, model


def pick(state: State, model: RattenScharf, rng: random.Random, legal: list[str]) -> str:
    """A random action among those that leave the fewest of the mover's rats showing."""
    if state.current_player < 0:
        return rng.choice(legal)
    colour = ("green", "red")[state.current_player]
    fewest, best = None, []
    for text in legal:
        _, strip, line = text.split()
        shows = list(model.shows)
        for f, symbol in zip(model.c.line[line], model.face(int(strip[1:]))):
            shows[f] = symbol
        own = sum(1 for s in shows if s is not None and model.c.kind[s] == "rat" and model.c.colour[s] == colour)
        if fewest is None or own < fewest:
            fewest, best = own, [text]
        elif own == fewest:
            best.append(text)
    return rng.choice(best)


def random_settings(game: Game, rng: random.Random) -> dict[str, str]:
    """A random option for every switch and setting of the spec."""
    return {ident: rng.choice(options) for ident, (options, _) in switch_ids(game).items()}


def test_the_model_plays_every_switch_and_setting_of_the_spec(scharf: Game) -> None:
    """Each switch and setting of the spec is one the model plays, with the same options and default."""
    spec = switch_ids(scharf)
    assert set(spec) <= set(SWITCHES), f"the model does not play {sorted(set(spec) - set(SWITCHES))}"
    for ident, (options, default) in spec.items():
        assert set(options) == set(SWITCHES[ident]) and SWITCHES[ident][0] == default, ident


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
            if value != default:
                for seed in range(4):
                    play_both(scharf, components, 7 * seed + len(value), {ident: value}, careful=seed % 2 == 0)


def reaching_the_end(game: Game) -> dict[str, str]:
    """Settings under which random games also reach the final scoring: the smallest table, where strips
    are set aside (their rats never show), if the spec has a table size; else the defaults."""
    sizes = switch_ids(game).get("table-size")
    return {} if sizes is None else {"table-size": min(sizes[0], key=int)}


def test_the_games_reach_both_ends_and_ties(scharf: Game, components: Components) -> None:
    """The random games are not all alike: early ends by either colour, and final scorings."""
    seen: set[str] = set()
    for seed in range(200):
        settings = reaching_the_end(scharf) if seed % 2 else {}
        _, model = play_both(scharf, components, 200 + seed, settings, careful=seed % 4 != 0)
        if model.loser is not None:
            seen.add(f"loser {model.loser}")
        elif model.winners is not None:
            seen.add("final scoring")
        if {"loser 0", "loser 1", "final scoring"} <= seen:
            return
    pytest.fail(f"200 games reached only {sorted(seen)}")


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
    """Games that end level on points after the final scoring, under both readings of a tie."""
    ties = 0
    for seed in range(400):
        _, model = play_both(scharf, components, seed, {**reaching_the_end(scharf), "final-tie": final_tie},
                             careful=True)
        if model.loser is None and model.points[0] == model.points[1]:
            ties += 1
            assert model.winners is not None and len(model.winners) == (2 if final_tie == "shared" else 1)
            if ties == 2:
                return
    pytest.fail("fewer than two ties in 400 careful games")


def test_strips_that_fit_nowhere_are_set_aside_or_end_the_game(scharf: Game, components: Components) -> None:
    """On the smallest table strips run out of places: set aside, or the game ends (switch no-fit)."""
    spec = switch_ids(scharf)
    if "table-size" not in spec or "no-fit" not in spec:
        pytest.skip("this spec has no table size to choose, or no reading of a strip that fits nowhere")
    smallest = min(spec["table-size"][0], key=int)
    aside = ended = 0
    for seed in range(30):
        for no_fit in ("set-aside", "end"):
            _, model = play_both(scharf, components, seed, {"table-size": smallest, "no-fit": no_fit}, careful=True)
            aside += bool(model.aside)
            ended += no_fit == "end" and model.loser is None and bool(model.deck)
    assert aside and ended
