"""Bad spec text only ever yields positioned errors; the language cannot reach outside the spec.

Arbitrary text, token soup and mutations of the real Rattus spec (deleted,
duplicated, swapped and replaced tokens and lines, random characters) go
through the whole pipeline — parse, check, load data, compile, and a few
steps of a game — and may only raise :class:`SpecError` (every diagnostic
with a path, line >= 1 and column >= 1) or, once a game runs,
:class:`RulesError`.  Deep nesting, long operator chains, functions that
expand exponentially and very large files are refused cleanly, never with a
``RecursionError`` or a hang.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import RuleError, RulesError, SpecError, load_spec, parse_text
from interpreter.builder import MAX_NESTING
from interpreter.builtins import BUILTINS
from interpreter.checker import MAX_EXPANDED_DEPTH, _callees_first, _expanded
from interpreter.parser import MAX_SOURCE_BYTES, MAX_TOKENS, grammar_text
from rattus_rules.paths import spec_dir

HEADER = '''
game g "G" cite src "S" "x"
source src "A source"
players 2 to 2
main play
'''
CITE = 'cite src "S" "x"'
SPEC_FILES = {f.name: f.read_text(encoding="utf-8") for f in sorted(spec_dir().glob("*.rules"))}
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|\w+|//|[=!<>+-]=|\.\.|\S')
SPEC_TOKENS = sorted({m.group() for text in SPEC_FILES.values() for m in _TOKEN.finditer(text)
                      if not m.group().startswith("#")})

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_positioned(err: SpecError) -> None:
    """Every diagnostic names a file, a line >= 1 and a column >= 1."""
    assert err.diagnostics
    for d in err.diagnostics:
        assert d.pos.path and d.pos.line >= 1 and d.pos.column >= 1, d.format()
        assert d.format().startswith(f"{d.pos.path}:{d.pos.line}:{d.pos.column}: ")


def parse_errors(text: str) -> list[str]:
    """Parse one text: the formatted diagnostics, after checking their positions ([] if it parses)."""
    try:
        parse_text(text, "t.rules")
    except SpecError as err:
        assert_positioned(err)
        return [d.message for d in err.diagnostics]
    return []


def load_errors(folder: Path, text: str) -> list[str]:
    """Load a one-file spec through the whole pipeline; messages of the SpecError, or []."""
    (folder / "a.rules").write_text(HEADER + text, encoding="utf-8")
    try:
        load_spec(folder)
    except SpecError as err:
        assert_positioned(err)
        return [d.message for d in err.diagnostics]
    return []


def play_a_little(folder: Path, steps: int = 200) -> None:
    """Load a spec folder and play a few random steps per player count; only spec/rule errors may escape."""
    try:
        game = load_spec(folder)
    except SpecError as err:
        assert_positioned(err)
        return
    for players in range(game.min_players, min(game.max_players, 4) + 1):
        try:
            state = game.new_state(players, seed=players, check_invariants=True)
            for i in range(steps):
                if state.is_terminal():
                    break
                state.apply_index((i * 7919) % state.num_legal_actions())
                state.to_json()
                state.observation(0)
        except RulesError:
            pass


# -------------------------------------------------------------- deep and large


@pytest.mark.parametrize("text", [
    "function f() = " + "(" * 10_000 + "1" + ")" * 10_000,
    "function f() = " + "[" * 10_000 + "]" * 10_000,
    "function f() = " + "not " * 10_000 + "true",
    "function f() = " + "-" * 10_000 + "1",
    "function f() = " + "g(" * 5_000 + ")" * 5_000,
    "function f() = x" + ".a" * 10_000,
    "function f() = " + "if true then 1 else " * 5_000 + "1",
    "procedure p " + CITE + " {" + "loop {" * 10_000 + "}" * 10_000 + "}",
    "procedure p " + CITE + " {" + "if true {" * 10_000 + "}" * 10_000 + "}",
], ids=["parens", "lists", "not", "minus", "calls", "attributes", "if-then-else", "loops", "ifs"])
def test_deep_nesting_is_a_positioned_error(text: str) -> None:
    errors = parse_errors(text)
    assert errors and f"nesting deeper than {MAX_NESTING} levels" in errors[0]


@pytest.mark.parametrize("op", ["+", "-", "*", "and", "or"])
def test_long_operator_chains_count_as_nesting(op: str, tmp_path: Path) -> None:
    value = "true" if op in ("and", "or") else "1"
    # each operator adds a level to the (left-deep) tree the checker and compiler walk
    errors = load_errors(tmp_path, f"function f() = {f' {op} '.join([value] * 5_000)} {CITE}\n")
    assert errors and "nesting deeper" in errors[0]
    fine = f' {op} '.join([value] * (MAX_NESTING // 2))
    assert load_errors(tmp_path, f"function f() = {fine} {CITE}\nprocedure play {CITE} {{ }}\n") == []


def test_too_many_bytes_and_too_many_tokens_are_refused() -> None:
    assert any("larger than" in e for e in parse_errors("#" * (MAX_SOURCE_BYTES + 1)))
    text = "enum e = " + "a, " * MAX_TOKENS + "b"
    errors = parse_errors(text)
    assert errors and f"more than {MAX_TOKENS} tokens" in errors[0]


def test_a_very_long_token_is_quoted_short() -> None:
    errors = parse_errors("x" * 50_000)
    assert errors and len(errors[0]) < 300


def test_functions_that_expand_exponentially_are_refused(tmp_path: Path) -> None:
    # f0 calls f1 twice, f1 calls f2 twice ...: 2**40 nodes once written out
    chain = "".join(f"function f{i}() = f{i + 1}() + f{i + 1}() {CITE}\n" for i in range(40))
    errors = load_errors(tmp_path, chain + f"function f40() = 1 {CITE}\nprocedure play {CITE} {{ let x = f0() }}\n")
    assert errors and all("too large with the functions it calls written out" in e for e in errors)


def test_a_long_chain_of_functions_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    chain = "".join(f"function f{i}() = f{i + 1}() {CITE}\n" for i in range(3_000))
    errors = load_errors(tmp_path, chain + f"function f3000() = 1 {CITE}\nprocedure play {CITE} {{ let x = f0() }}\n")
    assert errors and "function f0 is too large" in errors[0]


def test_functions_nested_to_the_limit_still_load_and_run(tmp_path: Path) -> None:
    # as deep as allowed: each function nests four additions and calls the next one
    body = "1 + (1 + (1 + (1 + {call})))"
    count = (MAX_EXPANDED_DEPTH - 1) // 5  # each function adds five levels, the last one one
    chain = "".join(f"function f{i}() = {body.format(call=f'f{i + 1}()')} {CITE}\n" for i in range(count))
    spec = chain + f"function f{count}() = 1 {CITE}\nvar r = 0\n" \
        f"procedure play {CITE} {{ r = f0() choose by first_player {{ \"done\" {{ }} }} }}\n"
    assert load_errors(tmp_path, spec) == []
    game = load_spec(tmp_path)
    size: dict[str, int] = {}
    depth: dict[str, int] = {}
    for name in _callees_first(game.symbols.functions):
        size[name], depth[name] = _expanded(game.symbols.functions[name].body, size, depth)
    assert MAX_EXPANDED_DEPTH - 10 <= depth["f0"] <= MAX_EXPANDED_DEPTH
    assert game.new_state(2).vals["r"][None] == 4 * count + 1
    # one more function and f0 is refused
    longer = chain + f"function f{count}() = {body.format(call=f'f{count + 1}()')} {CITE}\n" \
        f"function f{count + 1}() = 1 {CITE}\nprocedure play {CITE} {{ let x = f0() }}\n"
    assert any("function f0 is too large" in e for e in load_errors(tmp_path, longer))


def test_a_procedure_that_calls_itself_forever_stops_with_a_rule_error(tmp_path: Path) -> None:
    assert load_errors(tmp_path, f"procedure play {CITE} {{ call play() }}\n") == []
    with pytest.raises(RuleError, match="no decision reached"):
        load_spec(tmp_path).new_state(2)


def test_an_invariant_that_cannot_be_evaluated_is_a_rule_error_naming_it(tmp_path: Path) -> None:
    assert load_errors(tmp_path, f"counter n = 0\ninvariant sane {CITE} holds 1 // n == 1\n"
                                 f"procedure play {CITE} {{ choose by first_player {{ \"a\" {{ }} }} }}\n") == []
    with pytest.raises(RuleError, match="invariant sane cannot be evaluated: ZeroDivisionError") as err:
        load_spec(tmp_path).new_state(2, check_invariants=True)
    assert err.value.citations and err.value.pos.line >= 1


# ------------------------------------------------------------------ fuzzing


@FUZZ
@given(st.text(max_size=400))
def test_arbitrary_text_yields_only_positioned_errors(text: str) -> None:
    parse_errors(text)


KEYWORDS = sorted(set(re.findall(r'"([a-z]+)"', grammar_text())))
SOUP = st.lists(st.sampled_from(KEYWORDS + ["{", "}", "(", ")", "[", "]", ",", ":", "=", "==", "+", "..", ".",
                                            "x", "y", "player", "1", "0", '"s"', "\n", "#c\n"]),
                max_size=120).map(" ".join)


@FUZZ
@given(SOUP)
def test_token_soup_yields_only_positioned_errors(text: str) -> None:
    parse_errors(text)


@FUZZ
@given(SOUP)
def test_token_soup_after_a_valid_header_checks_cleanly(text: str) -> None:
    try:
        files = [parse_text(HEADER + text, "t.rules")]
        from interpreter.checker import check

        check(files, {"t.rules": (HEADER + text).splitlines()})
    except SpecError as err:
        assert_positioned(err)


def _mutate(text: str, data: st.DataObject) -> str:
    """One small random change to spec text: a token or a line deleted, doubled, swapped or replaced."""
    tokens = [m for m in _TOKEN.finditer(text) if not m.group().startswith("#")]
    lines = text.split("\n")
    if not tokens:
        return text + data.draw(st.sampled_from(SPEC_TOKENS))
    kind = data.draw(st.sampled_from(["del-token", "dup-token", "swap-tokens", "replace-token", "del-line",
                                      "dup-line", "swap-lines", "char", "truncate"]))
    if kind.endswith("line") or kind.endswith("lines"):
        i = data.draw(st.integers(0, len(lines) - 1))
        j = data.draw(st.integers(0, len(lines) - 1))
        if kind == "del-line":
            del lines[i]
        elif kind == "dup-line":
            lines.insert(i, lines[i])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == "char":
        at = data.draw(st.integers(0, len(text)))
        return text[:at] + data.draw(st.characters(codec="utf-8")) + text[at:]
    if kind == "truncate":
        return text[:data.draw(st.integers(0, len(text)))]
    m = tokens[data.draw(st.integers(0, len(tokens) - 1))]
    start, end = m.span()
    if kind == "del-token":
        return text[:start] + text[end:]
    if kind == "dup-token":
        return text[:end] + " " + m.group() + text[end:]
    if kind == "replace-token":
        return text[:start] + data.draw(st.sampled_from(SPEC_TOKENS)) + text[end:]
    other = tokens[data.draw(st.integers(0, len(tokens) - 1))]
    a, b = sorted([m, other], key=lambda t: t.start())
    if a.end() > b.start():
        return text
    return text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():]


@pytest.fixture(scope="module")
def spec_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the Rattus spec folder (with its data) to mutate."""
    folder = tmp_path_factory.mktemp("spec") / "rattus"
    shutil.copytree(spec_dir(), folder)
    return folder


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.data())
def test_mutated_rattus_spec_yields_only_spec_or_rule_errors(spec_copy: Path, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(SPEC_FILES)))
    text = SPEC_FILES[name]
    for _ in range(data.draw(st.integers(1, 3))):
        text = _mutate(text, data)
    (spec_copy / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        play_a_little(spec_copy, steps=150)
    finally:
        (spec_copy / name).write_text(SPEC_FILES[name], encoding="utf-8")


def test_the_unmutated_copy_plays(spec_copy: Path) -> None:
    game = load_spec(spec_copy)
    state = game.new_state(4, seed=1, check_invariants=True)
    for i in range(100):
        state.apply_index(i % state.num_legal_actions())
    assert not state.broken_invariants()


# ------------------------------------------------------ no way out of the spec


@pytest.mark.parametrize("file", [
    "../../etc/passwd", "../secret.csv", "data/../../x.csv", "/etc/passwd", "~/x.csv",
    "C:\\Windows\\win.ini", "\\\\server\\share\\x.csv", "..\\x.csv", "",
])
def test_a_table_outside_the_spec_folder_is_refused(tmp_path: Path, file: str) -> None:
    outside = tmp_path / "secret.csv"
    outside.write_text("id\n1\n", encoding="utf-8")
    folder = tmp_path / "spec"
    folder.mkdir()
    escaped = file.replace("\\", "\\\\")
    errors = load_errors(folder, f'table t from "{escaped}" {{ key id: int {CITE} }}\n'
                                 f"procedure play {CITE} {{ }}\n")
    assert errors and errors[0].startswith("table t: ")
    assert "spec's folder" in errors[0] or "empty" in errors[0]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_symbolic_link_out_of_the_spec_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.csv").write_text("id\n1\n", encoding="utf-8")
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "t.csv").symlink_to(tmp_path / "secret.csv")
    errors = load_errors(folder, f'table t from "t.csv" {{ key id: int {CITE} }}\nprocedure play {CITE} {{ }}\n')
    assert errors and "outside the spec's folder" in errors[0]


