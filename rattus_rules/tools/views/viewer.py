"""The replay viewer: one self-contained HTML page that steps through a game record.

``rattus view game.json -o game.html`` writes it.  The page holds, for every
action entry of the record (:func:`rattus_rules.tools.views.frames.record_frames`), the
picture of the position before it (the game's ``picture`` hook, else the position as text),
the table of the seats (its ``seat_rows`` hook), the entry with the reveal and
look entries that belong to it, and the rule whose decision it answers with
the German text.  Arrow keys, buttons and a slider move through it.  A record
that is illegal ends at its first bad entry, with the validator's reason, the
rule, its German text and what was legal there.  A players-eye record shows
only the faces the record states.

>>> from rattus_rules.tools.records.validate import record_game
>>> html = viewer_html(record_game(2, seed=4))
>>> html.startswith("<!DOCTYPE html>") and 'id="rattus-data"' in html
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interpreter import State, notation
from interpreter.session import citations_json
from rattus_rules.api import ResolvedGame, resolve
from rattus_rules.tools.records.walk import Faces

from ..records.validate import ILLEGAL, LEGAL, OMNISCIENT, PLAYERS_EYE, Verdict, record_format, seat_name, seats_of
from .frames import Frame, record_frames
from .picture import picture_svg
from .webpage import asset, page


def to_move(state: State, seats: Sequence[str] | None = None) -> str:
    """Who the game waits for, in words."""
    if state.is_terminal():
        return "The game is over."
    if state.is_chance_node():
        return f"Chance decides (rule {state.decision_rule()})."
    return f"{seat_name(state.current_player, seats)} decides (rule {state.decision_rule()})."


def entry_text(entry: Mapping[str, Any], seats: Sequence[str] | None) -> str:
    """One record entry as a line of the action list."""
    if "reveal" in entry:
        return f"↳ reveal {entry['reveal']}"
    who = str(entry.get("by", ""))
    seat = notation.read_seat(who)
    if seat is not None:
        who = seat_name(seat, seats)
    if "look" in entry:
        return f"↳ {who} looks at {entry['look']}"
    return f"{who}: {entry.get('action', '')}"


def _headline(verdict: Verdict, seats: Sequence[str] | None) -> str:
    if verdict.status == ILLEGAL:
        return f"Illegal: entry {verdict.index} is refused"
    return verdict.format(seats).splitlines()[0].replace("legal", "Legal", 1)


def verdict_json(verdict: Verdict, record: Mapping[str, Any], end: State, faces: Faces | None = None) -> dict[str, Any]:
    """What the page says at the last step: the verdict, and for an illegal record why (``faces``: how the
    game writes its pieces, if known already)."""
    seats = seats_of(record)
    legal = list(verdict.legal)
    hidden = ""
    if verdict.status == ILLEGAL and record.get("kind") == PLAYERS_EYE and end.is_chance_node():
        noun = (record_format(end.game).faces if faces is None else faces).noun
        legal, hidden = [], f"The possible outcomes are not listed: in a players-eye record drawn {noun}s are hidden."
    more = len(legal) - 40
    legal = legal[:40] + ([f"… ({more} more)"] if more > 0 else [])
    lines = verdict.format(seats).splitlines()
    final: list[dict[str, Any]] = []
    if verdict.status == LEGAL and end.is_terminal():
        winners = end.winner() or []
        final = [{"label": seat_name(p, seats), "score": score, "winner": p in winners}
                 for p, score in enumerate(end.scores())]
    return {"status": verdict.status, "headline": _headline(verdict, seats), "reason": verdict.reason,
            "final": final,
            "rule": verdict.rule, "citations": citations_json(verdict.citations), "legal": legal,
            "legal_hidden": hidden, "warnings": list(verdict.warnings), "lines": lines}


class LinePool:
    """Pictures as lists of line numbers into one table of distinct lines: consecutive positions share most
    of their lines, so a page of hundreds of pictures stays small."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._index: dict[str, int] = {}

    def add(self, text: str) -> list[int]:
        """The line numbers of ``text``'s lines (new lines are added)."""
        out = []
        for line in text.split("\n"):
            number = self._index.get(line)
            if number is None:
                number = self._index[line] = len(self.lines)
                self.lines.append(line)
            out.append(number)
        return out

    def text(self, numbers: Sequence[int]) -> str:
        """The text the line numbers stand for."""
        return "\n".join(self.lines[n] for n in numbers)


