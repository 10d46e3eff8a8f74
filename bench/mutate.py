"""Spec mutation: do the tests notice when a rule of the spec is changed?

Makes small changes to a copy of ``spec/rattus`` — one at a time — and runs a
fast subset of the test suite against each changed copy (through
``RATTUS_SPEC_DIR``).  A change the tests notice is *killed*; one they do not
is a *survivor*.  The changes ("mutants"):

- a whole number one up or one down;
- a comparison turned (``<`` to ``<=`` and to ``>=``, ``==`` to ``!=`` ...);
- ``and`` and ``or`` swapped, a ``not`` dropped, ``+``/``-`` and ``+=``/``-=`` swapped,
  ``true``/``false`` swapped;
- a builtin swapped with its twin (``min``/``max``, ``next``/``prev``,
  ``clockwise``/``counterclockwise``, ``all``/``any``, ``most``/``least``);
- a text literal swapped for another value of the same kind (another option of
  the same switch, another phase, another class card ...);
- a statement dropped (an assignment, ``move``, ``reveal``, ``look``, ``swap``,
  ``use``, ``call``, ``begin``, ``break``), a ``when`` condition dropped, an
  ``if`` condition made ``true`` or ``false``.

Citations, ``say`` texts, switch declarations, verbs and comments are left
alone.  A mutant the spec checker refuses is counted as killed *by the
checker*, shown apart.

Usage::

    python bench/mutate.py [--jobs 2] [--limit N] [--file turn.rules] [--report out.json] [--golden]
    make mutate

It prints the score (target: at least 90% killed) and lists every survivor
with its place and change.  ``--golden`` runs the survivors once more against
the golden files (recorded reference games, conformance vectors), which notice
any change of behaviour but do not judge it; see docs/mutation-survivors.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec" / "rattus"

#: The tests run against every mutant: they judge the rules (scenarios from the
#: rulebook, invariants, properties, the independent reference model).
FAST_TESTS = [
    "tests/rattus/test_reference_model.py",
    "tests/rattus/test_rulebook_examples.py",
    "tests/rattus/test_data_checks.py",
    "tests/rattus/test_edge_cases.py",
    "tests/rattus/test_end_game.py",
    "tests/rattus/test_invariants.py",
    "tests/rattus/test_play.py",
    "tests/rattus/test_state_machine.py",
]
#: Tests that compare with recorded games: they notice any change, right or wrong.
GOLDEN_TESTS = ["tests/rattus/test_reference_games.py", "tests/rattus/test_conformance.py"]

_LEX = re.compile(r'''(?P<STRING>"(?:[^"\\\n]|\\.)*")|(?P<COMMENT>\#[^\n]*)|(?P<NAME>[A-Za-z_]\w*)|(?P<INT>\d+)
    |(?P<OP>==|!=|<=|>=|\+=|-=|//|\.\.|[-+*%<>=(){}\[\],:.])|(?P<NL>\n)|(?P<WS>[ \t\r]+)|(?P<OTHER>.)''', re.VERBOSE)
_COMPARISONS = {"<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="], ">=": [">", "<"],
                "==": ["!="], "!=": ["=="]}
_SWAPS = {"and": "or", "or": "and", "true": "false", "false": "true", "+": "-", "-": "+", "+=": "-=",
          "-=": "+=", "min": "max", "max": "min", "next": "prev", "prev": "next", "clockwise": "counterclockwise",
          "counterclockwise": "clockwise", "all": "any", "any": "all", "most": "least", "least": "most"}
_DROPPABLE = {"move", "reveal", "look", "swap", "use", "call", "begin", "break"}
#: Lines that only declare texts (not rules): nothing on them is mutated.
_TEXT_LINES = {"cite", "say", "source", "switch", "option", "default", "game", "table", "enum", "players",
               "main", "pieces", "zone", "scope", "provenance", "key", "column"}


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    start: int
    end: int
    line: int  # 0-based


@dataclass(frozen=True)
class Mutant:
    """One change: replace ``text[start:end]`` of ``file`` by ``new``."""

    file: str
    line: int  # 1-based
    start: int
    end: int
    new: str
    kind: str
    description: str


@dataclass
class Outcome:
    mutant: Mutant
    status: str  # "checker", "tests", "timeout", "survived"
    detail: str
    seconds: float


def tokens(text: str) -> list[Token]:
    out = []
    line = 0
    for m in _LEX.finditer(text):
        kind = m.lastgroup or "OTHER"
        if kind == "NL":
            line += 1
            continue
        if kind != "WS":
            out.append(Token(kind, m.group(), m.start(), m.end(), line))
    return out


def lines_of(toks: list[Token]) -> dict[int, list[Token]]:
    by_line: dict[int, list[Token]] = {}
    for t in toks:
        if t.kind != "COMMENT":
            by_line.setdefault(t.line, []).append(t)
    return by_line


def balanced(toks: list[Token]) -> bool:
    depth = 0
    for t in toks:
        if t.text in "([{":
            depth += 1
        elif t.text in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def string_families(texts: dict[str, str]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Groups of text values of one kind, and for each value in a group the group's name.

    A group is everything one name is compared with or set to (``phase == "setup"``,
    ``stage = "after-c"``), the options of a switch, or the values of an enum.
    """
    families: dict[str, list[str]] = {}

    def add(group: str, value: str) -> None:
        values = families.setdefault(group, [])
        if value not in values:
            values.append(value)

    for text in texts.values():
        for m in re.finditer(r'switch (\w+) "(?:[^"\\\n]|\\.)*" \{(.*?)\n\}', text, re.S):
            for value in re.findall(r'option "([^"]*)"', m.group(2)):
                add(m.group(1), value)
        for m in re.finditer(r"^enum (\w+) = ([\w, ]+)", text, re.M):
            for value in m.group(2).split(","):
                add(m.group(1), value.strip())
        for m in re.finditer(r'\b(\w+)(?:\[[^\]]*\])? *(?:==|!=|=) *"([^"\\]*)"', text):
            add(m.group(1), m.group(2))
    member: dict[str, str] = {}
    for group, values in families.items():
        for value in values:
            member.setdefault(value, group)
    return families, member


