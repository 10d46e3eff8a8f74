"""Readable English from the syntax tree: the rules as a person would read them.

:class:`English` turns checked expressions, statements and declarations into
English sentences.  It knows the rules language and nothing of any game; a
game may lend it words through a :class:`Vocabulary` (``points[p, s]`` → "the
number of points of *p* in *s*"), and every name without words gets a generic
phrase.  Output is a tree of :class:`Step` items whose text is typeset by a
:class:`Markup` (plain text here; the documentation uses reStructuredText).

>>> from interpreter.parser import parse_text
>>> from interpreter.checker import check
>>> spec = parse_text('''
... game g "G" cite src "s" "q"
... source src "S"
... players 2 to 2
... counter pile = 10
... main play
... procedure play cite src "s" "q" {
...   loop {
...     choose by first_player {
...       "take" n in 1 .. 2 where n <= pile cite src "s" "q" { pile -= n }
...     }
...     if pile == 0 { break }
...   }
... }
... ''')
>>> english = English(check([spec]))
>>> print(render_plain(english.block(english.checked.symbols.procedures["play"].body)))
- Repeat:
  - The start player chooses one of:
    - “take” n: any n from 1 to 2 such that n is at most the pile
      - Decrease the pile by n.
  - If the pile is 0, stop repeating.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import assert_never

import attrs

from . import ast as A
from .ast import child_blocks
from .builtins import BUILTINS, SPECIAL_NAMES
from .checker import Checked
from .symbols import Kind
from .types import (
    ANY,
    BOOL,
    INT,
    PLAYER,
    TEXT,
    AnyType,
    BoolType,
    EntityType,
    GraphType,
    IntType,
    ListType,
    NoneType,
    PieceType,
    PlayerType,
    SwitchType,
    TextType,
    Type,
    ZoneType,
)

# ------------------------------------------------------------------ typesetting


class Markup:
    """How the pieces of a sentence are typeset: plain text (override for other formats)."""

    def text(self, s: str) -> str:
        """Running prose."""
        return s

    def var(self, name: str) -> str:
        """A local name or parameter."""
        return name

    def value(self, v: str) -> str:
        """A text value: an option of a switch, a stage, an enum value."""
        return f"“{v}”"

    def verb(self, v: str) -> str:
        """The verb of an action."""
        return f"“{v}”"

    def strong(self, s: str) -> str:
        """Emphasis for a heading word."""
        return s

    def ref(self, kind: str, name: str, shown: str) -> str:
        """A link to a declaration (`procedure`, `function`, `switch`, `rule`, ...)."""
        return shown

    def quote(self, s: str) -> str:
        """A quoted sentence of a source text."""
        return f"„{s}“"


PLAIN = Markup()


@attrs.frozen
class Phrase:
    """Words for a name: a template with ``{0}``, ``{1}`` for its keys or arguments.

    ``negative`` is the template's negation, for names that are conditions.
    """

    text: str
    negative: str | None = None


@attrs.frozen
class ZoneWords:
    """Words for a zone: what it holds (``stones in the bag of {0}``) and where it is (``{0}'s bag``)."""

    contents: str
    place: str | None = None


@attrs.frozen
class Noun:
    """A kind of thing, singular and plural (``stone``, ``stones``)."""

    singular: str
    plural: str


def _as_phrase(v: str | Phrase) -> Phrase:
    return v if isinstance(v, Phrase) else Phrase(v)


@attrs.frozen
class Vocabulary:
    """A game's words for its own names; all optional.

    ``states``: counters and vars (a counter's phrase names what is counted:
    ``points of {0} in {1}``); ``zones``; ``functions`` and ``procedures`` (a
    phrase of the call, arguments as ``{0}``, ...); ``nouns``: tables, enums,
    piece kinds and graphs; ``columns``: table columns (``{0}`` is the row);
    ``limits``: usage limits as conditions ("still free").
    """

    states: Mapping[str, str | Phrase] = attrs.Factory(dict)
    zones: Mapping[str, ZoneWords] = attrs.Factory(dict)
    functions: Mapping[str, str | Phrase] = attrs.Factory(dict)
    procedures: Mapping[str, str] = attrs.Factory(dict)
    nouns: Mapping[str, Noun] = attrs.Factory(dict)
    columns: Mapping[str, str | Phrase] = attrs.Factory(dict)
    limits: Mapping[str, str | Phrase] = attrs.Factory(dict)

    def names(self) -> dict[str, list[str]]:
        """Every name the vocabulary gives words for, by kind (to check them against a spec)."""
        return {
            "states": list(self.states), "zones": list(self.zones), "functions": list(self.functions),
            "procedures": list(self.procedures), "nouns": list(self.nouns), "columns": list(self.columns),
            "limits": list(self.limits),
        }


# --------------------------------------------------------------------- results


@attrs.define
class Step:
    """One step of a procedure in English, with the steps it contains.

    ``kind`` is ``step``, ``rule``, ``option``, ``chance`` or ``decision``;
    ``name`` is the rule's name or the option's verb; ``anchor`` a stable
    id (``rule:draw_card``, ``option:turn:take:1``) for links.
    """

    text: str
    children: list[Step] = attrs.Factory(list)
    kind: str = "step"
    name: str = ""
    citations: tuple[A.Citation, ...] = ()
    anchor: str = ""
    pos: A.Pos | None = None
    group: int = 0  # the branches of one `if` share a group


def walk_steps(steps: Iterable[Step]) -> Iterable[Step]:
    """Every step of a tree, depth first."""
    for s in steps:
        yield s
        yield from walk_steps(s.children)


def render_plain(steps: Sequence[Step], indent: int = 0, citations: bool = False) -> str:
    """A step tree as an indented plain-text list (citations optional)."""
    lines: list[str] = []
    pad = "  " * indent
    for s in steps:
        lines.append(f"{pad}- {s.text}")
        if citations:
            for c in s.citations:
                lines.append(f"{pad}  [{c.source}, {c.section}: „{c.quote}“]")
        if s.children:
            lines.append(render_plain(s.children, indent + 1, citations))
    return "\n".join(lines)


def doc_comment(texts: Mapping[str, list[str]], pos: A.Pos) -> str:
    """The ``#`` comment lines directly above a declaration, joined (empty if none)."""
    lines = texts.get(pos.path, [])
    out: list[str] = []
    i = pos.line - 2
    while 0 <= i < len(lines) and lines[i].lstrip().startswith("#"):
        out.append(lines[i].lstrip()[1:].strip())
        i -= 1
    return " ".join(reversed(out)).strip()


def words(name: str) -> str:
    """An identifier as words: ``total_points`` → ``total points``."""
    return name.replace("_", " ")


# ---------------------------------------------------------------------- English

_COMPARE = {
    "==": ("is", "is not"),
    "!=": ("is not", "is"),
    "<": ("is less than", "is at least"),
    "<=": ("is at most", "is more than"),
    ">": ("is more than", "is at most"),
    ">=": ("is at least", "is less than"),
    "in": ("is among", "is not among"),
    "not in": ("is not among", "is among"),
}
#: How a parameter of a type that is no kind of thing is introduced (``number n``).
_VALUE_NOUNS: dict[Type, str] = {INT: "number", BOOL: "yes/no", TEXT: "text"}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "//": "divided by (rounded down)", "%": "modulo"}
_ARITH_LEVEL = {"+": 1, "-": 1, "*": 2, "//": 2, "%": 2}

