"""Step through a game record: the position before each action entry, what the record lets one see there.

:func:`record_frames` replays a record (with the validator of
:mod:`rattus_rules.tools.records.validate`) and keeps, before each action entry, a copy of
the position, the rule whose decision the entry answers (with its German
citations) and the pieces whose faces the record has stated so far.  A last
frame holds the end: the final position of a legal record, or the position
where an illegal one's first bad entry was refused.  The replay viewer
(``rattus view``) draws these frames; any other tool stepping through a record
can use them too.

>>> from rattus_rules.tools.records.validate import record_game
>>> frames, verdict = record_frames(record_game(2, seed=4))
>>> verdict.status, frames[0].index, frames[0].entries[0]["by"], frames[-1].index is None
('legal', 0, 'chance', True)
>>> frames[0].rule, frames[0].citations[0].source
('start_tokens', 'rulebook')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from interpreter import Citation, State
from rattus_rules.api import ResolvedGame

from ..records.validate import ILLEGAL, OMNISCIENT, RecordWalk, Verdict, prepare


@attrs.frozen
class Frame:
    """One step of a record.

    ``index`` is the action entry about to be checked (``None`` for the end
    frame of a legal record; the bad entry's index for the end frame of an
    illegal one); ``entries`` are that entry and the reveal/look entries that
    belong to it.  ``state`` is the position before it.  ``known`` are the
    pieces whose face the record has stated (``None``: every face, an
    omniscient record).
    """

    index: int | None
    entries: tuple[dict[str, Any], ...]
    state: State = attrs.field(eq=False, repr=False)
    known: frozenset[int] | None
    rule: str
    citations: tuple[Citation, ...]

    @property
    def numbers(self) -> list[int]:
        """The indices of :attr:`entries` in the record."""
        start = self.index or 0
        return list(range(start, start + len(self.entries)))

    def shown(self, piece: int) -> bool:
        """Whether the record lets one see this piece's face here."""
        return self.known is None or piece in self.known or bool(self.state.face_up[piece])


def record_frames(record: Any, interpretations: Mapping[str, str] | None = None, data: str | None = None,
                  game_name: str | ResolvedGame | None = None) -> tuple[list[Frame], Verdict]:
    """The frames of a record (parsed JSON) of a game (by name, None: the selected one; or resolved
    already, :func:`rattus_rules.api.resolve`) and its verdict; ValueError if it is not a record.

    Stops at the first illegal entry: the last frame is where it was refused.
    """
    form, settings = prepare(record, interpretations, data, game_name)
    run = RecordWalk(form.game, record, settings, form.faces)
    omniscient = record["kind"] == OMNISCIENT
    entries: list[dict[str, Any]] = list(record["entries"])
    taken: list[tuple[int, State, frozenset[int] | None]] = []

    def before(i: int, state: State) -> None:
        taken.append((i, state.clone(), None if omniscient else frozenset(run.observed)))

    verdict = run.run(before)
    ends = [i for i, _, _ in taken[1:]] + [len(entries)]
    frames = [_frame(i, entries[i:end], state, known) for (i, state, known), end in zip(taken, ends)]
    end_state = verdict.state if verdict.state is not None else run.state
    end_known = None if omniscient else frozenset(run.observed)
    if verdict.status == ILLEGAL and verdict.index is not None:
        bad = verdict.index
        if frames and frames[-1].index is not None and frames[-1].index <= bad:
            last = frames.pop()  # the step holding the bad entry ends before it; the bad entry gets its own
            if last.index is not None and last.index < bad:
                frames.append(attrs.evolve(last, entries=last.entries[: bad - last.index]))
        frames.append(_frame(bad, [entries[bad]], end_state.clone(), end_known))
    else:
        frames.append(Frame(None, (), end_state.clone(), end_known, "", ()))
    return frames, verdict


def _frame(index: int, entries: Sequence[dict[str, Any]], state: State, known: frozenset[int] | None) -> Frame:
    return Frame(index, tuple(entries), state, known, state.decision_rule(), tuple(state.decision_citations()))
