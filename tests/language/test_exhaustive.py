"""Every kind of syntax node is handled by every pass, and a forgotten one fails in mypy.

The passes over the tree dispatch with ``match`` on the closed unions of
``interpreter/ast.py`` and end in ``assert_never``, so ``mypy --strict`` (run by
``make typecheck``) refuses a pass that misses a kind.  These tests keep that
net in place: every node class belongs to its union, every statement and
declaration comes from the grammar, and no pass falls back to looking handlers
up by name.
"""

from __future__ import annotations

import ast as pyast
import inspect
import textwrap
from typing import Any, get_args

import attrs
import pytest

from interpreter import ast as A
from interpreter import checker, codegen, compiler, english, stored
from interpreter.parser import grammar_nodes
from rattus_rules.tools.docs import refgen
from rattus_rules.tools.docs.refgen import GRAMMAR_NODES, grammar_rules

#: Nodes that are parts of other nodes, not kinds a pass dispatches on.
PARTS = {A.Pos, A.Citation, A.Block, A.Binding, A.Option, A.Column, A.SwitchOption, A.SpecFile, A.Param,
         A.TextSection, A.PicturePart, A.PictureClick}

UNIONS = {"Expr": A.Expr, "Stmt": A.Stmt, "Declaration": A.Declaration}

#: Each pass over a union of node kinds: (function, the union it dispatches on).
PASSES: list[tuple[Any, Any]] = [
    (A.child_blocks, A.Stmt),
    (checker.Checker.collect, A.Declaration),
    (checker.Checker.declaration, A.Declaration),
    (checker.Checker.statement, A.Stmt),
    (checker.Checker._expr, A.Expr),
    (codegen.PyGen.expr, A.Expr),
    (compiler.ProcedureCompiler.layout, A.Stmt),
    (compiler.ProcedureCompiler.stop_block, A.Stmt),
    (compiler.ProcedureCompiler.py_statement, A.Stmt),
    (english.English.expr, A.Expr),
    (english.English.statement, A.Stmt),
    (english.English.declaration, A.Declaration),
    (stored.procedure_locals, A.Stmt),
    (stored.local_types, A.Stmt),
]


def node_classes() -> set[type[Any]]:
    return {v for v in vars(A).values() if isinstance(v, type) and attrs.has(v) and v.__module__ == A.__name__}


def test_every_node_class_is_a_member_of_exactly_one_union() -> None:
    members = {name: set(get_args(union)) for name, union in UNIONS.items()}
    for cls in node_classes() - PARTS:
        owners = [name for name, m in members.items() if cls in m]
        assert len(owners) == 1, f"{cls.__name__} belongs to {owners or 'no union'}: add it to one in ast.py"
    assert node_classes() >= PARTS


def test_every_statement_and_declaration_comes_from_a_grammar_rule() -> None:
    made = set(grammar_nodes().values())
    for union in (A.Stmt, A.Declaration):
        missing = set(get_args(union)) - made
        assert not missing, f"no grammar rule makes {sorted(c.__name__ for c in missing)}"
    assert set(GRAMMAR_NODES) == set(grammar_nodes()) and set(GRAMMAR_NODES) <= set(grammar_rules())


def _match_cases(fn: Any) -> tuple[set[str], bool]:
    """The class names a function's `match` statements name, and whether one ends in assert_never."""
    tree = pyast.parse(textwrap.dedent(inspect.getsource(fn)))
    names: set[str] = set()
    ends = False
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Match):
            for case in node.cases:
                for pat in pyast.walk(case.pattern):
                    if isinstance(pat, pyast.MatchClass):
                        names.add(pyast.unparse(pat.cls).split(".")[-1])
            last = node.cases[-1]
            ends = ends or (isinstance(last.pattern, pyast.MatchAs) and last.pattern.pattern is None
                            and "assert_never(" in pyast.unparse(last.body[0]))
    return names, ends


@pytest.mark.parametrize("fn, union", PASSES, ids=[f.__qualname__ for f, _ in PASSES])
def test_each_pass_names_every_kind_and_ends_in_assert_never(fn: Any, union: Any) -> None:
    names, ends = _match_cases(fn)
    assert ends, f"{fn.__qualname__} must end its match in `case _: assert_never(...)`"
    missing = {c.__name__ for c in get_args(union)} - names
    assert not missing, f"{fn.__qualname__} has no case for {sorted(missing)}"


@pytest.mark.parametrize("module", [checker, codegen, compiler, english, stored, refgen])
def test_no_pass_looks_handlers_up_by_name(module: Any) -> None:
    src = inspect.getsource(module)
    assert 'getattr(self, "' not in src and "getattr(self, '" not in src
    assert "__args__" not in src
