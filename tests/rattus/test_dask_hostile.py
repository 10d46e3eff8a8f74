"""`--dask` (issue 24, item 11): a cluster is trusted code, and the command line says so; TLS with certificate
files; a warning for an address that is neither this machine nor TLS; a cluster that fails is one line with
exit 3 and no traceback (a worker's result whose unpickling failed gave a `distributed` traceback)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rattus_rules.cli import main
from rattus_rules.tools import executor
from rattus_rules.tools.executor import ClusterError, DaskCluster, dask_warning, run_all
from rattus_rules.tools.study import study

distributed = pytest.importorskip("distributed")
STUDY = ["study", "-n", "2", "--games", "2", "--switch", "tie-break"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A Dask LocalCluster in this process (threads)."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as found:
        yield found


class Poisoned:
    """A result whose unpickling fails (a hostile worker's could run anything instead)."""

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (_refuse, ())


def _refuse() -> None:
    raise RuntimeError("this result may not be read\nsecond line")


def _fails(item: Any) -> Any:
    raise ValueError(f"item {item} broke on the worker\nand said more")


def test_a_cluster_failure_is_one_line_with_exit_3(cluster: Any, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setattr(study, "run_job", _fails)
    assert main([*STUDY, "--dask", cluster.scheduler_address, "-o", str(tmp_path)]) == 3
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith(f"rattus: the Dask cluster at {cluster.scheduler_address} failed: ValueError: item ")
    assert lines[0].endswith(" broke on the worker and said more")


def test_a_result_that_cannot_be_read_back_is_a_cluster_error(cluster: Any) -> None:
    with distributed.Client(cluster.scheduler_address) as client, pytest.raises(ClusterError) as raised:
        run_all(_poisoned_remotely, [1, 2], dask=client)
    assert "failed:" in str(raised.value) and "\n" not in str(raised.value)


def _poisoned_remotely(item: int) -> Any:
    import pickle

    return pickle.loads(pickle.dumps(Poisoned()))   # what the client does with a worker's pickle


@pytest.mark.parametrize(("address", "risky"), [
    ("tcp://127.0.0.1:8786", False), ("127.0.0.1:8786", False), ("tcp://localhost:8786", False),
    ("tcp://[::1]:8786", False), ("tls://10.0.0.5:8786", False), ("inproc://x", False),
    ("tcp://10.0.0.5:8786", True), ("tcp://cluster.example:8786", True), ("tcp://[2001:db8::1]:8786", True),
    ("10.0.0.5:8786", True),
])
def test_an_address_neither_local_nor_tls_is_warned_of(address: str, risky: bool) -> None:
    assert (dask_warning(address) is not None) == risky


def test_the_warning_is_said_by_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # nothing listens on this port of TEST-NET-1 addresses: the warning comes first, then the usage error
    assert main([*STUDY, "--dask", "tcp://192.0.2.1:9", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "rattus: warning: tcp://192.0.2.1:9 is neither this machine nor TLS" in err and "Traceback" not in err


@pytest.mark.parametrize("command", [["study"], ["tournament"], ["strength"]])
def test_the_help_says_a_cluster_is_trusted_code(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "A cluster is trusted code" in text and "--dask-ca FILE" in text and "--dask-key FILE" in text


def test_certificate_files_need_a_tls_address(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([*STUDY, "--dask", "tcp://127.0.0.1:9", "--dask-ca", "ca.pem", "-o", str(tmp_path)]) == 2
    assert "for a tls:// address" in capsys.readouterr().err
    assert main([*STUDY, "--dask-ca", "ca.pem", "-o", str(tmp_path)]) == 2
    assert "go with --dask tls://" in capsys.readouterr().err


def _certificates(folder: Path) -> dict[str, str]:
    """A certificate authority and one certificate it signed (for scheduler, worker and client alike)."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True, timeout=120)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=rattus-test-ca")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "node.key", "-out", "node.csr", "-subj", "/CN=localhost")
    run("x509", "-req", "-in", "node.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
        "node.pem", "-days", "2")
    return {name: str(folder / name) for name in ("ca.pem", "node.pem", "node.key")}


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make certificates")
def test_a_study_runs_over_tls_with_certificate_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = _certificates(tmp_path)
    ca, cert, key = files["ca.pem"], files["node.pem"], files["node.key"]
    security = distributed.Security(tls_ca_file=ca, tls_scheduler_cert=cert, tls_scheduler_key=key,
                                    tls_worker_cert=cert, tls_worker_key=key, tls_client_cert=cert,
                                    tls_client_key=key, require_encryption=True)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None,
                                  host="127.0.0.1", protocol="tls://", security=security) as tls:
        address = tls.scheduler_address
        assert address.startswith("tls://")
        assert run_all(abs, [-1, -2], dask=DaskCluster(address, ca, cert, key)) == [1, 2]
        assert main([*STUDY, "--dask", address, "--dask-ca", ca, "--dask-cert", cert, "--dask-key", key,
                     "-o", str(tmp_path / "out")]) == 0
        assert "warning" not in capsys.readouterr().err
        # without the client's certificate the scheduler refuses: a clear error, no traceback
        code = main([*STUDY, "--dask", address, "-o", str(tmp_path / "out2")])
        err = capsys.readouterr().err
        assert code in (2, 3) and "Traceback" not in err and len(err.strip().splitlines()) <= 2, err
    assert executor.DaskCluster(address, ca).uses_tls
