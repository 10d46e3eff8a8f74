"""Rattus's action texts read back to the same actions (the notation's round trip on the real game)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from interpreter import Game, notation
from rattus_rules import player_label
from rattus_rules.tools.records.validate import seat_label

from ..language.test_notation import ROUND_TRIP, check_round_trip, random_states, spec_verbs, verbs_read_back


@ROUND_TRIP
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(0, 80))
def test_rattus_actions_read_back(rules: Game, players: int, seed: int, steps: int) -> None:
    for state in random_states(rules, players, seed, steps)[-20:]:
        if not state.is_terminal():
            check_round_trip(state)


def test_every_verb_rattus_can_offer_is_written_and_read_back(rules: Game) -> None:
    # the Hypothesis test above never reaches the final round (12 examples of at most 80 steps)
    reached = verbs_read_back(rules)
    assert {"end", "final-reveal", "peasant", "neutral", "no-neutral", "remove", "witch-swap"} <= spec_verbs(rules)
    assert set(reached) == spec_verbs(rules), spec_verbs(rules) - set(reached)


def test_the_package_writes_seats_by_the_notation() -> None:
    assert player_label is seat_label is notation.seat


def test_seat_and_chance_words_are_written_and_read_by_the_notation_only() -> None:
    # one definition: no package module writes a seat as f"P{...}", reads one as by[1:], or spells
    # the chance word itself (protocol command names and JSON keys called "chance" are other words)
    root = Path(__file__).resolve().parents[2]
    writes = re.compile(r"""f["']P\{""")
    reads = re.compile(r"""\[["']by["']\]\[1:\]|int\([^)]*\[1:\]\)""")
    chance_seat = re.compile(r"""(?<!kind )(==|!=|return|else|if)\s*["']chance["']|["']chance["']\s*(==|!=|if\b)""")
    found = []
    for folder in ("interpreter", "rattus_rules"):
        for path in sorted((root / folder).rglob("*.py")):
            if path.name == "notation.py":
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if writes.search(line) or reads.search(line) or chance_seat.search(line):
                    found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
