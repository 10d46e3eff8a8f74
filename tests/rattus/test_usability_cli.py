"""Issue 28, the command line and the Python API as their users meet them: a record read as the game it
names, one meaning per flag, a misspelt switch at its line and column, the study without the plotting
library, "did you mean" from `serve`, the README's promises, undo against replaying the history."""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
from pathlib import Path

import pytest

import rattus_rules.tools.study.study_report as study_report
from interpreter import State
from rattus_rules import load_rules, new_game
from rattus_rules.cli import build_parser, main
from rattus_rules.tools.kit.referee import referee_session

from ..conftest import ROOT

SCHARF_RECORD = ROOT / "conformance" / "ratten_scharf" / "games" / "legal-2p-omniscient.json"


# ------------------------------------------------------------ a record names its game
@pytest.mark.parametrize("command", [["validate"], ["replay", "--at", "3"], ["validate", "--json"]])
def test_a_record_that_names_its_game_is_read_as_that_game(command: list[str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert json.loads(SCHARF_RECORD.read_text(encoding="utf-8"))["game"] == "ratten_scharf"
    assert main([*command, str(SCHARF_RECORD)]) == 0
    out = capsys.readouterr()
    assert "--game" not in out.err and "not a record" not in out.out + out.err
    if command == ["validate"]:
        assert out.out.startswith("legal: the game is over")


def test_view_reads_a_record_of_another_game_without_game(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    assert main(["view", str(SCHARF_RECORD), "-o", str(page)]) == 0
    assert "Ratten Scharf" in page.read_text(encoding="utf-8")


def test_game_given_against_the_record_is_still_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "rattus", "validate", str(SCHARF_RECORD)]) == 2
    assert "choose that game: --game ratten_scharf" in capsys.readouterr().err


def test_a_record_naming_a_path_is_not_followed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(SCHARF_RECORD.read_text(encoding="utf-8"))
    record["game"] = str(ROOT / "spec" / "ratten_scharf")  # a record may not make the tool load a folder
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    assert "not a record" in capsys.readouterr().err


# ------------------------------------------------------------ one meaning per flag
def _short_flags(parser: argparse.ArgumentParser, where: str, out: dict[str, set[str]]) -> None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                _short_flags(sub, name, out)
            continue
        for flag in action.option_strings:
            if re.fullmatch(r"-[A-Za-z]", flag):
                out.setdefault(flag, set()).add(action.dest)


def test_every_short_flag_has_one_meaning() -> None:
    seen: dict[str, set[str]] = {}
    _short_flags(build_parser(), "rattus", seen)
    assert seen["-g"] == {"game"}
    assert {flag: dests for flag, dests in seen.items() if len(dests) > 1} == {}


def test_study_takes_games_in_full_and_g_is_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "-g", "3"]) == 2  # -g is --game, given in the wrong place
    assert "unrecognized arguments: -g 3" in capsys.readouterr().err


