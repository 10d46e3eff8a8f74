"""The normative decision model (docs/decision-model.rst): its rules, reimplemented from the page, agree
with the engine."""

from __future__ import annotations

import csv
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game
from interpreter.edit import frames_of
from rattus_rules import new_game
from rattus_rules.algorithms.agents import RandomPlayer
from rattus_rules.games.rattus import modelgen
from rattus_rules.paths import spec_dir
from rattus_rules.tools.records.validate import components_digest

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "decision-model.rst").read_text(encoding="utf-8")
MASK = (1 << 64) - 1


# ------------------------------------------------------------------ the components hash, from the CSVs alone
#: The column types as the page's generated table gives them (checked against the page below).
TABLES = {
    "adjacency": ("board.csv", {"region_a": "text", "region_b": "text"}, "provenance", False),
    "regions": ("regions.csv", {"region": "text", "first_used_with_players": "int"}, "provenance", True),
    "tokens": ("rat_tokens.csv", {"id": "int", "threshold": "int", "symbols": "set", "start": "flag"},
               "provenance", True),
}


def _typed(cell: str, kind: str) -> Any:
    cell = cell.strip()
    if kind == "int":
        return int(cell)
    if kind == "flag":
        return {"yes": True, "no": False, "true": True, "false": False, "1": True, "0": False}[cell.lower()]
    if kind == "set":
        return [part.strip() for part in cell.split("+") if part.strip()]
    return cell


def hash_from_csvs(folder: Path) -> str:
    """The procedure of the page's section *The components hash*, step by step."""
    facts: dict[str, list[dict[str, Any]]] = {}
    for name, (file, columns, _provenance, keyed) in TABLES.items():
        with (folder / file).open(encoding="utf-8", newline="") as f:
            rows = []
            for number, raw in enumerate(csv.DictReader(f), start=1):
                row = {col: _typed(raw[col], kind) for col, kind in columns.items()}
                if not keyed:
                    row["row_number"] = number
                rows.append(row)
        facts[name] = rows
    text = json.dumps(facts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_components_hash_is_reproduced_from_the_csvs_by_the_pages_procedure(rules: Game) -> None:
    assert hash_from_csvs(spec_dir() / "data") == components_digest(rules)
    generated = modelgen.hash_rst(rules)
    for name, (file, columns, provenance, keyed) in TABLES.items():
        row = next(line for line in generated.splitlines() if line.strip() == f"* - ``{name}``")
        block = generated[generated.index(row):].split("* - ``", 2)[1]
        assert file in block and f"``{provenance}``" in block
        assert all(f"``{col}``" in block for col in columns) and ("row_number" in block) != keyed
    assert components_digest(rules) in generated


def test_the_hash_follows_changed_tables(tmp_path: Path, rules: Game) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for file, *_ in TABLES.values():
        (data / file).write_text((spec_dir() / "data" / file).read_text(encoding="utf-8"), encoding="utf-8")
    tokens = data / "rat_tokens.csv"
    tokens.write_text(tokens.read_text(encoding="utf-8").replace("merchant+monk", "monk+merchant", 1), encoding="utf-8")
    from rattus_rules import load_rules

    changed = load_rules(data)
    assert hash_from_csvs(data) == components_digest(changed) != components_digest(rules)


# ------------------------------------------------------------------ the seed rule and setup order, from the page
def _constants() -> list[int]:
    block = PAGE[PAGE.index("state = state + 0x"):PAGE.index("bits = z XOR")]
    return [int(h, 16) for h in re.findall(r"0x[0-9A-F]+", block)]


def _splitmix(state: int) -> tuple[int, int]:
    add, mul1, mul2 = _constants()
    state = (state + add) & MASK
    z = state
    z = ((z ^ (z >> 30)) * mul1) & MASK
    z = ((z ^ (z >> 27)) * mul2) & MASK
    return state, z ^ (z >> 31)


def _csv(file: str) -> list[dict[str, str]]:
    with (spec_dir() / "data" / file).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (2, 12345678901234567)])
