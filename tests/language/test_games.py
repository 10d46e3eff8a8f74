"""The game registry: a game is a folder of rules, found by name or path, for the API and the command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rattus_rules import load_rules, new_game
from rattus_rules.cli import main
from rattus_rules.games import GAMES_PATH_ENV, UnknownGame, game_dir, known_games
from rattus_rules.tools.kit.conformance import start_position
from rattus_rules.tools.perft import perft

SPECS = Path(__file__).parent / "specs"
NIM = SPECS / "nim"


@pytest.fixture
def toy_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy games of these tests found by name, through $RATTUS_GAMES_PATH."""
    monkeypatch.setenv(GAMES_PATH_ENV, str(SPECS))


def test_games_are_found_by_name_and_by_path(toy_games: None) -> None:
    known = known_games()
    assert known["nim"] == NIM and "rattus" in known
    assert load_rules(game="nim").title == "Nim" == load_rules(game=str(NIM)).title
    assert load_rules().title == "Rattus"
    state = new_game(2, seed=1, game="nim")
    assert state.game.title == "Nim" and state.legal_action_texts()[:1] == ["take 1"]


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match=r"no game 'rattu'; did you mean 'rattus'\? \(known games: .*rattus"):
        game_dir("rattu")
    with pytest.raises(ValueError, match="a game is a folder of"):
        load_rules(game=str(SPECS / "missing"))


def test_perft_of_a_toy_game_starts_at_its_first_decision(toy_games: None) -> None:
    state, _ = start_position(2, seed=1, game="nim")
    assert state.current_player == 0
    # heap of n counters, take 1..3: the sequences of two moves
    assert perft(state, 1) == 3 and perft(state, 2) == 9


