"""The Python API: new games, corrected data, observations, JSON, clones."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import CHANCE_PLAYER, TERMINAL_PLAYER, IllegalAction, SpecError
from rattus_rules import interpretations, load_rules, new_game, state_from_json
from rattus_rules.algorithms.agents import RandomPlayer, play_out
from rattus_rules.paths import spec_dir


def test_new_game_waits_for_the_start_player() -> None:
    state = new_game(3, seed=5)
    assert state.current_player == 0
    assert state.decision_rule() == "initial_placement"
    assert all(a.verb == "start" for a in state.legal_actions())
    # 3 players: the 8 beige and 2 light-brown regions are in play
    assert len(state.legal_actions()) == 10


def test_chance_nodes_are_explicit_when_asked() -> None:
    state = new_game(2, seed=5, resolve_setup_chance=False)
    assert state.current_player == CHANCE_PLAYER
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 12 and all(p == pytest.approx(1 / 12) for _, p in outcomes)
    assert all(a.verb == "start-token" for a, _ in outcomes)


def test_players_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(5)


def test_unknown_interpretation_is_refused_with_a_suggestion() -> None:
    with pytest.raises(ValueError, match="did you mean 'reveal-order'"):
        new_game(4, interpretations={"reveal-ordr": "placed"})
    with pytest.raises(ValueError, match="no option 'sometimes'"):
        new_game(4, interpretations={"reveal-order": "sometimes"})


def test_interpretations_list_every_switch_with_default_and_citations() -> None:
    items = interpretations()
    assert len(items) == len(load_rules().switches)
    for item in items:
        assert item.default in [o.value for o in item.options]
        assert all(o.citations for o in item.options)


def test_terminal_state() -> None:
    state = play_out(new_game(4, seed=3), 3)
    assert state.current_player == TERMINAL_PLAYER
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply("end")


def test_observation_hides_faces_down_tokens() -> None:
    state = new_game(4, seed=2)
    for viewer in range(4):
        obs = state.observation(viewer)
        for _, faces in obs["zones"]["rats"]:
            assert all(face is None for face in faces)
        assert all(face is None for _, faces in obs["zones"]["stock"] for face in faces)
        assert (obs["legal_actions"] != []) == (viewer == state.current_player)
    with pytest.raises(ValueError):
        state.observation(4)


def _play_until_witch_look(seed: int) -> tuple[object, int] | None:
    state = new_game(4, seed=seed)
    player = RandomPlayer(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        texts = state.legal_action_texts()
        witch = [i for i, t in enumerate(texts) if t.startswith("witch ")]
        takes = [i for i, t in enumerate(texts) if t == "take witch"]
        if witch:
            mover = state.current_player
            state.apply_index(witch[0])
            return state, mover
        state.apply_index(takes[0] if takes else player.choose(state))
    return None


def test_the_witch_sees_the_face_she_looked_at_and_nobody_else_does() -> None:
    found = None
    for seed in range(20):
        found = _play_until_witch_look(seed)
        if found:
            break
    assert found is not None
    state, witch = found
    assert state.decision_rule() == "witch"  # type: ignore[attr-defined]
    seen_by_witch = [f for _, faces in state.observation(witch)["zones"]["rats"]  # type: ignore[attr-defined]
                     for f in faces if f is not None]
    assert len(seen_by_witch) == 1 and "threshold" in seen_by_witch[0]
    for other in range(4):
        if other != witch:
            obs = state.observation(other)  # type: ignore[attr-defined]
            assert all(f is None for _, faces in obs["zones"]["rats"] for f in faces)


def test_clone_is_independent() -> None:
    state = new_game(4, seed=9)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert copy.to_json() != state.to_json()
    assert state.legal_action_texts() == new_game(4, seed=9).legal_action_texts()


def test_json_round_trip_mid_turn_and_resume() -> None:
    state = new_game(3, seed=4)
    player = RandomPlayer(4)
    for _ in range(40):
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_index(player.choose(state))
    stored = state.to_json()
    restored = state_from_json(stored)
    assert restored.to_json() == stored
    assert restored.legal_action_texts() == state.legal_action_texts()
    a = play_out(state, 1)
    b = play_out(restored, 1)
    assert a.history == b.history and a.winner() == b.winner()


def test_malformed_stored_state_is_a_value_error() -> None:
    stored = new_game(2, seed=1).to_json()
    for broken in ({}, {**stored, "frames": [["nowhere", 0, {}]]}, {**stored, "zones": {}},
                   {**stored, "game": "chess"}, {**stored, "vals": 3}):
        with pytest.raises(ValueError):
            state_from_json(broken)


def _copy_spec(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(spec_dir() / "data", data)
    return data


def test_corrected_board_is_loaded_without_touching_code(tmp_path: Path) -> None:
    data = _copy_spec(tmp_path)
    board = data / "board.csv"
    rows = board.read_text(encoding="utf-8").splitlines()
    rows.append("Anglia,Hispania,my own board (verified by looking at it)")
    board.write_text("\n".join(rows) + "\n", encoding="utf-8")
    game = load_rules(data)
    assert "Hispania" in game.world(4).adjacent["board"]["Anglia"]
    assert "Hispania" not in load_rules().world(4).adjacent["board"]["Anglia"]
    state = new_game(4, seed=1, data=data)
    assert state.game is game


def test_corrected_token_table_must_pass_the_data_checks(tmp_path: Path) -> None:
    data = _copy_spec(tmp_path)
    tokens = data / "rat_tokens.csv"
    text = tokens.read_text(encoding="utf-8").replace("\n49,6,", "\n49,5,")
    tokens.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_rules(data)
    assert "threshold_counts" in str(info.value)
    assert "Werte der 49 Rattenplättchen" in str(info.value)


def test_corrected_table_with_an_unknown_region_is_positioned(tmp_path: Path) -> None:
    data = _copy_spec(tmp_path)
    board = data / "board.csv"
    board.write_text(board.read_text(encoding="utf-8") + "Anglia,Atlantis,mine\n", encoding="utf-8")
    with pytest.raises(SpecError, match=r"board\.csv:25:1: table adjacency, column region_b: 'Atlantis'"):
        load_rules(data)
