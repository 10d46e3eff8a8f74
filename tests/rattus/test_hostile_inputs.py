"""Hundreds of hostile inputs, each in a process limited to 1 GB and 10 s per case.

The cases (:mod:`tests.rattus.hostile.cases`) are specs, component tables, scenarios,
records, saved states and command-line arguments made to break the program:
too deep, too large, the wrong type, unreadable files (a FIFO, ``/dev/zero``),
code in strings, code that runs away.  The worker (:mod:`tests.rattus.hostile.worker`)
runs them through the command line (or loads and plays a spec) under
``RLIMIT_AS`` and a per-case alarm.  Every case must end with a clean error:
the exit code it names, no traceback, no "internal error", nothing executed
(no ``PWNED`` file), within the time limit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rattus_rules import new_game
from rattus_rules.cli import main as cli_main
from tests.rattus.hostile.cases import KINDS, all_cases
from tests.rattus.hostile.worker import SECONDS

WORKER = Path(__file__).resolve().parent / "hostile" / "worker.py"
ROOT = Path(__file__).resolve().parents[2]


def saved_state() -> dict[str, Any]:
    """A real stored state some way into a 4-player game."""
    state = new_game(4, seed=5)
    for i in range(40):
        if state.is_terminal():
            break
        state.apply_index((i * 31) % state.num_legal_actions())
    return state.to_json()


def a_record(folder: Path) -> dict[str, Any]:
    """A real record of a short random game."""
    path = folder / "record.json"
    assert cli_main(["play", "-q", "--players", "2", "--seed", "3", "--record", str(path)]) == 0
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def run_worker(cases: list[dict[str, Any]], folder: Path) -> dict[str, dict[str, Any]]:
    """Run the cases in worker processes; a case that kills its worker is reported as such."""
    results: dict[str, dict[str, Any]] = {}
    todo = list(cases)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    while todo:
        (folder / "cases.json").write_text(json.dumps(todo), encoding="utf-8")
        out = folder / "results.json"
        out.unlink(missing_ok=True)
        try:
            proc = subprocess.run([sys.executable, str(WORKER), str(folder / "cases.json"), str(out)],
                                  capture_output=True, text=True, env=env,
                                  timeout=60 + (SECONDS + 5) * len(todo))
            started, died = proc.stdout.split(), proc.returncode != 0
            why = f"worker exit {proc.returncode}: {proc.stderr[-1000:]}"
        except subprocess.TimeoutExpired as err:
            started, died, why = (err.stdout or b"").decode().split(), True, "worker timed out"
        done = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
        results.update(done)
        if not died:
            break
        killer = started[-1] if started else todo[0]["id"]
        results[killer] = {"died": why}
        todo = [c for c in todo if c["id"] not in results]
    return results


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every case with its result."""
    folder = tmp_path_factory.mktemp("hostile")
    cases = all_cases(saved_state(), a_record(folder))
    results = run_worker(cases, folder)
    return [(case, results.get(case["id"], {"died": "no result"})) for case in cases]


def problem(case: dict[str, Any], result: dict[str, Any]) -> str | None:
    """What is wrong with a case's result, or None."""
    if "died" in result or "escaped" in result or result.get("timeout"):
        return json.dumps(result)[:3000]
    if result["marker"]:
        return "a payload ran: a PWNED file exists"
    if result["seconds"] > SECONDS:
        return f"took {result['seconds']} s"
    if case["kind"] == "cli":
        text = result["stderr"]
        if "Traceback" in text or "internal error" in text:
            return f"exit {result['code']}: {text[-1500:]}"
        if result["code"] not in case["expect"]:
            return f"exit {result['code']}, expected {case['expect']}: {text[-800:]}"
        if result["code"] != 0 and not text.strip() and not result["stdout_chars"]:
            return "failed without a message"
        return None
    if result["error"] not in case["expect"]:
        return f"ended with {result['error']}, expected {case['expect']}: {result['message'][:800]}"
    return None


@pytest.mark.parametrize("group", sorted(KINDS))
def test_every_hostile_input_ends_with_a_clean_error(
        group: str, outcomes: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    mine = [(c, r) for c, r in outcomes if c["group"] == group]
    assert mine, f"no {group} cases"
    bad = {c["id"]: p for c, r in mine if (p := problem(c, r)) is not None}
    assert not bad, "\n".join(f"{k}: {v}" for k, v in bad.items())


def test_there_are_hundreds_of_hostile_inputs(outcomes: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    assert len(outcomes) >= 300
    assert {c["group"] for c, _ in outcomes} == set(KINDS)
