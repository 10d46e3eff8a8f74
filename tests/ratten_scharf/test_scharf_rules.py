"""Ratten Scharf, the second game in the rules language: its rules checked decision by
decision against the German text (seed 004) — where a strip may lie, how groups score,
the early end at three rats — and invariants over many random games."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import Game, State
from interpreter.sourcetext import SourceText

from ..rattus.test_citations import all_citations

GREEN, RED = 0, 1  # the start player plays green (game.rules: colour)
_STRIPS_OF_THEIR_OWN = itertools.count(-1, -1)  # no piece has a negative number


def start(game: Game, seed: int = 2, **settings_: str) -> State:
    """A new game, run to the start player's first decision (one strip drawn; seed 2 draws one without a rat)."""
    state = game.new_state(2, seed=seed, settings=settings_ or None)
    state.advance_chance()
    return state


def lines_of(state: State) -> set[str]:
    """The lines the legal actions lay a strip on."""
    return {text.split()[-1] for text in state.legal_action_texts()}


def drawn_face(state: State) -> dict[str, Any]:
    """The face (table row) of the one strip drawn."""
    (piece,) = state.zones["drawn"][None]
    return state.face(piece)


def kind(game: Game, symbol: str) -> str:
    """What a symbol is: spice, rat, empty or start."""
    return str(next(r["kind"] for r in game.tables["symbols"].rows if r["symbol"] == symbol))


def test_every_quote_is_in_the_rules_text(scharf: Game) -> None:
    """Each citation is in the section it names of the kept text (spec/ratten_scharf/rulebook.rules)."""
    citations = list(all_citations(scharf.checked.files))
    assert len(citations) > 30
    text = SourceText(scharf.symbols.texts["rules"])
    for c in citations:
        assert text.find(c) is not None, f"{c.pos}: {text.problem(c)}"


def test_the_start_strip_lies_in_the_middle_and_one_strip_is_drawn(scharf: Game) -> None:
    state = start(scharf)
    assert state.vals["height"]["i10"] == state.vals["height"]["j10"] == state.vals["height"]["k10"] == 1
    assert sum(state.vals["height"].values()) == 3
    assert len(state.zones["drawn"][None]) == 1 and len(state.zones["deck"][None]) == 41  # 43 strips, S laid
    assert state.current_player == GREEN


def test_a_strip_lies_next_to_or_on_the_strips_laid_flat_and_not_exactly_on_one(scharf: Game) -> None:
    lines = lines_of(start(scharf))
    assert {"i9-k9", "k11-i11", "h10-f10", "l10-l12", "i11-i13", "j9-j7"} <= lines  # next to the start strip
    assert "f6-h6" not in lines and "m13-m11" not in lines  # touching nothing laid
    assert "i10-k10" not in lines and "k10-i10" not in lines  # exactly on the start strip
    assert "h10-j10" not in lines and "i10-i12" not in lines  # partly on it: a gap under the strip
    assert all(line.split("-")[0] != line.split("-")[1] for line in lines)


def test_a_strip_may_lie_across_strips_of_one_height(scharf: Game) -> None:
    state = start(scharf)
    _lay_on(state, "i9-k9")  # below the start strip
    state.advance_chance()  # the other player draws two strips
    assert "i9-i11" not in lines_of(state)  # i11 is bare: a gap under the strip
    _lay_on(state, "i11-k11")  # above it
    lines = lines_of(state)
    assert {"i9-i11", "j11-j9", "k9-k11"} <= lines  # across three strips, all of height 1
    assert not {"i11-k11", "k11-i11", "i9-k9", "k10-i10"} & lines  # exactly on one strip
    assert "i8-i10" not in lines  # i8 is bare: a gap


def _first_turn_with(game: Game, want: str) -> tuple[State, str]:
    """The first turn of a game whose drawn strip shows a symbol of kind ``want`` first, and that symbol."""
    for seed in range(500):
        state = start(game, seed)
        symbol = drawn_face(state)["first"]
        if kind(game, symbol) == want:
            return state, symbol
    raise AssertionError(f"no seed draws a strip with a {want} first")


def _show(state: State, symbol: str, fields: list[str]) -> None:
    """Let fields show a symbol as if strips lay there (the invariants no longer hold: not checked)."""
    state.check_invariants = False
    for field in fields:
        state.vals["height"][field] = 1
        state.vals["shows"][field] = symbol
        state.vals["near"][field] = 1  # a strip lies there
        state.vals["top_strip"][field] = next(_STRIPS_OF_THEIR_OWN)  # each field as if under a strip of its own


