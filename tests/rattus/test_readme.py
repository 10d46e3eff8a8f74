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


def test_the_readme_names_the_commands_that_work_with_any_game() -> None:
    from rattus_rules.cli import build_parser, known_commands

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    found = re.search(r"`check`, `play` \(with `--record`\), (.*?) work with any game", readme)
    rattus_only = re.search(r"; (`[a-z]+`(?:, `[a-z]+`)* and `[a-z]+`) are for Rattus only", readme)
    assert found and rattus_only
    named = {"check", "play", *re.findall(r"`([a-z]+)`", found.group(1))}
    assert named == set(known_commands())
    every = {name for action in build_parser()._subparsers._group_actions  # type: ignore[union-attr]
             for name in getattr(action, "choices", {}) or {}}
    assert set(re.findall(r"`([a-z]+)`", rattus_only.group(1))) == every - named
