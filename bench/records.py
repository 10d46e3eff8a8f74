"""Benchmark: records validated per second (omniscient and players-eye), with the replay yardstick.

Usage: ``python bench/records.py [--seconds S] [--records N] [--game NAME]... [--conformance]``
(or ``make bench-records``): each game of the registry on N seeded random games (default 100), both kinds.
The figures are in ``bench/RESULTS.md``.
"""

from __future__ import annotations

import sys

from rattus_rules.tools.bench.recordbench import main

if __name__ == "__main__":
    sys.exit(main())
