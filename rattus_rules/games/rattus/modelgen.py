"""The generated parts of the normative decision model (``docs/decision-model.rst``).

Each function returns reStructuredText made from the loaded spec and its
component data, so the page says what the interpreter runs: every decision
point with what one action is, every chance event with its outcome set and
the order of its outcomes, the setup order of the regions, the faces shared
by several tokens, and the typed columns the components hash is made from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from interpreter import Game
from interpreter import ast as A
from interpreter.data import ROW_NUMBER
from interpreter.english import child_blocks
from interpreter.types import ANY, BoolType, IntType, ListType, Type
from rattus_rules.tools.docs.rst import esc, label, list_table, literal
from rattus_rules.tools.records.validate import components_digest

from .faces import face_text
from .names import BOARD


def _described(t: Type) -> str:
    """What a column's cells become in a row object."""
    match t:
        case IntType():
            return "integer (JSON number)"
        case BoolType():
            return "yes/no → JSON true/false"
        case ListType():
            return "list of the ``+``-separated parts, in the cell's order"
        case _:
            return "string"


Around = tuple[tuple[str, str], ...]  # (word, spec text): ("if", "x > 0"), ("for each r in", "regions")
Found = tuple[str, str, Around, A.Choose | A.Chance]


def _walk(game: Game) -> Iterator[Found]:
    """Every choose and chance of the spec in spec order: its procedure, innermost rule, and the
    conditions and loops around it in its procedure (spec text)."""
    def visit(proc: A.ProcedureDecl, block: A.Block, rule: str, around: Around) -> Iterator[Found]:
        for st in block.statements:
            here = st.name if isinstance(st, A.Rule) else rule
            if isinstance(st, A.Choose):
                yield proc.name, here, around, st
                for opt in st.options:
                    yield from visit(proc, opt.body, here, around)
            elif isinstance(st, A.Chance):
                yield proc.name, here, around, st
                yield from visit(proc, st.body, here, around)
            elif isinstance(st, A.If):
                before: Around = ()
                for cond, body in st.branches:
                    text = _plain(game, cond)
                    yield from visit(proc, body, here, around + before + (("if", text),))
                    before += (("not", text),)
                if st.otherwise is not None:
                    yield from visit(proc, st.otherwise, here, around + before)
            elif isinstance(st, A.While):
                yield from visit(proc, st.body, here, around + (("while", _plain(game, st.cond)),))
            elif isinstance(st, A.For):
                yield from visit(proc, st.body, here, around + ((f"for each {st.var} in", _plain(game, st.domain)),))
            else:
                for child in child_blocks(st):
                    yield from visit(proc, child, here, around)

    for proc in game.symbols.procedures.values():
        yield from visit(proc, proc.body, "", ())


def _plain(game: Game, e: A.Expr) -> str:
    return game.snippet(e).strip("`")


def _around(around: Around, extra: str = "") -> str:
    parts = [f"{esc(word)} {literal(code)}" for word, code in around] + ([extra] if extra else [])
    return "; ".join(parts) or "always"


def _code(game: Game, e: A.Expr | None) -> str:
    return literal(game.snippet(e).strip("`")) if e is not None else ""


def _binding(game: Game, b: A.Binding) -> str:
    text = f"*{esc(b.var)}* in {_code(game, b.domain)}"
    return text + (f" where {_code(game, b.where)}" if b.where is not None else "")


def _asked_in(proc: str, rule: str) -> str:
    out = f":ref:`{esc(proc)} <{label('procedure:' + proc)}>`"
    return out + (f" / :ref:`{esc(rule)} <{label('rule:' + rule)}>`" if rule else "")


