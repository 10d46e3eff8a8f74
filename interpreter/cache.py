"""A small on-disk cache for work that only depends on its inputs (like Python's .pyc files).

Parsing the spec files takes most of a cold load, and that work depends only
on the text and the parser, so its result is kept in the user's cache folder,
under a name made from a digest of all the inputs: a changed file simply gets
a new entry.

- The folder is ``$RULES_CACHE_DIR`` if set (an empty value turns the cache
  off), else ``$XDG_CACHE_HOME/rules-language``, else ``~/.cache/rules-language``.
- Entries are strict JSON, never pickles: nothing in an entry runs when it is
  read.  The caller's ``decode`` checks every part of it and raises on anything
  unexpected.
- Entries are read with care, since anyone able to write the folder may have
  put them there: only a regular file (no link, FIFO or device), owned by the
  current user, of at most :data:`MAX_ENTRY_BYTES`, holding the key it is filed
  under.  Anything else (also a missing, damaged or unreadable entry) is
  ignored and made again.
- Entries are written to a private temporary file and renamed, so a reader
  never sees half an entry; a folder that cannot be written (a read-only home)
  only means no caching.  At most :data:`MAX_ENTRIES` of each kind are kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .files import read_bytes

T = TypeVar("T")

#: Environment variable naming the cache folder ("" turns caching off).
CACHE_ENV = "RULES_CACHE_DIR"
CACHE_NAME = "rules-language"
#: At most this many entries of one kind are kept; the oldest go first.
MAX_ENTRIES = 200
#: A larger entry is not read (a spec file of the largest allowed size makes a few MB).
MAX_ENTRY_BYTES = 32_000_000
#: The layout of an entry: ``{"format": FORMAT, "key": key, "value": ...}``.
FORMAT = 1
SUFFIX = ".json"


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


def _read_entry(path: Path, key: str) -> object:
    """The value of a well-formed entry filed under ``key``; raises ValueError otherwise."""
    data = read_bytes(path, MAX_ENTRY_BYTES, owned=True)  # OSError or ValueError if not usable
    entry = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    if not (isinstance(entry, dict) and entry.keys() == {"format", "key", "value"}
            and entry["format"] == FORMAT and entry["key"] == key):
        raise ValueError("not an entry for this key")
    return entry["value"]


def _no_constant(name: str) -> object:
    """JSON has no NaN or Infinity; Python's reader would accept them."""
    raise ValueError(f"not JSON: {name}")


def cached(kind: str, key: str, make: Callable[[], T], encode: Callable[[T], object],
           decode: Callable[[object], T]) -> T:
    """The value stored under ``kind-key``, or ``make()`` (then stored for next time).

    ``encode(value)`` gives plain JSON data; ``decode(data)`` turns it back and
    raises (any exception) on anything it does not expect.
    """
    folder = cache_dir()
    if folder is None:
        return make()
    path = folder / f"{kind}-{key}{SUFFIX}"
    try:
        return decode(_read_entry(path, key))
    except Exception:  # missing, foreign, damaged or hostile: make it again
        pass
    value = make()
    try:
        text = json.dumps({"format": FORMAT, "key": key, "value": encode(value)},
                          ensure_ascii=False, separators=(",", ":"))
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{kind}-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
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
    entries = list(folder.glob(f"{kind}-*{SUFFIX}"))
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda p: p.lstat().st_mtime)
    for old in entries[:len(entries) - MAX_ENTRIES]:
        old.unlink(missing_ok=True)