def test_the_command_line_plays_another_game(toy_games: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "nim", "check"]) == 0
    assert capsys.readouterr().out.startswith("ok: Nim")
    assert main(["--game", str(NIM), "play", "-n", "2", "-s", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Nim, 2 players") and "Winner: P" in out
    assert main(["-g", "nim", "perft", "-n", "2", "-d", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == ["depth 1: 3", "depth 2: 9"]
    assert main(["--game", "nim", "interpretations"]) == 0
    # the choice lasts one command
    assert main(["check"]) == 0 and capsys.readouterr().out.startswith("ok: Rattus")


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "nimm", "check"], "did you mean 'nim'?"),
    (["--game", "/nonexistent/folder", "play"], "a game is a folder of"),
    (["--game", "nim", "render", "board"],
     "is for rattus only; --game works with: check, conformance, decisive, interpretations, perft, play, replay, "
     "serve, strength, study, tournament, validate"),
])
def test_a_wrong_game_is_bad_usage(argv: list[str], message: str, toy_games: None,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_referee_serves_another_game() -> None:
    requests = [{"cmd": "hello", "id": 1}, {"cmd": "new", "players": 2, "seed": 1, "id": 2},
                {"cmd": "legal", "game": "g1", "id": 3}, {"cmd": "apply", "game": "g1", "action": "take 3", "id": 4}]
    text = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run([sys.executable, "-m", "rattus_rules", "--game", str(NIM), "serve"], input=text.encode(),
                          capture_output=True, timeout=120, check=True)
    hello, new, legal, applied = (json.loads(line) for line in done.stdout.decode().splitlines())
    assert hello["game"] == "nim" and hello["players"] == [2, 3] and new["ok"]
    assert legal["actions"] == ["take 1", "take 2", "take 3"] and applied["ok"] and applied["to_move"] == 1


def _subcommands() -> list[str]:
    from rattus_rules.cli import build_parser
    action = next(a for a in build_parser()._actions if a.dest == "command")
    assert action.choices is not None
    return sorted(action.choices)


ANY_GAME = ("check", "conformance", "decisive", "interpretations", "play", "perft", "replay", "serve", "strength",
            "study", "tournament", "validate", "view")


@pytest.mark.parametrize("command", [c for c in _subcommands() if c not in ANY_GAME])
def test_a_command_for_rattus_only_says_so_for_another_game(command: str, toy_games: None,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    # every subcommand loads a game: those that do not read --game refuse it cleanly, before reading any
    # other argument, and the help of --game names the same commands as the refusal
    from rattus_rules.cli import build_parser, known_commands
    assert main(["--game", "nim", command, *_ARGS.get(command, [])]) == 2
    err = capsys.readouterr().err
    assert f"`rattus {command}` is for rattus only; --game works with: " in err and "Traceback" not in err
    works = ", ".join(known_commands())
    assert f"for {works} (the others are for rattus only)" in " ".join(build_parser().format_help().split())


#: Arguments a subcommand needs to get past its parser.
_ARGS = {"scenario": ["x.scn"], "view": ["x.json"],
         "render": ["board"]}


def test_a_game_without_a_kit_makes_one_and_an_engine_is_checked_against_it(
        toy_games: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the kit is made from the rules alone: a game written today has one, and its own referee passes it
    assert main(["--game", "nim", "conformance", "export", str(tmp_path / "x")]) == 2
    assert "no conformance kit is shipped for nim: `rattus --game nim conformance make DIR`" in capsys.readouterr().err
    kit = tmp_path / "kit"
    assert main(["--game", "nim", "conformance", "make", str(kit)]) == 0
    assert f"(start with {kit / 'README.md'})" in capsys.readouterr().out
    assert {"README.md", "perft.json", "games/expected.json"} <= {
        str(p.relative_to(kit)) for p in kit.rglob("*") if p.is_file()}
    assert "nim" in (kit / "README.md").read_text(encoding="utf-8").lower()
    engine = f"{sys.executable} -m rattus_rules --game nim serve"
    assert main(["--game", "nim", "conformance", "check", "--engine", engine, str(kit)]) == 0
    out = capsys.readouterr().out
    assert "perft/2p-" in out and ", 0 failed" in out
    # an engine of another game fails it, and says where
    rattus = f"{sys.executable} -m rattus_rules serve"
    assert main(["--game", "nim", "conformance", "check", "--engine", rattus, str(kit), "--only", "games/"]) == 1


def test_records_of_another_game_are_written_validated_and_replayed(
        toy_games: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "nim.json"
    assert main(["--game", "nim", "play", "-n", "2", "-s", "3", "--record", str(record)]) == 0
    written = json.loads(record.read_text(encoding="utf-8"))
    assert written["game"] == "nim" and written["entries"][0]["by"] == "P0"
    capsys.readouterr()
    assert main(["--game", "nim", "validate", str(record)]) == 0
    assert capsys.readouterr().out.startswith(f"legal: the game is over after {len(written['entries'])} entries")
    # replayed: the position as text and as JSON, by the generic view (every value and zone, pieces by face)
    assert main(["--game", "nim", "replay", str(record), "--at", "1"]) == 0
    out = capsys.readouterr().out
    assert "Nim, 2 players; to move: P1 (play)" in out and "  moves: 1 at P0; 0 at P1" in out and "  heap: " in out
    assert main(["--game", "nim", "replay", str(record), "--json"]) == 0
    position = json.loads(capsys.readouterr().out)["position"]
    assert position["game"] == "nim" and position["winners"] and position["zones"]["heap"][0]["pieces"] == []
    # a changed entry is illegal, in the game's own terms
    broken = {**written, "entries": [{"by": "P0", "action": "take 4"}, *written["entries"][1:]]}
    (tmp_path / "broken.json").write_text(json.dumps(broken), encoding="utf-8")
    assert main(["--game", "nim", "validate", str(tmp_path / "broken.json")]) == 1
    assert "illegal: entry 0" in capsys.readouterr().out
    # an archive of both, in parallel
    assert main(["--game", "nim", "validate", str(tmp_path), "--workers", "2"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith(f"{tmp_path / 'nim.json'}: legal") for line in lines)
    assert any(line.startswith(f"{tmp_path / 'broken.json'}: illegal at entry 0") for line in lines)


def test_a_record_is_checked_against_its_own_game(toy_games: None, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "nim.json"
    assert main(["--game", "nim", "play", "-n", "2", "-s", "3", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["validate", str(record)]) == 0  # the record names its game: read as nim (issue 28)
    assert capsys.readouterr().out.startswith("legal")
    assert main(["--game", "rattus", "validate", str(record)]) == 2  # a game chosen is kept
    assert "not a record: $.game: a record of 'nim', not of rattus (choose that game: --game nim)" \
        in capsys.readouterr().err
    rattus_record = Path(__file__).parents[2] / "conformance" / "games" / "legal-2p-omniscient.json"
    assert main(["--game", "nim", "validate", str(rattus_record)]) == 2
    assert 'the record names no game: a record of nim says so ("game": "nim")' in capsys.readouterr().err
    assert main(["--game", "nim", "validate", str(record), "--svg", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert "--svg draws positions of rattus only" in err and not (tmp_path / "x.svg").exists()


def test_a_game_named_like_a_packaged_one_must_be_what_its_package_reads(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # the package of a game (its faces, its view) is found by the name the rules give the game: a folder of
    # other rules that calls itself rattus is checked by Rattus's package when it loads, not half-read later
    fake = tmp_path / "fake"
    fake.mkdir()
    for path in NIM.iterdir():
        (fake / path.name).write_text(path.read_text(encoding="utf-8").replace("\ngame nim ", "\ngame rattus "),
                                      encoding="utf-8")
    assert "\ngame rattus " in (fake / "nim.rules").read_text(encoding="utf-8")
    record = tmp_path / "nim.json"
    assert main(["--game", str(NIM), "play", "-n", "2", "-s", "3", "--record", str(record)]) == 0
    capsys.readouterr()
    for argv in (["play", "-n", "2"], ["validate", str(record)], ["replay", str(record)]):
        assert main(["--game", str(fake), *argv]) == 1
        err = capsys.readouterr().err
        assert "the Rattus package reads" in err and "internal error" not in err and "KeyError" not in err, err
    # component data that does not load is the data's error, not the record's
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "notes.txt").write_text("x", encoding="utf-8")
    assert main(["--game", str(NIM), "validate", str(record), "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert "the data folder holds no table file" in err and "not a record" not in err, err


def test_a_record_on_standard_input_is_utf_8_as_a_file_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "nim.json"
    assert main(["--game", str(NIM), "play", "-n", "2", "-s", "3", "--record", str(record)]) == 0
    text = record.read_bytes()
    bad = text.replace(b'"P0"', b'"P0\xff"', 1)  # a seat name with a byte that is not UTF-8
    (tmp_path / "bad.json").write_bytes(bad)
    for argv, data in ((["validate", "-"], text), (["replay", "-"], text)):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), errors="surrogateescape"))
        assert main(["--game", str(NIM), *argv]) == 0
    capsys.readouterr()
    for argv, data in ((["validate", str(tmp_path / "bad.json")], b""), (["validate", "-"], bad),
                       (["replay", "-"], bad)):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), errors="surrogateescape"))
        assert main(["--game", str(NIM), *argv]) == 2
        err = capsys.readouterr().err
        assert "cannot read" in err and "can't decode byte 0xff" in err, err


def test_the_kit_readme_of_a_game_without_switches_chance_or_hidden_pieces_names_none(
        toy_games: None, tmp_path: Path) -> None:
    # nim: no switches, no chance, nothing hidden, and its rules are not in spec/
    assert main(["--game", "nim", "conformance", "make", str(tmp_path / "kit")]) == 0
    text = " ".join((tmp_path / "kit" / "README.md").read_text(encoding="utf-8").split())
    for word in ("switch", "players-eye", "chance outcome", "needs-", "spec/nim/", "make golden"):
        assert word not in text, word
    assert "for 2 and 3 players" in text and "one for each player count: `golden/2p-seed2.json`," in text
    assert "an entry by the wrong seat, an action legal earlier and not now, an action after the end:" in text


@pytest.mark.parametrize("argv", [
    ["--game", "/" + "a" * 5000, "check"], ["--game", "a/" * 3000, "interpretations"],
    ["--game", str(NIM), "play", "-n", "2", "--data", "a" * 300],
])
def test_a_path_too_long_for_the_system_is_bad_usage(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("rattus: ") and "internal error" not in err and len(err.splitlines()) == 1, err
