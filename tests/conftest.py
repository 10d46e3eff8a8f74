"""Shared fixtures: the loaded Rattus rules and the path of the shared source texts."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

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
settings.register_profile("dev")
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
SHARED = ROOT.parent / "shared"

# The tests keep the interpreter's cache (parsed spec files) in a
# folder of their own, not in the user's cache folder (see interpreter.cache).
_OWN_CACHE: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _OWN_CACHE
    # The Python back end is the reference: most tests run it (no C build per spec they make);
    # the tests of the C back end ask for it by name (tests/language/test_native.py).
    os.environ.setdefault(BACKEND_ENV, "python")
    if CACHE_ENV not in os.environ:
        _OWN_CACHE = os.environ[CACHE_ENV] = tempfile.mkdtemp(prefix="rules-cache-")


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
