"""Ratten Scharf's components and readings: 43 strips in 11 turns each, the two printings (8 or 10
rats), the table's size, and each option of the switches cover, group_scoring, no_fit and
chip_supply in a position where it decides — each test fails under every other option."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import attrs
import pytest

from interpreter import Game, SpecError, State, load_spec

from .test_scharf_rules import GREEN, _lay_on, _owner, _show, drawn_face, lines_of, start

SPEC = Path(__file__).resolve().parents[2] / "spec" / "ratten_scharf"


def _hide_rats(game: Game, state: State) -> None:
    """Let every rat showing show nothing (so that no game ends early; invariants no longer hold)."""
    state.check_invariants = False
    rats = {r["symbol"] for r in game.tables["symbols"].rows if r["kind"] == "rat"}
    for field, shows in state.vals["shows"].items():
        if shows in rats:
            state.vals["shows"][field] = "empty"


def test_a_game_lays_43_strips_in_11_turns_each(scharf: Game) -> None:
    state = scharf.new_state(2, seed=5)
    turns: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        if not turns or turns[-1] != state.current_player:
            turns.append(state.current_player)
        state.apply(state.legal_action_texts()[0])
        _hide_rats(scharf, state)
    assert state.vals["loser"][None] is None and not state.zones["aside"][None]
    assert len(state.zones["laid"][None]) == 43 == len(scharf.tables["strips"].rows)
    assert turns.count(0) == turns.count(1) == 11 and turns[0] == GREEN


@pytest.mark.parametrize("rats", [8, 10])
def test_each_printing_has_its_rats(scharf: Game, rats: int) -> None:
    """Every strip laid (the rats hidden as they show, so that the game does not end early): the fields
    shown, counted as they were laid, hold so many rats of each colour."""
    state = scharf.new_state(2, seed=5, settings={"rats-per-colour": str(rats)})
    shown: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        text = state.legal_action_texts()[0]
        line = scharf.table_rows["lines"][text.split()[-1]]
        state.apply(text)
        shown += [state.vals["shows"][line[part]] for part in ("first", "middle", "last")]
        _hide_rats(scharf, state)
    assert len(shown) == 3 * 42  # the strips laid after the start strip (S and two empty fields)
    for colour in ("green", "red"):
        assert shown.count(f"{colour}-rat") == rats


def test_the_default_printing_has_eight_rats_and_the_table_19_fields_a_side(scharf: Game) -> None:
    assert scharf.defaults["rats_per_colour"] == "8" and scharf.defaults["table_size"] == "19"


@pytest.mark.parametrize(("size", "legal"), [("5", False), ("7", True), ("13", True)])
def test_the_table_edge_is_a_setting(scharf: Game, size: str, legal: bool) -> None:
    state = start(scharf, table_size=size)
    assert ("j9-j7" in lines_of(state)) is legal  # j7 lies 3 rows from the middle
    assert state.to_json()["settings"]["table-size"] == size


def test_a_table_size_that_is_not_offered_is_refused(scharf: Game) -> None:
    options = r"\(options: 5, 7, 9, 11, 13, 15, 17, 19\)"
    with pytest.raises(ValueError, match=r"setting table-size has no option '6' " + options):
        scharf.new_state(2, settings={"table-size": "6"})


def test_a_table_whose_start_leaves_no_place_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(SPEC / "data", data)
    lines = (data / "lines.csv").read_text(encoding="utf-8").splitlines()
    (data / "lines.csv").write_text("\n".join([lines[0]] + [row for row in lines[1:]
                                                            if row.split(",")[0] in ("i10-k10", "k10-i10")]) + "\n",
                                    encoding="utf-8")
    with pytest.raises(SpecError, match="fails check the_start_strip_leaves_a_place"):
        load_spec(SPEC, data=data)


# ------------------------------------------------------------------------------------- cover

def _bury_the_start_strip(game: Game, cover: str) -> State:
    """Three strips laid across the start strip (and the strips above and below it): it lies buried,
    its three fields at height 2 under three different strips.  The player to move is red."""
    state = start(game, cover=cover)
    for line in ("i9-k9", "i11-k11", "i9-i11", "j9-j11", "k9-k11"):
        if state.is_chance_node():
            state.advance_chance()
        _lay_on(state, line)
        assert not state.is_terminal(), line
    state.advance_chance()
    assert [state.vals["height"][f] for f in ("i10", "j10", "k10")] == [2, 2, 2]
    return state


@pytest.mark.parametrize(("cover", "allowed"), [("top", True), ("any-depth", False)])
def test_a_strip_exactly_over_a_buried_strip(scharf: Game, cover: str, allowed: bool) -> None:
    state = _bury_the_start_strip(scharf, cover)
    lines = lines_of(state)
    assert ("i10-k10" in lines) is allowed and ("k10-i10" in lines) is allowed
    assert "i9-i11" not in lines  # exactly on the strip on top: under every reading


# ----------------------------------------------------------------------------- group_scoring

@pytest.mark.parametrize(("scoring", "points"), [("laid", 0), ("changed", 2)])
def test_what_is_left_of_a_split_group_scores_when_changed(scharf: Game, scoring: str, points: int) -> None:
    """Pepper on g9 to k9 (below the start strip); the strip drawn (cinnamon, anise, clove) laid on
    i7-i9 covers i9 with clove: two pairs of pepper are left, g9-h9 and j9-k9, 1 point each for
    green under `changed`, none under `laid` (the strip's own fields make no group)."""
    state = start(scharf, group_scoring=scoring)
    assert [drawn_face(state)[k] for k in ("first", "middle", "last")] == ["cinnamon", "anise", "clove"]
    _show(state, "pepper", ["g9", "h9", "i9", "j9", "k9"])
    _lay_on(state, "i7-i9")  # legal when the decision was listed, before the pepper was shown
    assert state.vals["points"] == {_owner(scharf, "pepper"): points, 1 - _owner(scharf, "pepper"): 0}


# ------------------------------------------------------------------------------------ no_fit

@pytest.mark.parametrize("no_fit", ["set-aside", "end"])
def test_a_strip_that_fits_nowhere(scharf: Game, no_fit: str) -> None:
    state = start(scharf, no_fit=no_fit)
    _lay_on(state, "i9-k9")
    state.check_invariants = False
    for field in state.vals["near"]:  # nothing lies anywhere near: no line touches a strip
        state.vals["near"][field] = 0
    while not state.is_terminal():
        assert state.is_chance_node()  # never a decision: nothing can be laid
        state.advance_chance()
    assert len(state.zones["laid"][None]) == 2 and state.vals["loser"][None] is None
    if no_fit == "set-aside":  # every other strip set aside, one turn after the other, then the final scoring
        assert len(state.zones["aside"][None]) == 41 and not state.zones["deck"][None]
    else:  # the game ends at the first strip that fits nowhere
        assert not state.zones["aside"][None] and len(state.zones["drawn"][None]) == 2
        assert len(state.zones["deck"][None]) == 39
    assert state.winner() in ([0], [1], [0, 1])


# ------------------------------------------------------------------------------- chip_supply

@pytest.mark.parametrize(("supply", "points", "unpaid"), [("unlimited", 2, 1), ("limited", 1, 1)])
def test_a_score_the_supply_cannot_pay(scharf: Game, supply: str, points: int, unpaid: int) -> None:
    """One grey chip left and no yellow: a group of three (2 points) is paid with the grey chip, and
    the other point counts all the same, or is lost."""
    state = start(scharf, chip_supply=supply)
    spice = drawn_face(state)["first"]
    state.vals["supply"]["yellow"], state.vals["supply"]["grey"] = 0, 1
    _show(state, spice, ["h8", "g8"])
    _lay_on(state, "h9-h11")  # its first field on h9, next to h8: a group of three
    owner = _owner(scharf, spice)
    assert state.vals["points"][owner] == points and state.vals["unpaid"][None] == unpaid
    assert state.vals["supply"] == {"yellow": 0, "grey": 0}


def test_chips_are_taken_from_the_supply(scharf: Game) -> None:
    state = start(scharf)
    assert state.vals["supply"] == {"yellow": 15, "grey": 15}
    spice = drawn_face(state)["first"]
    _show(state, spice, ["h8", "g8"])
    _lay_on(state, "h9-h11")
    assert state.vals["supply"] == {"yellow": 14, "grey": 15} and state.vals["unpaid"][None] == 0


def test_no_combination_of_the_readings_stops_with_a_rule_error() -> None:
    """A small soak (the full one: python -m rattus_rules.tools.bench.combinations --games 20000): every
    combination of the new readings on the smallest table, where strips fit nowhere most often."""
    from rattus_rules.tools.bench.combinations import run

    seen: list[str] = []
    tallies = run("ratten_scharf", 2, ["cover", "group-scoring", "no-fit", "chip-supply"], {"table-size": "5"},
                  note=seen.append)
    assert len(tallies) == 16 == len(seen) and all(t.games == 2 and t.errors == 0 for t in tallies), seen


def test_a_setting_is_recorded_and_checked_in_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from rattus_rules.cli import main

    record = tmp_path / "game.json"
    assert main(["--game", "ratten_scharf", "play", "-s", "2", "-q", "--setting", "table-size=9",
                 "--record", str(record)]) == 0
    written = json.loads(record.read_text(encoding="utf-8"))
    assert written["interpretations"] == {"table-size": "9"}
    capsys.readouterr()
    assert main(["--game", "ratten_scharf", "validate", str(record)]) == 0
    written["interpretations"]["table-size"] = "21"
    record.write_text(json.dumps(written), encoding="utf-8")
    assert main(["--game", "ratten_scharf", "validate", str(record)]) == 2
    assert "setting table-size has no option '21' (options: 5, 7, 9, 11, 13, 15, 17, 19)" in capsys.readouterr().err


def test_the_soak_goes_in_rounds_and_writes_what_it_ran(tmp_path: Path) -> None:
    """make soak-scharf (combinations.py --out): every combination gets a round of seeds before any gets
    the next, and the summary written after each round says the command, the back end and how far it got."""
    from rattus_rules.tools.bench.combinations import main, run, summary

    seen: list[list[int]] = []
    tallies = run("ratten_scharf", 2, ["cover", "no-fit"], {"table-size": "5"}, chunk=1, note=lambda _: None,
                  rounds=lambda done: seen.append(sorted(t.games for t in done)))
    assert seen == [[1, 1, 1, 1], [2, 2, 2, 2]]
    half = summary([attrs.evolve(t, games=1) for t in tallies], "the command", "c", 3.0, 2)
    assert "status: still running (or stopped): 1 of 2 games per combination" in half
    out = tmp_path / "soak.txt"
    assert main(["--games", "2", "--chunk", "1", "--switch", "cover", "--setting", "table-size=5",
                 "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("command: python -m rattus_rules.tools.bench.combinations --games 2")
    assert "status: finished" in text
    assert "back end: " in text and "2 combinations, 4 games (seeds 0 to 1 at least" in text
    assert text.count("cover=") == 2 and "0 stopped by a rule error" in text


def test_a_soak_stopped_early_is_taken_up_from_its_next_seed(tmp_path: Path) -> None:
    """combinations.py --first-seed: the games are the seeds from there on, and the summary names them."""
    from rattus_rules.tools.bench import combinations

    played: list[int] = []
    real = combinations.soak

    def spy(job: tuple[str, tuple[tuple[str, str], ...], int, int, bool]) -> combinations.Tally:
        played.extend(range(job[2], job[2] + job[3]))
        return real(job)

    out = tmp_path / "soak.txt"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(combinations, "soak", spy)
        patch.setattr(combinations, "ProcessPoolExecutor", _InProcess)
        assert combinations.main(["--games", "2", "--chunk", "1", "--first-seed", "7", "--switch", "cover",
                                  "--setting", "table-size=5", "--out", str(out)]) == 0
    assert sorted(played) == [7, 7, 8, 8]
    assert "2 combinations, 4 games (seeds 7 to 8 at least" in out.read_text(encoding="utf-8")


class _InProcess:
    """A stand-in for the process pool that maps in this process (so a spy sees every job)."""

    def __init__(self, max_workers: int) -> None:
        self.max_workers = max_workers

    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Any, jobs: Any) -> Any:
        return map(fn, jobs)
