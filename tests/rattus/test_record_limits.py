"""Records: bounded work for any input (issue 9.5).

A record has at most ``MAX_ENTRIES`` entries and its text at most
``MAX_RECORD_CHARS`` characters; past either it is refused, as not a record
(exit 2), before any work proportional to the excess is done.  The schema
check stops at the first error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rattus_rules.cli import main
from rattus_rules.tools.records.validate import (
    MAX_ENTRIES,
    MAX_RECORD_CHARS,
    NOT_A_RECORD,
    check_format,
    load_record_text,
    record_game,
    schema,
    validate,
    which_interpretations,
)


def header() -> dict[str, Any]:
    return {"format": "rattus-record", "version": 1, "kind": "omniscient", "seats": ["a", "b"]}


def test_the_limits_are_the_schemas() -> None:
    assert schema()["properties"]["entries"]["maxItems"] == MAX_ENTRIES == 10_000
    assert 100 * len(json.dumps(record_game(4, seed=1))) <= MAX_RECORD_CHARS


def test_a_million_invalid_entries_are_refused_by_their_count() -> None:
    record = {**header(), "entries": [{"by": "P9"}] * 1_000_000}
    verdict = validate(record)
    assert verdict.status == NOT_A_RECORD and verdict.path == "$.entries"
    assert "1,000,000 entries" in verdict.reason and f"{MAX_ENTRIES:,}" in verdict.reason


def test_one_entry_too_many_is_refused_and_the_limit_itself_is_not() -> None:
    at_limit = {**header(), "entries": [{"by": "P0", "action": "end"}] * MAX_ENTRIES}
    assert check_format(at_limit) is None
    over = {**header(), "entries": at_limit["entries"] + [{"by": "P0", "action": "end"}]}
    bad = check_format(over)
    assert bad is not None and bad.path == "$.entries"


def test_many_schema_errors_report_the_first() -> None:
    entries: list[Any] = [{"by": "P0", "action": "end"}] * 5 + [{"by": "P9"}] * (MAX_ENTRIES - 5)
    verdict = validate({**header(), "entries": entries})
    assert verdict.status == NOT_A_RECORD and verdict.path.startswith("$.entries[5]")


def test_which_interpretations_of_too_many_entries_is_refused() -> None:
    record = {**header(), "entries": [{"by": "P0", "action": "end"}] * 100_000}
    report = which_interpretations(record)
    assert report.not_a_record is not None and report.not_a_record.path == "$.entries"
    assert not report.legal and not report.rejected


def test_a_text_too_long_is_refused_unparsed() -> None:
    record, bad = load_record_text(" " * (MAX_RECORD_CHARS + 1))
    assert record is None and bad is not None and bad.status == NOT_A_RECORD
    assert f"{MAX_RECORD_CHARS:,} characters" in bad.reason


@pytest.mark.parametrize("which", [False, True])
def test_the_cli_refuses_huge_records_cleanly(tmp_path: Path, which: bool,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "million.json"  # 1 M invalid entries: too long to read
    big.write_text(json.dumps({**header(), "entries": [{"by": "P9"}] * 1_000_000}))
    many = tmp_path / "many.json"  # 100 k well-formed entries: short enough, too many entries
    many.write_text(json.dumps({**header(), "entries": [{"by": "P0", "action": "end"}] * 100_000}))
    flags = ["--which-interpretations"] if which else []
    assert main(["validate", *flags, str(big)]) == 2
    out = capsys.readouterr()
    assert "characters" in out.err + out.out and "Traceback" not in out.err
    assert main(["validate", *flags, str(many)]) == 2
    out = capsys.readouterr()
    assert "100,000 entries" in out.err + out.out and "Traceback" not in out.err


def test_a_fast_pass_that_needs_copies_starts_again_with_them() -> None:
    # without its seed a players-eye record's hidden draws take tokens that later show other faces:
    # the fast pass keeps no copies to rebind from, so the full pass answers, as before
    from rattus_rules.api import load_rules
    from rattus_rules.games.rattus.faces import TokenFaces
    from rattus_rules.tools.records.validate import _validate_checked
    from rattus_rules.tools.records.walk import RecordWalk, Rewind

    game = load_rules()
    record = record_game(3, seed=4, kind="players-eye")
    unseeded = {k: v for k, v in record.items() if k != "seed"}
    fast = RecordWalk(game, unseeded, game.settings_for({}), TokenFaces(game), keep=False)
    with pytest.raises(Rewind):
        fast.run()
    full = _validate_checked(game, unseeded, None)
    assert full.finished and full.scores == validate(record).scores
    assert RecordWalk(game, unseeded, game.settings_for({}), TokenFaces(game)).run().scores == full.scores


def test_texts_accepted_by_the_format_check_are_remembered_up_to_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # the format check remembers the actions, seats and faces it accepted (records repeat them), but no
    # more than ACCEPTED_MEMORY of each: records from outside cannot grow it without end
    from rattus_rules.tools.records import recordformat

    monkeypatch.setattr(recordformat, "ACCEPTED_MEMORY", 3)
    accepted = recordformat._Accepted(lambda t: t.startswith("a"))
    answers = [accepted(t) for t in ("a1", "b", "a2", "a3", "a4", "a1", "a4", "b")]
    assert answers == [True, False, True, True, True, True, True, False]
    assert accepted.known == {"a1", "a2", "a3"}
