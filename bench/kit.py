"""Benchmark: the conformance kit checked against ``rattus serve`` and against a hand-written engine, side by side.

Usage: ``python bench/kit.py [--runs N] [--perft-depth D]`` (or ``make bench-kit``).

The same kit (Rattus's, shipped in ``conformance/``) is checked by
:func:`rattus_rules.tools.kit.kit.check` against two engines: the referee, ``rattus serve``, and the
yardstick, the hand-written reference model (``tests/rattus/reference_model.py``, which knows no rules
language) behind a small protocol adapter (``tests/rattus/model_engine.py``).  Each part of the kit
(perft vectors, golden playthroughs, recorded games) is checked with one engine, then with the other,
``--runs`` times.  Times are CPU seconds of this process and of every engine process it started
(``resource.getrusage``: the engines are waited for, so their time is counted), so the load of other
processes on the machine stays out; wall time is printed beside.  Issue 26's target: ``rattus serve``
no slower than the hand-written engine (ratio at most 1.00).  Figures in ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import compileall
import resource
import shlex
import sys
import time
from pathlib import Path

from rattus_rules.tools.kit.kit import check

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("perft/", "golden/", "games/")


def cpu() -> tuple[float, float]:
    """CPU seconds of this process, and of its children waited for (the engines)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def run(command: str, part: str, perft_depth: int | None) -> tuple[float, float, float, int, int]:
    """Check one part of the kit against an engine: CPU seconds of the check and of the engines, wall
    seconds, vectors passed, failed."""
    start, wall = cpu(), time.monotonic()
    passed = failed = 0
    for result in check(command, perft_depth=perft_depth, only=part):
        if result.passed:
            passed += 1
        else:
            failed += 1
            print(f"  {result.format()[:300]}")
    end = cpu()
    return end[0] - start[0], end[1] - start[1], time.monotonic() - wall, passed, failed


def main(argv: list[str] | None = None) -> int:
    """Print CPU seconds per part of the kit for both engines, and their ratio."""
    parser = argparse.ArgumentParser(prog="bench-kit", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="rounds of both engines (default 1)")
    parser.add_argument("--perft-depth", type=int, default=None, help="deepest perft depth checked (default all)")
    parser.add_argument("--serve", default=shlex.join([sys.executable, "-m", "rattus_rules.cli", "serve"]),
                        help="the referee's command (default: rattus serve of this Python)")
    args = parser.parse_args(argv)
    # the bytecode of both engines' Python made first, as an installed package has it (where
    # PYTHONDONTWRITEBYTECODE is set, each engine process would otherwise compile its modules at start)
    for folder in ("interpreter", "rattus_rules", "tests"):
        compileall.compile_dir(ROOT / folder, quiet=1)
    model = shlex.join([sys.executable, str(ROOT / "tests" / "rattus" / "model_engine.py")])
    engines = {"rattus serve": args.serve, "model": model}
    spent = {(name, part): [0.0, 0.0, 0.0] for name in engines for part in PARTS}
    bad = 0
    runs = max(1, args.runs)
    for _ in range(runs):
        for part in PARTS:
            for name, command in engines.items():
                check_cpu, engine_cpu, wall, _, failed = run(command, part, args.perft_depth)
                bad += failed
                for k, v in enumerate((check_cpu, engine_cpu, wall)):
                    spent[name, part][k] += v
    print(f"the conformance kit (conformance/) checked against each engine, {runs} run(s): CPU seconds of the check "
          "(this process) + of its engine processes = all [wall seconds]")
    print(f"{'part':<7} {'rattus serve':>30} {'hand-written model':>30} {'serve/model':>12} {'engines only':>13}")
    totals = {name: [0.0, 0.0, 0.0] for name in engines}

    def cell(figures: list[float]) -> str:
        check_cpu, engine_cpu, wall = figures
        return f"{check_cpu:5.1f} + {engine_cpu:5.1f} = {check_cpu + engine_cpu:5.1f} [{wall:5.1f}]"

    def ratios(a: list[float], b: list[float]) -> str:
        return f"{(a[0] + a[1]) / (b[0] + b[1]):>11.2f}x {a[1] / b[1]:>12.2f}x"

    for part in PARTS:
        for name in engines:
            for k in range(3):
                totals[name][k] += spent[name, part][k]
        print(f"{part.rstrip('/'):<7} {cell(spent['rattus serve', part]):>30} {cell(spent['model', part]):>30} "
              f"{ratios(spent['rattus serve', part], spent['model', part])}")
    print(f"{'all':<7} {cell(totals['rattus serve']):>30} {cell(totals['model']):>30} "
          f"{ratios(totals['rattus serve'], totals['model'])}")
    print("  target (issue 26): rattus serve no slower than the hand-written engine, serve/model at most 1.00x")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
