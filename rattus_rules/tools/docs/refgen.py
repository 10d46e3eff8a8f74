"""Reference pages of the rules language generated from the code: the grammar (with each
construct's shortest use in a spec, read out in English), the keywords and the builtins.

>>> rules = grammar_rules()
>>> rules["rule_stmt"].doc
'A named rule with its citations, around the steps that carry it out.'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, get_args

import attrs

from interpreter import Game
from interpreter import ast as A
from interpreter.builtins import BUILTINS, SPECIAL_NAMES
from interpreter.english import English, Vocabulary, child_blocks
from interpreter.parser import grammar_nodes, grammar_text

from .rst import RstMarkup, esc, heading, indent, label, list_table, literal, steps_rst

# ------------------------------------------------------------------ grammar


@attrs.frozen
class GrammarRule:
    """One rule of the grammar: its name, its `//:` documentation, its text and its part."""

    name: str
    doc: str
    text: str
    part: str


_RULE_START = re.compile(r"^[?!]?([a-z_]+)\s*:")
_PART = re.compile(r"^//\s*-+\s*(\w+)")


def grammar_rules(text: str | None = None) -> dict[str, GrammarRule]:
    """The rules of the grammar in order, with the `//:` lines above each."""
    lines = (grammar_text() if text is None else text).splitlines()
    rules: dict[str, GrammarRule] = {}
    doc: list[str] = []
    part = "declarations"
    i = 0
    while i < len(lines):
        line = lines[i]
        m_part = _PART.match(line)
        if m_part:
            part = m_part.group(1)
        if line.startswith("//:"):
            doc.append(line[3:].strip())
            i += 1
            continue
        m = _RULE_START.match(line)
        if m:
            body = [line.rstrip()]
            i += 1
            while i < len(lines) and lines[i].startswith((" ", "\t")) and lines[i].strip():
                body.append(lines[i].rstrip())
                i += 1
            rules[m.group(1)] = GrammarRule(m.group(1), " ".join(doc), "\n".join(body), part)
            doc = []
            continue
        doc = []
        i += 1
    return rules


def _doc_rst(doc: str) -> str:
    """A `//:` line as reStructuredText: `code` becomes a literal."""
    parts = re.split(r"`([^`]*)`", doc)
    return "".join(literal(p) if i % 2 else esc(p) for i, p in enumerate(parts))


def _node_test(rule: str, cls: type[Any], made_by: dict[type[Any], list[str]]) -> Callable[[Any], bool]:
    """Which nodes of a class a rule made: all, or (where several rules make the class) those whose
    ``kind`` is the rule's first word."""
    if len(made_by[cls]) == 1:
        return lambda node: True
    kind = rule.split("_")[0]
    return lambda node: bool(node.kind == kind)


def _grammar_nodes() -> dict[str, tuple[type[Any], Callable[[Any], bool]]]:
    made = grammar_nodes()
    made_by: dict[type[Any], list[str]] = {}
    for rule, cls in made.items():
        made_by.setdefault(cls, []).append(rule)
    order = list(grammar_rules())
    return {rule: (made[rule], _node_test(rule, made[rule], made_by))
            for rule in sorted(made, key=lambda r: order.index(r) if r in order else len(order))}


#: The syntax-tree node each grammar rule makes, with a test on it where one class serves two rules
#: (derived from the parser: :func:`interpreter.parser.grammar_nodes`).
GRAMMAR_NODES: dict[str, tuple[type[Any], Callable[[Any], bool]]] = _grammar_nodes()

_EXAMPLE_LINES = 14


def _nodes(game: Game) -> Iterator[Any]:
    """Every declaration and statement of a spec."""
    for f in game.checked.files:
        for d in f.declarations:
            yield d
            if isinstance(d, A.ProcedureDecl):
                stack = [d.body]
                while stack:
                    block = stack.pop()
                    for st in block.statements:
                        yield st
                        stack.extend(child_blocks(st))


