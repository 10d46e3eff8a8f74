"""The action notation: actions are values, their texts read back to the same action.

Checked on two toy games (tests/language/specs/): Nim, and Gifts, whose
decisions bind a value of every kind an action writes (seat, piece, yes/no,
text, enum value, number, list, nothing); tests/rattus/test_notation_rattus.py
checks Rattus the same way.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import CHANCE_PLAYER, Action, Game, IllegalAction, RuleError, SpecError, State, load_spec, notation
from interpreter.types import ANY, BOOL, INT, PLAYER, TEXT, EntityType, ListType, PieceType

SPECS = Path(__file__).parent / "specs"
ROUND_TRIP = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                              HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def gifts() -> Game:
    return load_spec(SPECS / "gifts")


@pytest.fixture(scope="module")
def nim() -> Game:
    return load_spec(SPECS / "nim")


def random_states(game: Game, players: int, seed: int, steps: int) -> list[State]:
    """The states of a game played at random for some steps (chance by the state's generator)."""
    rng = random.Random(seed)
    state = game.new_state(players, seed=seed)
    out = [state.clone()]
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_index(rng.randrange(state.num_legal_actions()))
        out.append(state.clone())
    return out


def check_round_trip(state: State, readable: bool = True) -> None:
    """Every legal action's text reads back to that action, by value; actions equal their parsed texts."""
    texts = state.legal_action_texts()
    actions = state.legal_actions()
    assert actions == [Action.from_text(t) for t in texts]
    assert [a.text for a in actions] == texts
    assert state.pending is not None
    for i, action in enumerate(actions):
        assert action.index == i
        assert action.option == tuple(state.pending.options[i])
        assert state.find(action) == i
        found = state.find(action.text)
        assert texts[found] == action.text
        if texts.count(action.text) == 1:
            assert found == i
        # the text is read by value, not by comparing it with every option's text
        typed = all(b.type != ANY for b in state.pending.decision.branches[action.branch].bindings)
        if readable and typed:  # pieces that look alike: the first option written so is meant
            assert state._read(action.text) == found == texts.index(action.text), action.text


def spec_verbs(game: Game) -> set[str]:
    """Every verb the spec can offer: those of every branch of every decision (under any switch setting)."""
    return {b.verb for d in game.decisions for b in d.branches}


def verbs_read_back(game: Game, times: int = 3, max_steps: int = 5000) -> Counter[str]:
    """Play one random game to its end under the defaults and one under each switch option that is not a
    default (player counts in turn), and check the round trip (:func:`check_round_trip`) of every legal
    action at each state offering a verb checked fewer than ``times`` times: how often each verb was."""
    checked: Counter[str] = Counter()
    settings_list = [{}] + [{s.ident: o.value} for s in game.switches.values() for o in s.options if not o.default]
    counts = range(game.min_players, game.max_players + 1)
    for n, chosen in enumerate(settings_list):
        rng = random.Random(n)
        state = game.new_state(counts[n % len(counts)], seed=n, settings=chosen)
        for _ in range(max_steps):
            if state.is_terminal():
                break
            verbs = {text.split(" ")[0] for text in state.legal_action_texts()}
            if any(checked[v] < times for v in verbs):
                check_round_trip(state)
                checked.update(verbs)
            if state.is_chance_node():
                state.apply_random_chance()
            else:
                state.apply_index(rng.randrange(state.num_legal_actions()))
    return checked


def test_every_verb_of_the_toy_games_is_written_and_read_back(gifts: Game, nim: Game) -> None:
    for game in (gifts, nim):
        assert set(verbs_read_back(game)) == spec_verbs(game) != set(), game.name


@ROUND_TRIP
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(0, 12))
def test_toy_game_actions_read_back(gifts: Game, nim: Game, players: int, seed: int, steps: int) -> None:
    for game in (gifts, nim):
        for state in random_states(game, min(players, game.max_players), seed, steps):
            if not state.is_terminal():
                check_round_trip(state)


def test_every_kind_of_value_is_written_and_read(gifts: Game) -> None:
    state = gifts.new_state(3, seed=1)
    texts = state.legal_action_texts()
    for text in ("give #A P1", "wrap none_at_all no", "sing li 2", "stack 1+2", "wait -", "wait 1"):
        assert text in texts
    check_round_trip(state)
    # a list value: read back as the list; options holding lists still have texts
    stack = next(a for a in state.legal_actions() if a.text == "stack 1+2")
    assert stack.values == ([1, 2],)
    assert state.find("stack  1+2 ") == stack.index
    # `any` is not read by value (1 and "1" would print alike): the text decides
    assert state._read("wait 1") is None
    assert state.legal_action_texts()[state.find("wait 1")] == "wait 1"


@pytest.mark.parametrize("text", ["give #A P01", "give #a P1", "give #A P3", "give #A P0", "sing la 01",
                                  "sing la +1", "sing la ２", "stack 2+1", "stack 1+2+", "wrap Paper yes",
                                  "wrap paper true", "sing la", "give #A", "sing - 1", "take 1"])
def test_words_that_write_no_legal_value_are_illegal(gifts: Game, text: str) -> None:
    state = gifts.new_state(3, seed=1)
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply(text)
    assert info.value.legal == tuple(state.legal_action_texts())
    assert state.to_json() == before


@pytest.mark.parametrize("action", [12345, None, b"take 1", ("take", "1")])
def test_an_action_that_is_neither_an_action_nor_a_text_is_a_type_error(nim: Game, action: object) -> None:
    state = nim.new_state(2, seed=1)
    before = state.to_json()
    with pytest.raises(TypeError, match="an action is an Action or its text"):
        state.apply(action)  # type: ignore[arg-type]
    assert state.to_json() == before


