"""`rattus bench`: random games per second and the cold spec load time."""

from __future__ import annotations

import argparse

from ..tools.bench.benchmark import add_arguments, run


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `bench` subcommand."""
    p = sub.add_parser("bench", help="benchmark: random games per second, cold spec load time")
    add_arguments(p)
    p.set_defaults(run=run)
