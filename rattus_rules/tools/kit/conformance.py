"""The conformance files other engines check themselves against, made from this one.

``conformance/`` holds the kit of the default game, Rattus (see its README);
the kit of any other game of the registry is made the same way, from its spec
alone, in ``conformance/<game>/`` (:func:`kit_root`).  A kit holds:

* ``perft.json`` — perft vectors: the setup (as an omniscient record), the
  chance rule and the number of legal action sequences of each length;
* ``games/*.json`` — recorded games, legal and illegal, omniscient and
  players-eye, with ``games/expected.json`` saying what a validator must answer;
* ``golden/*.json`` — golden playthroughs: a recorded game with the legal
  actions (or chance outcomes) before every entry.

Everything is generated here, deterministically.  ``python -m
rattus_rules.tools.kit.conformance --write conformance`` (``make golden``) rewrites the
files on purpose after a rule change (``--game NAME`` those of another game);
``--check`` (and the tests) regenerate them and report every file that differs.

Rattus's kit has hand-picked cases (:mod:`rattus_rules.games.rattus.kit`: perft vectors, golden playthroughs
and illegal games that break named rules); another game's cases are chosen
from its spec: every player count, every switch option, and illegal games made
without knowing the game (an entry by the wrong seat, an action or chance
outcome that was legal earlier and is not now, an action after the end).
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
from rattus_rules.algorithms.agents import RandomPlayer
from rattus_rules.api import ResolvedGame, resolve
from rattus_rules.games import DEFAULT_GAME, KitCases, faces_of, game_name
from rattus_rules.tools.perft import first_outcome, perft
from rattus_rules.tools.records.walk import RowFaces

from ..records.validate import OMNISCIENT, PLAYERS_EYE, Recorder, dumps, record_game, validate

GOLDEN_FORMAT = "rattus-golden"
#: The largest count of a generated perft vector of a game other than Rattus (deeper ones are left out).
PERFT_LIMIT = 50_000
#: The deepest depth of a generated perft vector.
PERFT_DEEPEST = 4
#: The folder of the conformance kits in a checkout.
CONFORMANCE = Path(__file__).resolve().parents[3] / "conformance"
PERFT_FORMAT = "rattus-perft"



def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# ----------------------------------------------------------------- perft
def start_position(players: int, seed: int = 0, interpretations: Mapping[str, str] | None = None,
                   chance: str = "seed", data: str | None = None,
                   game: str | ResolvedGame | None = None) -> tuple[State, dict[str, Any]]:
    """The position after setup, and the omniscient record of setup (``game``: a name, or resolved once).

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
    resolved = resolve(game, data)
    state = resolved.rules.new_state(players, seed=seed, settings=interpretations)
    recorder = Recorder(state, OMNISCIENT, seed=seed, source="shipped" if data is None else str(data),
                        faces=resolved.faces)
    player = RandomPlayer(seed)
    found = resolved.hooks

    def in_setup() -> bool:
        if found.turn_procedure is None:
            return state.is_chance_node()
        return procedure_of(state) != found.turn_procedure

    while not state.is_terminal() and in_setup():
        if state.is_chance_node():
            index = state.random_chance_index() if chance == "seed" else first_outcome(state, resolved.piece_word)
        else:
            index = player.choose(state)
        recorder.apply(state, index)
    return state, recorder.record


def kit_cases(game: str | ResolvedGame | None) -> KitCases | None:
    """The cases a game's package picked for its kit (:attr:`rattus_rules.games.GameHooks.kit`), if any."""
    made = resolve(game).hooks.kit
    return None if made is None else made()


def is_default(game: str | ResolvedGame | None) -> bool:
    """Whether ``game`` (a registry name; None: the selected one; or resolved) is the default game, Rattus."""
    return (game.name if isinstance(game, ResolvedGame) else game_name(game)) == DEFAULT_GAME


def kit_root(game: str | ResolvedGame | None = None, root: Path = CONFORMANCE) -> Path:
    """Where a game's kit lies under ``root``: Rattus's is ``root`` itself, another game's ``root/<name>``."""
    return root if is_default(game) else root / (game.name if isinstance(game, ResolvedGame) else game_name(game))


