"""The invariants declared in spec/rattus/invariants.rules: each one bites, and a broken one is named.

For every declared invariant there is a corruption of a real game state that
it must catch (so no invariant is a condition that cannot fail), and the list
of corruptions must cover every invariant the spec declares.  A deliberately
broken copy of the spec shows that ``check_invariants`` names the broken
invariant and its German citation, through the API and through
``rattus play --check-invariants``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from interpreter import Game, InvariantViolation, State, load_spec
from rattus_rules import new_game
from rattus_rules.algorithms.agents import play_out
from rattus_rules.paths import SPEC_DIR_ENV, spec_dir

ROOT = Path(__file__).resolve().parents[2]


def mid_game(players: int = 2, steps: int = 80, seed: int = 5) -> State:
    """A 2-player game some way into the regular phase, invariants checked on the way."""
    state = new_game(players, seed=seed, check_invariants=True)
    for i in range(steps):
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_index((i * 31) % state.num_legal_actions())
    assert state.vals["phase"][None] == "regular" and not state.broken_invariants()
    return state


def unused_region(state: State) -> str:
    """A region of the board that is not in play (2 players use 8 of the 12)."""
    in_play = set(state.world.nodes["board"])
    return str(next(r for r in state.game.table_keys["regions"] if r not in in_play))


def region_with_tokens(state: State) -> str:
    return str(next(r for r in state.world.nodes["board"] if state.zones["rats"][r]))


def _four_rats(s: State) -> None:
    r = region_with_tokens(s)
    while len(s.zones["rats"][r]) < 4:
        s.move_piece(s.zones["stock"][None][0], "rats", r)


def _extra_cube(s: State) -> None:
    s.vals["supply"][0] += 1


def _negative_cubes(s: State) -> None:
    s.vals["cubes"][(1, region_with_tokens(s))] -= 1
    s.vals["supply"][1] += 1  # conservation still holds


def _token_to_box(s: State) -> None:
    s.move_piece(s.zones["stock"][None][0], "box", None)


def _face_up_on_board(s: State) -> None:
    s.face_up[s.zones["rats"][region_with_tokens(s)][0]] = True


def _card_to_nobody(s: State) -> None:
    s.vals["holder"]["king"] = 7


def _plague_off_board(s: State) -> None:
    s.vals["plague"][None] = unused_region(s)


def _cube_off_board(s: State) -> None:
    s.vals["cubes"][(0, unused_region(s))] += 1
    s.vals["supply"][0] -= 1


def _start_token_removed(s: State) -> None:
    start = next(p for p, row in enumerate(s.game.piece_rows) if row["start"] and s.loc[p][0] == "rats")
    removed = s.zones["box"][None][0]
    s.swap_pieces(start, removed)


def _unknown_phase(s: State) -> None:
    s.vals["phase"][None] = "lunch"


def _final_without_trigger(s: State) -> None:
    s.vals["phase"][None] = "final"
    s.vals["ender"][None] = None


def _over_without_trigger(s: State) -> None:
    s.vals["phase"][None] = "over"
    s.vals["ender"][None] = None


def _over_before_devastation(s: State) -> None:
    r = region_with_tokens(s)
    s.vals["cubes"][(0, r)] += 1
    s.vals["supply"][0] -= 1
    s.vals["phase"][None] = "over"
    s.vals["ender"][None] = 0


CORRUPTIONS: dict[str, Callable[[State], None] | list[Callable[[State], None]]] = {
    "max_three_rats": _four_rats,
    "cube_conservation": _extra_cube,
    "no_negative_cubes": _negative_cubes,
    "token_count": _token_to_box,
    "revealed_tokens_face_up": _face_up_on_board,
    "class_cards": _card_to_nobody,
    "plague_in_play": _plague_off_board,
    "only_regions_in_play": _cube_off_board,
    "removed_tokens_not_start": _start_token_removed,
    "phase_known": _unknown_phase,
    "end_needs_trigger": [_final_without_trigger, _over_without_trigger],
    "final_devastation_complete": _over_before_devastation,
}


def test_every_declared_invariant_has_a_corruption(rules: Game) -> None:
    assert set(CORRUPTIONS) == set(rules.symbols.invariants)
    for name, decl in rules.symbols.invariants.items():
        assert decl.citations, name


CASES = [(name, change) for name, changes in sorted(CORRUPTIONS.items())
         for change in (changes if isinstance(changes, list) else [changes])]


@pytest.mark.parametrize(("name", "change"), CASES, ids=[f"{n}-{c.__name__.strip('_')}" for n, c in CASES])
def test_each_invariant_catches_its_corruption(name: str, change: Callable[[State], None]) -> None:
    state = mid_game()
    change(state)
    assert name in state.broken_invariants()
    with pytest.raises(InvariantViolation) as err:
        state.assert_invariants("test")
    assert err.value.name in state.broken_invariants() and err.value.citations


def test_invariants_hold_through_whole_games_under_every_switch_value(rules: Game) -> None:
    for ident, decl in rules.switches.items():
        for option in decl.options:
            for players in (2, 3, 4):
                state = play_out(new_game(players, seed=players, interpretations={ident: option.value},
                                          check_invariants=True), players)
                assert state.is_terminal() and state.broken_invariants() == []


def _broken_copy(tmp_path: Path) -> Path:
    """A copy of the spec whose max_three_rats invariant wrongly allows only one token per region."""
    folder = tmp_path / "rattus"
    shutil.copytree(spec_dir(), folder)
    path = folder / "invariants.rules"
    text = path.read_text(encoding="utf-8")
    assert "size(rats[r]) <= 3)" in text
    path.write_text(text.replace("size(rats[r]) <= 3)", "size(rats[r]) <= 1)"), encoding="utf-8")
    return folder


def test_a_broken_invariant_is_named_with_its_citation(tmp_path: Path) -> None:
    game = load_spec(_broken_copy(tmp_path))
    with pytest.raises(InvariantViolation) as err:
        state = game.new_state(4, seed=3, check_invariants=True)
        while not state.is_terminal():
            state.apply_index(0)
    message = str(err.value)
    assert err.value.name == "max_three_rats"
    assert "invariants.rules:" in message and "invariant max_three_rats is broken after " in message
    assert "Es können niemals mehr als drei Rattenplättchen gleichzeitig in einer Region liegen." in message
    assert [c.source for c in err.value.citations] == ["rulebook"]


def test_without_the_flag_the_broken_invariant_is_not_checked(tmp_path: Path) -> None:
    game = load_spec(_broken_copy(tmp_path))
    state = game.new_state(4, seed=3)
    while not state.is_terminal():
        state.apply_index(0)
    assert "max_three_rats" in state.broken_invariants() or state.is_terminal()


def test_cli_check_invariants_names_the_broken_invariant(tmp_path: Path) -> None:
    env = dict(os.environ, **{SPEC_DIR_ENV: str(_broken_copy(tmp_path))})
    run = subprocess.run([sys.executable, "-m", "rattus_rules", "play", "--players", "4", "--seed", "3",
                          "--quiet", "--check-invariants"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    assert "invariant max_three_rats is broken after" in run.stderr
    assert "cites rulebook" in run.stderr and "niemals mehr als drei Rattenplättchen" in run.stderr
    assert "Traceback" not in run.stderr
    # the same game without the flag plays to its end
    quiet = subprocess.run([sys.executable, "-m", "rattus_rules", "play", "--players", "4", "--seed", "3",
                            "--quiet"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and "Winner: P" in quiet.stdout
