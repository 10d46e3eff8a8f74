"""rattus-rules: the rules of Rattus as data, run by a small rules language.

The rules live in ``spec/rattus/*.rules``; :mod:`interpreter` knows nothing of
Rattus.  Start here::

    from rattus_rules import new_game
    state = new_game(4, seed=1)
    while not state.is_terminal():
        ...
"""

from interpreter import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Action,
    IllegalAction,
    InvariantViolation,
    RuleError,
    SpecError,
    State,
)

from .api import Interpretation, Option, interpretations, load_rules, new_game, player_label, state_from_json
from .games import GameHooks as GameHooks
from .games import register_hooks as register_hooks
from .games.rattus import register

# Rattus's own words for the game-agnostic tools (rattus_rules.games.rattus).
register()

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Action",
    "IllegalAction",
    "Interpretation",
    "InvariantViolation",
    "Option",
    "RuleError",
    "SpecError",
    "State",
    "interpretations",
    "load_rules",
    "new_game",
    "player_label",
    "state_from_json",
]
__version__ = "0.1.0"
