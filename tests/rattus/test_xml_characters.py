"""Characters XML 1.0 does not allow never reach a picture (issue 24, item 13): U+FFFE and U+FFFF in seat
names made the viewer's SVG not well-formed, and Chromium showed a parse error instead of the board on every
step.  Every text and attribute of a picture is written with such characters as their ``\\uXXXX`` notation."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rattus_rules import new_game
from rattus_rules.cli import main
from rattus_rules.games.rattus.render import board_svg, state_svg
from rattus_rules.tools.views.webpage import json_for_script, xml_safe

RECORD = Path(__file__).resolve().parents[2] / "conformance" / "games" / "legal-2p-omniscient.json"
#: Every kind of character XML 1.0 leaves out that a JSON record can hold (lone surrogates are refused
#: as records: tests/rattus/test_surrogates.py).
NOT_XML = ["\ufffe", "\uffff", "\x01", "\x0b", "\x1f"]


@pytest.mark.parametrize("char", NOT_XML, ids=[f"U+{ord(c):04X}" for c in NOT_XML])
def test_the_viewer_of_a_record_with_such_seat_names_shows_well_formed_pictures(char: str, tmp_path: Path,
                                                                                 capsys: pytest.CaptureFixture[str]
                                                                                 ) -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    record["seats"] = [f"Anna{char}", f"{char}Bert"]
    record["entries"] = record["entries"][:40]
    file = tmp_path / "record.json"
    file.write_text(json.dumps(record), encoding="utf-8")
    page = tmp_path / "view.html"
    code = main(["view", str(file), "--output", str(page)])
    capsys.readouterr()
    if code == 2:  # refused as a record (the schema may refuse control characters in names): no picture
        return
    assert code in (0, 1)
    html = page.read_text(encoding="utf-8")
    assert char not in html
    data = json.loads(re.search(r'<script type="application/json" id="rattus-data">(.*?)</script>', html,
                                re.S).group(1))  # type: ignore[union-attr]
    lines = data["lines"]   # pictures are kept as line numbers into one table of lines (viewer.LinePool)
    pictures = ["\n".join(lines[n] for n in frame["svg"]) for frame in data["frames"] if frame.get("svg")]
    assert pictures
    for svg in pictures:
        ET.fromstring(svg)  # well-formed XML, as Chromium's DOMParser needs
    assert f"Anna\\u{ord(char):04x}" in html or f"Anna\\\\u{ord(char):04x}" in html  # the seats' table: escaped


def test_render_state_from_such_a_record_is_well_formed(tmp_path: Path) -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    record["seats"] = ["Anna\ufffe", "Bert\uffff"]
    file = tmp_path / "record.json"
    file.write_text(json.dumps(record), encoding="utf-8")
    out = tmp_path / "state.svg"
    assert main(["render", "state", "--from", str(file), "--at", "30", "--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    ET.fromstring(text)
    assert "Anna\\ufffe" in text and "Bert\\uffff" in text


def test_every_text_and_attribute_of_a_picture_is_made_xml_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    from rattus_rules.games.rattus import render

    seen: list[str] = []
    real = render.xml_safe

    def recording(text: str) -> str:
        seen.append(text)
        return real(text)

    monkeypatch.setattr(render, "xml_safe", recording)
    svg = state_svg(new_game(4, seed=3)) + board_svg(new_game(2, seed=1).game)
    texts = [t for t in re.findall(r">([^<]+)<", svg) if t.strip()]
    assert texts and all(t in seen or t.replace("&amp;", "&") in seen for t in texts)


def test_xml_safe_and_json_for_script() -> None:
    assert xml_safe("a\tb\nc\rd \u00e9 \U0001F600") == "a\tb\nc\rd \u00e9 \U0001F600"
    assert xml_safe("\ufffe\uffff\x00\ud800") == "\\ufffe\\uffff\\u0000\\ud800"
    text = json_for_script({"seat": "A\ufffe\uffff\ud800</script>"})
    assert not re.search("[\ufffe\uffff\ud800-\udfff<>]", text)
    assert json.loads(text) == {"seat": "A\ufffe\uffff\ud800</script>"}


@pytest.mark.parametrize("char", NOT_XML, ids=[f"U+{ord(c):04X}" for c in NOT_XML])
def test_a_declared_picture_with_such_seat_names_is_well_formed(char: str) -> None:
    from rattus_rules.tools.views.picture import picture_svg

    svg = picture_svg(new_game(2, seed=1, game="ratten_scharf"), seats=[f"Anna{char}", f"Bert{char}"])
    assert svg is not None and char not in svg
    ET.fromstring(svg)
    assert "Anna" in svg
