"""bench/plant.py, the planted bugs: each still applies to the code it was written against, and the tests
named to catch it exist (running them all is `make plant`, minutes; one is run here)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _plant() -> ModuleType:
    spec = importlib.util.spec_from_file_location("plant", ROOT / "bench" / "plant.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["plant"] = module
    spec.loader.exec_module(module)
    return module


def test_every_plant_applies_and_names_tests_that_exist() -> None:
    plant = _plant()
    assert plant.main(["--check"]) == 0
    for p in plant.PLANTS:
        assert p.old != p.new and p.caught_by, p.name
        for wanted in p.caught_by:
            file, _, name = wanted.partition("::")
            assert file in p.tests, (p.name, wanted)
            text = (ROOT / file).read_text(encoding="utf-8")
            assert not name or re.search(rf"def {re.escape(name)}", text), (p.name, wanted)


def test_a_planted_bug_is_caught_in_a_copy_and_the_project_is_left_alone() -> None:
    plant = _plant()
    (index_bug,) = [p for p in plant.PLANTS if p.name == "index-upper-bound"]
    before = (ROOT / index_bug.path).read_text(encoding="utf-8")
    caught, failed, _ = plant.run(plant.Plant(**{**index_bug.__dict__, "tests": index_bug.tests[:1],
                                                 "caught_by": index_bug.caught_by[:1]}))
    assert caught and failed == list(index_bug.caught_by[:1]), failed
    assert (ROOT / index_bug.path).read_text(encoding="utf-8") == before
