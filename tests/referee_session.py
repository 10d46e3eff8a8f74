"""A referee session in tests: serve a game as `rattus --game NAME serve` does, ask it one request."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from interpreter.session import Session
from rattus_rules.games import select
from rattus_rules.tools.kit.referee import referee_session

Reply = dict[str, Any]


@contextlib.contextmanager
def serving(game: str) -> Iterator[Session]:
    """A referee session serving ``game`` (the default game is selected again afterwards)."""
    select(game)
    try:
        yield referee_session()
    finally:
        select(None)


def ask(session: Session, **request: Any) -> Reply:
    """The session's answer to one request (its fields as keywords)."""
    reply: Reply = json.loads(session.answer_line(json.dumps(request)))
    return reply
