"""Judgement bundle commitments (SPEC §14.2.5), built like ``por.Bundle/1``'s.

``judgement_root`` is the RFC 9162 root over five fixed-width component leaves
``root || uint64_be(size)`` in :data:`JUDGEMENT_COMPONENTS` order, so one vote is
a two-level inclusion proof (vote leaf -> votes root -> judgement_root), exactly
as for PoR bundles.  Subjects, calls and votes are trees of their records'
canonical bytes.
"""

from __future__ import annotations

from por.bundle.layout import component_leaf
from por.judges.records import JudgementBundle, JudgementCommitments
from por.merkle import leaf_hash, root_hash

#: Component order in the judgement_root tree.  Never reorder.
JUDGEMENT_COMPONENTS: tuple[str, ...] = ("manifest", "subjects", "calls", "votes", "report")


def component_leaves(c: JudgementCommitments) -> list[bytes]:
    """The five component leaves in :data:`JUDGEMENT_COMPONENTS` order."""
    return [
        component_leaf(c.manifest_hash, 1),
        component_leaf(c.subjects_root, c.subjects_count),
        component_leaf(c.calls_root, c.calls_count),
        component_leaf(c.votes_root, c.votes_count),
        component_leaf(c.report_hash, 1),
    ]


def compute_judgement_commitments(*, manifest: bytes, subjects: list[bytes],
                                  calls: list[bytes], votes: list[bytes],
                                  report: bytes) -> JudgementCommitments:
    """Every commitment from the canonical record bytes."""
    partial = JudgementCommitments.model_construct(
        manifest_hash=leaf_hash(manifest),
        subjects_root=root_hash(subjects), subjects_count=len(subjects),
        calls_root=root_hash(calls), calls_count=len(calls),
        votes_root=root_hash(votes), votes_count=len(votes),
        report_hash=leaf_hash(report), judgement_root=b"",
    )
    root = root_hash(component_leaves(partial))
    return JudgementCommitments.model_validate({**partial.__dict__, "judgement_root": root})


def assemble(*, manifest: bytes, subjects: list[bytes], calls: list[bytes],
             votes: list[bytes], report: bytes) -> bytes:
    """``judgement.cbor`` bytes (no signatures)."""
    commitments = compute_judgement_commitments(
        manifest=manifest, subjects=subjects, calls=calls, votes=votes, report=report)
    return JudgementBundle(manifest=manifest, subjects=subjects, calls=calls, votes=votes,
                           report=report, commitments=commitments, signatures=[]).to_cbor()


__all__ = ["JUDGEMENT_COMPONENTS", "assemble", "component_leaves",
           "compute_judgement_commitments"]
