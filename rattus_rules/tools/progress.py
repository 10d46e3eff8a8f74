"""Progress for long commands: a bar with rate and ETA on a terminal, nothing otherwise.

``with progress(total, "perft depth 6", unit="action") as bar: ... bar.update()``
draws on standard error only when it is a terminal (so pipes, files and CI logs
stay clean) and ``RATTUS_PROGRESS`` is not ``0``.  tqdm is imported only when a
bar is drawn, so commands start as fast without it.

>>> import io
>>> with progress(3, "quiet", stream=io.StringIO()) as bar:
...     bar.update(3)
>>> bar.shown
False
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import Any, TextIO

#: Set to 0 to turn bars off on a terminal too.
PROGRESS_ENV = "RATTUS_PROGRESS"
#: Seconds between redraws.
MIN_INTERVAL = 0.2


def on_terminal(stream: TextIO) -> bool:
    """Whether bars are drawn on ``stream``: a terminal, and not turned off by ``RATTUS_PROGRESS=0``."""
    if os.environ.get(PROGRESS_ENV, "").strip() == "0":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """A progress bar that is drawn only on a terminal; use :func:`progress` to make one."""

    def __init__(self, total: float | None, desc: str, unit: str, stream: TextIO):
        self._bar: Any = None
        self._stream = stream
        if on_terminal(stream):
            from tqdm import tqdm  # type: ignore[import-untyped]  # lazily: only long commands on a terminal pay for the import

            self._bar = tqdm(total=total, desc=desc, unit=unit, file=stream, leave=False, dynamic_ncols=True,
                             smoothing=0.1, mininterval=MIN_INTERVAL)

    @property
    def shown(self) -> bool:
        """Whether a bar is being drawn."""
        return self._bar is not None

    def update(self, n: float = 1) -> None:
        """Count ``n`` more units done."""
        if self._bar is not None:
            self._bar.update(n)

    def set_total(self, total: float | None) -> None:
        """Change how many units there are in all (an estimate that grew, say)."""
        if self._bar is not None and self._bar.total != total:
            self._bar.total = total
            self._bar.refresh()

    def advance_to(self, done: float, total: float | None = None) -> None:
        """Set how many units are done (and, if given, how many there are): for callbacks that count."""
        if self._bar is not None:
            if total is not None:
                self.set_total(total)
            self._bar.update(done - self._bar.n)

    def note(self, text: str, stream: TextIO | None = None) -> None:
        """Print a line (to standard output by default) without tearing the bar."""
        out = stream or sys.stdout
        if self._bar is not None:
            self._bar.clear()
        print(text, file=out, flush=True)
        if self._bar is not None:
            self._bar.refresh()

    def close(self) -> None:
        """Remove the bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def progress(total: float | None, desc: str, unit: str = "it", stream: TextIO | None = None) -> Progress:
    """A bar for ``total`` units (None: unknown) with rate and ETA, on standard error if it is a terminal."""
    return Progress(total, desc, unit, sys.stderr if stream is None else stream)
