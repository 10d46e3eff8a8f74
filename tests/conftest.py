"""Shared fixtures: the loaded Rattus rules and the path of the shared source texts."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis.core
import pytest
from hypothesis import settings

from interpreter import Game, parser
from interpreter.cache import CACHE_ENV
from interpreter.native import BACKEND_ENV
from rattus_rules import load_rules

ROOT = Path(__file__).resolve().parent.parent

# Hypothesis profiles: `dev` (the default) explores new examples on every run and
# remembers failures in .hypothesis/; `ci` (HYPOTHESIS_PROFILE=ci, set by .ci/run)
# draws the same examples every time and keeps no database, so a CI run is
# repeatable; the tests' own @settings fix how many examples each one runs.
# `soak` (`make soak-props`) explores: a random seed for the whole run (printed at
# the start and again after a failure: `--hypothesis-seed=N` replays the run) and
# SOAK_FACTOR (default 10) times each test's own number of examples.
settings.register_profile("dev")
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("soak", derandomize=False, database=None, print_blob=True, deadline=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
settings.load_profile(PROFILE)
SOAK_FACTOR = int(os.environ.get("SOAK_FACTOR", "10"))
_SOAK_SEED: int | None = None
SHARED = ROOT.parent / "shared"

# The tests keep the interpreter's cache (parsed spec files) in a
# folder of their own, not in the user's cache folder (see interpreter.cache).
_OWN_CACHE: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _OWN_CACHE, _SOAK_SEED
    # The Python back end is the reference: most tests run it (no C build per spec they make);
    # the tests of the C back end ask for it by name (tests/language/test_native.py).
    os.environ.setdefault(BACKEND_ENV, "python")
    if CACHE_ENV not in os.environ:
        _OWN_CACHE = os.environ[CACHE_ENV] = tempfile.mkdtemp(prefix="rules-cache-")
    if PROFILE == "soak":
        given_seed = config.getoption("hypothesis_seed", None)
        _SOAK_SEED = int(given_seed) if given_seed is not None else random.SystemRandom().randrange(2**32)
        config.option.hypothesis_seed = str(_SOAK_SEED)
        hypothesis.core.global_force_seed = _SOAK_SEED  # what --hypothesis-seed does (whichever runs first)


def pytest_report_header(config: pytest.Config) -> str | None:
    """Under the soak profile: the seed of the run and how many times the examples."""
    if _SOAK_SEED is None:
        return None
    return f"hypothesis soak: seed {_SOAK_SEED}, {SOAK_FACTOR}x each test's examples"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under the soak profile: SOAK_FACTOR times each Hypothesis test's examples (its own @settings kept)."""
    if PROFILE != "soak":
        return
    scaled: set[int] = set()
    for item in items:
        owner = getattr(item, "cls", None)
        machine_settings = getattr(owner, "settings", None)
        if isinstance(machine_settings, settings):  # a RuleBasedStateMachine's TestCase
            if id(owner) not in scaled:
                scaled.add(id(owner))
                owner.settings = settings(machine_settings,  # type: ignore[union-attr]
                                          max_examples=machine_settings.max_examples * SOAK_FACTOR)
            continue
        test = getattr(item, "obj", None)
        if getattr(test, "is_hypothesis_test", False) and id(test) not in scaled:
            scaled.add(id(test))
            own = test._hypothesis_internal_use_settings  # type: ignore[union-attr]  # what @given runs with
            test._hypothesis_internal_use_settings = settings(  # type: ignore[union-attr]
                own, max_examples=own.max_examples * SOAK_FACTOR)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Under the soak profile, after a failure: how to replay the run."""
    if _SOAK_SEED is not None and exitstatus != 0:
        terminalreporter.write_line(f"hypothesis soak failed with seed {_SOAK_SEED}: replay with "
                                    f"make soak-props SEED={_SOAK_SEED} SOAK_FACTOR={SOAK_FACTOR} "
                                    f"(or pytest --hypothesis-seed={_SOAK_SEED} with HYPOTHESIS_PROFILE=soak)")


def pytest_unconfigure(config: pytest.Config) -> None:
    if _OWN_CACHE is not None:
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)
        os.environ.pop(CACHE_ENV, None)


@pytest.fixture(scope="session")
def rules() -> Game:
    """The compiled Rattus rules with the shipped data."""
    return load_rules()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs built with warnings as errors, as `make docs` builds them (once per run)."""
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html",
                          str(ROOT / "docs"), str(out)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, f"sphinx-build failed:\n{run.stdout}\n{run.stderr}"
    return out


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache folder for one test, and a parser that is not built yet."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    parser._lark.cache_clear()
    yield folder
    parser._lark.cache_clear()
