"""Issue 26: ``por check-proof`` names its two values for what they are (SPEC §10.6).

Before, ``--json`` carried ``expected``/``actual`` (a level ``calculated_root`` and
``expected_root``), and which side was the proof's value depended on the check.
Now a value the proof commits and its recomputation from the proof's parts are
``committed``/``recomputed``; a rule the proof breaks (a range, a kind, a
schema id, the root ``--por-root`` requires) is ``required``/``found``.  The
same words in ``-v`` text; exactly one pair is set for an invalid proof.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cbor2
import pytest
from cli_signing_support import run

from por.bundle import Bundle
from por.challenge import build_inclusion_proof
from por.encoding import encode

PAIRS = ("committed", "recomputed", "required", "found")


def _proof(valid: str, **changes: Any) -> bytes:
    bundle = Bundle.from_cbor(Path(valid).read_bytes())
    value = cbor2.loads(build_inclusion_proof(bundle, "evidence_leaf", 0).to_cbor())
    value.update(changes)
    return encode(value)


def _check(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> dict[str, Any]:
    code, out, _ = run(capsys, "check-proof", "--json", *options, str(path))
    document: dict[str, Any] = json.loads(out)
    assert code == document["exit_code"]
    assert "expected" not in document and "actual" not in document
    return document


def test_a_wrong_root_is_committed_and_recomputed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], valid: str) -> None:
    honest = Bundle.from_cbor(Path(valid).read_bytes()).commitments.evidence_root
    path = tmp_path / "root.proof.cbor"
    path.write_bytes(_proof(valid, component_root=b"\x11" * 32))
    document = _check(capsys, path)
    assert (document["status"], document["check_id"]) == ("invalid", "proof.leaf_path")
    assert document["committed"] == "11" * 32          # what the proof carries
    assert document["recomputed"] == honest.hex()      # where its leaf path leads
    assert (document["required"], document["found"]) == (None, None)
    [level] = document["inclusions"][0]["levels"]
    assert (level["committed_root"], level["recomputed_root"], level["ok"]) == (
        "11" * 32, honest.hex(), False)
    assert "calculated_root" not in level and "expected_root" not in level
    code, out, _ = run(capsys, "check-proof", "-v", str(path))
    assert code == 1
    assert f"\n  committed  {'11' * 32}\n  recomputed {honest.hex()}\n" in out
    assert f"committed {'11' * 32}  recomputed {honest.hex()}  MISMATCH" in out
    assert "expected" not in out and "calculated" not in out and "actual" not in out


def test_a_broken_rule_is_required_and_found(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], valid: str) -> None:
    path = tmp_path / "leaf.proof.cbor"
    path.write_bytes(_proof(valid))
    document = _check(capsys, path, "--por-root", "00" * 32)
    assert (document["status"], document["check_id"]) == ("invalid", "proof.por_root")
    assert (document["required"], document["committed"], document["recomputed"]) == (
        "00" * 32, None, None)
    assert document["found"] == document["por_root"]
    path.write_bytes(_proof(valid, component="reasoning"))
    document = _check(capsys, path)
    assert (document["check_id"], document["required"], document["found"]) == (
        "proof.component", "evidence", "reasoning")
    assert (document["committed"], document["recomputed"]) == (None, None)
    code, out, _ = run(capsys, "check-proof", "-v", str(path))
    assert code == 1
    assert "\n  required   evidence\n  found      reasoning\n" in out


def test_a_valid_proof_sets_no_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    valid: str) -> None:
    path = tmp_path / "leaf.proof.cbor"
    path.write_bytes(_proof(valid))
    document = _check(capsys, path)
    assert document["status"] == "valid"
    assert [document[name] for name in PAIRS] == [None] * 4
