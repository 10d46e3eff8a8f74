"""Every public function, class and method of ``interpreter/`` and ``rattus_rules/`` has a docstring.

Public means a name not starting with ``_``, at the top level of a module or in a
public class (properties and protocol members included).  Left out: dunder
methods, ``@overload`` stubs, property setters and deleters, functions nested in
functions, and a method that overrides a method of a base class defined in the
same packages which has a docstring (a visitor method whose base documents it).
A handler such as ``Checker.decl_x`` overrides nothing and so needs a line
saying which syntax it handles.

Run as a script to list what is missing: ``python tests/language/test_docstrings.py``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from pathlib import Path

import interpreter

#: The source tree, and its packages read as text (the game package is read, never imported: the
#: language tests play no game of the project).
ROOT = Path(interpreter.__file__).resolve().parent.parent
PACKAGES = [ROOT / "interpreter", ROOT / "rattus_rules"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _decorator_names(node: Function | ast.ClassDef) -> set[str]:
    """The last dotted part of each decorator (``overload``, ``setter``, ...)."""
    out = set()
    for d in node.decorator_list:
        d = d.func if isinstance(d, ast.Call) else d
        if isinstance(d, ast.Attribute):
            out.add(d.attr)
        elif isinstance(d, ast.Name):
            out.add(d.id)
    return out


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a module body, looking into ``if`` and ``try`` blocks."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            yield from _top_level(stmt.body)
            yield from _top_level(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, stmt.orelse, stmt.finalbody, *(h.body for h in stmt.handlers)):
                yield from _top_level(block)
        else:
            yield stmt


def _base_name(expr: ast.expr) -> str | None:
    """The simple name of a base class expression (``a.B`` and ``B[T]`` give ``B``)."""
    if isinstance(expr, ast.Subscript):
        expr = expr.value
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return None


def modules(packages: Sequence[Path]) -> dict[Path, ast.Module]:
    """Every module of the packages (subpackages too), parsed, by path."""
    return {
        path: ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for package in packages
        for path in sorted(package.rglob("*.py"))
    }


def _classes(trees: dict[Path, ast.Module]) -> dict[str, list[ast.ClassDef]]:
    """Every class defined anywhere in the packages, by simple name."""
    out: dict[str, list[ast.ClassDef]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                out.setdefault(node.name, []).append(node)
    return out


def _documented_in_bases(cls: ast.ClassDef, name: str, classes: dict[str, list[ast.ClassDef]], seen: set[str]) -> bool:
    """Whether a base of ``cls`` defined in the packages (at any depth) documents a method ``name``."""
    for base in cls.bases:
        base_name = _base_name(base)
        if base_name is None or base_name in seen:
            continue
        seen.add(base_name)
        for base_cls in classes.get(base_name, []):
            for item in base_cls.body:
                if isinstance(item, Function) and item.name == name and ast.get_docstring(item):
                    return True
            if _documented_in_bases(base_cls, name, classes, seen):
                return True
    return False


def undocumented(packages: Sequence[Path] = PACKAGES, root: Path = ROOT) -> list[str]:
    """``path:line: qualified name`` of every public function, class and method without a docstring."""
    trees = modules(packages)
    classes = _classes(trees)
    missing: list[str] = []

    def visit_class(path: Path, cls: ast.ClassDef, prefix: str) -> None:
        qualname = f"{prefix}{cls.name}"
        if not ast.get_docstring(cls):
            missing.append(f"{path.relative_to(root)}:{cls.lineno}: {qualname}")
        for item in cls.body:
            if isinstance(item, ast.ClassDef) and not item.name.startswith("_"):
                visit_class(path, item, f"{qualname}.")
            elif isinstance(item, Function):
                if item.name.startswith("_") or ast.get_docstring(item):
                    continue
                if _decorator_names(item) & {"overload", "setter", "deleter"}:
                    continue
                if _documented_in_bases(cls, item.name, classes, set()):
                    continue
                missing.append(f"{path.relative_to(root)}:{item.lineno}: {qualname}.{item.name}")

    for path, tree in trees.items():
        for stmt in _top_level(tree.body):
            if isinstance(stmt, ast.ClassDef) and not stmt.name.startswith("_"):
                visit_class(path, stmt, "")
            elif (isinstance(stmt, Function) and not stmt.name.startswith("_") and not ast.get_docstring(stmt)
                  and "overload" not in _decorator_names(stmt)):
                missing.append(f"{path.relative_to(root)}:{stmt.lineno}: {stmt.name}")
    return missing


def test_every_public_function_class_and_method_has_a_docstring() -> None:
    missing = undocumented()
    assert not missing, "public names without a docstring:\n" + "\n".join(missing)


def test_the_scan_finds_a_missing_docstring_and_honours_the_skips(tmp_path: Path) -> None:
    source = '''
class Base:
    """A base."""
    def visit(self):
        """Documented here."""

class Open(Base):
    def visit(self): ...
    def handler(self): ...
    def __init__(self): ...
    def _private(self): ...
    @property
    def size(self): ...
    @size.setter
    def size(self, value): ...

class _Hidden:
    def method(self): ...

def bare(): ...

def nested():
    """Documented."""
    def inner(): ...

class Typed(Protocol):
    """A protocol: its members count."""
    @property
    def member(self) -> int: ...
    @overload
    def one(self, x: int) -> int: ...
    def one(self, x):
        """Documented once, not per overload."""
'''
    (tmp_path / "sample.py").write_text(source, encoding="utf-8")
    found = undocumented([tmp_path], tmp_path)
    assert [line.split(": ")[1] for line in found] == ["Open", "Open.handler", "Open.size", "bare", "Typed.member"]


if __name__ == "__main__":
    print("\n".join(undocumented()))
