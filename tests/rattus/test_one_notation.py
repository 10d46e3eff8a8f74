"""One notation for tokens (issue 28): a state's history, its log, its legal actions and its refusals write a
token by its face, as records, the command line and the referee protocol do (``draw 3:merchant+monk``, never
``draw #14``); replaying a history gives the same game; a state stored with ``#14`` texts still loads."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from interpreter import IllegalAction, State
from interpreter.notation import piece
from rattus_rules import load_rules, new_game, state_from_json
from rattus_rules.cli import main
from rattus_rules.games.rattus.faces import face_text, is_face
from rattus_rules.tools.kit.referee import referee_session
from rattus_rules.tools.records.validate import OMNISCIENT, RandomPlayer, Recorder, validate

#: A token written by its row key, as histories wrote it before.
KEYED = re.compile(r"#\d+")


def _played(players: int, seed: int) -> tuple[State, dict[str, Any], bool]:
    """A whole game with its omniscient record, and whether a chance outcome took the later of two tokens
    that look alike (whose face names the first)."""
    state = new_game(players, seed=seed, log=True, resolve_setup_chance=False)
    recorder = Recorder(state, OMNISCIENT, seed=seed)
    player = RandomPlayer(seed)
    later_twin = False
    while not state.is_terminal():
        index = state.random_chance_index() if state.is_chance_node() else player.choose(state)
        texts = state.legal_action_texts()
        later_twin |= texts.index(texts[index]) != index
        recorder.apply(state, index)
    return state, recorder.record, later_twin


def _token_words(texts: list[str]) -> list[str]:
    """The words of texts that name tokens: the words of chance outcomes after their verb."""
    return [w for t in texts for w in t.split()[1:] if ":" in w or w.startswith("#")]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_history_log_and_record_write_tokens_alike(players: int) -> None:
    state, record, _ = _played(players, seed=players)
    actions = [e["action"] for e in record["entries"] if "action" in e]
    assert state.history == actions  # the record writes every action as the history does
    assert state.log is not None
    logged = [line.split(": ", 1)[1] for line in state.log if re.match(r"(chance|P\d+): ", line)]
    assert [t for t in logged if t.split()[0] in {a.split()[0] for a in actions}] == actions
    words = _token_words(state.history)
    assert words and all(is_face(w) for w in words), [w for w in words if not is_face(w)][:3]
    assert not any(KEYED.search(line) for line in state.log)


def test_legal_actions_and_refusals_name_tokens_by_face() -> None:
    state = _at_remove(load_rules().new_state(2, seed=3))
    texts = state.legal_action_texts()
    assert all(is_face(t.split()[1]) for t in texts) and len(set(texts)) < len(texts)  # two tokens look alike
    assert [a.text for a in state.legal_actions()] == texts
    with pytest.raises(IllegalAction) as info:
        state.apply("remove 7:M")
    assert info.value.legal == tuple(texts) and "#" not in str(info.value)
    with pytest.raises(IllegalAction):
        state.apply(f"remove {piece(40)}")  # the old notation is not an action text any more


def _at_remove(state: State) -> State:
    """The state at its first `remove` (2 players: 12 tokens of the stock leave the game; among them two
    pairs of tokens that look alike)."""
    while state.legal_action_texts()[0].split()[0] != "remove":
        state.apply_random_chance()
    return state


def test_a_shared_face_means_the_first_token_of_it_in_the_outcome_order() -> None:
    state = _at_remove(load_rules().new_state(2, seed=3, lazy=True))
    texts = state.legal_action_texts()
    twin = next(t for t in texts if texts.count(t) > 1)
    first = texts.index(twin)
    other = texts.index(twin, first + 1)
    options = list(state.pending.options)  # type: ignore[union-attr]
    by_text, by_option = state.clone(), state.clone()
    by_text.apply(twin)
    by_option.apply_option(options[first])
    assert by_text.to_json() == by_option.to_json()
    later = state.clone()
    later.apply_option(options[other])
    assert later.history == by_text.history and later.to_json() != by_text.to_json()


@pytest.mark.parametrize("seed", range(6))
def test_replaying_a_history_gives_the_same_game_and_undo_takes_back_each_step(seed: int) -> None:
    state, _, later_twin = _played(2 + seed % 3, seed)
    lazy = load_rules().new_state(state.n, seed=seed, lazy=True, log=True)
    for text in state.history:
        lazy.apply(text)
    assert lazy.history == state.history
    assert lazy.scores() == state.scores() and lazy.winner() == state.winner()
    if not later_twin:
        assert {**lazy.to_json(), "rng": 0} == {**state.to_json(), "rng": 0}
    # undo keeps the very token drawn, not only its face: back to the start, step by step
    steps = len(state.history)
    for _ in range(20):
        state.undo()
    assert state.history == lazy.history[:steps - 20]


def test_a_later_twin_replays_to_the_same_game_as_seen() -> None:
    for seed in range(40):
        state, _, later_twin = _played(2, seed)
        if later_twin:
            break
    else:
        pytest.fail("no game of 40 drew the later of two tokens that look alike")
    lazy = load_rules().new_state(2, seed=seed, lazy=True)
    for text in state.history:
        lazy.apply(text)
    assert lazy.history == state.history and lazy.scores() == state.scores()


def _keyed(state: State) -> dict[str, Any]:
    """A stored state as written before tokens were written by face: ``draw #14``."""
    game = state.game
    words = {w: piece(game.piece_keys[game.piece_words.index(w)]) for w in game.piece_words}
    stored = state.to_json()
    for field in ("history", "log"):
        stored[field] = [" ".join(words.get(w, w) for w in t.split(" ")) for t in stored[field]]
    return stored


