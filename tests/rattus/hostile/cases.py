"""Hostile inputs, generated: specs, data tables, scenarios, records, saved states, arguments.

Each case is a dict for :mod:`tests.rattus.hostile.worker` plus what it must end with:
``expect`` is the set of allowed exit codes (``cli`` cases) or of allowed
exception class names (``spec`` cases: ``None`` means the game simply played
on).  :func:`all_cases` lists them all; :data:`KINDS` says what each kind is.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

from interpreter.ast import MAX_INT

HEADER = '''game g "G" cite src "S" "x"
source src "A source"
players 2 to 2
main play
'''
CITE = 'cite src "S" "x"'
BIG = "9" * 5000
#: Text that would leave a file behind if any of it ever ran as Python or shell.
PAYLOADS = [
    "__import__('os').system('touch PWNED1')",
    "'); __import__('os').system('touch PWNED2'); ('",
    '"; touch PWNED3; echo "',
    "$(touch PWNED4)",
    "`touch PWNED5`",
    "{__import__('os').system('touch PWNED6')}",
    "\x1b[2J\x1b[31mok: fake verdict",
    "\x00\x01\x02",
]
SPEC_ERROR = {1}
USAGE = {2}
RULES_OR_USAGE = {1, 2}

#: What every kind of case is and what it must end with (for docs/testing.md).
KINDS = {
    "spec-text": "spec files (`rattus check`): deep nesting, huge numbers, huge or unreadable files, "
                 "code in strings; a positioned spec error, exit 1",
    "spec-run": "specs whose code runs away (loops, nested loops, growing numbers and lists, huge ranges "
                "and decisions, data checks): a positioned spec or rule error",
    "data": "component tables (`--data`): mangled (`check`: exit 1), huge, unreadable, FIFO, /dev/zero "
            "(exit 2), and missing or FIFO tables for `play`, `perft`, `render` (exit 2)",
    "scenario": "scenario files: huge numbers in every place, unreadable files, junk; exit 2 (or 1)",
    "record": "game records (`rattus validate`/`replay`): wrong types, deep nesting, huge numbers; exit 1 or 2",
    "state": "saved states (`rattus render state --from`): every field replaced by a hostile value: exit 2, "
             "or 0 where the value is harmless (the checks of a stored state are tests/test_state_*); "
             "unreadable files: exit 2",
    "args": "command-line arguments: out of range, wrong type, missing files; exit 2",
}


def spec_case(ident: str, body: str, expect: set[Any], run: bool = False, extra: dict[str, Any] | None = None,
              header: str = HEADER) -> dict[str, Any]:
    """A one-file spec in folder `s`: checked with `rattus check` or loaded and played."""
    files: dict[str, Any] = {"s/a.rules": header + body, **(extra or {})}
    if run:
        return {"id": ident, "group": "spec-run", "kind": "spec", "spec": "s", "files": files,
                "expect": sorted(expect, key=str)}
    return {"id": ident, "group": "spec-text", "kind": "cli", "argv": ["check", "s"], "files": files,
            "expect": sorted(expect)}


def proc(body: str) -> str:
    """A `play` procedure with this body."""
    return f"procedure play {CITE} {{\n{body}\n}}\n"


def spec_text_cases() -> Iterator[dict[str, Any]]:
    """Spec files that must be refused with a positioned error."""
    for depth in (21, 25, 40, 63):
        yield spec_case(f"loops-nested-{depth}", proc("loop { " * depth + "break " + "}" * depth), SPEC_ERROR)
        yield spec_case(f"fors-nested-{depth}", proc(
            "".join(f"for i{k} in 1 .. 1 {{ " for k in range(depth)) + "}" * depth), SPEC_ERROR)
        yield spec_case(f"whiles-nested-{depth}", proc("let x = 0\n" + "while x < 1 { " * depth + "x = 1 "
                                                       + "}" * depth), SPEC_ERROR)
    for depth in (20, 30):  # loops that stop at a decision are entered again from the middle
        body = "loop { " * depth + f'choose by first_player {{ "go" {CITE} {{ }} }} ' + "}" * depth
        yield spec_case(f"loops-around-a-decision-{depth}", proc(body), SPEC_ERROR)
    many = ", ".join(f"x{k} in 1 .. 1" for k in range(25))
    yield spec_case("decision-with-25-values", proc(f'choose by first_player {{ "go" {many} {CITE} {{ }} }}'),
                    SPEC_ERROR)
    for digits in (19, 100, 4301, 5000, 100_000):
        number = "9" * digits
        yield spec_case(f"number-{digits}-digits-in-a-counter", f"counter n = {number}\n" + proc(""), SPEC_ERROR)
        yield spec_case(f"number-{digits}-digits-in-an-expression", proc(f"let x = 1 + {number}"), SPEC_ERROR)
    yield spec_case("number-beyond-max-int", f"counter n = {MAX_INT + 1}\n" + proc(""), SPEC_ERROR)
    yield spec_case("players-huge", proc(""), SPEC_ERROR,
                    header=HEADER.replace("players 2 to 2", f"players 2 to {BIG}"))
    for i, payload in enumerate(PAYLOADS):
        escaped = payload.replace("\\", "\\\\").replace('"', '\\"')
        yield spec_case(f"payload-{i}-in-a-name", proc(f"let {payload} = 1"), SPEC_ERROR)
        yield spec_case(f"payload-{i}-in-a-table-file", f'table t from "{escaped}" {{ key id: int {CITE} }}\n'
                        + proc(""), SPEC_ERROR)
    files: dict[str, dict[str, Any]] = {
        "fifo": {"s/b.rules": {"fifo": True}},
        "dev-zero": {"s/b.rules": {"link": "/dev/zero"}},
        "dev-urandom": {"s/b.rules": {"link": "/dev/urandom"}},
        "folder": {"s/b.rules/x": "x"},
        "dangling-link": {"s/b.rules": {"link": "/nonexistent/x"}},
        "binary": {"s/b.rules": {"bytes": "ff fe 00 81 c3 28".replace(" ", "")}},
        "too-large": {"s/b.rules": "# " + "x" * 1_100_000 + "\n"},
        "huge-line": {"s/b.rules": "counter " + "x" * 900_000 + " = 1 1\n"},
        "many-tokens": {"s/b.rules": "x " * 60_000},
        "table-fifo": {"s/t.csv": {"fifo": True}},
        "table-dev-zero": {"s/t.csv": {"link": "/dev/zero"}},
        "table-too-large": {"s/t.csv": "id\n" + "1\n" * 600_000},
        "table-folder": {"s/t.csv/x": "x"},
    }
    table = f'table t from "t.csv" {{ key id: int {CITE} }}\n'
    for name, extra in files.items():
        yield spec_case(f"file-{name}", (table if name.startswith("table") else "") + proc(""), SPEC_ERROR,
                        extra=extra)


def spec_run_cases() -> Iterator[dict[str, Any]]:
    """Specs whose code runs away: each must stop with a spec or rule error, soon."""
    rule = {"RuleError"}
    runs = {
        "loop-forever": "loop { }",
        "two-nested-loops": "let x = 0\nloop { loop { x = x + 1 } }",
        "three-nested-loops": "let x = 0\nloop { loop { loop { x = x + 1 } } }",
        "nested-whiles": "let x = 0\nwhile true { while true { x = 1 } }",
        "square-forever": "let x = 2\nloop { x = x * x }",
        "double-forever": "let x = 1\nloop { x = x + x }",
        "sum-of-many": "let x = 1\nloop { x = x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x }",
        "list-doubling": "let l = [1]\nloop { l = l + l }",
        "for-nested-big": "let x = 0\nfor i in 1 .. 1000000 { for j in 1 .. 1000000 { x = x + 1 } }",
        "for-huge-range": "let x = 0\nfor i in 1 .. 1000000000000 { x = x + 1 }",
        "aggregate-huge": "let x = sum(i in 1 .. 1000000000000: i)",
        "aggregate-nested": "let x = sum(i in 1 .. 1000000: sum(j in 1 .. 1000000: j))",
        "aggregate-in-loop": "let x = 0\nloop { x = count(i in 1 .. 100000 where i > 0) }",
        "comprehension-huge": "let l = [i for i in 1 .. 1000000000000]",
        "comprehension-nested": "let l = [sum(j in 1 .. 1000000: j) for i in 1 .. 1000000]",
        "range-huge-kept": "let l = 1 .. 1000000000000",
        "range-negative-huge": "let l = -1000000000000 .. 1",
        "choose-huge": f'choose by first_player {{ "take" k in 1 .. 1000000000000 {CITE} {{ }} }}',
        "choose-product": f'choose by first_player {{ "take" a in 1 .. 100000, b in 1 .. 100000 {CITE} {{ }} }}',
        "chance-huge": f'chance "draw" k in 1 .. 1000000000000 {CITE} {{ }}',
        "multiply-max": f"let x = {MAX_INT}\nx = x * x",
        "add-max": f"let x = {MAX_INT}\nx = x + x",
        "counter-overflow": "loop { n = n * 2 + 1 }",
        "divide-by-zero": "let x = 1 // 0",
        "modulo-by-zero": "let x = 1 % 0",
        "recursion": "call play()",
    }
    for ident, body in runs.items():
        yield spec_case(f"run-{ident}", "counter n = 1\n" + proc(body), rule, run=True)
    yield spec_case("run-procedure-calls-forever", "counter n = 1\n" + proc("call again()")
                    + f"procedure again {CITE} {{ call play() }}\n", rule, run=True)
    checks = {
        "check-huge-sum": "sum(i in 1 .. 1000000000000: i) > 0",
        "check-nested": "sum(i in 1 .. 1000000: sum(j in 1 .. 1000000: j)) > 0",
        "check-huge-range": "(1 .. 1000000000000) != [1]",
        "check-huge-list": "size([i for i in 1 .. 1000000000000]) > 0",
        "check-product": f"{MAX_INT} * {MAX_INT} > 0",
    }
    for ident, cond in checks.items():
        yield spec_case(f"run-{ident}", f"check c {CITE} holds {cond}\n" + proc(""), {"SpecError"}, run=True)


def data_cases() -> Iterator[dict[str, Any]]:
    """Component tables given with --data."""
    bad: dict[str, Any] = {
        "fifo": {"fifo": True},
        "dev-zero": {"link": "/dev/zero"},
        "too-large": "region,x\n" + "a,b\n" * 400_000,
        "binary": {"bytes": "fffe0081c328"},
        "huge-number": None,  # filled below from the real table
        "empty": "",
        "only-header": None,
        "nul-bytes": "a\x00b,c\n\x00\n",
        "quote-soup": '"' * 10_000,
        "long-field": "a," + "x" * 200_000 + "\n",
    }
    unreadable = {"fifo", "dev-zero", "too-large", "binary"}  # not read at all: bad input; the rest is checked
    for name in ("regions.csv", "rat_tokens.csv"):
        for kind, content in bad.items():
            if content is None:
                continue
            yield {"id": f"data-{name}-{kind}", "group": "data", "kind": "cli",
                   "argv": ["check", "--data", "d"], "files": {f"d/{name}": content},
                   "expect": sorted(USAGE if kind in unreadable else SPEC_ERROR)}
    for cmd in (["play", "-q"], ["perft", "--depth", "1"], ["render", "board", "-o", "o.svg"]):
        yield {"id": f"data-missing-{cmd[0]}", "group": "data", "kind": "cli",
               "argv": [*cmd, "--data", "/nonexistent/folder"], "files": {}, "expect": sorted(USAGE)}
        yield {"id": f"data-fifo-{cmd[0]}", "group": "data", "kind": "cli",
               "argv": [*cmd, "--data", "regions.csv"], "files": {"regions.csv": {"fifo": True}},
               "expect": sorted(USAGE)}


SCENARIO = """scenario hostile
players 4
cards P0: monk
tokens Gallia: 1:merchant+monk, ?
plague Polonia
done take
P0 place Gallia
expect cubes Gallia: P0 3
"""


def scenario_cases() -> Iterator[dict[str, Any]]:
    """Scenario files: numbers too long for Python to read, unreadable files, junk."""
    lines = SCENARIO.splitlines()

    def case(ident: str, content: Any) -> dict[str, Any]:
        return {"id": f"scenario-{ident}", "group": "scenario", "kind": "cli", "argv": ["scenario", "s.txt"],
                "files": {"s.txt": content}, "expect": sorted(RULES_OR_USAGE)}

    for i, line in enumerate(lines):
        words = line.split()
        for j, word in enumerate(words):
            if any(c.isdigit() for c in word):
                for digits in (19, 4301, 100_000):
                    changed = words.copy()
                    changed[j] = "".join("9" * digits if c.isdigit() else c for c in word)
                    yield case(f"line{i}-word{j}-{digits}-digits",
                               "\n".join([*lines[:i], " ".join(changed), *lines[i + 1:]]) + "\n")
    for extra in ("seed " + BIG, "players " + BIG, "expect tokens Gallia: " + BIG,
                  "expect illegal P0 place Gallia because \"" + "x" * 100_000 + "\"",
                  "P0 " + "x " * 50_000, "interpretation " + "x" * 100_000 + "=y"):
        yield case(f"extra-{extra[:14].strip()}-{len(extra)}", SCENARIO + extra + "\n")
    for i, payload in enumerate(PAYLOADS):
        yield case(f"payload-{i}", SCENARIO + f"P0 {payload}\n")
    yield case("fifo", {"fifo": True})
    yield case("dev-zero", {"link": "/dev/zero"})
    yield case("binary", {"bytes": "fffe0081c328"})
    yield case("too-large", "# x\n" * 400_000)
    yield case("unbalanced-quotes", SCENARIO + 'expect illegal P0 "x\n')


def hostile_values() -> dict[str, Any]:
    """Values that do not belong where a saved state or a record has its data."""
    nested: Any = []
    for _ in range(50_000):
        nested = [nested]
    return {"text": "abc", "huge": int(BIG[:4000]), "negative": -1, "null": None, "float": 1.5,
            "list": [1, 2], "dict": {"a": 1}, "deep": nested, "payload": PAYLOADS[0]}


def _dumps(value: Any) -> str:
    """JSON text, also of values nested deeper than :func:`json.dumps` can go."""
    try:
        return json.dumps(value)
    except RecursionError:
        depth = 0
        while isinstance(value, list) and len(value) == 1:
            value, depth = value[0], depth + 1
        return "[" * depth + json.dumps(value) + "]" * depth


def _replace_each(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every top-level field and every first item of a list field, replaced by each hostile value."""
    values = hostile_values()
    for key in data:
        for vname, value in values.items():
            changed = copy.deepcopy(data)
            changed[key] = None
            text = _dumps(changed).replace('"' + key + '": null', f'"{key}": {_dumps(value)}')
            yield f"{key}-{vname}", text


