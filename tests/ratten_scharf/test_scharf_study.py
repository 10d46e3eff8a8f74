"""Which readings of Ratten Scharf matter: the study runs on the second game as on Rattus, with the
game's own switches, player counts and (having no words of its own) one end reason, `finished`."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from rattus_rules.cli import main
from rattus_rules.tools.study.study import StudyParams, run_study


def _options(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f"{o['switch']}={o['option']}": o for o in result["results"]["2"]["options"]}


@pytest.fixture(scope="module")
def study() -> dict[str, Any]:
    return run_study(StudyParams(players=(2,), games=24, game="ratten_scharf"), workers=1)


def test_the_study_pairs_each_reading_of_the_second_game(study: dict[str, Any]) -> None:
    assert study["game"]["name"] == "ratten_scharf" and study["game"]["title"] == "Ratten Scharf"
    assert study["game"]["end_reasons"] == {"finished": "the rules finished the game"}
    options = _options(study)
    sizes = {f"table-size={n}" for n in (5, 7, 9, 11, 13, 15, 17)}
    assert set(options) == {"rat-check=both", "final-tie=last-mover", "cover=any-depth", "group-scoring=changed",
                            "no-fit=end", "chip-supply=limited", "rats-per-colour=10"} | sizes
    # a table of 5 fields a side binds in most games: play differs
    assert options["table-size=5"]["diverged"]["mean"] > 0.5
    # who wins a tie is decided after the last strip: play is the same in every pair
    assert options["final-tie=last-mover"]["diverged"]["mean"] == 0
    # counting both players' rats ends some games earlier: play differs, and games are shorter
    both = options["rat-check=both"]
    assert both["diverged"]["mean"] > 0 and both["length_delta"]["mean"] < 0
    default = study["results"]["2"]["default"]
    assert default["games"] == 24 and default["end"]["finished"]["mean"] == 1 and default["cut"] == 0


def test_the_result_does_not_depend_on_the_workers(study: dict[str, Any]) -> None:
    again = run_study(StudyParams(players=(2,), games=24, game="ratten_scharf", chunk=5), workers=2)
    assert again["results"] == study["results"]


def test_the_command_line_studies_another_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, md = tmp_path / "study", tmp_path / "study.md"
    assert main(["--game", "ratten_scharf", "study", "--games", "6", "-w", "1", "-o", str(out),
                 "--markdown", str(md)]) == 0
    assert "random, 2 players: winner changes most under" in capsys.readouterr().out
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<h1>Which readings matter: Ratten Scharf</h1>" in html and "the rules finished the game" in html
    assert "reconstructed" in html and "cubes" not in html  # its own data note and score unit
    with (out / "study.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {r["switch"] for r in rows} == {"rat-check", "final-tie", "cover", "group-scoring", "no-fit",
                                           "chip-supply", "table-size", "rats-per-colour"}
    assert "end_finished_default" in rows[0]
    assert "`rattus --game ratten_scharf study --players 2 " in md.read_text(encoding="utf-8")


def test_a_baseline_compares_each_option_with_other_settings() -> None:
    result = run_study(StudyParams(players=(2,), games=6, game="ratten_scharf", switches=("table-size",),
                                   base=(("table-size", "17"),)), workers=1)
    assert "table-size=17" not in _options(result) and "table-size=19" in _options(result)
    assert result["params"]["base"] == {"table-size": "17"}
    with pytest.raises(ValueError, match="the baseline sets table-size to '6'"):
        StudyParams(players=(2,), game="ratten_scharf", base=(("table-size", "6"),)).options()


def test_a_player_count_the_game_does_not_allow_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "ratten_scharf", "study", "-n", "3", "--games", "2", "-o", "unused"]) == 2
    assert "--players takes 2, not 3 (Ratten Scharf)" in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"players must be 2 \(Ratten Scharf\)"):
        StudyParams(players=(4,), games=1, game="ratten_scharf").check()
