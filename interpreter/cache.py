"""A small on-disk cache for work that only depends on its inputs (like Python's .pyc files).

Loading a spec cold spends most of its time building the Lark parser.  That
work depends only on the grammar and the library versions, so its result is
kept in the user's cache folder, under a name made from a digest of all the
inputs: a changed grammar simply gets a new entry.

- The folder is ``$RULES_CACHE_DIR`` if set (an empty value turns the cache
  off), else ``$XDG_CACHE_HOME/rules-language``, else ``~/.cache/rules-language``.
- Entries are written to a temporary file and renamed, so a reader never sees
  half an entry; a folder that cannot be written (a read-only home) only means
  no caching.  A damaged or unreadable entry is ignored and made again.
- Entries are pickles: only the user's own cache folder is read, never a
  shared temporary folder.  At most :data:`MAX_ENTRIES` of each kind are kept.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TypeVar

T = TypeVar("T")

#: Environment variable naming the cache folder ("" turns caching off).
CACHE_ENV = "RULES_CACHE_DIR"
CACHE_NAME = "rules-language"
#: At most this many entries of one kind are kept; the oldest go first.
MAX_ENTRIES = 200


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is turned off."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / CACHE_NAME


def digest(*parts: str | bytes) -> str:
    """A short digest of some inputs, with the Python version (entries are version-specific)."""
    h = hashlib.sha256(sys.version.encode())
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:24]


def cached(kind: str, key: str, make: Callable[[], T], save: Callable[[T, BinaryIO], object] | None = None,
           load: Callable[[BinaryIO], T] | None = None) -> T:
    """The value stored under ``kind-key``, or ``make()`` (then stored for next time).

    ``save(value, file)`` and ``load(file)`` default to pickling.
    """
    folder = cache_dir()
    if folder is None:
        return make()
    path = folder / f"{kind}-{key}.pickle"
    try:
        with path.open("rb") as f:
            return load(f) if load is not None else pickle.load(f)
    except Exception:  # missing, unreadable or damaged: make it again
        pass
    value = make()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{kind}-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                if save is not None:
                    save(value, f)
                else:
                    pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        _prune(folder, kind)
    except Exception:  # a folder we cannot write: no caching
        pass
    return value


def _prune(folder: Path, kind: str) -> None:
    """Remove the oldest entries of a kind beyond :data:`MAX_ENTRIES`."""
    entries = list(folder.glob(f"{kind}-*.pickle"))
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[:len(entries) - MAX_ENTRIES]:
        old.unlink(missing_ok=True)