def spec_example(game: Game, rule: str) -> tuple[Any, list[str]] | None:
    """The shortest use of a grammar rule in a spec: its node and its text (None if unused or too long)."""
    kind = GRAMMAR_NODES.get(rule)
    if kind is None:
        return None
    cls, test = kind
    best: tuple[int, int, Any] | None = None
    for order, node in enumerate(_nodes(game)):
        if isinstance(node, cls) and test(node):
            pos = node.pos
            size = (pos.end_line or pos.line) - pos.line + 1
            if best is None or (size, order) < best[:2]:
                best = (size, order, node)
    if best is None or best[0] > _EXAMPLE_LINES:
        return None
    node = best[2]
    lines = game.texts.get(node.pos.path, [])[node.pos.line - 1:(node.pos.end_line or node.pos.line)]
    if not lines:
        return None
    lines = [lines[0][node.pos.column - 1:], *lines[1:]]
    if node.pos.end_line == node.pos.line and node.pos.end_column:
        lines = [lines[0][:node.pos.end_column - node.pos.column]]
    elif node.pos.end_column:
        lines[-1] = lines[-1][:node.pos.end_column - 1]
    pad = node.pos.column - 1
    return node, [lines[0], *[x[pad:] if not x[:pad].strip() else x.lstrip() for x in lines[1:]]]


def _example_rst(game: Game, english: English, rule: str) -> list[str]:
    found = spec_example(game, rule)
    if found is None:
        return []
    node, text = found
    out = [f"In the spec ({literal(f'{node.pos.path}:{node.pos.line}')}):", "", ".. code-block:: rules", "",
           *indent(text, 3), ""]
    if isinstance(node, (A.ProcedureDecl, A.Say)):
        return out
    if isinstance(node, A.FunctionDecl):
        reading = [english.function(node), ""]
    elif isinstance(node, get_args(A.Declaration)):
        reading = [english.declaration(node), ""]
    else:
        if isinstance(node, (A.Choose, A.Chance)):
            english.begin_procedure("")
        step = english.statement(node)
        reading = steps_rst([step], targets=False) if step is not None else []
    return out + (["which the rulebook reads as:", "", *reading] if reading else [])


def language_rst(game: Game | None = None, vocabulary: Vocabulary | None = None) -> str:
    """The language reference: each documented grammar rule with its shortest use in the spec and that
    use in English (in the game's ``vocabulary``), by part, then the helper rules."""
    english = English(game.checked, vocabulary, RstMarkup(set())) if game is not None else None
    rules = grammar_rules()
    out: list[str] = []
    parts: dict[str, list[GrammarRule]] = {}
    for r in rules.values():
        parts.setdefault(r.part, []).append(r)
    titles = {"declarations": "Declarations", "statements": "Statements", "expressions": "Expressions",
              "tokens": "Tokens"}
    for part, members in parts.items():
        out += heading(titles.get(part, part.title()), "-")
        documented = [r for r in members if r.doc]
        helpers = [r for r in members if not r.doc]
        for r in documented:
            out += [f".. _{label('grammar:' + r.name)}:", ""]
            out += heading(r.name, "~")
            out += [_doc_rst(r.doc), "", ".. code-block:: text", "", *indent(r.text.splitlines(), 3), ""]
            if game is not None and english is not None:
                out += _example_rst(game, english, r.name)
        if helpers:
            out += ["Further rules of this part:", "", ".. code-block:: text", ""]
            for r in helpers:
                out += indent(r.text.splitlines(), 3)
            out.append("")
    return "\n".join(out) + "\n"


def keywords_rst(game: Game | None = None) -> str:
    """Every keyword of the language, from the grammar."""
    from .lexer import grammar_keywords

    return ", ".join(literal(k) for k in grammar_keywords()) + "\n"


def builtins_rst(game: Game | None = None) -> str:
    """The builtin functions and the names every spec can use."""
    rows = []
    for b in BUILTINS.values():
        letters = "abc"[:b.arity]
        args = "; ".join(f"{literal(x)}: {esc(what)}" for x, what in zip(letters, b.params))
        rows.append([literal(f"{b.name}({', '.join(letters)})"), args, esc(b.returns), esc(b.doc)])
    out = heading("Builtin functions", "~") + list_table(["function", "arguments", "gives", "what it gives"],
                                                           rows, [20, 30, 15, 35])
    rows = [[literal(n.name), literal(str(n.type)), esc(n.doc)] for n in SPECIAL_NAMES.values()]
    out += heading("Names every spec can use", "~") + list_table(["name", "type", "meaning"], rows, [25, 20, 55])
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------- API


def modules(package: str) -> list[str]:
    """Every module of a package, the package first (``__main__`` left out)."""
    import importlib
    import pkgutil

    pkg = importlib.import_module(package)
    names = [package]
    for info in pkgutil.walk_packages(pkg.__path__, package + "."):
        if not info.name.endswith("__main__"):
            names.append(info.name)
    return names


#: Each generated reference part of the language: name → function.
PAGES: dict[str, Callable[[Game], str]] = {
    "language": language_rst,
    "keywords": keywords_rst,
    "builtins": builtins_rst,
}
