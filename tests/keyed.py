"""The legal actions of a spec state in the notation of the hand-written reference models: a piece by its
key (``draw #14``), where the spec's own texts write it by its face, which two pieces may share."""

from __future__ import annotations

from typing import Any


def spec_legal(state: Any) -> list[str]:
    """The legal actions of a spec :class:`interpreter.State` as the models write them, each piece by its key,
    in the spec's order: apply one to the spec by its index."""
    p = state.pending
    if p is None:
        return []
    keyed = [f"#{key}" for key in state.game.piece_keys]
    return [" ".join(p.decision.words(option, keyed)) for option in p.options]