def state_cases(saved_state: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A real saved state with each field replaced by each hostile value; plus unreadable files."""
    def case(ident: str, content: Any) -> dict[str, Any]:
        return {"id": f"state-{ident}", "group": "state", "kind": "cli",
                "argv": ["render", "state", "--from", "s.json", "-o", "o.svg"],
                "files": {"s.json": content}, "expect": sorted(USAGE if ident in unreadable else {0, 2})}

    unreadable = {"not-json": "{", "array": "[]", "deep": "[" * 100_000 + "]" * 100_000,
                  "huge-number": "{\"players\": " + BIG + "}", "empty": "", "fifo": {"fifo": True},
                  "dev-zero": {"link": "/dev/zero"}}
    for ident, text in _replace_each(saved_state):
        yield case(ident, text)
    for ident, text in unreadable.items():
        yield case(ident, text)


def record_cases(record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A real record with each field replaced by each hostile value, for `validate` and `replay`."""
    for ident, text in _replace_each(record):
        yield {"id": f"record-{ident}", "group": "record", "kind": "cli", "argv": ["validate", "r.json"],
               "files": {"r.json": text}, "expect": sorted(RULES_OR_USAGE)}
    for ident, text in {"deep": "[" * 100_000 + "]" * 100_000, "huge-number": "{\"format\": " + BIG + "}",
                        "not-json": "{"}.items():
        for cmd in ("validate", "replay"):
            yield {"id": f"record-{cmd}-{ident}", "group": "record", "kind": "cli", "argv": [cmd, "r.json"],
                   "files": {"r.json": text}, "expect": sorted(USAGE)}


def args_cases() -> Iterator[dict[str, Any]]:
    """Command-line arguments out of range or of the wrong type."""
    bad_ints = ["0", "1", "5", "9", "-1", BIG, "x", "1e3", ""]
    argv: list[list[str]] = []
    for value in bad_ints:
        argv += [["play", "-q", "--players", value], ["bench", "--players", value],
                 ["perft", "--players", value, "--depth", "1"],
                 ["render", "state", "--players", value, "-o", "o.svg"]]
    for value in ["-1", BIG, "x", "nan", "inf", "-inf", "1e400"]:
        argv += [["bench", "--runs", value, "--seconds", "0.01"], ["bench", "--seconds", value, "--runs", "1"]]
    argv.append(["bench", "--runs", "0", "--seconds", "0.01"])
    for value in [BIG, "x", "-" + BIG]:
        argv += [["play", "-q", "--seed", value], ["render", "state", "--seed", value, "-o", "o.svg"]]
    for value in ["-1", BIG, "x"]:
        argv += [["render", "state", "--moves", value, "-o", "o.svg"], ["perft", "--depth", value]]
    for value in ["x", "x=", "=y", "reveal-order=nonsense", "nonsense=1", "x" * 10_000 + "=y"]:
        argv += [["play", "-q", "-i", value], ["perft", "--depth", "1", "-i", value]]
    argv += [["validate", "/nonexistent.json"], ["replay", "/nonexistent.json"], ["scenario", "/nonexistent"],
             ["render", "state", "--from", "/nonexistent.json", "-o", "o.svg"], ["check", "/nonexistent"],
             ["play", "-q", "--viewer", "P9", "--record", "r.json", "--record-kind", "players-eye"],
             ["nonsense"], [], ["play", "--players"], ["render"], ["scenario", "."]]
    for i, a in enumerate(argv):
        shown = "-".join(x if len(x) < 12 else f"{x[:4]}..{len(x)}" for x in a) or "nothing"
        yield {"id": f"args-{i}-{shown}", "group": "args", "kind": "cli", "argv": a, "files": {},
               "expect": sorted(USAGE)}


def all_cases(saved_state: dict[str, Any], record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every hostile case, in a stable order."""
    out = [*spec_text_cases(), *spec_run_cases(), *data_cases(), *scenario_cases(),
           *state_cases(saved_state), *record_cases(record), *args_cases()]
    seen: set[str] = set()
    for case in out:
        assert case["id"] not in seen, case["id"]
        seen.add(case["id"])
    return out
