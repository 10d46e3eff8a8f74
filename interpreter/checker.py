"""The checker: second stage of the pipeline (parse → check → compile → run).

It gathers the declarations of all spec files into a :class:`Symbols` table,
resolves every name, checks arities and (lightly) types, and refuses rules,
switches and invariants without a citation.  Every problem becomes one
:class:`Diagnostic`; all are reported together.  Its results — the type of
every expression and what every name refers to — are what the compiler reads.

Types are the frozen values of :mod:`.types`: ``int``, ``bool``, ``text``,
``player``, ``none``, ``any``, ``entity:T`` (a row key of table or enum T),
``piece:P``, ``zone:P``, ``list:X``, ``graph:G`` and ``switch:S``.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any, assert_never

import attrs

from . import ast as A
from .builtins import BUILTINS, SPECIAL_NAMES
from .errors import Diagnostic, SpecError
from .sourcetext import SourceText, normalise
from .symbols import Kind, Symbols
from .types import (
    ANY,
    BOOL,
    COLUMN_TYPES,
    INT,
    NONE,
    PLAYER,
    TEXT,
    EntityType,
    GraphType,
    ListType,
    PieceType,
    SwitchType,
    Type,
    ZoneType,
    column_type,
    element_type,
)

#: A function's body with every function it calls written out in place may have
#: at most this many expression nodes, nested at most this deep.  Functions are
#: expanded where they are called, so this bounds the work (and the Python stack)
#: the checker and compiler need for a chain of functions calling functions.
MAX_EXPANDED_NODES = 5_000
MAX_EXPANDED_DEPTH = 128
#: The same bound for the whole spec: all declarations, functions written out.
MAX_EXPANDED_TOTAL = 200_000
#: The most players a spec may allow: every player-keyed table and zone, and each
#: listing over the players, grows with the count.
MAX_PLAYERS = 100
#: A setting's bounds, step and default are at most this.
MAX_SETTING_NUMBER = 1_000_000
#: The most key domains of a counter, var, zone or limit (a stored state's keys have no more parts).
MAX_DIMS = 8
#: The longest verb of an option (its action texts start with it).
MAX_VERB = 64

#: Arithmetic, comparison and logic operators.
ARITH = {"+", "-", "*", "//", "%"}
COMPARE = {"==", "!=", "<", "<=", ">", ">="}



@attrs.frozen
class Checked:
    """The checker's result: the declarations and what it learned about them."""

    files: tuple[A.SpecFile, ...]
    symbols: Symbols
    types: dict[int, Type]  # id(expression) -> type
    #: What each name read by the spec stands for, by id of the node reading it: a
    #: :class:`~interpreter.ast.Name`, an :class:`~interpreter.ast.Index` (its base), an
    #: :class:`~interpreter.ast.Assign` (its target) or a :class:`~interpreter.ast.Call` (its function).
    refs: dict[int, Kind]
    #: id(Say) -> what each name it mentions stands for (a local or a state), and its type.
    say_names: dict[int, dict[str, tuple[Kind, Type]]]
    #: id(Param) -> the type its spec names (``any`` where it names none).
    param_types: dict[int, Type]

    def type_of(self, expr: A.Expr) -> Type:
        """The type the checker found for an expression (``any`` if unknown)."""
        return self.types.get(id(expr), ANY)

    def ref(self, node: A.Name | A.Index | A.Assign | A.Call) -> Kind:
        """What the name a node reads stands for, as the checker resolved it."""
        return self.refs[id(node)]

    def is_local(self, e: A.Expr) -> bool:
        """Whether an expression is a local name (a `let`, a parameter or a bound variable)."""
        return isinstance(e, A.Name) and self.refs.get(id(e)) is Kind.LOCAL

    def free_locals(self, e: A.Expr) -> set[str]:
        """The local names an expression reads from around it (not those it binds itself)."""
        out: set[str] = set()
        stack: list[tuple[A.Expr, frozenset[str]]] = [(e, frozenset())]
        while stack:
            node, bound = stack.pop()
            match node:
                case A.Name():
                    if self.is_local(node) and node.ident not in bound:
                        out.add(node.ident)
                case A.Literal():
                    pass
                case A.ListLit():
                    stack.extend((i, bound) for i in node.items)
                case A.Unary():
                    stack.append((node.operand, bound))
                case A.Binary():
                    stack += [(node.left, bound), (node.right, bound)]
                case A.Conditional():
                    stack += [(node.cond, bound), (node.then, bound), (node.otherwise, bound)]
                case A.Call() | A.Index():
                    stack.extend((a, bound) for a in node.args)
                case A.Attr():
                    stack.append((node.base, bound))
                case A.Aggregate() | A.Comprehension():
                    stack.append((node.domain, bound))
                    inner = bound | {node.var}
                    stack.extend((x, inner) for x in (node.where, node.body) if x is not None)
                case _:
                    assert_never(node)
        return out


    def always_reads(self, e: A.Expr, name: str) -> bool:
        """Whether evaluating an expression always evaluates the local ``name``: outside the right of
        an ``and`` or ``or``, the branches of a conditional, and what an aggregate does per value."""
        match e:
            case A.Name():
                return e.ident == name and self.is_local(e)
            case A.Literal():
                return False
            case A.ListLit():
                return any(self.always_reads(i, name) for i in e.items)
            case A.Unary():
                return self.always_reads(e.operand, name)
            case A.Binary():
                return self.always_reads(e.left, name) or (
                    e.op not in ("and", "or") and self.always_reads(e.right, name))
            case A.Conditional():
                return self.always_reads(e.cond, name)
            case A.Call() | A.Index():
                return any(self.always_reads(a, name) for a in e.args)
            case A.Attr():
                return self.always_reads(e.base, name)
            case A.Aggregate() | A.Comprehension():
                return self.always_reads(e.domain, name)
            case _:
                assert_never(e)

