"""Rattus's own package: the spec names Python reads, its wording, pictures, layout, token faces,
its scenario format, position text and reference pages (rulebook, decision model).

:func:`register` tells the tools for any game what only Rattus knows (:class:`rattus_rules.games.GameHooks`);
``import rattus_rules`` calls it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rattus_rules.games import KitCases


def register() -> None:
    """Register Rattus's own words with the game-agnostic tools: setup ends at the first player turn; tokens
    are written as faces; the spec names the package reads are checked when the rules load; why a game ends,
    and what the score counts (for the study); its picture, table of seats and note on the component data
    (for the viewer and the play page); which places of its board choose an action (for the play page); how
    `rattus play` lays out its log; its conformance kit's cases."""
    from rattus_rules.games import GameHooks, register_hooks

    from .faces import TokenFaces
    from .names import END_REASONS, TURN_PROCEDURE, check_names, end_reason
    from .render import COMPONENTS_NOTE, action_places, board_only_svg
    from .textview import players_json, position_json, render_text

    register_hooks("rattus", GameHooks(turn_procedure=TURN_PROCEDURE, faces=TokenFaces, check=check_names,
                                       text_view=render_text, json_view=position_json, end_reason=end_reason,
                                       end_reasons=END_REASONS, score_unit="cubes", picture=board_only_svg,
                                       seat_rows=players_json, components_note=COMPONENTS_NOTE,
                                       action_places=action_places,
                                       log_turns=("turn of", "final turn of"), log_events=("the plague devastates",),
                                       kit=_kit_cases))


def _kit_cases() -> KitCases:
    """Rattus's hand-picked kit cases (:mod:`rattus_rules.games.rattus.kit`, imported when a kit is built)."""
    from .kit import kit_cases

    return kit_cases()
