"""The README's examples run (its Python examples are doctests; its scenario is run here)."""

from __future__ import annotations

import re

from ..conftest import ROOT
from .scenario_helpers import assert_ok, run


def test_the_readme_scenario_holds() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(scenario .*?)```", readme, flags=re.S)
    assert len(blocks) == 1
    result = assert_ok(blocks[0], "README.md")
    assert result.state.history == ["place Gallia", "monk Gallia 2 Germania"]
    # A wrong expectation in it would fail.
    assert not run(blocks[0].replace("expect cubes Gallia: P0 3", "expect cubes Gallia: P0 2"), "README.md").ok
