"""The rulebook and reference pages generated from the loaded spec (reStructuredText).

Every procedure, function, ``rule`` block, ``choose`` option and chance event of
the spec is rendered as English by :mod:`interpreter.english` and placed, with
its German citations beside it, in the chapter of the rulebook its first
citation belongs to (setup, turn, Ⓐ, Ⓑ, Ⓒ, class cards, end).  The other pages:
the interpretation switches, the invariants and data checks, the component
tables with each fact marked verified or reconstructed, and how a game is cut
into decisions.  :data:`PAGES` maps each generated part to its function; the
Sphinx extension in ``docs/_ext`` puts them into the pages.

>>> from rattus_rules import load_rules
>>> text = rulebook_rst(load_rules())
>>> ".. _rules-rule-three-per-region:" in text
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import attrs

from interpreter import Game, notation
from interpreter import ast as A
from interpreter.english import English, child_blocks, doc_comment, walk_steps
from rattus_rules.paths import project_root
from rattus_rules.tools.docs.coveragepage import coverage_rst
from rattus_rules.tools.docs.rst import RstMarkup, beside, esc, heading, indent, label, list_table, literal, steps_rst

from .names import View
from .scenario import scenario_citations, switch_scenarios
from .wording import VOCABULARY

# ------------------------------------------------------------------ chapters


@attrs.frozen
class Chapter:
    """A chapter of the rulebook: the German sections whose rules it holds, in the rulebook's order."""

    key: str
    title: str
    sections: tuple[str, ...]
    intro: str
    kinds: tuple[str, ...] = ("option", "procedure", "function")
    subsections: bool = False
    first: tuple[str, ...] = ()  # anchors shown first, in this order (the rulebook's order of the chapter)


#: The rulebook's order.  An item goes to the chapter of its first citation's section.
CHAPTERS = (
    Chapter("game", "The game and its components", ("Einleitung", "Spielinhalt"),
            "What a game of Rattus is made of, and the state a game keeps.", ("procedure", "function", "option")),
    Chapter("setup", "Setup (Spielvorbereitung)", ("Spielvorbereitung",),
            "Before the first turn: the start tokens, the supply of rat tokens, the plague and the first cubes.",
            ("procedure", "function", "option")),
    Chapter("turn", "A turn (Spielablauf)", ("Spielablauf",),
            "Players take turns clockwise.  A turn is a loop of decisions by the active player: actions A and B "
            "and card abilities in any order, then action C, which ends the turn.",
            ("procedure", "option", "function")),
    Chapter("a", "Ⓐ Taking a class card", ("Ⓐ",), "The first action: taking a class card (optional)."),
    Chapter("b", "Ⓑ Placing cubes", ("Ⓑ",), "The second action: placing cubes on the board."),
    Chapter("c", "Ⓒ Moving the plague: spreading and devastation", ("Ⓒ",),
            "The last action of every turn: the plague moves, spreads and devastates."),
    Chapter("cards", "The class cards (Die Ständekarten)",
            ("Die Ständekarten", "König", "Mönch", "Ritter", "Kaufmann", "Bauer", "Hexe"),
            "What each class card lets its holder do, and when.", subsections=True),
    Chapter("end", "The end of the game (Spielende)", ("Spielende",),
            "When the game ends, the final round, the final devastation and the winner.",
            ("procedure", "option", "function"),
            first=("procedure:end_trigger", "procedure:final_round", "option:player_turn:peasant:1",
                   "procedure:final_knight_move", "procedure:final_devastation", "procedure:decide_winner")),
)

#: Items whose first citation does not name the chapter (``key``) or the section (``key/section``) a reader
#: looks for them in.
CHAPTER_OVERRIDES = {
    "procedure:play": "game",
    "procedure:regular_turns": "turn",
    "option:player_turn:end:1": "turn",
    "function:knight_target": "cards/Ritter",
    "function:abilities_open": "cards/Die Ständekarten",
}

#: The order of the spec files in the rulebook.
FILE_ORDER = ("game", "setup", "turn", "plague", "end", "invariants", "switches")

_FALLBACK = Chapter("other", "Further rules", (), "Rules whose citations name no chapter above.")