def decisions_rst(game: Game) -> str:
    """Every player decision: its verbs, who decides, what one action is, and the rule asking it."""
    rows = []
    for proc, rule, around, st in _walk(game):
        if not isinstance(st, A.Choose):
            continue
        for opt in st.options:
            action = " ".join([f"``{opt.verb}``", *(f"*{esc(b.var)}*" for b in opt.bindings)])
            values = "; ".join(_binding(game, b) for b in opt.bindings) or "—"
            when = _around(around, f"option offered if {_code(game, opt.when)}" if opt.when is not None else "")
            rows.append([action, _code(game, st.player), values, when, _asked_in(proc, rule)])
    return "\n".join(list_table(["one action", "decided by", "its values", "asked when (in its procedure)",
                                 "asked in"], rows, [12, 10, 24, 36, 18])) + "\n"


def _order(game: Game, domain: A.Expr) -> str:
    text = game.snippet(domain).strip("`")
    if text.startswith("pieces("):
        return "the tokens of that zone in the zone's order (see *Zones are ordered*)"
    if text.startswith("nodes("):
        return "the regions in play in the order of ``regions.csv``"
    if ".." in text:
        return "the numbers ascending"
    return "the order of the domain"


def chance_rst(game: Game) -> str:
    """Every chance event: the outcome set and the order of its outcomes."""
    rows = []
    for proc, rule, around, st in _walk(game):
        if isinstance(st, A.Chance):
            b = st.binding
            rows.append([f"``{st.verb}`` *{esc(b.var)}*", _binding(game, b), _order(game, b.domain),
                         _around(around), _asked_in(proc, rule)])
    return "\n".join(list_table(["one outcome", "outcome set", "order of the outcomes", "asked when",
                                 "asked in"], rows, [14, 24, 22, 22, 18])) + "\n"


def regions_rst(game: Game) -> str:
    """The regions in play for each player count, in setup order."""
    rows = []
    for n in range(game.min_players, game.max_players + 1):
        regions = game.world(n).nodes[BOARD]
        rows.append([str(n), str(len(regions)), ", ".join(regions)])
    return "\n".join(list_table(["players", "regions", "in this order"], rows, [10, 10, 80])) + "\n"


def faces_rst(game: Game) -> str:
    """The faces that more than one token shows, with the tokens' ids and start flags."""
    by_face: dict[str, list[int]] = {}
    for p in range(len(game.piece_rows)):
        by_face.setdefault(face_text(game, p), []).append(p)
    rows = []
    for face, pieces in by_face.items():
        if len(pieces) > 1:
            ids = ", ".join(f"{game.piece_keys[p]}{' (start)' if game.piece_rows[p]['start'] else ''}"
                            for p in pieces)
            rows.append([literal(face), ids])
    if not rows:
        return "No two tokens show the same face.\n"
    return "\n".join(list_table(["face", "token ids (rat_tokens.csv)"], rows, [40, 60])) + "\n"


def hash_rst(game: Game) -> str:
    """The tables and typed columns the components hash is made from, and the digest of the shipped data."""
    rows = []
    for name in sorted(game.tables):
        table = game.tables[name]
        decl = game.symbols.tables[name]
        cols = ([decl.key] if decl.key else []) + list(decl.columns)
        typed = [f"``{c.name}``: {_described(game.symbols.column_type(name, c.name) or ANY)}" for c in cols]
        if not decl.key:
            typed.append(f"``{ROW_NUMBER}``: the row's number, 1 for the first row after the header")
        rows.append([f"``{name}``", literal(decl.file.rsplit('/', 1)[-1]), "; ".join(typed),
                     literal(table.provenance_column or "—")])
    out = list_table(["table", "file", "members of each row object", "left out"], rows, [12, 18, 55, 15])
    out += ["", f"The shipped tables hash to ``{components_digest(game)}``."]
    return "\n".join(out) + "\n"


PAGES: dict[str, Callable[[Game], str]] = {
    "model-decisions": decisions_rst,
    "model-chance": chance_rst,
    "model-regions": regions_rst,
    "model-faces": faces_rst,
    "model-hash": hash_rst,
}
