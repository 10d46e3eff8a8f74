"""Record archives: many records validated in parallel, one verdict line each and a summary.

An archive is any mix of record files, folders of them (every ``*.json`` and
``*.jsonl`` below, sorted), glob patterns, and JSON-lines files (``*.jsonl``,
``*.ndjson``: one record a line; blank lines skipped), at most
:data:`MAX_ARCHIVE_RECORDS` records; folders and ``**`` go down folders, never
through a symbolic link to one (it may loop).  The parent process only
lists the records (for a JSON-lines file, where each line starts); worker
processes read, parse and validate them in chunks of :data:`CHUNK` through
:func:`rattus_rules.tools.executor.run_all`, and the verdicts come back in the order
of the archive whatever the number of workers.

>>> from rattus_rules.tools.records.archive import validate_archive
>>> results = validate_archive(["conformance/games/legal-2p-*.json"], workers=1)
>>> [(r.name.rsplit("/", 1)[-1], r.verdict["status"]) for r in results]
[('legal-2p-omniscient.json', 'legal'), ('legal-2p-players-eye.json', 'legal')]
"""

from __future__ import annotations

import functools
import glob
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from interpreter import notation
from interpreter.files import NotAFile, open_regular, why_unread
from rattus_rules.api import ResolvedGame, resolve, resolve_in_process
from rattus_rules.games import game_name

from ..executor import run_all
from ..progress import Progress
from ..terminal import one_line
from .validate import (
    ILLEGAL,
    LEGAL,
    MAX_RECORD_CHARS,
    NOT_A_RECORD,
    load_record_text,
    not_a_record,
    read_record_file,
    validate,
)

#: Records per task sent to a worker (fixed, so that the tasks do not depend on the number of workers).
CHUNK = 32
#: Suffixes of JSON-lines files (one record a line).
JSON_LINES = (".jsonl", ".ndjson")
#: The most records one archive may list (each costs the listing some 200 bytes before it is validated).
MAX_ARCHIVE_RECORDS = 1_000_000


@attrs.frozen
class Item:
    """Where one record is: a whole file (``length`` -1), or ``length`` bytes of it from ``offset``."""

    name: str
    path: str
    offset: int = 0
    length: int = -1


@attrs.frozen
class Result:
    """One record's verdict (as :meth:`rattus_rules.tools.records.validate.Verdict.to_json` gives it)."""

    name: str
    verdict: dict[str, Any]

    @property
    def exit_code(self) -> int:
        """0 legal, 1 illegal, 2 not a record."""
        return {LEGAL: 0, ILLEGAL: 1}.get(self.verdict["status"], 2)

    def line(self) -> str:
        """The verdict on one line: control characters, line ends and tabs escaped (:func:`terminal.one_line`)."""
        v = self.verdict
        if v["status"] == LEGAL and v["finished"]:
            winners = " and ".join(notation.seat(w) for w in v["winners"])
            text = f"legal, {v['entries']} entries, scores {'-'.join(map(str, v['scores']))}, winner {winners}"
        elif v["status"] == LEGAL:
            text = f"legal so far, {v['entries']} entries, next: {v['next']}"
        elif v["status"] == ILLEGAL:
            text = f"illegal at entry {v['index']}: {v['reason']}"
        else:
            text = f"not a record: {v['path'] or '$'}: {v['reason']}"
        text += "".join(f" (warning: {w})" for w in v["warnings"])
        return one_line(f"{self.name}: {text}")


def shown_name(path: str) -> str:
    """A file's name as text UTF-8 can write: a byte the file system's name holds that is not UTF-8 (Python
    reads it as a lone surrogate) written ``\\xff``, any other lone surrogate ``\\ud800``."""
    def escaped(found: re.Match[str]) -> str:
        code = ord(found.group())
        return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"

    return _LONE.sub(escaped, path)


_LONE = re.compile("[\ud800-\udfff]")


