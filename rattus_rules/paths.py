"""Where the Rattus spec lives: inside the installed package, or in a checkout.

Set the environment variable ``RATTUS_SPEC_DIR`` to a folder of ``*.rules``
files (with its ``data/`` tables) to load that spec instead, for example a
patched copy: ``RATTUS_SPEC_DIR=/tmp/myspec rattus check``.  The mutation
script (``bench/mutate.py``) runs the tests against mutated copies this way.
"""

from __future__ import annotations

import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent

#: The environment variable that points the package at another spec folder.
SPEC_DIR_ENV = "RATTUS_SPEC_DIR"


def spec_dir() -> Path:
    """The folder of the Rattus spec files (``$RATTUS_SPEC_DIR``, else ``spec/rattus``)."""
    chosen = os.environ.get(SPEC_DIR_ENV)
    if chosen:
        return Path(chosen)
    packaged = _HERE / "spec" / "rattus"
    if packaged.is_dir():
        return packaged
    return _HERE.parent / "spec" / "rattus"


def project_root() -> Path | None:
    """The source checkout this package runs from, if any."""
    root = _HERE.parent
    return root if (root / "pyproject.toml").is_file() else None