def perft_cases(game: str | ResolvedGame | None = None) -> list[tuple[int, int, str, int | None]]:
    """(players, seed, chance rule, deepest depth) of each perft vector of a game: those its package
    picked (:class:`rattus_rules.games.KitCases`; Rattus's); for another game, every player count (seed:
    the count less one) with each chance rule, as deep as :data:`PERFT_LIMIT` allows (None: found while
    counting)."""
    game = resolve(game)
    picked = kit_cases(game)
    if picked is not None:
        return list(picked.perft)
    rules = game.rules
    return [(n, n - 1, chance, None) for n in range(rules.min_players, rules.max_players + 1)
            for chance in ("first", "seed")]


def perft_vectors(game: str | ResolvedGame | None = None) -> dict[str, Any]:
    """Every perft vector of a game (:func:`perft_cases`)."""
    game = resolve(game)
    vectors = []
    word = game.piece_word
    for players, seed, chance, depth in perft_cases(game):
        state, setup = start_position(players, seed, chance=chance, game=game)
        counts: dict[str, int] = {}
        for d in range(1, (depth or PERFT_DEEPEST) + 1):
            count = perft(state, d, chance, word)
            if depth is None and counts and count > PERFT_LIMIT:
                break
            counts[str(d)] = count
        vectors.append({
            "players": players,
            "seed": seed,
            "interpretations": {},
            "chance": chance,
            "setup": setup["entries"],
            "perft": counts,
        })
    picked = kit_cases(game)
    if picked is not None:
        vectors += picked.vectors(game)
    return {"format": PERFT_FORMAT, "version": 1, "vectors": vectors}


# ------------------------------------------------------------------ games
def _legal_texts(state: State, written: Callable[[int], str] | None = None) -> list[str]:
    """The distinct legal actions (chance outcomes) as records write them (``written``: a piece, known to
    the caller; None: as the state's game writes them), sorted."""
    written = faces_of(state.game).written if written is None else written
    return sorted({" ".join(option_words(state, i, written)) for i in range(state.num_legal_actions())})


def golden_cases(game: str | ResolvedGame | None = None) -> list[tuple[str, int, int, dict[str, str]]]:
    """(name, players, seed, switch settings) of each golden playthrough of a game: those its package
    picked (Rattus's); for another game one game for each player count with the defaults, then one for
    each option of a switch that is not its default (with the fewest players)."""
    game = resolve(game)
    picked = kit_cases(game)
    if picked is not None:
        return list(picked.golden)
    rules = game.rules
    counts = range(rules.min_players, rules.max_players + 1)
    cases: list[tuple[str, int, int, dict[str, str]]] = [(f"{n}p-seed{n}", n, n, {}) for n in counts]
    seed = rules.max_players
    for switch in rules.switches.values():
        for option in switch.options:
            if not option.default:
                seed += 1
                n = rules.min_players
                cases.append((f"{n}p-seed{seed}-{switch.ident}-{option.value}", n, seed, {switch.ident: option.value}))
    return cases


def golden(players: int, seed: int, interpretations: dict[str, str],
           game_name: str | ResolvedGame | None = None) -> dict[str, Any]:
    """A random game's record with the sorted legal actions (chance outcomes) before each entry."""
    resolved = resolve(game_name)
    state = resolved.rules.new_state(players, seed=seed, settings=interpretations)
    recorder = Recorder(state, seed=seed, faces=resolved.faces)
    player = RandomPlayer(seed)
    legal: list[list[str] | None] = []
    while not state.is_terminal():
        before = len(recorder.entries)
        options = _legal_texts(state, resolved.faces.written)
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
    return golden_of(json.loads(text))


def golden_of(data: dict[str, Any]) -> dict[str, Any]:
    """A golden playthrough's JSON as ``record`` (with entries) and ``legal``."""
    record = dict(data["record"])
    record["entries"] = [s["entry"] for s in data["steps"]]
    return {"format": data["format"], "version": data["version"], "record": record,
            "legal": [s["legal"] for s in data["steps"]], "scores": data["scores"], "winners": data["winners"]}