def _lay_on(state: State, line: str) -> None:
    state.apply(next(t for t in state.legal_action_texts() if t.endswith(" " + line)))


def _owner(game: Game, symbol: str) -> int:
    colour = next(r["colour"] for r in game.tables["symbols"].rows if r["symbol"] == symbol)
    return GREEN if colour == "green" else RED


@pytest.mark.parametrize(("beside", "points"), [([], 0), (["h8"], 1), (["h8", "g8"], 2), (["h8", "g8", "f8"], 2)])
def test_a_group_of_equal_spices_scores_for_their_colour(scharf: Game, beside: list[str], points: int) -> None:
    """One spice alone scores nothing, two score 1, three or more score 2 — for the spice's colour."""
    state, spice = _first_turn_with(scharf, "spice")
    _show(state, spice, beside)
    _lay_on(state, "h9-h11")  # its first field on h9, next to h8
    owner = _owner(scharf, spice)
    assert state.vals["points"][owner] == points
    assert state.vals["points"][1 - owner] == 0  # the strip's other fields (h10, h11) touch no spice


def test_a_covered_spice_no_longer_counts(scharf: Game) -> None:
    state, spice = _first_turn_with(scharf, "spice")
    _show(state, spice, ["h8"])
    _show(state, "empty", ["h8"])  # a strip laid on h8 covers the spice
    _lay_on(state, "h9-h11")
    assert list(state.vals["points"].values()) == [0, 0]


@pytest.mark.parametrize(("rat_check", "whose", "ends"), [
    ("mover", GREEN, True), ("mover", RED, False), ("both", GREEN, True), ("both", RED, True)])
def test_three_rats_at_the_end_of_a_turn_lose_the_game(scharf: Game, rat_check: str, whose: int,
                                                        ends: bool) -> None:
    state = start(scharf, rat_check=rat_check)
    rat = "green-rat" if whose == GREEN else "red-rat"
    _show(state, rat, ["f6", "f14", "n6"])
    _lay_on(state, "i9-k9")  # the start player's turn ends
    assert state.is_terminal() is ends
    if ends:
        assert state.winner() == [1 - whose] and state.vals["loser"][None] == whose


def test_no_end_with_two_rats(scharf: Game) -> None:
    state = start(scharf)
    assert "rat" not in str(drawn_face(state))
    _show(state, "green-rat", ["f6", "f14"])
    _lay_on(state, "i9-k9")
    assert not state.is_terminal()


# ----------------------------------------------------------- random games, checked by an oracle


def _group(state: State, field: str, kinds: dict[str, str]) -> set[str]:
    """The fields showing the same spice as ``field`` and connected to it (written here anew, not
    with the spec's `connected`)."""
    shows, adjacent = state.vals["shows"], state.world.adjacent["grid"]
    symbol = shows[field]
    found, todo = {field}, [field]
    while todo:
        for other in adjacent[todo.pop()]:
            if other not in found and shows[other] == symbol:
                found.add(other)
                todo.append(other)
    return found


def _worth(size: int) -> int:
    return 2 if size >= 3 else 1 if size == 2 else 0


def _score(game: Game, state: State, fields: list[str]) -> list[int]:
    """Points per seat for the groups of spices holding any of ``fields``, each group once."""
    kinds = {r["symbol"]: r["kind"] for r in game.tables["symbols"].rows}
    points, seen = [0, 0], set()
    for field in fields:
        symbol = state.vals["shows"][field]
        if symbol is None or kinds[symbol] != "spice" or field in seen:
            continue
        group = _group(state, field, kinds)
        seen |= group
        points[_owner(game, symbol)] += _worth(len(group))
    return points


def _careful(game: Game, state: State, rng: random.Random) -> str:
    """A random action that leaves fewer than three of the mover's rats showing, if there is one."""
    texts = state.legal_action_texts()
    rng.shuffle(texts)
    for text in texts:
        after = state.clone()
        after.apply(text)
        if _rats(game, after, state.current_player) < 3:
            return text
    return texts[0]


