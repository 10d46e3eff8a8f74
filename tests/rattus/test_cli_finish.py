"""The finish of the command line: --version, suggestions, --at bounds, output paths checked first,
and `render state --from GAME.json --at N`."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rattus_rules import __version__
from rattus_rules.cli import main
from rattus_rules.games.rattus.render import state_svg
from rattus_rules.tools.records.validate import dumps, record_game, replay

from ..conftest import ROOT


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    out = tmp_path / "game.json"
    out.write_text(dumps(record_game(2, seed=3)), encoding="utf-8")
    return out


def test_version_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"rattus {__version__}"


def test_version_of_python_m_matches_the_package_metadata() -> None:
    done = subprocess.run([sys.executable, "-m", "rattus_rules", "--version"], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"rattus {__version__}"
    from importlib.metadata import version
    assert version("rattus-rules") == __version__


@pytest.mark.parametrize(("argv", "hint"), [
    (["plya"], "did you mean 'play'?"),
    (["valdate", "x.json"], "did you mean 'validate'?"),
    (["render", "stat"], "did you mean 'state'?"),
    (["perft", "--chance", "sed"], "did you mean 'seed'?"),
])
def test_a_typo_gets_a_suggestion(argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert hint in err and "choose from" in err


def test_an_unknown_switch_lists_the_valid_ones(capsys: pytest.CaptureFixture[str]) -> None:
    from rattus_rules import interpretations
    assert main(["play", "-n", "2", "-q", "-i", "reveal-ordr=placed"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'reveal-order'?" in err
    known = err.split("(known: ", 1)[1]
    assert all(item.id in known for item in interpretations())
    assert main(["play", "-n", "2", "-q", "-i", "zzz=1"]) == 2
    err = capsys.readouterr().err
    assert "did you mean" not in err and "reveal-order" in err


@pytest.mark.parametrize("command", [["validate"], ["replay"], ["replay", "--at", "5"]])
def test_a_verdict_or_position_says_which_component_data_is_reconstructed(
        command: list[str], game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rattus_rules import load_rules
    note = load_rules().provenance_note()
    assert note is not None and "reconstructed" in note
    assert main([command[0], str(game_file), *command[1:]]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(note) and out.count(note) == 1
    assert main([command[0], str(game_file), "--json", *command[1:]]) == 0
    assert note not in capsys.readouterr().out  # JSON keeps its documented shape (docs/json.md)


def test_replay_past_the_end_is_an_error(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    total = len(json.loads(game_file.read_text())["entries"])
    assert main(["replay", str(game_file), "--at", str(total)]) == 0
    assert f"after {total} of {total} entries" in capsys.readouterr().out
    assert main(["replay", str(game_file), "--at", str(total + 1)]) == 2
    captured = capsys.readouterr()
    assert f"has only {total} entries" in captured.err and captured.out == ""
    assert main(["replay", str(game_file), "--at", "-1"]) == 2


@pytest.mark.parametrize("argv", [
    ["play", "-n", "2", "-q", "--record", "{missing}/game.json"],
    ["play", "-n", "2", "-q", "--record", "{tmp}"],
    ["render", "board", "-o", "{missing}/board.svg"],
    ["render", "state", "-o", "{missing}/state.svg"],
    ["validate", "{game}", "--svg", "{missing}/end.svg"],
])
def test_output_paths_are_checked_before_the_work(argv: list[str], tmp_path: Path, game_file: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    names = {"missing": str(tmp_path / "no" / "such"), "tmp": str(tmp_path), "game": str(game_file)}
    assert main([a.format(**names) for a in argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing was played, drawn or validated
    assert "there is no folder" in captured.err or "is a folder" in captured.err


def test_render_state_draws_a_record_position(game_file: Path, tmp_path: Path) -> None:
    record = json.loads(game_file.read_text())
    out = tmp_path / "at.svg"

    def drawn(at: int | None = None) -> str:
        state, _, shown = replay(record, at)
        return state_svg(state, shown, record["seats"])

    for at in (0, 30, len(record["entries"])):
        assert main(["render", "state", "--from", str(game_file), "--at", str(at), "-o", str(out)]) == 0
        assert out.read_text(encoding="utf-8") == drawn(at)
    assert main(["render", "state", "--from", str(game_file), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == drawn()
    first, last = state_svg(replay(record, 30)[0]), state_svg(replay(record)[0])
    assert first != last


def test_render_state_of_an_illegal_record(game_file: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(game_file.read_text())
    record["entries"].append({"by": "P1", "action": "end"})
    bad = tmp_path / "bad.json"
    bad.write_text(dumps(record), encoding="utf-8")
    out = tmp_path / "bad.svg"
    assert main(["render", "state", "--from", str(bad), "-o", str(out)]) == 1
    assert "the game is over" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8").startswith("<svg")


@pytest.mark.parametrize(("argv", "message"), [
    (["render", "state", "--at", "3"], "goes with --from"),
    (["render", "state", "--from", "{game}", "--at", "99999"], "has only"),
    (["render", "state", "--from", "{state}", "--at", "1"], "needs a game record"),
])
def test_render_state_at_misuse(argv: list[str], message: str, game_file: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    from rattus_rules import new_game
    stored = tmp_path / "state.json"
    stored.write_text(json.dumps(new_game(2, seed=1).to_json()), encoding="utf-8")
    assert main([a.format(game=game_file, state=stored) for a in argv]) == 2
    assert message in capsys.readouterr().err


class _Terminal(io.StringIO):
    """Standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("args, document", [
    (["render", "state", "-n", "2"], "an SVG picture"),
    (["render", "board"], "an SVG picture"),
    (["render", "state", "-n", "2", "-o", "-"], "an SVG picture"),
])
def test_pictures_are_not_written_to_a_terminal(args: list[str], document: str, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main(args) == 2
    assert terminal.getvalue() == ""
    assert f"this writes {document}, not text for a terminal: name a file with --output FILE" in \
        capsys.readouterr().err
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # piped: written as before
    assert main(args) == 0 and sys.stdout.getvalue().startswith("<svg")


def test_validate_svg_to_standard_output_is_refused_on_a_terminal(
        game_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main(["validate", str(game_file), "--svg", "-"]) == 2
    assert terminal.getvalue() == ""
    assert "this writes an SVG picture, not text for a terminal: name a file with --svg FILE" in \
        capsys.readouterr().err
    assert main(["validate", str(game_file)]) == 0  # no --svg: no picture, the verdict on the terminal
    assert terminal.getvalue().startswith("legal")
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # piped: the picture follows the verdict
    assert main(["validate", str(game_file), "--svg", "-"]) == 0 and "<svg" in sys.stdout.getvalue()
