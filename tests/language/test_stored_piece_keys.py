"""A state stored before its game wrote pieces by words of their own names them by key (``take #a.b``):
loading it reads each such word as the piece whose key it is, for any key a table's cell may hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_spec
from interpreter.notation import piece
from interpreter.stored import rewritten

CITE = 'cite src "S" "x"'
#: Keys a cell may hold (no control character; spaces, dots, `#`, `+` and commas too), and their words.
KEYS = ["a", "a.b", "x y", "c#d", "e+f", "g,h", "7"]
WORDS = ["A", "A-dot-B", "X-Y", "C-hash-D", "E-plus-F", "G-comma-H", "Seven"]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    root: Path = tmp_path_factory.mktemp("keys")
    (root / "things.csv").write_text("id\n" + "".join(f'"{k}"\n' for k in KEYS), encoding="utf-8")
    (root / "a.rules").write_text(
        f'game g "G" {CITE}\nsource src "A source"\nplayers 2 to 2\nmain play\n'
        f"table things from \"things.csv\" {{\n key id: text\n {CITE}\n}}\n"
        f"pieces thing from things in pile {CITE}\nzone pile of thing public\nzone kept of thing public\n"
        f"procedure play {CITE} {{\n loop {{\n  choose by first_player {{ \"take\" p in pieces(pile) {CITE} "
        f"{{ move p to kept }} }}\n }}\n}}\n", encoding="utf-8")
    loaded = load_spec(root, backend="python")
    assert loaded.piece_keys == KEYS
    loaded.write_pieces(WORDS)
    return loaded


def test_a_state_stored_with_any_key_loads_written_by_word(game: Game) -> None:
    state = game.new_state(2, seed=3, log=True)
    for _ in KEYS[:-1]:
        state.apply_index(len(state.legal_action_texts()) - 1)  # the last first: "a.b" before "a"
    stored = state.to_json()
    by_key = dict(zip(WORDS, (piece(k) for k in KEYS)))
    stored["history"] = [" ".join(by_key.get(w, w) for w in t.split(" ")) for t in state.history]
    assert stored["history"] != state.history and "take #a.b" in stored["history"]
    loaded = game.state_from_json(stored)
    assert loaded.history == state.history
    assert loaded.to_json() == state.to_json()


@pytest.mark.parametrize(("text", "want"), [
    ("take #a.b", "take A.B"),  # the longest key written there, not "#a" and ".b"
    ("take #a.b.", "take A.B."),  # a word ends where no letter, digit, `_` or `-` goes on
    ("take #a", "take A"),
    ("take #x y and #x", "take XY and #x"),  # a key with a space; "#x" is no key: kept
    ("#c#d, #e+f, #g,h", "CD, EF, GH"),
    ("take #7 #77 x#7 #7a #7-", "take Seven #77 x#7 #7a #7-"),  # a word that goes on names no piece
])
def test_each_word_naming_a_key_is_rewritten(text: str, want: str) -> None:
    old = {"#a": "A", "#a.b": "A.B", "#x y": "XY", "#c#d": "CD", "#e+f": "EF", "#g,h": "GH", "#7": "Seven"}
    assert rewritten(text, old) == want
