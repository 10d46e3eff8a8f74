"""A small, game-agnostic rules language: parse → check → compile → run.

The language knows players, zones, pieces, tables, graphs, decisions and chance;
it knows nothing of any particular game.  Load a spec with :func:`load_spec`.
"""

from .ast import Citation, Pos
from .errors import Diagnostic, IllegalAction, InvariantViolation, RuleError, RulesError, SpecError
from .game import Game, load_spec
from .notation import CHANCE_PLAYER, Action
from .parser import parse_text
from .runtime import TERMINAL_PLAYER, State

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Action",
    "Citation",
    "Diagnostic",
    "Game",
    "IllegalAction",
    "InvariantViolation",
    "Pos",
    "RuleError",
    "RulesError",
    "SpecError",
    "State",
    "load_spec",
    "parse_text",
]
