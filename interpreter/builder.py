"""Lark's parse tree to syntax tree: the builder :func:`interpreter.parser.parse_text` hands a tree to.

Apart from :mod:`.parser` so that a load whose spec files all come from the cache
(:func:`interpreter.parser.parse_file`) imports no Lark: this module and Lark are
imported when a text is parsed.
"""

from __future__ import annotations

from typing import Any, cast, get_type_hints

from lark import Token, Tree

from . import ast as A
from .errors import Diagnostic, SpecError

TreeT = Tree[Any]

#: Expressions and blocks nested deeper than this are refused (a positioned error, not a full Python stack).
MAX_NESTING = 64


def build_spec(tree: TreeT, path: str, line_of: Any) -> A.SpecFile:
    """The syntax tree of one spec file from Lark's tree of its text (``line_of``: a line's text by number,
    for messages); raise :class:`SpecError` on any problem."""
    builder = _Builder(path, line_of)
    decls = tuple(builder.declaration(child) for child in tree.children if isinstance(child, Tree))
    if builder.problems:
        raise SpecError(builder.problems)
    return A.SpecFile(path, decls)


def shorten(text: str, limit: int = 40) -> str:
    """A token's text for a message, cut short if very long."""
    return text if len(text) <= limit else text[:limit] + "..."


