"""Game records: the format, each verdict kind, hand-made illegal records, and the reading search."""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from interpreter import State
from interpreter.edit import procedure_of
from rattus_rules.algorithms.agents import RandomPlayer
from rattus_rules.api import load_rules
from rattus_rules.cli import main
from rattus_rules.games.rattus.faces import face_text
from rattus_rules.tools.records.validate import (
    ILLEGAL,
    LEGAL,
    NOT_A_RECORD,
    PLAYERS_EYE,
    Recorder,
    check_format,
    dumps,
    record_game,
    replay,
    schema,
    validate,
    which_interpretations,
)


def play_until(players: int, seed: int, stop: Callable[[State], bool], kind: str = "omniscient",
               settings: dict[str, str] | None = None) -> tuple[dict[str, Any], State] | None:
    """Play a random game with a recorder until ``stop(state)``; the record so far and the state."""
    state = load_rules().new_state(players, seed=seed, settings=settings)
    recorder = Recorder(state, kind, seed=seed)
    player = RandomPlayer(seed)
    while not state.is_terminal():
        if not state.is_chance_node() and stop(state):
            return recorder.record, state
        index = state.random_chance_index() if state.is_chance_node() else player.choose(state)
        recorder.apply(state, index)
    return None


def find_position(stop: Callable[[State], bool], players: int = 4, **kw: Any) -> tuple[dict[str, Any], State]:
    for seed in range(60):
        found = play_until(players, seed, stop, **kw)
        if found is not None:
            return found
    raise AssertionError("no game reached the position wanted")


def verbs(state: State) -> set[str]:
    return {t.split()[0] for t in state.legal_action_texts()}


def me(state: State) -> str:
    return f"P{state.current_player}"


def in_turn(state: State) -> bool:
    return procedure_of(state) == "player_turn"


def with_entry(record: dict[str, Any], *entries: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["entries"].extend(entries)
    return out


def cited(verdict: Any) -> str:
    return " ".join(c.quote for c in verdict.citations)


# ------------------------------------------------------------------ legal
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_recorded_game_is_legal_with_its_scores(players: int) -> None:
    record = record_game(players, seed=players)
    jsonschema.validate(record, schema())
    verdict = validate(record)
    assert verdict.status == LEGAL and verdict.finished
    assert verdict.entries == len(record["entries"])
    state = load_rules().new_state(players, seed=players)
    from rattus_rules.algorithms.agents import play_out

    played = play_out(state, players)
    assert list(verdict.scores) == played.scores()
    assert list(verdict.winners) == played.winner()
    assert "final scores" in verdict.format()


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 0), (3, 2), (4, 5)])
def test_a_players_eye_record_is_legal(players: int, seed: int) -> None:
    record = record_game(players, seed=seed, kind=PLAYERS_EYE, viewer=seed % players)
    assert any(e.get("action", "").endswith(" ?") for e in record["entries"])
    assert not any("#" in e.get("action", "") for e in record["entries"])
    verdict = validate(record)
    assert verdict.status == LEGAL and verdict.finished, verdict.format()
    assert verdict.scores == validate(record_game(players, seed=seed)).scores


def test_players_eye_records_under_other_readings() -> None:
    for settings in ({"removed-tokens": "after-start-tokens"}, {"final-reveal-order": "placed"},
                     {"final-reveal-order": "chosen-by-last"}, {"cubes-end": "end-of-turn"},
                     {"reveal-order": "placed"}):
        for players in (2, 3):
            record = record_game(players, seed=7, interpretations=settings, kind=PLAYERS_EYE)
            assert record["interpretations"] == settings
            assert validate(record).finished, (settings, players)


