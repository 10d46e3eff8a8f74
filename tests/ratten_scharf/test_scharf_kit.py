"""The conformance kit of the second game: made from its spec alone, up to date, with the verdicts
it states, and usable the way its README says — the referee of this game passes, another fails."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
import pytest

from rattus_rules.api import load_rules
from rattus_rules.cli import main
from rattus_rules.tools.kit.conformance import build, differences, kit_root, loads_golden
from rattus_rules.tools.kit.kit import check, kit_dir
from rattus_rules.tools.kit.schemas import registry_with, validator
from rattus_rules.tools.records.validate import record_format, validate, walk

from ..rattus.test_conformance import check_verdicts_by_hand

GAME = "ratten_scharf"
ROOT = kit_root(GAME, Path(__file__).resolve().parents[2] / "conformance")
SCHEMA = record_format(load_rules(game=GAME)).schema_dict
REFEREE = f"{sys.executable} -m rattus_rules --game {GAME} serve"


def test_the_kit_is_up_to_date_and_lies_beside_rattus_s() -> None:
    # after a deliberate change of the rules: `make golden`
    assert ROOT.name == GAME and ROOT.parent.name == "conformance"
    assert differences(ROOT, build(GAME), GAME) == []
    assert kit_dir(GAME) == ROOT


def test_recorded_games_get_the_verdicts_of_expected_json() -> None:
    expected = json.loads((ROOT / "games" / "expected.json").read_text(encoding="utf-8"))
    # the illegal games are made without knowing the game: one of each kind
    assert {"illegal-wrong-seat.json", "illegal-action-no-longer-legal.json",
            "illegal-outcome-no-longer-possible.json", "illegal-after-the-end.json",
            "legal-2p-omniscient.json", "legal-2p-players-eye.json"} <= set(expected)
    own_schema = jsonschema.Draft7Validator(SCHEMA)  # Rattus's schema does not name this game's pieces
    for name, want in expected.items():
        record = json.loads((ROOT / "games" / name).read_text(encoding="utf-8"))
        assert record["game"] == GAME
        own_schema.validate(record)
        verdict = validate(record, game_name=GAME)
        assert verdict.status == want["status"], name
        if want["status"] == "illegal":
            assert verdict.index == want["index"] and record["entries"][verdict.index] == want["entry"], name
            # the entry before it is legal: the record is the legal game cut where it goes wrong
            assert validate({**record, "entries": record["entries"][:want["index"]]}, game_name=GAME).ok, name
        else:
            assert list(verdict.scores) == want["scores"] and list(verdict.winners) == want["winners"], name


def test_golden_playthroughs_replay_through_the_validator_with_the_same_legal_actions() -> None:
    paths = sorted((ROOT / "golden").glob("*.json"))
    # one for each player count, then one for each switch option that is not its default
    assert [p.stem for p in paths][:2] == ["2p-seed10-table-size-7", "2p-seed11-table-size-9"]
    assert {"2p-seed2", "2p-seed3-rat-check-both", "2p-seed5-cover-any-depth", "2p-seed7-no-fit-end",
            "2p-seed16-rats-per-colour-10"} <= {p.stem for p in paths} and len(paths) == 15
    for path in paths:
        golden = loads_golden(path.read_text(encoding="utf-8"))
        validator("golden", record=SCHEMA).validate(json.loads(path.read_text(encoding="utf-8")))
        states, verdict = walk(golden["record"], game_name=GAME)
        assert verdict.finished and list(verdict.scores) == golden["scores"]
        assert [i for i, legal in enumerate(golden["legal"]) if legal is not None] == [i for i, _ in states]


def test_perft_vectors_stop_where_the_counts_grow_too_large() -> None:
    data = json.loads((ROOT / "perft.json").read_text(encoding="utf-8"))
    validator("perft", record=SCHEMA).validate(data)
    assert {(v["players"], v["chance"]) for v in data["vectors"]} == {(2, "first"), (2, "seed")}
    for v in data["vectors"]:
        counts = [v["perft"][d] for d in sorted(v["perft"], key=int)]
        assert counts[0] == 48 and counts == sorted(counts) and counts[-1] <= 50_000


def test_the_referee_of_this_game_passes_its_kit() -> None:
    results = list(check(REFEREE, game=GAME))
    assert results and all(r.passed for r in results), [r.format() for r in results if not r.passed]
    # the seed vector's setup draws a strip face up: its reveal entry is checked against the engine's
    assert any(r.name == "perft/2p-seed1-seed" for r in results)


def test_an_engine_of_another_game_fails_it() -> None:
    rattus = f"{sys.executable} -m rattus_rules serve"
    (result,) = check(rattus, ROOT, only="games/legal-2p-omniscient", game=GAME)
    assert not result.passed and "refuses 'draw " in result.detail


def test_export_holds_this_kit_and_make_remakes_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", GAME, "conformance", "export", str(tmp_path / "kit")]) == 0
    kit = tmp_path / "kit"
    assert (kit / "README.md").read_text(encoding="utf-8").startswith("# Conformance kit: check your Ratten Scharf")
    assert (kit / "clients" / "referee_client.js").is_file() and (kit / "schema" / "record.schema.json").is_file()
    # the schemas that are the game's own: its records, and perft vectors for its player counts only
    perft = json.loads((kit / "schema" / "perft.schema.json").read_text(encoding="utf-8"))
    players = perft["properties"]["vectors"]["items"]["properties"]["players"]
    assert (players["minimum"], players["maximum"]) == (2, 2)
    record = json.loads((kit / "schema" / "record.schema.json").read_text(encoding="utf-8"))
    assert record["properties"]["game"]["const"] == GAME
    vectors = json.loads((kit / "perft.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(perft, registry=registry_with(record)).validate(vectors)
    assert (kit / "golden" / "2p-seed2.json").read_text(encoding="utf-8") == \
        (ROOT / "golden" / "2p-seed2.json").read_text(encoding="utf-8")
    assert main(["--game", GAME, "conformance", "make", str(tmp_path / "made")]) == 0
    assert sorted(p.relative_to(tmp_path / "made").as_posix() for p in (tmp_path / "made").rglob("*.json")) == \
        sorted(p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.json"))
    assert "made 25 files" in capsys.readouterr().out


def test_rattus_s_export_leaves_the_other_games_kits_out(tmp_path: Path) -> None:
    assert main(["conformance", "export", str(tmp_path)]) == 0
    assert not (tmp_path / GAME).exists() and (tmp_path / "perft.json").is_file()


def test_illegal_verdicts_agree_with_the_ones_written_by_hand() -> None:
    by_hand = json.loads((Path(__file__).parent / "data" / "verdicts_by_hand.json").read_text(encoding="utf-8"))
    check_verdicts_by_hand(ROOT, by_hand["verdicts"], GAME)