def test_setup_by_the_seed_rule_as_the_page_tells_it(players: int, seed: int) -> None:
    regions = [r["region"] for r in _csv("regions.csv") if int(r["first_used_with_players"]) <= players]
    tokens = _csv("rat_tokens.csv")
    box = [int(t["id"]) for t in tokens]
    start = {int(t["id"]) for t in tokens if t["start"].strip() == "yes"}
    rng = seed

    def pick(outcomes: list[Any]) -> Any:
        nonlocal rng
        rng, bits = _splitmix(rng)
        return outcomes[bits % len(outcomes)]

    rats: dict[str, list[int]] = {}
    for r in regions:
        t = pick([t for t in box if t in start])
        box.remove(t)
        rats[r] = [t]
    stock = [t for t in box if t not in start]
    box = [t for t in box if t in start]
    for _ in range({2: 12, 3: 6, 4: 0}[players]):
        t = pick(stock)
        stock.remove(t)
        box.append(t)
    stock += [t for t in box if t in start]
    box = [t for t in box if t not in start]
    plague = pick(regions)

    state = new_game(players, seed=seed)
    assert state.vals["plague"][None] == plague
    keys = state.game.piece_keys
    assert {r: [keys[p] for p in state.zones["rats"][r]] for r in regions} == rats
    assert [keys[p] for p in state.zones["stock"][None]] == stock
    assert sorted(keys[p] for p in state.zones["box"][None]) == sorted(box)
    assert state.rng == rng


# ------------------------------------------------------------------ what one action is
def _games(count: int) -> list[list[tuple[str, list[str], dict[str, Any]]]]:
    """Random games: at each player decision the procedure stack, the legal texts and some values."""
    out = []
    for seed in range(count):
        state = new_game(2 + seed % 3, seed=seed, resolve_setup_chance=False)
        player = RandomPlayer(seed)
        steps = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance()
                continue
            plague = state.vals["plague"][None]
            info = {"phase": state.vals["phase"][None],
                    "final_devastation": bool(frames_of(state, "final_devastation")),
                    "knight": state.vals["holder"]["knight"] == state.current_player,
                    "plague_tokens": len(state.zones["rats"][plague]) if plague else 0}
            steps.append((state.decision_rule(), state.legal_action_texts(), info))
            state.apply_index(player.choose(state))
        out.append(steps)
    return out


@pytest.fixture(scope="module")
def games() -> list[list[tuple[str, list[str], dict[str, Any]]]]:
    return _games(12)


def test_the_granularity_notes_hold(games: list[list[tuple[str, list[str], dict[str, Any]]]]) -> None:
    verbs_seen: set[str] = set()
    two_step_plague = False
    for steps in games:
        for _rule, texts, info in steps:
            verbs = {t.split()[0] for t in texts}
            verbs_seen |= verbs
            assert not ("end" in verbs and info["phase"] == "regular"), "no end in a regular turn"
            assert not info["final_devastation"], "the final devastation asks no player"
            if "reveal" in verbs:
                assert len(texts) >= 2, "reveal N only with two or more tokens left"
            if "neutral" in verbs:
                assert info["knight"] and info["plague_tokens"] > 0 and set(texts) == {"neutral", "no-neutral"}
            two_step_plague |= any(t.startswith("plague ") and len(t.split()) == 3 for t in texts)
            if info["phase"] == "setup" and "start" in verbs:
                assert all(t.startswith("start ") for t in texts)
    assert two_step_plague, "plague A B is one action"
    assert {"reveal", "neutral", "end", "witch-done", "witch-look"} <= verbs_seen


def test_every_verb_of_the_spec_is_on_the_page(rules: Game) -> None:
    text = modelgen.decisions_rst(rules) + modelgen.chance_rst(rules)
    verbs = {b.verb for d in rules.decisions for b in d.branches}
    assert all(f"``{v}``" in text for v in verbs)
    assert "``final-reveal`` *i*" in modelgen.chance_rst(rules)
    faces = modelgen.faces_rst(rules)
    assert "``2:peasant+knight``" in faces and "8, 11 (start)" in faces
    assert "Anglia, Gallia" in modelgen.regions_rst(rules)
