"""`rattus serve`: the referee protocol, JSON lines over standard input and output (docs/protocol.md)."""

from __future__ import annotations

import argparse
import gc
import sys

from .common import EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `serve` subcommand."""
    p = sub.add_parser("serve", help="referee protocol: JSON requests on stdin, one answer a line on stdout",
                       description="Answer JSON-lines requests (hello, new, legal, apply, chance, state, save, "
                                   "load, validate, explain, ...) until end of input or `quit`; see "
                                   "docs/protocol.md.")
    p.set_defaults(run=run_serve, any_game=True)


def run_serve(args: argparse.Namespace) -> int:
    """Serve until end of input: the selected game, resolved once by the session, when the first request
    needs it (so that rules that do not load are each request's spec-error, not the end of the command)."""
    from ..tools.kit.referee import run

    run(sys.stdin.buffer, sys.stdout.buffer)
    # The session is over and the process about to end: its last garbage collection need not walk the
    # rules and games left (a fifth of the CPU of a short session: the conformance check starts a
    # referee for each vector).  Frozen objects are only never collected, which no longer matters.
    gc.freeze()
    return EXIT_OK
