"""The Ratten Scharf spec with its numbers and operators changed still only fails with errors of the rules.

See :mod:`tests.spec_fuzzing`: each example changes one to three values of
one spec file (a number to one near the language's bound, an operator to
another of its kind), loads the spec and plays it with random choices,
saving and loading every state.  ``SPEC_FUZZ_EXAMPLES`` sets the number of
examples (default 15).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rattus_rules.paths import spec_dir
from tests.spec_fuzzing import mutate_values, play_randomly

SPEC_FILES = {f.name: f.read_text(encoding="utf-8") for f in sorted(spec_dir("ratten_scharf").glob("*.rules"))}
EXAMPLES = int(os.environ.get("SPEC_FUZZ_EXAMPLES", "15"))


@pytest.fixture(scope="module")
def spec_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the Ratten Scharf spec folder (with its data) to mutate."""
    folder = tmp_path_factory.mktemp("spec") / "ratten_scharf"
    shutil.copytree(spec_dir("ratten_scharf"), folder)
    return folder


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data(), st.integers(0, 2**32))
def test_ratten_scharf_with_values_changed_only_fails_with_spec_or_rule_errors(spec_copy: Path,
                                                                               data: st.DataObject,
                                                                               seed: int) -> None:
    name = data.draw(st.sampled_from(sorted(SPEC_FILES)))
    (spec_copy / name).write_text(mutate_values(SPEC_FILES[name], data), encoding="utf-8")
    try:
        play_randomly(spec_copy, seed, steps=120)
    finally:
        (spec_copy / name).write_text(SPEC_FILES[name], encoding="utf-8")
