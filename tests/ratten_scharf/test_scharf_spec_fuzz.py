"""The Ratten Scharf spec with its numbers and operators changed still only fails with errors of the rules.

As ``tests/rattus/test_spec_fuzz.py`` for Rattus (see :mod:`tests.spec_fuzzing`).
``SPEC_FUZZ_EXAMPLES`` sets the number of examples (default 15).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rattus_rules.paths import spec_dir
from tests.spec_fuzzing import SpecCopy

EXAMPLES = int(os.environ.get("SPEC_FUZZ_EXAMPLES", "15"))


@pytest.fixture(scope="module")
def scharf_copy(tmp_path_factory: pytest.TempPathFactory) -> SpecCopy:
    """A private copy of the Ratten Scharf spec folder to change."""
    return SpecCopy(spec_dir("ratten_scharf"), tmp_path_factory.mktemp("spec") / "ratten_scharf")


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data(), st.integers(0, 2**32))
def test_ratten_scharf_with_values_changed_only_fails_with_spec_or_rule_errors(scharf_copy: SpecCopy,
                                                                               data: st.DataObject,
                                                                               seed: int) -> None:
    scharf_copy.play_with_values_changed(data, seed)
