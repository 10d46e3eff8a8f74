"""Random full games finish for 2, 3 and 4 players under every switch value."""

from __future__ import annotations

import pytest

from interpreter import Game
from rattus_rules import new_game
from rattus_rules.algorithms.agents import play_out


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


def test_play_says_its_decision_bound_and_cuts_there(capsys: pytest.CaptureFixture[str]) -> None:
    # Under phase-b-optional=yes a game may never end (docs/rules-as-written.md): `play` cuts it.
    from rattus_rules.cli import main

    assert main(["play", "-n", "2", "-s", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "decision bound: 10000 player decisions per game" in out and "Final scores" in out
    assert main(["play", "-n", "2", "-s", "1", "-q", "--max-decisions", "30"]) == 0
    out = capsys.readouterr().out
    assert "decision bound: 30 player decisions per game" in out
    assert "Cut: the game did not end within 30 player decisions (games cut: 1)" in out
    assert "Scores so far" in out and "Winner: none, the game did not end" in out
    assert main(["play", "-n", "2", "-q", "--max-decisions", "0"]) == 0
    assert "decision bound: none" in capsys.readouterr().out
    assert main(["play", "--max-decisions", "-1"]) == 2
    assert "must be 0 or more" in capsys.readouterr().err


def test_play_writes_tokens_by_their_faces_and_says_what_is_reconstructed(
        rules: Game, capsys: pytest.CaptureFixture[str]) -> None:
    import re

    from rattus_rules.cli import main
    from rattus_rules.games.rattus.faces import face_text

    assert main(["play", "-n", "2", "-s", "1"]) == 0
    out = capsys.readouterr().out
    assert "hidden faces included" in out
    assert not re.search(r"#\d", out)  # no token ids, as records never write them
    faces = {face_text(rules, t) for t in range(len(rules.piece_rows))}
    drawn = [line.split()[-1] for line in out.splitlines() if line.strip().startswith("chance: start-token")]
    assert drawn and set(drawn) <= faces
    note = rules.provenance_note()
    assert note is not None and "adjacency" in note and "tokens" in note
    assert out.rstrip().endswith(note)
    for table, (unverified, total) in rules.unverified_rows().items():
        assert 0 < unverified <= total == len(rules.tables[table].rows)
        assert f"{table} {unverified} of {total}" in note
