"""A position of a recorded game drawn for the docs by the game's picture: any game that declares one.

The docs show a position as the viewer and the play page draw it: the record is replayed (checked as
``rattus validate`` checks it), and the position before one of its steps, or its end, is drawn by the
``picture`` the game's spec declares (:mod:`rattus_rules.tools.views.picture`), inline as SVG.  A game
that declares none is written as text.  Nothing here knows a game.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from ..views.frames import record_frames
from ..views.picture import picture_svg
from ..views.viewer import to_move


def record_picture_rst(path: Path, step: int | None = None, shown_as: str | None = None) -> str:
    """reStructuredText showing the position before step ``step`` of the record at ``path`` (None: its end),
    drawn by its game's declared picture, with a caption saying which record, which step and what drew it;
    ``shown_as`` is how the caption names the record (default: its file name).  ValueError if the record
    cannot be read or the step is not one of its steps."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ValueError(f"{path}: not a record ({err})") from None
    game = record.get("game") if isinstance(record, dict) else None
    frames, _ = record_frames(record, None, None, game if isinstance(game, str) else None)
    at = len(frames) - 1 if step is None else step
    if not 0 <= at < len(frames):
        raise ValueError(f"{path}: step {at} is not one of its steps 0 to {len(frames) - 1}")
    frame = frames[at]
    state = frame.state
    seats = record.get("seats") if isinstance(record.get("seats"), list) else None
    svg = picture_svg(state, frame.shown, seats)
    done = frame.index if frame.index is not None else len(record["entries"])
    name = shown_as or path.name
    picture = next(iter(state.game.symbols.pictures.values()), None)
    esc = html.escape
    where = f"the <code>picture {esc(picture.name)}</code> its spec declares" if picture else "its spec"
    caption = (f"{esc(state.game.title)}: the position after {done} of the {len(record['entries'])} entries "
               f"of <code>{esc(name)}</code> (step {at} in the viewer). {esc(to_move(state, seats))} "
               f"Drawn at the docs' build from {where} by the game-agnostic renderer.")
    if svg is None:  # no picture: the position as text, a literal block
        from rattus_rules.games import position_text

        text = position_text(state, frame.shown, seats)
        return "::\n\n" + "\n".join("   " + line for line in text.splitlines()) + "\n"
    lines = [".. raw:: html", "", '   <figure class="rules-picture declared-picture">',
             *("   " + line for line in svg.splitlines()), f"   <figcaption>{caption}</figcaption>", "   </figure>", ""]
    return "\n".join(lines) + "\n"