def list_items(sources: Iterable[str]) -> list[Item]:
    """The records of an archive, in order; ValueError for a source that names nothing, or for more
    than :data:`MAX_ARCHIVE_RECORDS` records (the listing stops there)."""
    items: list[Item] = []
    for source in sources:
        path = Path(source)
        # (what is not a folder is listed: a FIFO or a dangling link gets its verdict line, it is not skipped)
        if path.is_dir():
            # (rglob goes down folders, not through links to folders)
            files = sorted(_at_most((p for p in path.rglob("*") if p.suffix in (".json", *JSON_LINES)
                                     and not p.is_dir()), len(items)))
            if not files:  # a wrong folder must not pass as an archive of no illegal record
                raise ValueError(f"no record in {source}: no *.json or {' or '.join('*' + s for s in JSON_LINES)} "
                                 "file below it")
        elif path.exists():
            files = [path]
        elif glob.has_magic(source):
            files = sorted(_at_most(_glob(source), len(items)))
            if not files:
                raise ValueError(f"no file matches {source}")
        else:
            raise ValueError(f"no such file or folder: {source}")
        for f in files:
            items.extend(_lines(f, MAX_ARCHIVE_RECORDS - len(items)) if f.suffix in JSON_LINES
                         else [Item(shown_name(str(f)), str(f))])
            if len(items) > MAX_ARCHIVE_RECORDS:
                raise _too_many()
    return items


def _too_many() -> ValueError:
    return ValueError(f"more than {MAX_ARCHIVE_RECORDS:,} records in one archive: validate it in parts")


def _at_most(listed: Iterable[Path], before: int) -> list[Path]:
    """What is listed, as a list; ValueError once there are more than :data:`MAX_ARCHIVE_RECORDS`
    with the ``before`` records listed before it."""
    out = []
    for thing in listed:
        out.append(thing)
        if before + len(out) > MAX_ARCHIVE_RECORDS:
            raise _too_many()
    return out


def _glob(pattern: str) -> Iterator[Path]:
    """The files (not folders) a glob pattern matches, as :func:`glob.glob` with ``recursive`` would list
    them, but ``**`` never goes through a symbolic link to a folder (a link to a folder above loops).

    A wildcard does not match a name starting with a dot unless the pattern has such a part.
    """
    parts = Path(pattern).parts
    fixed = 0
    while fixed < len(parts) - 1 and not glob.has_magic(parts[fixed]):
        fixed += 1
    root = Path(*parts[:fixed]) if fixed else Path()
    rest = [p if p == "**" else re.sub(r"\*{2,}", "*", p) for p in parts[fixed:]]
    dotted = any(p.startswith(".") for p in rest)
    for found in root.glob(str(Path(*rest))):
        if (dotted or not any(p.startswith(".") for p in found.relative_to(root).parts)) and not found.is_dir():
            yield found


def _lines(path: Path, room: int) -> list[Item]:
    """One item per non-blank line of a JSON-lines file (only where lines start is read here, in chunks),
    stopping past ``room`` items.

    What is not a regular file (a FIFO, a device) is never waited on: it is one item, whose reading fails
    (a verdict line); a file that cannot be opened is a ValueError.
    """
    try:
        fd = open_regular(path)
    except NotAFile:
        return [Item(shown_name(str(path)), str(path))]
    except OSError as err:
        raise ValueError(f"cannot read {path}: {why_unread(err)}") from None
    out: list[Item] = []
    name = shown_name(str(path))
    with os.fdopen(fd, "rb") as f:
        offset = start = 0  # where the chunk and the current line start in the file
        number, blank = 1, True
        while len(out) <= room and (chunk := f.read(1 << 20)):
            pos = 0
            while (end := chunk.find(b"\n", pos)) >= 0:
                if not (blank and not chunk[pos:end].strip()):
                    out.append(Item(f"{name}:{number}", str(path), start, offset + end + 1 - start))
                number, blank, start, pos = number + 1, True, offset + end + 1, end + 1
            blank = blank and not chunk[pos:].strip()
            offset += len(chunk)
        if offset > start and not blank:
            out.append(Item(f"{name}:{number}", str(path), start, offset - start))
    return out


def _text(item: Item) -> str:
    """The text of one record (at most one character past the longest record)."""
    if item.length < 0:
        return read_record_file(item.path)
    if item.length > 4 * (MAX_RECORD_CHARS + 1):  # more characters than a record may have, whatever they are
        return " " * (MAX_RECORD_CHARS + 1)
    with os.fdopen(open_regular(item.path), "rb") as f:
        f.seek(item.offset)
        return f.read(item.length).decode("utf-8")


