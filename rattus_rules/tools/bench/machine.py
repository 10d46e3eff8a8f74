"""The machine a benchmark runs on: a line describing it, and pinning the process to one CPU.

Both benchmarks print these (:mod:`rattus_rules.tools.bench.benchmark`, :mod:`rattus_rules.tools.bench.recordbench`);
they live apart so that neither benchmark imports the other to get them.
"""

from __future__ import annotations

import os
import platform


def pin_to_one_core() -> str:
    """Run this process (and its children) on one CPU where the OS allows it."""
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
        return f"pinned to CPU {cpus[-1]}"
    return "not pinned (no CPU affinity on this OS)"


def machine() -> str:
    """A line describing the machine and Python."""
    return (f"{platform.machine()} {platform.system()}, {os.cpu_count()} cores, "
            f"{platform.python_implementation()} {platform.python_version()}")