def cut_record(record: dict[str, Any], at: int, *entries: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``record`` with its entries from ``at`` on replaced by ``entries`` (an illegal game's end)."""
    out = copy.deepcopy(record)
    out["entries"] = out["entries"][:at] + list(entries)
    return out


# ------------------------------------------------- games of any other game
def _played(game: ResolvedGame, players: int, seed: int) -> list[tuple[dict[str, Any], list[str]]]:
    """A random game's action entries (reveal and look entries left out), each with the legal texts
    (chance outcomes) before it, as records write them."""
    rules = game.rules
    state = rules.new_state(players, seed=seed)
    recorder = Recorder(state, seed=seed, faces=game.faces)
    player = RandomPlayer(seed)
    out: list[tuple[dict[str, Any], list[str]]] = []
    while not state.is_terminal():
        legal = _legal_texts(state, game.faces.written)
        k = len(recorder.entries)
        index = state.random_chance_index() if state.is_chance_node() else player.choose(state)
        recorder.apply(state, index)
        out.append((recorder.entries[k], legal))
    return out


def _no_longer_legal(base: dict[str, Any], played: list[tuple[dict[str, Any], list[str]]],
                     chance: bool) -> tuple[int, dict[str, Any]] | None:
    """The first action entry (of a player, or of chance) where a text of the same verb that was
    legal at an earlier step is not legal now: its index in ``base`` and the entry that writes it."""
    positions = [i for i, e in enumerate(base["entries"]) if "action" in e]
    earlier: dict[str, list[str]] = {}
    for (entry, legal), at in zip(played, positions):
        if (entry["by"] == notation.CHANCE) == chance:
            verb = entry["action"].split(" ")[0]
            gone = [t for t in earlier.get(verb, []) if t not in set(legal)]
            if gone:
                return at, {"by": entry["by"], "action": gone[0]}
            earlier.setdefault(verb, [])
            earlier[verb] += [t for t in legal if t.split(" ")[0] == verb and t not in earlier[verb]][:50]
    return None


#: The illegal games a kit of any game holds (files in ``games/``), made without knowing the game, and
#: what each does wrong (for its README).
GENERIC_ILLEGAL = {"illegal-wrong-seat.json": "an entry by the wrong seat",
                   "illegal-action-no-longer-legal.json": "an action legal earlier and not now",
                   "illegal-outcome-no-longer-possible.json": "a chance outcome possible earlier and not now",
                   "illegal-after-the-end.json": "an action after the end"}
WRONG_SEAT, NO_LONGER_LEGAL, NO_LONGER_POSSIBLE, AFTER_THE_END = GENERIC_ILLEGAL


def generic_game_files(game: str | ResolvedGame | None) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The recorded games of a game other than Rattus, made from its spec alone, and their verdicts.

    Legal games: one omniscient record for each player count, and a players-eye one where the
    game has hidden zones.  Illegal ones, each the legal 2-player game cut where it goes wrong:
    an entry by a seat that is not to move, a player's action and a chance outcome that were legal
    earlier and are not now, an action after the end.  ``needs-SWITCH-OPTION``: a game legal only
    with that switch option (for the first option and seed found that change legality).
    """
    game = resolve(game)
    rules = game.rules
    name = rules.name
    games: dict[str, dict[str, Any]] = {}
    counts = range(rules.min_players, rules.max_players + 1)
    for players in counts:
        games[f"legal-{players}p-omniscient.json"] = record_game(players, 10 + players, game_name=game)
        if any(rules.hidden_zones.values()):
            games[f"legal-{players}p-players-eye.json"] = record_game(
                players, 20 + players, kind=PLAYERS_EYE, viewer=min(1, players - 1), game_name=game)
    players = rules.min_players
    seed = 30 + players
    base = record_game(players, seed, game_name=game)
    played = _played(game, players, seed)
    positions = [i for i, e in enumerate(base["entries"]) if "action" in e]
    first = next((at for (entry, _), at in zip(played, positions) if entry["by"] != notation.CHANCE), None)
    if first is not None and players > 1:
        entry = base["entries"][first]
        mover = notation.read_seat(entry["by"])
        assert mover is not None  # a player's entry
        other = notation.seat((mover + 1) % players)
        games[WRONG_SEAT] = cut_record(base, first, {"by": other, "action": entry["action"]})
    for chance, file in ((False, NO_LONGER_LEGAL), (True, NO_LONGER_POSSIBLE)):
        found = _no_longer_legal(base, played, chance)
        if found is not None:
            games[file] = cut_record(base, found[0], found[1])
    last = next((e for e in reversed(base["entries"]) if "action" in e and e["by"] != notation.CHANCE), None)
    if last is not None:
        games[AFTER_THE_END] = cut_record(base, len(base["entries"]), dict(last))
    needs: dict[str, dict[str, str]] = {}
    for switch in rules.switches.values():
        option = next((o for o in switch.options if not o.default), None)
        if option is None:
            continue
        for tried in range(40, 60):
            record = record_game(players, tried, {switch.ident: option.value}, game_name=game)
            record["interpretations"] = {}
            if validate(record, game_name=game).status == "illegal":
                record["comment"] = f"legal only with {switch.ident}={option.value}"
                file = f"needs-{switch.ident}-{option.value}.json"
                games[file] = record
                needs[file] = {switch.ident: option.value}
                break
    expected: dict[str, dict[str, Any]] = {}
    for file, record in games.items():
        v = validate(record, game_name=game)
        if v.status not in ("legal", "illegal"):
            raise AssertionError(f"{name} kit: {file} is {v.status}: {v.format()}")
        item: dict[str, Any] = {"status": v.status}
        if v.finished:
            item.update(scores=list(v.scores), winners=list(v.winners))
        if v.index is not None:
            item.update(index=v.index, entry=record["entries"][v.index])
        if file in needs:
            item["legal_with"] = needs[file]
        expected[file] = item
    return games, expected


def _listed(items: list[str], last: str) -> list[str]:
    """Files as README lines: each quoted, a comma after all but the last, ``last`` after it."""
    return [f"  `{rel}`" + ("," if i < len(items) - 1 else last) for i, rel in enumerate(items)]


def _illegal_kinds(games: list[str]) -> str:
    """The kinds of illegal games among ``games`` (files in ``games/``), as a README phrase."""
    return ", ".join(words for file, words in GENERIC_ILLEGAL.items() if f"games/{file}" in games)


def readme(game: str | ResolvedGame | None, files: dict[str, str]) -> str:
    """The README of a generated kit of a game other than Rattus (see ``conformance/README.md``):
    it names only what the kit holds (no switches, chance outcomes or players-eye games where it has none)."""
    game = resolve(game)
    rules = game.rules
    name = rules.name
    counts = [str(n) for n in range(rules.min_players, rules.max_players + 1)]
    players = " and ".join([", ".join(counts[:-1]), counts[-1]] if len(counts) > 1 else counts)
    by_rows = isinstance(game.faces, RowFaces)
    golden_files = sorted(rel for rel in files if rel.startswith("golden/"))
    game_files = sorted(rel for rel in files if rel.startswith("games/") and rel != "games/expected.json")
    eye = any("players-eye" in rel for rel in game_files)
    needs = any(rel.startswith("games/needs-") for rel in game_files)
    lines = [
        f"# Conformance kit: check your {rules.title} engine against this one",
        "",
        f"Generated by `rattus_rules/tools/kit/conformance.py` from the rules of {rules.title} alone "
        f"(`rattus --game {name} conformance make DIR`",
        "makes it again). It is made and used like the Rattus kit,",
        "whose README (`conformance/README.md`, or the README of `rattus conformance export`) explains",
        "the files, the chance rules `seed` and `first` and the engine subset of the referee protocol;",
        "here is what differs. Records name their game (`\"game\": \"" + name + "\"`); pieces are written as",
        "its records write them (" + ("by their table rows" if by_rows else "by their faces") + ": `docs/records.md`).",
        "",
        "```sh",
        f"rattus --game {name} conformance export DIR",
        f'rattus --game {name} conformance check --engine "my-engine" [KIT_DIR]',
        f'rattus --game {name} conformance check --engine "rattus --game {name} serve"   # the referee passes',
        "```",
        "",
        "## Files",
        "",
        f"* `perft.json`: for {players} players and each chance rule, the "
        f"setup and the number of legal action sequences of each length, as deep as the counts stay at most "
        f"{PERFT_LIMIT:,} (and at most {PERFT_DEEPEST});",
        "* `golden/`: random games with the legal actions before every entry, one for each player count"
        + (" with\n  the default switches, then one for each option of a switch that is not its default:"
           if rules.switches else ":"),
        *_listed(golden_files, ";"),
        "* `games/`: recorded games and, in `games/expected.json`, what a validator must answer for each: "
        "legal games",
        "  for each player count" + (" (players-eye too)" if eye else "") + ", and illegal ones made without",
        f"  knowing the game — {_illegal_kinds(game_files)}"
        + ("; `needs-SWITCH-OPTION.json` is legal only with that switch option:" if needs else ":"),
        *_listed(game_files, "."),
        "",
        "The component data of a game may be partly reconstructed: `rattus --game " + name + " check` says which "
        "rows are.",
        "",
    ]
    return "\n".join(lines)


def build(game: str | ResolvedGame | None = None) -> dict[str, str]:
    """Every generated conformance file of a game (None: the selected one): relative path → text.

    The game is resolved once, here, and that value passed down."""
    game = resolve(game)
    files = {"perft.json": _json(perft_vectors(game))}
    picked = kit_cases(game)
    games, expected = picked.games(game) if picked is not None else generic_game_files(game)
    for name, record in games.items():
        files[f"games/{name}"] = dumps(record)
    files["games/expected.json"] = "{\n" + ",\n".join(
        f"  {json.dumps(name)}: {json.dumps(item, ensure_ascii=False)}" for name, item in expected.items()) + "\n}\n"
    for name, players, seed, settings in golden_cases(game):
        files[f"golden/{name}.json"] = dumps_golden(golden(players, seed, settings, game))
    if not is_default(game):
        files["README.md"] = readme(game, files)
    if picked is not None:
        files.update(picked.files(game))
    return files


def differences(root: Path, files: dict[str, str] | None = None, game: str | None = None) -> list[str]:
    """The generated files of a game's kit that are missing or differ under ``root`` (the kit's own folder)."""
    files = build(game) if files is None else files
    out = []
    for rel, text in sorted(files.items()):
        path = root / rel
        if not path.is_file():
            out.append(f"{rel}: missing")
        elif path.read_text(encoding="utf-8") != text:
            out.append(f"{rel}: differs")
    return out


def write(root: Path, game: str | None = None) -> list[str]:
    """Write every generated file of a game's kit under ``root`` (the kit's own folder); the files written."""
    written = []
    for rel, text in sorted(build(game).items()):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(rel)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``--write DIR`` rewrites the conformance files; ``--check DIR`` lists those that differ (exit 1)."""
    parser = argparse.ArgumentParser(prog="python -m rattus_rules.tools.kit.conformance", description=__doc__)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="DIR", help="rewrite the generated files under DIR")
    group.add_argument("--check", metavar="DIR", help="report the generated files that differ under DIR")
    parser.add_argument("--game", metavar="NAME", help="the game (default: rattus, whose kit is DIR itself; "
                        "another game's kit is DIR/NAME)")
    args = parser.parse_args(argv)
    if args.write:
        written = write(kit_root(args.game, Path(args.write)), args.game)
        print("\n".join(f"wrote {rel}" for rel in written) or "nothing changed")
        return 0
    diff = differences(kit_root(args.game, Path(args.check)), game=args.game)
    print("\n".join(diff) or "all conformance files are up to date")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
