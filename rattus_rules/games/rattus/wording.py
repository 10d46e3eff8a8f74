"""Rattus words for the English rulebook generated from the spec.

The generic renderer (:mod:`interpreter.english`) writes every name it has no
words for in a neutral way (``the cubes of q and r``); these phrases make the
Rattus rulebook read like a rulebook (``the number of cubes of q in r``).  They
are presentation only: a test checks that each one names something the spec
declares, so they cannot drift from it.

>>> from interpreter.english import English, render_plain
>>> from rattus_rules import load_rules
>>> game = load_rules()
>>> english = English(game.checked, VOCABULARY)
>>> print(english.function(game.symbols.functions["total_cubes"]))
The total number of cubes in r is the sum of the number of cubes of q in r over each player q.
"""

from __future__ import annotations

from interpreter.english import Noun, Phrase, Vocabulary, ZoneWords

VOCABULARY = Vocabulary(
    states={
        "supply": "cubes in the supply of {0}",
        "cubes": "cubes of {0} in {1}",
        "castle": "cubes of {0} in the castle",
        "holder": "the holder of the {0} card",
        "plague": "the region of the plague",
        "phase": "the phase of the game",
        "ender": "the player who triggered the end of the game",
        "last_regular": "the player of the last regular turn",
        "final_knight_moved": Phrase("the Knight's holder has moved the plague in the final round",
                                     "the Knight's holder has not moved the plague in the final round"),
    },
    zones={
        "box": ZoneWords("rat tokens in the box", "the box"),
        "stock": ZoneWords("rat tokens in the stock", "the stock"),
        "rats": ZoneWords("rat tokens in {0}", "region {0}"),
        "out": ZoneWords("revealed rat tokens", "the pile of revealed tokens"),
    },
    functions={
        "total_cubes": "the total number of cubes in {0}",
        "population": "the population of {0}",
        "removed_count": "the number of tokens removed for this player count",
        "may_use": Phrase("{0} may use the {1} card", "{0} may not use the {1} card"),
        "abilities_open": Phrase("card abilities may be used at stage {0}",
                                 "card abilities may not be used at stage {0}"),
        "can_place": Phrase("{0} can place {1} cubes", "{0} cannot place {1} cubes"),
        "plain_placement": Phrase("{0} may place the usual number of cubes in {1}",
                                  "{0} may not place the usual number of cubes in {1}"),
        "extra_placement": Phrase("{0} may place one cube more than usual in {1}",
                                  "{0} may not place one cube more than usual in {1}"),
        "placement_possible": Phrase("{0} can place cubes somewhere", "{0} cannot place cubes anywhere"),
        "knight_target": Phrase("a two-step plague move from {0} may end in {1}",
                                "a two-step plague move from {0} may not end in {1}"),
    },
    procedures={
        "place": "{0} places {2} cubes in {1}",
        "lose": "{0} loses a cube in {1} (back to their supply)",
        "spread": "the plague spreads from {1}, {0} choosing",
        "spread_one": "one rat token spreads from {1}, {0} choosing",
        "devastation": "the plague devastates {1} (neutral cubes: {2})",
        "evaluate": "reveal and evaluate {0} (neutral cubes: {2})",
        "plague_move": "{0} moves the plague to {1} and it strikes there (Knight's neutral cubes offered: {2})",
        "final_knight_move": "{0} moves the plague to {1} in the final round",
        "witch": "{0} uses the Witch, having looked at {1}",
        "end_trigger": "check whether {0}'s turn triggered the end of the game",
        "player_turn": "{0} plays a turn (final round: {1})",
        "remove_tokens": "remove tokens from the game",
    },
    nouns={
        "regions": Noun("region", "regions"),
        "class": Noun("class card", "class cards"),
        "tokens": Noun("rat token", "rat tokens"),
        "rat": Noun("rat token", "rat tokens"),
        "adjacency": Noun("adjacency", "adjacencies"),
        "board": Noun("board", "boards"),
    },
    columns={
        "start": Phrase("{0} is a start token", "{0} is not a start token"),
        "first_used_with_players": "the smallest player count that uses {0}",
        "symbols": "the symbols on {0}",
        "threshold": "the number on {0}",
        "provenance": "the provenance of {0}",
    },
    limits={
        "ability": Phrase("the ability of the {0} card is still unused", "the ability of the {0} card is used up"),
    },
)