def _frame_json(frame: Frame, seats: Sequence[str] | None, pool: LinePool, game: ResolvedGame) -> dict[str, Any]:
    """One step of the page: its entries and rule, and the position, drawn by the game's picture (an
    SVG) or else written as text (the lines of either kept in ``pool``), with the seats' table if any."""
    shown: dict[str, Any] = {"index": frame.index, "entries": frame.numbers,
                             "rule": frame.rule, "citations": citations_json(frame.citations),
                             "status": to_move(frame.state, seats)}
    drawn = game.views
    declared = picture_svg(frame.state, frame.shown, seats) if drawn.picture is None else None
    if drawn.picture is not None:
        shown["svg"] = pool.add(drawn.picture(frame.state, frame.shown, seats))
    elif declared is not None:  # the picture the spec declares (rules language `picture`)
        shown["svg"] = pool.add(declared)
    else:
        shown["text"] = pool.add(game.position_text(frame.state, frame.shown, seats))
    shown["players"] = drawn.seat_rows(frame.state, seats) if drawn.seat_rows is not None else None
    return shown


def viewer_data(record: Any, interpretations: Mapping[str, str] | None = None, data: str | None = None,
                game_name: str | ResolvedGame | None = None) -> dict[str, Any]:
    """Everything the viewer page shows, as JSON data, for a record of a game (by name, None: the
    selected one; or resolved already, :func:`rattus_rules.api.resolve`, as ``rattus view`` passes it);
    ValueError if ``record`` is not a record."""
    resolved = resolve(game_name, data)
    frames, verdict = record_frames(record, interpretations, None, resolved)
    game = resolved.rules
    drawn = resolved.views
    faces = resolved.faces
    seats = seats_of(record)
    entries = record["entries"]
    frame_of: dict[int, int] = {}
    for k, f in enumerate(frames):
        for j in f.numbers:
            frame_of[j] = k
    bad = verdict.index if verdict.status == ILLEGAL else None
    listed = [{"text": entry_text(e, seats), "frame": frame_of.get(i),
               "state": "bad" if i == bad else ("unchecked" if bad is not None and i > bad else "")}
              for i, e in enumerate(entries)]
    pool = LinePool()
    shown_frames = [_frame_json(f, seats, pool, resolved) for f in frames]
    end = frames[-1]
    if end.index is None:  # the scores and the winner are shown under the verdict
        shown_frames[-1]["status"] = verdict.format(seats).splitlines()[0]
    settings = ", ".join(f"{k}={v}" for k, v in verdict.settings) or "none"
    kind = record["kind"]
    noun = faces.noun
    seen = (f"every {noun} face" if kind == OMNISCIENT
            else f"only the faces the record states (hidden {noun}s stay {faces.unknown})")
    article = "An" if kind[0] in "aeiou" else "A"
    names = ", ".join(seat_name(p, seats) for p in range(len(seats or [])))
    about = (f"{len(seats or [])} players: {names}. {article} {kind} record of {len(entries)} entries, showing "
             f"{seen}. Verdict: {'legal' if verdict.status == LEGAL else verdict.status}.")
    components = drawn.components_note if drawn.components_note is not None else game.provenance_note() or ""
    return {"title": f"{game.title}: a recorded game ({kind})", "about": about, "components": components,
            "settings": settings,
            "entries": listed, "frames": shown_frames, "lines": pool.lines,
            "verdict": verdict_json(verdict, record, end.state, faces)}


def steps_summary(shown: Mapping[str, Any]) -> str:
    """What the page of :func:`viewer_data` steps through, in plain words, and the verdict.

    A step is the position before one action entry (its reveal and look entries are shown with it),
    plus the end position of a legal record; the verdict counts every entry.
    """
    frames = shown["frames"]
    actions = sum(1 for f in frames if f["index"] is not None)
    entries = sum(len(f["entries"]) for f in frames)
    others = entries - actions

    def count(n: int, one: str, many: str) -> str:
        return f"{n} {one if n == 1 else many}"

    if shown["verdict"]["status"] == ILLEGAL:
        which = f"one before each of the record's first {count(actions, 'action', 'actions')}, the last refused"
    else:
        which = f"one before each of the record's {count(actions, 'action', 'actions')} and one for the end"
    parts = (f"{count(entries, 'entry', 'entries')}: {count(actions, 'action', 'actions')} and "
             f"{count(others, 'reveal or look entry', 'reveal and look entries')}, shown with their action")
    return f"{count(len(frames), 'step', 'steps')}, {which} ({parts}). {shown['verdict']['headline']}."


def viewer_page(shown: Mapping[str, Any]) -> str:
    """The viewer page showing :func:`viewer_data`."""
    return page(str(shown["title"]), asset("viewer.html"), shown, "viewer.js")


def viewer_html(record: Any, interpretations: Mapping[str, str] | None = None, data: str | None = None) -> str:
    """The replay viewer page of a record (parsed JSON); ValueError if it is not a record."""
    return viewer_page(viewer_data(record, interpretations, data))