class English:
    """Renders checked spec nodes as English.  See the module docstring."""

    def __init__(self, checked: Checked, vocabulary: Vocabulary | None = None, markup: Markup | None = None):
        self.checked = checked
        self.symbols = checked.symbols
        self.vocab = vocabulary or Vocabulary()
        self.m = markup or PLAIN
        self._verb_counts: dict[tuple[str, str], int] = {}
        self._procedure = ""
        self._groups = 0

    # -------------------------------------------------------------- helpers
    def _fill(self, template: str, args: Sequence[str]) -> str:
        """A vocabulary template with its arguments; the template's prose goes through ``text``."""
        parts = re.split(r"(\{\d+\})", template)
        out = []
        one = False
        for part in parts:
            m = re.fullmatch(r"\{(\d+)\}", part)
            if m:
                i = int(m.group(1))
                out.append(args[i] if i < len(args) else "?")
                one = out[-1] == self.t("1")
            elif part:
                if one:  # "takes 1 stones" → "takes 1 stone"
                    part = re.sub(r"^( [a-z]+)s\b", r"\1", part)
                out.append(self.m.text(part))
        return "".join(out)

    def t(self, s: str) -> str:
        """Prose through the markup."""
        return self.m.text(s)

    def type_of(self, e: A.Expr) -> Type:
        """The checker's type of an expression."""
        return self.checked.type_of(e)

    def is_local(self, e: A.Expr) -> bool:
        """Whether a name is a local variable or parameter."""
        return self.checked.is_local(e)

    def ref(self, e: A.Expr) -> Kind | None:
        """What a name, an indexed name or a call stands for (None for other expressions)."""
        return self.checked.refs.get(id(e)) if isinstance(e, (A.Name, A.Index, A.Call)) else None

    def noun(self, name: str) -> Noun:
        """The singular and plural of a table, enum, piece kind or graph."""
        if name in self.vocab.nouns:
            return self.vocab.nouns[name]
        if name == "player":
            return Noun("player", "players")
        w = words(name)
        if w.endswith("s") and not w.endswith("ss"):
            return Noun(w[:-1], w)
        return Noun(w, w + ("es" if w.endswith(("s", "x", "ch", "sh")) else "s"))

    def kind_noun(self, t: Type) -> str | None:
        """The singular noun of the values of a type, if they are things of a kind."""
        match t:
            case PlayerType():
                return "player"
            case EntityType(table=name) | PieceType(pieces=name):
                return self.noun(name).singular
            case IntType() | BoolType() | TextType() | NoneType() | AnyType() | ZoneType() | ListType() \
                    | GraphType() | SwitchType():
                return None
            case _:
                assert_never(t)

    def _zone_words(self, name: str, keys: Sequence[str]) -> tuple[str, str]:
        """(contents, place) of a zone with its keys rendered."""
        w = self.vocab.zones.get(name)
        if w is not None:
            contents = self._fill(w.contents, keys)
            place = self._fill(w.place, keys) if w.place else self.t("the ") + contents
            return contents, place
        decl = self.symbols.zones.get(name)
        kind = self.noun(decl.piece_type).plural if decl else "pieces"
        if keys:
            where = self.t(f"{kind} in {words(name)} of ") + self._and(keys)
            return where, self.t(f"{words(name)} of ") + self._and(keys)
        return self.t(f"{kind} in the {words(name)}"), self.t(f"the {words(name)}")

    def zone_contents(self, e: A.Expr) -> str | None:
        """What a zone expression holds, as a bare plural (``stones in the bag of p``), or None."""
        if isinstance(e, A.Index) and self.ref(e) is Kind.ZONE:
            return self._zone_words(e.base, [self.expr(a) for a in e.args])[0]
        if isinstance(e, A.Name) and self.ref(e) is Kind.ZONE:
            return self._zone_words(e.ident, [])[0]
        return None

    def zone_place(self, e: A.Expr) -> str:
        """Where a zone is, as a destination."""
        if isinstance(e, A.Index) and self.ref(e) is Kind.ZONE:
            return self._zone_words(e.base, [self.expr(a) for a in e.args])[1]
        if isinstance(e, A.Name) and self.ref(e) is Kind.ZONE:
            return self._zone_words(e.ident, [])[1]
        return self.expr(e)

    def _and(self, items: Sequence[str], word: str = "and") -> str:
        if len(items) <= 1:
            return "".join(items)
        return self.t(", ").join(items[:-1]) + self.t(f" {word} ") + items[-1]

    def among(self, var: str, domain: A.Expr, where: A.Expr | None, quantifier: str = "any",
              plural: bool = False) -> str:
        """``any stone s such that ...``: a variable ranging over a domain."""
        v = self.m.var(var)
        if isinstance(domain, A.Binary) and domain.op == "..":
            head = self.t(f"{quantifier} ") + v + self.t(" from ") + self.expr(domain.left) + self.t(" to ") \
                + self.expr(domain.right)
        elif isinstance(domain, A.Name) and (self.ref(domain) in (Kind.TABLE, Kind.ENUM) or (
                self.ref(domain) is Kind.SPECIAL and domain.ident == "players")):
            n = self.noun("player") if domain.ident == "players" else self.noun(domain.ident)
            head = self.t(f"{quantifier} {n.plural if plural else n.singular} ") + v
        else:
            head = self.t(f"{quantifier} ") + v + self.t(" among ") + self.expr(domain)
        if where is not None:
            head += self.t(" such that ") + self.cond(where)
        return head

    # ----------------------------------------------------------- expressions
    def expr(self, e: A.Expr) -> str:
        """An expression as a noun phrase (its value)."""
        m = self.m
        match e:
            case A.Literal():
                v = e.value
                if v is None:
                    return self.t("none")
                if isinstance(v, bool):
                    return self.t("true" if v else "false")
                if isinstance(v, int):
                    return self.t(str(v))
                return m.value(v)
            case A.Name():
                return self.name(e)
            case A.ListLit():
                if not e.items:
                    return self.t("nobody" if self.type_of(e) == ListType(PLAYER) else "nothing")
                return self._and([self.expr(i) for i in e.items])
            case A.Unary():
                if e.op == "-":
                    return self.t("minus ") + self.expr(e.operand)
                return self.cond(e)
            case A.Binary():
                if e.op in _ARITH:
                    if e.op == "+" and isinstance(self.type_of(e), ListType):
                        return self.expr(e.left) + self.t(" followed by ") + self.expr(e.right)
                    return self._arith_side(e.left, e.op, False) + self.t(f" {_ARITH[e.op]} ") \
                        + self._arith_side(e.right, e.op, True)
                if e.op == "..":
                    return self.t("the numbers from ") + self.expr(e.left) + self.t(" to ") + self.expr(e.right)
                return self.cond(e)
            case A.Conditional():
                return self._conditional(e)
            case A.Call():
                return self.call(e)
            case A.Index():
                return self.index(e)
            case A.Attr():
                return self.attr(e)
            case A.Aggregate():
                return self.aggregate(e)
            case A.Comprehension():
                return self.comprehension(e)
            case _:
                assert_never(e)

    def _arith_side(self, e: A.Expr, op: str, right: bool) -> str:
        text = self.expr(e)
        if isinstance(e, A.Binary) and e.op in _ARITH_LEVEL and (
                _ARITH_LEVEL[e.op] < _ARITH_LEVEL[op] or (right and _ARITH_LEVEL[e.op] == _ARITH_LEVEL[op])):
            return self.t("(") + text + self.t(")")
        return text

    def _conditional(self, e: A.Conditional) -> str:
        out = self.expr(e.then) + self.t(" if ") + self.cond(e.cond)
        rest: A.Expr = e.otherwise
        while isinstance(rest, A.Conditional):
            out += self.t(", ") + self.expr(rest.then) + self.t(" if ") + self.cond(rest.cond)
            rest = rest.otherwise
        return out + self.t(", otherwise ") + self.expr(rest)

    def name(self, e: A.Name) -> str:
        """A name as a noun phrase."""
        ident = e.ident
        kind = self.ref(e)
        match kind:
            case Kind.SPECIAL:
                return self.t(SPECIAL_NAMES[ident].english)
            case Kind.STATE:
                return self.state(ident, [])
            case Kind.ZONE:
                return self.t("the ") + self._zone_words(ident, [])[0]
            case Kind.SWITCH:
                return self.t("the interpretation ") + self.m.ref("switch", ident, self.symbols.switches[ident].ident)
            case Kind.SETTING:
                return self.t("the setting ") + self.m.ref("setting", ident, self.symbols.settings[ident].ident)
            case Kind.TABLE | Kind.ENUM:
                return self.t("the " + self.noun(ident).plural)
            case Kind.GRAPH:
                return self.t("the " + words(ident))
            case Kind.LOCAL | Kind.PIECES | Kind.SCOPE | Kind.LIMIT | Kind.FUNCTION | Kind.PROCEDURE \
                    | Kind.BUILTIN | None:
                return self.m.var(ident)  # a local; or a name read apart (a limit's scope)
            case _:
                assert_never(kind)

    def state(self, name: str, keys: Sequence[str]) -> str:
        """A counter or variable with its keys, as a noun phrase."""
        decl = self.symbols.states[name]
        if name in self.vocab.states:
            text = self._fill(_as_phrase(self.vocab.states[name]).text, keys)
            return (self.t("the number of ") + text) if decl.kind == "counter" else text
        base = self.t("the " + words(name))
        return base + (self.t(" of ") + self._and(list(keys)) if keys else "")

    def index(self, e: A.Index) -> str:
        """``name[keys]``: a counter, variable, zone or limit."""
        keys = [self.expr(a) for a in e.args]
        s = self.symbols
        if e.base in s.states:
            return self.state(e.base, keys)
        if e.base in s.zones:
            return self.t("the ") + self._zone_words(e.base, keys)[0]
        if e.base in s.limits:
            return self.limit(e.base, keys, True)
        return self.m.var(e.base) + self.t("[") + self.t(", ").join(keys) + self.t("]")

    def limit(self, name: str, keys: Sequence[str], free: bool) -> str:
        """A usage limit as a condition: still free, or used up."""
        if name in self.vocab.limits:
            p = _as_phrase(self.vocab.limits[name])
            if free or p.negative is None:
                text = self._fill(p.text, keys)
                return text if free else self.t("not: ") + text
            return self._fill(p.negative, keys)
        of = self.t(" of ") + self._and(list(keys)) if keys else ""
        return self.t(f"the {words(name)}") + of + self.t(" is still free" if free else " is used up")

    def attr(self, e: A.Attr, positive: bool = True) -> str:
        """``row.column``."""
        base = self.expr(e.base)
        if e.name in self.vocab.columns:
            p = _as_phrase(self.vocab.columns[e.name])
            if positive or p.negative is None:
                text = self._fill(p.text, [base])
                return text if positive else self.t("not: ") + text
            return self._fill(p.negative, [base])
        if self.type_of(e) == BOOL:
            return base + self.t(" is marked " if positive else " is not marked ") + self.m.value(e.name)
        return self.t(f"the {words(e.name)} of ") + base

    def call(self, e: A.Call, positive: bool = True) -> str:
        """A call of a builtin or of a spec function."""
        f = e.func
        args = [self.expr(a) for a in e.args]
        if self.ref(e) is Kind.FUNCTION:
            if f in self.vocab.functions:
                p = _as_phrase(self.vocab.functions[f])
                if positive or p.negative is not None:
                    return self._fill(p.text if positive else p.negative or "", args)
                return self.t("not: ") + self._fill(p.text, args)
            shown = self.m.ref("function", f, f) + self.t("(") + self.t(", ").join(args) + self.t(")")
            return shown if positive else self.t("not ") + shown
        return BUILTINS[f].english(self, e, args, positive)

    def aggregate(self, e: A.Aggregate, positive: bool = True) -> str:
        """``all / any / count / sum / most / least / first (x in D where W: B)``."""
        k = e.kind
        if k in ("all", "any"):
            assert e.body is not None
            if k == "all":
                head = self.among(e.var, e.domain, e.where, "every" if positive else "not every")
                return self.t("for ") + head + self.t(", ") + self.cond(e.body)
            head = self.among(e.var, e.domain, e.where, "some")
            lead = "there is " if positive else "there is no case of "
            return self.t(lead) + head + self.t(" for which ") + self.cond(e.body)
        if k == "count":
            head = self.among(e.var, e.domain, e.where, "each")
            if e.body is not None:
                return self.t("how many times ") + self.cond(e.body) + self.t(", over ") + head
            return self.among(e.var, e.domain, e.where, "the number of", plural=True)
        if k == "first":
            head = self.among(e.var, e.domain, e.where, "the first")
            if e.body is not None:
                return self.expr(e.body) + self.t(" for ") + head
            return head
        assert e.body is not None
        what = {"sum": "the sum of ", "most": "the largest ", "least": "the smallest "}[k]
        body = self.expr(e.body)
        if k != "sum" and body.startswith(self.t("the ")):
            body = body[len(self.t("the ")):]
        return self.t(what) + body + self.t(" over ") + self.among(e.var, e.domain, e.where, "each")

    def comprehension(self, e: A.Comprehension) -> str:
        """``[body for x in D where W]``."""
        head = self.among(e.var, e.domain, e.where, "every")
        if isinstance(e.body, A.Name) and e.body.ident == e.var:
            return head
        return self.expr(e.body) + self.t(" for ") + head

    # ------------------------------------------------------------ conditions
    def cond(self, e: A.Expr, positive: bool = True) -> str:
        """An expression as a condition (a clause), or its negation."""
        if isinstance(e, A.Unary) and e.op == "not":
            return self.cond(e.operand, not positive)
        if isinstance(e, A.Binary) and e.op in ("and", "or"):
            op = e.op if positive else ("or" if e.op == "and" else "and")
            items = self._flatten(e, e.op)
            parts = [self._cond_part(p, op, positive, i == len(items) - 1) for i, p in enumerate(items)]
            return self._and(parts, op)
        if isinstance(e, A.Binary) and e.op in _COMPARE:
            return self.compare(e, positive)
        if isinstance(e, A.Literal) and isinstance(e.value, bool):
            return self.t("always" if e.value == positive else "never")
        if isinstance(e, A.Call) and (self.ref(e) is Kind.FUNCTION or BUILTINS[e.func].is_condition):
            return self.call(e, positive)
        if isinstance(e, A.Attr):
            return self.attr(e, positive)
        if isinstance(e, A.Index) and self.ref(e) is Kind.LIMIT:
            return self.limit(e.base, [self.expr(a) for a in e.args], positive)
        if isinstance(e, A.Aggregate) and e.kind in ("all", "any"):
            return self.aggregate(e, positive)
        if isinstance(e, A.Name) and self.ref(e) is Kind.STATE and e.ident in self.vocab.states:
            p = _as_phrase(self.vocab.states[e.ident])
            if positive:
                return self._fill(p.text, [])
            if p.negative is not None:
                return self._fill(p.negative, [])
        value = self.expr(e)
        if self.type_of(e) in (BOOL, ANY) and isinstance(e, (A.Name, A.Index)):
            return value + self.t(" is true" if positive else " is false")
        return value if positive else self.t("not ") + value

    def _flatten(self, e: A.Expr, op: str) -> list[A.Expr]:
        if isinstance(e, A.Binary) and e.op == op:
            return self._flatten(e.left, op) + self._flatten(e.right, op)
        return [e]

    def _cond_part(self, e: A.Expr, outer: str, positive: bool, last: bool) -> str:
        """A part of an and/or chain; a nested chain of the other kind is marked with either/both,
        and put in parentheses unless it ends the sentence."""
        text = self.cond(e, positive)
        while isinstance(e, A.Unary) and e.op == "not":
            e, positive = e.operand, not positive
        inner = e.op if isinstance(e, A.Binary) and e.op in ("and", "or") else None
        if inner is not None and not positive:
            inner = "or" if inner == "and" else "and"
        if inner is not None and inner != outer:
            text = self.t("either " if inner == "or" else "both ") + text
            return text if last else self.t("(") + text + self.t(")")
        return text

    def compare(self, e: A.Binary, positive: bool = True) -> str:
        """A comparison as a clause."""
        op = e.op
        left, right = e.left, e.right
        if isinstance(left, A.Literal) and left.value is None and op in ("==", "!="):
            left, right = right, left
        # `x == none` → "there is no x" when x is a definite noun phrase
        if isinstance(right, A.Literal) and right.value is None and op in ("==", "!="):
            absent = (op == "==") == positive
            np = self.expr(left)
            bare = self.t("the ")
            if np.startswith(bare):
                rest = np[len(bare):]
                first = next((ch for ch in rest if ch.isalpha()), "x")
                article = "an " if first.lower() in "aeiou" else "a "
                return self.t("there is no " if absent else "there is " + article) + rest
            return np + self.t(" is none" if absent else " is not none")
        # size(zone) compared with 0 → "there are (no) ..."
        if isinstance(left, A.Call) and left.func == "size" and isinstance(right, A.Literal) \
                and right.value == 0 and op in ("==", "!=", ">"):
            contents = self.zone_contents(left.args[0])
            if contents is not None:
                some = (op != "==") == positive
                return self.t("there are " if some else "there are no ") + contents
        if isinstance(right, A.ListLit) and op in ("in", "not in"):
            among = (op == "in") == positive
            return self.expr(left) + self.t(" is one of " if among else " is none of ") \
                + self._and([self.expr(i) for i in right.items], "or")
        verb = _COMPARE[op][0 if positive else 1]
        return self.expr(left) + self.t(f" {verb} ") + self.expr(right)

    # ------------------------------------------------------------ statements
    def block(self, b: A.Block) -> list[Step]:
        """The steps of a block."""
        out: list[Step] = []
        for st in b.statements:
            if isinstance(st, A.If):
                out.extend(self.if_steps(st))
                continue
            step = self.statement(st)
            if step is not None:
                out.append(step)
        return out

    def statement(self, st: A.Stmt) -> Step | None:
        """One statement as a step (None for a `say`, which only writes the log)."""
        t = self.t
        m = self.m
        match st:
            case A.Say():
                return None
            case A.Let():
                if self.type_of(st.value) == BOOL and not isinstance(st.value, (A.Literal, A.Name)):
                    return Step(t("Let ") + m.var(st.name) + t(" be true exactly when ") + self.cond(st.value) + t("."),
                                pos=st.pos)
                return Step(t("Let ") + m.var(st.name) + t(" be ") + self.expr(st.value) + t("."), pos=st.pos)
            case A.Assign():
                return Step(self.assign(st), pos=st.pos)
            case A.If():
                steps = self.if_steps(st)
                return steps[0] if len(steps) == 1 else Step(t("Depending on the case:"), steps, pos=st.pos)
            case A.While():
                return Step(t("As long as ") + self.cond(st.cond) + t(", repeat:"), self.block(st.body), pos=st.pos)
            case A.Loop():
                return Step(t("Repeat:"), self.block(st.body), pos=st.pos)
            case A.For():
                return self.for_step(st)
            case A.Break():
                return Step(t("Stop repeating."), pos=st.pos)
            case A.CallProc():
                return Step(self.call_proc(st) + t("."), kind="call", name=st.name, pos=st.pos)
            case A.Choose():
                return self.choose(st)
            case A.Chance():
                return self.chance(st)
            case A.Move():
                return Step(self.move(st), pos=st.pos)
            case A.Reveal():
                return Step(t("Turn ") + self.expr(st.piece) + t(" face up for everyone."), pos=st.pos)
            case A.Look():
                return Step(self.expr(st.player) + t(" looks at the face of ") + self.expr(st.piece) + t("."),
                            pos=st.pos)
            case A.Swap():
                return Step(t("Swap the places of ") + self.expr(st.first) + t(" and ") + self.expr(st.second) + t("."),
                            pos=st.pos)
            case A.Begin():
                return Step(t(f"Begin a new {words(st.scope)}: every usage limit counted per {words(st.scope)} "
                              "is free again."), pos=st.pos)
            case A.Use():
                return Step(self.use(st), pos=st.pos)
            case A.Finish():
                return Step(self.finish(st), pos=st.pos)
            case A.Rule():
                return Step(m.strong(t("Rule")) + t(" ") + m.ref("rule", st.name, st.name), self.block(st.body),
                            kind="rule", name=st.name, citations=st.citations, anchor=f"rule:{st.name}", pos=st.pos)
            case _:
                assert_never(st)

    def assign(self, st: A.Assign) -> str:
        """``x = v``, ``x += v``, ``x -= v``."""
        t = self.t
        is_state = self.checked.ref(st) is Kind.STATE
        phrase = self.vocab.states.get(st.name) if not st.keys and is_state else None
        if isinstance(phrase, Phrase) and phrase.negative is not None and st.op == "=" \
                and isinstance(st.value, A.Literal) and isinstance(st.value.value, bool):
            return t("Record that ") + self._fill(phrase.text if st.value.value else phrase.negative, []) + t(".")
        target = self.state(st.name, [self.expr(k) for k in st.keys]) if is_state else self.m.var(st.name)
        value = self.expr(st.value)
        if st.op == "+=":
            return t("Increase ") + target + t(" by ") + value + t(".")
        if st.op == "-=":
            return t("Decrease ") + target + t(" by ") + value + t(".")
        return t("Set ") + target + t(" to ") + value + t(".")

    def if_steps(self, st: A.If) -> list[Step]:
        """``if / elif / else`` as steps; a one-line branch is written inline."""
        t = self.t
        parts: list[Step] = []
        for i, (cond, body) in enumerate(st.branches):
            lead = t("If ") if i == 0 else t("Otherwise, if ")
            parts.append(self._branch(lead + self.cond(cond), body, cond.pos))
        if st.otherwise is not None:
            parts.append(self._branch(t("Otherwise"), st.otherwise, st.otherwise.pos))
        if len(parts) > 1:
            self._groups += 1
            for p in parts:
                p.group = self._groups
        return parts

    def _branch(self, head: str, body: A.Block, pos: A.Pos) -> Step:
        steps = self.block(body)
        if not steps:
            return Step(head + self.t(", nothing happens."), pos=pos)
        if len(steps) == 1 and not steps[0].children and steps[0].kind in ("step", "call"):
            inner = steps[0].text
            return Step(head + self.t(", ") + _lower_first(inner), kind=steps[0].kind, name=steps[0].name, pos=pos)
        return Step(head + self.t(":"), steps, pos=pos)

    def for_step(self, st: A.For) -> Step:
        """``for x in D where W``; a counted loop whose number is unused is "repeat n times"."""
        t = self.t
        body = self.block(st.body)
        if isinstance(st.domain, A.Binary) and st.domain.op == ".." and st.where is None \
                and not _mentions(st.body, st.var) and isinstance(st.domain.left, A.Literal) \
                and st.domain.left.value == 1:
            return Step(t("Repeat ") + self.expr(st.domain.right) + t(" times:"), body, pos=st.pos)
        return Step(t("For ") + self.among(st.var, st.domain, st.where, "each") + t(", in turn:"), body, pos=st.pos)

    def call_proc(self, st: A.CallProc) -> str:
        """A procedure call: its vocabulary phrase with a link, or its name and arguments."""
        args = [self.expr(a) for a in st.args]
        link = self.m.ref("procedure", st.name, st.name)
        if st.name in self.vocab.procedures:
            template = self.vocab.procedures[st.name]
            text = self._fill(template, args)
            return (text if template.startswith("{") else _upper_first(text)) + self.t(" (") + link + self.t(")")
        if not args:
            return self.t("Carry out ") + link
        return self.t("Carry out ") + link + self.t(" with ") + self._params(st.name, args)

    def _params(self, proc: str, args: list[str]) -> str:
        decl = self.symbols.procedures.get(proc)
        names = [p.name for p in decl.params] if decl else []
        shown = []
        for i, a in enumerate(args):
            name = names[i] if i < len(names) else ""
            shown.append(a if a == self.m.var(name) or not name else self.m.var(name) + self.t(" = ") + a)
        return self._and(shown)

    def move(self, st: A.Move) -> str:
        """``move pieces to zone``."""
        t = self.t
        zone = st.zone
        zname = zone.base if isinstance(zone, A.Index) else zone.ident if isinstance(zone, A.Name) else ""
        decl = self.symbols.zones.get(zname)
        face = "" if decl is None else (" face down" if decl.hidden else " face up")
        place = self.zone_place(zone)
        if isinstance(self.type_of(st.pieces), ListType):
            return t(f"Move{face} to ") + place + t(" ") + self.expr(st.pieces) + t(".")
        return t("Move ") + self.expr(st.pieces) + t(f"{face} to ") + place + t(".")

    def use(self, st: A.Use) -> str:
        """``use limit[keys]``."""
        keys = [self.expr(k) for k in st.keys]
        decl = self.symbols.limits.get(st.limit)
        scope = self._scope_words(decl.scope) if decl else ""
        of = self.t(" of ") + self._and(keys) if keys else ""
        return self.t(f"Use up the {words(st.limit)}") + of + self.t(" for this ") + scope + self.t(".")

    def _scope_words(self, e: A.Expr) -> str:
        """The scope of a usage limit: ``turn``, or ``turn (this round if ...)``."""
        if isinstance(e, A.Name):
            return self.t(words(e.ident))
        if isinstance(e, A.Conditional):
            return self._scope_words(e.otherwise) + self.t(" (this ") + self._scope_words(e.then) \
                + self.t(" if ") + self.cond(e.cond) + self.t(")")
        return self.expr(e)

    def finish(self, st: A.Finish) -> str:
        """``finish winners``."""
        w = st.winners
        if isinstance(w, A.ListLit) and len(w.items) == 1:
            return self.t("The game ends; the winner is ") + self.expr(w.items[0]) + self.t(".")
        return self.t("The game ends; the winners are ") + self.expr(w) + self.t(".")

    # ------------------------------------------------------------- decisions
    def option_anchor(self, verb: str) -> str:
        """A stable anchor for the next option with this verb in the current procedure."""
        key = (self._procedure, verb)
        n = self._verb_counts.get(key, 0) + 1
        self._verb_counts[key] = n
        return f"option:{self._procedure}:{verb}:{n}"

    def option_head(self, opt: A.Option) -> str:
        """``“take” c: any class c such that ...; only when ...``."""
        t = self.t
        head = self.m.verb(opt.verb)
        for b in opt.bindings:
            head += t(" ") + self.m.var(b.var)
        parts = [self.among(b.var, b.domain, b.where, "any") for b in opt.bindings]
        if parts:
            head += t(": ") + t("; ").join(parts)
        if opt.when is not None:
            head += t(" — only when ") + self.cond(opt.when)
        return head

    def choose(self, st: A.Choose) -> Step:
        """A player decision with its options."""
        who = self.expr(st.player)
        options = []
        for opt in st.options:
            anchor = self.option_anchor(opt.verb)
            head = self.option_head(opt)
            options.append(Step(head, self.block(opt.body), kind="option", name=opt.verb,
                                citations=opt.citations, anchor=anchor, pos=opt.pos))
        who = who if self.is_local(st.player) else _upper_first(who)
        return Step(who + self.t(" chooses one of:"), options, kind="decision", pos=st.pos)

    def chance(self, st: A.Chance) -> Step:
        """A chance event: one outcome drawn uniformly."""
        t = self.t
        b = st.binding
        head = t("Chance ") + self.m.verb(st.verb) + t(" (each outcome equally likely): ") \
            + self.among(b.var, b.domain, b.where, "one") + t(":")
        anchor = self.option_anchor(st.verb)
        return Step(head, self.block(st.body), kind="chance", name=st.verb, citations=st.citations,
                    anchor=anchor, pos=st.pos)

    def options_of(self, proc: A.ProcedureDecl) -> list[tuple[str, A.Option | A.Chance, str]]:
        """Every option of every `choose` and every `chance` in a procedure, in order:
        (anchor, option or chance, who decides)."""
        found: list[tuple[str, A.Option | A.Chance, str]] = []
        self.begin_procedure(proc.name)

        def visit(block: A.Block) -> None:
            for st in block.statements:
                if isinstance(st, A.Choose):
                    who = self.expr(st.player)
                    for opt in st.options:
                        found.append((self.option_anchor(opt.verb), opt, who))
                        visit(opt.body)
                elif isinstance(st, A.Chance):
                    found.append((self.option_anchor(st.verb), st, "chance"))
                    visit(st.body)
                else:
                    for child in child_blocks(st):
                        visit(child)

        visit(proc.body)
        return found

    def deciding_procedures(self) -> set[str]:
        """The procedures that ask a decision or a chance event, themselves or through a call."""
        procs = self.symbols.procedures
        direct: dict[str, set[str]] = {}
        deciding: set[str] = set()
        for name, d in procs.items():
            calls: set[str] = set()

            def visit(block: A.Block, calls: set[str] = calls, name: str = name) -> None:
                for st in block.statements:
                    if isinstance(st, (A.Choose, A.Chance)):
                        deciding.add(name)
                    if isinstance(st, A.CallProc):
                        calls.add(st.name)
                    for child in child_blocks(st):
                        visit(child)

            visit(d.body)
            direct[name] = calls
        changed = True
        while changed:
            changed = False
            for name, calls in direct.items():
                if name not in deciding and calls & deciding:
                    deciding.add(name)
                    changed = True
        return deciding

    def outline(self, d: A.ProcedureDecl, deciding: set[str] | None = None) -> list[Step]:
        """A procedure cut down to how it reaches decisions: the decisions, chance events, the
        calls that lead to some, and the loops, branches and rules around them."""
        keep_calls = self.deciding_procedures() if deciding is None else deciding

        def prune(steps: list[Step]) -> list[Step]:
            kept: list[tuple[Step, bool]] = []
            for s in steps:
                if s.kind == "decision":
                    s.children = [attrs.evolve(o, children=prune(o.children)) for o in s.children]
                    kept.append((s, True))
                elif s.kind == "chance" or (s.kind == "call" and s.name in keep_calls):
                    s.children = prune(s.children)
                    kept.append((s, True))
                else:
                    s.children = prune(s.children)
                    kept.append((s, bool(s.children)))
            groups = {s.group for s, keep in kept if keep and s.group}
            out = [s for s, keep in kept if keep or (s.group and s.group in groups)]
            for s in out:
                if not s.children and s.text.endswith(":"):
                    s.text = s.text[:-1] + "."
            return out

        return prune(self.procedure(d))

    def begin_procedure(self, name: str) -> None:
        """Start numbering option anchors of a procedure afresh."""
        self._procedure = name
        for key in [k for k in self._verb_counts if k[0] == name]:
            del self._verb_counts[key]

    # ---------------------------------------------------------- declarations
    def signature(self, params: Sequence[A.Param]) -> str:
        """``(p: player, s: stones)`` as ``player p and stone s``."""
        out = []
        for p in params:
            t = self.checked.param_types.get(id(p), ANY)
            noun = _VALUE_NOUNS.get(t) or self.kind_noun(t)
            out.append((self.t(noun + " ") if noun else "") + self.m.var(p.name))
        return self._and(out)

    def dims(self, dims: Sequence[str]) -> tuple[str, list[str]]:
        """``for each player p and stone s`` and the variables (``p``, ``s``) standing for the keys."""
        used: set[str] = set()
        names, parts = [], []
        for dim in dims:
            noun = self.noun(dim).singular if dim != "player" else "player"
            if dim in self.symbols.graphs:
                noun = self.noun(self.symbols.graphs[dim].nodes).singular
            letter = noun[0].lower()
            var = letter
            n = 2
            while var in used:
                var, n = f"{letter}{n}", n + 1
            used.add(var)
            names.append(self.m.var(var))
            parts.append(self.t(noun + " ") + self.m.var(var))
        return (self.t("for each ") + self._and(parts) if parts else ""), names

    def declaration(self, d: A.Declaration) -> str:
        """A declaration other than a procedure or function, as a sentence."""
        t = self.t
        match d:
            case A.GameDecl():
                return t("The game ") + self.m.strong(t(d.title)) + t(".")
            case A.SourceDecl():
                return t("Source ") + self.m.value(d.name) + t(": ") + t(d.title) + t(".")
            case A.PlayersDecl():
                return t(f"A game has {d.low} to {d.high} players.")
            case A.EnumDecl():
                values = self._and([self.m.value(v) for v in d.values])
                return t(f"The {self.noun(d.name).plural} are ") + values + t(".")
            case A.TableDecl():
                return t(f"The {self.noun(d.name).plural} are the rows of the component table {d.file}"
                         + (f"; each row says where its facts come from ({d.provenance})" if d.provenance else "")) \
                    + (t(", and counts as verified when ") + self.cond(d.verified) if d.verified is not None
                       and not (isinstance(d.verified, A.Literal) and d.verified.value is True)
                       else t(", and every row counts as verified")) \
                    + t(".")
            case A.GraphDecl():
                nodes = self.noun(d.nodes).plural
                out = t(f"The {words(d.name)} joins the {nodes}: two {nodes} are neighbours when a row of "
                        f"{words(d.edges)} names them")
                if d.where is not None:
                    out += t(f"; a {self.noun(d.nodes).singular} is in play when ") + self.cond(d.where)
                return out + t(".")
            case A.PiecesDecl():
                return t(f"There is one {self.noun(d.name).singular} for each row of {words(d.table)}; all start "
                         "in ") + self._zone_words(d.zone, [])[1] + t(".")
            case A.StateDecl():
                each, keys = self.dims(d.dims)
                phrase = self.vocab.states.get(d.name)
                if isinstance(phrase, Phrase) and phrase.negative is not None and isinstance(d.init, A.Literal) \
                        and isinstance(d.init.value, bool) and not d.dims:
                    return t("At first, ") + self._fill(phrase.text if d.init.value else phrase.negative, []) + t(".")
                what = self.state(d.name, keys)
                holds = "" if d.type is None else t(f" It is a {self.noun(d.type).singular} or nothing.")
                if isinstance(d.init, A.Literal) and d.init.value is None and what.startswith(t("the ")):
                    lead = (each + t(", at first") if each else t("At first")) + t(" there is no ")
                    return _upper_first(lead + what[len(t("the ")):]) + t(".") + holds
                return _upper_first((each + t(", ") if each else "") + what) + t(" is at first ") + self.expr(d.init) \
                    + t(".") + holds
            case A.ZoneDecl():
                each, keys = self.dims(d.dims)
                place = self._zone_words(d.name, keys)[1]
                vis = "face down: only those who look may see their faces" if d.hidden else "face up"
                held = t(f" holds {self.noun(d.piece_type).plural}, {vis}.")
                return _upper_first((each + t(", ") if each else "") + place) + held
            case A.ScopeDecl():
                return t(f"A {words(d.name)} is a span of play that usage limits may be counted in.")
            case A.LimitDecl():
                each, keys = self.dims(d.dims)
                return _upper_first((each + t(", ") if each else "") + t(f"the {words(d.name)}")
                                    + (t(" of ") + self._and(keys) if keys else "")) \
                    + t(" may be used once per ") + self._scope_words(d.scope) + t(".")
            case A.SwitchDecl():
                return t(d.question)
            case A.PictureDecl():
                shows = ", ".join(part.part for part in d.parts) or "nothing but its place"
                return t(f"The picture {words(d.name)} draws a place for each of the {self.noun(d.table).plural}, "
                         f"laid out by its coordinates; each place shows its {shows}.")
            case A.SettingDecl():
                step = f" in steps of {d.step}" if d.step != 1 else ""
                return t(f"{d.question} A whole number from {d.low} to {d.high}{step}; {d.default} unless chosen.")
            case A.Condition():
                return _upper_first(self.cond(d.expr)) + t(".")
            case A.ScoreDecl():
                return t("The score of player ") + self.m.var(d.player) + t(" is ") + self.expr(d.expr) + t(".")
            case A.MainDecl():
                return t("A new game runs ") + self.m.ref("procedure", d.procedure, d.procedure) + t(".")
            case A.FunctionDecl():
                return self.function(d)
            case A.ProcedureDecl():
                return render_plain(self.procedure(d))
            case A.TextDecl():
                count = sum(len(s.sentences) for s in d.sections)
                return t("The text of source ") + self.m.value(d.source) + t(
                    f": {count} sentences under {len(d.sections)} headings.")
            case A.Waiver():
                n = len(d.quotes)
                return t(("This sentence" if n == 1 else f"These {n} sentences") + " of source ") \
                    + self.m.value(d.source) + t(f" ({d.section}) " + ("is" if n == 1 else "are")
                                                 + " carried out by no rule: " + A.WAIVER_REASONS[d.reason]
                                                 if d.reason in A.WAIVER_REASONS else d.reason) \
                    + (t(" (") + self.m.value(d.where) + t(")") if d.where else "") + t(".")
            case _:
                assert_never(d)

    def procedure(self, d: A.ProcedureDecl) -> list[Step]:
        """A procedure's steps."""
        self.begin_procedure(d.name)
        return self.block(d.body)

    def function(self, d: A.FunctionDecl) -> str:
        """A function's definition as a sentence."""
        args = [self.m.var(p.name) for p in d.params]
        head = self.m.ref("function", d.name, d.name) + self.t("(") + self.t(", ").join(args) + self.t(")")
        if d.name in self.vocab.functions:
            template = _as_phrase(self.vocab.functions[d.name]).text
            head = self._fill(template, args)
            if not template.startswith("{"):
                head = _upper_first(head)
        body = self.cond(d.body) if self.type_of(d.body) == BOOL else self.expr(d.body)
        if self.type_of(d.body) == BOOL:
            return head + self.t(" when ") + body + self.t(".")
        return head + self.t(" is ") + body + self.t(".")


