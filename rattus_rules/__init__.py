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
from .games import GameHooks, register_hooks
from .games.rattus.names import END_REASONS, TURN_PROCEDURE, check_names, end_reason
from .games.rattus.render import board_only_svg
from .games.rattus.textview import position_json, render_text
from .tools.records.validate import TokenFaces
from .tools.views.viewer import players_json
from .tools.views.webpage import COMPONENTS_NOTE

# Rattus's own words for the game-agnostic tools: setup ends at the first player turn; tokens are written as
# faces; the spec names the package reads are checked when the rules load; why a game ends, and what the
# score counts (for the study).
register_hooks("rattus", GameHooks(turn_procedure=TURN_PROCEDURE, faces=TokenFaces, check=check_names,
                                      text_view=render_text, json_view=position_json, end_reason=end_reason,
                                      end_reasons=END_REASONS, score_unit="cubes", picture=board_only_svg,
                                      seat_rows=players_json, components_note=COMPONENTS_NOTE))

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
