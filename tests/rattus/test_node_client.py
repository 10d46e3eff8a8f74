"""The Node.js client of the referee protocol (conformance/clients/referee_client.js), run when node is here."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rattus_rules.tools.records.validate import validate

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "conformance" / "clients" / "referee_client.js"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not on PATH: the Node.js client is not run")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run([NODE, str(CLIENT), "--command", f"{sys.executable} -m rattus_rules serve", *args],
                          capture_output=True, text=True, timeout=600, check=False)


@needs_node
@pytest.mark.parametrize("players", [2, 4])
def test_node_client_plays_checks_and_validates_its_own_records(players: int, tmp_path: Path) -> None:
    done = _run("--games", "1", "--players", str(players), "--seed", str(players), "--record-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr + done.stdout
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == 1 and results[0]["problems"] == [] and results[0]["steps"] > 50
    record = json.loads((tmp_path / f"game-{players}.json").read_text(encoding="utf-8"))
    verdict = validate(record)
    assert verdict.finished and list(verdict.scores) == results[0]["scores"]


@needs_node
def test_node_client_reports_bad_usage() -> None:
    done = _run("--games", "many")
    assert done.returncode == 2 and "whole number" in done.stderr
