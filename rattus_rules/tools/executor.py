"""Run one function over many work items: in this process, on local processes, or on a Dask cluster.

The layer is small on purpose and knows nothing of games.  A caller cuts its
work into items of a fixed size (:func:`partition`), so that the items do not
depend on how many workers there are; :func:`run_all` returns the results in
the order of the items, so merging them in that order gives the same answer
with 1 worker, 16 workers or a cluster.

A Dask cluster is trusted code: Dask moves work and results between the
client and its workers as pickles, so a worker can make the client run any
code when a result is read (and the client sends the workers code to run).
Use only a cluster of your own, over ``tls://`` (:class:`DaskCluster`: its
certificates go to ``distributed.Security``) wherever the network between is
not; :func:`dask_warning` says when an address is neither this machine nor
TLS.  A cluster that fails is a :class:`ClusterError` of one line (Dask's
own log of it is kept quiet).

>>> partition(10, 4, start=100)
[range(100, 104), range(104, 108), range(108, 110)]
>>> run_all(sum, [[1, 2], [3]], workers=1)
[3, 3]
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import attrs

#: Seconds to reach a Dask scheduler before giving up (Dask's own default waits 30 s, retrying).
CONNECT_TIMEOUT = 10.0

T = TypeVar("T")
R = TypeVar("R")


class ClusterError(Exception):
    """The Dask cluster failed while it computed the work items (the message is one line)."""


@attrs.frozen
class DaskCluster:
    """A Dask scheduler's address and, for ``tls://``, the certificate files for ``distributed.Security``:
    the certificate authority (``ca_file``) and this client's certificate and key."""

    address: str
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None

    def __str__(self) -> str:
        return self.address

    @property
    def uses_tls(self) -> bool:
        """Whether certificate files are given."""
        return any((self.ca_file, self.cert_file, self.key_file))

    def security(self, distributed: Any) -> Any:
        """The ``distributed.Security`` of these files (None without any)."""
        if not self.uses_tls:
            return None
        return distributed.Security(tls_ca_file=self.ca_file, tls_client_cert=self.cert_file,
                                    tls_client_key=self.key_file, require_encryption=True)


def dask_warning(address: str) -> str | None:
    """Why a Dask address is risky (None if it is this machine, or TLS): anyone on the network path to a
    plain ``tcp://`` scheduler elsewhere can read and change the pickles sent both ways.

    >>> dask_warning("tcp://127.0.0.1:8786") is None, dask_warning("tls://cluster:8786") is None
    (True, True)
    >>> "neither" in dask_warning("tcp://10.1.2.3:8786")
    True
    """
    scheme, _, rest = address.partition("://")
    if not rest:
        scheme, rest = "tcp", address
    if scheme in ("tls", "inproc"):
        return None
    host = rest.rsplit(":", 1)[0] if not rest.startswith("[") else rest[1:].split("]", 1)[0]
    if host == "localhost":
        return None
    import ipaddress  # here, as the other imports only a cluster needs: `rattus` starts without them

    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        pass
    return (f"{address} is neither this machine nor TLS: anyone on the network path can read and change what "
            "the cluster runs and sends back (a cluster runs code: use tls:// with --dask-ca, --dask-cert "
            "and --dask-key)")


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
            dask: str | DaskCluster | Any | None = None, done: Callable[[], None] | None = None,
            here: Callable[[T], R] | None = None) -> list[R]:
    """``[fn(item) for item in items]``, computed in parallel, in the order of ``items``.

    ``dask`` is the address of a Dask distributed scheduler (a
    :class:`DaskCluster` with its TLS files, or a ``distributed.Client``): the
    items are sent to its workers, which must be able to import ``fn``; a
    failure of the cluster is a :class:`ClusterError`.  Otherwise ``workers`` local processes (default: all
    cores; never more than the cores available, :func:`local_cores`) compute
    them; with one worker, or one item, they are computed in this process.
    ``done`` is called once per item as its result arrives (in the order of
    the items), for a progress bar.  ``here`` computes an item where it is computed in this process
    (default ``fn``): it may hold what cannot be sent to another process (``fn`` and the items must be).
    """
    tick = done or (lambda: None)
    if dask is not None:
        return _run_on_dask(fn, items, dask, tick)
    count = local_cores() if workers is None else workers
    if count < 1:
        raise ValueError("workers must be at least 1")
    count = min(count, local_cores())
    if count == 1 or len(items) <= 1:
        local = fn if here is None else here
        return [_ticked(local(item), tick) for item in items]
    from concurrent.futures import ProcessPoolExecutor  # here: its import (multiprocessing) would slow every start

    with ProcessPoolExecutor(max_workers=min(count, len(items))) as pool:
        return [_ticked(result, tick) for result in pool.map(fn, items)]


