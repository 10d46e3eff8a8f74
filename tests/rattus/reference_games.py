"""Recorded reference games: the interpreter must keep playing them the same way.

Each game is played by the benchmark's random players (player choices from
``random.Random(seed)``, chance from the state's own generator) and recorded
as digests of its history, its log, its state as JSON in the middle and at the
end, and its scores and winners.  ``tests/rattus/test_reference_games.py`` replays them
and compares; a difference means the interpreter (or the spec) changed what a
game does.

Re-record only after an intended change of the rules::

    .venv/bin/python -m tests.rattus.reference_games --update
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from interpreter import State
from rattus_rules import load_rules
from rattus_rules.paths import spec_dir

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "data" / "reference_histories.json"
SEEDS = range(30)
PLAYER_COUNTS = (2, 3, 4)
#: Games whose whole history is stored, to show where a replay first differs.
FULL_HISTORY = {(2, 0), (3, 1), (4, 2)}
MIDDLE = 100  # actions before the middle-of-game JSON snapshot


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def snapshot(state: State) -> dict[str, Any]:
    """The state as JSON, without what depends on how the compiler lays out code.

    Program positions (instruction numbers) and the compiler's own temporaries
    (locals whose name starts with ``$``) are left out; each frame keeps its
    procedure and its locals, and the legal actions stand for the position.
    """
    data = state.to_json()
    data["frames"] = [[name, {k: v for k, v in env.items() if not k.startswith("$")}]
                      for name, _, env in data["frames"]]
    data["to_move"] = state.current_player
    data["legal"] = state.legal_action_texts()
    return data


def spec_digest() -> str:
    """A digest of the shipped spec files and data tables."""
    h = hashlib.sha256()
    root = spec_dir()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".rules", ".csv")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:20]


def cases() -> list[tuple[int, int, dict[str, str]]]:
    """(players, seed, settings) of every reference game."""
    out: list[tuple[int, int, dict[str, str]]] = [(n, s, {}) for n in PLAYER_COUNTS for s in SEEDS]
    game = load_rules()
    for decl in game.switches.values():
        for option in decl.options:
            if not option.default:
                out.extend((n, 7 + n, {decl.ident: option.value}) for n in PLAYER_COUNTS)
    return out


def play(players: int, seed: int, settings: dict[str, str]) -> dict[str, Any]:
    """Play one reference game and return its record."""
    state = load_rules().new_state(players, seed=seed, settings=settings, log=True)
    rnd = random.Random(seed)
    middle = None
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_index(rnd.randrange(state.num_legal_actions()))
        if len(state.history) == MIDDLE:
            middle = _digest(snapshot(state))
    record: dict[str, Any] = {
        "players": players,
        "seed": seed,
        "settings": settings,
        "actions": len(state.history),
        "history": _digest(state.history),
        "log": _digest(state.log),
        "middle_json": middle,
        "final_json": _digest(snapshot(state)),
        "scores": state.scores(),
        "winners": state.winner(),
    }
    if (players, seed) in FULL_HISTORY and not settings:
        record["full_history"] = list(state.history)
    return record


def record_all() -> dict[str, Any]:
    """Every reference game's record, with the digest of the spec they were played with."""
    return {
        "about": "Reference games recorded by tests/rattus/reference_games.py; see its docstring.",
        "spec": spec_digest(),
        "games": [play(n, s, settings) for n, s, settings in cases()],
    }


def main() -> int:
    """``--update`` re-records the fixture; without it, compare and list differences."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="re-record the fixture file")
    args = parser.parse_args()
    if args.update:
        FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        FIXTURE.write_text(json.dumps(record_all(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"recorded {FIXTURE}")
        return 0
    stored = json.loads(FIXTURE.read_text(encoding="utf-8"))
    bad = 0
    for old in stored["games"]:
        new = play(old["players"], old["seed"], old["settings"])
        if new != old:
            bad += 1
            print(f"differs: players={old['players']} seed={old['seed']} settings={old['settings']}")
    print(f"{len(stored['games']) - bad} of {len(stored['games'])} reference games replay the same")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
