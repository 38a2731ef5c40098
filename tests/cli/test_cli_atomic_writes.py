"""Issue 26 item 4: outputs are written atomically (a temporary file, then rename).

A write that fails half way (here: the disk is full when the data is flushed)
leaves the earlier output exactly as it was and no temporary file beside it;
the command exits 2 with ``io.write_failed``.  Before (a plain ``open(path,
"wb")``), the earlier file was already truncated when the write failed.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from cli_signing_support import T0, keygen, run

ROOT = Path(__file__).resolve().parents[2]
MARKET = ROOT / "fixtures" / "markets" / "01-boolean-observed"
JUDGEMENT = str(ROOT / "fixtures" / "judges" / "valid" / "por-judge-1.cbor")
OLD = b"an earlier output that must survive\n"


def _disk_full(_fd: int) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("command", ["build", "sign", "judge sign", "dispute open"])
def test_a_failed_write_keeps_the_earlier_output(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, valid: str) -> None:
    keys = tmp_path / "keys"
    keys.mkdir()
    key, _pub = keygen(keys, "k.key", "secp256k1")
    out = tmp_path / "out" / "output"
    out.parent.mkdir()
    out.write_bytes(OLD)
    argv = {
        "build": ["build", "--prompt-spec", str(MARKET / "prompt_spec.json"), "--evidence",
                  str(MARKET / "evidence.json")],
        "sign": ["sign", valid, "--key", key],
        "judge sign": ["judge", "sign", JUDGEMENT, "--key", key, "--at", str(T0)],
        "dispute open": ["dispute", "open", valid, "--leaf", "evidence_leaf:0", "--claim", "x"],
    }[command]
    from por.cli import common

    monkeypatch.setattr(common.os, "fsync", _disk_full)
    code, _out, err = run(capsys, *argv, "-o", str(out), "--force")
    assert code == 2 and err.startswith(f"por: io.write_failed: {out}: "), err
    assert out.read_bytes() == OLD
    assert [p.name for p in out.parent.iterdir()] == ["output"]  # no temporary file left
    monkeypatch.undo()
    code, _out, err = run(capsys, *argv, "-o", str(out), "--force")
    assert code == 0, err
    assert out.read_bytes() != OLD
