"""The spec fuzzer's child process: plays specs under the back end its environment chooses.

``python -m tests.backends.fuzz_child`` reads one JSON request a line on its
standard input (``{"folder": ..., "seed": ..., "steps": ..., "settings": [...]}``)
and writes one JSON answer a line: the game's :func:`tests.spec_fuzzing.trace`,
or ``{"crash": ...}`` for an exception that is no error of the rules.  It runs
the C back end away from the test process: a segfault (or any signal) kills
only this process, and :class:`tests.spec_fuzzing.BackendChild` reports it as a
failure of the spec that caused it.  Its address space is bounded (1 GB).
"""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path
from typing import Any

from tests.spec_fuzzing import trace

MEMORY = 1 << 30


def main() -> int:
    """Answer requests until the input ends."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    for line in sys.stdin:
        request = json.loads(line)
        answer: dict[str, Any]
        try:
            answer = {"trace": trace(Path(request["folder"]), request["seed"], request["steps"],
                                     request["settings"], request["backend"])}
        except Exception as err:  # anything but an error of the rules is a failure, reported to the parent
            answer = {"crash": f"{type(err).__name__}: {str(err)[:2000]}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
