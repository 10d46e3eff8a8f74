"""Where a game's spec lives: inside the installed package, or in a checkout.

The games themselves are found by :mod:`rattus_rules.games`.  Set the
environment variable ``RATTUS_SPEC_DIR`` to a folder of ``*.rules`` files (with
its ``data/`` tables) to load that folder as Rattus instead, for example a
patched copy: ``RATTUS_SPEC_DIR=/tmp/myspec rattus check``.  The mutation
script (``bench/mutate.py``) runs the tests against mutated copies this way.
"""

from __future__ import annotations

from pathlib import Path

from .games import SPEC_DIR_ENV as SPEC_DIR_ENV
from .games import game_dir

_HERE = Path(__file__).resolve().parent


def spec_dir(game: str | None = None) -> Path:
    """The folder of a game's spec files (default: Rattus, from ``$RATTUS_SPEC_DIR`` or ``spec/rattus``).

    Raises :class:`rattus_rules.games.UnknownGame` (a ValueError) for an unknown game.
    """
    return game_dir(game)


def project_root() -> Path | None:
    """The source checkout this package runs from, if any."""
    root = _HERE.parent
    return root if (root / "pyproject.toml").is_file() else None
