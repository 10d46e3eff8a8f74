"""The language (interpreter/ and its tools) knows no game: no import of a game's package, no game's words.

Whatever a tool needs to know about a game comes in as a parameter or through the
registry's hooks (rattus_rules.games.GameHooks); see docs/contributing.md.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import interpreter

PACKAGE = Path(interpreter.__file__).parent
#: The tools that came with the language (formerly ``interpreter/tools/``), now in ``rattus_rules/tools/``.
TOOLS = sorted(PACKAGE.parent / "rattus_rules" / "tools" / name for name in (
    "__init__.py", "perft.py", "scenario.py", "docs/englishpage.py", "docs/lexer.py", "docs/refgen.py", "docs/rst.py",
    "records/recordformat.py", "records/walk.py", "views/textview.py", "views/picture.py"))
#: Words of Rattus that must not appear in the tools, even in comments and examples.  A piece's face
#: is not one of them: face up, face down, and the face that tells pieces apart for the players (how
#: records write pieces, rattus_rules/tools/records/walk.py) belong to any game of hidden pieces.
#: Their dotted names: the language's tests and the tools themselves may import these, and no other module of
#: the package that holds them (rattus_rules, whose other modules hold a game's words).
TOOL_MODULES = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__") for p in TOOLS}
#: The page shell every browser page shares (its CSS asset and element ids carry the product's name, no game's
#: words): the picture renderer may use its escaping.
TOOL_MODULES |= {"rattus_rules.tools.views.webpage"}


def game_packages(imported: list[str]) -> list[str]:
    """The imported modules that belong to a game's package: rattus_rules, but for the tools listed above (and
    the folders that hold them)."""
    return [name for name in imported if name.split(".")[0] == "rattus_rules"
            and not (name.startswith("rattus_rules.tools")
                     and any(m == name or m.startswith(name + ".") for m in TOOL_MODULES))]


GAME_WORDS = re.compile(r"\b(rattus|regions?|cards?|rats?|plague|cubes?|castle|board)\b", re.IGNORECASE)


@pytest.mark.parametrize("path", TOOLS, ids=lambda p: p.name)
def test_a_tool_names_no_game(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not [m.group() for m in GAME_WORDS.finditer(text)], path.name


#: The core may speak of a piece's face (a generic notion: face up, face down) and of a board game.
CORE_WORDS = re.compile(r"\b(rattus|regions?|cards?|rats?|plague|cubes?|castle)\b", re.IGNORECASE)


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")) + [PACKAGE / "grammar.lark"], ids=lambda p: p.name)
def test_the_core_names_no_game(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not [m.group() for m in CORE_WORDS.finditer(text)], path.name


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")) + TOOLS,
                         ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_the_language_imports_no_game_package(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imported += [absolute(n, path) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not game_packages(imported), path


def absolute(node: ast.ImportFrom, path: Path) -> str:
    """The dotted name of the module an import statement in the file ``path`` imports from."""
    if not node.level:
        return node.module or ""
    package = list(path.relative_to(PACKAGE.parent).parts[:-1])
    package = package[:len(package) - node.level + 1]
    return ".".join(package + ([node.module] if node.module else []))


LANGUAGE_TESTS = Path(__file__).resolve().parent
#: The language tests that may use the game registry, the command line and the referee (on toy games).
REGISTRY_TESTS = {"test_games.py", "test_referee_hostile.py"}


@pytest.mark.parametrize("path", sorted(p for p in LANGUAGE_TESTS.glob("test_*.py") if p.name not in REGISTRY_TESTS),
                         ids=lambda p: p.name)
def test_the_language_tests_play_no_game_of_the_project(path: Path) -> None:
    """tests/language/ tests the language on toy games, not through Rattus's package (its spec, its
    paths): Rattus's tests are in tests/rattus/."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imported += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0]
    assert not game_packages(imported), path.name
