"""Count how often a command resolves its game: calls of ``load_rules`` and registry look-ups.

A game is resolved once per command (:func:`rattus_rules.api.resolve`): its rules loaded, its name, hooks
and faces looked up.  :func:`counting` wraps :func:`rattus_rules.api.load_rules`, :func:`~rattus_rules.api.resolve`
and the registry's look-ups (:func:`~rattus_rules.games.game_name`, :func:`~rattus_rules.games.hooks`,
:func:`~rattus_rules.games.faces_of`, :func:`~rattus_rules.games.game_dir`) wherever a module of the package
imported them, and counts the calls: those made by the one ``resolve`` apart from the others.
"""

from __future__ import annotations

import functools
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs
import pytest

from rattus_rules import api, games
from rattus_rules.tools.records import validate

#: The registry's look-ups of a game by its name.
LOOKUPS = ("game_name", "hooks", "faces_of", "game_dir")
#: Where the game is chosen (``--game``, a record naming its game): not a resolution.
CHOOSING = ("select", "follow_record", "_select_game")


@attrs.define
class Counts:
    """Calls counted: ``loads`` of ``load_rules``, ``resolves`` of ``resolve`` that resolved (a value
    already resolved passes through uncounted), and the registry look-ups made outside a resolution
    (``lookups``, by function)."""

    loads: int = 0
    resolves: int = 0
    lookups: Counter[str] = attrs.field(factory=Counter)
    _inside: int = 0

    @property
    def looked_up(self) -> int:
        """Registry look-ups outside the resolution."""
        return sum(self.lookups.values())


@contextmanager
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counts]:
    """Count, while the block runs, how often the game is loaded, resolved and looked up by name."""
    counts = Counts()

    def wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def counted(*args: Any, **kwargs: Any) -> Any:
            if name == "load_rules":
                counts.loads += 1
            elif name == "resolve":
                if not isinstance(args[0] if args else kwargs.get("game"), games.ResolvedGame):
                    counts.resolves += 1
            elif name in LOOKUPS and not counts._inside:
                counts.lookups[name] += 1
            counts._inside += name in ("resolve", "load_rules", *CHOOSING)
            try:
                return fn(*args, **kwargs)
            finally:
                counts._inside -= name in ("resolve", "load_rules", *CHOOSING)

        return counted

    for cache in (games._faces_of, validate.record_format):  # looked up anew, and counted
        cache.cache_clear()
    monkeypatch.setattr(api, "_in_process", {}, raising=False)  # the games resolved once per process
    originals = {"load_rules": api.load_rules, "resolve": api.resolve,
                 **{n: getattr(games, n) for n in (*LOOKUPS, "select", "follow_record")}}
    wrapped = {id(fn): wrap(name, fn) for name, fn in originals.items()}
    from rattus_rules import cli
    cli.build_parser()  # every command's module imported, so that its names are wrapped too
    monkeypatch.setattr(cli, "_select_game", wrap("_select_game", cli._select_game))
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("rattus_rules"):
            continue
        for attr, value in list(vars(module).items()):
            if callable(value) and id(value) in wrapped and any(value is fn for fn in originals.values()):
                monkeypatch.setattr(module, attr, wrapped[id(value)])
    yield counts
