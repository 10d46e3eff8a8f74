"""Shared fixtures: the loaded Rattus rules and the path of the shared source texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game
from rattus_rules import load_rules

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def rules() -> Game:
    """The compiled Rattus rules with the shipped data."""
    return load_rules()
