"""Planted bugs: do the tests catch what they claim?

Each entry of :data:`PLANTS` is a bug planted on purpose — one change of one
file (engine code, a tool, the spec) — with the tests that must catch it.  For
each, this script copies the project (the files git knows, committed or not)
into a temporary folder, makes the change there, runs the named test files
against the copy, and reports which tests failed.  A plant is *caught* when
every test it names among ``caught_by`` failed; one whose tests all pass is
*missed*: a gap in the suite.  Nothing in the project itself is changed.

Usage::

    python bench/plant.py [--only NAME] [--list] [--check]
    make plant

``--check`` only verifies that every plant still applies (its text occurs
exactly once in its file), as ``tests/rattus/test_plant.py`` does; a plant
that no longer applies must be updated with the code it was written against.
docs/testing.md lists the plants and the tests that catch each.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Plant:
    """One planted bug: in ``path``, the text ``old`` (found exactly once) becomes ``new``; ``tests`` are run,
    and each test named in ``caught_by`` (a node id, or its start) must fail.  ``then`` is a command run in
    the copy after the change and before the tests (e.g. rewriting the generated files with the bug in)."""

    name: str
    what: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]
    caught_by: tuple[str, ...]
    then: tuple[str, ...] = field(default=())


PLANTS: tuple[Plant, ...] = (
    Plant("index-lower-bound", "the referee's _find without its 0 <= bound (index -1 named the last option)",
          "interpreter/session.py", "if not 0 <= index < len(g.texts):", "if not index < len(g.texts):",
          ("tests/language/test_referee_hostile.py", "tests/rattus/test_protocol.py"),
          ("tests/language/test_referee_hostile.py::test_an_index_that_is_no_index_is_refused_and_nothing_moves",
           "tests/language/test_referee_hostile.py::test_an_index_equal_to_the_number_of_options_is_refused",
           "tests/rattus/test_protocol.py::test_fuzz_an_index_out_of_range_is_an_illegal_action_at_any_step")),
    Plant("index-upper-bound", "the referee's _find letting the index equal to the number of options through",
          "interpreter/session.py", "if not 0 <= index < len(g.texts):", "if not 0 <= index <= len(g.texts):",
          ("tests/language/test_referee_hostile.py", "tests/rattus/test_protocol.py"),
          ("tests/language/test_referee_hostile.py::test_an_index_equal_to_the_number_of_options_is_refused",
           "tests/rattus/test_protocol.py::test_fuzz_an_index_out_of_range_is_an_illegal_action_at_any_step")),
    Plant("cubes-drawn-n-1", "every region's cube count drawn as n-1 (the data-cubes attribute still right)",
          "rattus_rules/games/rattus/render.py", '_text(g, cx + 17, top + 64, str(n), 11, "start")',
          '_text(g, cx + 17, top + 64, str(max(n - 1, 0)), 11, "start")',
          ("tests/rattus/test_drawn.py", "tests/rattus/test_viewer.py", "tests/rattus/test_play_web.py",
           "tests/rattus/test_browser.py"),
          ("tests/rattus/test_drawn.py::test_a_state_picture_draws_the_states_numbers",
           "tests/rattus/test_drawn.py::test_the_viewer_draws_the_numbers_of_each_frames_state",
           "tests/rattus/test_drawn.py::test_the_play_page_draws_the_numbers_of_the_game")),
    Plant("expect-illegal-off-turn", "the scenario runner's `expect illegal` passing at another player's decision",
          "rattus_rules/games/rattus/scenario.py",
          '            self.fail(f"{self.who(st.current_player)} is to move, not {self.who(seat)}: "\n'
          '                      f"the action cannot be tried at another player\'s decision")\n',
          "", ("tests/rattus/test_scenario.py",),
          ("tests/rattus/test_scenario.py::test_expect_illegal_at_another_players_decision_fails_naming_whose",)),
    Plant("validator-any-seat", "the record validator checking player-or-chance, not which seat",
          "rattus_rules/tools/records/walk.py", "        if by != expected:\n",
          "        if (by == CHANCE) != (expected == CHANCE):\n",
          ("tests/rattus/test_conformance.py", "tests/rattus/test_records.py"),
          ("tests/rattus/test_records.py::test_the_wrong_player_or_chance_out_of_turn",
           "tests/rattus/test_conformance.py::test_recorded_games_get_the_expected_verdicts",
           "tests/rattus/test_conformance.py::test_illegal_verdicts_agree_with_the_ones_written_by_hand")),
    Plant("validator-any-seat-kit-rewritten", "the same, and the kit rewritten by the buggy validator",
          "rattus_rules/tools/records/walk.py", "        if by != expected:\n",
          "        if (by == CHANCE) != (expected == CHANCE):\n",
          ("tests/rattus/test_conformance.py",),
          ("tests/rattus/test_conformance.py::test_illegal_verdicts_agree_with_the_ones_written_by_hand",),
          then=("-m", "rattus_rules.tools.kit.conformance", "--write", "conformance")),
    *(Plant(f"text-of-{verb}", f"the action text of `{verb}` written wrongly (it does not read back)",
            "interpreter/notation.py", '    """An option\'s text: its :func:`words` joined by spaces."""\n',
            '    """An option\'s text: its :func:`words` joined by spaces."""\n'
            f'    if branch.verb == "{verb}":\n        return branch.verb + "-x"\n',
            ("tests/rattus/test_notation_rattus.py",),
            ("tests/rattus/test_notation_rattus.py::test_every_verb_rattus_can_offer_is_written_and_read_back",))
      for verb in ("end", "final-reveal", "peasant")),
    Plant("fourth-token", "a rat token spread into a region that already holds three (spec)",
          "spec/rattus/plague.rules", '"spread" q in neighbours(board, r) where size(rats[q]) < 3',
          '"spread" q in neighbours(board, r) where size(rats[q]) <= 3',
          ("tests/rattus/test_rulebook_examples.py", "tests/rattus/test_edge_cases.py",
           "tests/rattus/test_reference_model.py"),
          ("tests/rattus/test_reference_model.py",)),
    Plant("monk-into-full-region", "the Monk moving a token into a region that holds three (spec)",
          "spec/rattus/turn.rules", "b in neighbours(board, a) where size(rats[b]) < 3",
          "b in neighbours(board, a) where size(rats[b]) <= 3",
          ("tests/rattus/test_rulebook_examples.py", "tests/rattus/test_edge_cases.py",
           "tests/rattus/test_reference_model.py"),
          ("tests/rattus/test_rulebook_examples.py",)),
    Plant("tie-break-off-by-one", "a tie broken for the player after the one who would have moved next (spec)",
          "spec/rattus/end.rules", "finish [first(q in clockwise(next(last_regular)) where q in tied)]",
          "finish [first(q in clockwise(next(next(last_regular))) where q in tied)]",
          ("tests/rattus/test_end_game.py", "tests/rattus/test_reference_model.py"),
          ("tests/rattus/test_end_game.py",)),
)


