"""`pip install .` (not editable) works: the wheel carries the spec and its data."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ..conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True, capture_output=True, text=True,
    )
    (found,) = out.glob("rattus_rules-*.whl")
    return found


def test_wheel_contains_spec_data_and_grammar(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    spec = ROOT / "spec" / "rattus"
    for f in spec.rglob("*"):
        if f.is_file():
            assert f"rattus_rules/spec/rattus/{f.relative_to(spec).as_posix()}" in names
    assert "interpreter/grammar.lark" in names
    assert "interpreter/grammar.lalr.json" in names
    assert any(n.endswith("entry_points.txt") for n in names)
    assert {"rattus_rules/py.typed", "interpreter/py.typed"} <= names
    kit = ROOT / "conformance"
    for f in kit.rglob("*"):
        if f.is_file():
            assert f"rattus_rules/kit/{f.relative_to(kit).as_posix()}" in names
    assert {f"rattus_rules/schema/{n}.schema.json" for n in ("protocol", "state", "observation", "golden", "perft",
                                                             "record")} <= names


def test_wheel_metadata_license_and_version(wheel: Path) -> None:
    from rattus_rules import __version__
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    assert wheel.name.startswith(f"rattus_rules-{__version__}-")
    (licence,) = [n for n in names if n.endswith("LICENSE") and ".dist-info/" in n]
    assert archive.read(licence).decode() == (ROOT / "LICENSE").read_text(encoding="utf-8")
    (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    metadata = archive.read(meta).decode()
    assert f"Version: {__version__}" in metadata
    assert "Classifier: License :: OSI Approved :: MIT License" in metadata
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8").splitlines()[0]
    assert "Classifier: Typing :: Typed" in metadata


def test_installed_wheel_runs_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, text=True)
    env = {**os.environ, "PYTHONPATH": str(target)}
    code = ("import rattus_rules, sys; from rattus_rules.paths import spec_dir; "
            "assert str(spec_dir()).startswith(sys.argv[1]), spec_dir(); "
            "from rattus_rules.cli import main; sys.exit(main(['play', '-n', '2', '-s', '1', '-q']))")
    done = subprocess.run([sys.executable, "-c", code, str(target)], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Winner: P" in done.stdout
