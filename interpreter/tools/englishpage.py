"""Any spec in English, as one reStructuredText page: what the generic renderer gives a new game.

No game's own words or chapters: each procedure, function, switch and
invariant in spec order, its English beside its citations.  A game with a
vocabulary and chapters of its own lays out its rulebook in its own package.

>>> from pathlib import Path
>>> from interpreter import load_spec
>>> page = english_rst(load_spec(Path(__file__).parents[2] / "tests" / "language" / "specs" / "nim"))
>>> page.splitlines()[0]
'Procedure play'
"""

from __future__ import annotations

from interpreter import Game
from interpreter.english import English

from .rst import RstMarkup, beside, esc, heading, steps_rst


def english_rst(game: Game) -> str:
    """Any spec in English, without a game's own words or chapters: procedures, functions, switches
    and invariants, in spec order (what the generic renderer gives a new game)."""
    english = English(game.checked, None, RstMarkup(set()))
    s = game.symbols
    out: list[str] = []
    for d in s.procedures.values():
        out += heading(f"Procedure {d.name}", "~")
        out += beside(steps_rst(english.procedure(d), targets=False), d.citations)
    for f in s.functions.values():
        out += heading(f"Function {f.name}", "~")
        out += beside([english.function(f), ""], f.citations)
    for sw in s.switches.values():
        out += heading(f"Switch {sw.ident}", "~") + [esc(sw.question), ""]
        for o in sw.options:
            out += beside([f"**{esc(o.value)}**{' (default)' if o.default else ''}: {esc(o.description)}", ""],
                          o.citations)
    for name, inv in s.invariants.items():
        out += heading(f"Invariant {name}", "~")
        out += beside([english.declaration(inv), ""], inv.citations)
    return "\n".join(out) + "\n"
