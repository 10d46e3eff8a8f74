"""The record benchmark: records validated per second, against a yardstick measured in the same process.

Figures, not assertions: run ``make bench-records`` or ``python bench/records.py``.
The records are the legal conformance games (``conformance/games/legal-*``),
omniscient and players-eye.  Each is validated whole with
:func:`rattus_rules.tools.records.validate.validate` (schema, header, every entry).  The
yardstick replays the same games with no checking at all: a fresh state, then
``apply_index`` of each recorded option, which is what any validation must do
at least.  The ratio (validation time / yardstick time) says what checking
costs on top of playing the moves; it does not depend much on the machine or
its load, unlike records per second.  Times are CPU time of this process, on
one core.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from interpreter import Game
from rattus_rules.api import load_rules

from ..records.validate import KINDS, OMNISCIENT, validate
from .machine import machine, pin_to_one_core

#: The speeds aimed at, per core: records per second by kind (issue 26 asks 1,000 of each; issue 13 had
#: asked 300 players-eye records/s).
TARGETS = {OMNISCIENT: 1000, "players-eye": 1000}


@attrs.frozen
class RecordFigures:
    """Records of one kind validated, and the same games replayed unchecked (CPU seconds for each)."""

    kind: str
    records: int
    entries: int
    validate_seconds: float
    replay_seconds: float
    lazy_seconds: float

    @property
    def per_second(self) -> float:
        """Records validated per second."""
        return self.records / self.validate_seconds

    @property
    def replay_per_second(self) -> float:
        """The yardstick: the same games replayed per second, unchecked."""
        return self.records / self.replay_seconds

    @property
    def lazy_per_second(self) -> float:
        """The second yardstick: the same games replayed by their texts in lazy states (no listing)."""
        return self.records / self.lazy_seconds

    @property
    def ratio(self) -> float:
        """Validation time over yardstick time."""
        return self.validate_seconds / self.replay_seconds


def conformance_records(folder: Path | None = None) -> dict[str, list[dict[str, Any]]]:
    """The legal conformance records by kind."""
    root = folder or Path(__file__).resolve().parents[3] / "conformance" / "games"
    out: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
    for path in sorted(root.glob("legal-*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        out[record["kind"]].append(record)
    return out


def replay_plan(game: Game, record: dict[str, Any]) -> Callable[[], None]:
    """A function replaying the record's game by option indices, unchecked (the yardstick)."""
    verdict = validate(record, game_name=record.get("game"))
    if not verdict.finished or verdict.state is None:
        raise ValueError(f"not a finished legal record: {verdict.format()}")
    players, seed, settings = len(record["seats"]), int(record.get("seed", 0)), verdict.state.settings
    state = game.new_state(players, seed=seed, settings=settings)
    indices = []
    for text in verdict.state.history:
        index = state.find(text)
        indices.append(index)
        state.apply_index(index)

    def replay() -> None:
        st = game.new_state(players, seed=seed, settings=settings)
        for index in indices:
            st.apply_index(index)

    return replay


def lazy_replay_plan(game: Game, record: dict[str, Any]) -> Callable[[], None]:
    """A function replaying the record's game by its action texts in a lazy state: each text is
    read and its option tested on its own, no decision is listed (the second yardstick)."""
    verdict = validate(record, game_name=record.get("game"))
    if not verdict.finished or verdict.state is None:
        raise ValueError(f"not a finished legal record: {verdict.format()}")
    players, seed, settings = len(record["seats"]), int(record.get("seed", 0)), verdict.state.settings
    texts = list(verdict.state.history)

    def replay() -> None:
        st = game.new_state(players, seed=seed, settings=settings, lazy=True)
        for text in texts:
            st.apply(text)

    return replay


def measure(kind: str, records: list[dict[str, Any]], seconds: float, game_name: str | None = None) -> RecordFigures:
    """Validate the records (of ``game_name``: None is Rattus), and replay them, in alternating rounds for at
    least ``seconds`` each."""
    game = load_rules(game=game_name)
    plans = [replay_plan(game, r) for r in records]
    lazy_plans = [lazy_replay_plan(game, r) for r in records]
    spent = {"validate": 0.0, "replay": 0.0, "lazy": 0.0}
    rounds = 0
    while rounds < 2 or min(spent.values()) < seconds:
        start = time.process_time()
        for record in records:
            validate(record, game_name=game_name)
        spent["validate"] += time.process_time() - start
        start = time.process_time()
        for plan in plans:
            plan()
        spent["replay"] += time.process_time() - start
        start = time.process_time()
        for plan in lazy_plans:
            plan()
        spent["lazy"] += time.process_time() - start
        rounds += 1
    entries = sum(len(r["entries"]) for r in records)
    return RecordFigures(kind, rounds * len(records), rounds * entries, spent["validate"], spent["replay"],
                         spent["lazy"])


def main(argv: Sequence[str] | None = None) -> int:
    """Print records validated per second by kind, the yardstick, and their ratio."""
    parser = argparse.ArgumentParser(prog="bench-records", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time per kind and side (default 3)")
    parser.add_argument("--any-core", action="store_true", help="do not pin the process to one CPU")
    args = parser.parse_args(argv)
    if not args.seconds >= 0:
        parser.error("--seconds must be 0 or more")
    pinned = "not pinned" if args.any_core else pin_to_one_core()
    print(f"machine: {machine()}; {pinned}")
    print("records: the legal conformance games; validate = rattus_rules.tools.records.validate.validate (schema and "
          "every entry);\nyardstick = the same games replayed by option index, unchecked; lazy replay = replayed by "
          "their texts\nin lazy states, each option tested on its own, nothing listed (CPU time of this process)")
    print(f"{'kind':<12} {'records':>8} {'entries':>8} {'records/s':>10} {'target':>7} {'yardstick/s':>12} "
          f"{'ratio':>6} {'lazy replay/s':>14}")
    for kind, records in conformance_records().items():
        f = measure(kind, records, args.seconds)
        print(f"{kind:<12} {f.records:>8} {f.entries:>8} {f.per_second:>10.0f} {TARGETS[kind]:>7} "
              f"{f.replay_per_second:>12.0f} {f.ratio:>6.2f} {f.lazy_per_second:>14.0f}")
    print("  ratio = validation time / yardstick time (1.00 would be checking for free)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
