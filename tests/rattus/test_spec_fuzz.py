"""The Rattus spec with its numbers and operators changed still only fails with errors of the rules.

See :mod:`tests.spec_fuzzing`: each example changes one to three values of
one spec file (a number to one near the language's bound, an operator to
another of its kind), loads the spec and plays it with random choices,
saving and loading every state.  ``SPEC_FUZZ_EXAMPLES`` sets the number of
examples (default 25).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rattus_rules.paths import spec_dir
from tests.spec_fuzzing import SpecCopy

EXAMPLES = int(os.environ.get("SPEC_FUZZ_EXAMPLES", "25"))


@pytest.fixture(scope="module")
def spec_copy(tmp_path_factory: pytest.TempPathFactory) -> SpecCopy:
    """A private copy of the Rattus spec folder to change."""
    return SpecCopy(spec_dir(), tmp_path_factory.mktemp("spec") / "rattus")


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data(), st.integers(0, 2**32))
def test_rattus_with_values_changed_only_fails_with_spec_or_rule_errors(spec_copy: SpecCopy, data: st.DataObject,
                                                                        seed: int) -> None:
    spec_copy.play_with_values_changed(data, seed)
