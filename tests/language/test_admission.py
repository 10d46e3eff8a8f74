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

from interpreter import Game, IllegalAction, State, load_spec
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
                assert_listed_lookup(eager, text, found)
            for text in sorted(near_texts(texts, rng)):
                found = lazy.admitted(text)
                assert found is None or text in texts, (game.name, text)
                assert_listed_lookup(eager, text, found)
            index = rng.randrange(len(texts))
            eager.apply_index(index)
            lazy.apply(texts[index])
            assert lazy.to_json() == eager.to_json()
            steps += 1
        assert steps > 0


def assert_listed_lookup(eager: State, text: str, admitted: tuple[int, tuple[object, ...]] | None) -> None:
    """``State.admitted_listed`` on a listed state finds what ``admitted`` does, with its index among
    the listed options."""
    assert eager.pending is not None
    hit = eager.admitted_listed(text)
    expected = None if admitted is None else (admitted, list(eager.pending.options).index(admitted))
    assert hit == expected, (text, hit, expected)
    assert hit is None or eager.pending.options[hit[1]] == hit[0]


def look_alikes(value: object) -> list[object]:
    """Values equal to ``value`` in Python (or holding the same items) that are not of its kind."""
    if type(value) is bool:
        return [int(value), float(value)]
    if type(value) is int:
        return [float(value), *([bool(value)] if value in (0, 1) else [])]
    if type(value) is list:
        return [tuple(value)]
    return []


@pytest.mark.parametrize("seed", range(3))
def test_an_option_binds_only_values_of_its_own_kind(games: list[Game], seed: int) -> None:
    # (0, (True,)) where the rules list (0, (1,)) would bind a bool to a number, and 1.0 a
    # float the rules then cannot index with: refused, listed or not, the state unchanged
    refused = 0
    for game in games:
        rng = random.Random(seed)
        eager = game.new_state(2, seed=seed)
        lazy = game.new_state(2, seed=seed, lazy=True)
        steps = 0
        while not eager.is_terminal() and steps < 40:
            assert eager.pending is not None
            options = list(eager.pending.options)
            before = eager.to_json()
            for branch, values in rng.sample(options, min(6, len(options))):
                for k, value in enumerate(values):
                    for other in look_alikes(value):
                        bad = (branch, (*values[:k], other, *values[k + 1:]))
                        for st in (eager, lazy.clone()):
                            assert st.pending is not None
                            unlisted = not st.pending.listed
                            with pytest.raises(IllegalAction):
                                st.apply_option(bad)
                            assert st.to_json() == before, (game.name, bad)
                            refused += unlisted
            option = rng.choice(options)
            eager.apply_option(option)
            lazy.apply_option(option)
            assert lazy.pending is None or not lazy.pending.listed
            steps += 1
    assert refused > 100


def test_texts_that_are_not_legal_leave_nothing_behind(games: list[Game]) -> None:
    # each distinct text read must not grow what a decision keeps for the process's lifetime
    for game in games:
        for lazy in (False, True):
            st = game.new_state(2, seed=0, lazy=lazy)
            assert st.pending is not None
            st.legal_action_texts()
            decision = st.pending.decision
            kept = (len(decision.texts), len(decision.readings))
            verbs = sorted({b.verb for b in decision.branches})
            for n in range(2000):
                text = f"{verbs[n % len(verbs)]} {10 ** 30 + n}"
                with pytest.raises(IllegalAction):
                    st.apply(text)
                assert st.admitted(text) is None
            assert (len(decision.texts), len(decision.readings)) == kept, game.name


def test_a_decision_left_behind_by_an_edit_is_never_listed(games: list[Game]) -> None:
    from interpreter import edit

    nim = games[1]
    st = nim.new_state(2, seed=0, lazy=True)
    old = st.pending
    assert old is not None and not old.listed
    heap = next(iter(st.zones["heap"].values()))
    while len(heap) > 2:  # the heap loses counters by hand: the decision must be listed afresh
        edit.move_to(st, heap[0], "taken", 0)
    edit.refresh(st)
    with pytest.raises(RuntimeError, match="gone on"):
        old.listing()  # listing it now would list against the edited state
    assert st.pending is not None and st.pending.listed
    assert st.legal_action_texts() == ["take 1", "take 2"]


def test_a_refusal_quotes_a_condition_over_several_lines_whole(tmp_path: Path) -> None:
    (tmp_path / "wait.rules").write_text(f'''
game wait "Wait" {C}
source book "A book"
players 2 to 2 {C}
main play
procedure play {C} {{
  let round = 1
  loop {{
    choose by first_player {{
      "wait" {C} {{ }}
      "stop" when round > 2  # a comment
        and round != 5 # "#" a second one
        and "#" != "x" {C} {{ finish [first_player] }}
    }}
    round = round + 1
  }}
}}
''', encoding="utf-8")
    game = load_spec(tmp_path)
    state = game.new_state(2, seed=0)
    reason, _ = game.explain(state, "stop")
    assert reason == '`stop` is not allowed now: `round > 2 and round != 5 and "#" != "x"` does not hold'
