"""The `rattus` command line: output and exit codes (0 fine, 1 rule/spec error, 2 usage)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rattus_rules import new_game
from rattus_rules.cli import ALONE, COMMAND_MODULES, build_parser, command_alone, main
from rattus_rules.paths import spec_dir

from ..conftest import ROOT


def test_check_the_shipped_spec(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    assert capsys.readouterr().out.startswith("ok: Rattus")


def test_check_a_broken_spec_reports_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "rattus"
    shutil.copytree(spec_dir(), broken)
    plague = broken / "plague.rules"
    plague.write_text(plague.read_text(encoding="utf-8").replace("total_cubes(to) > 0", "total_cubez(to) > 0"),
                      encoding="utf-8")
    assert main(["check", str(broken)]) == 1
    err = capsys.readouterr().err
    assert "plague.rules:" in err and "unknown function 'total_cubez'; did you mean 'total_cubes'?" in err
    assert "Traceback" not in err


def test_check_a_missing_path_is_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "/no/such/spec"]) == 2
    assert "no such spec path" in capsys.readouterr().err


def test_check_with_unreadable_data_is_bad_input_and_with_wrong_data_a_spec_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "d"
    data.mkdir()
    os.mkfifo(data / "regions.csv")                       # never waited on: not a regular file
    assert main(["check", "--data", str(data)]) == 2
    assert "cannot read table regions" in capsys.readouterr().err
    assert main(["check", "--json", "--data", str(data)]) == 2
    assert "not a regular file" in capsys.readouterr().out
    assert main(["check", "--data", str(tmp_path / "nothing")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    (data / "regions.csv").unlink()
    (data / "regions.csv").write_text("a,b\n", encoding="utf-8")   # read, and wrong: what check reports
    assert main(["check", "--data", str(data)]) == 1
    assert "column 'region' is missing" in capsys.readouterr().err

    def refused(*args: object) -> None:
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr("interpreter.data.resolve_file", refused)  # a folder that cannot be looked into
    assert main(["check", "--data", str(data)]) == 2
    err = capsys.readouterr().err
    assert "Permission denied" in err and "Traceback" not in err and "internal error" not in err
    assert "Errno" not in err  # the reason in words, as for every other file (interpreter.files.why_unread)


@pytest.mark.parametrize("argv", [["play", "-q"], ["perft", "-d", "1"], ["render", "state", "-o", "-"],
                                  ["study", "-n", "2", "--games", "1"]])
@pytest.mark.parametrize("seed", ["-1", str(2**64), "x"])
def test_a_seed_a_record_could_not_store_is_refused(argv: list[str], seed: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--seed", seed]) == 2
    assert "a seed is a whole number from 0 to 2^64-1" in capsys.readouterr().err


def test_a_game_of_the_largest_seed_records_and_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "r.json"
    assert main(["play", "-q", "-n", "2", "--seed", str(2**64 - 1), "--record", str(record)]) == 0
    assert main(["validate", str(record)]) == 0
    with pytest.raises(ValueError, match="0 to 2"):
        new_game(2, seed=-1)


def test_play_prints_a_log_scores_and_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "3", "--seed", "4", "--check-invariants"]) == 0
    out = capsys.readouterr().out
    assert "— turn of P0 —" in out and "P0: start " in out
    assert "Final scores: P0 " in out and "Winner: P" in out


def test_play_with_an_interpretation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "-n", "2", "-s", "1", "-q", "-i", "reveal-order=placed", "-i", "tie-break=shared"]) == 0
    assert "interpretations: reveal-order=placed, tie-break=shared" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["play", "--players", "7"],
    ["play", "-i", "nonsense"],
    ["play", "-i", "reveal-order=sometimes"],
    ["frobnicate"],
    ["play", "--seed", "x"],
])
def test_bad_usage_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_interpretations_lists_defaults_and_citations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["interpretations"]) == 0
    out = capsys.readouterr().out
    assert "reveal-order: In which order are a region's tokens revealed?" in out
    assert "default chosen:" in out and "option  placed:" in out
    assert 'cites rulebook Spielende: "Im Falle eines Gleichstandes' in out


def test_an_unreadable_spec_file_is_named_with_the_reason_in_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def refused(*args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied", str(args[0]))
    monkeypatch.setattr("interpreter.parser.read_text", refused)
    assert main(["check"]) == 1
    err = capsys.readouterr().err
    assert "cannot read spec file: Permission denied" in err and ".rules:1:1:" in err
    assert "Errno" not in err and "Traceback" not in err


def test_data_that_replaces_no_table_is_refused_not_ignored(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    typo = tmp_path / "bord.csv"  # meant board.csv: silently playing the shipped board would mislead
    typo.write_text("a,b\n", encoding="utf-8")
    assert main(["play", "-n", "2", "-q", "--data", str(typo)]) == 2
    err = capsys.readouterr().err
    assert "no table is read from 'bord.csv'" in err and "board.csv" in err
    empty = tmp_path / "corrections"
    empty.mkdir()
    assert main(["check", "--data", str(empty)]) == 2
    assert "the data folder holds no table file" in capsys.readouterr().err
    (empty / "board.csv").write_text((spec_dir() / "data" / "board.csv").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    assert main(["check", "--data", str(empty)]) == 0
    assert main(["check", "--data", str(empty / "board.csv")]) == 0


def test_check_counts_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", str(ROOT / "docs" / "examples" / "pebbles"), "check"]) == 0
    first, backend = capsys.readouterr().out.strip().splitlines()[:2]
    assert first == "ok: Pebbles — 1 procedure, 2 rules, 1 switch, 1 invariant, 0 data checks"
    assert backend.startswith("runs on: ") and "back end" in backend


@pytest.mark.parametrize("command", [["play", "-q"], ["perft", "-d", "1"], ["render", "state"]])
def test_a_player_count_the_game_is_not_for_names_players(command: list[str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--players", "5"]) == 2
    assert capsys.readouterr().err.strip() == "rattus: --players: Rattus is for 2 to 4 players, not 5"


@pytest.mark.parametrize("command", [["play", "-q"], ["perft", "-d", "1"]])
def test_without_players_a_game_plays_with_the_most_it_allows(command: list[str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    # docs/ratten-scharf.rst: `rattus --game ratten_scharf play` (a game for two) works without -n
    assert main(["--game", "ratten_scharf", *command]) == 0
    assert "2 players" in capsys.readouterr().out
    assert main([*command]) == 0
    assert "4 players" in capsys.readouterr().out
    assert main(["--game", "ratten_scharf", *command, "-n", "4"]) == 2
    assert capsys.readouterr().err.strip() == "rattus: --players: Ratten Scharf is for 2 players, not 4"


def test_serve_builds_its_parser_alone_and_reads_its_command_line_as_the_full_parser_does() -> None:
    # a referee is started often (once per vector by the conformance check): no other command is imported
    serve = ALONE["serve"]
    for argv in (["serve"], ["--game", "ratten_scharf", "serve"], ["-g", "rattus", "serve"], ["-grattus", "serve"],
                 ["--ga=rattus", "serve"], ["--gam", "rattus", "serve", "--help"]):
        assert command_alone(argv) == serve, argv
    for argv in ([], ["--help", "serve"], ["--version"], ["play"], ["--unknown", "serve"], ["-", "serve"],
                 ["--", "serve"]):
        assert command_alone(argv) is None, argv
    full, alone = build_parser(), build_parser(serve)
    for argv in (["serve"], ["--game", "ratten_scharf", "serve"], ["-g", "rattus", "serve"]):
        assert vars(alone.parse_args(argv)) == vars(full.parse_args(argv))


def test_a_referee_starts_without_the_other_commands_nor_lark_nor_a_process_pool() -> None:
    # what `rattus serve` imports is what a conformance check or a client waits for at each start
    code = ("import runpy, sys\nsys.argv = ['rattus', 'serve']\ntry:\n    runpy.run_module('rattus_rules.cli', "
            "run_name='__main__')\nexcept SystemExit:\n    pass\nprint(sorted(sys.modules), file=sys.stderr)")
    for _ in range(2):  # the first may parse the spec (a cache of its own): the second reads it back
        done = subprocess.run([sys.executable, "-c", code], input='{"cmd": "hello", "id": 1}\n',
                              capture_output=True, text=True, check=True, cwd=ROOT)
        assert '"ok":true' in done.stdout
    loaded = set(ast.literal_eval(done.stderr.strip().splitlines()[-1]))
    others = {name for name in COMMAND_MODULES if name != ALONE["serve"]}
    assert not loaded & (others | {"lark", "interpreter.builder", "concurrent.futures.process"}), loaded & others