def mutants(texts: dict[str, str]) -> Iterator[Mutant]:
    """Every mutant of the spec files, in a fixed order."""
    families, member = string_families(texts)
    for name, text in sorted(texts.items()):
        toks = tokens(text)
        by_line = lines_of(toks)
        src_lines = text.split("\n")

        def mk(t: Token, new: str, kind: str, name: str = name) -> Mutant:
            return Mutant(name, t.line + 1, t.start, t.end, new, kind, f"{t.text!r} -> {new!r}")

        for line_no, line_toks in sorted(by_line.items()):
            first = line_toks[0].text
            if first in _TEXT_LINES:
                continue
            # a statement dropped, a `when` dropped, an `if` made constant
            assignment = (len(line_toks) > 2 and line_toks[0].kind == "NAME"
                          and any(t.text in ("=", "+=", "-=") for t in line_toks[1:])
                          and first not in ("let", "function", "counter", "var", "limit", "score"))
            one_line = balanced(line_toks) and not {"{", "}"} & {t.text for t in line_toks}
            if (first in _DROPPABLE or assignment) and one_line:
                start, end = line_toks[0].start, line_toks[-1].end
                yield Mutant(name, line_no + 1, start, end, "", "drop-statement",
                             f"drop `{src_lines[line_no].strip()}`")
            if first == "when" and balanced(line_toks) and "{" not in [t.text for t in line_toks]:
                yield Mutant(name, line_no + 1, line_toks[0].start, line_toks[-1].end, "", "drop-when",
                             f"drop `{src_lines[line_no].strip()}`")
            if first in ("if", "elif") and line_toks[-1].text == "{" and balanced(line_toks[1:-1]):
                cond_start, cond_end = line_toks[1].start, line_toks[-2].end
                for value in ("true", "false"):
                    yield Mutant(name, line_no + 1, cond_start, cond_end, value, "if-constant",
                                 f"`{text[cond_start:cond_end]}` -> {value}")
            for i, t in enumerate(line_toks):
                prev = line_toks[i - 1].text if i else ""
                nxt = line_toks[i + 1].text if i + 1 < len(line_toks) else ""
                if t.kind == "INT":
                    number = int(t.text)
                    yield mk(t, str(number + 1), "number")
                    if number > 0:
                        yield mk(t, str(number - 1), "number")
                elif t.text in _COMPARISONS:
                    for new in _COMPARISONS[t.text]:
                        yield mk(t, new, "comparison")
                elif t.text == "not":
                    # `not x` -> `x`, `a not in b` -> `a in b`
                    yield Mutant(name, line_no + 1, t.start, line_toks[i + 1].start if nxt else t.end, "",
                                 "drop-not", "drop `not`")
                elif t.text in _SWAPS and not (t.text == "-" and prev in ("", "=", "(", ",", "+", "-", "==")):
                    if t.text in ("min", "max", "next", "prev", "clockwise", "counterclockwise") and nxt != "(":
                        continue
                    if t.text in ("all", "any", "most", "least") and nxt != "(":
                        continue
                    kind = "logic" if t.text in ("and", "or", "true", "false") else (
                        "arithmetic" if t.text in ("+", "-", "+=", "-=") else "builtin")
                    yield mk(t, _SWAPS[t.text], kind)
                elif t.kind == "STRING" and i > 0 and prev != "chance":
                    value = t.text[1:-1]
                    group = member.get(value)
                    if group is None:
                        continue
                    values = families[group]
                    k = values.index(value)
                    others = {values[(k + 1) % len(values)], values[(k - 1) % len(values)]} - {value}
                    for other in sorted(others):
                        yield mk(t, f'"{other}"', "text")


