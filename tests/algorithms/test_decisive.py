"""Games a reading decides: found, recorded, legal under their readings, with different winners."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from rattus_rules.algorithms.decisive import decisive_games, find_decided, mattering
from rattus_rules.cli import main
from rattus_rules.tools.records.validate import record_game, validate

DOCS = Path(__file__).resolve().parents[2] / "docs"


def study(rate_low: float) -> dict[str, object]:
    """A study's JSON as `rattus study` writes it, cut to what the finder reads."""
    option = {"switch": "tie-break", "option": "shared", "compared": 20,
              "winner_change": {"mean": 0.1, "low": rate_low, "high": 0.3, "n": 20}}
    return {"studies": [{"game": {"name": "rattus"}, "params": {"agent": "random"},
                         "results": {"2": {"options": [option]}}}]}


def test_only_readings_that_changed_a_winner_matter() -> None:
    assert mattering(study(0.03)["studies"][0]) == [(2, "tie-break", "shared", 0.1)]  # type: ignore[index]
    assert mattering(study(0.0)["studies"][0]) == []  # type: ignore[index]


def test_a_decided_pair_is_recorded_and_each_record_is_legal_under_its_reading(tmp_path: Path) -> None:
    found = find_decided("rattus", "random", 2, "tie-break", "shared")
    assert found is not None and found.default_winners != found.option_winners
    page = tmp_path / "decisive.md"
    result = decisive_games(study(0.03)["studies"][0], "rattus", tmp_path / "games", page,  # type: ignore[index]
                            lambda p: p.name)
    assert result["rows"] == 1
    records = sorted((tmp_path / "games").glob("*.json"))
    assert [r.name for r in records] == [f"tie-break-default-2p-seed{found.seed}.json",
                                         f"tie-break-shared-2p-seed{found.seed}.json"]
    default, shared = (json.loads(r.read_text()) for r in records)
    verdicts = [validate(default), validate(shared, {"tie-break": "shared"})]
    assert [v.status for v in verdicts] == ["legal", "legal"]
    assert verdicts[0].winners != verdicts[1].winners
    # each record names its reading, so it is read under it without being told
    assert validate(shared).winners == verdicts[1].winners
    assert "tie-break" in json.dumps(shared) and "tie-break" not in json.dumps(default)
    text = page.read_text()
    assert "`tie-break=shared`" in text and records[0].name in text
    assert not list((tmp_path / "games").glob("*.html"))  # the docs build renders the viewer pages


def test_the_docs_build_renders_a_viewer_page_beside_each_record(tmp_path: Path) -> None:
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from rattus_docs import write_viewer_pages
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    docs = tmp_path / "docs"
    (docs / "decisive" / "rattus").mkdir(parents=True)
    record = record_game(2, seed=3, game_name="rattus")
    (docs / "decisive" / "rattus" / "g.json").write_text(json.dumps(record))
    written = write_viewer_pages(tmp_path / "out", docs)
    assert written == [tmp_path / "out" / "decisive" / "rattus" / "g.html"]
    page = written[0].read_text()
    assert page.startswith("<!DOCTYPE html>") and "Rattus" in page


def test_the_command_refuses_what_is_not_a_study(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    for text, said in (("[1]", "not a study's JSON"), ("{\"studies\": [1, 2]}", "name one of its agents"),
                       ("NaN", "not a number"), ("{", "Expecting")):
        bad.write_text(text)
        assert main(["decisive", str(bad), "--out", str(tmp_path / "o"), "--markdown", str(tmp_path / "p.md")]) == 2
        assert said in capsys.readouterr().err
    other = tmp_path / "other.json"
    data = study(0.03)
    data["studies"][0]["game"] = {"name": "ratten_scharf"}  # type: ignore[index]
    other.write_text(json.dumps(data))
    assert main(["decisive", str(other), "--out", str(tmp_path / "o"), "--markdown", str(tmp_path / "p.md")]) == 2
    assert "add --game ratten_scharf" in capsys.readouterr().err
