"""The C back end's cache of built modules (interpreter/native.py): a module is found by a digest of
what its C is made of, so that a load with a warm cache writes no C; what a hit loads is exactly what
a fresh build makes; notes that are damaged, foreign or in a folder others can write are never used.
Where there is no C compiler these tests skip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from interpreter import load_spec, native
from interpreter.cgen import Emitter

SPECS = Path(__file__).parent / "specs"
TOOLS = native.toolchain()
pytestmark = pytest.mark.skipif(isinstance(TOOLS, str), reason=f"the C back end cannot run here: {TOOLS}")


def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str = "cache") -> Path:
    """An empty cache folder of this test, and nothing loaded in this process under any key."""
    monkeypatch.setenv("RULES_CACHE_DIR", str(tmp_path / name))
    monkeypatch.setattr(native, "_loaded", {})
    monkeypatch.setattr(native, "_read_notes", {})
    return tmp_path / name / "native"


def count_emissions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time C source is written for a variant."""
    made: list[int] = []
    source = Emitter.source

    def counted(self: Emitter, module: str) -> str:
        made.append(1)
        return source(self, module)
    monkeypatch.setattr(Emitter, "source", counted)
    return made


def play(game: Any, seed: int) -> list[Any]:
    """What a user sees along a random game."""
    st = game.new_state(2, seed)
    seen = []
    for step in range(200):
        seen.append((st.to_json(), st.legal_action_texts()))
        if st.is_terminal():
            break
        st.apply_index((seed + step) % st.num_legal_actions())
    seen.append((st.scores(), st.winner()))
    return seen


@pytest.mark.parametrize("spec", ["nim", "gifts"])
def test_a_warm_load_writes_no_c_and_plays_as_a_fresh_build(spec: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    folder = fresh_cache(tmp_path, monkeypatch)
    made = count_emissions(monkeypatch)
    first = load_spec(SPECS / spec, backend="auto")
    assert made and not first.backend().cached
    notes = sorted(folder.glob("*.json"))
    assert notes and all(p.stat().st_mode & 0o077 == 0 for p in notes)
    monkeypatch.setattr(native, "_loaded", {})  # a new process: only the files are left
    made.clear()
    second = load_spec(SPECS / spec, backend="auto")
    assert not made and second.backend().cached
    assert second.backend().native == first.backend().native and second.backend().backend == first.backend().backend
    assert second.backend().bodies == first.backend().bodies
    python = load_spec(SPECS / spec, backend="python")
    for seed in range(3):
        assert play(second, seed) == play(first, seed) == play(python, seed)


def test_the_notes_of_a_hit_are_those_a_fresh_build_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = fresh_cache(tmp_path, monkeypatch, "one")
    load_spec(SPECS / "nim", backend="auto")
    [kept] = folder.glob("*.json")
    again = fresh_cache(tmp_path, monkeypatch, "two")
    load_spec(SPECS / "nim", backend="auto")
    [made] = again.glob("*.json")
    assert kept.name == made.name and kept.read_text(encoding="utf-8") == made.read_text(encoding="utf-8")
    notes = native.decode_notes(kept.read_text(encoding="utf-8"))
    assert native.encode_notes(notes) == kept.read_text(encoding="utf-8")


def test_every_input_of_the_c_changes_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not isinstance(TOOLS, str)
    game = load_spec(SPECS / "nim", backend="python")
    settings = dict(game.defaults)
    base = native.variant_key(game, settings, TOOLS)
    assert native.variant_key(game, settings, TOOLS) == base
    keys = {base}

    def changed(label: str) -> None:
        key = native.variant_key(game, settings, TOOLS)
        assert key not in keys, label
        keys.add(key)

    game.texts = {**game.texts, "extra.rules": ["# a comment"]}
    changed("spec text")
    name, table = next(iter(game.tables.items()))
    row = dict(table.rows[0])
    row[next(column for column in row if column != table.key)] = "changed"
    game.tables = {**game.tables, name: attrs.evolve(table, rows=[row, *table.rows[1:]])}
    changed("table rows")
    game.table_keys = {**game.table_keys, "extra": [1]}
    changed("table keys")
    game.piece_words = [*game.piece_words, "w"]
    changed("piece words")
    settings["extra"] = "on"
    changed("settings")
    keys.add(native.variant_key(game, settings, TOOLS))
    assert native.variant_key(game, settings, (TOOLS[0], TOOLS[1] + " (other)", TOOLS[2])) not in keys
    assert native.variant_key(game, settings, (TOOLS[0], TOOLS[1], "/other/include")) not in keys
    monkeypatch.setattr(native, "abi_tag", lambda: "another Python")
    changed("ABI")
    monkeypatch.setattr(native, "CFLAGS", (*native.CFLAGS, "-O3"))
    changed("flags")
    monkeypatch.setattr(native, "emitter_version", lambda: "another emitter")
    changed("emitter")


def test_the_emitter_version_covers_the_emitter_and_its_runtime() -> None:
    native.emitter_version.cache_clear()
    folder = Path(native.__file__).parent
    read: list[str] = []
    real = Path.read_bytes

    def noted(self: Path) -> bytes:
        read.append(self.name)
        return real(self)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Path, "read_bytes", noted)
        native.emitter_version()
    native.emitter_version.cache_clear()
    for needed in ("cgen.py", "crt.h", "compiler.py", "codegen.py", "checker.py", "parser.py", "native.py"):
        assert needed in read and (folder / needed).is_file()


