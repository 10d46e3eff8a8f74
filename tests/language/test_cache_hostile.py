"""Hostile cache entries (issue 9.1): whoever can write the cache folder cannot run code.

Every slot the spec load uses (and the names older versions used for pickles)
gets a hostile file: a pickle whose ``__reduce__`` runs a shell command, JSON
of the wrong shape, a well-formed entry with a name that would inject Python
into the generated code, an entry filed under another key, garbage, a link, a
FIFO, a huge file, a file of another user.  The load must run nothing, never
hang, give the same game as a clean load, and make every slot again.

(A well-formed entry written by the user themselves is believed: a file
another user put there is refused by its owner, and a renamed entry of the
user's own by the key it holds.)
"""

from __future__ import annotations

import ast as pyast
import json
import os
import pickle
import random
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import lark
import pytest

from interpreter import cache, load_spec, parser, treejson

from ..conftest import ROOT

#: A spec of two files, a rules file and a table (the cache keeps the rules files).
NIM = Path(__file__).resolve().parent / "specs" / "nim"


class _RunsACommand:
    """Unpickling this runs a shell command that leaves a marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Callable[[str], int], tuple[str]]:
        return os.system, (f"touch {self.marker}",)


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """A FIFO that is waited on would hang the load: fail instead."""
    def hung(signum: int, frame: object) -> None:
        raise AssertionError("the load hung on a cache entry")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _entries(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(folder.glob("ast-*.json"))}


def _injected(entry: dict[str, Any], marker: Path) -> dict[str, Any]:
    """The entry with every name rewritten to Python that would leave the marker if run."""
    payload = f"__import__('os').system('touch {marker}')"

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            if node[:1] == ["Name"] and len(node) == 3:
                return ["Name", payload, node[2]]
            return [walk(item) for item in node]
        return node
    return {**entry, "value": walk(entry["value"])}


def _hostile_contents(entry: bytes, other: bytes, marker: Path) -> dict[str, bytes]:
    """Hostile replacements for one slot (``entry`` its real content, ``other`` another slot's)."""
    real = json.loads(entry)
    value = real["value"]
    return {
        "pickle running a command": pickle.dumps(_RunsACommand(marker)),
        "pickle of the right tree": pickle.dumps(treejson.decode_spec_file(value)),
        "garbage": os.urandom(4096),
        "empty": b"",
        "not utf-8": b"\xff\xfe" + entry[2:],
        "JSON list": b"[]",
        "JSON number": b"42",
        "JSON null": b"null",
        "value of the wrong type": _dumps({**real, "value": 42}),
        "value a string": _dumps({**real, "value": "SpecFile"}),
        "wrong format": _dumps({**real, "format": 0}),
        "extra key": _dumps({**real, "code": "import os"}),
        "another slot's entry": other,
        "names that inject Python": _dumps(_injected(real, marker)),
        "a node of another class": _dumps({**real, "value": ["Pos", "x", 1, 1, 0, 0]}),
        "a field dropped": _dumps({**real, "value": value[:-1]}),
        "declarations as text": _dumps({**real, "value": [value[0], value[1], "decls"]}),
        "NaN": entry.replace(b'"format":1', b'"format":NaN'),
        "deep nesting": b'{"format":1,"key":' + _dumps(real["key"])
                        + b',"value":' + b"[" * 200_000 + b"]" * 200_000 + b"}",
        "huge number": entry.replace(b'"format":1', b'"format":1' + b"0" * 5000),
        "truncated": entry[: len(entry) // 2],
    }


def _hostile_files(slot: Path, entry: bytes, other: bytes, marker: Path,
                   outside: Path) -> Iterator[tuple[str, Callable[[], None]]]:
    """(description, function that puts the hostile thing in the slot)."""
    for name, content in _hostile_contents(entry, other, marker).items():
        yield name, lambda content=content: slot.write_bytes(content)  # type: ignore[misc]

    def link_to_good_entry() -> None:
        outside.write_bytes(entry)
        slot.symlink_to(outside)
    yield "link to a good entry outside the folder", link_to_good_entry
    yield "link to /dev/zero", lambda: slot.symlink_to("/dev/zero")
    yield "dangling link", lambda: slot.symlink_to(outside.with_name("nowhere"))
    yield "FIFO", lambda: os.mkfifo(slot)

    def huge() -> None:
        with slot.open("wb") as f:
            f.truncate(cache.MAX_ENTRY_BYTES + 1)
    yield "huge (sparse) file", huge
    if os.getuid() == 0:
        def foreign() -> None:
            slot.write_bytes(entry)
            os.chown(slot, 4242, 4242)
        yield "good entry owned by another user", foreign


def _old_slots(folder: Path, marker: Path) -> None:
    """Pickles where older versions kept parsed files and the built parser: never read now."""
    grammar = parser.grammar_text()
    key = cache.digest(grammar, repr(sorted(parser._LARK_OPTIONS.items())), lark.__version__)
    evil = pickle.dumps(_RunsACommand(marker))
    (folder / f"lark-{key}.pickle").write_bytes(evil)
    for entry in list(folder.glob("ast-*.json")):
        entry.with_suffix(".pickle").write_bytes(evil)


def _clear(slot: Path) -> None:
    if slot.is_symlink() or slot.exists():
        slot.unlink()


def _dumps(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def test_every_hostile_file_in_every_slot_is_ignored_and_made_again(own_cache: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    files = sorted(NIM.glob("*.rules"))
    clean = {f: parser.parse_file(f, f.name) for f in files}
    good = _entries(own_cache)
    slots = list(good)
    assert len(slots) == len(files)
    slot_of = {f: next(s for s in slots if treejson.decode_spec_file(json.loads(good[s])["value"]).path == f.name)
               for f in files}
    cases = 0
    for index, f in enumerate(files):
        slot = slot_of[f]
        other = good[slot_of[files[(index + 1) % len(files)]]]
        for name, put in _hostile_files(slot, good[slot], other, marker, tmp_path / "outside.json"):
            _clear(slot)
            _old_slots(own_cache, marker)
            put()
            assert parser.parse_file(f, f.name) == clean[f], name
            assert not marker.exists(), f"{name} in {slot.name} ran code"
            assert slot.is_file() and not slot.is_symlink(), f"{name}: {slot.name} not made again"
            assert slot.read_bytes() == good[slot], f"{name}: {slot.name} not made again"
            assert slot.stat().st_uid == os.getuid()
            cases += 1
    assert cases >= 25 * len(slots)


def test_a_whole_load_with_every_slot_poisoned(own_cache: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    expected = load_spec(NIM).new_state(3, seed=5).legal_action_texts()
    good = _entries(own_cache)
    for slot in good:
        slot.write_bytes(pickle.dumps(_RunsACommand(marker)))
    _old_slots(own_cache, marker)
    parser._lark.cache_clear()
    assert load_spec(NIM).new_state(3, seed=5).legal_action_texts() == expected
    assert not marker.exists()
    assert _entries(own_cache) == good


def test_a_made_entry_is_private(own_cache: Path) -> None:
    load_spec(NIM)
    for entry in own_cache.glob("ast-*.json"):
        assert entry.stat().st_mode & 0o077 == 0


def _names_in(node: Any) -> Iterator[str]:
    if isinstance(node, treejson.A.Name):
        yield node.ident
    if isinstance(node, (list, tuple)):
        for item in node:
            yield from _names_in(item)
    elif hasattr(node, "__attrs_attrs__"):
        for field in node.__attrs_attrs__:
            yield from _names_in(getattr(node, field.name))


def _mutate(rng: random.Random, data: Any) -> Any:
    """``data`` (an encoded tree) with one part somewhere replaced by something odd."""
    if isinstance(data, list) and data and rng.random() < 0.85:
        i = rng.randrange(len(data))
        return data[:i] + [_mutate(rng, data[i])] + data[i + 1:]
    return rng.choice([None, True, 0, -1, 2**70, 1.5, "", "x y", "a'+__import__('os').getcwd()+'",
                       [], [data], {"a": data}, "Name", ["Name"], ["Name", "ok", [1, 2]],
                       ["Literal", [1], ["p", 1, 1, 0, 0]], ["Binary", "**", ["Name", "a", ["p", 1, 1, 0, 0]],
                                                             ["Name", "b", ["p", 1, 1, 0, 0]], ["p", 1, 1, 0, 0]]])


def test_mangled_trees_are_refused_or_hold_only_names() -> None:
    rng = random.Random(9)
    files = sorted(NIM.glob("*.rules"))
    trees = [treejson.encode(parser.parse_text(f.read_text(encoding="utf-8"), f.name)) for f in files]
    refused = 0
    for _ in range(600):
        mangled = _mutate(rng, rng.choice(trees))
        try:
            back = treejson.decode_spec_file(mangled)
        except ValueError:
            refused += 1
            continue
        assert all(treejson._NAME.match(n) for n in _names_in(back))
    assert refused > 300


def test_nothing_in_the_packages_unpickles_or_runs_data() -> None:
    banned_modules = {"pickle", "marshal", "shelve", "dill", "cloudpickle"}
    banned_calls = {"eval", "exec"}
    for folder in ("interpreter", "rattus_rules"):
        for source in (ROOT / folder).rglob("*.py"):
            tree = pyast.parse(source.read_text(encoding="utf-8"))
            for node in pyast.walk(tree):
                if isinstance(node, pyast.Import):
                    assert not {a.name.split(".")[0] for a in node.names} & banned_modules, source
                if isinstance(node, pyast.ImportFrom):
                    assert (node.module or "").split(".")[0] not in banned_modules, source
                if isinstance(node, pyast.Attribute) and node.attr in ("load", "loads"):
                    assert not (isinstance(node.value, pyast.Attribute) and node.value.attr == "Lark"), source
                if folder == "rattus_rules" and isinstance(node, pyast.Name):  # the compiler runs its own code
                    assert node.id not in banned_calls, source
