"""Random full games finish for 2, 3 and 4 players under every switch value."""

from __future__ import annotations

import pytest

from interpreter import Game
from rattus_rules import new_game
from rattus_rules.agents import play_out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_games_finish_with_invariants(players: int, seed: int) -> None:
    state = play_out(new_game(players, seed=seed, check_invariants=True), seed)
    assert state.is_terminal()
    assert state.legal_actions() == []
    winners = state.winner()
    assert winners and len(winners) == 1
    scores = state.scores()
    assert scores[winners[0]] == max(scores)


def _switch_cases(rules: Game) -> list[tuple[str, str]]:
    return [(d.ident, o.value) for d in rules.switches.values() for o in d.options if not o.default]


def test_every_switch_value_plays_to_the_end(rules: Game) -> None:
    cases = _switch_cases(rules)
    assert len(cases) >= 17
    for ident, value in cases:
        for players in (2, 3, 4):
            state = play_out(new_game(players, seed=players, interpretations={ident: value},
                                      check_invariants=True), players)
            assert state.is_terminal(), (ident, value, players)
            assert state.settings[ident.replace("-", "_")] == value


def test_shared_victory_lists_every_tied_player() -> None:
    for seed in range(40):
        state = play_out(new_game(2, seed=seed, interpretations={"tie-break": "shared"}), seed)
        scores = state.scores()
        assert state.winner() == [p for p, s in enumerate(scores) if s == max(scores)]


def test_same_seed_same_game() -> None:
    a = play_out(new_game(4, seed=11), 11)
    b = play_out(new_game(4, seed=11), 11)
    assert a.history == b.history and a.scores() == b.scores()
    c = play_out(new_game(4, seed=12), 12)
    assert c.history != a.history