def test_a_table_inside_the_spec_folder_loads(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "t.csv").write_text("id\n1\n2\n", encoding="utf-8")
    assert load_errors(tmp_path, f'table t from "data/./t.csv" {{ key id: int {CITE} }}\n'
                                 f"procedure play {CITE} {{ }}\n") == []


@pytest.mark.parametrize("call", ["eval(\"1\")", "exec(\"1\")", "open(\"/etc/passwd\")", "__import__(\"os\")",
                                  "compile(\"1\", \"f\", \"eval\")", "getattr(1, \"real\")", "globals()"])
def test_there_is_no_python_to_call(tmp_path: Path, call: str) -> None:
    errors = load_errors(tmp_path, f"var r = 0\nprocedure play {CITE} {{ r = {call} }}\n")
    assert errors and "unknown function" in errors[0]


def test_the_language_has_no_construct_to_import_run_or_read() -> None:
    words = set(re.findall(r'"([a-z_]+)"', grammar_text()))
    for word in ("import", "include", "eval", "exec", "python", "open", "file", "load", "shell", "system"):
        assert word not in words or word == "file", word  # `file` only names a source's seed file
        assert word not in BUILTINS
    # the one file-reading construct is `table ... from "..."`, checked above
    assert '"from" STRING' in grammar_text()


