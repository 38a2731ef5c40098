"""``winning_proof`` (what ``por verify --challenges`` writes) on a lie a FormStepProof
answers: the proof it finds is the FormStepProof of the expected kind, and it is won."""

from __future__ import annotations

from por.bundle.layout import Bundle
from por.challenge import NoProof, winning_proof
from por.challenge.records import FormStepProof
from por.schemas.verification import ChallengeRef


def assert_won_on_forms(lie: Bundle, leaf: int, kind: str,
                        reason: str = "one_step.mismatch") -> None:
    """The winning proof of reasoning leaf ``leaf`` of ``lie`` is a FormStepProof of
    ``kind``, won with ``reason``."""
    found = winning_proof(lie, ChallengeRef(kind="reasoning_leaf", leaf_index=leaf))
    assert not isinstance(found, NoProof), found
    proof, report = found
    assert isinstance(proof, FormStepProof) and proof.kind == kind, proof
    assert report.won and report.outcome is not None
    assert report.outcome.reason == reason, report.outcome.reason