# ------------------------------------------------------------ scenarios
def test_a_misspelt_switch_in_a_scenario_is_reported_at_its_line_and_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "typo.txt"
    path.write_text("scenario typo\nplayers 4\n\ninterpretation knight-retrun=chosen\ndone take\n",
                    encoding="utf-8")
    assert main(["scenario", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:4:16: unknown interpretation 'knight-retrun'; did you mean 'knight-return'?" in err
    path.write_text("scenario typo\nplayers 4\n  interpretation reveal-order = plaecd\n", encoding="utf-8")
    assert main(["scenario", "--json", str(path)]) == 2
    error = json.loads(capsys.readouterr().out)["scenarios"][0]["error"]
    assert (error["line"], error["column"]) == (3, 33)
    assert "has no option 'plaecd'" in error["message"]


# ------------------------------------------------------------ the study without matplotlib
def test_study_says_first_that_the_plots_are_skipped_and_still_writes_its_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(study_report, "can_plot", lambda: False)
    out = tmp_path / "out"
    assert main(["study", "-n", "2", "--games", "2", "-w", "1", "--switch", "tie-break", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith(f"rattus study: {study_report.NO_PLOTS}")
    assert sorted(p.name for p in out.iterdir()) == ["report.html", "study.csv", "study.json"]
    assert "<img" not in (out / "report.html").read_text(encoding="utf-8")


def test_can_plot_says_whether_matplotlib_is_there() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert not study_report.can_plot()
    else:
        assert study_report.can_plot()


# ------------------------------------------------------------ serve
def test_serve_answers_a_misspelt_command_with_did_you_mean() -> None:
    reply = referee_session().answer({"cmd": "aply", "id": 3})
    assert reply["error"]["code"] == "unknown-command"
    assert reply["error"]["message"] == "unknown command 'aply'; did you mean 'apply'?"
    assert "did you mean" not in referee_session().answer({"cmd": "zzzz"})["error"]["message"]


def test_serve_over_a_pipe_gives_the_hint_too() -> None:
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "rattus"), "serve"], input=b'{"cmd": "hellp"}\n',
                          capture_output=True, timeout=120, check=False)
    assert b"did you mean 'hello'?" in done.stdout


# ------------------------------------------------------------ README, Makefile, spec comments
def test_readme_says_how_long_make_test_takes_and_setup_shows_progress() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "about **12 minutes**" in readme and "pip names each package" in readme
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    install = next(line for line in makefile.splitlines() if 'pip install' in line and '".[dev]"' in line)
    assert "--quiet" not in install and "--progress-bar on" in install


def test_no_project_file_sends_the_reader_outside_the_project() -> None:
    listed = subprocess.run(["git", "ls-files", "spec", "docs", "conformance", "rattus_rules", "interpreter",
                             "README.md"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    outside = []
    for name in listed:
        path = ROOT / name
        if path.suffix in (".png", ".json", ".csv") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "INTERPRETATIONS.md" in text or "../shared" in text:
            outside.append(name)
    assert outside == []
    switches = (ROOT / "spec" / "rattus" / "switches.rules").read_text(encoding="utf-8")
    assert "docs/interpretations.rst" in switches and (ROOT / "docs" / "interpretations.rst").is_file()


# ------------------------------------------------------------ new_game and new_state
def test_new_game_and_new_state_differ_only_by_the_named_keyword() -> None:
    rules = load_rules()
    assert new_game(2, seed=1).current_player == 0
    assert rules.new_state(2, seed=1).is_chance_node()
    assert new_game(2, seed=1, resolve_setup_chance=False) == rules.new_state(2, seed=1)
    assert new_game(2, seed=1) == rules.new_state(2, seed=1, resolve_setup_chance=True)
    for doc in (new_game.__doc__, type(rules).new_state.__doc__):
        assert doc is not None and "resolve_setup_chance" in doc and "new_state" in doc and "new_game" in doc


# ------------------------------------------------------------ undo
def _random_game(seed: int, steps: int) -> tuple[State, list[dict[str, object]]]:
    """A game played ``steps`` steps by random choices and the state's own draws; its JSON after each."""
    state = new_game(3, seed=seed, resolve_setup_chance=False)
    chooser = random.Random(seed)
    seen = [state.to_json()]
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_index(chooser.randrange(state.num_legal_actions()))
        seen.append(state.to_json())
    return state, seen


def test_undo_gives_back_every_earlier_state_generator_included() -> None:
    state, seen = _random_game(11, 400)
    assert state.undoable() == len(seen) - 1
    for k in range(len(seen) - 2, -1, -1):
        state.undo()
        assert state.to_json() == seen[k], f"after undoing back to step {k}"
    with pytest.raises(ValueError, match="nothing to undo"):
        state.undo()


def test_undo_matches_replaying_the_history_and_play_goes_on_as_before() -> None:
    state, _ = _random_game(5, 60)
    history = list(state.history)
    state.undo()
    replay = load_rules().new_state(3, seed=5)
    for text in history[:-1]:
        replay.apply(text)
    assert replay.history == state.history and replay.legal_action_texts() == state.legal_action_texts()
    again, _ = _random_game(5, 60)  # the same game: undoing and redoing the last step changes nothing
    state.apply(history[-1])
    assert state.history == again.history and state.to_json()["vals"] == again.to_json()["vals"]


def test_a_clone_keeps_its_own_undo_and_a_loaded_state_undoes_back_to_its_load() -> None:
    state, seen = _random_game(7, 40)
    copy = state.clone()
    copy.undo()
    assert copy.to_json() == seen[-2] and state.to_json() == seen[-1]
    loaded = load_rules().state_from_json(seen[-1])
    with pytest.raises(ValueError, match="no action since the state was started or loaded"):
        loaded.undo()


def test_the_referee_undo_takes_back_to_the_players_decision_as_replaying_would() -> None:
    session = referee_session()
    first = session.answer({"cmd": "new", "players": 2, "seed": 4, "chance": "seed"})
    assert session.answer({"cmd": "undo", "game": "g1"})["error"]["code"] == "nothing-to-undo"
    played = []
    for _ in range(12):
        actions = session.answer({"cmd": "legal", "game": "g1"})["actions"]
        played.append(actions[-1])
        session.answer({"cmd": "apply", "game": "g1", "action": actions[-1]})
    saved = session.answer({"cmd": "save", "game": "g1"})["state"]
    reply = session.answer({"cmd": "undo", "game": "g1"})
    assert reply["ok"] and reply["undone"][0] == played[-1] and reply["to_move"] in (0, 1)
    replay = referee_session()
    replay.answer({"cmd": "new", "players": 2, "seed": 4, "chance": "seed"})
    for action in played[:-1]:
        replay.answer({"cmd": "apply", "game": "g1", "action": action})
    assert (session.answer({"cmd": "save", "game": "g1"})["state"]
            == replay.answer({"cmd": "save", "game": "g1"})["state"])
    session.answer({"cmd": "apply", "game": "g1", "action": played[-1]})
    assert session.answer({"cmd": "save", "game": "g1"})["state"] == saved
    assert first["to_move"] == 0
