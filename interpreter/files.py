"""Reading untrusted files: regular files only, and never more than a limit.

A path may name anything: a FIFO (opening it waits for a writer), a device
(``/dev/zero`` never ends), a folder, or a symbolic link to any of them.
:func:`read_text` opens without blocking, refuses what is not a regular file,
checks the size before reading and reads at most one byte beyond the limit,
so a file that grows while it is read is refused too.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: The default limit of :func:`read_text`: larger input files are refused.
MAX_FILE_BYTES = 1_000_000


class FileTooLarge(ValueError):
    """A file over its size limit."""


class NotAFile(ValueError):
    """A path that names something other than a regular file (a FIFO, a device, a folder)."""


def open_regular(path: Path | str, *, owned: bool = False) -> int:
    """A descriptor of a regular file opened for reading, never waiting (a FIFO or a device is refused).

    With ``owned`` the file must also belong to the current user, and a link
    is not followed.  The caller closes it.  Raise :class:`NotAFile` or OSError.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags | (getattr(os, "O_NOFOLLOW", 0) if owned else 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotAFile("not a regular file")
        if owned and hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise NotAFile("not the user's own file")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path: Path | str, limit: int = MAX_FILE_BYTES, *, owned: bool = False) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    With ``owned`` the file must also belong to the current user, and a link
    is not followed (for files anyone else might have put there: the cache).
    Raise :class:`NotAFile` or :class:`FileTooLarge` (both ValueErrors), or OSError.
    """
    fd = open_regular(path, owned=owned)
    try:
        info = os.fstat(fd)
        if info.st_size > limit:
            raise FileTooLarge(f"the file is larger than {limit} bytes")
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise FileTooLarge(f"the file is larger than {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def why_unread(err: OSError | ValueError) -> str:
    """Why a file could not be read, without repeating its name (``No such file or directory``)."""
    return (err.strerror or str(err)) if isinstance(err, OSError) else str(err)


def read_text(path: Path | str, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes, with ``\\n`` line ends
    (as :meth:`pathlib.Path.read_text` gives).

    Raise ValueError (:class:`NotAFile`, :class:`FileTooLarge`, UnicodeDecodeError) or OSError.
    """
    return read_bytes(path, limit).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def inside(path: Path, folder: Path) -> bool:
    """Whether a path, symbolic links resolved, lies in a folder."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError):
        return False