def test_reader_is_exact(gifts: Game) -> None:
    reader = gifts.reader
    assert reader.value("P12", PLAYER) == 12
    assert reader.value("#B", PieceType("box")) == gifts.piece_keys.index("B")
    assert reader.value("-7", INT) == -7
    assert reader.value("3+1", ListType(INT)) == [3, 1]
    assert reader.value("cloth", EntityType("wrapping")) == "cloth"
    for word, t in [("P012", PLAYER), ("p1", PLAYER), ("P", PLAYER), ("-0", INT), ("1_0", INT),
                    ("٣", INT), ("9" * 50, INT), ("#Z", PieceType("box")), ("-", TEXT), ("maybe", BOOL),
                    ("x", ANY), ("1", EntityType("nothing")), ("1++2", ListType(INT))]:
        with pytest.raises(notation.Unreadable):
            reader.value(word, t)


def test_seats_are_written_one_way() -> None:
    assert notation.seat(3) == "P3"
    assert notation.read_seat("P3") == 3
    assert notation.who(CHANCE_PLAYER) == "chance"
    assert notation.who(0) == "P0"
    for word in ("P03", "P-1", "Q3", "P", "P3a"):
        assert notation.read_seat(word) is None


def test_action_equality_is_by_text(nim: Game) -> None:
    """Actions are equal when their texts are; where they sit among the legal actions is not compared."""
    state = nim.new_state(2, seed=1)
    take = state.legal_actions()[1]
    assert take == Action.from_text("take  2") == Action("take", ("2",))
    assert hash(take) == hash(Action("take", ("2",)))
    assert take.index == 1 and take.branch == 0 and take.values == (2,)
    assert str(take) == take.text == "take 2"
    state.apply(Action.from_text("take 2"))
    assert state.history == ["take 2"]
    with pytest.raises(ValueError):
        Action.from_text("  ")


DOMAINS = '''game g "G" cite src "S" "x"
source src "A source"
players 2 to 2
  cite src "S" "x"
main play
procedure play cite src "S" "x" {
  choose by first_player { "take" n in 0 .. 1, m in DOMAIN cite src "S" "x" { } }
  finish [first_player]
}
'''


def test_an_empty_list_has_a_word_and_reads_back(tmp_path: Path) -> None:
    (tmp_path / "a.rules").write_text(DOMAINS.replace("DOMAIN", "[[], [1], [2, 3]]"), encoding="utf-8")
    game = load_spec(tmp_path)
    texts = game.new_state(2).legal_action_texts()
    assert texts[:3] == ["take 0 []", "take 0 1", "take 0 2+3"]
    assert game.reader.value(notation.EMPTY_LIST, ListType(INT)) == []
    for i, text in enumerate(texts):  # by text and by value, each the option listed
        for action in (text, game.new_state(2).legal_actions()[i]):
            state = game.new_state(2)
            state.apply(action)
            assert state.history == [text]


@pytest.mark.parametrize("domain, message", [
    ('[[[1], [2]], [[]]]', "a list inside a list"),
    ('["a b", "c"]', "cannot write as one word"),
    ('["", "c"]', "cannot write as one word"),
    ('["-", "c"]', "cannot write as one word"),
    ('[["a+b"], ["c"]]', "could not write as one item"),
    ('[["[]"], []]', "could not write as one item"),
    ("[[x for x in 1 .. 3000]]", f"longer than {notation.MAX_ACTION_TEXT} characters"),
])
def test_an_option_no_action_text_could_write_is_a_rule_error_at_its_decision(tmp_path: Path, domain: str,
                                                                               message: str) -> None:
    # two different options would have had one text, or a text that does not split into its words
    (tmp_path / "a.rules").write_text(DOMAINS.replace("DOMAIN", domain), encoding="utf-8")
    game = load_spec(tmp_path)
    state = game.new_state(2)
    for attempt in (state.legal_actions, state.legal_action_texts, lambda: state.apply_index(0)):
        with pytest.raises(RuleError, match=message) as caught:
            attempt()
        assert caught.value.pos.line == 7 and caught.value.citations
    assert state.history == []


def test_a_binding_typed_as_a_list_of_lists_is_a_spec_error(tmp_path: Path) -> None:
    (tmp_path / "a.rules").write_text(DOMAINS.replace("DOMAIN", "[[[1], [2]], [[3]]]"), encoding="utf-8")
    with pytest.raises(SpecError, match="a list of lists"):
        load_spec(tmp_path)


@pytest.mark.parametrize("domain, text", [('[["a"], ["b"]]', "take 0 a+[]"),
                                          ('[["a"], ["b"]]', "take 0 " + "a+" * 6000 + "a"),
                                          ('[["a"], ["b"]]', "take 0 -")])
def test_a_text_no_option_could_have_is_an_illegal_action(tmp_path: Path, domain: str, text: str) -> None:
    (tmp_path / "a.rules").write_text(DOMAINS.replace("DOMAIN", domain), encoding="utf-8")
    state = load_spec(tmp_path).new_state(2)
    with pytest.raises(IllegalAction):
        state.apply(text)


@pytest.mark.parametrize("domain", ["[[none], none]", '[["-"], none]', '["[]", []]'])
def test_values_that_would_be_written_as_another_value_are_refused(tmp_path: Path, domain: str) -> None:
    (tmp_path / "a.rules").write_text(DOMAINS.replace("DOMAIN", domain), encoding="utf-8")
    state = load_spec(tmp_path).new_state(2)
    with pytest.raises(RuleError, match=r"would write as none|cannot write as one word|as one item"):
        state.legal_action_texts()