def record_final_picks(players: int, seed: int, kind: str, last: bool) -> dict[str, Any]:
    """A random game's record in which every final-reveal chance event turns the first or the last token left."""
    state = load_rules().new_state(players, seed=seed)
    recorder = Recorder(state, kind, seed=seed, viewer=0) if kind == PLAYERS_EYE else Recorder(state, kind, seed=seed)
    player = RandomPlayer(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            texts = state.legal_action_texts()
            final = texts[0].startswith("final-reveal ")
            index = (len(texts) - 1 if last else 0) if final else state.random_chance_index()
        else:
            index = player.choose(state)
        recorder.apply(state, index)
    return recorder.record


@pytest.mark.parametrize("kind", ["omniscient", PLAYERS_EYE])
def test_any_final_reveal_order_validates_under_the_default(kind: str) -> None:
    # final-reveal-order=random (default): "Dazu werden nacheinander die Rattenplättchen umgedreht und
    # ausgewertet" names no one, so each next token is a chance entry and any real-table order is legal.
    for seed in range(20):
        first, last = (record_final_picks(4, seed, kind, pick) for pick in (False, True))
        finals = [e["action"] for e in last["entries"] if e.get("action", "").startswith("final-reveal ")]
        if any(a != "final-reveal 1" for a in finals):
            break
    else:
        raise AssertionError("no game with a final devastation of two tokens in one region")
    assert all(e["by"] == "chance" for e in last["entries"] if e.get("action", "").startswith("final-reveal"))
    for record in (first, last):
        verdict = validate(record)
        assert verdict.status == LEGAL and verdict.finished, verdict.format()
    # Under the old default only placement order is legal: the chance entries have no place there.
    assert validate(last, {"final-reveal-order": "placed"}).status == ILLEGAL


def test_legal_so_far_names_who_is_next() -> None:
    record = record_game(4, seed=3)
    record["entries"] = record["entries"][:40]
    while "reveal" in record["entries"][-1]:
        record["entries"].pop()
    verdict = validate(record)
    assert verdict.status == LEGAL and not verdict.finished
    assert verdict.entries == len(record["entries"])
    assert verdict.format().startswith(f"legal so far, {verdict.entries} entries, next to move: ")


def test_a_record_cut_before_its_reveal_entries_waits_for_the_faces() -> None:
    record = record_game(4, seed=3)
    first = next(i for i, e in enumerate(record["entries"]) if "reveal" in e)
    record["entries"] = record["entries"][:first]
    verdict = validate(record)
    assert verdict.status == LEGAL
    assert "the face of" in verdict.next and f"entry {first - 1}" in verdict.next


# ---------------------------------------------------------------- illegal
def test_placement_into_a_region_without_tokens() -> None:
    def stop(st: State) -> bool:
        return (in_turn(st) and "place" in verbs(st) and st.vals["holder"]["peasant"] != st.current_player
                and any(not st.zones["rats"][r] for r in st.world.nodes["board"]))

    record, state = find_position(stop)
    empty = next(r for r in state.world.nodes["board"] if not state.zones["rats"][r])
    bad = with_entry(record, {"by": me(state), "action": f"place {empty}"})
    verdict = validate(bad)
    assert verdict.status == ILLEGAL
    assert verdict.index == len(record["entries"])
    assert verdict.entry == {"by": me(state), "action": f"place {empty}"}
    assert "plain_placement" in verdict.reason
    assert "keine Würfel in Regionen ohne Rattenplättchen" in cited(verdict)
    assert set(verdict.legal) == set(state.legal_action_texts())
    text = verdict.format()
    assert f"illegal: entry {verdict.index}" in text and "cites rulebook" in text and "legal there:" in text


def test_a_fourth_token_in_a_region() -> None:
    def stop(st: State) -> bool:
        plague = st.vals["plague"][None]
        return "spread" in verbs(st) and any(len(st.zones["rats"][r]) == 3
                                             for r in st.world.adjacent["board"][plague])

    record, state = find_position(stop)
    full = next(r for r in state.world.adjacent["board"][state.vals["plague"][None]]
                if len(state.zones["rats"][r]) == 3)
    verdict = validate(with_entry(record, {"by": me(state), "action": f"spread {full}"}))
    assert verdict.status == ILLEGAL and verdict.index == len(record["entries"])
    assert "nicht erlaubt, weitere Rattenplättchen in Regionen mit drei Plättchen zu legen" in cited(verdict) or \
        "drei Plättchen" in cited(verdict)
    assert all(t.startswith("spread ") and t != f"spread {full}" for t in verdict.legal)


def test_a_second_card_in_one_turn() -> None:
    def stop(st: State) -> bool:
        return in_turn(st) and bool(st.history) and st.history[-1].startswith("take ")

    record, state = find_position(stop)
    other = next(c for c in ("peasant", "merchant", "monk", "knight", "witch", "king")
                 if state.vals["holder"][c] != state.current_player)
    verdict = validate(with_entry(record, {"by": me(state), "action": f"take {other}"}))
    assert verdict.status == ILLEGAL and verdict.index == len(record["entries"])
    assert "not took" in verdict.reason
    assert "eine Ständekarte" in cited(verdict)


def test_a_monk_used_twice() -> None:
    def stop(st: State) -> bool:
        return in_turn(st) and bool(st.history) and st.history[-1].startswith("monk ")

    record, state = find_position(stop)
    board = state.world.adjacent["board"]
    source = next(r for r in state.world.nodes["board"] if state.zones["rats"][r]
                  and any(len(state.zones["rats"][b]) < 3 for b in board[r]))
    target = next(b for b in board[source] if len(state.zones["rats"][b]) < 3)
    action = f"monk {source} 1 {target}"
    verdict = validate(with_entry(record, {"by": me(state), "action": action}))
    assert verdict.status == ILLEGAL and verdict.index == len(record["entries"])
    assert "may_use" in verdict.reason
    assert "Mönch" in " ".join(c.section for c in verdict.citations)
    # the same action was legal before the first use
    first = record["entries"][-1]
    assert first["action"].startswith("monk ")


def test_a_plague_that_does_not_move() -> None:
    record, state = find_position(lambda st: in_turn(st) and "plague" in verbs(st))
    here = state.vals["plague"][None]
    verdict = validate(with_entry(record, {"by": me(state), "action": f"plague {here}"}))
    assert verdict.status == ILLEGAL and verdict.index == len(record["entries"])
    assert "neighbours(board, plague)" in verdict.reason
    assert "in eine zur ihrer aktuellen Region benachbarten Region bewegen" in cited(verdict)


def test_the_wrong_player_or_chance_out_of_turn() -> None:
    record, state = find_position(lambda st: in_turn(st) and "plague" in verbs(st), players=2)
    other = f"P{1 - state.current_player}"
    verdict = validate(with_entry(record, {"by": other, "action": state.legal_action_texts()[0]}))
    assert verdict.status == ILLEGAL and f"not for {other}" in verdict.reason
    verdict = validate(with_entry(record, {"by": "chance", "action": "draw 1:merchant+monk"}))
    assert verdict.status == ILLEGAL and "not for chance" in verdict.reason


def test_a_wrong_revealed_face_in_an_omniscient_record() -> None:
    record = record_game(4, seed=2)
    index = next(i for i, e in enumerate(record["entries"]) if "reveal" in e)
    truth = record["entries"][index]["reveal"]
    wrong = "6:M+monk+king" if truth != "6:M+monk+king" else "1:merchant+monk"
    record["entries"][index] = {"reveal": wrong}
    verdict = validate(record)
    assert verdict.status == ILLEGAL and verdict.index == index
    assert f"shows {truth}" in verdict.reason and f"not {wrong}" in verdict.reason


def test_a_face_that_cannot_exist_is_not_a_record() -> None:
    # Found by the record fuzzer: the schema admits the shape, the face parser refuses the meaning.
    record = record_game(4, seed=2)
    index = next(i for i, e in enumerate(record["entries"]) if "reveal" in e)
    record["entries"][index] = {"reveal": "3:M+M"}
    verdict = validate(record)
    assert verdict.status == NOT_A_RECORD
    assert verdict.path == f"$.entries[{index}].reveal" and "appears twice" in verdict.reason


def test_a_wrong_revealed_face_in_a_players_eye_record() -> None:
    game = load_rules()
    faces = [face_text(game, t) for t in range(len(game.piece_rows))]
    for seed in range(20):
        record = record_game(4, seed=seed, kind=PLAYERS_EYE)
        reveals = [(i, e["reveal"]) for i, e in enumerate(record["entries"]) if "reveal" in e]
        unique = [(i, f) for i, f in reveals if faces.count(f) == 1]
        if unique and len(reveals) > 1 and reveals[-1][0] > unique[0][0]:
            break
    first, face = unique[0]
    later = next(i for i, _ in reveals if i > first)
    record["entries"][later] = {"reveal": face}
    verdict = validate(record)
    assert verdict.status == ILLEGAL and verdict.index == later
    assert f"no token {face} can lie here" in verdict.reason and f"entry {first}" in verdict.reason
    # a face no token has
    record["entries"][later] = {"reveal": "1:A"}
    verdict = validate(record)
    assert verdict.status == ILLEGAL and "no token of the token set shows 1:A" in verdict.reason


def test_look_entries_of_a_players_eye_record() -> None:
    record = record_game(4, seed=1, kind=PLAYERS_EYE, viewer=1)
    looks = [i for i, e in enumerate(record["entries"]) if "look" in e]
    assert looks and all(record["entries"][i]["by"] == "P1" for i in looks)
    assert validate(record).finished
    # the looks are optional: without them the record is still legal
    bare = copy.deepcopy(record)
    bare["entries"] = [e for e in bare["entries"] if "look" not in e]
    assert validate(bare).finished
    first = looks[0]
    wrong = copy.deepcopy(record)
    wrong["entries"][first] = {"look": "1:A", "by": "P1"}
    verdict = validate(wrong)
    assert verdict.status == ILLEGAL and verdict.index == first and "1:A" in verdict.reason
    other = copy.deepcopy(record)
    other["entries"][first]["by"] = "P2"
    verdict = validate(other)
    assert verdict.status == ILLEGAL and verdict.index == first and "P2 looked at no token" in verdict.reason


def test_a_token_written_by_id() -> None:
    record = record_game(2, seed=1)
    record["entries"][0] = {"by": "chance", "action": "start-token #4"}
    verdict = validate(record)
    assert verdict.status == ILLEGAL and verdict.index == 0 and "never by an id" in verdict.reason


def test_missing_and_extra_reveal_entries() -> None:
    record = record_game(4, seed=2)
    index = next(i for i, e in enumerate(record["entries"]) if "reveal" in e)
    missing = copy.deepcopy(record)
    del missing["entries"][index]
    if "reveal" in missing["entries"][index]:
        del missing["entries"][index]
    verdict = validate(missing)
    assert verdict.status == ILLEGAL and "a reveal entry must follow for each" in verdict.reason
    extra = copy.deepcopy(record)
    extra["entries"].insert(index + 1, {"reveal": "1:merchant+monk"})
    while "reveal" in extra["entries"][index + 2]:
        index += 1
    verdict = validate(extra)
    assert verdict.status == ILLEGAL and "reveal entries" in verdict.reason


def test_an_unknown_face_in_an_omniscient_record() -> None:
    record = record_game(2, seed=1)
    record["entries"][0] = {"by": "chance", "action": "start-token ?"}
    verdict = validate(record)
    assert verdict.status == ILLEGAL and verdict.index == 0 and "omniscient" in verdict.reason
    record["kind"] = PLAYERS_EYE  # but the other chance entries state faces: relabelled, not players-eye
    verdict = validate(record)
    assert verdict.status == ILLEGAL and verdict.index == 1 and "players-eye record writes" in verdict.reason


def test_an_omniscient_record_relabelled_players_eye() -> None:
    record = record_game(3, seed=2)
    record["kind"] = PLAYERS_EYE
    verdict = validate(record)
    assert verdict.status == ILLEGAL and verdict.index == 0 and "as ?" in verdict.reason
    eye = record_game(3, seed=2, kind=PLAYERS_EYE)
    assert validate(eye).finished


@pytest.mark.parametrize("kind", ["omniscient", PLAYERS_EYE])
def test_the_seed_is_checked_against_the_chance_entries(kind: str) -> None:
    record = record_game(3, seed=5, kind=kind)
    verdict = validate(record)
    assert verdict.finished and verdict.warnings == ()
    for seed in (6, 2**64 - 1):
        other = {**record, "seed": seed}
        verdict = validate(other)
        assert verdict.finished and verdict.scores == validate(record).scores  # the entries decide
        assert len(verdict.warnings) == 1 and f"seed {seed} did not play this game" in verdict.warnings[0]
        assert "entry " in verdict.warnings[0]
    unseeded = {k: v for k, v in record.items() if k != "seed"}
    assert validate(unseeded).warnings == ()


def test_a_record_that_goes_on_after_the_game_ended() -> None:
    record = record_game(3, seed=1)
    n = len(record["entries"])
    verdict = validate(with_entry(record, {"by": "P0", "action": "end"}))
    assert verdict.status == ILLEGAL and verdict.index == n
    assert "the game is over" in verdict.reason
    assert verdict.legal == ()


def test_a_record_legal_only_under_a_non_default_switch() -> None:
    record = record_game(4, seed=1, interpretations={"reveal-order": "placed"})
    assert record["interpretations"] == {"reveal-order": "placed"}
    assert validate(record).finished
    stripped = copy.deepcopy(record)
    stripped["interpretations"] = {}
    verdict = validate(stripped)
    assert verdict.status == ILLEGAL
    assert "reveal" in " ".join(verdict.legal)
    assert validate(stripped, {"reveal-order": "placed"}).finished
    report = which_interpretations(stripped)
    legal = [dict(t.changes) for t in report.legal]
    assert {"reveal-order": "placed"} in legal
    assert {} not in legal
    rejected = {t.changes: t.verdict for t in report.rejected}
    assert rejected[()].index == verdict.index
    assert "reveal-order=placed" in report.format()


def test_which_interpretations_of_a_default_record() -> None:
    record = record_game(2, seed=3)
    report = which_interpretations(record)
    legal = [dict(t.changes) for t in report.legal]
    assert {} in legal
    # the setup of a 2-player game does not depend on the Knight's final reading
    assert {"final-knight-neutral": "always"} in legal or any(
        t.changes == (("final-knight-neutral", "always"),) for t in report.rejected)
    assert any(t.changes == (("plague-start", "start-player"),) for t in report.rejected)


# ----------------------------------------------------------- not a record
@pytest.mark.parametrize(("value", "path"), [
    (None, "$"),
    ([], "$"),
    ({"format": "rattus-record"}, "$"),
    ({"format": "rattus-record", "version": 1, "kind": "omniscient", "seats": ["a"], "entries": []}, "$.seats"),
    ({"format": "rattus-record", "version": 1, "kind": "omniscient", "seats": ["a", "b"],
      "entries": [{"by": "P0", "action": "place Gallia"}, {"reveal": "9:M"}]}, "$.entries[1].reveal"),
    ({"format": "rattus-record", "version": 1, "kind": "omniscient", "seats": ["a", "b"],
      "entries": [{"by": "P7", "action": "end"}]}, "$.entries[0].by"),
    ({"format": "rattus-record", "version": 1, "kind": "omniscient", "seats": ["a", "b"],
      "interpretations": {"reveal-odrer": "placed"}, "entries": []}, "$.interpretations.reveal-odrer"),
    ({"format": "rattus-record", "version": 2, "kind": "omniscient", "seats": ["a", "b"], "entries": []},
     "$.version"),
])
def test_not_a_record_names_the_json_path(value: Any, path: str) -> None:
    verdict = validate(value)
    assert verdict.status == NOT_A_RECORD, verdict
    assert verdict.path == path
    assert verdict.exit_code == 2
    assert verdict.format().startswith(f"not a record: {path}")


@pytest.mark.parametrize("entry", [
    {"by": "P0", "action": "take monk"}, {"by": "chance", "action": "draw 2:M+A"}, {"reveal": "3:M+king"},
    {"look": "1:A", "by": "P2"}, {"by": "P0\n", "action": "end"}, {"look": "1:A", "by": "chance"}, {"by": "P0"},
    {"action": "end"}, {"by": "P0", "action": "end", "reveal": "1:M"}, {"by": "P0", "action": "End"},
    {"by": "P0", "action": "x" * 201}, {"reveal": 3}, {"reveal": "1:M", "by": "P0"}, {}, [],
    {"by": "P1", "action": "end", "comment": "x"}, {"look": "1:A"}, {"by": 0, "action": "end"},
])
def test_entries_are_judged_as_the_whole_schema_judges_them(entry: Any) -> None:
    # common entry shapes are checked by a quick test, not the compiled schema: the verdict must not change
    import fastjsonschema

    good = {"by": "P0", "action": "end"}
    record = {"format": "rattus-record", "version": 1, "kind": "omniscient", "seats": ["a", "b"],
              "entries": [good, entry, good]}
    try:
        fastjsonschema.compile(schema())(record)
        expected = None
    except fastjsonschema.JsonSchemaValueException as err:
        expected = "$" + str(err.name).removeprefix("data")
    bad = check_format(record)
    assert (None if bad is None else bad.path) == expected
    if expected is not None:
        assert expected.startswith("$.entries[1]")


def test_validate_never_raises_on_odd_values() -> None:
    for value in (1, "x", {"entries": {1, 2}}, {"format": float("nan")}, [[[]]], {"a": object()}):
        assert validate(value).status == NOT_A_RECORD


def test_a_record_with_other_component_data_is_flagged() -> None:
    record = record_game(2, seed=1)
    record["components"]["sha256"] = "0" * 64
    verdict = validate(record)
    assert verdict.finished and any("other component data" in w for w in verdict.warnings)


# -------------------------------------------------------------- replay
def test_replay_gives_the_state_after_n_entries() -> None:
    record = record_game(3, seed=4)
    state = load_rules().new_state(3, seed=4)
    player = RandomPlayer(4)
    applied = 0
    for n, entry in enumerate(record["entries"]):
        if "reveal" in entry:
            continue
        if applied == 30:
            replayed, verdict, _ = replay(record, n)
            assert verdict.status == LEGAL and verdict.entries == n
            assert replayed.vals == state.vals
            assert replayed.current_player == state.current_player
            break
        index = state.random_chance_index() if state.is_chance_node() else player.choose(state)
        state.apply_index(index)
        applied += 1
    else:
        raise AssertionError("record too short")


# ------------------------------------------------------------------ CLI
def test_cli_play_record_validate_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.json"
    assert main(["play", "-n", "2", "-s", "3", "-q", "--record", str(out)]) == 0
    record = json.loads(out.read_text())
    jsonschema.validate(record, schema())
    assert record == record_game(2, seed=3)
    capsys.readouterr()
    assert main(["validate", str(out)]) == 0
    assert "final scores" in capsys.readouterr().out
    assert main(["replay", str(out), "--at", "25"]) == 0
    shown = capsys.readouterr().out
    assert "after 25 of" in shown and "plague:" in shown
    record["entries"].append({"by": "P1", "action": "end"})
    bad = tmp_path / "bad.json"
    bad.write_text(dumps(record))
    assert main(["validate", str(bad)]) == 1
    shown = capsys.readouterr().out
    assert f"entry {len(record['entries']) - 1}" in shown and "the game is over" in shown
    assert main(["validate", "--json", str(bad)]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "illegal"


def test_cli_players_eye_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "eye.json"
    assert main(["play", "-n", "3", "-s", "2", "-q", "--record", str(out), "--record-kind", PLAYERS_EYE,
                 "--viewer", "P1"]) == 0
    record = json.loads(out.read_text())
    assert record["viewer"] == "P1" and record["kind"] == PLAYERS_EYE
    assert main(["validate", str(out)]) == 0
    assert main(["play", "-n", "3", "-q", "--record", str(out), "--viewer", "P1"]) == 2
    capsys.readouterr()
    for seat in ("P3", "P01", "p1", "1", "P-1"):  # seats are read by the notation: P0..P2, written so
        assert main(["play", "-n", "3", "-q", "--record", str(out), "--record-kind", PLAYERS_EYE,
                     "--viewer", seat]) == 2
        captured = capsys.readouterr()
        assert f"--viewer names a seat P0..P2, not '{seat}'" in captured.err
        assert captured.out == ""  # refused before the game's header is printed
    # without --record, the record's options are refused, not ignored
    for extra in (["--viewer", "P1"], ["--record-kind", PLAYERS_EYE]):
        assert main(["play", "-n", "3", "-q", *extra]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and f"rattus: {extra[0]} is for the record of --record FILE" in captured.err


def test_cli_not_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "rattus-record",\n "seats": [1, }')
    assert main(["validate", str(broken)]) == 2
    assert "line 2 column" in capsys.readouterr().err
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "rattus-record", "version": 1, "kind": "omniscient",
                                 "seats": ["a", "b"], "entries": [{"by": "P0"}]}))
    assert main(["validate", str(wrong)]) == 2
    assert "$.entries[0]" in capsys.readouterr().err
    assert main(["validate", str(tmp_path / "missing.json")]) == 2


