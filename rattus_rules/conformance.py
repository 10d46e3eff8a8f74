"""The conformance files other engines check themselves against, made from this one.

``conformance/`` holds (see its README):

* ``perft.json`` — perft vectors: the setup (as an omniscient record), the
  chance rule and the number of legal action sequences of each length;
* ``games/*.json`` — recorded games, legal and illegal, omniscient and
  players-eye, with ``games/expected.json`` saying what a validator must answer;
* ``golden/*.json`` — golden playthroughs: a recorded game with the legal
  actions (or chance outcomes) before every entry.

Everything is generated here, deterministically.  ``python -m
rattus_rules.conformance --write conformance`` (``make golden``) rewrites the
files on purpose after a rule change; ``--check`` (and the tests) regenerate
them and report every file that differs.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from interpreter import State, notation
from interpreter.edit import option_words, procedure_of
from interpreter.tools.perft import first_outcome, perft

from .agents import RandomPlayer
from .api import load_rules
from .faces import face_text
from .games import hooks
from .names import BOARD, View
from .records import OMNISCIENT, PLAYERS_EYE, Recorder, dumps, record_game, validate

GOLDEN_FORMAT = "rattus-golden"
PERFT_FORMAT = "rattus-perft"

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


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# ----------------------------------------------------------------- perft
def start_position(players: int, seed: int = 0, interpretations: Mapping[str, str] | None = None,
                   chance: str = "seed", data: str | None = None,
                   game: str | None = None) -> tuple[State, dict[str, Any]]:
    """The position after setup, and the omniscient record of setup.

    Setup's chance events follow the chance rule (pieces written the game's
    way for ``first``: :class:`rattus_rules.games.GameHooks`); its player
    decisions (for Rattus the initial placements) are made by a random player
    seeded with ``seed``.  Setup ends at the first decision of the game's turn
    procedure, or, for a game that names none, at its first player decision.
    The record lets another engine rebuild exactly this position.

    >>> state, _ = start_position(2, seed=1)
    >>> perft(state, 1) == state.num_legal_actions()
    True
    """
    state = load_rules(data, game).new_state(players, seed=seed, settings=interpretations)
    recorder = Recorder(state, OMNISCIENT, seed=seed, source="shipped" if data is None else str(data))
    player = RandomPlayer(seed)
    found = hooks(game)

    def in_setup() -> bool:
        if found.turn_procedure is None:
            return state.is_chance_node()
        return procedure_of(state) != found.turn_procedure

    while not state.is_terminal() and in_setup():
        if state.is_chance_node():
            index = state.random_chance_index() if chance == "seed" else first_outcome(state, found.piece_word)
        else:
            index = player.choose(state)
        recorder.apply(state, index)
    return state, recorder.record


def perft_vectors() -> dict[str, Any]:
    """Every perft vector of :data:`PERFT_CASES`."""
    vectors = []
    for players, seed, chance, depth in PERFT_CASES:
        state, setup = start_position(players, seed, chance=chance)
        vectors.append({
            "players": players,
            "seed": seed,
            "interpretations": {},
            "chance": chance,
            "setup": setup["entries"],
            "perft": {str(d): perft(state, d, chance, face_text) for d in range(1, depth + 1)},
        })
    return {"format": PERFT_FORMAT, "version": 1, "vectors": vectors}


# ------------------------------------------------------------------ games
def _legal_texts(state: State) -> list[str]:
    game = state.game
    return sorted({" ".join(option_words(state, i, lambda t: face_text(game, t)))
                   for i in range(state.num_legal_actions())})


def golden(players: int, seed: int, interpretations: dict[str, str]) -> dict[str, Any]:
    """A random game's record with the sorted legal actions (chance outcomes) before each entry."""
    game = load_rules()
    state = game.new_state(players, seed=seed, settings=interpretations)
    recorder = Recorder(state, seed=seed)
    player = RandomPlayer(seed)
    legal: list[list[str] | None] = []
    while not state.is_terminal():
        before = len(recorder.entries)
        options = _legal_texts(state)
        index = state.random_chance_index() if state.is_chance_node() else player.choose(state)
        recorder.apply(state, index)
        legal.append(options)
        legal.extend([None] * (len(recorder.entries) - before - 1))
    return {"format": GOLDEN_FORMAT, "version": 1, "record": recorder.record, "legal": legal,
            "scores": state.scores(), "winners": state.winner()}


def dumps_golden(data: dict[str, Any]) -> str:
    """A golden playthrough as JSON, one entry and its legal actions a line."""
    head = {k: v for k, v in data.items() if k not in ("record", "legal")}
    record = {k: v for k, v in data["record"].items() if k != "entries"}
    lines = ["{", f'  "format": {json.dumps(head["format"])},', f'  "version": {head["version"]},',
             f'  "record": {json.dumps(record, ensure_ascii=False)},',
             f'  "scores": {json.dumps(head["scores"])},', f'  "winners": {json.dumps(head["winners"])},',
             '  "steps": [']
    steps = [json.dumps({"entry": e, "legal": legal}, ensure_ascii=False)
             for e, legal in zip(data["record"]["entries"], data["legal"])]
    lines.append(",\n".join("    " + s for s in steps))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def loads_golden(text: str) -> dict[str, Any]:
    """Read a golden playthrough back into ``record`` (with entries) and ``legal``."""
    data: dict[str, Any] = json.loads(text)
    record = dict(data["record"])
    record["entries"] = [s["entry"] for s in data["steps"]]
    return {"format": data["format"], "version": data["version"], "record": record,
            "legal": [s["legal"] for s in data["steps"]], "scores": data["scores"], "winners": data["winners"]}


