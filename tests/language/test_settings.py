"""Game settings (`setting`): checked bounds, an int in expressions, validated choices, data checks per setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_spec, parse_text
from interpreter.checker import check
from interpreter.errors import SpecError

HEADER = '''
game g "G" cite src "S" "x"
source src "A source"
players 2 to 2
main play
'''

SPEC = HEADER + '''
setting stock "How many counters?" 3 to 9 step 2 default 5 cite src "S" "x"
table counters from "counters.csv" {
  key id: int
  column heavy: flag
  cite src "S" "x"
}
check enough_counters cite src "S" "x" holds count(c in counters) >= stock
counter left = 0
procedure play cite src "S" "x" {
  left = stock * 2
  choose by first_player { "take" n in 1 .. left { left -= n } }
  finish [first_player]
}
'''


def spec_errors(text: str) -> list[str]:
    """Parse and check a one-file spec; return the formatted diagnostics."""
    try:
        check([parse_text(text, "t.rules")], {"t.rules": text.splitlines()})
    except SpecError as err:
        return [d.format() for d in err.diagnostics]
    return []


def write(tmp_path: Path, rows: int) -> Path:
    """The toy spec with a table of so many counters."""
    (tmp_path / "g.rules").write_text(SPEC, encoding="utf-8")
    (tmp_path / "counters.csv").write_text("id,heavy\n" + "".join(f"{i},no\n" for i in range(rows)),
                                           encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("decl", "message"), [
    ('setting s "Q?" 5 to 3 default 4 cite src "S" "x"', "low <= high"),
    ('setting s "Q?" 1 to 4 step 2 default 1 cite src "S" "x"', "4 is not reached from 1 in steps of 2"),
    ('setting s "Q?" 1 to 9 default 12 cite src "S" "x"', "the default 12 is not one of its values"),
    ('setting s "Q?" 1 to 900 default 12 cite src "S" "x"', "offers more than 64 values"),
    ('setting s "Q?" 1 to 9 default 2', "setting s has no citation"),
    ('setting s "Q?" 1 to 99999999 step 99999998 default 1 cite src "S" "x"', "must be at most"),
])
def test_a_setting_declaration_is_checked(decl: str, message: str) -> None:
    errors = spec_errors(HEADER + decl + '\nprocedure play cite src "S" "x" { }\n')
    assert any(message in e for e in errors), errors


def test_a_setting_is_a_number_not_a_text() -> None:
    errors = spec_errors(HEADER + 'setting s "Q?" 1 to 9 default 2 cite src "S" "x"\n'
                         'procedure play cite src "S" "x" { let t = s - "2" }\n')
    assert len(errors) == 1 and "needs numbers" in errors[0], errors


def test_a_setting_is_read_as_a_whole_number_and_recorded(tmp_path: Path) -> None:
    game = load_spec(write(tmp_path, 9))
    assert game.defaults["stock"] == "5"
    state = game.new_state(2)
    assert len(state.legal_action_texts()) == 10
    state = game.new_state(2, settings={"stock": "9"})
    assert len(state.legal_action_texts()) == 18
    assert state.to_json()["settings"] == {"stock": "9"}
    assert game.state_from_json(state.to_json()).legal_action_texts() == state.legal_action_texts()


@pytest.mark.parametrize("value", ["4", "11", "x", "09"])
def test_a_value_that_is_not_offered_is_refused(tmp_path: Path, value: str) -> None:
    game = load_spec(write(tmp_path, 9))
    with pytest.raises(ValueError, match=r"setting stock has no option .*\(options: 3, 5, 7, 9\)"):
        game.new_state(2, settings={"stock": value})


def test_data_checks_hold_under_the_chosen_setting(tmp_path: Path) -> None:
    game = load_spec(write(tmp_path, 6))
    game.new_state(2, settings={"stock": "5"})
    with pytest.raises(ValueError, match="under these settings the component data fails check enough_counters"):
        game.new_state(2, settings={"stock": "7"})
    with pytest.raises(SpecError, match="fails check enough_counters"):
        load_spec(write(tmp_path, 4))  # the default itself fails