def _check_one(item: Item, interpretations: Mapping[str, str], data: str | None, game: str | ResolvedGame) -> Result:
    try:
        text = _text(item)
    except (OSError, ValueError) as err:
        return Result(item.name, not_a_record("$", f"cannot read: {why_unread(err)}").to_json())
    record, bad = load_record_text(text)
    verdict = bad if bad is not None else validate(record, interpretations, data=data, game_name=game)
    return Result(item.name, verdict.to_json())


def check_chunk(task: tuple[Sequence[Item], Mapping[str, str], str | None, str],
                game: ResolvedGame | None = None) -> list[Result]:
    """Validate a chunk of records (the task a worker runs).

    The task names the game by its registry name (and ``data``, its tables): a resolved game cannot
    cross a process.  A worker resolves it once per process (:func:`rattus_rules.api.resolve_in_process`;
    with other tables, once per chunk); where the chunk runs in the command's process, ``game`` is the game
    the command resolved (with its tables).
    """
    items, interpretations, data, name = task
    played: str | ResolvedGame = name
    if game is not None:
        played, data = game, None
    else:
        try:  # with other tables (data), once per chunk
            played, data = (resolve_in_process(name) if data is None else resolve(name, data)), None
        except Exception:  # rules that do not load: each record's verdict says so (validate never raises)
            played = name
    return [_check_one(item, interpretations, data, played) for item in items]


def validate_archive(sources: Iterable[str], interpretations: Mapping[str, str] | None = None,
                     data: str | None = None, workers: int | None = None,
                     bar: Progress | None = None, game: ResolvedGame | None = None) -> list[Result]:
    """Validate every record of an archive with ``workers`` processes (default: all cores), in order.

    ``bar``, if given, learns how many records there are and counts them as they are done.  ``game``:
    the selected game resolved once by the command, with ``data``'s tables (the chunks validated in
    this process use it; see :func:`check_chunk`).
    """
    items = list_items(sources)
    chosen = dict(interpretations or {})
    # the selected game, named: a worker process need not have selected it
    name = game_name() if game is None else game.name
    tasks = [(items[k:k + CHUNK], chosen, data, name) for k in range(0, len(items), CHUNK)]
    done = None
    if bar is not None:
        bar.set_total(len(items))
        sizes = iter([len(task[0]) for task in tasks])
        done = lambda: bar.update(next(sizes))  # noqa: E731  # results arrive in the order of the tasks
    here = None if game is None else functools.partial(check_chunk, game=game)
    return [r for chunk in run_all(check_chunk, tasks, workers, done=done, here=here) for r in chunk]


def summary(results: Sequence[Result]) -> dict[str, int]:
    """How many records got each verdict."""
    finished = sum(1 for r in results if r.verdict["status"] == LEGAL and r.verdict["finished"])
    counts = {"records": len(results), "legal (finished)": finished,
              "legal so far": sum(1 for r in results if r.verdict["status"] == LEGAL) - finished,
              "illegal": sum(1 for r in results if r.verdict["status"] == ILLEGAL),
              "not a record": sum(1 for r in results if r.verdict["status"] == NOT_A_RECORD)}
    return counts


def summary_table(results: Sequence[Result], workers: int, seconds: float) -> str:
    """The summary as a small text table."""
    counts = summary(results)
    width = max(len(k) for k in counts)
    lines = [f"{'verdict':<{width}}  {'records':>8}"]
    lines += [f"{k:<{width}}  {v:>8}" for k, v in counts.items() if k != "records"]
    lines.append(f"{'total':<{width}}  {counts['records']:>8}")
    rate = f", {len(results) / seconds:.0f} records/s" if seconds > 0 and results else ""
    lines.append(f"({workers} worker{'s' if workers != 1 else ''}, {seconds:.1f} s{rate})")
    return "\n".join(lines)


def is_archive(sources: Sequence[str]) -> bool:
    """Whether the sources are more than one plain record file (or standard input)."""
    if len(sources) != 1:
        return True
    source = sources[0]
    return source != "-" and (os.path.isdir(source) or source.endswith(JSON_LINES)
                              or (not os.path.exists(source) and glob.has_magic(source)))
