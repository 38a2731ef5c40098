"""One-step re-execution of the new deduce forms (issue 23, SPEC §12.4.1, §10).

Every step of markets 60-70 recomputes from its citations (the honest steps
are covered for every scenario by ``test_challenge_scenarios``).  Here: a
deduce step forged in each new market (``event_observed`` flipped, and the
map and verdict that follow it, every commitment recomputed) is rejected by
``por verify`` as ``replay.step_mismatch``; its one-step proof is WON; and
``por verify --challenges`` writes that proof.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_challenge_dispute_cli import run
from test_challenge_scenarios import forged_bundle

from por.challenge import OneStepProof, check_proof, proof_for_ref
from verifier import check_bundle

NEW = ["61-range-settle", "62-field-comparison-home-win", "63-arithmetic-total-over",
       "64-text-equals-award", "65-null-means-no", "66-deadline-launch",
       "67-two-of-three-below", "68-precondition-no", "69-declared-404-absent"]


@pytest.mark.parametrize("name", NEW)
def test_forged_deduce_is_caught_and_proved(name: str) -> None:
    bundle, data = forged_bundle(name)
    report = check_bundle(data)
    failure = report.first_failure
    assert failure is not None and failure.challenge is not None
    assert (report.status, failure.check_id) == ("rejected", "replay.step_mismatch")
    proof = proof_for_ref(bundle, failure.challenge)
    assert isinstance(proof, OneStepProof)
    result = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    assert result.outcome is not None
    assert (result.status, result.outcome.outcome, result.outcome.reason) == (
        "valid", "won", "one_step.mismatch")


def test_verify_challenges_writes_a_won_proof(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    _, data = forged_bundle("67-two-of-three-below")
    path = tmp_path / "forged.cbor"
    path.write_bytes(data)
    code, out, err = run(capsys, "verify", str(path))
    assert code == 1 and "replay.step_mismatch" in out + err
    out_dir = tmp_path / "proofs"
    code, _, err = run(capsys, "verify", "--challenges", str(out_dir), str(path))
    assert code == 1
    written = sorted(out_dir.iterdir())
    assert len(written) == 1 and "(challenge won: one_step.mismatch)" in err, err
    code, out, _ = run(capsys, "check-proof", str(written[0]))
    assert code == 0 and out.startswith("WON ")
