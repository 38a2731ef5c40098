"""SPEC §10.2.5: a verdict that does not follow from a correct trace is disputable.

Every scenario's honest bundle loses its JudgeProof (``judge.match``); a
bundle whose verdict outcome or confidence is altered, with every commitment
recomputed (so only the judge's replay catches it, ``replay.verdict_mismatch``),
wins it (``judge.mismatch``, with field diffs), and ``verify --challenges``
writes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bundle_edits import honest, recommit

from por.bundle.layout import Bundle
from por.challenge import (
    JudgeProof,
    NoProof,
    build_judge_proof,
    check_proof,
    winning_proof,
)
from por.challenge.records import FormStepProof
from por.cli import main
from por.scenarios import list_scenarios
from por.schemas import ChallengeRef, DeterministicVerdict
from verifier import check_bundle


def with_verdict(bundle: Bundle, **changes: Any) -> Bundle:
    verdict = DeterministicVerdict.from_cbor(bundle.verdict).model_copy(update=changes)
    return recommit(bundle, verdict=verdict.to_cbor())


@pytest.mark.parametrize("name", list_scenarios())
def test_honest_verdicts_lose(name: str) -> None:
    bundle = honest(name)
    report = check_proof(build_judge_proof(bundle).to_cbor(),
                         por_root=bundle.commitments.por_root)
    assert (report.status, report.exit_code) == ("valid", 1), report.message
    assert report.outcome is not None and report.outcome.reason == "judge.match"




@pytest.mark.parametrize(("name", "changes", "field"), [
    ("09-conflict-invalid", {"outcome": "YES", "resolution_rule_id": "R_BINARY_DECISION",
                             "confidence_bps": 7000}, "confidence_bps"),
    ("03-threshold-gt-boundary", {"outcome": "YES"}, "outcome"),
    ("01-boolean-observed", {"confidence_bps": 9999}, "confidence_bps"),
])
def test_a_verdict_that_does_not_follow_wins(name: str, changes: dict[str, Any],
                                             field: str) -> None:
    bundle = with_verdict(honest(name), **changes)
    report = check_bundle(bundle.to_cbor())
    assert report.first_failure is not None
    assert report.first_failure.check_id == "replay.verdict_mismatch"
    result = check_proof(build_judge_proof(bundle).to_cbor(),
                         por_root=bundle.commitments.por_root)
    assert (result.status, result.exit_code) == ("valid", 0), result.message
    assert result.outcome is not None and result.outcome.reason == "judge.mismatch"
    assert field in {d.field for d in result.outcome.differences}
    found = winning_proof(bundle, ChallengeRef(kind="verdict"))
    # Since s40 the judge on forms is the first candidate (SPEC §10.1).
    assert not isinstance(found, NoProof) and isinstance(found[0], FormStepProof)
    assert found[0].kind == "judge" and found[1].outcome is not None
    assert found[1].outcome.reason == "judge.mismatch"


def test_verify_challenges_writes_the_judge_proof(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    bundle = with_verdict(honest("03-threshold-gt-boundary"), outcome="YES")
    path = tmp_path / "b.cbor"
    path.write_bytes(bundle.to_cbor())
    assert main(["verify", "--challenges", str(tmp_path / "p"), str(path)]) == 1
    assert "(challenge won: judge.mismatch)" in capsys.readouterr().err
    [written] = sorted((tmp_path / "p").iterdir())
    assert main(["check-proof", "-v", str(written)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"WON {written}: proof valid: ")
    assert "(judge.mismatch)" in out and written.name.startswith("judge-")
    # The JudgeProof (built directly) shows the field diffs.
    direct = tmp_path / "judge-proof.cbor"
    direct.write_bytes(build_judge_proof(bundle).to_cbor())
    assert main(["check-proof", "-v", str(direct)]) == 0
    assert '  diff outcome: committed "YES", recomputed "NO"' in capsys.readouterr().out


def test_final_step_must_be_the_last_leaf() -> None:
    from por.challenge.records import body_of, seal

    bundle = honest("01-boolean-observed")
    proof = build_judge_proof(bundle)
    body = body_of(proof)
    from por.challenge import build_inclusion_proof

    body["final_step"] = build_inclusion_proof(bundle, "reasoning_leaf", 0).to_dict()
    forged: JudgeProof = seal(JudgeProof, body)
    report = check_proof(forged.to_cbor())
    assert (report.status, report.check_id) == ("invalid", "proof.final_step")


def test_challenge_judge_and_header_from_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = with_verdict(honest("03-threshold-gt-boundary"), outcome="YES")
    path = tmp_path / "b.cbor"
    path.write_bytes(bundle.to_cbor())
    judge, header = tmp_path / "j.cbor", tmp_path / "h.cbor"
    assert main(["challenge", str(path), "--judge", "-o", str(judge)]) == 0
    assert main(["challenge", str(path), "--header", "-o", str(header)]) == 0
    capsys.readouterr()
    assert main(["check-proof", str(judge)]) == 0
    assert "challenge won (judge.mismatch)" in capsys.readouterr().out
    assert main(["check-proof", str(header)]) == 1
    assert "challenge lost (header.match)" in capsys.readouterr().out
