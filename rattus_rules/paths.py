"""Where the Rattus spec lives: inside the installed package, or in a checkout."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def spec_dir() -> Path:
    """The folder of the Rattus spec files (``spec/rattus``)."""
    packaged = _HERE / "spec" / "rattus"
    if packaged.is_dir():
        return packaged
    return _HERE.parent / "spec" / "rattus"


def project_root() -> Path | None:
    """The source checkout this package runs from, if any."""
    root = _HERE.parent
    return root if (root / "pyproject.toml").is_file() else None
