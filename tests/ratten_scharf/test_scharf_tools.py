"""The game-agnostic tools on the second game: the command line plays, records, validates,
replays and counts Ratten Scharf with no code of its own (only its spec folder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.tools.perft import perft
from rattus_rules.cli import main
from rattus_rules.conformance import start_position
from rattus_rules.games import known_games


def test_the_registry_knows_the_game() -> None:
    assert known_games()["ratten_scharf"].name == "ratten_scharf"


def test_check_and_interpretations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "ratten_scharf", "check"]) == 0
    assert capsys.readouterr().out.startswith("ok: Ratten Scharf")
    assert main(["--game", "ratten_scharf", "interpretations"]) == 0
    out = capsys.readouterr().out
    assert "rat-check: Early end" in out and "final-tie: End" in out and "Vorzeitiges Spielende" in out


def test_play_says_which_components_are_reconstructed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "ratten_scharf", "play", "-n", "2", "-s", "1"]) == 0
    out = capsys.readouterr().out
    assert "strip empty:start:empty:yes lies on d5-f5" in out and "Winner:" in out
    assert "reconstructed, not verified" in out and "strips 30 of 31" in out


def test_a_record_is_written_validated_and_replayed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    assert main(["--game", "ratten_scharf", "play", "-n", "2", "-s", "4", "--record", str(record)]) == 0
    written = json.loads(record.read_text(encoding="utf-8"))
    assert written["game"] == "ratten_scharf"
    capsys.readouterr()
    assert main(["--game", "ratten_scharf", "validate", str(record)]) == 0
    assert capsys.readouterr().out.startswith("legal: the game is over")
    assert main(["--game", "ratten_scharf", "replay", str(record), "--at", "3"]) == 0
    out = capsys.readouterr().out
    assert "Ratten Scharf, 2 players" in out and "height[d5] = 1" in out
    # a strip laid where it may not lie is refused, citing the rule
    lays = [i for i, e in enumerate(written["entries"]) if e.get("by") == "P0"]
    entries = [dict(e) for e in written["entries"]]
    entries[lays[0]]["action"] = entries[lays[0]]["action"].rsplit(" ", 1)[0] + " a1-c1"
    (tmp_path / "broken.json").write_text(json.dumps({**written, "entries": entries}), encoding="utf-8")
    assert main(["--game", "ratten_scharf", "validate", str(tmp_path / "broken.json")]) == 1
    out = capsys.readouterr().out
    assert f"illegal: entry {lays[0]}" in out and "Legeregeln" in out


def test_perft_counts_the_first_lays() -> None:
    state, _ = start_position(2, 0, game="ratten_scharf")  # the start player's first decision
    first = perft(state, 1)
    assert first == len(state.legal_action_texts()) > 20
    assert perft(state, 2) > first
