"""Issue 26 item 3: documents ``por verify`` and ``por check-proof`` did not read.

``por check-proof`` on a non-proof (a bundle, a ruling, an empty file, JSON)
exits 2 with ``proof.not_a_proof`` (before: ``LOST``, exit 1, which a script
reads as "the bundle stands"); ``por verify`` of a JSON file says "this is
JSON; did you mean `por build`?" (exit 2; before: ``codec.truncated``, exit 1);
``por verify`` of a judgement bundle, a court bundle or a proof runs that
document's verifier with its exit code (before: ``schema.unknown_schema``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_signing_support import run

from por.bundle import Bundle
from por.challenge import build_inclusion_proof

ROOT = Path(__file__).resolve().parents[2]
JUDGEMENT = ROOT / "fixtures" / "judges" / "valid" / "por-judge-1.cbor"
BAD_JUDGEMENT = ROOT / "fixtures" / "judges" / "invalid" / "edited-vote.cbor"
RULING = ROOT / "fixtures" / "court" / "valid" / "ruling.cbor"
CASE = ROOT / "fixtures" / "court" / "valid" / "case.cbor"


@pytest.mark.parametrize("content", [b"", b"  \n", b'{"schema": "por.PromptSpec/1"}\n',
                                     b" [1, 2]"])
def test_check_proof_of_nothing_or_json_is_no_verdict(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    path = tmp_path / "input"
    path.write_bytes(content)
    code, out, err = run(capsys, "check-proof", str(path))
    assert (code, out) == (2, "")
    assert err.startswith("por: proof.not_a_proof: ")


@pytest.mark.parametrize("document", ["bundle", "judgement", "ruling"])
def test_check_proof_of_another_record_is_no_verdict(
        capsys: pytest.CaptureFixture[str], valid: str, document: str) -> None:
    path = {"bundle": valid, "judgement": str(JUDGEMENT), "ruling": str(RULING)}[document]
    code, out, err = run(capsys, "check-proof", path)
    assert (code, out) == (2, "")
    assert err.startswith("por: proof.not_a_proof: ")
    assert "check it with `por verify`" in err
    code, out, _ = run(capsys, "check-proof", "--json", path)
    assert (code, json.loads(out)["error"]["id"]) == (2, "proof.not_a_proof")


def test_verify_of_json_suggests_build(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "prompt_spec.json"
    path.write_text('\n  {"schema": "por.PromptSpec/1"}\n')
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 2
    assert out == f"ERROR {path}: input.json: this is JSON; did you mean `por build`?\n"


def test_verify_dispatches_on_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", str(JUDGEMENT), str(RULING), str(CASE))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"OK {JUDGEMENT}: por.JudgementBundle/1: judgement ")
    assert lines[1].startswith(f"OK {RULING}: por.CourtBundle/1: court ")
    assert lines[2].startswith(f"OK {CASE}: por.DisputeCase/1: case ")
    code, out, _ = run(capsys, "verify", str(BAD_JUDGEMENT))
    assert code == 1
    assert out.startswith(f"FAIL {BAD_JUDGEMENT}: judgement.vote_mismatch: ")


def test_verify_of_a_proof_has_check_proofs_exit_code(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], valid: str) -> None:
    proof = tmp_path / "leaf.proof.cbor"
    proof.write_bytes(build_inclusion_proof(Bundle.from_cbor(Path(valid).read_bytes()),
                                            "evidence_leaf", 0).to_cbor())
    expected = run(capsys, "check-proof", str(proof))[0]
    code, out, _ = run(capsys, "verify", "--json", str(proof))
    document = json.loads(out)
    assert code == expected == document["exit_code"]
    [check] = document["results"][0]["checks"]
    assert check["id"] in {"proof.won", "proof.lost"}
    assert check["message"].startswith("por.InclusionProof/1: proof valid: ")
