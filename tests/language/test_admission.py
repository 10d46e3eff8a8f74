"""One-option admission agrees with the listing on toy games, for every kind of value.

Gifts binds a value of every kind an action writes (a seat, a piece, yes/no, a
text, an enum value, a number, a list, nothing), Nim numbers; the bag of stones
below has chance, hidden pieces and a filter that reads an earlier value.  For
random plays of each, at every decision: every legal text is admitted as its own
option (or, for a value the notation does not read, such as ``none`` beside
numbers, not admitted, so that :meth:`State.apply` falls back to the listing);
texts one word away are admitted only if legal; and a lazy state applying the
texts ends where an eager state applying the indices does.
(tests/rattus/test_lazy_listing.py does the same for Rattus.)
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import Game, load_spec
from interpreter.types import AnyType

SPECS = Path(__file__).parent / "specs"
C = 'cite book "R" "x"'
PICK = f'''
game pick "Pick" {C}
source book "A book"
players 2 to 3 {C}
counter taken[player] = 0
main play
procedure play {C} {{
  let round = 1
  loop {{
    choose by first_player {{
      "pick" a in 1 .. 3, b in a .. 4 where b != 2 * a, c in [a, b, a + b] where c > 2 {C} {{
        taken[first_player] += c
      }}
      "twice" a in 1 .. round, a2 in [a, a] {C} {{ }}
      "pass" when round > 2 {C} {{ }}
    }}
    round = round + 1
    if round > 6 {{
      finish [first_player]
    }}
  }}
}}
'''


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Game]:
    root = tmp_path_factory.mktemp("pick")
    (root / "pick.rules").write_text(PICK, encoding="utf-8")
    return [load_spec(SPECS / "gifts"), load_spec(SPECS / "nim"), load_spec(root)]


def near_texts(texts: list[str], rng: random.Random) -> set[str]:
    words = sorted({w for t in texts for w in t.split(" ")}) + ["0", "9", "yes", "no", "P7", "#99"]
    out = set()
    for text in texts:
        parts = text.split(" ")
        for k in range(len(parts)):
            for w in rng.sample(words, min(len(words), 5)):
                out.add(" ".join(parts[:k] + [w] + parts[k + 1:]))
        out.add(" ".join([*parts, "1"]))
    return out - {""}


@pytest.mark.parametrize("seed", range(5))
def test_admission_is_the_listing_on_toy_games(games: list[Game], seed: int) -> None:
    for game in games:
        rng = random.Random(seed)
        players = rng.choice([2, 3]) if game.max_players >= 3 else 2
        eager = game.new_state(players, seed=seed)
        lazy = game.new_state(players, seed=seed, lazy=True)
        steps = 0
        while not eager.is_terminal() and steps < 200:
            assert eager.pending is not None and lazy.pending is not None
            texts = eager.legal_action_texts()
            for option, text in zip(eager.pending.options, texts):
                found = lazy.admitted(text)
                branch = eager.pending.decision.branches[option[0]]
                unread = any(isinstance(b.type, AnyType) for b in branch.bindings)
                assert found == option or (found is None and unread), (game.name, text, found)
            for text in sorted(near_texts(texts, rng)):
                found = lazy.admitted(text)
                assert found is None or text in texts, (game.name, text)
            index = rng.randrange(len(texts))
            eager.apply_index(index)
            lazy.apply(texts[index])
            assert lazy.to_json() == eager.to_json()
            steps += 1
        assert steps > 0
