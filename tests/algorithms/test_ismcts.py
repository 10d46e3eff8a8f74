"""The ISMCTS player: it never reads a hidden face, its samples look the same to its seat, and it plays."""

from __future__ import annotations

import random

import pytest

from interpreter import State
from interpreter.relabel import relabelled
from rattus_rules.algorithms.agents import RandomPlayer
from rattus_rules.algorithms.ismcts import ISMCTSPlayer, SearchParams, parse_params
from rattus_rules.algorithms.views import HiddenInformation, PlayerView
from rattus_rules.api import load_rules

GAMES = [("rattus", 2), ("rattus", 4), ("ratten_scharf", 2)]


def positions(game: str, players: int, seeds: range, every: int = 7) -> list[State]:
    """Player decisions of random games where the seat to move cannot see some faces."""
    out = []
    for seed in seeds:
        st = load_rules(game=game).new_state(players, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not st.is_terminal():
            if not st.is_chance_node() and st.num_legal_actions() > 1:
                step += 1
                if step % every == 0 and PlayerView(st, st.current_player).hidden_count() > 1:
                    out.append(st.clone())
            st.apply_index(rng.randrange(st.num_legal_actions()))
    return out


def twin(st: State, seed: int) -> State:
    """The same position with the faces the seat to move cannot see laid otherwise, and another
    chance generator: a state the seat cannot tell from ``st``."""
    seat = st.current_player
    by_type: dict[str, list[int]] = {}
    for zone, table in st.zones.items():
        if st.game.hidden_zones[zone]:
            for pieces in table.values():
                for p in pieces:
                    if not st.can_see(p, seat):
                        by_type.setdefault(st.game.piece_types[p], []).append(p)
    rng = random.Random(seed)
    mapping = {}
    for pieces in by_type.values():
        shuffled = pieces.copy()
        rng.shuffle(shuffled)
        mapping.update(zip(pieces, shuffled))
    out = relabelled(st, mapping)
    out.rng = rng.getrandbits(64)
    return out


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_samples_look_the_same_to_the_seat(game: str, players: int) -> None:
    for st in positions(game, players, range(2)):
        seat = st.current_player
        view = PlayerView(st, seat)
        sample = view.sample(random.Random(1))
        assert sample.observation(seat) == st.observation(seat)
        assert sample.legal_action_texts() == st.legal_action_texts()
        assert sample.history == []
        # the rules go on from a sample as from any state
        rng = random.Random(2)
        for _ in range(20):
            if sample.is_terminal():
                break
            sample.apply_index(rng.randrange(sample.num_legal_actions()))


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_samples_do_not_depend_on_where_the_hidden_faces_are(game: str, players: int) -> None:
    for i, st in enumerate(positions(game, players, range(2))):
        other = twin(st, i)
        seat = st.current_player
        assert other.observation(seat) == st.observation(seat)
        a = PlayerView(st, seat).sample(random.Random(5)).to_json()
        b = PlayerView(other, seat).sample(random.Random(5)).to_json()
        assert a == b


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_choice_depends_only_on_what_the_seat_sees(game: str, players: int) -> None:
    """Two states that differ only in faces the seat cannot see (and in the chance generator) give the
    same choice and the same search tree: the player read no hidden face."""
    checked = differ = 0
    for i, st in enumerate(positions(game, players, range(3), every=11)[:6]):
        other = twin(st, 100 + i)
        differ += other.to_json() != st.to_json()
        a = ISMCTSPlayer(seed=i, params=SearchParams(iterations=25))
        b = ISMCTSPlayer(seed=i, params=SearchParams(iterations=25))
        assert a.choose(st) == b.choose(other)
        assert a.last_root is not None and b.last_root is not None
        assert {t: c.visits for t, c in a.last_root.children.items()} == \
               {t: c.visits for t, c in b.last_root.children.items()}
        checked += 1
    assert checked >= 3
    assert differ >= 1  # the twins really hid other faces


def test_a_view_answers_only_what_its_seat_may_know() -> None:
    st = positions("rattus", 2, range(1))[0]
    view = PlayerView(st, st.current_player)
    for name in ("zones", "vals", "face", "history", "rng", "to_json", "clone", "seen", "legal_actions"):
        with pytest.raises(HiddenInformation):
            getattr(view, name)
    other = PlayerView(st, 1 - st.current_player)
    assert other.legal_action_texts() == []
    assert view.legal_action_texts() == st.legal_action_texts()
    assert view.observation() == st.observation(st.current_player)
    with pytest.raises(ValueError, match="no seat 5"):
        PlayerView(st, 5)


def test_search_settings_from_a_name() -> None:
    assert parse_params("200") == SearchParams(iterations=200)
    assert parse_params("50-greedy") == SearchParams(iterations=50, rollout="greedy")
    for bad in ("", "x", "0", "10-smart", "1-2-3", "99999999"):
        with pytest.raises(ValueError):
            parse_params(bad)


@pytest.mark.parametrize(("game", "players"), [("rattus", 2)])
def test_it_beats_random_players(game: str, players: int) -> None:
    """Seeded, so the same games every run: a search of 30 iterations wins most of six games against
    random players, in every seat.  (Not asserted for Ratten Scharf: a decision there has hundreds of
    options, and 30 iterations are too few to tell them apart; docs/strength-ratten-scharf.md measures
    it.)"""
    wins = 0.0
    games = 6
    for seed in range(games):
        seat = seed % players
        agents = [ISMCTSPlayer(seed, SearchParams(iterations=30)) if s == seat else RandomPlayer(seed * 8 + s)
                  for s in range(players)]
        st = load_rules(game=game).new_state(players, seed=seed)
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_index(st.random_chance_index())
            else:
                st.apply_index(agents[st.current_player].choose(st))
        winners = st.winner() or []
        wins += (seat in winners) / max(1, len(winners))
    assert wins >= 4.5


def test_it_plays_ratten_scharf_to_the_end() -> None:
    st = load_rules(game="ratten_scharf").new_state(2, seed=1)
    players = [ISMCTSPlayer(1, SearchParams(iterations=10)), RandomPlayer(2)]
    while not st.is_terminal():
        st.apply_index(st.random_chance_index() if st.is_chance_node() else players[st.current_player].choose(st))
    assert st.winner()
