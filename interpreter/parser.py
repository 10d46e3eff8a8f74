"""Spec text to syntax tree: Lark (LALR) parses, :mod:`.builder` builds `ast` nodes; a file parsed before
is read back from the cache (:func:`parse_file`), and then neither Lark nor the builder is imported.

Every failure is a :class:`SpecError` with ``path:line:col``; no Lark or
Python exception escapes.  Very large or very deeply nested input is refused
with a positioned error instead of exhausting memory or the Python stack.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import lark

from . import ast as A
from . import cache, treejson
from .errors import Diagnostic, SpecError
from .files import read_bytes, read_text, why_unread

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
MAX_SOURCE_BYTES = 1_000_000
#: More tokens than this in one file is refused before parsing (a real spec file
#: has a few thousand); it bounds the parse time of hostile input to seconds.
MAX_TOKENS = 50_000
_ROUGH_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|\w+|\S')

_TOKEN_NAMES = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "LBRACE": '"{"',
    "RBRACE": '"}"',
    "LPAR": '"("',
    "RPAR": '")"',
    "LSQB": '"["',
    "RSQB": '"]"',
    "COMMA": '","',
    "COLON": '":"',
    "EQUAL": '"="',
    "$END": "the end of the file",
}


_LARK_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "contextual",
    "propagate_positions": True,
    "maybe_placeholders": False,
}


#: The parser built from the grammar, shipped beside it as JSON so that no load
#: need build the LALR tables (``make parser`` rewrites it).  JSON, not Lark's
#: own pickle: nothing in it runs when it is read.
SHIPPED_PARSER_PATH = GRAMMAR_PATH.with_name("grammar.lalr.json")
#: The shipped parser is never larger than this.
MAX_SHIPPED_PARSER_BYTES = 4_000_000


def _shipped_key(grammar: str) -> str:
    """What the shipped parser was built from: grammar, options and Lark's version."""
    import lark

    made_from = "\n".join((grammar, repr(sorted(_LARK_OPTIONS.items())), lark.__version__))
    return hashlib.sha256(made_from.encode("utf-8")).hexdigest()


def _read_shipped() -> dict[str, Any] | None:
    """The shipped parser file as JSON data (int-keyed tables restored), or None."""
    try:
        data = read_bytes(SHIPPED_PARSER_PATH, MAX_SHIPPED_PARSER_BYTES)
        found = json.loads(data.decode("utf-8"), object_hook=_int_keys)
    except (OSError, ValueError, RecursionError):
        return None
    return found if isinstance(found, dict) else None


def shipped_parser(grammar: str) -> lark.Lark | None:
    """The shipped parser if it was built from this grammar with this Lark, else None."""
    import lark

    found = _read_shipped()
    if found is None or found.get("made_from") != _shipped_key(grammar):
        return None
    try:
        loaded = lark.Lark._load_from_dict(found["data"], found["memo"])  # type: ignore[no-untyped-call]
        return cast(lark.Lark, loaded)
    except Exception:  # damaged: build it instead
        return None


def shipped_parser_lark_version() -> str:
    """The Lark version the shipped parser was built with ("" if there is none)."""
    found = _read_shipped()
    version = found.get("lark") if found is not None else None
    return version if isinstance(version, str) else ""