def test_cli_which_interpretations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = record_game(2, seed=1, interpretations={"reveal-order": "placed"})
    record["interpretations"] = {}
    path = tmp_path / "r.json"
    path.write_text(dumps(record))
    assert main(["validate", str(path)]) == 1
    capsys.readouterr()
    assert main(["validate", "--which-interpretations", str(path)]) == 0
    shown = capsys.readouterr().out
    assert "legal under:\n  reveal-order=placed" in shown
    assert main(["validate", str(path), "-i", "reveal-order=placed"]) == 0
    assert main(["validate", str(path), "-i", "reveal-order=sideways"]) == 2


def test_cli_perft_and_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "-n", "2", "-s", "1", "-d", "2"]) == 0
    shown = capsys.readouterr().out
    assert "depth 1: " in shown and "depth 2: " in shown
    assert main(["perft", "-n", "2", "-s", "1", "-d", "2", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    total = int(lines[-1].split(": ")[1])
    assert total == sum(int(line.rsplit(": ", 1)[1]) for line in lines[1:-1])
    scenarios = sorted(str(p) for p in (Path(__file__).parent / "scenarios").glob("*.scn"))
    assert main(["scenario", "-q", *scenarios]) == 0


@pytest.mark.parametrize("depth", ["0", "13", "99999999999"])
def test_cli_perft_depth_is_bounded(depth: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "-n", "2", "-s", "1", "-d", depth]) == 2
    assert "--depth must be from 1 to 12" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["play", "-q"], ["perft", "--depth", "1"]])