@pytest.mark.parametrize("payload", [
    "' + str(__import__('os').getpid()) + '", "\\' + 1 + \\'", "{r}", "%s%d", "\\n", "\\\"",
])
def test_string_literals_stay_data(tmp_path: Path, payload: str) -> None:
    assert load_errors(tmp_path, f'var r = "{payload}"\nprocedure play {CITE} {{ r = "{payload}" '
                                 f'say "{payload}" choose by first_player {{ "a" {{ }} }} }}\n') == []
    state = load_spec(tmp_path).new_state(2, log=True)
    value = state.vals["r"][None]
    assert isinstance(value, str) and "__import__" not in (state.log or [""])[0].replace(value, "")


@pytest.mark.parametrize("name", ["st", "env", "K0", "lambda", "def", "None", "True", "import", "__class__",
                                  "__builtins__", "__import__", "exec", "yield", "self", "_", "zone_of"])
def test_python_words_are_ordinary_names(tmp_path: Path, name: str) -> None:
    # as a global (a variable) in one spec, as locals (a parameter, an aggregate's and a decision's
    # value) in another: a local may not hide a global name
    as_global = (f"var {name} = 3\nfunction f(w: int) = w + {name} - 2 {CITE}\nvar r = 0\n"
                 f"procedure play {CITE} {{ let x = f({name}) r = sum(k in 1 .. x: k) "
                 f"choose by first_player {{ \"a\" k in 1 .. 2 {{ r = k + {name} - 3 }} }} }}\n")
    as_locals = (f"function f({name}: int) = {name} + 1 {CITE}\nvar r = 0\n"
                 f"procedure play {CITE} {{ let x = f(3) r = sum({name} in 1 .. x: {name}) "
                 f"choose by first_player {{ \"a\" {name} in 1 .. 2 {{ r = {name} }} }} }}\n")
    for where, spec in (("global", as_global), ("locals", as_locals)):
        folder = tmp_path / where
        folder.mkdir()
        assert load_errors(folder, spec) == []
        state = load_spec(folder).new_state(2)
        assert state.vals["r"][None] == 1 + 2 + 3 + 4
        state.apply("a 2")
        assert state.vals["r"][None] == 2


