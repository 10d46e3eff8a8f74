"""Tests of the rules language on toy games (no Rattus)."""