def suggest(name: str, candidates: Iterable[str]) -> str:
    """A "did you mean" suffix for an unknown name."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


class Checker:
    """Walks every declaration; collects diagnostics."""

    def __init__(self, files: Iterable[A.SpecFile], texts: dict[str, list[str]]):
        self.files = tuple(files)
        self.texts = texts
        self.symbols = Symbols()
        #: the texts of sources the spec keeps, ready to find quotations in (made when collected)
        self.source_texts: dict[str, SourceText] = {}
        self.problems: list[Diagnostic] = []
        self.types: dict[int, Type] = {}
        self.refs: dict[int, Kind] = {}
        self.scopes: list[dict[str, Type]] = []
        self.loop_depth = 0
        #: what is being checked where no game state may be read ("data checks"), or None
        self.in_state_free: str | None = None
        self.state_reads = 0  # names of game state read so far (directly or through a function)
        self.functions_done: set[str] = set()
        self.reads_state: dict[str, bool] = {}  # function name -> whether its body reads game state
        self.say_names: dict[int, dict[str, tuple[Kind, Type]]] = {}
        self.param_types: dict[int, Type] = {}

    # ------------------------------------------------------------------ helpers
    def error(self, pos: A.Pos, message: str) -> None:
        """Record a problem at a place of the spec, with the text of its line."""
        lines = self.texts.get(pos.path, [])
        line = lines[pos.line - 1] if 0 < pos.line <= len(lines) else ""
        self.problems.append(Diagnostic(pos, message, line))

    def run(self) -> Checked:
        """The checker's result for the spec; raise :class:`SpecError` with every problem found, in order of place."""
        self.collect()
        self.check_declarations()
        if self.problems:
            raise SpecError(sorted(self.problems, key=lambda d: (d.pos.path, d.pos.line, d.pos.column)))
        return Checked(self.files, self.symbols, self.types, self.refs, self.say_names, self.param_types)

    # ---------------------------------------------------------------- collecting
    def collect(self) -> None:
        """Gather every declaration into the symbols; report duplicates and a missing `game`, `players` or `main`."""
        s = self.symbols
        for f in self.files:
            for d in f.declarations:
                match d:
                    case A.GameDecl():
                        self.single("game", s.game, d)
                        s.game = d
                    case A.PlayersDecl():
                        self.single("players", s.players, d)
                        s.players = d
                    case A.MainDecl():
                        if d.procedure:
                            self.single("main", s.main, d)
                            s.main = d
                    case A.ScoreDecl():
                        self.single("score", s.score, d)
                        s.score = d
                    case A.SourceDecl():
                        self.add(s.sources, d.name, d, "source")
                    case A.EnumDecl():
                        self.add_global(s.enums, d.name, d)
                    case A.TableDecl():
                        self.add_global(s.tables, d.name, d)
                    case A.GraphDecl():
                        self.add_global(s.graphs, d.name, d)
                    case A.PiecesDecl():
                        self.add_global(s.pieces, d.name, d)
                    case A.StateDecl():
                        self.add_global(s.states, d.name, d)
                    case A.ZoneDecl():
                        self.add_global(s.zones, d.name, d)
                    case A.ScopeDecl():
                        self.add_global(s.scopes, d.name, d)
                    case A.LimitDecl():
                        self.add_global(s.limits, d.name, d)
                    case A.SwitchDecl():
                        self.add_global(s.switches, d.name, d)
                    case A.SettingDecl():
                        self.add_global(s.settings, d.name, d)
                    case A.PictureDecl():
                        self.add(s.pictures, d.name, d, "picture")
                    case A.Condition():
                        target = s.checks if d.kind == "check" else s.invariants
                        self.add(target, d.name, d, d.kind)
                    case A.FunctionDecl():
                        self.add_global(s.functions, d.name, d)
                    case A.ProcedureDecl():
                        self.add_global(s.procedures, d.name, d)
                    case A.TextDecl():
                        self.add(s.texts, d.source, d, "text of source")
                    case A.Waiver():
                        s.waivers.append(d)
                    case _:
                        assert_never(d)
        self.source_texts = {name: SourceText(d) for name, d in s.texts.items()}
        if s.game is None:
            self.error(A.Pos(self.files[0].path if self.files else "<spec>", 1, 1),
                       "the spec has no `game` declaration")
        if s.players is None:
            self.error(A.Pos(self.files[0].path if self.files else "<spec>", 1, 1),
                       "the spec has no `players` declaration")
        if s.main is None:
            self.error(A.Pos(self.files[0].path if self.files else "<spec>", 1, 1),
                       "the spec has no `main` declaration naming the procedure a game runs")

    def single(self, what: str, old: Any, new: Any) -> None:
        """Report a second declaration of what the spec has at most once (`game`, `players`, `main`, `score`)."""
        if old is not None:
            self.error(new.pos, f"a second `{what}` declaration (the first is at {old.pos})")

    def add(self, table: dict[str, Any], name: str, decl: Any, what: str) -> None:
        """Enter a declaration in one table of the symbols, or report its name as declared twice there."""
        if name in table:
            self.error(decl.pos, f"{what} {name!r} is declared twice (first at {table[name].pos})")
        else:
            table[sys.intern(name)] = decl  # (interned: the keys of a state's tables, found by identity in C)

    def add_global(self, table: dict[str, Any], name: str, decl: Any) -> None:
        """Enter a declaration whose name is global, or report the name as taken (by a declaration or the language)."""
        kind = self.symbols.kind_of(name)
        if kind is not None or name in BUILTINS or name in SPECIAL_NAMES or name == "player":
            self.error(decl.pos, f"{name!r} is already declared" + (f" as a {kind}" if kind else " by the language"))
        else:
            table[sys.intern(name)] = decl  # (interned: the keys of a state's tables, found by identity in C)

    # ------------------------------------------------------------ declarations
    def check_declarations(self) -> None:
        """Check the player counts, the main procedure, the sizes of functions, then every declaration."""
        s = self.symbols
        if s.players and not (1 <= s.players.low <= s.players.high <= MAX_PLAYERS):
            self.error(s.players.pos, f"player counts must satisfy 1 <= low <= high <= {MAX_PLAYERS}")
        if s.main and s.main.procedure not in s.procedures:
            self.error(s.main.pos, f"main names an unknown procedure {s.main.procedure!r}"
                       + suggest(s.main.procedure, s.procedures))
        elif s.main and s.procedures[s.main.procedure].params:
            self.error(s.main.pos, "the main procedure takes no parameters")
        self.check_function_sizes()
        for f in self.files:
            for d in f.declarations:
                self.check_citations(d)
                self.declaration(d)

    def declaration(self, d: A.Declaration) -> None:
        """Check one declaration (its citations are checked apart)."""
        match d:
            case A.EnumDecl():
                self.decl_EnumDecl(d)
            case A.TableDecl():
                self.decl_TableDecl(d)
            case A.GraphDecl():
                self.decl_GraphDecl(d)
            case A.PiecesDecl():
                self.decl_PiecesDecl(d)
            case A.StateDecl():
                self.decl_StateDecl(d)
            case A.ZoneDecl():
                self.decl_ZoneDecl(d)
            case A.LimitDecl():
                self.decl_LimitDecl(d)
            case A.SwitchDecl():
                self.decl_SwitchDecl(d)
            case A.SettingDecl():
                self.decl_SettingDecl(d)
            case A.PictureDecl():
                self.decl_PictureDecl(d)
            case A.Condition():
                self.decl_Condition(d)
            case A.FunctionDecl():
                self.decl_FunctionDecl(d)
            case A.ProcedureDecl():
                self.decl_ProcedureDecl(d)
            case A.ScoreDecl():
                self.decl_ScoreDecl(d)
            case A.TextDecl():
                self.decl_TextDecl(d)
            case A.Waiver():
                self.decl_Waiver(d)
            case A.GameDecl() | A.SourceDecl() | A.PlayersDecl() | A.ScopeDecl() | A.MainDecl():
                pass  # nothing to check beyond collecting them (see collect and check_declarations)
            case _:
                assert_never(d)

    def check_citations(self, d: A.Declaration) -> None:
        """Report a declaration that needs a citation and has none; check the sources its citations name."""
        needs = (A.TableDecl, A.GraphDecl, A.Condition, A.ProcedureDecl, A.ScoreDecl, A.PiecesDecl)
        cites: tuple[A.Citation, ...] = getattr(d, "citations", ())
        if isinstance(d, needs) and not cites:
            label = getattr(d, "name", None) or type(d).__name__
            kind = {"Condition": getattr(d, "kind", "condition")}.get(type(d).__name__, type(d).__name__)
            kind = kind.replace("Decl", "").lower()
            self.error(d.pos, f"{kind} {label!r} has no citation; add `cite SOURCE \"section\" \"sentence\"`")
        self.cite_sources(cites)

    def cite_sources(self, cites: Iterable[A.Citation], what: str = "citation") -> None:
        """Report citations that name an unknown source, lack a section or a sentence, or quote a sentence
        that is not in the source's text (where the spec keeps it: `text`)."""
        for c in cites:
            if c.source not in self.symbols.sources:
                self.error(c.pos, f"{what} names an unknown source {c.source!r}"
                           + suggest(c.source, self.symbols.sources))
            if not c.quote.strip() or not c.section.strip():
                self.error(c.pos, f"a {what} needs a section and a sentence")
                continue
            text = self.source_texts.get(c.source)
            problem = text.problem(c) if text is not None else None
            if problem is not None:
                self.error(c.pos, f"{what}: {problem}")

    def decl_TextDecl(self, d: A.TextDecl) -> None:
        """Check a `text` declaration: its source is declared, no section twice, no sentence empty."""
        if d.source not in self.symbols.sources:
            self.error(d.pos, f"text of an unknown source {d.source!r}" + suggest(d.source, self.symbols.sources))
        seen: dict[str, A.Pos] = {}
        for section in d.sections:
            if not section.title.strip():
                self.error(section.pos, "a section needs a title")
            if section.title in seen:
                self.error(section.pos, f"section {section.title!r} twice (first at {seen[section.title]})")
            seen.setdefault(section.title, section.pos)
            if any(not normalise(s) for s in section.sentences):
                self.error(section.pos, f"section {section.title!r} has an empty sentence")

    def decl_Waiver(self, d: A.Waiver) -> None:
        """Check a `waive` declaration: its reason is one of :data:`ast.WAIVER_REASONS` and names what it must
        (a table or check for `component`, a section of a kept text for `summary`, a scenario for `example`),
        and each sentence is in the source's text, which the spec must keep."""
        s = self.symbols
        if d.reason not in A.WAIVER_REASONS:
            self.error(d.pos, f"unknown reason {d.reason!r}; a waiver is because "
                       + ", ".join(A.WAIVER_REASONS) + suggest(d.reason, A.WAIVER_REASONS))
        elif d.reason == "flavour" and d.where is not None:
            self.error(d.pos, "a waiver because flavour names nothing else")
        elif d.reason != "flavour" and not (d.where or "").strip():
            wants = {"example": "the scenario test that reproduces it", "component": "the data table or check",
                     "summary": "the section that states the rules"}[d.reason]
            self.error(d.pos, f"a waiver because {d.reason} names {wants}: `because {d.reason} \"...\"`")
        elif d.reason == "component" and d.where not in s.tables and d.where not in s.checks:
            self.error(d.pos, f"waiver: {d.where!r} is no data table or check"
                       + suggest(d.where or "", [*s.tables, *s.checks]))
        elif d.reason == "summary" and d.where is not None and not any(
                t.sections_named(d.where) for t in self.source_texts.values()):
            self.error(d.pos, f"waiver: {d.where!r} is no section of a source text the spec keeps")
        if d.source in s.sources and d.source not in s.texts:
            self.error(d.pos, f"a waiver needs the text of source {d.source!r}: "
                       f"declare it with `text {d.source} {{ ... }}`")
        self.cite_sources(d.sentences(), "waiver")

    def decl_EnumDecl(self, d: A.EnumDecl) -> None:
        """Check an `enum` declaration: no value twice."""
        if len(set(d.values)) != len(d.values):
            self.error(d.pos, f"enum {d.name} repeats a value")

    def decl_TableDecl(self, d: A.TableDecl) -> None:
        """Check a `table` declaration: its column types and its `verified when` (which needs a provenance column)."""
        for col in ([d.key] if d.key else []) + list(d.columns):
            self.check_column_type(col)
        if d.verified is not None:
            if d.provenance is None:
                self.error(d.pos, f"table {d.name}: `verified when` needs a `provenance` column")
            self.expr_in(d.verified, {"row": EntityType(d.name)}, state_free="data checks")

    def check_column_type(self, col: A.Column) -> None:
        """Report a column whose type is not a column type of the language, an enum or a table."""
        s = self.symbols
        if column_type(col.type, {*s.enums, *s.tables}) is None:
            self.error(col.pos, f"unknown column type {col.type!r}"
                       + suggest(col.type, [*COLUMN_TYPES, *s.enums, *s.tables]))

    def decl_GraphDecl(self, d: A.GraphDecl) -> None:
        """Check a `graph` declaration: its node and edge tables, edge columns holding nodes, its `where` condition."""
        s = self.symbols
        if d.nodes not in s.tables:
            self.error(d.pos, f"graph {d.name}: unknown node table {d.nodes!r}" + suggest(d.nodes, s.tables))
            return
        if d.edges not in s.tables:
            self.error(d.pos, f"graph {d.name}: unknown edge table {d.edges!r}" + suggest(d.edges, s.tables))
            return
        for col in (d.source, d.target):
            if s.column_type(d.edges, col) != EntityType(d.nodes):
                self.error(d.pos, f"graph {d.name}: column {col!r} of {d.edges} must be of type {d.nodes}")
        if d.where is not None:
            self.expr_in(d.where, {"row": EntityType(d.nodes)}, state_free="data checks")

    def decl_PiecesDecl(self, d: A.PiecesDecl) -> None:
        """Check a `pieces` declaration: its table, and a start zone without keys that holds this kind of piece."""
        s = self.symbols
        if d.table not in s.tables:
            self.error(d.pos, f"pieces {d.name}: unknown table {d.table!r}" + suggest(d.table, s.tables))
        zone = s.zones.get(d.zone)
        if zone is None:
            self.error(d.pos, f"pieces {d.name}: unknown zone {d.zone!r}" + suggest(d.zone, s.zones))
        elif zone.dims:
            self.error(d.pos, f"pieces {d.name} must start in a zone without keys")
        elif zone.piece_type != d.name:
            self.error(d.pos, f"zone {d.zone} holds {zone.piece_type}, not {d.name}")

    def check_dims(self, dims: tuple[str, ...], pos: A.Pos) -> None:
        """Report a key domain that is not `player`, a table, an enum or a graph, and more than
        :data:`MAX_DIMS` of them."""
        s = self.symbols
        if len(dims) > MAX_DIMS:
            self.error(pos, f"{len(dims)} key domains; at most {MAX_DIMS}")
        for dim in dims:
            if dim != "player" and dim not in s.tables and dim not in s.enums and dim not in s.graphs:
                self.error(pos, f"unknown key domain {dim!r}; use player, a table, an enum or a graph"
                           + suggest(dim, ["player", *s.tables, *s.enums, *s.graphs]))

    def decl_StateDecl(self, d: A.StateDecl) -> None:
        """Check a `counter` or `var` declaration: its keys, its declared type, and a start value of that type."""
        self.check_dims(d.dims, d.pos)
        # every start value is computed before the game has any state to read
        t = self.expr_in(d.init, {}, state_free="start values")
        if d.kind == "counter" and t not in (INT, ANY):
            self.error(d.init.pos, f"counter {d.name} starts at a {t}, not a number")
        if d.type is not None:
            declared = self.symbols.spec_type(d.type)
            if declared is None:
                self.error(d.pos, f"unknown type {d.type!r} for var {d.name}"
                           + suggest(d.type, [*self.symbols.pieces, *self.symbols.tables, *self.symbols.enums]))
            elif t not in (declared, NONE, ANY):
                self.error(d.init.pos, f"var {d.name} holds a {declared} (or none), not a {t}")

    def decl_ZoneDecl(self, d: A.ZoneDecl) -> None:
        """Check a `zone` declaration: its keys and the kind of piece it holds."""
        self.check_dims(d.dims, d.pos)
        if d.piece_type not in self.symbols.pieces:
            self.error(d.pos, f"zone {d.name}: unknown piece type {d.piece_type!r}"
                       + suggest(d.piece_type, self.symbols.pieces))

    def decl_LimitDecl(self, d: A.LimitDecl) -> None:
        """Check a `limit` declaration: its keys and its scope."""
        self.check_dims(d.dims, d.pos)
        self.scope_expr(d.scope)

    def scope_expr(self, e: A.Expr) -> None:
        """A limit's scope: a scope name, or `if ... then scope else scope`."""
        if isinstance(e, A.Name):
            if e.ident not in self.symbols.scopes:
                self.error(e.pos, f"unknown scope {e.ident!r}" + suggest(e.ident, self.symbols.scopes))
        elif isinstance(e, A.Conditional):
            self.expr_in(e.cond, {})
            self.scope_expr(e.then)
            self.scope_expr(e.otherwise)
        else:
            self.error(e.pos, "a limit's scope is a scope name or `if ... then SCOPE else SCOPE`")

    def decl_SwitchDecl(self, d: A.SwitchDecl) -> None:
        """Check a `switch` declaration: one default option, no option twice, each cited and written in lower case."""
        defaults = [o for o in d.options if o.default]
        if len(defaults) != 1:
            self.error(d.pos, f"switch {d.ident} needs exactly one `default option` (it has {len(defaults)})")
        values = [o.value for o in d.options]
        if len(set(values)) != len(values):
            self.error(d.pos, f"switch {d.ident} repeats an option")
        for o in d.options:
            if not o.citations:
                self.error(o.pos, f"option {o.value!r} of switch {d.ident} has no citation")
            if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", o.value):
                self.error(o.pos, f"option {o.value!r}: use lower-case words joined by '-'")
            self.cite_sources(o.citations)

    def decl_SettingDecl(self, d: A.SettingDecl) -> None:
        """Check a `setting`: bounds in order and within the language's numbers, a step that reaches the
        upper bound, a default among the values, few enough values, a citation."""
        if max(d.low, d.high, d.step, d.default) > MAX_SETTING_NUMBER:
            self.error(d.pos, f"setting {d.ident}: its numbers must be at most {MAX_SETTING_NUMBER}")
        elif d.step <= 0 or d.high < d.low:
            self.error(d.pos, f"setting {d.ident}: write `low to high` with low <= high and a step of 1 or more")
        elif (d.high - d.low) % d.step:
            self.error(d.pos, f"setting {d.ident}: {d.high} is not reached from {d.low} in steps of {d.step}")
        elif not d.values:
            self.error(d.pos, f"setting {d.ident} offers more than {A.MAX_SETTING_VALUES} values")
        elif d.default not in d.values:
            self.error(d.pos, f"setting {d.ident}: the default {d.default} is not one of its values "
                       f"({d.low} to {d.high} in steps of {d.step})")
        if not d.citations:
            self.error(d.pos, f"setting {d.ident} has no citation")
        self.cite_sources(d.citations)

    def decl_PictureDecl(self, d: A.PictureDecl) -> None:
        """Check a `picture`: a table of places, whole-number coordinates, each part of the type it shows,
        a seat colour per player, clicks that name a table and give places, edges of a graph on the places."""
        s = self.symbols
        if d.table not in s.tables:
            self.error(d.pos, f"picture {d.name}: unknown table {d.table!r}" + suggest(d.table, s.tables))
            return
        place = EntityType(d.table)
        scope: dict[str, Type] = {d.var: place}
        if d.where is not None:
            t = self.expr_in(d.where, scope)
            if t not in (BOOL, ANY):
                self.error(d.where.pos, f"picture {d.name}: `where` needs a condition, found a {t}")
        for coordinate in (d.x, d.y):
            t = self.expr_in(coordinate, scope)
            if t not in (INT, ANY):
                self.error(coordinate.pos, f"picture {d.name}: a place's coordinates are whole numbers, found a {t}")
        seen: set[str] = set()
        for part in d.parts:
            if part.part in seen:
                self.error(part.pos, f"picture {d.name} shows {part.part} twice")
            seen.add(part.part)
            t = self.expr_in(part.expr, scope)
            want = {"count": (INT,), "colour": (TEXT, NONE), "mark": (BOOL,), "outline": (BOOL,),
                    "highlight": (BOOL,)}.get(part.part)
            if want is not None and t not in (*want, ANY):
                self.error(part.expr.pos, f"picture {d.name}: {part.part} needs a "
                           f"{' or '.join(str(w) for w in want)}, found a {t}")
        if d.seat_var is not None and d.seat_colour is not None:
            t = self.expr_in(d.seat_colour, {d.seat_var: PLAYER})
            if t not in (TEXT, ANY):
                self.error(d.seat_colour.pos, f"picture {d.name}: a seat's colour is a text, found a {t}")
        if d.edges is not None:
            graph = s.graphs.get(d.edges)
            if graph is None:
                self.error(d.pos, f"picture {d.name}: unknown graph {d.edges!r}" + suggest(d.edges, s.graphs))
            elif graph.nodes != d.table:
                self.error(d.pos, f"picture {d.name}: graph {d.edges} is on {graph.nodes}, not on {d.table}")
        for click in d.clicks:
            if click.table not in s.tables:
                self.error(click.pos, f"picture {d.name}: unknown table {click.table!r}"
                           + suggest(click.table, s.tables))
                continue
            for end in (click.start, click.end):
                bound: dict[str, Type] = {click.var: EntityType(click.table)}
                t = self.expr_in(end, bound)
                if t not in (place, ANY):
                    self.error(end.pos, f"picture {d.name}: a click gives a place ({d.table}), found a {t}")

    def decl_Condition(self, d: A.Condition) -> None:
        """Check a `check` (reading no game state) or `invariant` declaration: its expression is a condition."""
        t = self.expr_in(d.expr, {}, state_free="data checks" if d.kind == "check" else None)
        if t not in (BOOL, ANY):
            self.error(d.expr.pos, f"{d.kind} {d.name} must be a condition, not a {t}")

    def param_scope(self, params: tuple[A.Param, ...], pos: A.Pos, report: bool = True) -> dict[str, Type]:
        """Each parameter's type; ``report``: say what is wrong with them (once, at the declaration,
        not at every call)."""
        scope: dict[str, Type] = {}
        for p in params:
            t = self.symbols.spec_type(p.type) if p.type is not None else ANY
            if report:
                if p.name in scope:
                    self.error(pos, f"parameter {p.name!r} appears twice")
                self.hides_nothing(p.name, p.pos, "parameter")
                if t is None:
                    self.error(pos, f"unknown type {p.type!r} for parameter {p.name!r}")
            scope[p.name] = self.param_types[id(p)] = ANY if t is None else t
        return scope

    def decl_FunctionDecl(self, d: A.FunctionDecl) -> None:
        """Check a `function` declaration, once (perhaps at its first call): no recursion, then its body."""
        if d.name in self.functions_done:
            return
        self.functions_done.add(d.name)
        self.check_recursion(d)
        saved_loop, before = self.loop_depth, self.state_reads
        self.expr_in(d.body, self.param_scope(d.params, d.pos))
        self.loop_depth = saved_loop
        self.reads_state[d.name] = self.state_reads > before

    def check_function_sizes(self) -> None:
        """Refuse functions that grow too large or deep once their calls are expanded."""
        functions = self.symbols.functions
        size: dict[str, int] = {}
        depth: dict[str, int] = {}
        for name in _callees_first(functions):
            fn = functions[name]
            size[name], depth[name] = _expanded(fn.body, size, depth)
            if size[name] > MAX_EXPANDED_NODES or depth[name] > MAX_EXPANDED_DEPTH:
                self.error(fn.pos, f"function {name} is too large with the functions it calls written out "
                           f"(more than {MAX_EXPANDED_NODES} expressions or {MAX_EXPANDED_DEPTH} levels)")
                self.functions_done.add(name)  # do not descend into it
        total = 0
        for f in self.files:
            for d in f.declarations:
                total += _expanded(d, size, depth)[0]
                if total > MAX_EXPANDED_TOTAL:
                    self.error(d.pos, f"the spec is too large with its functions written out where they are "
                               f"called (more than {MAX_EXPANDED_TOTAL} expressions)")
                    return

    def check_recursion(self, d: A.FunctionDecl) -> None:
        """Report a function that calls itself, directly or through other functions."""
        seen: set[str] = set()
        stack = [d.name]
        while stack:
            name = stack.pop()
            fn = self.symbols.functions.get(name)
            if fn is None:
                continue
            for callee in _calls_in(fn.body):
                if callee == d.name:
                    self.error(d.pos, f"function {d.name} calls itself (directly or not); functions may not recurse")
                    return
                if callee not in seen:
                    seen.add(callee)
                    stack.append(callee)

    def decl_ProcedureDecl(self, d: A.ProcedureDecl) -> None:
        """Check a `procedure` declaration: its body, with its parameters in scope."""
        self.scopes = [self.param_scope(d.params, d.pos)]
        self.loop_depth = 0
        self.block(d.body)
        self.scopes = []

    def decl_ScoreDecl(self, d: A.ScoreDecl) -> None:
        """Check the `score` declaration: a number for its player."""
        t = self.expr_in(d.expr, {d.player: PLAYER})
        if t not in (INT, ANY):
            self.error(d.expr.pos, f"a score must be a number, not a {t}")

    # -------------------------------------------------------------- statements
    def lookup_local(self, name: str) -> Type | None:
        """The type of a local name in the innermost scope that has it, or None if it is not local."""
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def hides_nothing(self, name: str, pos: A.Pos, what: str = "local name") -> bool:
        """Refuse a local name (a `let`, parameter or bound value) that is also a global name or a
        name of the language: the spec would read one where its reader sees the other."""
        kind = self.symbols.kind_of(name)
        if kind is None and name not in SPECIAL_NAMES:
            return True
        decl = self.symbols.declaration(name)
        where = f" (declared at {decl.pos})" if decl is not None else ""
        self.error(pos, f"{what} {name!r} hides a {kind or 'language'} name{where}")
        return False

    def define(self, name: str, t: Type, pos: A.Pos) -> None:
        """Bring a `let` name into scope; report one already local, hiding another name, or holding a zone or graph."""
        if self.lookup_local(name) is not None:
            self.error(pos, f"{name!r} is already a local name here")
        else:
            self.hides_nothing(name, pos)
        if isinstance(t, (ZoneType, GraphType)):
            self.error(pos, f"a {'zone' if isinstance(t, ZoneType) else 'graph'} cannot be held in a local name; "
                       "use it directly")
        self.scopes[-1][name] = t

    def block(self, b: A.Block, bound: dict[str, Type] | None = None) -> None:
        """Check a block's statements in a new scope (holding the ``bound`` names)."""
        self.scopes.append(dict(bound or {}))
        for st in b.statements:
            self.statement(st)
        self.scopes.pop()

    def statement(self, st: A.Stmt) -> None:
        """Check one statement."""
        match st:
            case A.Let():
                self.define(st.name, self.expr(st.value), st.pos)
            case A.Assign():
                self.assign(st)
            case A.If():
                for cond, body in st.branches:
                    self.condition(cond)
                    self.block(body)
                if st.otherwise:
                    self.block(st.otherwise)
            case A.While():
                self.condition(st.cond)
                self.loop_body(st.body)
            case A.Loop():
                self.loop_body(st.body)
            case A.For():
                item = self.iterable(st.domain)
                self.hides_nothing(st.var, st.pos, "loop name")
                scope = {st.var: item}
                self.scopes.append(scope)
                if st.where is not None:
                    self.condition(st.where)
                self.scopes.pop()
                self.loop_body(st.body, scope)
            case A.Break():
                if self.loop_depth == 0:
                    self.error(st.pos, "`break` outside a loop")
            case A.CallProc():
                proc = self.symbols.procedures.get(st.name)
                if proc is None:
                    self.error(st.pos, f"unknown procedure {st.name!r}" + suggest(st.name, self.symbols.procedures))
                elif len(proc.params) != len(st.args):
                    self.error(st.pos, f"procedure {st.name} takes {len(proc.params)} argument(s), not {len(st.args)}")
                for a in st.args:
                    self.expr(a)
                if proc is not None:
                    for param_type, arg in zip(self.param_scope(proc.params, proc.pos, report=False).values(), st.args):
                        self.enum_literal(arg, param_type)
            case A.Choose():
                self.expect(st.player, PLAYER)
                for opt in st.options:
                    self.option(opt.verb, opt.bindings, opt.when, opt.body, opt.pos)
                    self.cite_sources(opt.citations)
            case A.Chance():
                self.option(st.verb, (st.binding,), None, st.body, st.pos)
                self.cite_sources(st.citations)
            case A.Move():
                pt = self.expr(st.pieces)
                zt = self.zone(st.zone)
                ptype = pt.elem if isinstance(pt, ListType) else pt
                if ptype not in (ANY, ListType(ANY)) and not isinstance(ptype, PieceType):
                    self.error(st.pieces.pos, f"`move` moves pieces, not a {pt}")
                elif isinstance(ptype, PieceType) and isinstance(zt, ZoneType) and ptype.pieces != zt.pieces:
                    self.error(st.pos, f"zone holds {zt.pieces} pieces, not {ptype.pieces}")
            case A.Reveal():
                self.expect_piece(st.piece)
            case A.Look():
                self.expect_piece(st.piece)
                self.expect(st.player, PLAYER)
            case A.Swap():
                self.expect_piece(st.first)
                self.expect_piece(st.second)
            case A.Begin():
                if st.scope not in self.symbols.scopes:
                    self.error(st.pos, f"unknown scope {st.scope!r}" + suggest(st.scope, self.symbols.scopes))
            case A.Use():
                limit = self.symbols.limits.get(st.limit)
                if limit is None:
                    self.error(st.pos, f"unknown limit {st.limit!r}" + suggest(st.limit, self.symbols.limits))
                elif len(limit.dims) != len(st.keys):
                    self.error(st.pos, f"limit {st.limit} takes {len(limit.dims)} key(s), not {len(st.keys)}")
                for k in st.keys:
                    self.expr(k)
                if limit is not None:
                    for dim, key in zip(limit.dims, st.keys):
                        self.enum_literal(key, self.symbols.domain_keys_type(dim))
            case A.Finish():
                t = self.expr(st.winners)
                if t not in (ListType(PLAYER), ANY, ListType(ANY)):
                    self.error(st.winners.pos, f"`finish` takes the list of winners, not a {t}")
            case A.Rule():
                if st.name in self.symbols.rules:
                    first = self.symbols.rules[st.name].pos
                    self.error(st.pos, f"rule {st.name!r} is declared twice (first at {first})")
                else:
                    self.symbols.rules[st.name] = st
                self.cite_sources(st.citations)
                self.block(st.body)
            case A.Say():
                found: dict[str, tuple[Kind, Type]] = {}
                for name in re.findall(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", st.template):
                    local = self.lookup_local(name)
                    if local is not None:
                        found[name] = (Kind.LOCAL, local)
                    elif name in self.symbols.states and not self.symbols.states[name].dims:
                        found[name] = (Kind.STATE, self.state_type(self.symbols.states[name]))
                    else:
                        self.error(st.pos, f"`say` mentions {name!r}, which is not a local name "
                                   "or a state without keys" + suggest(name, self.all_locals()))
                self.say_names[id(st)] = found
            case _:
                assert_never(st)

    def loop_body(self, body: A.Block, bound: dict[str, Type] | None = None) -> None:
        """Check a loop's body, where `break` is allowed."""
        self.loop_depth += 1
        self.block(body, bound)
        self.loop_depth -= 1

    def option(self, verb: str, bindings: tuple[A.Binding, ...], when: A.Expr | None,
               body: A.Block, pos: A.Pos) -> None:
        """Check a branch of a decision: its verb, `when`, bound values with their `where`, then its body."""
        if not re.fullmatch(r"[a-z][a-z0-9-]*", verb) or len(verb) > MAX_VERB:
            self.error(pos, f"verb {verb[:MAX_VERB]!r}: use one lower-case word (letters, digits, '-') "
                       f"of at most {MAX_VERB} characters")
        if when is not None:
            self.condition(when)
        scope: dict[str, Type] = {}
        self.scopes.append(scope)
        for b in bindings:
            item = self.iterable(b.domain)
            if isinstance(item, ListType) and isinstance(item.elem, ListType):
                self.error(b.domain.pos, f"{b.var!r} would be a list of lists: an action text could not "
                           f"say where each inner list ends")
            if self.lookup_local(b.var) is not None:
                self.error(b.pos, f"{b.var!r} is already a local name here")
            else:
                self.hides_nothing(b.var, b.pos, "value name")
            scope[b.var] = item
            if b.where is not None:
                self.condition(b.where)
        self.scopes.pop()
        self.block(body, scope)

    def assign(self, st: A.Assign) -> None:
        """Check an assignment to a local or a state variable: its keys, the type of the value, the operator."""
        local = self.lookup_local(st.name)
        vt = self.expr(st.value)
        if local is not None and not st.keys:
            self.refs[id(st)] = Kind.LOCAL
            if st.op != "=" and local not in (INT, ANY):
                self.error(st.pos, f"{st.op} needs a number, {st.name!r} holds a {local}")
            return
        self.refs[id(st)] = Kind.STATE
        decl = self.symbols.states.get(st.name)
        if decl is None:
            kind = self.symbols.kind_of(st.name)
            if kind is not None:
                self.error(st.pos, f"cannot assign to {st.name!r}: it is a {kind}")
            else:
                self.error(st.pos, f"unknown name {st.name!r}"
                           + suggest(st.name, [*self.symbols.states, *self.all_locals()]))
            return
        if len(decl.dims) != len(st.keys):
            self.error(st.pos, f"{decl.kind} {st.name} takes {len(decl.dims)} key(s), not {len(st.keys)}")
        for k in st.keys:
            self.expr(k)
        if decl.kind == "counter" and vt not in (INT, ANY):
            self.error(st.value.pos, f"counter {st.name} holds numbers, not a {vt}")
        declared = self.state_type(decl) if decl.type is not None else ANY
        if declared != ANY and vt not in (declared, NONE, ANY):
            self.error(st.value.pos, f"var {st.name} holds a {declared} (or none), not a {vt}")
        if st.op != "=" and decl.kind != "counter":
            self.error(st.pos, f"{st.op} works on counters; {st.name} is a var")

    def all_locals(self) -> list[str]:
        """Every local name in scope, innermost last (for suggestions)."""
        return [n for scope in self.scopes for n in scope]

    # ------------------------------------------------------------- expressions
    def expr_in(self, e: A.Expr, scope: dict[str, Type], state_free: str | None = None) -> Type:
        """The type of an expression checked in a scope of its own (``state_free``: what cannot
        read game state, for the error that reading it is)."""
        saved, saved_free = self.scopes, self.in_state_free
        self.scopes = [dict(scope)]
        self.in_state_free = state_free
        try:
            return self.expr(e)
        finally:
            self.scopes, self.in_state_free = saved, saved_free

    def condition(self, e: A.Expr) -> None:
        """Check an expression; report it unless it is a condition."""
        t = self.expr(e)
        if t not in (BOOL, ANY):
            self.error(e.pos, f"expected a condition, found a {t}")

    def expect(self, e: A.Expr, want: Type) -> None:
        """Check an expression; report it unless it has the type ``want``."""
        t = self.expr(e)
        if t != want and t != ANY:
            self.error(e.pos, f"expected a {want}, found a {t}")

    def expect_piece(self, e: A.Expr) -> None:
        """Check an expression; report it unless it is a piece."""
        t = self.expr(e)
        if t != ANY and not isinstance(t, PieceType):
            self.error(e.pos, f"expected a piece, found a {t}")

    def iterable(self, e: A.Expr) -> Type:
        """The type of the items of a list expression (``any``, reported, if it is not a list)."""
        t = self.expr(e)
        if t == ANY:
            return ANY
        if not isinstance(t, ListType):
            self.error(e.pos, f"expected a list to go through, found a {t}")
            return ANY
        return t.elem

    def zone(self, e: A.Expr) -> Type:
        """The type of a zone expression (reported unless it is a zone)."""
        t = self.expr(e)
        if not isinstance(t, ZoneType) and t != ANY:
            self.error(e.pos, f"expected a zone, found a {t}")
        return t

    def expr(self, e: A.Expr) -> Type:
        """The type of an expression, recorded for the later passes."""
        t = self._expr(e)
        self.types[id(e)] = t
        return t

    def _expr(self, e: A.Expr) -> Type:
        s = self.symbols
        match e:
            case A.Literal():
                v = e.value
                if v is None:
                    return NONE
                if isinstance(v, bool):
                    return BOOL
                return INT if isinstance(v, int) else TEXT
            case A.Name():
                return self.name(e)
            case A.ListLit():
                items = [self.expr(i) for i in e.items]
                return ListType(items[0] if items and all(i == items[0] for i in items) else ANY)
            case A.Unary():
                t = self.expr(e.operand)
                if e.op == "not":
                    if t not in (BOOL, ANY):
                        self.error(e.pos, f"`not` needs a condition, found a {t}")
                    return BOOL
                if t not in (INT, ANY):
                    self.error(e.pos, f"`-` needs a number, found a {t}")
                return INT
            case A.Binary():
                return self.binary(e)
            case A.Conditional():
                self.condition(e.cond)
                a, b = self.expr(e.then), self.expr(e.otherwise)
                if a == b or b == NONE:
                    return a
                return b if a == NONE else ANY
            case A.Call():
                return self.call(e)
            case A.Index():
                return self.index(e)
            case A.Attr():
                base = self.expr(e.base)
                table = None
                if isinstance(base, EntityType):
                    table = base.table
                elif isinstance(base, PieceType) and base.pieces in s.pieces:
                    table = s.pieces[base.pieces].table
                if table is None:
                    if base != ANY:
                        self.error(e.pos, f"a {base} has no fields")
                    else:
                        self.error(e.pos, f"cannot tell what {e.name!r} is a field of; "
                                   "give the parameter a type (`name: table`)")
                    return ANY
                if table in s.enums:
                    self.error(e.pos, f"enum values of {table} have no fields")
                    return ANY
                ct = s.column_type(table, e.name)
                if ct is None:
                    decl = s.tables.get(table)
                    cols = ([c.name for c in decl.columns] + ([decl.key.name] if decl.key else [])) if decl else []
                    self.error(e.pos, f"table {table} has no column {e.name!r}" + suggest(e.name, cols))
                    return ANY
                return ct
            case A.Aggregate():
                item = self.iterable(e.domain)
                self.hides_nothing(e.var, e.pos, "value name")
                self.scopes.append({e.var: item})
                if e.where is not None:
                    self.condition(e.where)
                body = self.expr(e.body) if e.body is not None else None
                self.scopes.pop()
                if e.kind in ("all", "any"):
                    if body not in (BOOL, ANY):
                        self.error(e.pos, f"`{e.kind}` needs `: condition`")
                    return BOOL
                if e.kind == "count":
                    if body is not None and body not in (BOOL, ANY):
                        self.error(e.pos, "`count` takes `where`, or `: condition`")
                    return INT
                if e.kind == "first":
                    return body or item
                if body not in (INT, ANY):
                    self.error(e.pos, f"`{e.kind}` needs `: number`")
                return INT
            case A.Comprehension():
                item = self.iterable(e.domain)
                self.hides_nothing(e.var, e.pos, "value name")
                self.scopes.append({e.var: item})
                if e.where is not None:
                    self.condition(e.where)
                body = self.expr(e.body)
                self.scopes.pop()
                return ListType(body)
            case _:
                assert_never(e)

    def name(self, e: A.Name) -> Type:
        """The type of a name read as a value; records what it stands for."""
        s = self.symbols
        local = self.lookup_local(e.ident)
        if local is not None:
            self.refs[id(e)] = Kind.LOCAL
            return local
        if e.ident in SPECIAL_NAMES:
            self.refs[id(e)] = Kind.SPECIAL
            return SPECIAL_NAMES[e.ident].type
        kind = s.kind_of(e.ident)
        if kind is not None:
            self.refs[id(e)] = kind
        if kind in ("state", "zone", "limit"):
            self.state_reads += 1
            if self.in_state_free:
                self.error(e.pos, f"{e.ident!r} is game state; {self.in_state_free} cannot read it")
                return ANY
        if kind == "state":
            decl = s.states[e.ident]
            if decl.dims:
                self.error(e.pos, f"{decl.kind} {e.ident} needs {len(decl.dims)} key(s): {e.ident}[...]")
            return self.state_type(decl)
        if kind == "zone":
            z = s.zones[e.ident]
            if z.dims:
                self.error(e.pos, f"zone {e.ident} needs {len(z.dims)} key(s): {e.ident}[...]")
            return ZoneType(z.piece_type)
        if kind in ("table", "enum"):
            return ListType(EntityType(e.ident))
        if kind == "graph":
            return GraphType(e.ident)
        if kind == "switch":
            return SwitchType(e.ident)
        if kind == "setting":
            return INT
        if kind is not None:
            self.error(e.pos, f"{e.ident!r} is a {kind} and has no value here")
            return ANY
        self.error(e.pos, f"unknown name {e.ident!r}"
                   + suggest(e.ident, [*s.global_names(), *self.all_locals(), *SPECIAL_NAMES]))
        return ANY

    def state_type(self, decl: A.StateDecl) -> Type:
        """The type of a state variable's values: declared, else that of its start value (``any`` for none)."""
        if decl.kind == "counter" or decl.type is not None:
            return self.symbols.declared_state_type(decl) or ANY
        t = self.types.get(id(decl.init))
        if t is None:
            t = self.expr_in(decl.init, {})
        return ANY if t == NONE else t

    def binary(self, e: A.Binary) -> Type:
        """The type of a binary operation; reports operands of the wrong type."""
        left, right = self.expr(e.left), self.expr(e.right)
        if e.op in ("==", "!="):
            self.enum_literal(e.right, left)
            self.enum_literal(e.left, right)
        elif e.op in ("in", "not in"):
            self.enum_literal(e.left, element_type(right))
        if e.op in ("and", "or"):
            for side, t in ((e.left, left), (e.right, right)):
                if t not in (BOOL, ANY):
                    self.error(side.pos, f"`{e.op}` needs conditions, found a {t}")
            return BOOL
        if e.op == "..":
            for side, t in ((e.left, left), (e.right, right)):
                if t not in (INT, ANY):
                    self.error(side.pos, f"a range needs numbers, found a {t}")
            return ListType(INT)
        if e.op in ARITH:
            if e.op == "+" and isinstance(left, ListType) and isinstance(right, ListType):
                return left if left == right else ListType(ANY)
            for side, t in ((e.left, left), (e.right, right)):
                if t not in (INT, ANY):
                    self.error(side.pos, f"`{e.op}` needs numbers, found a {t}")
            return INT
        if e.op in ("in", "not in"):
            if right != ANY and not isinstance(right, ListType):
                self.error(e.right.pos, f"`{e.op}` needs a list on the right, found a {right}")
            self.switch_literal(e.left, left, e.right)
            return BOOL
        if e.op in COMPARE:
            if isinstance(left, SwitchType):
                self.switch_literal(e.left, left, e.right)
            elif isinstance(right, SwitchType):
                self.switch_literal(e.right, right, e.left)
            if e.op not in ("==", "!=") and (left not in (INT, ANY) or right not in (INT, ANY)):
                self.error(e.pos, f"`{e.op}` compares numbers, found a {left} and a {right}")
            return BOOL
        raise AssertionError(e.op)

    def switch_literal(self, switch_expr: A.Expr, t: Type, other: A.Expr) -> None:
        """If ``t`` is a switch type, report values compared with it that are not texts naming its options."""
        if not isinstance(t, SwitchType):
            return
        decl = self.symbols.switches[t.switch]
        values = [o.value for o in decl.options]
        literals = other.items if isinstance(other, A.ListLit) else (other,)
        for lit in literals:
            if isinstance(lit, A.Literal) and isinstance(lit.value, str):
                if lit.value not in values:
                    self.error(lit.pos, f"switch {decl.ident} has no option {lit.value!r}"
                               + suggest(lit.value, values))
            else:
                self.error(lit.pos, f"compare switch {decl.ident} with one of its options as text")

    def index(self, e: A.Index) -> Type:
        """The type of `name[keys]` (a state variable's value, a zone, or a limit's condition); checks name and keys."""
        s = self.symbols
        for k in e.args:
            self.expr(k)
        kind = s.kind_of(e.base)
        if kind is not None:
            self.refs[id(e)] = kind
        if self.lookup_local(e.base) is not None:
            self.error(e.pos, f"{e.base!r} is a local value and cannot be indexed")
            return ANY
        if kind in ("state", "zone", "limit"):
            self.state_reads += 1
            if self.in_state_free:
                self.error(e.pos, f"{e.base!r} is game state; {self.in_state_free} cannot read it")
                return ANY
        dims: tuple[str, ...]
        if kind == "state":
            dims, result = s.states[e.base].dims, self.state_type(s.states[e.base])
        elif kind == "zone":
            dims, result = s.zones[e.base].dims, ZoneType(s.zones[e.base].piece_type)
        elif kind == "limit":
            dims, result = s.limits[e.base].dims, BOOL
        elif kind is None:
            self.error(e.pos, f"unknown name {e.base!r}" + suggest(e.base, s.global_names()))
            return ANY
        else:
            self.error(e.pos, f"{e.base!r} is a {kind} and cannot be indexed")
            return ANY
        if len(dims) != len(e.args):
            self.error(e.pos, f"{e.base} takes {len(dims)} key(s), not {len(e.args)}")
        for dim, key in zip(dims, e.args):
            self.enum_literal(key, self.symbols.domain_keys_type(dim))
        return result

    def enum_literal(self, e: A.Expr, expected: Type) -> None:
        """A text literal where values of an enum are expected must be one of them."""
        if not (isinstance(expected, EntityType) and isinstance(e, A.Literal) and isinstance(e.value, str)):
            return
        enum = self.symbols.enums.get(expected.table)
        if enum is not None and e.value not in enum.values:
            self.error(e.pos, f"{e.value!r} is not a value of enum {enum.name}" + suggest(e.value, enum.values))

    def call(self, e: A.Call) -> Type:
        """The type of a call of a spec function or a builtin; checks the function's name and its argument count."""
        s = self.symbols
        arg_types = [self.expr(a) for a in e.args]
        if e.func in s.functions:
            self.refs[id(e)] = Kind.FUNCTION
            fn = s.functions[e.func]
            if fn.name not in self.functions_done:
                self.decl_FunctionDecl(fn)
            if self.reads_state.get(fn.name, False):
                self.state_reads += 1
                if self.in_state_free:
                    self.error(e.pos, f"function {e.func} reads game state; {self.in_state_free} cannot call it")
            if len(fn.params) != len(e.args):
                self.error(e.pos, f"function {e.func} takes {len(fn.params)} argument(s), not {len(e.args)}")
            for param_type, arg in zip(self.param_scope(fn.params, fn.pos, report=False).values(), e.args):
                self.enum_literal(arg, param_type)
            t = self.types.get(id(fn.body))
            return t if t is not None else ANY
        if e.func not in BUILTINS:
            self.error(e.pos, f"unknown function {e.func!r}" + suggest(e.func, [*BUILTINS, *s.functions]))
            return ANY
        self.refs[id(e)] = Kind.BUILTIN
        builtin = BUILTINS[e.func]
        if len(e.args) != builtin.arity:
            self.error(e.pos, f"{e.func} takes {builtin.arity} argument(s), not {len(e.args)}")
            return ANY
        return builtin.check(self, e, arg_types)


def _callees_first(functions: dict[str, A.FunctionDecl]) -> list[str]:
    """Function names ordered so that (outside of cycles) callees come before callers."""
    order: list[str] = []
    state: dict[str, int] = {}  # 1 = being visited, 2 = done
    for root in functions:
        if root in state:
            continue
        stack: list[tuple[str, Iterator[str]]] = [(root, _calls_in(functions[root].body))]
        state[root] = 1
        while stack:
            name, callees = stack[-1]
            for callee in callees:
                if callee in functions and callee not in state:
                    state[callee] = 1
                    stack.append((callee, _calls_in(functions[callee].body)))
                    break
            else:
                stack.pop()
                state[name] = 2
                order.append(name)
    return order


def _expanded(e: Any, size: dict[str, int], depth: dict[str, int]) -> tuple[int, int]:
    """Node count and depth of a syntax tree with the (known) functions it calls written out."""
    nodes, deepest = 0, 0
    stack: list[tuple[Any, int]] = [(e, 1)]
    while stack:
        node, level = stack.pop()
        nodes += 1
        deepest = max(deepest, level)
        if isinstance(node, A.Call) and node.func in size:
            nodes = min(nodes + size[node.func], MAX_EXPANDED_NODES + 1)
            deepest = max(deepest, level + depth[node.func])
        stack.extend((child, level + 1) for child in _children(node))
    return nodes, deepest


def _children(node: Any) -> Iterator[Any]:
    """The syntax nodes directly below a node (also inside tuples of tuples; no positions)."""
    for field in attrs.fields(type(node)):
        items = [getattr(node, field.name)]
        while items:
            value = items.pop()
            if isinstance(value, tuple):
                items.extend(value)
            elif attrs.has(type(value)) and not isinstance(value, A.Pos):
                yield value


def _calls_in(e: A.Expr) -> Iterator[str]:
    """The functions an expression calls (for the recursion check)."""
    stack: list[Any] = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, A.Call):
            yield node.func
        if attrs.has(type(node)):
            for field in attrs.fields(type(node)):
                value = getattr(node, field.name)
                if isinstance(value, tuple):
                    stack.extend(v for v in value if attrs.has(type(v)))
                elif attrs.has(type(value)) and not isinstance(value, A.Pos):
                    stack.append(value)


def check(files: Iterable[A.SpecFile], texts: dict[str, list[str]] | None = None) -> Checked:
    """Check parsed spec files; raise :class:`SpecError` with every problem found."""
    return Checker(files, texts or {}).run()