def _with_int_keys(value: Any) -> Any:
    """Lark's serialized parser as JSON: a dict with number keys becomes ``{"#": [[k, v], ...]}``."""
    if isinstance(value, dict):
        if value and all(isinstance(k, int) for k in value):
            return {"#": [[k, _with_int_keys(v)] for k, v in value.items()]}
        return {str(k): _with_int_keys(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_with_int_keys(v) for v in value]
    return value


def _int_keys(obj: dict[str, Any]) -> Any:
    """Undo :func:`_with_int_keys` while reading the JSON."""
    if len(obj) == 1 and "#" in obj:
        pairs = obj["#"]
        if not (isinstance(pairs, list) and all(isinstance(p, list) and len(p) == 2 and type(p[0]) is int
                                                for p in pairs)):
            raise ValueError("damaged table")
        return dict(pairs)
    return obj


def write_shipped_parser() -> Path:
    """Build the parser from the grammar and store it (as JSON) beside the grammar."""
    import lark
    import lark.grammar
    import lark.lexer

    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    parser = lark.Lark(grammar, **_LARK_OPTIONS)
    data, memo = parser.memo_serialize([lark.lexer.TerminalDef, lark.grammar.Rule])
    shipped = {"made_from": _shipped_key(grammar), "lark": lark.__version__,
               "data": _with_int_keys(data), "memo": _with_int_keys(memo)}
    text = json.dumps(shipped, separators=(",", ":"))
    SHIPPED_PARSER_PATH.write_text(text + "\n", encoding="utf-8")
    return SHIPPED_PARSER_PATH


@functools.lru_cache(maxsize=1)
def _lark() -> lark.Lark:
    # Building the LALR tables takes longer than parsing a whole spec: use the
    # parser shipped beside the grammar if it is current, else build it (a
    # built parser is not kept on disk: see interpreter.cache).
    import lark

    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    shipped = shipped_parser(grammar)
    if shipped is not None:
        return shipped
    return lark.Lark(grammar, **_LARK_OPTIONS)


def grammar_text() -> str:
    """The grammar source, for documentation."""
    return GRAMMAR_PATH.read_text(encoding="utf-8")


@functools.cache
def terminal_pattern(name: str) -> str:
    """The regular expression of a terminal the grammar writes as ``NAME: /regex/`` (``STRING``,
    ``COMMENT``, ...); KeyError if it has none such."""
    found = re.search(rf"^{re.escape(name)}: /(.*)/$", grammar_text(), re.M)
    if found is None:
        raise KeyError(f"the grammar has no terminal {name} written as a regular expression")
    return found.group(1)


def _describe(expected: set[str]) -> str:
    names = sorted({_TOKEN_NAMES.get(t, _keyword(t)) for t in expected})
    if len(names) > 8:
        names = names[:8] + ["..."]
    return ", ".join(names)


def _keyword(terminal: str) -> str:
    try:
        pattern = _lark().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    value = pattern.value
    return f'"{value}"' if isinstance(value, str) else terminal


def parse_text(text: str, path: str = "<spec>") -> A.SpecFile:
    """Parse one spec file's text; raise :class:`SpecError` on any problem."""
    import lark

    from .builder import build_spec, shorten

    lines = text.splitlines()

    def line_of(n: int) -> str:
        return lines[n - 1] if 0 < n <= len(lines) else ""

    if len(text.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        raise SpecError(
            [Diagnostic(A.Pos(path, 1, 1), f"spec file is larger than {MAX_SOURCE_BYTES} bytes")]
        )
    too_many = _token_limit(text, path)
    if too_many is not None:
        raise SpecError([Diagnostic(too_many, f"spec file has more than {MAX_TOKENS} tokens",
                                    line_of(too_many.line))])
    try:
        tree = _lark().parse(text)
    except lark.exceptions.UnexpectedCharacters as err:
        pos = A.Pos(path, err.line or 1, err.column or 1)
        at = err.pos_in_stream or 0
        char = text[at] if 0 <= at < len(text) else "?"
        msg = f"unexpected character {char!r}"
        raise SpecError([Diagnostic(pos, msg, line_of(pos.line))]) from None
    except lark.exceptions.UnexpectedToken as err:
        token = err.token
        if token.type == "$END":
            line = max(len(lines), 1)
            pos = A.Pos(path, line, len(line_of(line)) + 1)
            found = "the end of the file"
        else:
            pos = A.Pos(path, token.line or 1, token.column or 1)
            found = repr(shorten(str(token)))
        msg = f"unexpected {found}; expected {_describe(set(err.expected))}"
        raise SpecError([Diagnostic(pos, msg, line_of(pos.line))]) from None
    except lark.exceptions.UnexpectedEOF as err:
        line = max(len(lines), 1)
        pos = A.Pos(path, line, len(line_of(line)) + 1)
        msg = f"unexpected end of file; expected {_describe(set(err.expected))}"
        raise SpecError([Diagnostic(pos, msg, line_of(line))]) from None
    except (lark.exceptions.LarkError, RecursionError, UnicodeError) as err:
        raise SpecError([Diagnostic(A.Pos(path, 1, 1), f"cannot parse: {err}")]) from None
    return build_spec(tree, path, line_of)


def _token_limit(text: str, path: str) -> A.Pos | None:
    """The position of the first token beyond :data:`MAX_TOKENS` (counted roughly), if any."""
    count = 0
    for match in _ROUGH_TOKEN.finditer(text):
        if match.group().startswith("#"):
            continue
        count += 1
        if count > MAX_TOKENS:
            at = match.start()
            line = text.count("\n", 0, at) + 1
            return A.Pos(path, line, at - (text.rfind("\n", 0, at) + 1) + 1)
    return None


def parse_file(path: Path, display: str | None = None) -> A.SpecFile:
    """Read and parse a spec file; unreadable files are a positioned error too."""
    shown = display or str(path)
    try:
        text = read_text(path, MAX_SOURCE_BYTES)
    except (OSError, ValueError) as err:
        raise SpecError([Diagnostic(A.Pos(shown, 1, 1), f"cannot read spec file: {why_unread(err)}")]) from None
    # A file parsed before (same text, same name, same parser) is read back from the cache.
    return cache.cached("ast", cache.digest(_parser_digest(), shown, text), lambda: parse_text(text, shown),
                        encode=treejson.encode, decode=treejson.decode_spec_file)


@functools.lru_cache(maxsize=1)
def _parser_digest() -> str:
    """A digest of everything that decides how text becomes a syntax tree."""
    here = Path(__file__).parent
    return cache.digest(*(p.read_bytes() for p in (GRAMMAR_PATH, here / "parser.py", here / "builder.py",
                                                    here / "ast.py", here / "treejson.py")),
                        _lark_version())


def _lark_version() -> str:
    """The installed Lark's version, read from its package without importing it (a load from the cache
    imports no Lark): the text of the ``__init__.py`` that declares ``__version__``."""
    found = importlib.util.find_spec("lark")
    origin = found.origin if found is not None else None
    if origin is None:
        return "no lark"
    try:
        return Path(origin).read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        return f"lark unreadable: {err}"


def grammar_nodes() -> dict[str, type[A.Declaration | A.Stmt]]:
    """The syntax-tree class each grammar rule of a declaration or statement makes, by rule name
    (:func:`interpreter.builder.grammar_nodes`)."""
    from .builder import grammar_nodes as nodes

    return nodes()
