"""Soak test: many random games of Rattus with every invariant checked after every step.

Plays N games with random players — 2, 3 and 4 players in turn, each game
under randomly drawn interpretation settings — with ``check_invariants=True``,
and prints how many games and actions were played and every violation (the
invariant, its German citation, and how to replay the game).  Exits 1 if any
invariant broke or the rules could not go on.

Usage::

    python bench/soak.py [--games 1000] [--seed 0] [--players 2 3 4] [--jobs 2] [--model] [--max-decisions N]
    make soak

``--model`` also plays each game against the independent reference model of
``tests/rattus/reference_model.py`` and reports the first difference.  A game is cut
after ``--max-decisions`` player decisions (default
``rattus_rules.algorithms.agents.DECISION_BOUND``; under ``phase-b-optional=yes`` a game can
go on forever, docs/rules-as-written.md); the summary says how many were cut.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import InvariantViolation, RulesError  # noqa: E402
from rattus_rules import interpretations, new_game  # noqa: E402
from rattus_rules.algorithms.agents import add_bound_option, bound_text  # noqa: E402
from rattus_rules.tools.progress import progress  # noqa: E402

#: What one game reports: players, actions, violations, messages, whether it was cut at the bound.
Outcome = tuple[int, int, int, list[str], bool]


def settings_for(seed: int) -> dict[str, str]:
    """The interpretation settings of game ``seed``: each switch drawn at random."""
    rng = random.Random(seed * 7919 + 1)
    return {i.id: rng.choice([o.value for o in i.options]) for i in interpretations()}


def play(job: tuple[int, int, bool, int | None]) -> Outcome:
    """One game: (players, seed, with the model, decision bound) -> an :data:`Outcome`."""
    players, seed, with_model, bound = job
    chosen = settings_for(seed)
    rng = random.Random(seed)
    defaults = {i.id: i.default for i in interpretations()}
    changed = ", ".join(f"{k}={v}" for k, v in chosen.items() if v != defaults[k]) or "all defaults"
    where = (f"game seed {seed}, {players} players ({changed}; replay: "
             f"python bench/soak.py --seed {seed} --games 1 --players {players} --jobs 1)")
    state = new_game(players, seed=seed, interpretations=chosen, check_invariants=True,
                     resolve_setup_chance=False)
    model = None
    if with_model:
        from rattus_rules.paths import spec_dir
        from tests.rattus.reference_model import Components, Rattus, differences, spec_legal, spec_view

        model = Rattus(Components(spec_dir() / "data"), players, chosen)
    decisions = 0
    try:
        while not state.is_terminal():
            if not state.is_chance_node():
                if bound is not None and decisions >= bound:
                    return players, len(state.history), 0, [], True
                decisions += 1
            legal = state.legal_action_texts()
            keyed = spec_legal(state) if model is not None else legal  # the model writes a token by its key
            if model is not None and sorted(keyed) != sorted(model.legal()):
                return players, len(state.history), 1, [f"{where}: the reference model differs at action "
                                                        f"{len(state.history)}"], False
            index = rng.randrange(len(legal))
            text = legal[index]
            state.apply_index(index)
            if model is not None:
                model.apply(keyed[index])
                diff = list(differences(spec_view(state), model.view()))
                if diff:
                    return players, len(state.history), 1, [f"{where}: after {text!r} (action "
                                                            f"{len(state.history)}): {diff[0]}"], False
    except InvariantViolation as err:
        return players, len(state.history), 1, [f"{where}:\n  {err}"], False
    except RulesError as err:
        return players, len(state.history), 1, [f"{where}: the rules cannot go on:\n  {err}"], False
    broken = state.broken_invariants()
    if broken:
        return players, len(state.history), 1, [f"{where}: at the end: {', '.join(broken)}"], False
    return players, len(state.history), 0, [], False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", "-n", type=int, default=1000, help="how many games (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--jobs", "-j", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--model", action="store_true", help="compare with the reference model too")
    add_bound_option(parser)
    args = parser.parse_args(argv)

    jobs = [(args.players[i % len(args.players)], args.seed + i, args.model, args.max_decisions)
            for i in range(args.games)]
    began = time.perf_counter()
    games: Counter[int] = Counter()
    actions: Counter[int] = Counter()
    violations = cut = 0
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool, \
            progress(len(jobs), "soak", unit=" game") as bar:
        for players, count, broken, messages, was_cut in pool.map(play, jobs, chunksize=8):
            cut += was_cut
            games[players] += 1
            actions[players] += count
            violations += broken
            for message in messages:
                bar.note(f"VIOLATION {message}")
            bar.update()
    seconds = time.perf_counter() - began
    for players in sorted(games):
        print(f"{players} players: {games[players]} games, {actions[players]} actions")
    total = sum(actions.values())
    compared = ", reference model compared" if args.model else ""
    print(f"games: {sum(games.values())}, actions: {total}, violations: {violations} "
          f"({seconds:.1f} s, {total / max(seconds, 1e-9):.0f} actions/s{compared})")
    print(bound_text(args.max_decisions, cut))
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
