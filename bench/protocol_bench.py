"""Benchmark: referee protocol requests per second (legal + apply) over a pipe, with the in-process yardstick.

Usage: ``python bench/protocol_bench.py [--games N] [--players P]``.

Random games are played in process first to fix their actions.  Then the same
request lines — ``new`` (chance mode ``seed``), and for each player decision
``legal`` then ``apply`` — are sent to a ``rattus serve`` process through a
pipe, all written ahead by a second thread so that the referee never waits for
the client, and every answer is read back and checked.  The referee process is
pinned to one core (``taskset``, if present).  Rates are counted against the
**CPU time of the referee process** (the machine is shared; CPU time keeps the
other processes' load out), and also against the wall clock.  The yardstick is
the same lines answered in this process by the same session code
(``Session.answer_line``: parse, answer, write JSON), CPU time too; the ratio
shows what the pipe and the process boundary cost.  Results in
``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import threading
import time

from rattus_rules import new_game
from rattus_rules.tools.kit.referee import referee_session

TARGET = 20_000


def request_lines(games: int, players: int) -> tuple[list[bytes], int]:
    """The request lines of ``games`` random games, and how many are legal/apply requests."""
    lines: list[bytes] = []
    counted = 0
    for g in range(games):
        gid = f"b{g}"
        state = new_game(players, seed=g)
        rng = random.Random(g)
        lines.append(json.dumps({"cmd": "new", "game": gid, "players": players, "seed": g,
                                 "chance": "seed"}).encode() + b"\n")
        while not state.is_terminal():
            action = state.legal_action_texts()[rng.randrange(state.num_legal_actions())]
            lines.append(b'{"cmd":"legal","game":"%s"}\n' % gid.encode())
            lines.append(json.dumps({"cmd": "apply", "game": gid, "action": action}).encode() + b"\n")
            counted += 2
            state.apply(action)
            state.advance_chance()
        lines.append(b'{"cmd":"drop","game":"%s"}\n' % gid.encode())
    return lines, counted


def in_process(lines: list[bytes]) -> float:
    """CPU seconds to answer the lines in this process."""
    session = referee_session()
    start = time.process_time()
    for line in lines:
        answer = session.answer_line(line)
        if '"ok":true' not in answer:
            raise SystemExit(f"in process: {answer[:300]}")
    return time.process_time() - start


def over_pipe(lines: list[bytes]) -> tuple[float, float]:
    """(CPU seconds of the referee process, wall seconds) to answer the lines through a pipe."""
    argv = [sys.executable, "-m", "rattus_rules", "serve"]
    if shutil.which("taskset"):
        argv = ["taskset", "-c", "0", *argv]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1 << 20)
    assert proc.stdin is not None and proc.stdout is not None
    # warm up: the spec is loaded before the clock starts
    proc.stdin.write(b'{"cmd":"hello"}\n')
    proc.stdin.flush()
    proc.stdout.readline()
    start_cpu = _cpu_of(proc.pid)
    started = time.perf_counter()

    def write() -> None:
        assert proc.stdin is not None
        proc.stdin.write(b"".join(lines))
        proc.stdin.close()

    writer = threading.Thread(target=write)
    writer.start()
    for _ in lines:
        answer = proc.stdout.readline()
        if b'"ok":true' not in answer:
            raise SystemExit(f"over the pipe: {answer[:300]!r}")
    wall = time.perf_counter() - started
    end_cpu = _cpu_of(proc.pid)
    writer.join()
    proc.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if start_cpu is None or end_cpu is None:  # no /proc: the whole child's CPU time, warm-up included
        return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), wall
    return end_cpu - start_cpu, wall


def _cpu_of(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used so far, from /proc; None without /proc."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def main(argv: list[str] | None = None) -> int:
    """Print requests/s over the pipe and in process, and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="random games to send (default 40)")
    parser.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    args = parser.parse_args(argv)
    lines, counted = request_lines(args.games, args.players)
    yard = in_process(lines)
    cpu, wall = over_pipe(lines)
    print(f"{args.games} games of {args.players} players: {len(lines)} requests, {counted} of them legal/apply")
    verdict = "met" if counted / cpu >= TARGET else "NOT met"
    print(f"over a pipe, referee CPU time: {counted / cpu:10,.0f} legal+apply requests/s "
          f"({len(lines) / cpu:,.0f} requests/s in all)  target >= {TARGET:,}: {verdict}")
    print(f"over a pipe, wall clock:       {counted / wall:10,.0f} legal+apply requests/s")
    print(f"in process (yardstick), CPU:   {counted / yard:10,.0f} legal+apply requests/s")
    print(f"pipe / in process: {yard / cpu:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
