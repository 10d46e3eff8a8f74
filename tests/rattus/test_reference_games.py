"""The interpreter plays the recorded reference games exactly as before (see reference_games.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.rattus.reference_games import FIXTURE, play, spec_digest

STORED: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
HINT = ("the spec files changed since the reference games were recorded; if that change is intended, "
        "re-record with `.venv/bin/python -m tests.rattus.reference_games --update`")


def _label(game: dict[str, Any]) -> str:
    settings = ",".join(f"{k}={v}" for k, v in game["settings"].items()) or "defaults"
    return f"{game['players']}p-seed{game['seed']}-{settings}"


@pytest.mark.parametrize("old", STORED["games"], ids=_label)
def test_reference_game_replays_the_same(old: dict[str, Any]) -> None:
    new = play(old["players"], old["seed"], old["settings"])
    if new == old:
        return
    why = HINT if spec_digest() != STORED["spec"] else "the interpreter changed what this game does"
    if "full_history" in old:
        first = next((i for i, (a, b) in enumerate(zip(old["full_history"], new["full_history"])) if a != b),
                     min(len(old["full_history"]), len(new["full_history"])))
        why += f"; first different action: #{first}"
    changed = sorted(k for k in old if old[k] != new.get(k))
    pytest.fail(f"{_label(old)}: {', '.join(changed)} differ — {why}")


def test_reference_games_cover_every_player_count_and_switch() -> None:
    games = STORED["games"]
    assert {g["players"] for g in games} == {2, 3, 4}
    assert sum(1 for g in games if not g["settings"]) >= 90
    # every game has a middle snapshot and ends with winners among the seats
    for g in games:
        assert g["middle_json"] is not None and g["winners"]
        assert all(0 <= w < g["players"] for w in g["winners"])
