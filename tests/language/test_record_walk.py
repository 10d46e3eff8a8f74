"""The record walk (rattus_rules/tools/records/walk.py) on a game that is not Rattus.

A toy game of stones drawn blind from a bag: chance draws a stone into the
active player's hand (hidden), who may show a stone of the hand (it goes face
up on the table) or keep them.  A stone's face is its colour, and records write
stones by colour, in chance outcomes and in players' actions alike.  Records of
it are written here by hand, as any engine would write them, and walked with a
:class:`Faces` of the toy's own: legal ones are legal (in a players-eye record
the walk lets unseen stones trade places to match the colours stated later),
and each kind of mistake is refused at its entry, with the toy's noun in the
reason.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import attrs
import pytest

from interpreter import Game, RulesError, State, load_spec, notation
from interpreter.edit import newly_revealed
from rattus_rules.tools.records.walk import (
    ILLEGAL,
    LEGAL,
    OMNISCIENT,
    PLAYERS_EYE,
    RecordWalk,
    check_entries,
    components_digest,
)

C = 'cite book "R" "x"'
SPEC = f'''
game bag "Bag" {C}
source book "A book"
players 2 to 3 {C}
table stones from "stones.csv" {{
  key id: int
  column colour: text
  {C}
}}
pieces stone from stones in bag {C}
zone bag of stone hidden
zone hand[player] of stone hidden
zone shown of stone public
counter points[player] = 0
score p = points[p] {C}
main play
procedure play {C} {{
  let p = first_player
  loop {{
    chance "draw" s in pieces(bag) {C} {{
      move s to hand[p]
    }}
    choose by p {{
      "show" s in pieces(hand[p]) {C} {{
        move s to shown
        points[p] += 1
      }}
      "keep" {C} {{ }}
    }}
    if size(bag) == 0 {{
      finish [p]
    }}
    p = next(p)
  }}
}}
'''
COLOURS = ["red", "red", "blue", "blue", "blue", "green"]


@attrs.frozen
class StoneFaces:
    """How the toy's records write stones: by colour, ``?`` unseen."""

    game: Game
    unknown: str = "?"
    form: str = "a colour"
    noun: str = "stone"

    def written(self, piece: int) -> str:
        return str(self.game.piece_rows[piece]["colour"])

    def canonical(self, word: str) -> str:
        if word.lower() not in set(COLOURS):
            raise ValueError(f"no colour {word!r} (colours: {', '.join(sorted(set(COLOURS)))})")
        return word.lower()

    def looks_like_face(self, word: str) -> bool:
        return word.lower() in set(COLOURS) or word.isalpha()


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    root: Path = tmp_path_factory.mktemp("bag")
    (root / "bag.rules").write_text(SPEC, encoding="utf-8")
    rows = "\n".join(f"{i},{c}" for i, c in enumerate(COLOURS, start=1))
    (root / "stones.csv").write_text("id,colour\n" + rows + "\n", encoding="utf-8")
    return load_spec(root)


def record_of(game: Game, seed: int, kind: str = OMNISCIENT) -> dict[str, Any]:
    """Play a random game and write it down as an engine would: stones by colour."""
    faces = StoneFaces(game)
    state: State = game.new_state(2, seed=seed)
    rng = random.Random(seed)
    entries: list[dict[str, Any]] = []
    while not state.is_terminal():
        assert state.pending is not None
        option = state.pending.options[rng.randrange(state.num_legal_actions())]
        branch = state.pending.decision.branches[option[0]]
        hide = kind == PLAYERS_EYE and state.is_chance_node()
        words = notation.words(branch, option[1], game.piece_words,
                               (lambda t: "?") if hide else faces.written)
        by = notation.who(state.current_player)
        before = state.clone()
        state.apply_option(option)
        entries.append({"by": by, "action": " ".join(words)})
        entries += [{"reveal": faces.written(t)} for t in newly_revealed(before, state)]
    return {"kind": kind, "seats": ["P0", "P1"], "entries": entries,
            "components": {"sha256": components_digest(game)}}


@pytest.mark.parametrize("kind", [OMNISCIENT, PLAYERS_EYE])
@pytest.mark.parametrize("seed", range(6))
def test_records_of_the_toy_game_are_legal(game: Game, seed: int, kind: str) -> None:
    record = record_of(game, seed, kind)
    verdict = check_entries(game, record, game.settings_for({}), StoneFaces(game))
    assert verdict.status == LEGAL and verdict.finished, verdict.format()
    assert verdict.entries == len(record["entries"]) and not verdict.warnings


