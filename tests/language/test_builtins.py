"""The table of builtins (interpreter/builtins.py): every builtin is documented, checked, emitted
as Python and read in English, from its one record — shown on a small game that is not Rattus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter import ast as A
from interpreter import load_spec
from interpreter.builtins import BUILTINS, SPECIAL_NAMES
from interpreter.english import English
from rattus_rules.tools.docs.refgen import builtins_rst

#: A spec argument for each kind of argument a builtin documents (its `params` words).
ARGUMENTS = {
    "a zone": "heap",
    "a zone or a list": "heap",
    "a number": "2",
    "a piece": "piece(heap, 2)",
    "a graph": "paths",
    "a node of it": "first(s in nodes(paths))",
    "a list of its nodes": '[s for s in nodes(paths) where s != "south"]',
    "a player": "first_player",
    "a text": '"north"',
}

SPEC = '''
game toy "Toy" cite book "R" "x"
source book "A book"
players 2 to 3
table stones from "stones.csv" { key id: int cite book "R" "x" }
table spots from "spots.csv" { key spot: text cite book "R" "x" }
table links from "links.csv" { column a: spots column b: spots cite book "R" "x" }
graph paths on spots edges links(a, b) cite book "R" "x"
pieces stone from stones in heap cite book "R" "x"
zone heap of stone public
main play
procedure play cite book "R" "x" { finish players }
'''


def _uses() -> dict[str, str]:
    """A function per builtin calling it: name -> spec text of the call."""
    return {b.name: f"{b.name}({', '.join(ARGUMENTS[p] for p in b.params)})" for b in BUILTINS.values()}


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root: Path = tmp_path_factory.mktemp("toy")
    (root / "stones.csv").write_text("id\n7\n8\n9\n", encoding="utf-8")
    (root / "spots.csv").write_text("spot\nnorth\nmiddle\nsouth\n", encoding="utf-8")
    (root / "links.csv").write_text("a,b\nnorth,middle\nmiddle,south\n", encoding="utf-8")
    functions = "".join(f"function use_{name}() = {call} cite book \"R\" \"x\"\n" for name, call in _uses().items())
    (root / "toy.rules").write_text(SPEC + functions, encoding="utf-8")
    return load_spec(root)


def test_every_builtin_is_documented() -> None:
    page = builtins_rst()
    for b in BUILTINS.values():
        assert b.doc and b.returns and b.arity == len(b.params) >= 1, b.name
        assert all(p in ARGUMENTS for p in b.params), f"{b.name}: no sample argument for {b.params}"
        assert f"``{b.name}(" in page and b.doc in page, b.name
    for n in SPECIAL_NAMES.values():
        assert f"``{n.name}``" in page and n.doc in page


def test_every_builtin_is_checked_against_its_argument_types(toy: Any) -> None:
    types = {name: str(toy.checked.type_of(toy.checked.symbols.functions[f"use_{name}"].body)) for name in BUILTINS}
    assert types["size"] == "int" and types["revealed"] == "bool" and types["adjacent"] == "bool"
    assert types["pieces"] == "list:piece:stone" and types["piece"] == "piece:stone"
    assert types["neighbours"] == "list:entity:spots" and types["clockwise"] == "list:player"
    assert types["connected"] == "list:entity:spots"
    for name, t in types.items():
        assert t != "any", name


@pytest.mark.parametrize("name", sorted(n for n, b in BUILTINS.items() if b.params != ("a text", "a text")))
def test_a_builtin_refuses_a_wrong_argument(name: str) -> None:
    from interpreter.checker import check
    from interpreter.errors import SpecError
    from interpreter.parser import parse_text

    b = BUILTINS[name]  # (texts are compared as text, whatever they are: startswith takes any)
    wrong = {"a number": "first_player", "a player": "3", "a text": "1"}
    args = [wrong.get(p, "true") for p in b.params]
    text = SPEC.replace("{ finish players }", f"{{ let x = {name}({', '.join(args)}) finish players }}")
    with pytest.raises(SpecError) as err:
        check([parse_text(text, "t.rules")])
    assert any(name in d.message or "position is a number" in d.message for d in err.value.diagnostics)


def test_every_builtin_runs_as_generated_python(toy: Any) -> None:
    st = toy.new_state(3, seed=0)
    got = {}
    for name in BUILTINS:
        fn = toy.exprs.expr(toy.checked.symbols.functions[f"use_{name}"].body)
        got[name] = fn(st, {})
    heap = list(st.zones["heap"][None])
    assert got["size"] == 3 and got["pieces"] == heap and got["piece"] == heap[1] != heap[0]
    assert got["position"] == 2 and got["revealed"] is True
    assert got["nodes"] == ["north", "middle", "south"]
    assert got["neighbours"] == ["middle"] and got["adjacent"] is False  # north is no neighbour of itself
    assert got["connected"] == ["north", "middle"]  # south is left out of the list
    assert (got["next"], got["prev"]) == (1, 2)
    assert got["clockwise"] == [0, 1, 2] and got["counterclockwise"] == [0, 2, 1]
    assert got["snake"] == [0, 1, 2, 2, 1, 0]
    assert (got["min"], got["max"], got["abs"]) == (2, 2, 2)
    assert got["startswith"] is True
    assert got["plain"] is True


def test_every_builtin_reads_in_english(toy: Any) -> None:
    english = English(toy.checked)
    for name in BUILTINS:
        call = toy.checked.symbols.functions[f"use_{name}"].body
        assert isinstance(call, A.Call)
        text = english.expr(call)
        assert f"{name}(" not in text and text.strip(), (name, text)
        if BUILTINS[name].is_condition:
            assert english.cond(call, False) not in (text, "not " + text), name


def test_connected_follows_only_the_nodes_listed() -> None:
    from interpreter.builtins import connected

    line = {"a": ["b"], "b": ["a", "c"], "c": ["b", "d"], "d": ["c"]}
    assert connected(line, "a", ["d", "c", "b", "a"]) == ["d", "c", "b", "a"]  # in the list's order
    assert connected(line, "a", ["a", "b", "d"]) == ["a", "b"]  # d is cut off: c is not listed
    assert connected(line, "d", ["a", "b", "c"]) == []  # the start is not in the list
    assert connected(line, "b", ["b"]) == ["b"]
