"""Run one function over many work items: in this process, on local processes, or on a Dask cluster.

The layer is small on purpose and knows nothing of games.  A caller cuts its
work into items of a fixed size (:func:`partition`), so that the items do not
depend on how many workers there are; :func:`run_all` returns the results in
the order of the items, so merging them in that order gives the same answer
with 1 worker, 16 workers or a cluster.

>>> partition(10, 4, start=100)
[range(100, 104), range(104, 108), range(108, 110)]
>>> run_all(sum, [[1, 2], [3]], workers=1)
[3, 3]
"""

from __future__ import annotations

import importlib
import os
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

#: Seconds to reach a Dask scheduler before giving up (Dask's own default waits 30 s, retrying).
CONNECT_TIMEOUT = 10.0

T = TypeVar("T")
R = TypeVar("R")


def local_cores() -> int:
    """The number of cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def partition(count: int, size: int, start: int = 0) -> list[range]:
    """``count`` consecutive numbers from ``start`` cut into ranges of ``size`` (the last may be shorter)."""
    if size < 1:
        raise ValueError("the partition size must be at least 1")
    return [range(a, min(a + size, start + count)) for a in range(start, start + count, size)]


def run_all(fn: Callable[[T], R], items: Sequence[T], workers: int | None = None,
            dask: str | Any | None = None, done: Callable[[], None] | None = None) -> list[R]:
    """``[fn(item) for item in items]``, computed in parallel, in the order of ``items``.

    ``dask`` is the address of a Dask distributed scheduler (or a
    ``distributed.Client``): the items are sent to its workers, which must be
    able to import ``fn``.  Otherwise ``workers`` local processes (default: all
    cores; never more than the cores available, :func:`local_cores`) compute
    them; with one worker, or one item, they are computed in this process.
    ``done`` is called once per item as its result arrives (in the order of
    the items), for a progress bar.
    """
    tick = done or (lambda: None)
    if dask is not None:
        return _run_on_dask(fn, items, dask, tick)
    count = local_cores() if workers is None else workers
    if count < 1:
        raise ValueError("workers must be at least 1")
    count = min(count, local_cores())
    if count == 1 or len(items) <= 1:
        return [_ticked(fn(item), tick) for item in items]
    with ProcessPoolExecutor(max_workers=min(count, len(items))) as pool:
        return [_ticked(result, tick) for result in pool.map(fn, items)]


def _ticked(result: R, tick: Callable[[], None]) -> R:
    """``result``, after telling ``tick`` that one more item is done."""
    tick()
    return result


def _run_on_dask(fn: Callable[[T], R], items: Sequence[T], dask: str | Any, tick: Callable[[], None]) -> list[R]:
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:  # pragma: no cover - depends on the installed extras
        raise ValueError("a Dask cluster needs the package `distributed` (pip install 'rattus-rules[study]')") from None
    client: Any = dask if isinstance(dask, distributed.Client) else _connect(distributed, dask)
    try:
        futures = client.map(fn, list(items), pure=False)
        return [_ticked(future.result(), tick) for future in futures]
    finally:
        if client is not dask:
            client.close()


def _connect(distributed: Any, address: str) -> Any:
    """A client of the scheduler at ``address``; a TCP address where nothing listens fails at once
    (ConnectionError), not after Dask's retries."""
    try:
        scheme, location = distributed.comm.parse_address(address)
        host, port = distributed.comm.parse_host_port(location) if scheme in ("tcp", "tls") else ("", 0)
    except ValueError as err:
        raise ConnectionError(f"not a Dask scheduler's address ({err})") from None
    if scheme in ("tcp", "tls"):
        try:
            socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
        except OSError as err:
            raise ConnectionError(f"no Dask scheduler answers there ({err.strerror or err})") from None
    return distributed.Client(address, timeout=CONNECT_TIMEOUT)
