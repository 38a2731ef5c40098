"""``por.cli.entry``: a serial ``por verify`` skips interpreter teardown once its
output is flushed (issue 16); every other run exits normally (atexit runs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

VALID = Path(__file__).resolve().parents[3] / "fixtures" / "bundles" / "valid" / \
    "01-boolean-observed.cbor"

_PROBE = """
import atexit, sys
atexit.register(lambda: sys.stderr.write("ATEXIT\\n"))
sys.argv = ["por", *sys.argv[1:]]
from por.cli import entry
entry()
"""


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_serial_verify_flushes_its_report_and_skips_teardown() -> None:
    done = _run("verify", "--json", str(VALID))
    assert done.returncode == 0
    assert json.loads(done.stdout)["exit_code"] == 0  # the whole document arrived
    assert "ATEXIT" not in done.stderr


def test_rejected_bundle_keeps_its_exit_code(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cbor"
    bad.write_bytes(VALID.read_bytes()[:-1])
    done = _run("verify", str(bad))
    assert done.returncode == 1
    assert done.stdout.startswith("FAIL ")


@pytest.mark.parametrize("args", [("--version",), ("verify", "--jobs", "2", str(VALID)),
                                  ("schema", "--help")])
def test_other_runs_exit_normally(args: tuple[str, ...]) -> None:
    done = _run(*args)
    assert done.returncode == 0
    assert "ATEXIT" in done.stderr
