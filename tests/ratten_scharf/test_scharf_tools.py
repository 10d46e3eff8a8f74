"""The game-agnostic tools on the second game: the command line plays, records, validates,
replays and counts Ratten Scharf with no code of its own (only its spec folder)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter import Game
from interpreter.notation import NO_VALUE
from rattus_rules.cli import main
from rattus_rules.games import known_games
from rattus_rules.tools.kit.conformance import start_position
from rattus_rules.tools.perft import perft

from ..language.test_notation import spec_verbs, verbs_read_back


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
    assert "strip empty:start:empty:yes lies on i10-k10" in out and "Winner:" in out
    assert "reconstructed, not verified" in out and "strips 42 of 43" in out


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
    assert "Ratten Scharf, 2 players" in out
    # the generic view: a value per line, its keys grouped by what they hold, pieces by their faces
    lines = {line.split(":")[0].strip(): line for line in out.splitlines() if line.startswith("  ")}
    assert lines["height"].startswith("  height: 1 at ") and " i10" in lines["height"]
    assert lines["height"].endswith("; 0 elsewhere") and len(out.splitlines()) < 30
    assert "empty:start:empty:yes at i10, j10, k10; " in lines["top_strip"]  # the start strip, by its face
    assert lines["top_strip"].endswith(f"; {NO_VALUE} elsewhere")  # no strip on most fields
    assert "top_strip[" not in out and not re.search(r"\bat all\b|None|\b\d+ at\b", lines["top_strip"])
    assert main(["--game", "ratten_scharf", "replay", str(record), "--at", "3", "--json"]) == 0
    values = json.loads(capsys.readouterr().out)["position"]["values"]
    assert {"key": ["i10"], "value": "empty:start:empty:yes"} in values["top_strip"]
    # a strip laid where it may not lie is refused, citing the rule
    lays = [i for i, e in enumerate(written["entries"]) if e.get("by") == "P0"]
    entries = [dict(e) for e in written["entries"]]
    entries[lays[0]]["action"] = entries[lays[0]]["action"].rsplit(" ", 1)[0] + " a1-c1"  # off the table
    (tmp_path / "broken.json").write_text(json.dumps({**written, "entries": entries}), encoding="utf-8")
    assert main(["--game", "ratten_scharf", "validate", str(tmp_path / "broken.json")]) == 1
    out = capsys.readouterr().out
    assert f"illegal: entry {lays[0]}" in out and "Legeregeln" in out


def test_perft_counts_the_first_lays() -> None:
    state, _ = start_position(2, 0, game="ratten_scharf")  # the start player's first decision
    first = perft(state, 1)
    assert first == len(state.legal_action_texts()) > 20
    assert perft(state, 2) > first


def test_every_verb_ratten_scharf_can_offer_is_written_and_read_back(scharf: Game) -> None:
    reached = verbs_read_back(scharf)
    assert {"draw", "lay"} <= spec_verbs(scharf)
    assert set(reached) == spec_verbs(scharf), spec_verbs(scharf) - set(reached)


def test_the_play_page_serves_every_game_of_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    """`play --web` plays any game of the registry: each starts a game whose page draws it and offers its
    actions (tests/ratten_scharf/test_scharf_play.py plays Ratten Scharf's); a bad option is refused with
    exit 2 before any server starts."""
    from rattus_rules.tools.views.play import PlayServer

    assert "ratten_scharf" in known_games()
    for name in known_games():
        server = PlayServer(seed=1, game=name)
        view = server.new_game({"seed": 1})
        assert view["svg"].startswith("<svg") and view["actions"] and not view["over"], name
        assert main(["--game", name, "play", "--web", "--port", "70000"]) == 2
        err = capsys.readouterr().err
        assert "--port is 0..65535" in err and "Traceback" not in err