@pytest.mark.parametrize("damage", ["garbage", "wrong types", "too few jobs", "unknown constant", "others write"])
def test_damaged_or_foreign_notes_are_never_used(damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = fresh_cache(tmp_path, monkeypatch)
    first = load_spec(SPECS / "nim", backend="auto")
    [notes] = folder.glob("*.json")
    data = json.loads(notes.read_text(encoding="utf-8"))
    if damage == "garbage":
        notes.write_bytes(b"\x00not json")
    elif damage == "wrong types":
        data["slots"] = [["0", 1]]
        notes.write_text(json.dumps(data), encoding="utf-8")
    elif damage == "too few jobs":
        data["jobs"] -= 1
        notes.write_text(json.dumps(data), encoding="utf-8")
    elif damage == "unknown constant":
        data["consts"] = [["os.system", "", 0]]
        notes.write_text(json.dumps(data), encoding="utf-8")
    else:
        notes.chmod(0o666)
    monkeypatch.setattr(native, "_loaded", {})
    monkeypatch.setattr(native, "_read_notes", {})
    made = count_emissions(monkeypatch)
    second = load_spec(SPECS / "nim", backend="auto")
    assert made  # the C written again, the notes not trusted
    assert second.backend().backend == first.backend().backend
    assert play(second, 1) == play(first, 1)


def test_a_warm_load_compiles_the_python_functions_only_on_need(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    fresh_cache(tmp_path, monkeypatch)
    cold = load_spec(SPECS / "nim", backend="auto")
    assert not cold._programs[0].gen._pending  # the first load compiles everything (the C is made from it)
    monkeypatch.setattr(native, "_loaded", {})
    warm = load_spec(SPECS / "nim", backend="auto")
    assert warm.backend().backend == "c"
    gen = warm._programs[0].gen
    lazy = list(gen._pending)
    assert lazy and not any(made.made for made in lazy) and not gen.lazy
    assert gen.sources == cold._programs[0].gen.sources  # the same source, compiled when called
    gen.settle()
    assert all(made.made is not None and made.made is gen.ns[made.name] for made in lazy)
    python = load_spec(SPECS / "nim", backend="python")
    assert play(warm, 2) == play(python, 2)
    # the Python back end and a variant with no module built before compile at once
    assert not python._programs[0].gen._pending
    monkeypatch.setattr(native, "toolchain", lambda: "no C compiler (gcc) found")
    assert not load_spec(SPECS / "nim", backend="auto")._programs[0].gen._pending


def test_a_lazy_function_that_does_not_compile_is_a_positioned_rule_error() -> None:
    from interpreter import RuleError
    from interpreter.codegen import Lazy

    game = load_spec(SPECS / "nim", backend="python")
    gen = game._programs[0].gen
    pos = next(iter(game.symbols.procedures.values())).pos
    made = Lazy(gen, "broken", "def broken(st, env):\n    return (", "<rules:test:broken>", [(pos, ())] * 2)
    with pytest.raises(RuleError, match="cannot be compiled here"):
        made(None, {})