def chapter_of(anchor: str, cites: Sequence[A.Citation]) -> tuple[Chapter, int]:
    """The chapter of an item, and the rank of its section in that chapter."""
    override = CHAPTER_OVERRIDES.get(anchor)
    if override is not None:
        key, _, wanted = override.partition("/")
        chapter = next(c for c in CHAPTERS if c.key == key)
        section = wanted or (cites[0].section if cites else "")
        ranks = [i for i, s in enumerate(chapter.sections) if section.startswith(s)]
        return chapter, ranks[0] if ranks else 0
    for c in cites[:1]:
        for chapter in CHAPTERS:
            for i, s in enumerate(chapter.sections):
                if c.section.startswith(s):
                    return chapter, i
    return _FALLBACK, 0


def _file_rank(pos: A.Pos) -> int:
    stem = Path(pos.path).stem
    return FILE_ORDER.index(stem) if stem in FILE_ORDER else len(FILE_ORDER)


@attrs.define
class Item:
    """One entry of the rulebook: a procedure, a function or an option shown apart from its procedure."""

    kind: str
    name: str
    anchor: str
    title: str
    citations: tuple[A.Citation, ...]
    pos: A.Pos
    lines: list[str]
    chapter: Chapter = _FALLBACK
    section: int = 0


# ---------------------------------------------------------------- the book


