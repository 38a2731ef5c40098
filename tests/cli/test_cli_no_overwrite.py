"""Issue 26 item 4: no command overwrites or loses work.

An output that exists is refused (``io.exists``, exit 2) unless ``--force``,
and refused before any work (here: before a key, a bundle, a judge config or a
court file is even read, so those may be missing); a replaced judgement never
keeps the old ``judgement.sig.cbor`` beside it.  Before: every command below
silently replaced its output (``judge batch -o FILE`` ran the whole batch and
then failed ``io.write_failed``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_signing_support import run

from por.scenarios import list_scenarios

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = str(sorted((ROOT / "fixtures" / "bundles" / "valid").glob("*.cbor"))[0])
JUDGE = str(ROOT / "fixtures" / "judges" / "por-judge-1.yaml")
CASE = str(ROOT / "fixtures" / "court" / "valid" / "case.cbor")
COURT = str(ROOT / "fixtures" / "court" / "court.yaml")
OLD = b"earlier work"


def _refused(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, ""), err
    assert err.startswith(f"por: io.exists: {path}")
    if path.is_file():
        assert path.read_bytes() == OLD


def _old(path: Path) -> Path:
    path.write_bytes(OLD)
    return path


def test_build_refuses_then_forces(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   valid: str) -> None:
    out = _old(tmp_path / "b.cbor")
    missing = str(tmp_path / "missing.json")
    _refused(capsys, out, "build", "--prompt-spec", missing, "--evidence", missing,
             "-o", str(out))
    _refused(capsys, out, "sign", missing, "--key", missing, "-o", str(out))
    _refused(capsys, out, "challenge", missing, "--verdict", "-o", str(out))
    _refused(capsys, out, "dispute", "open", missing, "--leaf", "verdict", "--claim", "x",
             "-o", str(out))
    _refused(capsys, out, "judge", "sign", missing, "--key", missing, "--at", "1",
             "-o", str(out))
    code, _, err = run(capsys, "challenge", valid, "--verdict", "-o", str(out), "--force")
    assert code == 0, err
    assert out.read_bytes() != OLD


def test_directory_outputs_are_refused_before_any_judge(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    judged = tmp_path / "judged"
    judged.mkdir()
    sig = _old(judged / "judgement.sig.cbor")
    _refused(capsys, sig, "judge", "batch", BUNDLE, "--judge-config",
             str(tmp_path / "missing.yaml"), "-o", str(judged))
    a_file = _old(tmp_path / "file")
    code, _, err = run(capsys, "judge", "batch", BUNDLE, "--judge-config", JUDGE,
                       "-o", str(a_file), "--force")
    assert code == 2 and err.startswith(f"por: io.exists: {a_file}: exists and is not a "
                                        "directory")
    ruled = tmp_path / "ruled"
    ruled.mkdir()
    ruling = _old(ruled / "ruling.cbor")
    _refused(capsys, ruling, "court", "rule", CASE, "--court", str(tmp_path / "no.yaml"),
             "--at", "1", "-o", str(ruled))
    demo = tmp_path / "demo"
    demo.mkdir()
    existing = _old(demo / f"{list_scenarios()[0]}.cbor")
    _refused(capsys, existing, "demo", "--out", str(demo))
    assert sorted(p.name for p in demo.iterdir()) == [existing.name]


def test_forced_batch_removes_the_stale_signature(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    judged = tmp_path / "judged"
    argv = ("judge", "batch", BUNDLE, "--judge-config", JUDGE, "-o", str(judged), "-q")
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    _old(judged / "judgement.sig.cbor")
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.startswith("por: io.exists: ")
    code, out, err = run(capsys, *argv, "--force", "--json")
    assert code == 0, err
    assert json.loads(out)["output"] == str(judged)
    assert not (judged / "judgement.sig.cbor").exists()


def test_judge_lock_and_schema_refuse_then_force(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Before: ``judge lock -o`` and ``schema -o DIR`` replaced what was there."""
    lock = _old(tmp_path / "lock.cbor")
    _refused(capsys, lock, "judge", "lock", str(tmp_path / "missing.yaml"), "-o", str(lock))
    code, _, err = run(capsys, "judge", "lock", JUDGE, "-o", str(lock), "--force")
    assert code == 0, err
    assert lock.read_bytes() != OLD
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    written = _old(schemas / "verify-report.schema.json")
    _refused(capsys, written, "schema", "-o", str(schemas))
    assert sorted(p.name for p in schemas.iterdir()) == ["verify-report.schema.json"]
    _refused(capsys, written, "schema", "verify-report", "-o", str(schemas))
    assert run(capsys, "schema", "PromptSpec", "-o", str(schemas))[0] == 0
    assert run(capsys, "schema", "-o", str(schemas), "--force")[0] == 0
    assert json.loads(written.read_text(encoding="utf-8"))["$id"]
