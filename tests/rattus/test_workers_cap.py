"""`--workers N` is capped at the cores available (issue 24, item 14: `--workers 24` on 2 cores started 24
processes, about 700 MB together)."""

from __future__ import annotations

import concurrent.futures
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from rattus_rules.cli import main
from rattus_rules.tools import executor
from rattus_rules.tools.executor import run_all


def test_run_all_starts_no_more_processes_than_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    class Pool(ProcessPoolExecutor):
        def __init__(self, max_workers: int, **kw: Any) -> None:
            started.append(max_workers)
            super().__init__(max_workers=max_workers, **kw)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)  # the executor imports it when it uses it
    monkeypatch.setattr(executor, "local_cores", lambda: 2)
    assert run_all(abs, list(range(-30, 0)), workers=24) == list(range(30, 0, -1))
    assert started == [2]


@pytest.mark.parametrize("command", [
    ["validate", "conformance/games/legal-2p-omniscient.json", "conformance/games/legal-3p-omniscient.json"],
    ["study", "--players", "2", "--games", "1", "--switch", "tie-break", "--output", "{tmp}/study"],
    ["tournament", "random", "greedy", "--games", "1"],
])
def test_the_command_line_caps_workers_and_says_so(command: list[str], monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    monkeypatch.setattr(executor, "local_cores", lambda: 1)
    assert main([part.replace("{tmp}", str(tmp_path)) for part in command] + ["--workers", "24"]) == 0
    out, err = capsys.readouterr()
    assert "rattus: --workers 24 capped at the 1 core(s) available" in err
    if command[0] == "validate":
        assert "(1 worker," in out


@pytest.mark.parametrize("command", [["validate", "--help"], ["study", "--help"], ["tournament", "--help"],
                                     ["strength", "--help"]])
def test_the_cap_is_said_in_the_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(command) == 0
    assert "a larger N is capped" in " ".join(capsys.readouterr().out.split())