class Rulebook:
    """Builds the rulebook pages of one loaded spec."""

    def __init__(self, game: Game):
        self.game = game
        self.s = game.symbols
        self.known = self.anchors()
        self.english = English(game.checked, VOCABULARY, RstMarkup(self.known))
        self.sources: dict[str, str] = {}

    def anchors(self) -> set[str]:
        """Every anchor the generated pages define a target for."""
        s = self.s
        out = {f"procedure:{n}" for n in s.procedures} | {f"function:{n}" for n in s.functions}
        out |= {f"rule:{n}" for n in s.rules} | {f"switch:{n}" for n in s.switches}
        out |= {f"invariant:{n}" for n in s.invariants} | {f"check:{n}" for n in s.checks}
        english = English(self.game.checked, VOCABULARY)
        for proc in s.procedures.values():
            out |= {anchor for anchor, _, _ in english.options_of(proc)}
        return out

    # ----------------------------------------------------------- pieces
    def where(self, pos: A.Pos) -> str:
        """``spec/rattus/plague.rules:12`` as a literal."""
        return literal(f"{pos.path}:{pos.line}")

    def comment(self, pos: A.Pos) -> list[str]:
        """The spec's comment above a declaration, as a paragraph."""
        text = doc_comment(self.game.texts, pos)
        return [f"*{esc(text)}*", ""] if text else []

    def procedure_item(self, d: A.ProcedureDecl, moved: dict[str, Item]) -> Item:
        """A procedure: signature, summary, steps; options of other chapters become links."""
        e = self.english
        steps = e.procedure(d)
        anchor = f"procedure:{d.name}"
        chapter, section = chapter_of(anchor, d.citations)
        options = {a: opt for a, opt, _ in English(self.game.checked, VOCABULARY).options_of(d)
                   if isinstance(opt, A.Option)}
        for step in walk_steps(steps):
            if step.kind != "option" or not step.citations:
                continue
            ch, sec = chapter_of(step.anchor, step.citations)
            if ch.key == chapter.key:
                continue
            whole = copy.copy(step)
            opt = options[step.anchor]
            title = f"Action {opt.verb}" + (f" ({', '.join(b.var for b in opt.bindings)})" if opt.bindings else "")
            lines = [f"During :ref:`{d.name} <{label(anchor)}>`\\ , a player may choose:", "",
                     *steps_rst([whole], sources=self.sources)]
            moved[step.anchor] = Item("option", opt.verb, step.anchor, title, step.citations, opt.pos, lines, ch,
                                      sec)
            step.text = step.text + esc(" — see ") + f":ref:`{title} <{label(step.anchor)}>`" + esc(f" ({ch.title})")
            step.children, step.citations, step.kind = [], (), "option-link"
            step.anchor = ""
        params = e.signature(d.params)
        head = [f"Procedure {literal(d.name)}" + (f" — takes {params}" if params else "") + f" ({self.where(d.pos)}).",
                ""]
        if d.name in VOCABULARY.procedures:
            args = [e.m.var(p.name) for p in d.params]
            head += ["In short: " + e._fill(VOCABULARY.procedures[d.name], args) + ".", ""]
        body = head + self.comment(d.pos) + steps_rst(steps, sources=self.sources)
        lines = beside(body, d.citations, label(anchor), "rules-procedure", self.sources)
        return Item("procedure", d.name, anchor, f"Procedure {d.name}", d.citations, d.pos, lines, chapter, section)

    def function_item(self, d: A.FunctionDecl) -> Item:
        """A function: its definition as a sentence."""
        anchor = f"function:{d.name}"
        chapter, section = chapter_of(anchor, d.citations)
        sig = literal(f"{d.name}({', '.join(str(p) for p in d.params)})")
        body = [f"Function {sig} ({self.where(d.pos)}).", "", *self.comment(d.pos), self.english.function(d), ""]
        lines = beside(body, d.citations, label(anchor), "rules-function", self.sources)
        return Item("function", d.name, anchor, f"Function {d.name}", d.citations, d.pos, lines, chapter, section)

    def items(self) -> list[Item]:
        """Every procedure, function and moved option, each with its chapter."""
        moved: dict[str, Item] = {}
        out = [self.procedure_item(d, moved) for d in self.s.procedures.values()]
        out += [self.function_item(d) for d in self.s.functions.values()]
        return out + list(moved.values())

    # ------------------------------------------------------- declarations
    def declarations_rst(self) -> list[str]:
        """Components and state: every declaration that is not a rule, in spec order, grouped."""
        e = self.english
        groups = (
            ("The game", (A.GameDecl, A.SourceDecl, A.PlayersDecl, A.MainDecl, A.ScoreDecl)),
            ("Components", (A.EnumDecl, A.TableDecl, A.GraphDecl, A.PiecesDecl)),
            ("What a game keeps track of", (A.StateDecl, A.ZoneDecl)),
            ("Spans of play and usage limits", (A.ScopeDecl, A.LimitDecl)),
        )
        decls = [d for f in sorted(self.game.checked.files, key=lambda f: _file_rank(A.Pos(f.path, 0, 0)))
                 for d in f.declarations]
        out: list[str] = []
        for title, kinds in groups:
            chosen = [d for d in decls if isinstance(d, kinds)]
            if not chosen:
                continue
            out += heading(title, "~")
            for d in chosen:
                name = getattr(d, "name", "") or getattr(d, "procedure", "") or type(d).__name__
                text = [e.declaration(d) + f" ({self.where(d.pos)})", "", *self.comment(d.pos)]
                if isinstance(d, A.TableDecl):
                    text += [f"See :ref:`the component tables <rules-components-{d.name}>`.", ""]
                cites = getattr(d, "citations", ())
                item = beside(text, cites, label(f"decl:{name}"), "rules-declaration", self.sources)
                out.append("- " + item[0])
                out += indent(item[1:], 2)
            out.append("")
        return out

    # ------------------------------------------------------------ the page
    def rst(self) -> str:
        """The whole rulebook, chapter by chapter."""
        s = self.s
        items = self.items()
        out = [f"This rulebook is generated from the spec ({len(s.procedures)} procedures, "
               f"{len(s.functions)} functions, {len(s.rules)} named rules, "
               f"{sum(1 for a in self.known if a.startswith('option:'))} player actions and chance events).  "
               "Each part stands beside the German sentences it rests on; *italic* names are the values a rule "
               "talks about, **bold** words are the actions a player (or chance) can take, and literal values "
               "such as ``before-c`` are the stages and interpretation options the spec names.", ""]
        chapters = [*CHAPTERS, _FALLBACK]
        for chapter in chapters:
            mine = [i for i in items if i.chapter.key == chapter.key]
            if chapter.key == "game":
                out += heading(chapter.title, "-") + [chapter.intro, ""]
                out += self.declarations_rst()
                if mine:
                    out += heading("Procedures and functions", "~")
                    out += self._items_rst(mine, chapter, "^")
                continue
            if not mine:
                continue
            out += heading(chapter.title, "-") + [chapter.intro, ""]
            if chapter.subsections:
                for rank, section in enumerate(chapter.sections):
                    part = [i for i in mine if i.section == rank]
                    if part:
                        full = [c.section for i in part for c in i.citations if c.section.startswith(section)]
                        out += heading(full[0] if full else section, "~")
                        out += self._items_rst(part, chapter, "^")
            else:
                out += self._items_rst(mine, chapter, "~")
        return "\n".join(out) + "\n"

    def _items_rst(self, items: list[Item], chapter: Chapter, char: str) -> list[str]:
        def key(i: Item) -> tuple[int, int, int, int, int]:
            kind = chapter.kinds.index(i.kind) if i.kind in chapter.kinds else len(chapter.kinds)
            first = chapter.first.index(i.anchor) if i.anchor in chapter.first else len(chapter.first)
            return (i.section, first, kind, _file_rank(i.pos), i.pos.line)

        out: list[str] = []
        for item in sorted(items, key=key):
            out += heading(item.title, char)
            out += item.lines
        return out


