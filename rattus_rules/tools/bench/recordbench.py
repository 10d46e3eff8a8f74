"""The record benchmark: records validated per second, against a yardstick measured in the same process.

Figures, not assertions: run ``make bench-records`` or ``python bench/records.py``.
The records of each game (every game shipped, or those named by ``--game``) are a set of
seeded random games (:func:`bench_records`), made the way its conformance kit's legal games are
(:func:`rattus_rules.tools.records.validate.record_game`), written both ways: omniscient and players-eye;
``--conformance`` measures the kits' legal games instead.  Each is validated whole with
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
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from interpreter import Game
from rattus_rules.api import ResolvedGame, load_rules, resolve
from rattus_rules.games import DEFAULT_GAME, GAMES_PATH_ENV, known_games

from ..kit.kit import kit_dir
from ..records.validate import KINDS, OMNISCIENT, PLAYERS_EYE, record_game, validate
from .machine import machine, pin_to_one_core

#: The speeds aimed at, per core: records per second by kind (issue 26 asks 1,000 of each; issue 13 had
#: asked 300 players-eye records/s).
TARGETS = {OMNISCIENT: 1000, PLAYERS_EYE: 1000}


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


#: How many records of each kind the benchmark validates per game (seeds 1 to this), unless ``--records`` says.
RECORDS = 100
#: How many of them the table of ``make bench`` validates per game and kind (it measures each back end).
TABLE_RECORDS = 20
#: The most records of a kind ``--records`` may ask for.
MAX_RECORDS = 10_000


def bench_records(game: str | ResolvedGame, count: int) -> dict[str, list[dict[str, Any]]]:
    """The benchmark's records of a game by kind: ``count`` games of uniform random players (chance from the
    state's generator, :func:`record_game`), seeds 1 to ``count``, the game's player counts in turn; the
    same games written omniscient and players-eye (as seat 1 saw them, seat 0 in a game of one), none
    players-eye where the game hides no piece.  The same records on every run and machine."""
    resolved = resolve(game)
    rules = resolved.rules
    counts = range(rules.min_players, rules.max_players + 1)
    hidden = any(rules.hidden_zones.values())
    out: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
    for seed in range(1, count + 1):
        players = counts[(seed - 1) % len(counts)]
        out[OMNISCIENT].append(record_game(players, seed, game_name=resolved))
        if hidden:
            out[PLAYERS_EYE].append(record_game(players, seed, kind=PLAYERS_EYE, viewer=min(1, players - 1),
                                                game_name=resolved))
    return out


def benched_games() -> list[str]:
    """The games the benchmark measures unless ``--game`` names some: every game shipped with the package,
    the default one first (a game of ``$RATTUS_GAMES_PATH`` only where ``--game`` names it: its random games
    may never end)."""
    added = {Path(p) for p in os.environ.get(GAMES_PATH_ENV, "").split(os.pathsep) if p}
    shipped = [name for name, folder in known_games().items() if folder.parent not in added]
    return sorted(shipped, key=lambda name: (name != DEFAULT_GAME, name))


def conformance_records(folder: Path | None = None) -> dict[str, list[dict[str, Any]]]:
    """The legal recorded games of a conformance kit by kind (default: the default game's kit in the source tree)."""
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
    """Print records validated per second by game and kind, the yardstick, and their ratio."""
    parser = argparse.ArgumentParser(prog="bench-records", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time per kind and side (default 3)")
    parser.add_argument("--records", type=int, default=RECORDS,
                        help=f"seeded random games per game, each written both ways (default {RECORDS})")
    parser.add_argument("--game", action="append", default=None,
                        help="a game to measure (repeat for more; default every game shipped)")
    parser.add_argument("--conformance", action="store_true",
                        help="measure the legal recorded games of each game's conformance kit instead")
    parser.add_argument("--any-core", action="store_true", help="do not pin the process to one CPU")
    args = parser.parse_args(argv)
    if not args.seconds >= 0:
        parser.error("--seconds must be 0 or more")
    if not 1 <= args.records <= MAX_RECORDS:
        parser.error(f"--records must be 1 to {MAX_RECORDS}")
    names = args.game or benched_games()
    unknown = [name for name in names if name not in known_games()]
    if unknown:
        parser.error(f"no game {unknown[0]!r} (known games: {', '.join(sorted(known_games()))})")
    pinned = "not pinned" if args.any_core else pin_to_one_core()
    print(f"machine: {machine()}; {pinned}")
    if args.conformance:
        print("records: the legal recorded games of each game's conformance kit", end="")
    else:
        print(f"records: {args.records} games of uniform random players per game (seeds 1 to {args.records}, "
              "its player counts in turn),\nthe same games written omniscient and players-eye (as seat 1 saw "
              "them)", end="")
    print("; validate = rattus_rules.tools.records.validate.validate\n(schema and every entry); yardstick = the "
          "same games replayed by option index, unchecked; lazy replay =\nreplayed by their texts in lazy states, "
          "each option tested on its own, nothing listed (CPU time of this process)")
    print(f"{'game':<14} {'kind':<12} {'records':>8} {'entries':>9} {'records/s':>10} {'target':>7} "
          f"{'yardstick/s':>12} {'ratio':>6} {'lazy replay/s':>14}")
    for name in names:
        game = resolve(name)
        sets = conformance_records(kit_dir(game) / "games") if args.conformance else bench_records(game, args.records)
        for kind, records in sets.items():
            if not records:
                continue
            f = measure(kind, records, args.seconds, name)
            print(f"{name:<14} {kind:<12} {f.records:>8} {f.entries:>9} {f.per_second:>10.0f} {TARGETS[kind]:>7} "
                  f"{f.replay_per_second:>12.0f} {f.ratio:>6.2f} {f.lazy_per_second:>14.0f}")
    print("  records = validations timed (the set, round after round); ratio = validation time / yardstick time "
          "(1.00\n  would be checking for free)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
