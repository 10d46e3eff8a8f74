"""Both back ends pass both games' conformance kits: every perft vector, golden playthrough and
recorded game, with the C cases skipping (with the reason) where there is no C back end.

Under each back end, chosen as a user chooses it (``RULES_BACKEND``), the kit
is made again from the spec and must equal the files in ``conformance/`` (perft
counts in both chance modes, golden playthroughs with their legal actions,
recorded games with their verdicts), and the stored files are read back
through the validator: each recorded game gets its expected verdict, each
golden playthrough replays with the same legal actions before every entry.
"""

from __future__ import annotations

import json

import pytest

from rattus_rules.api import load_rules, resolve
from rattus_rules.tools.kit.conformance import _legal_texts, build, differences, kit_root, loads_golden
from rattus_rules.tools.records.validate import validate, walk

from .harness import BACKENDS, running, selected, skip_unless

KITS = ("rattus", "ratten_scharf")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    name = str(request.param)
    skip_unless(name)
    return name


@pytest.mark.parametrize("name", KITS)
def test_the_kit_made_again_is_the_kit(name: str, backend: str) -> None:
    with selected(backend):
        assert running(load_rules(game=name)) == backend
        assert differences(kit_root(name), build(name), name) == []


@pytest.mark.parametrize("name", KITS)
def test_recorded_games_get_their_verdicts(name: str, backend: str) -> None:
    folder = kit_root(name) / "games"
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    assert len(expected) >= 6
    with selected(backend):
        for file, want in expected.items():
            verdict = validate(json.loads((folder / file).read_text(encoding="utf-8")), game_name=name)
            assert verdict.status == want["status"], (name, file)
            if "index" in want:
                assert verdict.index == want["index"], (name, file)
            if "scores" in want:
                assert list(verdict.scores) == want["scores"] and list(verdict.winners) == want["winners"]


@pytest.mark.parametrize("name", KITS)
def test_golden_playthroughs_replay_with_the_same_legal_actions(name: str, backend: str) -> None:
    paths = sorted((kit_root(name) / "golden").glob("*.json"))
    assert len(paths) >= 3
    with selected(backend):
        for path in paths:
            golden = loads_golden(path.read_text(encoding="utf-8"))
            states, verdict = walk(golden["record"], game_name=name)
            assert verdict.finished and list(verdict.scores) == golden["scores"], path.name
            assert [i for i, legal in enumerate(golden["legal"]) if legal is not None] == [i for i, _ in states]
            written = resolve(name).faces.written
            for n, state in states:
                assert _legal_texts(state, written) == golden["legal"][n], (path.name, n)