def rulebook_rst(game: Game) -> str:
    """The rulebook generated from the spec."""
    return Rulebook(game).rst()


# ------------------------------------------------------------ switches


def uses_of(game: Game, name: str) -> list[str]:
    """The procedures, functions and rules that mention a global name (innermost rule first)."""
    found: list[str] = []

    def mentions(node: object) -> bool:
        if isinstance(node, A.Name):  # the global, not a local of the same name
            return node.ident == name and not game.checked.is_local(node)
        if isinstance(node, (A.Block, A.Rule, A.Option, A.Choose, A.Chance)):
            return False  # handled by the walk
        if isinstance(node, tuple):
            return any(mentions(x) for x in node)
        if attrs.has(type(node)):
            fields = attrs.fields(type(node))  # type: ignore[arg-type]
            return any(mentions(getattr(node, f.name)) for f in fields if f.name != "pos")
        return False

    def walk(block: A.Block, owner: str) -> None:
        for st in block.statements:
            here = f"rule:{st.name}" if isinstance(st, A.Rule) else owner
            if isinstance(st, A.Choose):
                hit = mentions(st.player) or any(mentions(o.bindings) or mentions(o.when) for o in st.options)
            elif isinstance(st, A.Chance):
                hit = mentions(st.binding)
            else:
                hit = mentions(st)
            if hit and here not in found:
                found.append(here)
            for child in child_blocks(st):
                walk(child, here)

    for d in game.symbols.procedures.values():
        walk(d.body, f"procedure:{d.name}")
    for f in game.symbols.functions.values():
        if mentions(f.body):
            found.append(f"function:{f.name}")
    for lim in game.symbols.limits.values():
        if mentions(lim.scope):
            found.append(f"decl:{lim.name}")
    return found


def _ref(anchor: str) -> str:
    kind, _, name = anchor.partition(":")
    kind = {"decl": "declaration"}.get(kind, kind)
    return f":ref:`{kind} {name} <{label(anchor)}>`"


def switches_rst(game: Game) -> str:
    """The interpretation switches: a table, then each switch with its options, citations and the
    scenario that shows each option (where a checkout has one, see :func:`scenario.switch_scenarios`)."""
    sources: dict[str, str] = {}
    shown = switch_scenarios()
    rows = []
    for name, d in game.switches.items():
        default = next(o for o in d.options if o.default)
        others = [o for o in d.options if not o.default]
        rows.append([
            f":ref:`{d.ident} <{label('switch:' + name)}>`",
            esc(d.question),
            f"{literal(default.value)}: {esc(default.description)}",
            "\n\n".join(f"{literal(o.value)}: {esc(o.description)}" for o in others) or "—",
            "\n\n".join(f"{literal(o.value)} — *{esc(c.section)}*: „{esc(c.quote)}“"
                         for o in d.options for c in o.citations[:1]),
            "\n\n".join(f":ref:`{o.value} <{label(f'scenario:{d.ident}.{o.value}')}>`"
                         for o in d.options if (d.ident, o.value) in shown) or "—",
        ])
    out = [f"The spec names {len(game.switches)} points where the German text allows more than one reading.  "
           "Each is an *interpretation switch*: a default reading and its alternatives, each resting on a "
           "sentence of the rule text.  Choose another reading with ``--interpretation ID=VALUE`` on the "
           "command line or ``new_game(..., interpretations={ID: VALUE})``.  Where a column *scenario* "
           "names the options, each has a scenario that shows what it does: the test suite runs it under "
           "its option, where it holds, and under every other option of the switch, where it fails.", ""]
    out += list_table(["id", "question", "default", "alternatives", "citations", "scenario"], rows,
                      [12, 20, 20, 20, 28, 10], "rules-switches")
    for name, d in game.switches.items():
        out += [f".. _{label('switch:' + name)}:", ""] + heading(d.ident, "-")
        out += [f"*{esc(d.question)}* ({literal(f'{d.pos.path}:{d.pos.line}')})", ""]
        for o in d.options:
            mark = "default" if o.default else "alternative"
            text = [f"**{esc(o.value)}** ({mark}): {esc(o.description)}", ""]
            out += beside(text, o.citations, "", "rules-switch-option", sources)
        for o in d.options:
            path = shown.get((d.ident, o.value))
            if path is not None:
                out += _scenario_block(f"scenario:{d.ident}.{o.value}", f"{d.ident}={o.value}", path)
        used = uses_of(game, name)
        if used:
            out += ["Used by " + ", ".join(_ref(a) for a in used) + ".", ""]
    return "\n".join(out) + "\n"