def _unquote(token: Any) -> str:
    body = str(token)[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class _TooDeep(Exception):
    def __init__(self, pos: A.Pos):
        self.pos = pos


class _Builder:
    """Turns Lark trees into `ast` nodes."""

    def __init__(self, path: str, line_of: Any):
        self.path = path
        self.line_of = line_of
        self.problems: list[Diagnostic] = []
        self.depth = 0

    # positions ---------------------------------------------------------------
    def pos(self, node: TreeT | Token) -> A.Pos:
        if isinstance(node, Token):
            return A.Pos(self.path, node.line or 1, node.column or 1,
                         node.end_line or 0, node.end_column or 0)
        meta = node.meta
        if getattr(meta, "empty", True):
            return A.Pos(self.path, 1, 1)
        return A.Pos(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def integer(self, token: Token) -> int:
        """The value of a number token; one beyond :data:`~interpreter.ast.MAX_INT` is a problem."""
        text = str(token).lstrip("0") or "0"
        if len(text) > len(str(A.MAX_INT)) or int(text) > A.MAX_INT:
            pos = self.pos(token)
            self.problems.append(Diagnostic(pos, f"the number {shorten(text)} is larger than {A.MAX_INT}",
                                            self.line_of(pos.line)))
            return 0
        return int(text)

    # declarations -------------------------------------------------------------
    def declaration(self, tree: TreeT) -> A.Declaration:
        self.depth = 0
        try:
            return cast(A.Declaration, getattr(self, "d_" + str(tree.data))(tree))
        except _TooDeep as err:
            self.problems.append(
                Diagnostic(err.pos, f"nesting deeper than {MAX_NESTING} levels",
                           self.line_of(err.pos.line))
            )
            return A.MainDecl("", err.pos)

    def citations(self, items: list[Any]) -> tuple[A.Citation, ...]:
        out = []
        for item in items:
            if isinstance(item, Tree) and item.data == "citation":
                src, section, quote = item.children
                out.append(A.Citation(str(src), _unquote(section), _unquote(quote), self.pos(item)))
        return tuple(out)

    @staticmethod
    def tokens(tree: TreeT, kind: str) -> list[Token]:
        return [c for c in tree.children if isinstance(c, Token) and c.type == kind]

    @staticmethod
    def trees(tree: TreeT, kind: str) -> list[TreeT]:
        return [c for c in tree.children if isinstance(c, Tree) and c.data == kind]

    def d_game_decl(self, t: TreeT) -> A.GameDecl:
        name, title = t.children[:2]
        return A.GameDecl(str(name), _unquote(title), self.citations(t.children), self.pos(t))

    def d_source_decl(self, t: TreeT) -> A.SourceDecl:
        strings = self.tokens(t, "STRING")
        file = _unquote(strings[1]) if len(strings) > 1 else None
        return A.SourceDecl(str(t.children[0]), _unquote(strings[0]), file, self.pos(t))

    def d_text_decl(self, t: TreeT) -> A.TextDecl:
        sections = tuple(A.TextSection(_unquote(s.children[0]), tuple(_unquote(x) for x in s.children[1:]),
                                       self.pos(s)) for s in self.trees(t, "text_section"))
        return A.TextDecl(str(t.children[0]), sections, self.pos(t))

    def d_waive_decl(self, t: TreeT) -> A.Waiver:
        source, reason = (str(n) for n in self.tokens(t, "NAME"))
        strings = [c for c in t.children if isinstance(c, Token) and c.type == "STRING"]
        # the strings after the reason name (at most one) say where the sentence is accounted for
        names = [i for i, c in enumerate(t.children) if isinstance(c, Token) and c.type == "NAME"]
        tail = [_unquote(c) for c in t.children[names[1] + 1:]]
        texts = [_unquote(s) for s in strings[:len(strings) - len(tail)]]
        return A.Waiver(source, texts[0], tuple(texts[1:]), reason, tail[0] if tail else None, self.pos(t))

    def d_players_decl(self, t: TreeT) -> A.PlayersDecl:
        low, high = self.tokens(t, "INT")
        return A.PlayersDecl(self.integer(low), self.integer(high), self.citations(t.children), self.pos(t))

    def d_enum_decl(self, t: TreeT) -> A.EnumDecl:
        names = [str(n) for n in self.tokens(t, "NAME")]
        return A.EnumDecl(names[0], tuple(names[1:]), self.citations(t.children), self.pos(t))

    def d_table_decl(self, t: TreeT) -> A.TableDecl:
        name, file = t.children[:2]
        key: A.Column | None = None
        columns: list[A.Column] = []
        provenance: str | None = None
        verified: A.Expr | None = None
        for item in t.children[2:]:
            if not isinstance(item, Tree):
                continue
            if item.data in ("table_key", "table_column"):
                col_name, type_tree = item.children
                assert isinstance(type_tree, Tree)
                col = A.Column(str(col_name), str(type_tree.children[0]), self.pos(item))
                if item.data == "table_key":
                    key = col
                else:
                    columns.append(col)
            elif item.data == "table_provenance":
                provenance = str(item.children[0])
            elif item.data == "table_verified":
                verified = self.expr(item.children[0])
        return A.TableDecl(str(name), _unquote(file), key, tuple(columns), provenance, verified,
                           self.citations(t.children), self.pos(t))

    def d_graph_decl(self, t: TreeT) -> A.GraphDecl:
        names = [str(n) for n in self.tokens(t, "NAME")]
        exprs = [c for c in t.children if isinstance(c, Tree) and c.data != "citation"]
        where = self.expr(exprs[0]) if exprs else None
        return A.GraphDecl(names[0], names[1], names[2], names[3], names[4], where,
                           self.citations(t.children), self.pos(t))

    def d_pieces_decl(self, t: TreeT) -> A.PiecesDecl:
        name, table, zone = (str(n) for n in self.tokens(t, "NAME"))
        return A.PiecesDecl(name, table, zone, self.citations(t.children), self.pos(t))

    def dims(self, t: TreeT) -> tuple[str, ...]:
        found = self.trees(t, "dims")
        return tuple(str(n) for n in found[0].children) if found else ()

    def _state(self, t: TreeT, kind: str) -> A.StateDecl:
        exprs = [c for c in t.children[1:] if isinstance(c, Tree) and c.data not in ("dims", "citation", "type_name")]
        typed = self.trees(t, "type_name")
        return A.StateDecl(kind, str(t.children[0]), self.dims(t), self.expr(exprs[0]),
                           self.citations(t.children), self.pos(t),
                           type=str(typed[0].children[0]) if typed else None)

    def d_counter_decl(self, t: TreeT) -> A.StateDecl:
        return self._state(t, "counter")

    def d_var_decl(self, t: TreeT) -> A.StateDecl:
        return self._state(t, "var")

    def d_zone_decl(self, t: TreeT) -> A.ZoneDecl:
        names = self.tokens(t, "NAME")
        vis = self.trees(t, "visibility")[0]
        hidden = str(vis.children[0]) == "hidden"
        return A.ZoneDecl(str(names[0]), self.dims(t), str(names[1]), hidden,
                          self.citations(t.children), self.pos(t))

    def d_scope_decl(self, t: TreeT) -> A.ScopeDecl:
        return A.ScopeDecl(str(t.children[0]), self.citations(t.children), self.pos(t))

    def d_limit_decl(self, t: TreeT) -> A.LimitDecl:
        exprs = [c for c in t.children[1:] if isinstance(c, Tree) and c.data not in ("dims", "citation")]
        return A.LimitDecl(str(t.children[0]), self.dims(t), self.expr(exprs[0]),
                           self.citations(t.children), self.pos(t))

    def d_switch_decl(self, t: TreeT) -> A.SwitchDecl:
        name, question = t.children[:2]
        options = []
        for opt in self.trees(t, "switch_option"):
            default_tree = opt.children[0]
            assert isinstance(default_tree, Tree)
            value, desc = self.tokens(opt, "STRING")
            options.append(A.SwitchOption(_unquote(value), _unquote(desc),
                                          bool(default_tree.children),
                                          self.citations(opt.children), self.pos(opt)))
        return A.SwitchDecl(str(name), _unquote(question), tuple(options), self.pos(t))

    def d_setting_decl(self, t: TreeT) -> A.SettingDecl:
        name, question = t.children[:2]
        numbers = [int(n) for n in self.tokens(t, "INT")]
        low, high, *rest = numbers
        step, default = (rest[0], rest[1]) if len(rest) == 2 else (1, rest[0])
        return A.SettingDecl(str(name), _unquote(question), low, high, step, default,
                             self.citations(t.children), self.pos(t))

    def d_picture_decl(self, t: TreeT) -> A.PictureDecl:
        name, var, table = (str(n) for n in t.children[:3])
        rest = list(t.children[3:])
        items = [c for c in rest if isinstance(c, Tree) and c.data in ("picture_show", "picture_seat",
                                                                       "picture_edges", "picture_click")]
        exprs = [self.expr(c) for c in rest if isinstance(c, Tree) and c not in items]
        where, x, y = (exprs[0], exprs[1], exprs[2]) if len(exprs) == 3 else (None, exprs[0], exprs[1])
        parts: list[A.PicturePart] = []
        clicks: list[A.PictureClick] = []
        edges = seat_var = None
        seat_colour: A.Expr | None = None
        for item in items:
            kids = item.children
            if item.data == "picture_show":
                parts.append(A.PicturePart(str(kids[0]), self.expr(kids[1]), self.pos(item)))
            elif item.data == "picture_seat":
                seat_var, seat_colour = str(kids[0]), self.expr(kids[1])
            elif item.data == "picture_edges":
                edges = str(kids[0])
            else:
                clicks.append(A.PictureClick(_unquote(kids[0]), str(kids[1]), str(kids[2]), self.expr(kids[3]),
                                             self.expr(kids[4]), self.pos(item)))
        return A.PictureDecl(name, var, table, where, x, y, edges, tuple(parts), seat_var, seat_colour,
                             tuple(clicks), self.pos(t))

    def _condition(self, t: TreeT, kind: str) -> A.Condition:
        return A.Condition(kind, str(t.children[0]), self.citations(t.children),
                           self.expr(t.children[-1]), self.pos(t))

    def d_check_decl(self, t: TreeT) -> A.Condition:
        return self._condition(t, "check")

    def d_invariant_decl(self, t: TreeT) -> A.Condition:
        return self._condition(t, "invariant")

    def params(self, t: TreeT) -> tuple[A.Param, ...]:
        found = self.trees(t, "params")
        if not found:
            return ()
        out = []
        for param in found[0].children:
            assert isinstance(param, Tree)
            name, *type_name = (str(c) for c in param.children)
            out.append(A.Param(name, type_name[0] if type_name else None, self.pos(param)))
        return tuple(out)

    def d_function_decl(self, t: TreeT) -> A.FunctionDecl:
        exprs = [c for c in t.children[1:] if isinstance(c, Tree) and c.data not in ("params", "citation")]
        return A.FunctionDecl(str(t.children[0]), self.params(t), self.expr(exprs[0]),
                              self.citations(t.children), self.pos(t))

    def d_procedure_decl(self, t: TreeT) -> A.ProcedureDecl:
        body = self.trees(t, "block")[0]
        return A.ProcedureDecl(str(t.children[0]), self.params(t), self.citations(t.children),
                               self.block(body), self.pos(t))

    def d_score_decl(self, t: TreeT) -> A.ScoreDecl:
        return A.ScoreDecl(str(t.children[0]), self.expr(t.children[1]),
                           self.citations(t.children), self.pos(t))

    def d_main_decl(self, t: TreeT) -> A.MainDecl:
        return A.MainDecl(str(t.children[0]), self.pos(t))

    # statements ---------------------------------------------------------------
    def enter(self, node: TreeT | Token) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise _TooDeep(self.pos(node))

    def block(self, t: TreeT) -> A.Block:
        self.enter(t)
        stmts = tuple(self.statement(c) for c in t.children if isinstance(c, Tree))
        self.depth -= 1
        return A.Block(stmts, self.pos(t))

    def statement(self, t: TreeT) -> A.Stmt:
        return cast(A.Stmt, getattr(self, "s_" + str(t.data))(t))

    def s_let_stmt(self, t: TreeT) -> A.Let:
        return A.Let(str(t.children[0]), self.expr(t.children[1]), self.pos(t))

    def s_assign_stmt(self, t: TreeT) -> A.Assign:
        target, op_tree, value = t.children
        assert isinstance(target, Tree) and isinstance(op_tree, Tree)
        keys: tuple[A.Expr, ...] = ()
        if len(target.children) > 1:
            keys = self.args(target.children[1])
        return A.Assign(str(target.children[0]), keys, str(op_tree.children[0]),
                        self.expr(value), self.pos(t))

    def s_if_stmt(self, t: TreeT) -> A.If:
        branches = [(self.expr(t.children[0]), self.block(cast(TreeT, t.children[1])))]
        otherwise = None
        for part in t.children[2:]:
            assert isinstance(part, Tree)
            if part.data == "elif_part":
                branches.append((self.expr(part.children[0]), self.block(cast(TreeT, part.children[1]))))
            else:
                otherwise = self.block(cast(TreeT, part.children[0]))
        return A.If(tuple(branches), otherwise, self.pos(t))

    def s_while_stmt(self, t: TreeT) -> A.While:
        return A.While(self.expr(t.children[0]), self.block(cast(TreeT, t.children[1])), self.pos(t))

    def s_loop_stmt(self, t: TreeT) -> A.Loop:
        return A.Loop(self.block(cast(TreeT, t.children[0])), self.pos(t))

    def s_for_stmt(self, t: TreeT) -> A.For:
        var, domain, *rest = t.children
        where = self.expr(rest[0]) if len(rest) == 2 else None
        return A.For(str(var), self.expr(domain), where, self.block(cast(TreeT, rest[-1])), self.pos(t))

    def s_break_stmt(self, t: TreeT) -> A.Break:
        return A.Break(self.pos(t))

    def s_call_stmt(self, t: TreeT) -> A.CallProc:
        args = self.args(t.children[1]) if len(t.children) > 1 else ()
        return A.CallProc(str(t.children[0]), args, self.pos(t))

    def binding(self, t: TreeT) -> A.Binding:
        var, domain, *rest = t.children
        where = self.expr(rest[0]) if rest else None
        return A.Binding(str(var), self.expr(domain), where, self.pos(t))

    def s_choose_stmt(self, t: TreeT) -> A.Choose:
        player = self.expr(t.children[0])
        options = []
        for opt in self.trees(t, "option"):
            verb = _unquote(cast(Token, opt.children[0]))
            bindings: tuple[A.Binding, ...] = ()
            when: A.Expr | None = None
            body: A.Block | None = None
            for part in opt.children[1:]:
                if not isinstance(part, Tree):
                    continue
                if part.data == "bindings":
                    bindings = tuple(self.binding(cast(TreeT, b)) for b in part.children)
                elif part.data == "block":
                    body = self.block(part)
                elif part.data != "citation":
                    when = self.expr(part)
            assert body is not None
            options.append(A.Option(verb, bindings, when, self.citations(opt.children), body,
                                    self.pos(opt)))
        return A.Choose(player, tuple(options), self.pos(t))

    def s_chance_stmt(self, t: TreeT) -> A.Chance:
        verb = _unquote(cast(Token, t.children[0]))
        binding = self.binding(cast(TreeT, t.children[1]))
        body = self.block(self.trees(t, "block")[0])
        return A.Chance(verb, binding, self.citations(t.children), body, self.pos(t))

    def s_move_stmt(self, t: TreeT) -> A.Move:
        return A.Move(self.expr(t.children[0]), self.expr(t.children[1]), self.pos(t))

    def s_reveal_stmt(self, t: TreeT) -> A.Reveal:
        return A.Reveal(self.expr(t.children[0]), self.pos(t))

    def s_look_stmt(self, t: TreeT) -> A.Look:
        return A.Look(self.expr(t.children[0]), self.expr(t.children[1]), self.pos(t))

    def s_swap_stmt(self, t: TreeT) -> A.Swap:
        return A.Swap(self.expr(t.children[0]), self.expr(t.children[1]), self.pos(t))

    def s_begin_stmt(self, t: TreeT) -> A.Begin:
        return A.Begin(str(t.children[0]), self.pos(t))

    def s_use_stmt(self, t: TreeT) -> A.Use:
        return A.Use(str(t.children[0]), self.args(t.children[1]), self.pos(t))

    def s_finish_stmt(self, t: TreeT) -> A.Finish:
        return A.Finish(self.expr(t.children[0]), self.pos(t))

    def s_rule_stmt(self, t: TreeT) -> A.Rule:
        body = self.block(self.trees(t, "block")[0])
        return A.Rule(str(t.children[0]), self.citations(t.children), body, self.pos(t))

    def s_say_stmt(self, t: TreeT) -> A.Say:
        return A.Say(_unquote(cast(Token, t.children[0])), self.pos(t))

    # expressions --------------------------------------------------------------
    def args(self, t: Any) -> tuple[A.Expr, ...]:
        assert isinstance(t, Tree) and t.data == "args"
        return tuple(self.expr(c) for c in t.children)

    def expr(self, t: Any) -> A.Expr:
        self.enter(t)
        try:
            return self._expr(t)
        finally:
            self.depth -= 1

    def chain(self, t: TreeT, first: Any, rest: list[tuple[str, Any]], pos: A.Pos) -> A.Expr:
        """``a op b op c ...`` as a left-deep tree: each operator is one more level of nesting."""
        for _ in rest:
            self.enter(t)
        try:
            result = self.expr(first)
            for op, nxt in rest:
                result = A.Binary(op, result, self.expr(nxt), pos)
            return result
        finally:
            self.depth -= len(rest)

    def _expr(self, t: Any) -> A.Expr:
        if isinstance(t, Token):
            raise AssertionError(f"unexpected token {t!r}")
        kind = str(t.data)
        kids = t.children
        pos = self.pos(t)
        if kind in ("or_expr", "and_expr"):
            op = "or" if kind == "or_expr" else "and"
            return self.chain(t, kids[0], [(op, nxt) for nxt in kids[1:]], pos)
        if kind == "arith":
            ops = [(str(cast(TreeT, kids[i]).children[0]), kids[i + 1]) for i in range(1, len(kids), 2)]
            return self.chain(t, kids[0], ops, pos)
        if kind == "compare":
            if len(kids) == 1:
                return self.expr(kids[0])
            op_tree = cast(TreeT, kids[1])
            op = " ".join(str(c) for c in op_tree.children)
            return A.Binary(op, self.expr(kids[0]), self.expr(kids[2]), pos)
        if kind == "not_expr":
            return A.Unary("not", self.expr(kids[0]), pos)
        if kind == "neg":
            return A.Unary("-", self.expr(kids[0]), pos)
        if kind == "cond_expr":
            return A.Conditional(self.expr(kids[0]), self.expr(kids[1]), self.expr(kids[2]), pos)
        if kind == "range_expr":
            return A.Binary("..", self.expr(kids[0]), self.expr(kids[1]), pos)
        if kind == "name":
            return A.Name(str(kids[0]), pos)
        if kind == "int_lit":
            return A.Literal(self.integer(kids[0]), pos)
        if kind == "str_lit":
            return A.Literal(_unquote(kids[0]), pos)
        if kind == "true_lit":
            return A.Literal(True, pos)
        if kind == "false_lit":
            return A.Literal(False, pos)
        if kind == "none_lit":
            return A.Literal(None, pos)
        if kind == "list_lit":
            return A.ListLit(self.args(kids[0]) if kids else (), pos)
        if kind == "comprehension":
            filt = self.expr(kids[3]) if len(kids) > 3 else None
            return A.Comprehension(self.expr(kids[0]), str(kids[1]), self.expr(kids[2]), filt, pos)
        if kind == "aggregate":
            agg = str(cast(TreeT, kids[0]).children[0])
            var = str(kids[1])
            domain = self.expr(kids[2])
            where: A.Expr | None = None
            body: A.Expr | None = None
            for part in kids[3:]:
                assert isinstance(part, Tree)
                if part.data == "agg_where":
                    where = self.expr(part.children[0])
                else:
                    body = self.expr(part.children[0])
            return A.Aggregate(agg, var, domain, where, body, pos)
        if kind == "call":
            func = kids[0]
            if not (isinstance(func, Tree) and func.data == "name"):
                self.problems.append(Diagnostic(pos, "only named functions can be called",
                                                self.line_of(pos.line)))
                return A.Literal(None, pos)
            args = self.args(kids[1]) if len(kids) > 1 else ()
            return A.Call(str(func.children[0]), args, pos)
        if kind == "index":
            base = kids[0]
            if not (isinstance(base, Tree) and base.data == "name"):
                self.problems.append(Diagnostic(pos, "only named state can be indexed",
                                                self.line_of(pos.line)))
                return A.Literal(None, pos)
            return A.Index(str(base.children[0]), self.args(kids[1]), pos)
        if kind == "attr":
            return A.Attr(self.expr(kids[0]), str(kids[1]), pos)
        if len(kids) == 1:  # a parenthesised expression
            return self.expr(kids[0])
        raise AssertionError(f"unknown expression {kind}")


def grammar_nodes() -> dict[str, type[A.Declaration | A.Stmt]]:
    """The syntax-tree class each grammar rule of a declaration or statement makes, by rule name.

    Read from the builder's methods (``d_<rule>`` and ``s_<rule>``) and their return types, so it
    cannot fall out of step with the parser.  Where one class serves two rules (``counter_decl``
    and ``var_decl`` make a :class:`~interpreter.ast.StateDecl`), its ``kind`` is the rule's
    first word.
    """
    out: dict[str, type[A.Declaration | A.Stmt]] = {}
    for attr in dir(_Builder):
        if attr.startswith(("d_", "s_")):
            out[attr[2:]] = get_type_hints(getattr(_Builder, attr))["return"]
    return out