def _ticked(result: R, tick: Callable[[], None]) -> R:
    """``result``, after telling ``tick`` that one more item is done."""
    tick()
    return result


@contextlib.contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's loggers silent for the duration: a failure is said once, in one line (:class:`ClusterError`)."""
    import logging

    names = ["distributed", "tornado", "asyncio"]
    names += [n for n in logging.root.manager.loggerDict if n.startswith("distributed.")]
    loggers = [logging.getLogger(n) for n in names]
    before = [lg.disabled for lg in loggers]
    for lg in loggers:
        lg.disabled = True
    try:
        yield
    finally:
        for lg, was in zip(loggers, before):
            lg.disabled = was


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return f"{type(err).__name__}: {text[:300]}" if text else type(err).__name__


def _run_on_dask(fn: Callable[[T], R], items: Sequence[T], dask: str | DaskCluster | Any,
                 tick: Callable[[], None]) -> list[R]:
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:  # pragma: no cover - depends on the installed extras
        raise ValueError("a Dask cluster needs the package `distributed` (pip install 'rattus-rules[study]')") from None
    with _quiet_dask():
        client: Any = dask if isinstance(dask, distributed.Client) else _connect(distributed, dask)
        try:
            futures = client.map(fn, list(items), pure=False)
            return [_ticked(future.result(), tick) for future in futures]
        except Exception as err:  # a worker's error, a lost worker, a result that cannot be read back
            raise ClusterError(f"the Dask cluster at {_address(dask)} failed: {_one_line(err)}") from None
        finally:
            if client is not dask:
                with contextlib.suppress(Exception):
                    client.close()


def _address(dask: Any) -> str:
    return str(dask) if isinstance(dask, str | DaskCluster) else str(getattr(dask, "scheduler", "") or "a client")


def _connect(distributed: Any, target: str | DaskCluster) -> Any:
    """A client of the scheduler at ``target``; a TCP address where nothing listens fails at once
    (ConnectionError), not after Dask's retries."""
    cluster = target if isinstance(target, DaskCluster) else DaskCluster(target)
    address = cluster.address
    try:
        scheme, location = distributed.comm.parse_address(address)
        host, port = distributed.comm.parse_host_port(location) if scheme in ("tcp", "tls") else ("", 0)
    except ValueError as err:
        raise ConnectionError(f"not a Dask scheduler's address ({err})") from None
    if scheme in ("tcp", "tls"):
        import socket

        try:
            socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
        except OSError as err:
            raise ConnectionError(f"no Dask scheduler answers there ({err.strerror or err})") from None
    if cluster.uses_tls and scheme != "tls":
        raise ConnectionError("certificate files are for a tls:// address")
    try:
        security = cluster.security(distributed)
    except (OSError, ValueError, TypeError) as err:
        raise ConnectionError(f"the certificate files cannot be used ({_one_line(err)})") from None
    try:
        return distributed.Client(address, timeout=CONNECT_TIMEOUT, security=security)
    except (OSError, TimeoutError) as err:
        raise ConnectionError(f"the Dask scheduler cannot be reached ({_one_line(err)})") from None
