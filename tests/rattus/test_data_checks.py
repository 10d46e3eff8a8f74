"""The spec's checks on the component data bite: each refuses a table corrupted against it.

``check`` declarations in game.rules state what the rulebook says of the
components (49 tokens, 12 start tokens, the thresholds of the token list, the
symbols, 8 / 10 / 12 regions).  For each there is a corrupted copy of the
tables that it — by name — must refuse, while the shipped tables pass.  And a
row counts as verified exactly when its provenance is not marked as a
reconstruction or as provisional.
"""

from __future__ import annotations

import csv
import io
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from interpreter import Game, SpecError, load_spec
from rattus_rules.paths import spec_dir

Rows = list[dict[str, str]]


def _edit(table: str, change: Callable[[Rows], None]) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        path = folder / table
        with path.open(encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            fields = list(reader.fieldnames or [])
            rows = list(reader)
        change(rows)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        path.write_text(out.getvalue(), encoding="utf-8")
    return apply


def _first(rows: Rows, **match: str) -> dict[str, str]:
    return next(r for r in rows if all(r[k] == v for k, v in match.items()))


def _drop_token(rows: Rows) -> None:
    rows.remove(_first(rows, start="no"))


def _extra_start(rows: Rows) -> None:
    _first(rows, start="no")["start"] = "yes"


def _threshold_to_seven(threshold: str) -> Callable[[Rows], None]:
    def change(rows: Rows) -> None:
        _first(rows, threshold=threshold)["threshold"] = "7"  # 49 tokens still; only this count is wrong
    return change


def _unknown_symbol(rows: Rows) -> None:
    rows[0]["symbols"] += "+jester"  # one valid symbol is not enough


def _no_symbols(rows: Rows) -> None:
    rows[1]["symbols"] = ""


def _ninth_beige_region(rows: Rows) -> None:
    _first(rows, first_used_with_players="3")["first_used_with_players"] = "2"


def _eleventh_region_for_three(rows: Rows) -> None:
    _first(rows, first_used_with_players="4")["first_used_with_players"] = "3"


def _region_for_five(rows: Rows) -> None:
    # "Zu Viert werden alle Regionen verwendet."
    _first(rows, first_used_with_players="4")["first_used_with_players"] = "5"


def _thirteenth_region(rows: Rows) -> None:
    rows.append({**rows[-1], "region": "Atlantis"})


def _rename_region(new: str) -> Callable[[Path], None]:
    """Anglia renamed, in the region table and the board alike."""
    def apply(folder: Path) -> None:
        def rename(rows: Rows) -> None:
            for row in rows:
                for column, value in row.items():
                    if value == "Anglia":
                        row[column] = new
        _edit("regions.csv", rename)(folder)
        _edit("board.csv", rename)(folder)
    return apply


CORRUPTIONS = {
    "forty_nine_tokens": [_edit("rat_tokens.csv", _drop_token)],
    "twelve_start_tokens": [_edit("rat_tokens.csv", _extra_start)],
    "threshold_counts": [_edit("rat_tokens.csv", _threshold_to_seven(str(t))) for t in range(1, 7)],
    "token_symbols": [_edit("rat_tokens.csv", _unknown_symbol), _edit("rat_tokens.csv", _no_symbols)],
    "twelve_regions": [_edit("regions.csv", change) for change in
                       (_ninth_beige_region, _eleventh_region_for_three, _region_for_five, _thirteenth_region)],
    # (a control character such as ESC is refused earlier, by any table's load: test_language.py)
    "region_names_plain": [_rename_region(name) for name in
                           ("Great  Britain", "Ang\tlia", "Ang\u202elia", "Ang\u00a0lia",
                            "<b>Anglia</b>", "Anglia & Co", 'Angl"ia')],
}


def test_every_data_check_has_a_corruption(rules: Game) -> None:
    assert set(CORRUPTIONS) == set(rules.symbols.checks)


@pytest.mark.parametrize(("name", "variant"), [(n, i) for n, fs in CORRUPTIONS.items() for i in range(len(fs))])
def test_each_data_check_refuses_its_corruption(tmp_path: Path, name: str, variant: int) -> None:
    data = tmp_path / "data"
    shutil.copytree(spec_dir() / "data", data)
    CORRUPTIONS[name][variant](data)
    with pytest.raises(SpecError) as err:
        load_spec(spec_dir(), data=data)
    failed = {m.split("fails check ")[1].split(" ")[0] for m in (d.message for d in err.value.diagnostics)
              if "fails check " in m}
    assert name in failed, str(err.value)


def test_the_shipped_data_passes_every_check(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(spec_dir() / "data", data)
    load_spec(spec_dir(), data=data)


def test_a_token_with_a_single_symbol_is_accepted(tmp_path: Path) -> None:
    """ "Ein oder mehrere Symbole." """
    data = tmp_path / "data"
    shutil.copytree(spec_dir() / "data", data)
    _edit("rat_tokens.csv", lambda rows: rows[0].update(symbols="M"))(data)
    game = load_spec(spec_dir(), data=data)
    assert game.tables["tokens"].rows[0]["symbols"] == ["M"]


def _provenance(table: str) -> list[str]:
    with (spec_dir() / "data" / table).open(encoding="utf-8") as f:
        return [row["provenance"] for row in csv.DictReader(f)]


def test_a_row_is_verified_unless_marked_reconstruction_or_provisional(rules: Game) -> None:
    expected = {
        "regions": [True] * len(_provenance("regions.csv")),
        "adjacency": [not p.startswith("reconstruction") for p in _provenance("board.csv")],
        "tokens": [p != "provisional" for p in _provenance("rat_tokens.csv")],
    }
    for table, wanted in expected.items():
        assert [rules.verified(table, key) for key in rules.tables[table].keys] == wanted, table
        assert True in wanted or table != "regions"
    assert False in expected["adjacency"] and True in expected["adjacency"]
    assert False in expected["tokens"] and True in expected["tokens"]
