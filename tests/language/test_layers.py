"""The modules of ``interpreter/`` and of ``rattus_rules/`` (and of their subpackages) import each other in
layers, never in a circle; the language never imports the package around it.

Every import counts: at the top, inside a function, and under ``TYPE_CHECKING``.
A module that needs a type of a higher layer takes a protocol of a lower one
(:mod:`interpreter.builtins` takes the checker, code generator and English
renderer as protocols; :mod:`interpreter.compiler` the running state;
:mod:`interpreter.stored` the game loading a stored state).

One exception is allowed, and only for type checking: a state names the game
that made it (``State.game``), and the game makes states, so
:mod:`interpreter.runtime` imports ``Game`` under ``TYPE_CHECKING``.  Many
callers read the whole game through a state, so a protocol there would restate
all of :class:`interpreter.game.Game`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import interpreter

PACKAGE = Path(interpreter.__file__).parent
#: The packages scanned, by dotted name: the language, and the package around it (front door, games, tools).
PACKAGES = {"interpreter": PACKAGE, "rattus_rules": PACKAGE.parent / "rattus_rules"}


#: Imports allowed to close a circle, each only under ``TYPE_CHECKING`` (see above).
TYPE_ONLY_BACK_EDGES = {("interpreter.runtime", "interpreter.game")}


def modules() -> dict[str, Path]:
    """Every module of the package (subpackages too), by dotted name."""
    out = {}
    for prefix, package in PACKAGES.items():
        for path in package.rglob("*.py"):
            parts = path.relative_to(package).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join((prefix, *parts))] = path
    return out


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes inside ``if TYPE_CHECKING:`` blocks."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def _targets(node: ast.Import | ast.ImportFrom, name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of the package an import statement in module ``name`` reaches."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in known}
    if node.level:
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = package + (f".{node.module}" if node.module else "")
    else:
        base = node.module or ""
    if base not in known:
        return set()
    return {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}


def imports(allowed: set[tuple[str, str]] | None = None) -> dict[str, set[str]]:
    """Every module of the package and the modules of the package it imports (leaving out
    the ``allowed`` edges where they are imported for type checking only)."""
    known = modules()
    found: dict[str, set[str]] = {}
    for name, path in sorted(known.items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        type_only = _type_only(tree)
        found[name] = set()
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for target in _targets(node, name, path, known) - {name}:
                if not (allowed and (name, target) in allowed and id(node) in type_only):
                    found[name].add(target)
    return found


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports, if there is any."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_the_language_and_the_package_have_no_import_circle() -> None:
    found = cycle(imports(TYPE_ONLY_BACK_EDGES))
    assert found is None, "import circle: " + " -> ".join(found or [])


def test_the_allowed_back_edges_are_still_needed_and_type_only() -> None:
    everything = imports()
    for module, target in TYPE_ONLY_BACK_EDGES:
        assert target in everything[module], f"{module} no longer imports {target}: drop the exception"
    graph = imports(TYPE_ONLY_BACK_EDGES)
    assert all(target not in graph[module] for module, target in TYPE_ONLY_BACK_EDGES)


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_the_import_scan_sees_imports_under_type_checking_and_in_functions() -> None:
    graph = imports()
    assert {"interpreter.ast", "interpreter.treejson"} <= graph["interpreter.parser"]
    assert "interpreter.errors" in graph["interpreter.checker"]
    assert "interpreter.game" in graph["interpreter.runtime"]  # under TYPE_CHECKING
    assert "rattus_rules.tools.docs.lexer" in graph["rattus_rules.tools.docs.refgen"]  # inside a function
    assert "interpreter.game" in graph["interpreter"]  # the package's face
    assert "rattus_rules.games" in graph["rattus_rules.paths"]
    assert "rattus_rules.api" in graph["rattus_rules.commands.common"]  # a relative import two levels up


def test_the_language_never_imports_the_package() -> None:
    graph = imports()
    for name, targets in graph.items():
        if name.split(".")[0] == "interpreter":
            assert not any(t.split(".")[0] == "rattus_rules" for t in targets), name


def test_no_tool_imports_a_games_own_package() -> None:
    """The registry, the API and the tools and algorithms for any game learn what only a game knows through
    the registry's hooks, never by importing the game's package (``rattus_rules/games/<game>/``)."""
    graph = imports()
    for name, targets in graph.items():
        if name.split(".")[:2] in (["rattus_rules", "tools"], ["rattus_rules", "algorithms"]) \
                or name in ("rattus_rules.games", "rattus_rules.api", "rattus_rules.paths"):
            assert not [t for t in targets if t.startswith("rattus_rules.games.")], name
    assert "rattus_rules.games.rattus.faces" in graph["rattus_rules.games.rattus"]  # the scan sees a game's package


def test_nothing_below_the_front_door_imports_it() -> None:
    """The tools, the algorithms, the registry, every game's package and the API never import the command
    line (``rattus_rules/cli.py``, ``rattus_rules/commands/``): what a command shares with a game's own
    command or a tool (exit codes, the usage error, the rules options) lives in
    :mod:`rattus_rules.tools.cmdline`, and the command line documents itself
    (:func:`rattus_rules.cli.reference_rst`)."""
    graph = imports()
    layers = (["rattus_rules", "tools"], ["rattus_rules", "algorithms"], ["rattus_rules", "games"])
    below = [name for name in graph
             if name.split(".")[:2] in layers or name in ("rattus_rules.api", "rattus_rules.paths")]
    assert "rattus_rules.games.rattus.render_command" in below and "rattus_rules.tools.bench.benchmark" in below
    for name in below:
        upward = sorted(t for t in graph[name] if t == "rattus_rules.cli" or t.startswith("rattus_rules.commands"))
        assert not upward, f"{name} imports the command line: {', '.join(upward)}"