def play_checked(game: Game, seed: int, settings_: dict[str, str], careful: bool = False) -> State:
    """A random game, every lay's points checked against :func:`_score` and the end against the rules;
    ``careful``: the players avoid showing three of their own rats where they can."""
    rng = random.Random(seed)
    state = game.new_state(2, seed=seed, settings=settings_)
    state.check_invariants = True
    lines = {r["line"]: r for r in game.tables["lines"].rows}
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        mover = state.current_player
        text = _careful(game, state, rng) if careful else rng.choice(state.legal_action_texts())
        line = lines[text.split()[-1]]
        before = dict(state.vals["points"])
        state.apply(text)
        gained = _score(game, state, [line["first"], line["middle"], line["last"]])
        if state.is_terminal() and state.vals["loser"][None] is None:  # the final scoring of every visible group
            every = [f for f in state.vals["shows"] if state.vals["shows"][f] is not None]
            gained = [a + b for a, b in zip(gained, _score(game, state, every))]
        assert [state.vals["points"][p] - before[p] for p in (0, 1)] == gained, text
        if state.is_terminal():
            break
        assert not any(_rats(game, state, p) >= 3 for p in ([mover] if settings_["rat_check"] == "mover" else [0, 1])
                       if len(state.zones["drawn"][None]) == 0), "three rats showing after a turn, and no end"
    _check_end(game, state, settings_, mover)
    return state


def _rats(game: Game, state: State, seat: int) -> int:
    colour = "green" if seat == GREEN else "red"
    return sum(1 for s in state.vals["shows"].values() if s == f"{colour}-rat")


def _check_end(game: Game, state: State, settings_: dict[str, str], last_mover: int) -> None:
    loser = state.vals["loser"][None]
    winners = state.winner()
    if loser is not None:
        assert _rats(game, state, loser) >= 3 and winners == [1 - loser]
        return
    in_play = len(game.tables["strips"].rows)
    assert in_play == 43
    left = len(state.zones["deck"][None]) + len(state.zones["drawn"][None])
    if left:  # ended because no strip fitted anywhere
        assert settings_.get("no_fit") == "end" and len(state.zones["drawn"][None]) > 0
        assert not any(t.startswith("lay") for t in state.clone().legal_action_texts())
    assert len(state.zones["laid"][None]) + len(state.zones["aside"][None]) + left == in_play
    points = state.vals["points"]
    best = max(points.values())
    tied = [p for p in (0, 1) if points[p] == best]
    if len(tied) == 1 or settings_["final_tie"] == "shared":
        assert winners == tied
    else:
        assert winners == [last_mover]  # a tie goes to the player who laid the last strip


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), rat_check=st.sampled_from(["mover", "both"]),
       final_tie=st.sampled_from(["shared", "last-mover"]), careful=st.booleans(),
       cover=st.sampled_from(["top", "any-depth"]), no_fit=st.sampled_from(["set-aside", "end"]),
       table=st.sampled_from(["5", "7", "13"]), rats=st.sampled_from(["8", "10"]))
def test_random_games_keep_the_rules(scharf: Game, seed: int, rat_check: str, final_tie: str, careful: bool,
                                     cover: str, no_fit: str, table: str, rats: str) -> None:
    play_checked(scharf, seed, {"rat_check": rat_check, "final_tie": final_tie, "cover": cover, "no_fit": no_fit,
                                "table_size": table, "rats_per_colour": rats}, careful)


@pytest.mark.parametrize(("final_tie", "winners"), [("shared", [0, 1]), ("last-mover", [GREEN])])
def test_a_tie_is_shared_or_goes_to_the_last_mover(scharf: Game, final_tie: str, winners: list[int]) -> None:
    """The last strip drawn (the deck emptied by hand: set aside), both players at 5 points: the tie by the switch."""
    state = start(scharf, final_tie=final_tie)
    state.check_invariants = False
    for piece in list(state.zones["deck"][None]):
        state.move_piece(piece, "aside", None)
    for seat in (0, 1):
        state.vals["points"][seat] = 5
    _lay_on(state, "i9-k9")  # three different spices beside empty fields: no group, no points
    assert state.vals["points"] == {0: 5, 1: 5} and state.winner() == winners


def test_some_games_end_early(scharf: Game) -> None:
    ends = [play_checked(scharf, seed, {"rat_check": "mover", "final_tie": "shared"}, careful).vals["loser"][None]
            for seed in range(4) for careful in (False, True)]
    assert any(e is not None for e in ends)
