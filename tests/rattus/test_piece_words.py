"""How a game's texts write its pieces (issue 28): ``#key`` for a game the interpreter loads alone; the faces
its records write for a game loaded through ``rattus_rules`` (Game.write_pieces, a game-agnostic hook), so
that every text of any game — Nim's counters, a toy game's boxes, Ratten Scharf's strips — is in one
notation; words no action text can hold are refused, and a game whose faces are such keeps its keys."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load_spec
from interpreter.notation import piece
from rattus_rules import load_rules
from rattus_rules.games import faces_of

SPECS = Path(__file__).resolve().parents[1] / "language" / "specs"


@pytest.mark.parametrize("name", ["nim", "gifts"])
def test_a_game_loaded_alone_writes_keys_and_through_the_package_its_faces(name: str) -> None:
    alone = load_spec(SPECS / name)
    assert alone.piece_words == [piece(k) for k in alone.piece_keys]
    game = load_rules(game=str(SPECS / name))
    faces = faces_of(game)
    assert game.piece_words == [faces.written(p) for p in range(len(game.piece_rows))]
    state = game.new_state(2, seed=1)
    while not state.is_terminal():
        state.apply_index(0)
    texts = " ".join(state.history)
    assert "#" not in texts or any("#" in w for w in game.piece_words)


def test_ratten_scharf_lays_a_strip_named_by_its_face() -> None:
    game = load_rules(game="ratten_scharf")
    state = game.new_state(2, seed=1)
    texts = state.legal_action_texts()
    strip = state.pending.options[0][1][0]  # type: ignore[union-attr]
    assert texts[0].split()[1] == faces_of(game).written(strip) and "#" not in " ".join(texts)
    state.apply(texts[0])
    assert state.history[-1] == texts[0]


@pytest.mark.parametrize("word", ["", "two words", "-", "[]", "x" * 1001, 7])
def test_a_word_no_action_text_can_hold_is_refused(word: object) -> None:
    game = load_spec(SPECS / "nim")
    before = list(game.piece_words)
    with pytest.raises(ValueError, match="cannot be written"):
        game.write_pieces([*before[:-1], word])  # type: ignore[list-item]
    assert game.piece_words == before
    with pytest.raises(ValueError, match="words for the"):
        game.write_pieces(before[:-1])


def test_a_game_whose_faces_no_text_can_hold_keeps_its_keys(tmp_path: Path) -> None:
    spec = tmp_path / "nim"
    shutil.copytree(SPECS / "nim", spec)
    rules = (spec / "nim.rules").read_text(encoding="utf-8").replace("column colour: text", "column colour: set")
    (spec / "nim.rules").write_text(rules, encoding="utf-8")
    csv = (spec / "counters.csv").read_text(encoding="utf-8").splitlines()
    (spec / "counters.csv").write_text("\n".join([csv[0], *(row.split(",")[0] + "," for row in csv[1:])]) + "\n",
                                       encoding="utf-8")
    game = load_rules(game=str(spec))  # every face would be empty: no word of an action text
    assert game.piece_words == [piece(k) for k in game.piece_keys]