def test_a_state_stored_with_keyed_texts_loads_written_by_face() -> None:
    state = new_game(3, seed=5, log=True)
    state.apply(state.legal_action_texts()[0])
    old = _keyed(state)
    assert any(KEYED.search(t) for t in old["history"]) and any(KEYED.search(t) for t in old["log"])
    loaded = state_from_json(old)
    assert loaded.history == state.history and loaded.log == state.log
    assert not any(KEYED.search(t) for t in loaded.history)
    # a word that names no piece is kept as it was (and the history is no rule: the state still loads)
    old["history"][0] = "start-token #999"
    assert state_from_json(old).history[0] == "start-token #999"


def test_a_stored_history_too_long_once_written_by_face_is_refused() -> None:
    state = new_game(2, seed=1)
    old = state.to_json()
    old["history"] = ["x " + " ".join([piece(1)] * 3000)]  # 9,000 characters; by face, far more
    with pytest.raises(ValueError, match="history"):
        state_from_json(old)


def test_the_referee_and_a_saved_state_write_the_same_texts() -> None:
    session = referee_session()
    started = session.answer({"cmd": "new", "players": 2, "seed": 9, "chance": "seed"})
    drawn = [o["action"] for o in started["outcomes"]]
    saved = session.answer({"cmd": "save", "game": started["game"]})["state"]
    assert saved["history"] == drawn and all(is_face(w) for w in _token_words(drawn))


def test_the_command_line_prints_what_the_history_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    assert main(["play", "-n", "2", "-s", "11", "--record", str(record)]) == 0
    printed = [line.strip().split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()
               if re.match(r"\s+(chance|P\d): ", line)]
    verdict = validate(json.loads(record.read_text(encoding="utf-8")))
    assert verdict.ok and verdict.state is not None
    assert [t for t in printed if not t.startswith("—")][:len(verdict.state.history)] == verdict.state.history
    words = _token_words(verdict.state.history)
    game = verdict.state.game
    assert words and set(words) <= {face_text(game, p) for p in range(len(game.piece_rows))}