# ------------------------------------------------------------------- running


def _copy_spec(into: Path) -> Path:
    folder = into / "rattus"
    shutil.copytree(SPEC, folder)
    return folder


def _pytest(folder: Path, tests: list[str], timeout: float, first_failure: bool = True) -> tuple[str, str]:
    env = dict(os.environ, RATTUS_SPEC_DIR=str(folder), HYPOTHESIS_PROFILE="ci", PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, "-m", "pytest", "-q", "--no-header", "--tb=line", "-p", "no:cacheprovider",
           "--rootdir", str(ROOT), *(["-x"] if first_failure else []), *tests]
    try:
        run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", f"no result after {timeout:.0f} s"
    if run.returncode == 0:
        return "survived", ""
    failed = [line.split(" ", 1)[1] for line in run.stdout.splitlines() if line.startswith("FAILED ")]
    errors = [line for line in run.stdout.splitlines() if line.startswith("ERROR ")]
    return "tests", (failed or errors or run.stdout.splitlines()[-1:] or ["?"])[0][:200]


def run_mutant(args: tuple[Mutant, str, list[str], float]) -> Outcome:
    """Apply one mutant to a fresh copy of the spec; the checker first, then the tests."""
    mutant, original, tests, timeout = args
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rattus-mutant-") as tmp:
        folder = _copy_spec(Path(tmp))
        changed = original[:mutant.start] + mutant.new + original[mutant.end:]
        (folder / mutant.file).write_text(changed, encoding="utf-8")
        from interpreter import SpecError, load_spec

        try:
            load_spec(folder)
        except SpecError as err:
            first = err.diagnostics[0]
            return Outcome(mutant, "checker", f"{Path(first.pos.path).name}:{first.pos.line}: {first.message}"[:200],
                           time.perf_counter() - began)
        status, detail = _pytest(folder, tests, timeout)
        if status == "timeout":  # a busy machine is no kill: once more with much more time
            status, detail = _pytest(folder, tests, timeout * 4)
    return Outcome(mutant, status, detail, time.perf_counter() - began)


