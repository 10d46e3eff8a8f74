"""`rattus view`: the replay page's data, its escaping, hidden tokens and exit codes (no browser here;
tests/rattus/test_browser.py clicks through the page)."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from interpreter.session import citations_json
from rattus_rules.cli import main
from rattus_rules.tools.records.validate import PLAYERS_EYE, dumps, record_game, validate
from rattus_rules.tools.views.frames import record_frames
from rattus_rules.tools.views.viewer import LinePool, viewer_data, viewer_html

SVG = "{http://www.w3.org/2000/svg}"
PAYLOAD = '"/><script>alert(1)</script><g x="'


def page_data(html: str) -> dict[str, Any]:
    """The JSON data block of a page."""
    start = html.index('id="rattus-data">') + len('id="rattus-data">')
    loaded: dict[str, Any] = json.loads(html[start:html.index("</script>", start)])
    return loaded


def pictures(shown: dict[str, Any]) -> list[ET.Element]:
    return [ET.fromstring("\n".join(shown["lines"][n] for n in f["svg"])) for f in shown["frames"]]


def spoiled(record: dict[str, Any], seat: str, new: str, after: int = 30) -> tuple[dict[str, Any], int]:
    """A copy of a record with the first action of ``seat`` after entry ``after`` replaced."""
    bad = copy.deepcopy(record)
    for i, e in enumerate(bad["entries"]):
        if i > after and e.get("by") == seat:
            e["action"] = new
            return bad, i
    raise AssertionError("no such entry")


def test_one_frame_per_action_entry_and_the_end() -> None:
    record = record_game(3, seed=2)
    frames, verdict = record_frames(record)
    actions = [i for i, e in enumerate(record["entries"]) if "by" in e and "look" not in e]
    assert verdict.ok and verdict.finished
    assert [f.index for f in frames] == [*actions, None]
    covered = [i for f in frames for i in f.numbers]
    assert covered == list(range(len(record["entries"])))
    for f in frames[:-1]:
        assert f.rule == f.state.decision_rule() and f.citations
        assert all(c.quote for c in f.citations)
    assert frames[-1].state.is_terminal()


def test_page_data_follows_the_record() -> None:
    record = record_game(2, seed=5)
    shown = viewer_data(record)
    assert shown["verdict"]["status"] == "legal" and shown["verdict"]["headline"].startswith("Legal")
    drawn = pictures(shown)
    assert len(drawn) == len(shown["frames"])
    frames, _ = record_frames(record)
    for svg, frame, data in zip(drawn, frames, shown["frames"]):
        assert not [g for g in svg.iter(f"{SVG}g") if g.get("class") == "player"]  # the seats: the page's table
        supplies = [p["supply"] for p in data["players"]]
        assert supplies == [frame.state.vals["supply"][p] for p in frame.state.seats]
        assert [p["score"] for p in data["players"]] == frame.state.scores()
        assert data["citations"] == citations_json(frame.citations)
        assert {c["quote"] for c in data["citations"]} == {c.quote for c in frame.citations}
    scores = validate(record).scores
    assert sorted(r["score"] for r in shown["verdict"]["final"]) == sorted(scores)
    assert [r["winner"] for r in shown["verdict"]["final"]] == [p in frames[-1].state.winner() for p in range(2)]


def test_line_pool_gives_back_the_text() -> None:
    pool = LinePool()
    a, b = pool.add("x\ny\nz"), pool.add("y\nz\nw")
    assert pool.text(a) == "x\ny\nz" and pool.text(b) == "y\nz\nw"
    assert len(pool.lines) == 4


def test_an_illegal_record_stops_at_its_first_bad_entry() -> None:
    record, bad = spoiled(record_game(4, seed=3), "P1", "plague Atlantis")
    shown = viewer_data(record)
    verdict = shown["verdict"]
    assert verdict["status"] == "illegal" and verdict["headline"] == f"Illegal: entry {bad} is refused"
    assert "Atlantis" in verdict["reason"] and verdict["citations"] and verdict["legal"]
    last = shown["frames"][-1]
    assert last["index"] == bad and last["entries"] == [bad]
    assert shown["entries"][bad]["state"] == "bad" and shown["entries"][bad]["frame"] == len(shown["frames"]) - 1
    assert all(e["state"] == "unchecked" and e["frame"] is None for e in shown["entries"][bad + 1:])
    assert all(e["state"] == "" for e in shown["entries"][:bad])
    assert max(i for f in shown["frames"][:-1] for i in f["entries"]) == bad - 1


def test_a_players_eye_record_keeps_hidden_tokens_hidden() -> None:
    record = record_game(3, seed=6, kind=PLAYERS_EYE, viewer=1)
    omniscient = viewer_data(record_game(3, seed=6))
    shown = viewer_data(record)
    looks = [e["look"] for e in record["entries"] if "look" in e]

    def named(data: dict[str, Any]) -> list[str]:
        return [t.text or "" for svg in pictures(data) for g in svg.iter(f"{SVG}g") if g.get("class") == "token"
                for t in g.iter(f"{SVG}title") if (t.text or "").startswith("face down: ")]

    assert named(omniscient), "an omniscient record names the faces of face-down tokens"
    hidden = named(shown)
    # only the faces the viewer looked at (the Witch) may be named
    assert {h.split(": ", 1)[1].replace(": ", ":") for h in hidden} <= set(looks)
    assert len(hidden) < len(named(omniscient)) / 4


def test_hostile_names_and_actions_stay_text(tmp_path: Path) -> None:
    record, _ = spoiled(record_game(2, seed=1), "P0", "place " + PAYLOAD.replace(" ", ""))
    record["seats"] = [PAYLOAD, "</script><script>alert(2)</script>"]
    html = viewer_html(record)
    assert html.count("<script") == 2 and html.count("</script>") == 2
    shown = page_data(html)
    assert any(PAYLOAD.replace(" ", "") in e["text"] for e in shown["entries"])
    assert shown["frames"][0]["players"][0]["label"] == f"P0 ({PAYLOAD})"
    for svg in pictures(shown):
        assert not [e for e in svg.iter() if e.tag.endswith("script")]


def test_view_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(dumps(record_game(2, seed=4)), encoding="utf-8")
    out = tmp_path / "good.html"
    assert main(["view", str(good), "-o", str(out)]) == 0
    frames, verdict = record_frames(json.loads(good.read_text(encoding="utf-8")))
    actions, entries = len(frames) - 1, verdict.entries
    said = capsys.readouterr().err      # what a step is, and how steps and entries add up, in plain words
    assert f"{len(frames)} steps, one before each of the record's {actions} actions and one for the end " \
           f"({entries} entries: {actions} actions and {entries - actions} reveal and look entries" in said
    assert said.rstrip().endswith(f"Legal: the game is over after {entries} entries.")
    html = out.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert page_data(html)["verdict"]["status"] == "legal"
    bad_record, _ = spoiled(record_game(2, seed=4), "P0", "place Atlantis")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_record), encoding="utf-8")
    assert main(["view", str(bad), "-o", str(tmp_path / "bad.html")]) == 1
    assert "the last refused" in capsys.readouterr().err
    (tmp_path / "not.json").write_text('{"format": "x"}', encoding="utf-8")
    assert main(["view", str(tmp_path / "not.json"), "-o", str(tmp_path / "not.html")]) == 2
    assert not (tmp_path / "not.html").exists()
    assert main(["view", str(good), "-o", str(tmp_path / "missing" / "x.html")]) == 2
    assert main(["view", str(tmp_path / "nothing.json")]) == 2
    capsys.readouterr()
    assert main(["view", str(good)]) == 0
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>")
