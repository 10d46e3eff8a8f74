"""One view of the spec's names: the Rattus package reads spec names through rattus_rules.games.rattus.names only,
and a spec without one of them fails to load, naming it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rattus_rules
from interpreter import Game, SpecError
from rattus_rules import load_rules, new_game
from rattus_rules.games.rattus.faces import LETTERS, face_text, piece_face
from rattus_rules.games.rattus.names import NAMES, View, check_names, classes
from rattus_rules.paths import SPEC_DIR_ENV

PACKAGE = Path(rattus_rules.__file__).parent
NIM = Path(__file__).resolve().parents[1] / "language" / "specs" / "nim"


def test_the_rattus_spec_declares_every_name_the_package_reads(rules: Game) -> None:
    check_names(rules)
    assert sum(len(names) for names in NAMES.values()) >= 15


def test_a_spec_without_them_fails_to_load_naming_each(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SpecError) as caught:
        check_names(load_rules(game=str(NIM)))
    messages = [d.message for d in caught.value.diagnostics]
    assert any("reads state 'supply'" in m for m in messages) and any("reads enum 'class'" in m for m in messages)
    assert any("reads column 'tokens.threshold'" in m for m in messages)
    assert any("reads local 'player_turn.placed'" in m for m in messages)
    # loaded as Rattus (a patched copy in $RATTUS_SPEC_DIR), the same check runs at load time
    monkeypatch.setenv(SPEC_DIR_ENV, str(NIM))
    with pytest.raises(SpecError, match="reads zone 'rats'"):
        load_rules()


def test_the_card_classes_come_from_the_spec(rules: Game) -> None:
    assert classes(rules) == rules.symbols.enums["class"].values
    state = new_game(2, seed=1)
    assert View(state).classes == classes(rules) and set(View(state).holder) == set(classes(rules))
    order = list(LETTERS + classes(rules))
    for piece in range(len(rules.piece_rows)):
        symbols = face_text(rules, piece).split(":")[1].split("+")
        assert symbols == sorted(symbols, key=order.index)
        assert face_text(rules, piece) == str(piece_face(rules, piece))


@pytest.mark.parametrize("module", ["games/rattus/scenario", "games/rattus/textview", "tools/kit/conformance",
                                    "games/rattus/render", "tools/views/play", "tools/study/study",
                                    "games/rattus/docgen", "games/rattus/modelgen"])
def test_no_module_spells_a_spec_lookup_of_its_own(module: str) -> None:
    text = (PACKAGE / f"{module}.py").read_text(encoding="utf-8")
    assert not re.findall(r"""(?:vals|zones|nodes|table_keys|used)\[["']""", text)
    assert not re.findall(r"""(?:set_local|frames_of)\([^)]*["']""", text)  # procedure and local names too


def test_the_turn_locals_a_scenario_sets_are_checked_at_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a patched spec whose turn calls its local `placed` something else fails to load, naming it
    import shutil

    from rattus_rules.paths import spec_dir
    copy = tmp_path / "rattus"
    shutil.copytree(spec_dir(), copy)
    turn = copy / "turn.rules"
    text = turn.read_text(encoding="utf-8")
    assert "let placed = false" in text
    turn.write_text(re.sub(r"\bplaced\b", "has_placed", text), encoding="utf-8")
    monkeypatch.setenv(SPEC_DIR_ENV, str(copy))
    with pytest.raises(SpecError, match=r"reads local 'player_turn\.placed', which the spec does not declare"):
        load_rules()
