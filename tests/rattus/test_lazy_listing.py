"""Lazy listing and the admission test agree with the listing, decision by decision.

A lazy state (``lazy=True``) lists no options when it reaches a decision;
:meth:`State.apply` then tests the one option an action text names with the
decision's generated admission test.  These tests play random games of every
player count and switch reading, and check at every decision that

* every listed option is admitted, by its own text, as the same option;
* texts near the legal ones (a word swapped for a word of another option, the
  verb of another branch, a value too many or too few) are admitted exactly
  when they are legal;
* a lazy state applying the texts ends in the same state as an eager one
  applying the indices, step by step.
"""

from __future__ import annotations

import random

import pytest

from interpreter import IllegalAction
from rattus_rules.api import load_rules

GAME = load_rules()


def near_texts(texts: list[str], rng: random.Random) -> set[str]:
    """Texts that differ from legal ones in one word, or in their number of words."""
    words = sorted({w for t in texts for w in t.split(" ")}) + ["0", "4", "nowhere"]
    out: set[str] = set()
    for text in rng.sample(texts, min(len(texts), 8)):
        parts = text.split(" ")
        for k in range(len(parts)):
            for w in rng.sample(words, min(len(words), 6)):
                out.add(" ".join(parts[:k] + [w] + parts[k + 1:]))
        out.add(" ".join(parts[:-1]))
        out.add(" ".join([*parts, rng.choice(words)]))
    out.discard("")
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_admission_is_the_listing(players: int, seed: int) -> None:
    rng = random.Random(seed * 10 + players)
    settings = {sw.ident: rng.choice(sw.options).value for sw in GAME.switches.values()}
    eager = GAME.new_state(players, seed=seed, settings=settings)
    lazy = GAME.new_state(players, seed=seed, settings=settings, lazy=True)
    steps = 0
    while not eager.is_terminal():
        assert eager.pending is not None and lazy.pending is not None
        texts = eager.legal_action_texts()
        for option, text in zip(eager.pending.options, texts):
            # a face two tokens share names the first of them, which only the listing's order tells
            found = lazy.admitted(text)
            assert found == (option if texts.count(text) == 1 else None), text
            # on a listed state, the text's readings looked up among the options find the same, and its index
            assert eager.admitted_listed(text) == (None if found is None else (found, texts.index(text))), text
        legal = set(texts)
        for text in sorted(near_texts(texts, rng)):
            if texts.count(text) < 2:
                found = lazy.admitted(text)
                assert (found is not None) == (text in legal), text
                assert eager.admitted_listed(text) == (None if found is None else (found, texts.index(text))), text
        assert not lazy.pending.listed  # nothing above listed the lazy state's options
        eager_options = list(eager.pending.options)
        index = rng.randrange(len(texts))
        eager.apply_index(index)
        if texts.index(texts[index]) == index:
            lazy.apply(texts[index])
        else:  # the later of two tokens that look alike: its text would name the first
            lazy.apply_option(eager_options[index])
        assert lazy.to_json() == eager.to_json()
        steps += 1
    assert lazy.is_terminal() and steps > 50


def test_a_lazy_state_lists_when_read_and_refuses_what_is_not_legal() -> None:
    st = GAME.new_state(3, seed=5, lazy=True)
    rng = random.Random(5)
    while not st.is_terminal() and st.is_chance_node():
        st.apply_random_chance()
    assert st.pending is not None
    # the first decision is reached by new_state: from the next one on, nothing is listed
    first = st.legal_action_texts()
    st.apply(first[0])
    while st.is_chance_node():
        st.apply(st.legal_action_texts()[rng.randrange(st.num_legal_actions())])
    pending = st.pending
    assert pending is not None and not pending.listed
    before = st.to_json()
    with pytest.raises(IllegalAction):
        st.apply("fly-away now")
    assert st.to_json() == before
    texts = st.legal_action_texts()  # reading lists them, as an eager state has them
    eager = GAME.new_state(3, seed=5)
    for text in st.history:
        eager.apply(text)
    assert pending.listed and texts == eager.legal_action_texts()
    clone = st.clone()
    clone.apply(texts[0])
    st.apply(texts[0])
    assert clone.to_json() == st.to_json()


def test_texts_are_remembered_only_once_legal() -> None:
    # a client sending texts that are not legal anywhere must not grow what a decision keeps
    st = GAME.new_state(2, seed=3, lazy=True)
    while st.is_chance_node():
        st.apply_random_chance()
    assert st.pending is not None
    decision = st.pending.decision
    before = dict(decision.readings)
    for n in range(300):
        assert st.admitted(f"place nowhere-{n}") is None
        assert st.admitted(f"take {n}") is None
    assert decision.readings == before
    legal = st.legal_action_texts()[0]
    assert st.admitted(legal) is not None and legal in decision.readings


@pytest.mark.parametrize("bad", [None, "place Gallia", (0,), (0, 1), ("0", ()), [0, ()], (0, [1])])
def test_apply_option_refuses_what_is_not_an_option(bad: object) -> None:
    for lazy in (False, True):
        st = GAME.new_state(2, seed=1, lazy=lazy)
        before = st.to_json()
        with pytest.raises(TypeError, match="an option is"):
            st.apply_option(bad)  # type: ignore[arg-type]
        assert st.to_json() == before
    st = GAME.new_state(2, seed=1, lazy=True)
    with pytest.raises(IllegalAction):
        st.apply_option((99, ()))  # no such branch: not legal, the state unchanged
