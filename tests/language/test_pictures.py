"""Pictures as data: a game declares how it is drawn (`picture`), the checker checks the declaration, and one
renderer (rattus_rules/tools/views/picture.py) draws any game from it — here Nim, which has no Python."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load_spec, parse_text
from interpreter.checker import check
from interpreter.errors import SpecError
from rattus_rules.tools.views.picture import colour_of, picture_svg, places

NIM = Path(__file__).parent / "specs" / "nim"

PICTURE = '''
picture heap_view {
  place c in counters where true
    at c.id, 1
  show label c.colour
  show colour if c.id == 1 then "<script>" else c.colour
  show count c.id
  show mark c.id == 2
  show outline c.id == 1
  show highlight size(heap) < 3
  seat p colour if p == first_player then "red" else "#00ff00"
}
'''


def nim_with(tmp_path: Path, picture: str) -> Path:
    """A copy of the Nim spec with a picture declared beside it."""
    folder = tmp_path / "nim"
    shutil.copytree(NIM, folder)
    (folder / "picture.rules").write_text(picture, encoding="utf-8")
    return folder


def test_a_game_without_python_is_drawn_from_its_declaration(tmp_path: Path) -> None:
    game = load_spec(nim_with(tmp_path, PICTURE))
    state = game.new_state(2, seed=1)
    drawn = places(state, game.symbols.pictures["heap_view"])
    assert [p.key for p in drawn][:2] == ["1", "2"] and drawn[1].mark and drawn[0].outline
    svg = picture_svg(state, seats=["Ann", "<b>"])
    assert svg is not None and svg.startswith("<svg") and 'data-place="1"' in svg
    assert "<script>" not in svg and "&lt;b&gt;" in svg  # texts escaped; an unknown colour drawn grey
    assert colour_of("<script>") == colour_of("grey") and colour_of("#00ff00") == ("#00ff00", "#000000")


def test_a_game_without_a_picture_is_not_drawn() -> None:
    assert picture_svg(load_spec(NIM).new_state(2)) is None


HEADER = '''
game g "G" cite src "S" "x"
source src "A source"
players 2 to 2
main play
table cells from "c.csv" {
  key cell: text
  column x: int
  cite src "S" "x"
}
procedure play cite src "S" "x" { }
'''


@pytest.mark.parametrize(("picture", "message"), [
    ('picture p { place c in cellz at 1, 1 }', "unknown table 'cellz'"),
    ('picture p { place c in cells at c.x, "a" }', "coordinates are whole numbers"),
    ('picture p { place c in cells where c.x at 1, 1 }', "`where` needs a condition"),
    ('picture p { place c in cells at 1, 1 show count "a" }', "count needs a int"),
    ('picture p { place c in cells at 1, 1 show mark 1 }', "mark needs a bool"),
    ('picture p { place c in cells at 1, 1 show mark true show mark false }', "shows mark twice"),
    ('picture p { place c in cells at 1, 1 seat p colour 3 }', "a seat's colour is a text"),
    ('picture p { place c in cells at 1, 1 edges nowhere }', "unknown graph 'nowhere'"),
    ('picture p { place c in cells at 1, 1 click "go" x in cells from x.x to x }', "a click gives a place"),
])
def test_a_picture_declaration_is_checked(picture: str, message: str) -> None:
    text = HEADER + picture + "\n"
    with pytest.raises(SpecError) as info:
        check([parse_text(text, "t.rules")], {"t.rules": text.splitlines()})
    assert message in str(info.value)