def _scenario_block(anchor: str, title: str, path: Path) -> list[str]:
    """A scenario file shown in full under a label, named by its path in the checkout."""
    root = project_root()
    where = path.relative_to(root).as_posix() if root is not None else path.name
    text = path.read_text(encoding="utf-8").rstrip("\n").splitlines()
    return [f".. _{label(anchor)}:", "", f"Scenario for **{esc(title)}** ({literal(where)}):", "",
            ".. code-block:: text", "", *indent(text, 3), ""]


# ---------------------------------------------------- invariants and checks


def conditions_rst(game: Game, kind: str) -> str:
    """The invariants (``kind="invariant"``) or the data checks (``"check"``): English, citations, spec text."""
    english = English(game.checked, VOCABULARY, RstMarkup(Rulebook(game).known))
    sources: dict[str, str] = {}
    decls = game.symbols.invariants if kind == "invariant" else game.symbols.checks
    out: list[str] = []
    for name, d in decls.items():
        out += [f".. _{label(kind + ':' + name)}:", ""] + heading(name, "-")
        text = [english.declaration(d), "", *(
            [f"*{esc(doc_comment(game.texts, d.pos))}*", ""] if doc_comment(game.texts, d.pos) else []),
            f"In the spec ({literal(f'{d.pos.path}:{d.pos.line}')}):", "", ".. code-block:: rules", "",
            *indent(_source(game, d.pos), 3), ""]
        out += beside(text, d.citations, "", f"rules-{kind}", sources)
    return "\n".join(out) + "\n"


def _source(game: Game, pos: A.Pos) -> list[str]:
    """The spec text of a declaration: from its line to the next blank line."""
    lines = game.texts.get(pos.path, [])
    out = []
    for line in lines[pos.line - 1:]:
        if not line.strip():
            break
        out.append(line)
    return out


# ------------------------------------------------------------ components


def components_rst(game: Game) -> str:
    """Every component table, each row marked verified or reconstructed, with its provenance."""
    out: list[str] = []
    for name, decl in game.symbols.tables.items():
        table = game.tables[name]
        verified = [game.verified(name, k) for k in table.keys]
        out += [f".. _rules-components-{name}:", ""] + heading(f"{name} ({decl.file})", "-")
        out += [f"{sum(verified)} of {len(verified)} rows verified, {len(verified) - sum(verified)} "
                f"reconstructed.", ""]
        cols = [c for c in ([table.key] if decl.key else []) + list(table.columns)]
        rows = []
        for key, ok in zip(table.keys, verified):
            row = table.row(key)
            cells = [esc(_cell(row[c])) for c in cols]
            status = "**verified**" if ok else "*reconstructed*"
            rows.append([*cells, status, esc(table.provenance(key))])
        out += list_table([*cols, "status", "provenance"], rows, cls="rules-data")
    return "\n".join(out) + "\n"


