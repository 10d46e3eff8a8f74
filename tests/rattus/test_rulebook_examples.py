"""Every example of the German rulebook as a scenario, asserting exactly what the text says.

The scenario files are in ``tests/rattus/scenarios``; each quotes the example it
builds.  Variants (another choice the text mentions, another threshold) are
made here by editing the scenario text.  Below them: what the text refuses,
the spec refuses too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rattus_rules.games import log_lines
from rattus_rules.games.rattus.scenario import ScenarioRun, parse_scenario, run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"


def text_of(name: str) -> str:
    return (SCENARIOS / f"{name}.scn").read_text(encoding="utf-8")


def run(text: str, name: str = "<variant>") -> ScenarioRun:
    return run_scenario(parse_scenario(text, name))


def assert_ok(result: ScenarioRun) -> None:
    assert result.ok, "\n".join(str(f) for f in result.failures)


def until(text: str, marker: str) -> str:
    """The scenario text up to (not including) the first line containing ``marker``."""
    lines = text.splitlines()
    cut = next(i for i, line in enumerate(lines) if marker in line)
    return "\n".join(lines[:cut]) + "\n"


@pytest.mark.parametrize("name", sorted(p.stem for p in SCENARIOS.glob("*.scn")))
def test_scenario_file_runs_as_written(name: str) -> None:
    assert_ok(run(text_of(name), name))


# ------------------------------------------------------------ placement (Ⓑ)
def test_placement_example_gallien_would_have_taken_three() -> None:
    # "In Gallien hätte er drei Würfel ... platzieren dürfen."
    text = until(text_of("placement_example"), "red place Germania")
    result = run(text + "red place Gallia\nexpect cubes Gallia: red 3\nexpect supply red 17\n")
    assert_ok(result)


def test_placement_needs_the_peasant_for_a_region_without_tokens() -> None:
    # "(Ausnahme: die Ständekarte der Bauern ...)"; "oder einen Würfel in eine Region ohne Rattenplättchen"
    text = until(text_of("placement_example"), "expect actions").replace("turn red", "cards red: peasant\nturn red")
    result = run(text + "expect illegal red place Italia\nred place-extra Italia\nexpect cubes Italia: red 1\n")
    assert_ok(result)
    # "So kann er z. B. 4 Bevölkerungswürfel in eine Region mit 3 Rattenplättchen legen"
    assert_ok(run(text + "red place-extra Gallia\nexpect cubes Gallia: red 4\nexpect used peasant\n"))
    # The extra cube is optional by default ("kann"): the usual three are still allowed.
    assert_ok(run(text + "red place Gallia\nexpect cubes Gallia: red 3\n"))


def test_placement_with_the_peasant_always_one_more_reading() -> None:
    text = until(text_of("placement_example"), "expect actions").replace("turn red", "cards red: peasant\nturn red")
    text = text.replace("players 4", "players 4\ninterpretation peasant-extra=always")
    assert_ok(run(text + "expect illegal red place Gallia\nexpect actions place place-extra: place-extra Anglia, "
                  "place-extra Gallia, place-extra Germania, place-extra Hispania, place-extra Hungaria, "
                  "place-extra Italia, place-extra Polonia, place-extra Scandia, place-extra Bulgaria, "
                  "place-extra Turcia, place-extra Russia, place-extra Tartaria\n"))


def test_a_wrong_expectation_is_reported() -> None:
    text = until(text_of("placement_example"), "red place Germania")
    result = run(text + "red place Gallia\nexpect cubes Gallia: red 2\n")
    assert [f.line for f in result.failures] == [len(text.splitlines()) + 2]
    assert "cubes in Gallia: red 3" in result.failures[0].message


# ------------------------------------------------------------- plague (Ⓒ)
def _plague_events(result: ScenarioRun) -> list[str]:
    log = log_lines(result.state)
    return [("reveal " + line.split("shows ", 1)[1].split(":")[0]) if "shows" in line else line
            for line in log if "shows" in line or "loses" in line]


def test_plague_example_step_by_step() -> None:
    result = run(text_of("plague_example"))
    assert_ok(result)
    # 1: green (Kaufmann) loses one, blue (Mönch) has no cube there; 3: nothing;
    # 2: M hits the tie green and yellow; merchant and monk holders have nothing left.
    assert _plague_events(result) == ["reveal 1", "P2 loses a cube in Gallia", "reveal 3", "reveal 2",
                                      "P1 loses a cube in Gallia", "P2 loses a cube in Gallia"]


def test_a_revealed_token_is_written_once_by_its_face() -> None:
    log = log_lines(run(text_of("plague_example")).state)
    reveals = [line for line in log if "shows" in line]
    assert reveals and all(line.count(":") == 1 for line in reveals), reveals
    assert reveals[0].startswith("the rat token in Gallia shows 1:")


def test_plague_example_in_placement_order() -> None:
    # Under the other reading of "nacheinander" the tokens are turned in the order they were placed,
    # which is the order the example reveals them in: the outcome is the same.
    text = until(text_of("plague_example"), "expect tokens Gallia: 1:merchant+monk").replace(
        "players 4", "players 4\ninterpretation reveal-order=placed")
    result = run(text + "expect revealed: 1:merchant+monk, 3:*, 2:M+merchant+monk\n"
                 "expect cubes Gallia: none\nexpect supply green 20\nexpect supply yellow 20\nexpect to-move yellow\n")
    assert_ok(result)
    assert _plague_events(result)[-3:] == ["reveal 2", "P1 loses a cube in Gallia", "P2 loses a cube in Gallia"]


def test_plague_spreads_only_to_neighbours_with_room() -> None:
    # "Demzufolge ist es nicht erlaubt, weitere Rattenplättchen in Regionen mit drei Plättchen zu legen.
    #  In einem solchen Fall muss der Spieler eine andere, der Pestregion benachbarte Region wählen."
    text = until(text_of("plague_example"), "red plague Gallia").replace(
        "plague Germania", "plague Germania\ntokens Hispania: ?, ?, ?\ntokens Italia: ?, ?")
    result = run(text + "red plague Gallia\n"
                 "expect actions: spread Anglia, spread Germania, spread Italia\n"
                 "expect illegal red spread Hispania because \"Regionen mit drei Plättchen\"\n"
                 "red spread Italia\nchance draw ?\n"
                 "expect actions: spread Anglia, spread Germania\n")
    assert_ok(result)


def test_plague_spread_stops_when_every_neighbour_is_full() -> None:
    # "Im seltenen Fall, dass alle benachbarten Regionen mit drei Rattenplättchen belegt sind, werden
    #  keine weiteren Rattenplättchen ausgespielt."
    text = until(text_of("plague_example"), "red plague Gallia").replace(
        "plague Germania", "plague Germania\n" + "".join(
            f"tokens {r}: ?, ?, ?\n" for r in ("Hispania", "Italia", "Anglia")) + "tokens Germania: ?, ?")
    result = run(text + "red plague Gallia\nred spread Germania\nchance draw ?\n"
                 "expect tokens Germania: 3\nexpect actions: reveal 1, reveal 2, reveal 3\n")
    assert_ok(result)


def test_the_plague_must_move() -> None:
    # "aber er darf die Figur nicht in der bisherigen Region belassen."
    text = until(text_of("plague_example"), "red plague Gallia")
    assert_ok(run(text + "expect illegal red plague Germania\nexpect legal red plague Gallia\n"))


def test_no_devastation_without_cubes() -> None:
    # "Wenn die Pestregion mindestens einen Bevölkerungswürfel sowie ein oder mehr Rattenplättchen enthält"
    text = until(text_of("plague_example"), "red plague Gallia").replace("cubes Gallia: green 2, yellow 1\n", "")
    result = run(text + "red plague Gallia\nred spread Hispania\nchance draw ?\nred spread Hispania\nchance draw ?\n"
                 "expect tokens Gallia: 3\nexpect revealed: none\nexpect to-move yellow\n")
    assert_ok(result)


# ---------------------------------------------------------------- the Knight
@pytest.mark.parametrize(("face", "breaks_out"), [("3:A+king", True), ("4:A+peasant+witch", True),
                                                  ("5:A+monk+peasant", False)])
def test_knight_example_thresholds(face: str, breaks_out: bool) -> None:
    # "wird die Pest, wenn ein entsprechendes Rattenplättchen mit der Zahl 3 oder 4 aufgedeckt wird, ausbrechen."
    text = until(text_of("knight_example"), "expect cubes Scandia").replace("tokens Scandia: 3:A+king",
                                                                            f"tokens Scandia: {face}")
    text = text.replace("expect revealed: 3:*", f"expect revealed: {face}")
    after = "expect cubes Scandia: none\n" if breaks_out else "expect cubes Scandia: green 1, blue 1\n"
    assert_ok(run(text + after))


def test_knight_example_without_the_neutral_cubes() -> None:
    # Without the two neutral cubes, 2 cubes do not reach a 3.
    text = until(text_of("knight_example"), "red neutral")
    assert_ok(run(text + "red no-neutral\nexpect revealed: 3:*\nexpect cubes Scandia: green 1, blue 1\n"))


def test_knight_neutral_cubes_do_not_count_for_a_majority_by_default() -> None:
    # Blue holds 1 cube against the neutral pair's 2; M still hits blue (default reading).
    text = until(text_of("knight_example"), "expect cubes Scandia").replace(
        "tokens Scandia: 3:A+king", "tokens Scandia: 3:M+witch").replace(
        "cubes Scandia: green 1, blue 1", "cubes Scandia: blue 1").replace("expect revealed: 3:*", "")
    assert_ok(run(text + "expect cubes Scandia: none\n"))
    other = text.replace("players 4", "players 4\ninterpretation knight-neutral-majority=yes")
    assert_ok(run(other + "expect cubes Scandia: blue 1\n"))


def test_only_the_knight_moves_the_plague_two_steps() -> None:
    text = until(text_of("knight_example"), "expect illegal red plague Scandia").replace("cards red: knight\n", "")
    assert_ok(run(text + "expect illegal red plague Germania Scandia\nexpect legal red plague Germania\n"))


def test_knight_may_not_return_to_the_start_by_default() -> None:
    text = until(text_of("knight_example"), "expect illegal red plague Scandia")
    assert_ok(run(text + "expect illegal red plague Germania Italia\n"))
    other = text.replace("players 4", "players 4\ninterpretation knight-return=yes")
    assert_ok(run(other + "expect legal red plague Germania Italia\n"))


# ------------------------------------------------------------------ the Monk
def test_monk_example_before_placing() -> None:
    # "Diese Bewegung wird entweder vor oder nach dem Platzieren neuer Würfel in Aktion B durchgeführt."
    text = until(text_of("monk_example"), "red place Gallia")
    assert_ok(run(text + "red monk Gallia 3 Italia\nred place Gallia\nexpect cubes Gallia: red 2\n"))


def test_monk_needs_the_card() -> None:
    text = until(text_of("monk_example"), "red place Gallia").replace("cards red: monk\n", "")
    assert_ok(run(text + "expect illegal red monk Gallia 2 Germania\n"))


# ---------------------------------------------------------- other refusals
def test_one_card_per_turn() -> None:
    # "Der Spieler kann eine Ständekarte ... nehmen."
    text = until(text_of("placement_example"), "expect actions")
    assert_ok(run(text + "red take monk\nexpect cards red: monk\nexpect illegal red take witch\n"))


def test_a_card_is_taken_from_another_player() -> None:
    # "entweder aus der Auslage neben dem Spielplan oder von einem Mitspieler nehmen."
    text = until(text_of("plague_example"), "red plague Gallia").replace("done take place", "")
    assert_ok(run(text + "red take knight\nexpect cards red: knight\nexpect cards yellow: none\n"))


def test_king_only_from_a_region_without_tokens() -> None:
    # "Dieser Würfel muss aus einer Region entnommen werden, in der sich keine Rattenplättchen befinden."
    text = until(text_of("placement_example"), "expect actions").replace(
        "turn red", "cards red: king\ncubes Gallia: red 2\ncubes Anglia: red 1\nturn red")
    assert_ok(run(text + "expect illegal red king Gallia because \"keine Rattenplättchen\"\n"
                  "red king Anglia\nexpect castle red 1\nexpect cubes Anglia: none\n"))


def test_a_position_that_breaks_an_invariant_is_refused() -> None:
    from rattus_rules.games.rattus.scenario import ScenarioError

    with pytest.raises(ScenarioError, match="more than their 20"):
        run("players 2\ncubes Gallia: P0 21\n")
    # "Es können niemals mehr als drei Rattenplättchen gleichzeitig in einer Region liegen."
    with pytest.raises(ScenarioError, match=r"max_three_rats.*niemals mehr als drei"):
        run("players 4\ntokens Gallia: ?, ?, ?, ?\n")
    with pytest.raises(ScenarioError, match="what the board leaves"):
        run("players 2\ncubes Gallia: P0 2\nsupply P0 20\n")
    with pytest.raises(ScenarioError, match="no token"):
        run("players 4\ntokens Gallia: 1:merchant+monk\ntokens Italia: 1:merchant+monk\n")
    with pytest.raises(ScenarioError, match="not in play"):
        run("players 2\ntokens Russia: ?\n")
