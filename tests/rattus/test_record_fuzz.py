"""Records: arbitrary and mutated JSON only ever yields a verdict.

``rattus_rules.tools.records.validate.validate`` must answer anything with a
:class:`~rattus_rules.tools.records.validate.Verdict` — legal, illegal (naming the first bad
entry, which must really be in the record) or not a record (with a JSON path)
— never raise, never change its input, and never fall back on its
"internal error" answer (that would be a bug caught by its last resort).
Inputs: arbitrary JSON values, arbitrary headers, and records of real games
(omniscient and players-eye) with entries deleted, doubled, swapped, cut off,
rewritten or given wrong types.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rattus_rules.cli import main
from rattus_rules.tools.records.validate import OMNISCIENT, PLAYERS_EYE, Verdict, record_game, validate

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)
FUZZ = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Records of real games to mutate: (players, seed, kind, viewer, settings).
GAMES = [(2, 1, OMNISCIENT, None, {}), (3, 2, PLAYERS_EYE, 1, {"reveal-order": "placed"}),
         (4, 3, OMNISCIENT, None, {"ability-window": "whole-turn"}), (2, 4, PLAYERS_EYE, None, {})]
RECORDS = [record_game(players, seed, chosen, kind, viewer) for players, seed, kind, viewer, chosen in GAMES]


def check_verdict(record: Any, verdict: Verdict) -> None:
    """What every verdict must satisfy."""
    assert isinstance(verdict, Verdict)
    assert verdict.status in ("legal", "illegal", "not-a-record")
    assert "internal error" not in verdict.reason, verdict.reason
    assert verdict.exit_code == {"legal": 0, "illegal": 1, "not-a-record": 2}[verdict.status]
    json.dumps(verdict.to_json(), ensure_ascii=False)
    assert verdict.format()
    if verdict.status == "not-a-record":
        assert verdict.path.startswith(("$", "line ")) and verdict.reason
        return
    entries = record["entries"]
    if verdict.status == "illegal":
        assert verdict.index is not None and 0 <= verdict.index < len(entries)
        assert verdict.entry == entries[verdict.index] and verdict.reason
        assert verdict.entries <= verdict.index
    else:
        assert verdict.entries == len(entries)
        if verdict.finished:
            assert len(verdict.scores) == len(record["seats"]) and verdict.winners


def validate_checked(record: Any) -> Verdict:
    before = copy.deepcopy(record)
    verdict = validate(record)
    assert record == before, "validate changed its input"
    check_verdict(record, verdict)
    return verdict


def test_the_records_to_mutate_are_legal() -> None:
    for record in RECORDS:
        verdict = validate_checked(record)
        assert verdict.ok and verdict.finished


@FUZZ
@given(JSON)
def test_arbitrary_json_is_not_a_record(value: Any) -> None:
    assert validate_checked(value).status == "not-a-record"


@FUZZ
@given(st.fixed_dictionaries({"format": st.sampled_from(["rattus-record", "x"]), "version": JSON,
                              "kind": st.sampled_from([OMNISCIENT, PLAYERS_EYE, "other"]), "seats": JSON},
                             optional={"interpretations": JSON, "components": JSON, "seed": JSON,
                                       "entries": JSON, "viewer": JSON}))
def test_arbitrary_headers_get_a_verdict(value: dict[str, Any]) -> None:
    validate_checked(value)


WORDS = sorted({word for record in RECORDS for e in record["entries"] for word in
                str(e.get("action", e.get("reveal", e.get("look", "")))).split()})


@st.composite
def mutated_records(draw: st.DrawFn) -> dict[str, Any]:
    record: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(RECORDS)))
    entries: list[Any] = record["entries"]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(entries) - 1)) if entries else 0
        kind = draw(st.sampled_from(["delete", "double", "swap", "cut", "word", "text", "by", "type", "field",
                                     "header", "face"]))
        if not entries:
            break
        entry = entries[i]
        if kind == "delete":
            del entries[i]
        elif kind == "double":
            entries.insert(i, copy.deepcopy(entry))
        elif kind == "swap":
            j = draw(st.integers(0, len(entries) - 1))
            entries[i], entries[j] = entries[j], entries[i]
        elif kind == "cut":
            del entries[i:]
        elif kind == "word" and str(entry.get("action", "")).split():  # (an earlier mutation may blank it)
            words = str(entry["action"]).split()
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(WORDS))
            entry["action"] = " ".join(words)
        elif kind == "text":
            key = draw(st.sampled_from(sorted(entry)))
            entry[key] = draw(st.text(max_size=20))
        elif kind == "by":
            entry["by"] = draw(st.sampled_from(["P0", "P1", "P2", "P3", "P7", "chance", "nobody"]))
        elif kind == "type":
            key = draw(st.sampled_from(sorted(entry)))
            entry[key] = draw(JSON)
        elif kind == "field":
            entry[draw(st.text(max_size=8))] = draw(JSON)
        elif kind == "header":
            key = draw(st.sampled_from(sorted(k for k in record if k != "entries")))
            record[key] = draw(st.one_of(JSON, st.just(copy.deepcopy(record[key]))))
        elif kind == "face":
            entries.insert(i, {"reveal": draw(st.sampled_from(["1:M", "6:A", "2:merchant+monk", "9:king", "0:",
                                                               "3:M+M", "?"]))})
    return record


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_records())
def test_mutated_records_get_a_verdict(record: dict[str, Any]) -> None:
    validate_checked(record)


def test_deeply_nested_and_huge_input_is_not_a_record() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = {"entries": deep}
    verdict = validate(deep)  # (too deep to copy or compare here)
    assert verdict.status == "not-a-record" and "internal error" not in verdict.reason
    record = copy.deepcopy(RECORDS[0])
    record["entries"][5]["action"] = [[[[[]]]]] * 1000
    assert validate_checked(record).status == "not-a-record"
    record = copy.deepcopy(RECORDS[0])
    record["entries"] += [copy.deepcopy(e) for e in record["entries"][-20:]] * 50  # goes on after the end
    verdict = validate_checked(record)
    assert verdict.status == "illegal" and verdict.index == len(RECORDS[0]["entries"])


@pytest.mark.parametrize("text", ["", "{", "[1, 2", "nul", "\x00", "{\"format\": \"rattus-record\"}",
                                  "[" * 100_000, "1e999999", "\"\\ud800\"", "{\"a\": NaN}"])
def test_the_validate_command_answers_any_text(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    assert "not a record" in captured.out + captured.err and "Traceback" not in captured.err
