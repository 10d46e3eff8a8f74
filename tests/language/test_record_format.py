"""The record format for any game (rattus_rules/tools/records/recordformat.py) on games that are not Rattus.

Records of Nim, Gifts and the bag of stones are written by the generic
:class:`Recorder`, with pieces written by their table rows (:class:`RowFaces`,
the default for a game whose package says nothing of faces).  The schema built
for each game accepts them (checked by the jsonschema library, independently
of the compiled check), the compiled check agrees, and the walk finds them
legal; records of another game, or of none, are refused with the reason.
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from interpreter import Game, load_spec
from rattus_rules.tools.records.recordformat import (
    MAX_ENTRIES,
    Recorder,
    RecordFormat,
    dumps,
    load_record_text,
    seats_pattern,
)
from rattus_rules.tools.records.walk import LEGAL, OMNISCIENT, PLAYERS_EYE, RowFaces, check_entries

from .test_record_walk import COLOURS, SPEC

SPECS = Path(__file__).parent / "specs"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Game]:
    root = tmp_path_factory.mktemp("bag")
    (root / "bag.rules").write_text(SPEC, encoding="utf-8")
    rows = "\n".join(f"{i},{c}" for i, c in enumerate(COLOURS, start=1))
    (root / "stones.csv").write_text("id,colour\n" + rows + "\n", encoding="utf-8")
    return {"nim": load_spec(SPECS / "nim"), "gifts": load_spec(SPECS / "gifts"), "bag": load_spec(root)}


def fmt(game: Game, names_game: bool = True) -> RecordFormat:
    return RecordFormat("test-record", 1, "urn:test:record:1", game, RowFaces(game), names_game)


def play(game: Game, seed: int, kind: str = OMNISCIENT, viewer: int | None = None) -> dict[str, Any]:
    state = game.new_state(2, seed=seed)
    recorder = Recorder(state, fmt(game), kind, seed=seed, viewer=viewer)
    rng = random.Random(seed)
    while not state.is_terminal():
        index = state.random_chance_index() if state.is_chance_node() else rng.randrange(state.num_legal_actions())
        recorder.apply(state, index)
    return recorder.record


@pytest.mark.parametrize("kind", [OMNISCIENT, PLAYERS_EYE])
@pytest.mark.parametrize("name", ["nim", "gifts", "bag"])
def test_records_of_any_game_match_their_schema_and_are_legal(games: dict[str, Game], name: str, kind: str) -> None:
    game = games[name]
    for seed in range(4):
        record = play(game, seed, kind, viewer=0 if kind == PLAYERS_EYE else None)
        assert record["game"] == game.name and record["format"] == "test-record"
        jsonschema.validate(record, fmt(game).schema_dict)  # the schema itself, read by another library
        parsed, bad = load_record_text(dumps(record))
        assert bad is None and parsed == record
        assert fmt(game).check(parsed) is None
        verdict = check_entries(game, parsed, game.settings_for({}), RowFaces(game))
        assert verdict.status == LEGAL and verdict.finished, verdict.format()


def test_the_bag_writes_stones_by_colour_and_hides_draws_from_players(games: dict[str, Game]) -> None:
    game = games["bag"]
    omniscient = play(game, 1)
    draws = [e["action"] for e in omniscient["entries"] if e.get("action", "").startswith("draw ")]
    assert draws and {d.split()[1] for d in draws} <= set(COLOURS)
    hidden = play(game, 1, PLAYERS_EYE)
    assert all(e["action"] == "draw ?" for e in hidden["entries"] if e.get("action", "").startswith("draw "))
    assert [e for e in hidden["entries"] if "reveal" in e] == [e for e in omniscient["entries"] if "reveal" in e]


def test_a_record_of_another_game_or_of_none_is_refused(games: dict[str, Game]) -> None:
    nim, bag = games["nim"], games["bag"]
    record = play(nim, 0)
    other = fmt(bag).check(record)
    assert other is not None and other.path == "$.game" and "a record of 'nim', not of bag" in other.reason
    nameless = {k: v for k, v in record.items() if k != "game"}
    bad = fmt(nim).check(nameless)
    assert bad is not None and "names no game" in bad.reason and '"game": "nim"' in bad.reason
    # a format whose records need not name their game still refuses one that names another
    assert fmt(nim, names_game=False).check(nameless) is None
    assert fmt(bag, names_game=False).check(record) is not None


def test_faces_are_checked_by_the_game_s_own_faces(games: dict[str, Game]) -> None:
    bag = games["bag"]
    record = play(bag, 2)
    show = next(i for i, e in enumerate(record["entries"]) if "reveal" in e)
    for face, said in (("purple", "is not a piece face (colour, like"), ("red blue", "is not a piece face")):
        broken = copy.deepcopy(record)
        broken["entries"][show] = {"reveal": face}
        bad = fmt(bag).check(broken)
        assert bad is not None and bad.path == f"$.entries[{show}].reveal" and said in bad.reason, bad


def test_row_faces(games: dict[str, Game]) -> None:
    bag, gifts = RowFaces(games["bag"]), RowFaces(games["gifts"])
    assert [bag.written(p) for p in range(len(COLOURS))] == COLOURS
    assert bag.canonical("blue") == "blue" and bag.looks_like_face("green") and not bag.looks_like_face("#1")
    with pytest.raises(ValueError, match="no piece shows the face 'Blue'"):
        bag.canonical("Blue")
    pattern = re.compile(f"^{bag.pattern}$")
    assert all(pattern.match(c) for c in COLOURS) and not pattern.match("reddish") and not pattern.match("?")
    assert bag.form == "colour" and bag.example == "red"
    assert gifts.form == "size" and sorted({gifts.written(p) for p in range(3)}) == ["1", "2", "3"]


def test_a_flag_in_a_face_is_written_as_tables_write_it(tmp_path: Path) -> None:
    # a flag column of a table is yes or no in the CSV, and so in a face: never Python's True or False
    spec = SPEC.replace("column colour: text", "column colour: text\n  column shiny: flag")
    (tmp_path / "bag.rules").write_text(spec, encoding="utf-8")
    (tmp_path / "stones.csv").write_text("id,colour,shiny\n1,red,yes\n2,red,no\n3,blue,no\n", encoding="utf-8")
    game = load_spec(tmp_path)
    faces = RowFaces(game)
    assert [faces.written(p) for p in range(3)] == ["red:yes", "red:no", "blue:no"]
    assert faces.form == "colour:shiny" and faces.canonical("red:yes") == "red:yes"
    record = play(game, 1)
    assert fmt(game).check(record) is None
    assert check_entries(game, record, game.settings_for({}), faces).status == LEGAL


def test_the_schema_follows_the_game(games: dict[str, Game]) -> None:
    schema = fmt(games["nim"]).schema_dict
    assert schema["title"] == "Nim game record" and schema["required"][2] == "game"
    assert (schema["properties"]["seats"]["minItems"], schema["properties"]["seats"]["maxItems"]) == (2, 3)
    assert schema["$defs"]["seat"]["pattern"] == "^P[0-2]$"
    assert schema["properties"]["entries"]["maxItems"] == MAX_ENTRIES
    assert seats_pattern(11) == "(P0|P1|P2|P3|P4|P5|P6|P7|P8|P9|P10)"
    record = play(games["nim"], 3)
    too_many = {**record, "seats": ["a", "b", "c", "d"]}
    bad = fmt(games["nim"]).check(too_many)
    assert bad is not None and bad.path == "$.seats"


def test_a_key_given_twice_is_not_a_record(games: dict[str, Game]) -> None:
    # JSON readers differ on which value of a repeated key they keep (the first, the last, an error):
    # a record that says two things at once is refused, where the repeated key is
    record = play(games["nim"], 0)
    text = dumps(record)
    twice = text.replace('"game": "nim"', '"game": "rattus", "game": "nim"')
    assert twice != text
    parsed, bad = load_record_text(twice)
    assert parsed is None and bad is not None and bad.path == "$" and "'game' twice" in bad.reason, bad
    entry = text.replace('{"by": "P1", "action": "take', '{"by": "P1", "action": "take 9", "action": "take', 1)
    assert entry != text
    index = next(i for i, e in enumerate(record["entries"]) if e["by"] == "P1")
    parsed, bad = load_record_text(entry)
    assert bad is not None and bad.path == f"$.entries[{index}]" and "'action' twice" in bad.reason, bad
    deep = '{"a": [{"b": {"c": 1, "c": 2}}], "entries": []}'
    _, bad = load_record_text(deep)
    assert bad is not None and bad.path == "$.a[0].b" and "'c' twice" in bad.reason
    odd = '{"a b": {"x": 1, "x": 1}}'
    _, bad = load_record_text(odd)
    assert bad is not None and bad.path == '$["a b"]'
    long_key = '{"' + "k " * 5000 + '": {"x": 1, "x": 1}}'
    _, bad = load_record_text(long_key)
    assert bad is not None and bad.path == '$["' + "k " * 20 + '..."]'


#: Colours of a bag whose table rows are hostile to faces: regular expression syntax, the unknown
#: word itself, a seat's word, and a colour longer than an action may usually be.
ODD_COLOURS = ["?", "a.b", "(x|y)", "c$", "\\d", "^", "P0", "x" * 300, "red", "re."]


@pytest.fixture(scope="module")
def odd_bag(tmp_path_factory: pytest.TempPathFactory) -> Game:
    root = tmp_path_factory.mktemp("odd")
    (root / "bag.rules").write_text(SPEC, encoding="utf-8")
    rows = "\n".join(f'{i},"{c}"' for i, c in enumerate(ODD_COLOURS, start=1))
    (root / "stones.csv").write_text("id,colour\n" + rows + "\n", encoding="utf-8")
    return load_spec(root)


@pytest.mark.parametrize("kind", [OMNISCIENT, PLAYERS_EYE])
def test_records_of_a_game_with_odd_table_rows_are_legal(odd_bag: Game, kind: str) -> None:
    # whatever a table row holds, the records the recorder writes are records, and legal
    faces = RowFaces(odd_bag)
    assert sorted(faces.written(p) for p in range(len(ODD_COLOURS))) == sorted(ODD_COLOURS)
    assert faces.unknown not in ODD_COLOURS  # the unknown word is no piece's face
    pattern = re.compile(f"^{faces.pattern}$")
    assert all(pattern.match(c) for c in ODD_COLOURS) and not pattern.match("ab") and not pattern.match("xd")
    for seed in range(8):
        record = play(odd_bag, seed, kind, viewer=0 if kind == PLAYERS_EYE else None)
        jsonschema.validate(record, fmt(odd_bag).schema_dict)
        assert fmt(odd_bag).check(record) is None, fmt(odd_bag).check(record)
        verdict = check_entries(odd_bag, record, odd_bag.settings_for({}), faces)
        assert verdict.status == LEGAL and verdict.finished, verdict.format()
    hidden = play(odd_bag, 1, PLAYERS_EYE)
    assert {e["action"] for e in hidden["entries"] if e.get("action", "").startswith("draw ")} == {
        f"draw {faces.unknown}"}


def test_a_format_that_cannot_be_built_is_not_the_record_s_fault(games: dict[str, Game]) -> None:
    # faces that cannot say their pattern (a bug of the game's package) raise; they do not call the record not JSON
    class Broken(RowFaces):
        @property
        def pattern(self) -> str:
            raise KeyError("class")

    record = play(games["bag"], 0)
    with pytest.raises(KeyError, match="class"):
        RecordFormat("test-record", 1, "urn:test:record:1", games["bag"], Broken(games["bag"]), True).check(record)


def test_a_not_a_record_verdict_does_not_repeat_a_huge_value(games: dict[str, Game]) -> None:
    # the path and the reason quote the record (an unknown key, a switch's name and value): cut short
    record = play(games["nim"], 0)
    long = "z" * 100_000
    for broken in ({**record, long: 1}, {**record, "entries": [{long: 1}]},
                   {**record, "interpretations": {long: "x"}}, {**record, "interpretations": {"a": long}}):
        bad = fmt(games["nim"]).check(broken)
        assert bad is not None and len(bad.path) <= 200 and len(bad.reason) <= 500, (bad.path[:80], bad.reason[:80])
        assert len(bad.format()) < 800


def test_row_faces_patterns_are_read_alike_by_ecma_262(odd_bag: Game, tmp_path: Path) -> None:
    # JSON Schema's patterns are ECMA 262 regular expressions (with the u flag, as ajv reads them): an escape
    # there is of a syntax character only (re.escape also escapes - # & ~, which ECMA 262 refuses)
    faces = RowFaces(odd_bag)
    escapes = set(re.findall(r"\\(.)", faces.pattern))
    assert escapes and escapes <= set("^$\\.*+?()[]{}|/"), escapes
    assert re.fullmatch(faces.pattern, "a-b#&~") is None
    tricky = tmp_path / "tricky"
    tricky.mkdir()
    (tricky / "bag.rules").write_text(SPEC, encoding="utf-8")
    (tricky / "stones.csv").write_text("id,colour\n1,a-b\n2,c#d\n3,e&f~\n4,g/h\n", encoding="utf-8")
    faces = RowFaces(load_spec(tricky))
    assert set(re.findall(r"\\(.)", faces.pattern)) <= set("^$\\.*+?()[]{}|/")
    assert all(re.fullmatch(faces.pattern, f) for f in ("a-b", "c#d", "e&f~", "g/h"))