# ------------------------------------------------------ a user's data tables

DATA_FILES = {f.name: f.read_text(encoding="utf-8") for f in sorted((spec_dir() / "data").glob("*.csv"))}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_mangled_data_table_yields_only_positioned_errors(tmp_path_factory: pytest.TempPathFactory,
                                                            data: st.DataObject) -> None:
    folder = tmp_path_factory.mktemp("data")
    name = data.draw(st.sampled_from(sorted(DATA_FILES)))
    lines = DATA_FILES[name].split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        kind = data.draw(st.sampled_from(["delete", "double", "cell", "chars", "huge", "quote", "nul"]))
        if kind == "delete":
            del lines[i]
        elif kind == "double":
            lines.insert(i, lines[i])
        elif kind == "cell":
            cells = lines[i].split(",")
            cells[data.draw(st.integers(0, len(cells) - 1))] = data.draw(st.text(max_size=8))
            lines[i] = ",".join(cells)
        elif kind == "chars":
            lines[i] += data.draw(st.text(max_size=10))
        elif kind == "huge":
            lines[i] += "," + "9" * 200_000
        elif kind == "quote":
            lines[i] = '"' + lines[i]
        else:
            lines[i] = lines[i].replace(",", "\x00,", 1)
    (folder / name).write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
    try:
        game = load_spec(spec_dir(), data=folder)
    except SpecError as err:
        assert_positioned(err)
        return
    try:
        state = game.new_state(2 + len(lines) % 3, seed=1, check_invariants=True)
        for i in range(300):
            if state.is_terminal():
                break
            state.apply_index(i % state.num_legal_actions())
    except RulesError:
        pass


def test_a_field_over_the_csv_size_limit_is_a_positioned_error(tmp_path: Path) -> None:
    (tmp_path / "regions.csv").write_text("region,first_used_with_players,provenance\nAnglia,2," + "x" * 200_000
                                          + "\n", encoding="utf-8")
    with pytest.raises(SpecError, match=r"regions\.csv:.*not readable as CSV: field larger than field limit") as err:
        load_spec(spec_dir(), data=tmp_path)
    assert_positioned(err.value)