# ----------------------------------------------------------------- small helpers


def _upper_first(s: str) -> str:
    i = next((k for k, ch in enumerate(s) if ch.isalpha()), None)
    if i is None or s[:i].count("*") or s[:i].count("`"):
        return s
    return s[:i] + s[i].upper() + s[i + 1:]


def _lower_first(s: str) -> str:
    """A sentence continued after a comma: its first word in lower case (not a name or markup)."""
    if len(s) > 1 and s[0].isupper() and s[1].islower():
        return s[0].lower() + s[1:]
    return s


def _mentions(node: object, name: str) -> bool:
    """Whether a subtree mentions a name (used to spot unused loop counters)."""
    if isinstance(node, A.Name):
        return node.ident == name
    if isinstance(node, A.Say):
        return "{" + name + "}" in node.template
    if isinstance(node, (A.Assign, A.Let)) and node.name == name:
        return True
    if isinstance(node, tuple):
        return any(_mentions(x, name) for x in node)
    if attrs.has(type(node)):
        fields = attrs.fields(type(node))  # type: ignore[arg-type]
        return any(_mentions(getattr(node, f.name), name) for f in fields if f.name != "pos")
    return False


__all__ = [
    "PLAIN",
    "English",
    "Markup",
    "Noun",
    "Phrase",
    "Step",
    "Vocabulary",
    "ZoneWords",
    "child_blocks",
    "doc_comment",
    "render_plain",
    "walk_steps",
    "words",
]