def _cell(v: object) -> str:
    if isinstance(v, list):
        return " + ".join(str(x) for x in v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


# ------------------------------------------------------------- decisions


def decisions_rst(game: Game) -> str:
    """How the program reaches its decisions: every procedure cut down to its decisions and calls."""
    known = Rulebook(game).known
    english = English(game.checked, VOCABULARY, RstMarkup(known))
    deciding = english.deciding_procedures()
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order or name not in deciding:
            return
        order.append(name)
        for step in walk_steps(English(game.checked, VOCABULARY).procedure(game.symbols.procedures[name])):
            if step.kind == "call":
                visit(step.name)

    assert game.symbols.main is not None
    visit(game.symbols.main.procedure)
    out: list[str] = []
    for name in order:
        d = game.symbols.procedures[name]
        out += heading(name, "~")
        out += [f"Outline of :ref:`procedure {name} <{label('procedure:' + name)}>`:", ""]
        out += steps_rst(english.outline(d), targets=False)
    return "\n".join(out) + "\n"


def decision_table_rst(game: Game) -> str:
    """Every decision and chance event of the spec: where it is asked, by whom, its actions."""
    english = English(game.checked, VOCABULARY, RstMarkup(Rulebook(game).known))
    rows = []
    for proc in game.symbols.procedures.values():
        english.begin_procedure(proc.name)

        def visit(block: A.Block, rule: str, proc: A.ProcedureDecl = proc) -> None:
            for st in block.statements:
                here = st.name if isinstance(st, A.Rule) else rule
                if isinstance(st, A.Choose):
                    who = english.expr(st.player)
                    for opt in st.options:
                        anchor = english.option_anchor(opt.verb)
                        rows.append([f":ref:`{esc(opt.verb)} <{label(anchor)}>`", who, _where(proc.name, here)])
                        visit(opt.body, here)
                elif isinstance(st, A.Chance):
                    anchor = english.option_anchor(st.verb)
                    rows.append([f":ref:`{esc(st.verb)} <{label(anchor)}>`", "chance", _where(proc.name, here)])
                    visit(st.body, here)
                else:
                    for child in child_blocks(st):
                        visit(child, here)

        visit(proc.body, "")
    return "\n".join(list_table(["action verb", "decided by", "asked in"], rows, [20, 25, 55])) + "\n"


def _where(proc: str, rule: str) -> str:
    out = f":ref:`procedure {proc} <{label('procedure:' + proc)}>`"
    if rule:
        out += f", :ref:`rule {rule} <{label('rule:' + rule)}>`"
    return out


def trace_rst(game: Game, players: int = 3, seed: int = 5) -> str:
    """A real game's setup and first turn, step by step: who decided, what, and which rule asked."""
    from rattus_rules.algorithms.agents import RandomPlayer

    state = game.new_state(players, seed=seed)
    player = RandomPlayer(seed)
    rows: list[list[str]] = []
    while not state.is_terminal():
        rule = state.decision_rule()
        who = notation.who(state.current_player)
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_index(player.choose(state))
        rows.append([str(len(rows) + 1), who, literal(state.history[-1]), literal(rule)])
        if View(state).last_regular not in (None, 0):
            break  # the second player's turn has begun
    intro = [f"The setup and the first turn of a {players}-player game (seed {seed}; random choices), as "
             "the interpreter runs them.  Each row is one decision or chance event: who takes it, the action "
             "taken, and the rule (or procedure) that asks it.", ""]
    return "\n".join(intro + list_table(["#", "by", "action", "asked by"], rows, [6, 12, 40, 42])) + "\n"


# ----------------------------------------------------------------- pages

def coverage_page_rst(game: Game) -> str:
    """Every sentence of the rulebook and the short summary, with the parts of the spec and the scenario tests
    that cite it (linked to the rulebook, the switches, the invariants and checks, the component tables) or the
    reason it is waived."""
    known = Rulebook(game).known | {f"scenario:{ident}.{value}" for ident, value in switch_scenarios()}

    def target(anchor: str) -> str | None:
        kind, _, name = anchor.partition(":")
        if anchor in known:
            return label(anchor)
        return f"rules-components-{name}" if kind == "table" and name in game.symbols.tables else None

    return coverage_rst(game, target, ":doc:`the switch table <interpretations>`", scenario_citations())


#: Each generated part of the docs: name → function of the loaded spec.
PAGES: dict[str, Callable[[Game], str]] = {
    "rulebook": rulebook_rst,
    "switches": switches_rst,
    "invariants": lambda g: conditions_rst(g, "invariant"),
    "checks": lambda g: conditions_rst(g, "check"),
    "components": components_rst,
    "decisions": decisions_rst,
    "decision-table": decision_table_rst,
    "trace": trace_rst,
    "coverage": coverage_page_rst,
}


def expected_anchors(game: Game) -> Iterable[str]:
    """Every anchor the generated pages must define: rules, procedures, functions, options, switches,
    invariants and data checks."""
    return sorted(Rulebook(game).known)
