"""Runs hostile cases in a process of its own, under a memory limit and a time limit per case.

Usage: ``python tests/rattus/hostile/worker.py CASES.json RESULTS.json`` (what
:mod:`tests.test_hostile_inputs` does).  Each case is a dict:

- ``kind: "cli"``: ``argv`` for :func:`rattus_rules.cli.main`, run in the case's folder;
  the result holds the exit code and what was printed to stderr;
- ``kind: "spec"``: load the spec folder ``spec`` and play a few steps of a game for
  each player count; the result names the exception class that ended it (or none).

Every case first writes its ``files`` (name -> text, or ``{"fifo": true}``,
``{"link": target}``) into a fresh folder.  The address space is limited to
:data:`MEMORY_LIMIT` for the whole process, and each case gets :data:`SECONDS`
(``signal.alarm``); a case that takes longer is reported as ``timeout``.
Before each case the worker names it on stdout, so that if the process dies,
the test knows which case killed it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

MEMORY_LIMIT = 1 << 30
SECONDS = 10


class Timeout(BaseException):
    """A case ran out of time (a BaseException, so that no `except Exception` swallows it)."""


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout()


def write_files(folder: Path, files: dict[str, Any]) -> None:
    """Write a case's files: text, a FIFO or a symbolic link."""
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict) and content.get("fifo"):
            os.mkfifo(path)
        elif isinstance(content, dict) and "link" in content:
            path.symlink_to(content["link"])
        elif isinstance(content, dict) and "bytes" in content:
            path.write_bytes(bytes.fromhex(content["bytes"]))
        else:
            path.write_text(content, encoding="utf-8")


def run_cli(argv: list[str]) -> dict[str, Any]:
    """Run the command line in-process; exit code and stderr."""
    from rattus_rules.cli import main

    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = main(argv)
        except SystemExit as stop:  # main never exits itself; if it does, say so
            code = f"SystemExit({stop.code})"
    return {"code": code, "stderr": err.getvalue()[-2000:], "stdout_chars": len(out.getvalue())}


def run_spec(folder: str, steps: int) -> dict[str, Any]:
    """Load a spec and play a few steps per player count; the class of what stopped it."""
    from interpreter import RulesError, load_spec

    try:
        game = load_spec(folder)
        for players in range(game.min_players, min(game.max_players, 4) + 1):
            try:
                state = game.new_state(players, seed=players)
                for i in range(steps):
                    if state.is_terminal():
                        break
                    state.apply_index((i * 7919) % state.num_legal_actions())
                state.to_json()
            except RulesError as err:
                return {"error": type(err).__name__, "message": str(err)[:2000]}
    except RulesError as err:
        return {"error": type(err).__name__, "message": str(err)[:2000]}
    return {"error": None, "message": ""}


def run_case(case: dict[str, Any], root: Path) -> dict[str, Any]:
    """One case in a fresh folder, under the time limit."""
    folder = Path(tempfile.mkdtemp(dir=root))
    write_files(folder, case.get("files", {}))
    old = os.getcwd()
    os.chdir(folder)
    start = time.monotonic()
    signal.alarm(SECONDS)
    try:
        if case["kind"] == "cli":
            result = run_cli(case["argv"])
        else:
            result = run_spec(str(folder / case["spec"]), case.get("steps", 200))
    except Timeout:
        result = {"timeout": True}
    except BaseException as err:  # what escaped: its traceback is the finding
        result = {"escaped": type(err).__name__, "traceback": traceback.format_exc()[-3000:]}
    finally:
        signal.alarm(0)
        os.chdir(old)
    result["seconds"] = round(time.monotonic() - start, 3)
    result["marker"] = any(p.name.startswith("PWNED") for p in folder.rglob("*"))
    return result


def main(argv: list[str]) -> int:
    """Run every case of a file; write the results as they come."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    signal.signal(signal.SIGALRM, _alarm)
    cases = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as root:
        for case in cases:
            print(case["id"], flush=True)
            results[case["id"]] = run_case(case, Path(root))
            Path(argv[1]).write_text(json.dumps(results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    sys.exit(main(sys.argv[1:]))
