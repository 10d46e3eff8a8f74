"""The hand-written reference model behind its protocol adapter passes the conformance kit.

``tests/rattus/model_engine.py`` is the yardstick of ``make bench-kit`` (``bench/kit.py``): the kit
checked against ``rattus serve`` and against it.  A yardstick that failed vectors would be checked
for less work, so it must pass them all, here with perft to depth 2.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from rattus_rules.tools.kit.kit import check

ENGINE = shlex.join([sys.executable, str(Path(__file__).with_name("model_engine.py"))])


def test_the_model_engine_passes_the_kit() -> None:
    results = list(check(ENGINE, perft_depth=2))
    failed = [r.format() for r in results if not r.passed]
    assert not failed, failed
    checked = [r.name for r in results if not r.skipped]
    assert any(n.startswith("perft/") for n in checked) and any(n.startswith("golden/") for n in checked)
    assert any(n.startswith("games/illegal") for n in checked)