def _cut(record: dict[str, Any], at: int, *entries: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["entries"] = out["entries"][:at] + list(entries)
    return out


def _first(players: int, seed: int, test: Callable[[dict[str, Any], State], bool]) -> tuple[int, State]:
    """In ``record_game(players, seed)``: the first action entry (and the state before it) for which
    ``test`` holds."""
    state = load_rules().new_state(players, seed=seed)
    recorder = Recorder(state, seed=seed)
    player = RandomPlayer(seed)
    while not state.is_terminal():
        before = state.clone()
        k = len(recorder.entries)
        index = state.random_chance_index() if state.is_chance_node() else player.choose(state)
        recorder.apply(state, index)
        if test(recorder.entries[k], before):
            return k, before
    raise LookupError("no such entry")


def game_files() -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The recorded games and what a validator must say about each."""
    games: dict[str, dict[str, Any]] = {}
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        games[f"legal-{players}p-omniscient.json"] = record_game(players, seed)
        eye_seed = 1 if players == 4 else seed + 10  # 4p seed 1: P1's Witch looks, so look entries too
        games[f"legal-{players}p-players-eye.json"] = record_game(players, eye_seed, kind=PLAYERS_EYE, viewer=1)
    base = record_game(4, 21)
    regions = load_rules().world(4).nodes[BOARD]

    k, state = _first(4, 21, lambda e, st: e["action"].startswith("place ")
                      and any(not View(st).rats[r] for r in regions)
                      and View(st).holder["peasant"] != st.current_player)
    empty = next(r for r in regions if not View(state).rats[r])
    games["illegal-place-without-tokens.json"] = _cut(base, k, {"by": notation.seat(state.current_player),
                                                                "action": f"place {empty}"})
    k, state = _first(4, 21, lambda e, st: e["action"].startswith("plague "))
    games["illegal-plague-stays.json"] = _cut(base, k, {"by": notation.seat(state.current_player),
                                                        "action": f"plague {View(state).plague}"})
    k, state = _first(4, 21, lambda e, st: e["action"].startswith("take "))
    other = next(c for c in View(state).classes
                 if c != base["entries"][k]["action"].split()[1] and View(state).holder[c] != state.current_player)
    games["illegal-second-card.json"] = _cut(base, k + 1, {"by": notation.seat(state.current_player),
                                                           "action": f"take {other}"})
    wrong = copy.deepcopy(base)
    k = next(i for i, e in enumerate(wrong["entries"]) if "reveal" in e)
    wrong["entries"][k] = {"reveal": "6:A+merchant+witch" if wrong["entries"][k]["reveal"] != "6:A+merchant+witch"
                           else "1:merchant+monk"}
    games["illegal-wrong-reveal.json"] = wrong
    games["illegal-after-the-end.json"] = _cut(base, len(base["entries"]), {"by": "P0", "action": "end"})
    placed = record_game(4, 22, {"reveal-order": "placed"})
    placed["interpretations"] = {}
    placed["comment"] = "legal only with reveal-order=placed"
    games["needs-reveal-order-placed.json"] = placed
    expected = {}
    for name, record in games.items():
        v = validate(record)
        item: dict[str, Any] = {"status": v.status}
        if v.finished:
            item.update(scores=list(v.scores), winners=list(v.winners))
        if v.index is not None:
            item.update(index=v.index, entry=record["entries"][v.index])
        if name.startswith("needs-reveal-order-placed"):
            item["legal_with"] = {"reveal-order": "placed"}
        expected[name] = item
    return games, expected


def build() -> dict[str, str]:
    """Every generated conformance file: relative path → text."""
    files = {"perft.json": _json(perft_vectors())}
    games, expected = game_files()
    for name, record in games.items():
        files[f"games/{name}"] = dumps(record)
    files["games/expected.json"] = "{\n" + ",\n".join(
        f"  {json.dumps(name)}: {json.dumps(item, ensure_ascii=False)}" for name, item in expected.items()) + "\n}\n"
    for name, players, seed, settings in GOLDEN_CASES:
        files[f"golden/{name}.json"] = dumps_golden(golden(players, seed, settings))
    return files


def differences(root: Path, files: dict[str, str] | None = None) -> list[str]:
    """The generated files that are missing or differ under ``root``."""
    files = build() if files is None else files
    out = []
    for rel, text in sorted(files.items()):
        path = root / rel
        if not path.is_file():
            out.append(f"{rel}: missing")
        elif path.read_text(encoding="utf-8") != text:
            out.append(f"{rel}: differs")
    return out


def write(root: Path) -> list[str]:
    """Write every generated file under ``root``; the files written."""
    written = []
    for rel, text in sorted(build().items()):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(rel)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``--write DIR`` rewrites the conformance files; ``--check DIR`` lists those that differ (exit 1)."""
    parser = argparse.ArgumentParser(prog="python -m rattus_rules.conformance", description=__doc__)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="DIR", help="rewrite the generated files under DIR")
    group.add_argument("--check", metavar="DIR", help="report the generated files that differ under DIR")
    args = parser.parse_args(argv)
    if args.write:
        written = write(Path(args.write))
        print("\n".join(f"wrote {rel}" for rel in written) or "nothing changed")
        return 0
    diff = differences(Path(args.check))
    print("\n".join(diff) or "all conformance files are up to date")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
