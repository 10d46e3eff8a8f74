"""Fixtures for the second game written in the rules language: Ratten Scharf (seed 004)."""

from __future__ import annotations

import pytest

from interpreter import Game
from rattus_rules import load_rules


@pytest.fixture(scope="session")
def scharf() -> Game:
    """The compiled Ratten Scharf rules with the shipped (partly reconstructed) data."""
    return load_rules(game="ratten_scharf")