def _line(texts: dict[str, str], m: Mutant) -> str:
    return texts[m.file].split("\n")[m.line - 1].strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", "-j", type=int, default=2, help="mutants run in parallel (default 2)")
    parser.add_argument("--limit", type=int, help="run only every k-th mutant so that about this many run")
    parser.add_argument("--file", action="append", help="mutate only this spec file (repeatable)")
    parser.add_argument("--kind", action="append", help="only mutants of this kind (repeatable)")
    parser.add_argument("--tests", nargs="+", default=FAST_TESTS, help="the test files run against each mutant")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--golden", action="store_true", help="run the survivors against the golden files too")
    parser.add_argument("--report", type=Path, help="write every outcome as JSON here")
    parser.add_argument("--rerun", type=Path, metavar="REPORT",
                        help="run only the mutants that survived in this earlier report")
    args = parser.parse_args(argv)

    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(SPEC.glob("*.rules"))}
    todo = [m for m in mutants(texts)
            if (not args.file or m.file in args.file) and (not args.kind or m.kind in args.kind)]
    if args.rerun:
        earlier = json.loads(args.rerun.read_text(encoding="utf-8"))
        wanted = {(o["file"], o["line_text"], o["kind"], o["description"]) for o in earlier
                  if o["status"] == "survived"}
        todo = [m for m in todo if (m.file, _line(texts, m), m.kind, m.description) in wanted]
    if args.limit and len(todo) > args.limit:
        step = len(todo) / args.limit
        todo = [todo[int(i * step)] for i in range(args.limit)]
    if args.list:
        for m in todo:
            print(f"{m.file}:{m.line}: [{m.kind}] {m.description}")
        print(f"{len(todo)} mutants")
        return 0
    tests = [t for t in args.tests if (ROOT / t).exists()]
    print(f"{len(todo)} mutants of {len(texts)} spec files; tests: {' '.join(tests)}", flush=True)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rattus-baseline-") as tmp:
        status, detail = _pytest(_copy_spec(Path(tmp)), tests, timeout=900)
    baseline = time.perf_counter() - began
    if status != "survived":
        print(f"the tests fail on the unchanged spec ({status}: {detail}); fix that first", file=sys.stderr)
        return 2
    timeout = max(60.0, baseline * 4)
    print(f"baseline: tests pass in {baseline:.1f} s; timeout per mutant {timeout:.0f} s", flush=True)

    outcomes: list[Outcome] = []
    work = [(m, texts[m.file], tests, timeout) for m in todo]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for n, outcome in enumerate(pool.map(run_mutant, work), start=1):
            outcomes.append(outcome)
            mark = {"survived": "SURVIVED", "checker": "killed (checker)", "tests": "killed",
                    "timeout": "killed (timeout)"}[outcome.status]
            m = outcome.mutant
            print(f"[{n}/{len(work)}] {m.file}:{m.line} [{m.kind}] {m.description}: {mark}", flush=True)

    survivors = [o for o in outcomes if o.status == "survived"]
    if args.golden and survivors:
        print(f"\nrunning {len(survivors)} survivors against the golden files ...", flush=True)
        for o in survivors:
            with tempfile.TemporaryDirectory(prefix="rattus-golden-") as tmp:
                folder = _copy_spec(Path(tmp))
                original = texts[o.mutant.file]
                (folder / o.mutant.file).write_text(original[:o.mutant.start] + o.mutant.new
                                                    + original[o.mutant.end:], encoding="utf-8")
                status, detail = _pytest(folder, [t for t in GOLDEN_TESTS if (ROOT / t).exists()], timeout)
            o.detail = "golden files: " + ("no difference" if status == "survived" else "notice a change")

    total = len(outcomes)
    by = {s: sum(1 for o in outcomes if o.status == s) for s in ("checker", "tests", "timeout", "survived")}
    killed = total - by["survived"]
    loadable = total - by["checker"]
    print(f"\n{total} mutants in {time.perf_counter() - began:.0f} s: {killed} killed "
          f"({by['checker']} by the checker, {by['tests']} by the tests, {by['timeout']} by a timeout), "
          f"{by['survived']} survived")
    print(f"mutation score: {100 * killed / max(total, 1):.1f}% "
          f"(of the {loadable} mutants the checker accepts: "
          f"{100 * (loadable - by['survived']) / max(loadable, 1):.1f}% killed by the tests)")
    if survivors:
        print("\nsurvivors:")
        for o in survivors:
            m = o.mutant
            print(f"  {m.file}:{m.line} [{m.kind}] {m.description}\n      {_line(texts, m)}" + (f"\n      {o.detail}"
                                                                                     if o.detail else ""))
    if args.report:
        args.report.write_text(json.dumps([{**asdict(o.mutant), "line_text": _line(texts, o.mutant),
                                             "status": o.status, "detail": o.detail,
                                             "seconds": round(o.seconds, 2)} for o in outcomes],
                                          indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
