"""The conformance files: up to date with the rules, and usable the way the guide says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interpreter import State
from interpreter.edit import option_words
from rattus_rules.games.rattus.faces import face_text
from rattus_rules.games.rattus.kit import GOLDEN_CASES
from rattus_rules.tools.kit.conformance import build, differences, loads_golden
from rattus_rules.tools.perft import first_outcome, perft
from rattus_rules.tools.records.validate import replay, validate, walk, which_interpretations

ROOT = Path(__file__).resolve().parents[2] / "conformance"


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return build()


def test_conformance_files_are_up_to_date(generated: dict[str, str]) -> None:
    # After a deliberate rule change, `make golden` rewrites them.
    assert differences(ROOT, generated) == []
    assert (ROOT / "README.md").is_file()


def _legal(state: State) -> list[str]:
    return sorted({" ".join(option_words(state, i, lambda t: face_text(state.game, t)))
                   for i in range(state.num_legal_actions())})


@pytest.mark.parametrize("name", [case[0] for case in GOLDEN_CASES])
def test_golden_playthrough_replays_through_the_validator(name: str) -> None:
    """The guide's recipe, with the validator as the engine: same legal actions at every step."""
    golden = loads_golden((ROOT / "golden" / f"{name}.json").read_text(encoding="utf-8"))
    record = golden["record"]
    states, verdict = walk(record)
    assert verdict.finished
    assert [i for i, legal in enumerate(golden["legal"]) if legal is not None] == [i for i, _ in states]
    for n, state in states:
        assert _legal(state) == golden["legal"][n], (name, n)
    assert list(validate(record).scores) == golden["scores"]


def test_perft_vectors_from_their_setup_records() -> None:
    data = json.loads((ROOT / "perft.json").read_text(encoding="utf-8"))
    assert {v["chance"] for v in data["vectors"]} == {"first", "seed"}
    for vector in data["vectors"]:
        if vector["chance"] != "first":
            continue  # the seed rule needs this engine's generator state, not only the position
        record = {"format": "rattus-record", "version": 1, "kind": "omniscient",
                  "seats": [f"P{i}" for i in range(vector["players"])], "entries": vector["setup"]}
        state, verdict, _ = replay(record)
        assert verdict.ok and not verdict.finished
        for depth, count in vector["perft"].items():
            if int(depth) <= 3:
                assert perft(state, int(depth), "first", face_text) == count


def test_first_outcome_sorts_by_text() -> None:
    from rattus_rules import new_game

    state = new_game(2, seed=0, resolve_setup_chance=False)
    texts = [" ".join(option_words(state, i, lambda t: face_text(state.game, t)))
             for i in range(state.num_legal_actions())]
    assert texts[first_outcome(state, face_text)] == min(texts)


def test_recorded_games_get_the_expected_verdicts() -> None:
    expected = json.loads((ROOT / "games" / "expected.json").read_text(encoding="utf-8"))
    assert len(expected) >= 12
    for name, want in expected.items():
        record = json.loads((ROOT / "games" / name).read_text(encoding="utf-8"))
        verdict = validate(record)
        assert verdict.status == want["status"], name
        if "index" in want:
            assert verdict.index == want["index"] and verdict.entry == want["entry"], name
        if "scores" in want:
            assert list(verdict.scores) == want["scores"] and list(verdict.winners) == want["winners"]
        if "legal_with" in want:
            assert validate(record, want["legal_with"]).finished
            assert dict(which_interpretations(record).legal[0].changes) == want["legal_with"]


def check_verdicts_by_hand(kit: Path, by_hand: dict[str, Any], game: str | None = None) -> None:
    """A kit's ``games/expected.json`` and the validator against the illegal verdicts written by hand (the entry
    index, the entry, the rule, the German sentence the refusal cites, a phrase of the reason)."""
    expected = json.loads((kit / "games" / "expected.json").read_text(encoding="utf-8"))
    assert set(by_hand) == {name for name, want in expected.items() if want["status"] == "illegal"}
    for name, hand in by_hand.items():
        record = json.loads((kit / "games" / name).read_text(encoding="utf-8"))
        assert expected[name]["index"] == hand["index"] and expected[name]["entry"] == hand["entry"], name
        assert record["entries"][hand["index"]] == hand["entry"], name
        if name.startswith("illegal-") and name != "illegal-wrong-reveal.json":
            assert hand["index"] == len(record["entries"]) - 1, name  # cut where it goes wrong
        verdict = validate(record, game_name=game)
        assert (verdict.status, verdict.index, verdict.rule) == ("illegal", hand["index"], hand["rule"]), name
        quotes = [c.quote for c in verdict.citations]
        assert (hand["sentence"] in quotes) if hand["sentence"] else not quotes, (name, quotes)
        assert hand["why"] in verdict.reason, (name, verdict.reason)


def test_illegal_verdicts_agree_with_the_ones_written_by_hand() -> None:
    # expected.json is what validate() said when the kit was written: a validator that went wrong the day it
    # was written would pin its own mistake; verdicts-by-hand.json says what the rules say, written by a person
    by_hand = json.loads((ROOT / "verdicts-by-hand.json").read_text(encoding="utf-8"))["verdicts"]
    assert "illegal-wrong-seat.json" in by_hand  # the one game only a seat check refuses
    check_verdicts_by_hand(ROOT, by_hand)
