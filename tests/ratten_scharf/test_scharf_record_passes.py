"""Which pass walks a game's records: the listed one, or the lazy one where listing costs more.

The record walk lists each decision as it is reached unless a game's player decisions list many
options on average (:meth:`rattus_rules.tools.records.walk._OptionTexts.prefers_lazy`): then its
records are walked by the lazy pass alone.  Either pass gives the same verdict, which these
tests check on records of Ratten Scharf (many places to lay a strip) with mistakes put in.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from rattus_rules.tools.records import walk
from rattus_rules.tools.records.validate import OMNISCIENT, PLAYERS_EYE, _format, record_game, validate

GAME = "ratten_scharf"


def _mistaken(records: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """Copies of the records with an entry deleted, doubled or swapped with the next, or a seed changed."""
    rng = random.Random(7)
    out = []
    for k in range(count):
        record = copy.deepcopy(records[k % len(records)])
        entries = record["entries"]
        i = rng.randrange(len(entries) - 1)
        how = k % 4
        if how == 0:
            del entries[i]
        elif how == 1:
            entries.insert(i, copy.deepcopy(entries[i]))
        elif how == 2:
            entries[i], entries[i + 1] = entries[i + 1], entries[i]
        else:
            record["seed"] = rng.randrange(100)
        out.append(record)
    return out


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    made = [record_game(2, seed, kind=kind, game_name=GAME) for seed in range(6) for kind in (OMNISCIENT, PLAYERS_EYE)]
    return made + _mistaken(made, 16)


def _texts() -> walk._OptionTexts:
    form = _format(GAME, None)
    return walk._option_texts(form.game, form.faces)


def test_either_pass_gives_the_same_verdicts(records: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _texts()
    verdicts = {}
    for lazy in (False, True):
        monkeypatch.setattr(texts, "prefers_lazy", lambda lazy=lazy: lazy)
        verdicts[lazy] = [validate(r, game_name=GAME).to_json() for r in records]
    assert verdicts[False] == verdicts[True]
    statuses = {v["status"] for v in verdicts[True]}
    assert statuses == {"legal", "illegal"}, statuses


def test_the_lazy_pass_is_chosen_for_a_game_of_many_options(records: list[dict[str, Any]],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _texts()
    monkeypatch.setattr(texts, "sampled", [0, 0])
    passes = []
    made = walk.RecordWalk.__init__

    def noted(self: walk.RecordWalk, *args: Any, **kw: Any) -> None:
        passes.append(kw.get("listed", False))
        made(self, *args, **kw)

    monkeypatch.setattr(walk.RecordWalk, "__init__", noted)
    for record in records[:12]:  # (the records as played: every walk goes to the end)
        assert validate(record, game_name=GAME).ok
    # the first records are walked listed, counting options, until the sample says listing costs more
    assert passes[0] is True and passes[-1] is False and texts.prefers_lazy()
    assert texts.sampled[0] >= walk.LISTING_SAMPLE and texts.sampled[1] > walk.LAZY_ABOVE * texts.sampled[0]
