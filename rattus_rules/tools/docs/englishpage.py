"""Any spec in English, as one reStructuredText page: what the generic renderer gives a new game.

No game's own words or chapters: each procedure, function, switch and
invariant in spec order, its English beside its citations.  A game with a
vocabulary and chapters of its own lays out its rulebook in its own package.

>>> from pathlib import Path
>>> from interpreter import load_spec
>>> page = english_rst(load_spec(Path(__file__).parents[3] / "tests" / "language" / "specs" / "nim"))
>>> page.splitlines()[2]
'Procedure play'
"""

from __future__ import annotations

from collections.abc import Callable

from interpreter import Game
from interpreter.english import English

from .rst import RstMarkup, beside, esc, heading, label, steps_rst


def english_label(game: Game, anchor: str) -> str:
    """The label this page gives a procedure, function, switch or invariant (``procedure:play``), or the
    switches as a whole (``switches``), so that other pages can link to it."""
    return label(f"english:{game.name}:{anchor}")


def english_target(game: Game) -> Callable[[str], str | None]:
    """The label of an anchor on this page, or None where the page gives it no place of its own."""
    s = game.symbols
    known = {f"procedure:{n}" for n in s.procedures} | {f"function:{n}" for n in s.functions}
    known |= {f"switch:{n}" for n in s.switches} | {f"invariant:{n}" for n in s.invariants}
    return lambda anchor: english_label(game, anchor) if anchor in known else None


def english_rst(game: Game) -> str:
    """Any spec in English, without a game's own words or chapters: procedures, functions, switches
    and invariants, in spec order (what the generic renderer gives a new game)."""
    english = English(game.checked, None, RstMarkup(set()))
    s = game.symbols
    out: list[str] = []
    for d in s.procedures.values():
        out += [f".. _{english_label(game, 'procedure:' + d.name)}:", ""]
        out += heading(f"Procedure {d.name}", "~")
        out += beside(steps_rst(english.procedure(d), targets=False), d.citations)
    for f in s.functions.values():
        out += [f".. _{english_label(game, 'function:' + f.name)}:", ""]
        out += heading(f"Function {f.name}", "~")
        out += beside([english.function(f), ""], f.citations)
    if s.switches:
        out += [f".. _{english_label(game, 'switches')}:", ""]
    for name, sw in s.switches.items():
        out += [f".. _{english_label(game, 'switch:' + name)}:", ""]
        out += heading(f"Switch {sw.ident}", "~") + [esc(sw.question), ""]
        for o in sw.options:
            out += beside([f"**{esc(o.value)}**{' (default)' if o.default else ''}: {esc(o.description)}", ""],
                          o.citations)
    for name, inv in s.invariants.items():
        out += [f".. _{english_label(game, 'invariant:' + name)}:", ""]
        out += heading(f"Invariant {name}", "~")
        out += beside([english.declaration(inv), ""], inv.citations)
    return "\n".join(out) + "\n"
