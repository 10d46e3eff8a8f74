"""The scenario format itself: laying out positions, steps, expectations and errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from rattus_rules.cli import main
from rattus_rules.games.rattus.faces import face_text
from rattus_rules.games.rattus.scenario import ScenarioError, ScenarioRun, build_position, parse_scenario, run_scenario


def run(text: str) -> ScenarioRun:
    return run_scenario(parse_scenario(text, "t.scn"))


def messages(text: str) -> list[str]:
    return [f"{f.line}: {f.message}" for f in run(text).failures]


def test_the_board_starts_empty_with_full_supplies() -> None:
    state = build_position(parse_scenario("players 3\n"))
    assert all(not state.zones["rats"][r] for r in state.zones["rats"])
    assert all(v == 0 for v in state.vals["cubes"].values())
    assert [state.vals["supply"][p] for p in range(3)] == [20, 20, 20]
    assert all(state.vals["holder"][c] is None for c in state.vals["holder"])
    assert len(state.zones["box"][None]) == 6  # the tokens removed at setup stay removed
    assert state.current_player == 0 and state.history == []


def test_position_statements_are_laid_out() -> None:
    state = build_position(parse_scenario(
        "players 4\nseats red yellow green blue\ntokens Gallia: 2:M+merchant+monk, 3:*, ?\n"
        "cubes Gallia: red 2, blue 1\ncastle green 3\ncards yellow: knight witch\nplague Italia\n"
        "turn green\ndone take\nused witch\nstock: 5\n"))
    faces = [face_text(state.game, t) for t in state.zones["rats"]["Gallia"]]
    assert faces[0] == "2:M+merchant+monk" and faces[1].startswith("3:")
    assert state.vals["cubes"][(0, "Gallia")] == 2 and state.vals["supply"][0] == 18
    assert state.vals["castle"][2] == 3 and state.vals["supply"][2] == 17
    assert state.vals["holder"]["knight"] == 1 and state.vals["holder"]["witch"] == 1
    assert state.vals["plague"][None] == "Italia"
    assert state.current_player == 2
    assert not any(t.startswith("take ") for t in state.legal_action_texts())
    assert len(state.zones["stock"][None]) == 5
    assert len(state.zones["out"][None]) == 49 - 5 - 3
    assert state.broken_invariants() == []


def test_turn_order_goes_on_from_the_stated_player() -> None:
    result = run("players 4\ntokens Gallia: ?\nplague Italia\nturn P2\ndone take place\n"
                 "P2 plague Germania\nexpect to-move P3\nP3 plague Italia\nexpect to-move P0\n")
    assert result.ok, [str(f) for f in result.failures]


def test_used_ability_and_witch_look() -> None:
    text = "players 2\ncards P0: witch\ntokens Gallia: 1:merchant+monk, 2:M+merchant+monk\nplague Italia\n"
    assert run(text + "used witch\nexpect illegal P0 witch Gallia 1\n").ok
    result = run(text + "P0 witch Gallia 1\nexpect actions: witch-look Gallia 2, witch-done\n"
                 "P0 witch-look Gallia 2\nP0 witch-swap\nexpect tokens Gallia: 2:M+merchant+monk, 1:merchant+monk\n"
                 "expect used witch\n")
    assert result.ok, [str(f) for f in result.failures]


def test_stock_contents_decide_the_draw_and_the_end() -> None:
    text = ("players 4\ntokens Gallia: ?\ncubes Gallia: P1 1\nplague Germania\ndone take place\n"
            "stock: 1:merchant+monk\nP0 plague Gallia\nP0 spread Hispania\n")
    assert messages(text + "chance draw 2:*\n")[0].startswith("9: no chance outcome 'draw 2:*'")
    # The stock runs out in P0's turn: the game ends, the final round starts right of P0.
    result = run(text + "chance draw 1:merchant+monk\nexpect stock 0\nexpect tokens Hispania: 1:merchant+monk\n"
                 "expect to-move P3\nexpect actions: end\n")
    assert result.ok, [str(f) for f in result.failures]


def test_removed_tokens_stand_in_when_a_face_is_asked_for() -> None:
    state = build_position(parse_scenario("players 2\nseed 5\n"))
    removed = [face_text(state.game, t) for t in state.zones["box"][None]]
    lines = "".join(f"tokens {r}: {f}\n" for r, f in zip(("Gallia", "Italia", "Anglia"), removed[:3]))
    state = build_position(parse_scenario("players 2\nseed 5\n" + lines))
    assert len(state.zones["box"][None]) == 12
    assert face_text(state.game, state.zones["rats"]["Gallia"][0]) == removed[0]


def test_failures_name_the_line_and_what_was_found() -> None:
    text = "players 2\ntokens Gallia: ?, ?\n"
    assert messages(text + "P0 place Gallia\nexpect cubes Gallia: P0 3\n") == ["4: cubes in Gallia: P0 2"]
    found = messages(text + "P1 place Gallia\nexpect cubes Gallia: P0 2\n")
    assert found == ["3: it is not P1's decision but P0's"]  # the run stops at a failed action
    found = messages(text + "P0 place Italia\n")
    assert found[0].startswith("3: illegal: r = Italia") and "cites rulebook" in found[0]
    assert messages(text + "expect illegal P0 place Gallia\n") == ["3: the action is legal"]
    assert messages(text + "expect illegal P0 place Italia because \"Hexe\"\n")[0].startswith(
        "3: refused, but not because of 'Hexe'")
    assert messages(text + "expect frobnicate\n")[0].startswith("3: unknown expectation 'frobnicate'")


def test_expect_illegal_at_another_players_decision_fails_naming_whose_turn_it_is() -> None:
    # it passed silently: any action of P1's was "illegal" while P0 was to move, whatever the rules said
    text = "players 2\ntokens Gallia: ?, ?\n"
    assert messages(text + "expect illegal P1 place Gallia\n") == [
        "3: P0 is to move, not P1: the action cannot be tried at another player's decision"]
    found = messages("players 3\nseats red yellow green\ntokens Gallia: ?\nplague Italia\nturn yellow\n"
                     "expect illegal green place Italia because \"ohne Rattenplättchen\"\n")
    assert found == ["6: yellow is to move, not green: the action cannot be tried at another player's decision"]
    assert run(text + "expect illegal P0 place Italia because \"ohne Rattenplättchen\"\n").ok  # at P0's decision


@pytest.mark.parametrize(("text", "where"), [
    ("tokens Gallia: ?\n", "t.scn:1: say how many players"),
    ("players 5\n", "t.scn:1: Rattus is for 2 to 4 players"),
    ("players 2\nexpect plague Gallia\ntokens Gallia: ?\n", "t.scn:3: `tokens` describes the position"),
    ("players 2\nseats a b c\n", "t.scn:1: 3 seat names for 2 players"),
    ("players 2\nseats P0 b\n", "t.scn:2: 'P0' cannot name a seat"),
    ("players 2\ntokens Gallia: 7:M\n", "t.scn:2: a rat token's threshold is 1 to 6"),
    ("players 2\ntokens Galia: ?\n", "t.scn:2: no region 'Galia'"),
    ("players 2\ncubes Gallia: P5 1\n", "t.scn:2: no player 'P5'"),
    ("players 2\ncards P0: jester\n", "t.scn:2: no class card 'jester'"),
    ("players 2\ninterpretation reveal-order=sideways\n", "t.scn:2:29: interpretation reveal-order has no option"),
    ("players 2\ndone sleep\n", "t.scn:2: `done` takes take and place"),
    ("players 2\nplagu Gallia\n", "t.scn:2: no statement or player 'plagu'; did you mean 'plague'?"),
    ("playerz 2\n", "t.scn:1: no statement or player 'playerz'; did you mean 'players'?"),
])
def test_malformed_scenarios_are_refused_with_a_line(text: str, where: str) -> None:
    with pytest.raises(ScenarioError) as err:
        run(text)
    assert str(err.value).startswith(where), str(err.value)


def test_rattus_scenario_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.scn"
    good.write_text("players 2\ntokens Gallia: ?\nP0 place Gallia\nexpect cubes Gallia: P0 1\n")
    assert main(["scenario", str(good)]) == 0
    shown = capsys.readouterr().out
    assert "P0: place Gallia" in shown and "ok" in shown and "Gallia" in shown
    bad = tmp_path / "bad.scn"
    bad.write_text("players 2\ntokens Gallia: ?\nP0 place Gallia\nexpect cubes Gallia: P0 4\n")
    assert main(["scenario", "-q", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "bad.scn:line 4" in out and out.endswith("bad.scn: 1 expectation failed\n")
    refused = tmp_path / "refused.scn"
    refused.write_text("players 2\ntokens Gallia: ?\nP0 place Gallia\nexpect cubes Gallia: P0 4\nP0 place Gallia\n")
    assert main(["scenario", "-q", str(refused)]) == 1
    assert capsys.readouterr().out.endswith("refused.scn: 1 expectation and 1 action failed\n")
    broken = tmp_path / "broken.scn"
    broken.write_text("players 9\n")
    assert main(["scenario", str(broken)]) == 2
    capsys.readouterr()
    for unread, why in ((tmp_path / "missing.scn", "No such file or directory"), (tmp_path, "not a regular file")):
        assert main(["scenario", str(unread)]) == 2
        err = capsys.readouterr().err
        assert f"{unread}: cannot read the file: {why}" in err and "Errno" not in err
