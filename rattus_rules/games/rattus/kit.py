"""Rattus's conformance kit: the cases picked by hand (:class:`rattus_rules.games.KitCases`).

The perft vectors and golden playthroughs of :data:`PERFT_CASES` and :data:`GOLDEN_CASES`, a perft
vector whose setup mixes forced and drawn chance outcomes (:func:`mixed_vector`), recorded games
that break named rules of Rattus (:func:`game_files`) and the decision model as text for the kit.
:mod:`rattus_rules.tools.kit.conformance` makes the kit of any game from these.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from interpreter import State, notation
from interpreter.edit import option_words, procedure_of
from rattus_rules.algorithms.agents import RandomPlayer
from rattus_rules.api import ResolvedGame, resolve
from rattus_rules.games import KitCases
from rattus_rules.paths import project_root
from rattus_rules.tools.kit.conformance import AFTER_THE_END, WRONG_SEAT, cut_record
from rattus_rules.tools.perft import perft
from rattus_rules.tools.records.validate import OMNISCIENT, PLAYERS_EYE, Recorder, record_game, validate

from .faces import face_text
from .modeltext import model_markdown
from .names import BOARD, View

#: (players, seed, chance rule, deepest depth) of each perft vector.
PERFT_CASES: tuple[tuple[int, int, str, int], ...] = (
    (2, 1, "first", 4), (2, 1, "seed", 4),
    (3, 2, "first", 4), (3, 2, "seed", 4),
    (4, 3, "first", 4), (4, 3, "seed", 4),
)
#: (name, players, seed, interpretations) of each golden playthrough.
GOLDEN_CASES: tuple[tuple[str, int, int, dict[str, str]], ...] = (
    ("2p-seed1", 2, 1, {}),
    ("3p-seed2", 3, 2, {}),
    ("4p-seed3", 4, 3, {}),
    ("4p-seed4-placed-per-round", 4, 4, {"reveal-order": "placed", "ability-once": "per-round"}),
    ("3p-seed5-chosen-by-last-end-of-turn", 3, 5, {"final-reveal-order": "chosen-by-last", "cubes-end": "end-of-turn"}),
)


# ------------------------------------------------------------- forced and drawn
#: The player count and the deepest perft depth of Rattus's vector that mixes forced and drawn outcomes.
MIXED_PLAYERS, MIXED_DEPTH = 2, 2
#: The seeds tried, in order, for that vector (the first where both of its points show).
MIXED_SEEDS = range(1, 400)


def _shared_face_options(state: State, word: Callable[[int], str]) -> dict[str, list[int]]:
    """At a chance event: the outcome texts that stand for more than one piece, with their indices."""
    by_text: dict[str, list[int]] = {}
    for i in range(state.num_legal_actions()):
        by_text.setdefault(" ".join(option_words(state, i, word)), []).append(i)
    return {t: found for t, found in by_text.items() if len(found) > 1}


def _mixed_setup(game: ResolvedGame, players: int, seed: int,
                 other_token: bool = False) -> tuple[State, dict[str, Any], list[int]] | None:
    """Setup of Rattus under the ``seed`` rule with two outcomes forced, as a client forces them: the
    first chance event gets its outcome that sorts last (the generator does not step), and the first
    event whose outcomes share a face gets that face, meaning the first of its tokens in outcome order
    (``other_token``: the second, to show that the choice matters).  None if setup meets no shared face.
    """
    state = game.rules.new_state(players, seed=seed)
    recorder = Recorder(state, OMNISCIENT, seed=seed, source="shipped", faces=game.faces)
    player = RandomPlayer(seed)
    turn = game.hooks.turn_procedure
    forced: list[int] = []
    shared_done = False
    while not state.is_terminal() and procedure_of(state) != turn:
        at = len(recorder.entries)
        if not state.is_chance_node():
            recorder.apply(state, player.choose(state))
            continue
        shared = _shared_face_options(state, game.faces.written) if not shared_done else {}
        if at == 0:
            texts = [" ".join(option_words(state, i, game.faces.written)) for i in range(state.num_legal_actions())]
            index = max(range(len(texts)), key=lambda i: texts[i].encode("utf-8"))
            forced.append(at)
        elif shared:
            found = shared[min(shared)]
            index = found[1] if other_token else found[0]
            forced.append(at)
            shared_done = True
        else:
            index = state.random_chance_index()
        recorder.apply(state, index)
    return (state, recorder.record, forced) if shared_done else None


def mixed_vector(game: ResolvedGame | None = None) -> dict[str, Any]:
    """Rattus's perft vector (``seed`` rule) whose setup mixes forced and drawn outcomes (``forced``: the
    indices of the forced setup entries): the generator steps only for what it draws, and a forced face
    shared by two tokens means the first of them in outcome order.  Its seed is the first of
    :data:`MIXED_SEEDS` where stepping for a forced outcome, or taking the other token of the shared
    face, would change a later drawn outcome.  ``game``: Rattus, resolved once (None: the selected game)."""
    game = resolve(game)
    for seed in MIXED_SEEDS:
        made = _mixed_setup(game, MIXED_PLAYERS, seed)
        other = _mixed_setup(game, MIXED_PLAYERS, seed, other_token=True)
        if made is None or other is None:
            continue
        state, record, forced = made
        drawn = _drawn(record["entries"], forced)
        other_drawn = _drawn(other[1]["entries"], forced)
        stepped = _stepping_draws(game, record["entries"], forced, seed)
        if drawn == other_drawn or stepped == drawn:
            continue
        counts = {str(d): perft(state, d, "seed", face_text) for d in range(1, MIXED_DEPTH + 1)}
        return {"players": MIXED_PLAYERS, "seed": seed, "interpretations": {}, "chance": "seed",
                "setup": record["entries"], "forced": forced, "perft": counts}
    raise AssertionError("no seed shows both points of the mixed vector")  # the seeds tried are fixed


def _drawn(entries: list[dict[str, Any]], forced: list[int]) -> list[dict[str, Any]]:
    """The chance entries of a setup that were drawn, not forced."""
    return [e for i, e in enumerate(entries) if e.get("by") == notation.CHANCE and i not in forced]


def _stepping_draws(game: ResolvedGame, entries: list[dict[str, Any]], forced: list[int],
                    seed: int) -> list[dict[str, Any]]:
    """The drawn entries an engine would make that also stepped its generator for each forced outcome."""
    state = game.rules.new_state(MIXED_PLAYERS, seed=seed)
    recorder = Recorder(state, OMNISCIENT, seed=seed, source="shipped", faces=game.faces)
    out = []
    for i, entry in enumerate(entries):
        if "reveal" in entry or "look" in entry or state.is_terminal():
            continue
        if entry.get("by") != notation.CHANCE:
            state.apply(entry["action"])
            continue
        index = state.random_chance_index()
        if i in forced:  # stepped, but the forced outcome is taken
            texts = [" ".join(option_words(state, k, game.faces.written)) for k in range(state.num_legal_actions())]
            index = texts.index(entry["action"])
        else:
            out.append({"by": notation.CHANCE, "action": " ".join(option_words(state, index, game.faces.written))})
        recorder.apply(state, index)
    return out


def _first(game: ResolvedGame, players: int, seed: int,
           test: Callable[[dict[str, Any], State], bool]) -> tuple[int, State]:
    """In ``record_game(players, seed)``: the first action entry (and the state before it) for which
    ``test`` holds."""
    state = game.rules.new_state(players, seed=seed)
    recorder = Recorder(state, seed=seed, faces=game.faces)
    player = RandomPlayer(seed)
    while not state.is_terminal():
        before = state.clone()
        k = len(recorder.entries)
        index = state.random_chance_index() if state.is_chance_node() else player.choose(state)
        recorder.apply(state, index)
        if test(recorder.entries[k], before):
            return k, before
    raise LookupError("no such entry")


def game_files(game: ResolvedGame | None = None) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The recorded games and what a validator must say about each (``game``: Rattus, resolved once;
    None: the selected game)."""
    game = resolve(game)
    games: dict[str, dict[str, Any]] = {}
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        games[f"legal-{players}p-omniscient.json"] = record_game(players, seed, game_name=game)
        eye_seed = 1 if players == 4 else seed + 10  # 4p seed 1: P1's Witch looks, so look entries too
        games[f"legal-{players}p-players-eye.json"] = record_game(players, eye_seed, kind=PLAYERS_EYE, viewer=1,
                                                                  game_name=game)
    base = record_game(4, 21, game_name=game)
    regions = game.rules.world(4).nodes[BOARD]

    k, state = _first(game, 4, 21, lambda e, st: e["action"].startswith("place ")
                      and any(not View(st).rats[r] for r in regions)
                      and View(st).holder["peasant"] != st.current_player)
    empty = next(r for r in regions if not View(state).rats[r])
    games["illegal-place-without-tokens.json"] = cut_record(base, k, {"by": notation.seat(state.current_player),
                                                                "action": f"place {empty}"})
    k, state = _first(game, 4, 21, lambda e, st: e["action"].startswith("plague "))
    games["illegal-plague-stays.json"] = cut_record(base, k, {"by": notation.seat(state.current_player),
                                                        "action": f"plague {View(state).plague}"})
    k, state = _first(game, 4, 21, lambda e, st: e["action"].startswith("take "))
    other = next(c for c in View(state).classes
                 if c != base["entries"][k]["action"].split()[1] and View(state).holder[c] != state.current_player)
    games["illegal-second-card.json"] = cut_record(base, k + 1, {"by": notation.seat(state.current_player),
                                                           "action": f"take {other}"})
    wrong = copy.deepcopy(base)
    k = next(i for i, e in enumerate(wrong["entries"]) if "reveal" in e)
    wrong["entries"][k] = {"reveal": "6:A+merchant+witch" if wrong["entries"][k]["reveal"] != "6:A+merchant+witch"
                           else "1:merchant+monk"}
    games["illegal-wrong-reveal.json"] = wrong
    k, state = _first(game, 4, 21, lambda e, st: e["action"].startswith("place "))
    games[WRONG_SEAT] = cut_record(base, k, {"by": notation.seat((state.current_player + 1) % 4),
                                       "action": base["entries"][k]["action"]})
    games[AFTER_THE_END] = cut_record(base, len(base["entries"]), {"by": "P0", "action": "end"})
    placed = record_game(4, 22, {"reveal-order": "placed"}, game_name=game)
    placed["interpretations"] = {}
    placed["comment"] = "legal only with reveal-order=placed"
    games["needs-reveal-order-placed.json"] = placed
    expected = {}
    for name, record in games.items():
        v = validate(record, game_name=game)
        item: dict[str, Any] = {"status": v.status}
        if v.finished:
            item.update(scores=list(v.scores), winners=list(v.winners))
        if v.index is not None:
            item.update(index=v.index, entry=record["entries"][v.index])
        if name.startswith("needs-reveal-order-placed"):
            item["legal_with"] = {"reveal-order": "placed"}
        expected[name] = item
    return games, expected


def kit_files(game: ResolvedGame) -> dict[str, str]:
    """The kit's decision model as text (``decision-model.md``), made from its page where a checkout has it."""
    root = project_root()
    page = None if root is None else root / "docs" / "decision-model.rst"
    if page is None or not page.is_file():
        return {}
    return {"decision-model.md": model_markdown(game.rules, page.read_text(encoding="utf-8"))}


def kit_cases() -> KitCases:
    """Rattus's hand-picked cases, for :attr:`rattus_rules.games.GameHooks.kit`."""
    return KitCases(perft=PERFT_CASES, golden=GOLDEN_CASES, games=game_files, vectors=lambda game: [mixed_vector(game)],
                    files=kit_files)