def apply(plant: Plant, root: Path) -> None:
    """Make the change of ``plant`` in the copy at ``root``; ValueError if its text is not there exactly once."""
    path = root / plant.path
    text = path.read_text(encoding="utf-8")
    found = text.count(plant.old)
    if found != 1:
        raise ValueError(f"{plant.name}: the text to change occurs {found} times in {plant.path}, not once")
    path.write_text(text.replace(plant.old, plant.new), encoding="utf-8")


def _copy(target: Path) -> None:
    """The project's files (those git knows, and new ones it does not ignore) copied under ``target``."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = ROOT / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)


_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.M)


def run(plant: Plant, timeout: float = 1800) -> tuple[bool, list[str], str]:
    """Plant the bug in a copy and run its tests: whether it was caught, the tests that failed, pytest's tail."""
    with tempfile.TemporaryDirectory(prefix=f"plant-{plant.name}-") as tmp:
        copy = Path(tmp)
        _copy(copy)
        apply(plant, copy)
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("RATTUS_SPEC_DIR", None)
        if plant.then:
            subprocess.run([sys.executable, *plant.then], cwd=copy, env=env, check=True, capture_output=True)
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfE", "--no-header", "--tb=no",
                               "-p", "no:cacheprovider", *plant.tests], cwd=copy, env=env, capture_output=True,
                              text=True, timeout=timeout)
    failed = sorted(set(_FAILED.findall(done.stdout)))
    caught = all(any(f.startswith(want) for f in failed) for want in plant.caught_by)
    return caught, failed, done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-500:]


def main(argv: list[str] | None = None) -> int:
    """Run the plants (or list or check them); exit 1 if one is missed or no longer applies."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", metavar="NAME", help="run only the plants whose name contains NAME")
    parser.add_argument("--list", action="store_true", help="list the plants and exit")
    parser.add_argument("--check", action="store_true", help="only check that every plant still applies")
    args = parser.parse_args(argv)
    plants = [p for p in PLANTS if args.only is None or args.only in p.name]
    if args.list:
        for p in plants:
            print(f"{p.name}: {p.what} ({p.path})")
        return 0
    if args.check:
        bad = []
        for p in plants:
            try:
                with tempfile.TemporaryDirectory() as tmp:
                    (Path(tmp) / p.path).parent.mkdir(parents=True)
                    shutil.copy2(ROOT / p.path, Path(tmp) / p.path)
                    apply(p, Path(tmp))
            except (ValueError, OSError) as err:
                bad.append(str(err))
        print("\n".join(bad) or f"all {len(plants)} plants apply")
        return 1 if bad else 0
    missed = 0
    for p in plants:
        start = time.monotonic()
        caught, failed, tail = run(p)
        missed += not caught
        print(f"{'caught' if caught else 'MISSED'}  {p.name}: {p.what}  ({time.monotonic() - start:.0f} s; {tail})")
        for f in failed:
            print(f"    fails {f}")
        for want in p.caught_by:
            if not any(f.startswith(want) for f in failed):
                print(f"    DID NOT FAIL {want}")
    print(f"{len(plants) - missed} of {len(plants)} planted bugs caught")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
