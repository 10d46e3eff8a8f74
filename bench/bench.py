"""Benchmark: random games per second for 2, 3 and 4 players, and the cold spec load time.

Usage: ``python bench/bench.py [--seconds S] [--runs N]`` (or ``make bench``, ``rattus bench``).
The figures and their history are in ``bench/RESULTS.md``.
"""

from __future__ import annotations

import sys

from rattus_rules.tools.bench.benchmark import main

if __name__ == "__main__":
    sys.exit(main())
