"""Issue 26 "Done when": a scripted new-user walk through README's commands.

In an empty temporary directory, as separate processes (``python -m por``, the
program README's ``pip install .`` puts on PATH as ``por``), with the PATH the
tests run with and with node's directory stripped from it: ``por demo``, the
``next:`` command it prints, a byte flipped, a lie challenged and the proof
checked, keygen, sign, verify with the key and with another key.  README's
second command (the tests) must pass whether or not node is there: the tests
that need node or ``npm ci`` skip with the command that enables them.

The figures README and docs/cli.md quote (the demo's counts, example output
lines) are checked against what the commands print.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARKETS = sorted(p.name for p in (ROOT / "fixtures" / "markets").iterdir() if p.is_dir())
#: A lie with consistent commitments: the committed outcome is not what replay gives.
LIE = ROOT / "fixtures" / "bundles" / "invalid" / "replay.verdict_mismatch" / \
    "flipped-outcome-rehashed.cbor"


def _path_without_node() -> str:
    parts = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(p for p in parts
                           if p and not os.path.exists(os.path.join(p, "node"))
                           and not os.path.exists(os.path.join(p, "npm")))


PATHS = {"path-as-is": os.environ.get("PATH", ""), "without-node": _path_without_node()}


class Walk:
    """Runs ``por`` commands as a new user would, in one directory."""

    def __init__(self, directory: Path, path: str) -> None:
        self.directory = directory
        self.env = {"PATH": path, "HOME": str(directory), "PYTHONPATH": str(ROOT),
                    "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}

    def run(self, *argv: str, code: int = 0) -> str:
        result = subprocess.run([sys.executable, "-m", "por", *argv], cwd=self.directory,
                                env=self.env, capture_output=True, text=True, timeout=300,
                                check=False)
        assert result.returncode == code, (argv, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr, result.stderr
        return result.stdout + result.stderr


@pytest.mark.parametrize("path", sorted(PATHS), ids=sorted(PATHS))
def test_readme_walk(path: str, tmp_path: Path) -> None:
    walk = Walk(tmp_path, PATHS[path])
    if path == "without-node":
        assert shutil.which("node", path=walk.env["PATH"]) is None

    # 1. `por demo`: every example market built, verified and as expected.
    shown = walk.run("demo")
    count = len(MARKETS)
    assert f"{count} bundles in por-demo/: {count} verified, {count} matched their " \
           "expected verdict." in shown
    [next_command] = re.findall(r"^next: (.*)$", shown, flags=re.MULTILINE)
    assert next_command == "por verify por-demo/*.cbor"

    # 2. The command demo prints next, its glob expanded as a shell would.
    bundles = sorted(glob.glob(str(tmp_path / "por-demo" / "*.cbor")))
    assert len(bundles) == count
    shown = walk.run("verify", *[os.path.relpath(b, tmp_path) for b in bundles])
    assert shown.count("\nOK ") + shown.startswith("OK ") == count
    assert f"summary: {count} inputs, {count} verified, 0 rejected, 0 no verdict" in shown

    # 3. Flip one byte: rejected, exit 1, one line naming the check.
    flipped = tmp_path / "flipped.cbor"
    data = bytearray((tmp_path / "por-demo" / f"{MARKETS[0]}.cbor").read_bytes())
    data[len(data) // 2] ^= 0x01
    flipped.write_bytes(bytes(data))
    assert walk.run("verify", "flipped.cbor", code=1).startswith("FAIL flipped.cbor: ")

    # 4. A lie is challenged: verify writes the proof the challenger wins;
    #    check-proof says WON (exit 0) against the lie's por_root.
    shutil.copy(LIE, tmp_path / "lie.cbor")
    shown = walk.run("verify", "--challenges", "proofs", "lie.cbor", code=1)
    assert "replay.verdict_mismatch" in shown and "first differing field outcome" in shown
    [proof] = sorted((tmp_path / "proofs").iterdir())
    assert walk.run("check-proof", str(proof)).startswith("WON ")
    #    An honest leaf: the challenger loses (exit 1).
    honest = os.path.relpath(bundles[0], tmp_path)
    walk.run("challenge", honest, "--verdict", "-o", "verdict-proof.cbor")
    assert walk.run("check-proof", "verdict-proof.cbor", code=1).startswith("LOST ")

    # 5. keygen, sign, verify with the key (trusted) and with another key (exit 1).
    walk.run("keygen", "-o", "signer.key")
    walk.run("keygen", "-o", "other.key")
    walk.run("sign", honest, "--key", "signer.key", "-o", "signed.cbor")
    shown = walk.run("verify", "--key", "signer.key.pub", "signed.cbor")
    assert shown.startswith("OK signed.cbor\n") and ", trusted" in shown
    shown = walk.run("verify", "--key", "other.key.pub", "signed.cbor", code=1)
    assert "NOT trusted" in shown
    # Nothing overwritten: signing onto an existing file is refused.
    walk.run("sign", honest, "--key", "signer.key", "-o", "signed.cbor", code=2)

    # 6. README's second command needs no node: node's tests skip with the command.
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
         str(ROOT / "tests" / "chain" / "test_contract_build.py"),
         str(ROOT / "tests" / "xdecoder" / "test_codec_xdecoder_npm.py")],
        cwd=ROOT, env=walk.env, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout[-3000:]
    if path == "without-node":
        assert "enable with `" in result.stdout and " failed" not in result.stdout