def test_a_players_eye_record_lets_unseen_stones_trade_places(game: Game) -> None:
    # the walk draws stones of its own for the unseen draws; a revealed colour then picks the stone
    record = record_of(game, 3, PLAYERS_EYE)
    assert any(e.get("action") == "draw ?" for e in record["entries"])
    walk = RecordWalk(game, record, game.settings_for({}), StoneFaces(game))
    assert walk.run().status == LEGAL
    shown = [t for t in walk.state.zones["shown"][None]]
    assert [StoneFaces(game).written(t) for t in shown] == [e["reveal"] for e in record["entries"] if "reveal" in e]


def test_mistakes_are_refused_at_their_entry_in_the_toy_s_words(game: Game) -> None:
    settings, faces = game.settings_for({}), StoneFaces(game)
    record = record_of(game, 1)
    draw = next(i for i, e in enumerate(record["entries"]) if e.get("action", "").startswith("draw"))

    def verdict_with(i: int, entry: dict[str, Any]) -> Any:
        entries = [*record["entries"][:i], entry, *record["entries"][i + 1:]]
        return check_entries(game, {**record, "entries": entries}, settings, faces)

    bad = verdict_with(draw, {"by": "chance", "action": "draw purple"})
    assert bad.status == ILLEGAL and bad.index == draw and "no colour 'purple'" in bad.reason
    bad = verdict_with(draw, {"by": "chance", "action": "draw #3"})
    assert "a record writes a piece by its face (a colour) or ?, never by an id" in bad.reason
    bad = verdict_with(draw, {"by": "chance", "action": "draw ?"})
    assert "an omniscient record writes the face of every stone" in bad.reason
    bad = verdict_with(draw, {"by": "P1", "action": "keep"})
    assert bad.status == ILLEGAL and "the game waits for chance" in bad.reason
    bad = verdict_with(0, {"reveal": "red"})
    assert "no stone is turned face up here" in bad.reason
    # a reveal of another colour than the draw the omniscient record stated
    show = next(i for i, e in enumerate(record["entries"]) if "reveal" in e)
    drawn = record["entries"][show]["reveal"]
    other = next(c for c in COLOURS if c != drawn)
    bad = verdict_with(show, {"reveal": other})
    assert bad.status == ILLEGAL and bad.index == show
    assert f"the stone turned here shows {drawn}" in bad.reason and f"not {other}" in bad.reason


def test_players_actions_name_stones_by_colour_and_unseen_ones_trade_places(
        game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    trades = []
    exchange = RecordWalk.exchange

    def counted(walk: RecordWalk, swaps: list[tuple[int, int]]) -> None:
        trades.append(swaps)
        exchange(walk, swaps)

    monkeypatch.setattr(RecordWalk, "exchange", counted)
    for seed in range(6):
        record = record_of(game, seed, PLAYERS_EYE)
        assert any(e.get("action", "").startswith("show ") for e in record["entries"])
        verdict = check_entries(game, record, game.settings_for({}), StoneFaces(game))
        assert verdict.status == LEGAL and verdict.finished, verdict.format()
    assert trades  # the walk's own draws were not the colours shown: stones traded places


def test_a_player_action_with_a_colour_nobody_holds_is_refused(game: Game) -> None:
    settings, faces = game.settings_for({}), StoneFaces(game)
    record = record_of(game, 2)
    show = next(i for i, e in enumerate(record["entries"]) if e.get("action", "").startswith("show "))
    for action, reason in (("show purple", "is not one of"), ("show ?", "writes the face of every stone an action")):
        entries = [*record["entries"][:show], {"by": record["entries"][show]["by"], "action": action},
                   *record["entries"][show + 1:]]
        verdict = check_entries(game, {**record, "entries": entries}, settings, faces)
        assert verdict.status == ILLEGAL and verdict.index == show and reason in verdict.reason, verdict.format()


def test_a_decision_too_large_to_list_gets_the_verdict_of_the_lazy_walk(tmp_path: Path) -> None:
    # the fast pass lists each decision as it is reached; where that fails (here: more options than a
    # decision may list), the lazy walk, which tests each action on its own, gives the verdict as before
    (tmp_path / "big.rules").write_text(f'''game big "Big" {C}
source book "A book"
players 2 to 2 {C}
main play
counter n[player] = 0
score p = n[p] {C}
procedure play {C} {{
  choose by first_player {{
    "take" k in 1 .. 200000 {C} {{ n[first_player] = k }}
  }}
  finish [first_player]
}}
''', encoding="utf-8")
    game = load_spec(tmp_path)
    with pytest.raises(RulesError, match="more than"):
        game.new_state(2)  # listed: refused
    record = {"kind": OMNISCIENT, "seats": ["P0", "P1"], "entries": [{"by": "P0", "action": "take 7"}]}
    verdict = check_entries(game, record, game.settings_for({}), StoneFaces(game))
    assert verdict.status == LEGAL and verdict.finished and verdict.scores == (7, 0), verdict.format()
    assert verdict.state is not None and verdict.state.lazy
