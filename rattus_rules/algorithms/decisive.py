"""Games a reading decides: for each reading a study shows to matter, one pair of recorded games.

A study (:mod:`rattus_rules.tools.study.study`) counts how often changing one switch
changes the winner of a paired game.  This module finds, for each such
reading, the first seed on which the pair's winners differ, plays that pair
again while recording it (the same seeds, agents and chance streams, so the
same two games), checks both records and writes them: in the replay viewer
(``rattus view``; the docs build renders a page for each) a person can step
through the game under the default reading and under the other one, and see
where they part and who wins each.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from interpreter import State, notation

from ..api import ResolvedGame
from ..tools.records.validate import Recorder, validate
from ..tools.study.study import play_game

#: How many seeds are tried per reading before it is reported as not found.
TRIES = 40


@attrs.frozen
class Decided:
    """A pair of games on one seed whose winners differ: the reading, the seed and each game's winners."""

    switch: str
    option: str
    players: int
    seed: int
    default_winners: tuple[int, ...]
    option_winners: tuple[int, ...]


def mattering(study: Mapping[str, Any]) -> list[tuple[int, str, str, float]]:
    """The readings a study shows to change the winner: ``(players, switch, option, rate)`` for every
    option whose winner-change interval lies above 0."""
    out = []
    for players, result in study["results"].items():
        for o in result["options"]:
            if o["compared"] and o["winner_change"]["low"] > 0:
                out.append((int(players), o["switch"], o["option"], o["winner_change"]["mean"]))
    return out


def find_decided(game: str | ResolvedGame, agent: str, players: int, switch: str, option: str, first_seed: int = 0,
                 tries: int = TRIES) -> Decided | None:
    """The first seed from ``first_seed`` on whose pair of games has different winners, or None."""
    for seed in range(first_seed, first_seed + tries):
        base = play_game(players, seed, {}, agent, game=game)
        other = play_game(players, seed, {switch: option}, agent, game=game)
        if not base.cut and not other.cut and base.winners != other.winners:
            return Decided(switch, option, players, seed, base.winners, other.winners)
    return None


def recorded(game: str | ResolvedGame, agent: str, players: int, seed: int,
             settings: Mapping[str, str]) -> dict[str, Any]:
    """The record of one study game, played again exactly as the study plays it."""
    holder: dict[str, Recorder] = {}

    def apply(state: State, index: int) -> None:
        if "r" not in holder:
            holder["r"] = Recorder(state, seed=seed, faces=game.faces if isinstance(game, ResolvedGame) else None)
        holder["r"].apply(state, index)

    play_game(players, seed, settings, agent, game=game, apply=apply)
    return holder["r"].record


def write_pair(folder: Path, game: str | ResolvedGame, agent: str, found: Decided) -> list[Path]:
    """Record the pair, check that each record is legal and ends as the study's game did, and write both."""
    written = []
    for name, settings, winners in (("default", {}, found.default_winners),
                                    (found.option, {found.switch: found.option}, found.option_winners)):
        record = recorded(game, agent, found.players, found.seed, settings)
        verdict = validate(record, game_name=game)
        if verdict.status != "legal" or verdict.winners != winners:
            raise RuntimeError(f"the recorded game {found.switch}={name} does not replay as played: {verdict}")
        path = folder / f"{found.switch}-{name}-{found.players}p-seed{found.seed}.json"
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def winners_text(winners: Sequence[int]) -> str:
    """Winners as seats: ``P0`` or ``P1 and P3``."""
    return " and ".join(notation.seat(w) for w in winners) or "nobody"


def decisive_games(study: Mapping[str, Any], game: str | ResolvedGame, folder: Path, page: Path,
                   link: Callable[[Path], str], limit: int | None = None, title: str = "") -> dict[str, Any]:
    """Find, record and list a decided pair for each reading that matters in ``study``; write the page
    (``game``: by name, or resolved once by the command and passed down to every game played and checked).

    ``link(path)`` writes the links to a written record for the page (its viewer page and the record).
    """
    started = time.perf_counter()
    agent = study["params"]["agent"]
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for players, switch, option, rate in mattering(study)[:limit]:
        found = find_decided(game, agent, players, switch, option)
        if found is None:
            rows.append(f"| `{switch}={option}` | {players} | {100 * rate:.0f} % | none in {TRIES} seeds | | |")
            continue
        default, other = write_pair(folder, game, agent, found)
        rows.append(f"| `{switch}={option}` | {players} | {100 * rate:.0f} % | {found.seed} | "
                    f"{winners_text(found.default_winners)}: {link(default)} | "
                    f"{winners_text(found.option_winners)}: {link(other)} |")
    seconds = time.perf_counter() - started
    lines = [f"# Games a reading decides{': ' + title if title else ''} ({agent})", "",
             f"For each reading that the study with the `{agent}` player shows to change the winner (its "
             "winner-change interval lies above 0), the first seed on which the pair of games has different "
             "winners: the game under the default readings and the same game under the other reading (the same "
             "seeds, players and chance draws; the games are the same until the reading makes a difference). "
             "Each game opens in the replay viewer; its record (JSON) is beside it.", "",
             "| reading | players | winner changes | seed | default: winners | this reading: winners |",
             "| --- | --- | --- | --- | --- | --- |", *rows, "",
             f"Found in {seconds:.0f} s.", ""]
    page.write_text("\n".join(lines), encoding="utf-8")
    return {"rows": len(rows), "seconds": round(seconds, 1)}