def test_cli_unreadable_data_is_bad_input(argv: list[str], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Tables given with --data are the user's input: a link to a device exits 2 (bad input), not 1."""
    for name in ("regions.csv", "board.csv", "rat_tokens.csv"):
        (tmp_path / name).symlink_to("/dev/zero")
    assert main([*argv, "--data", str(tmp_path)]) == 2
    assert "not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["validate", "replay", "view"])
def test_cli_record_from_a_fifo_is_refused(command: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A record that is no regular file (a FIFO would wait for a writer forever) exits 2 at once."""
    fifo = tmp_path / "rec.json"
    os.mkfifo(fifo)
    assert main([command, str(fifo)]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_the_shipped_schema_is_the_one_built_for_rattus() -> None:
    # one definition: rattus_rules/tools/records/recordformat.py builds the schema of any game's records; the file
    # other implementations read is the one it builds for Rattus (rewrite it with json.dumps(..., indent=2))
    from rattus_rules import load_rules
    from rattus_rules.tools.records.validate import record_format

    assert record_format(load_rules()).schema_dict == schema()


def test_token_faces_read_a_face_by_their_own_game_s_classes() -> None:
    # TokenFaces(game) reads a face with the classes of its game, not of whatever Rattus is loaded: the
    # schema's pattern is made from the game's classes, and a cache of faces by their text alone would
    # answer for another game's classes
    from types import SimpleNamespace

    from rattus_rules.games.rattus.faces import TokenFaces
    from rattus_rules.games.rattus.names import CLASS_ENUM

    ours = TokenFaces(load_rules())
    assert ours.canonical("2:monk+M") == "2:M+monk"
    renamed = ("peasant", "merchant", "monk", "knight", "hexe", "king")
    other = SimpleNamespace(symbols=SimpleNamespace(enums={CLASS_ENUM: SimpleNamespace(values=renamed)}))
    theirs = TokenFaces(other)  # type: ignore[arg-type]
    assert re.fullmatch(theirs.pattern, "2:hexe+M") and not re.fullmatch(theirs.pattern, "2:witch+M")
    assert theirs.canonical("2:hexe+M") == "2:M+hexe"
    with pytest.raises(ValueError, match="unknown symbol 'witch'"):
        theirs.canonical("2:witch+M")
    assert ours.canonical("1:witch") == "1:witch"
    with pytest.raises(ValueError, match="unknown symbol 'hexe'"):
        ours.canonical("1:hexe")
