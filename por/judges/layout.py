"""Judgement bundle commitments (SPEC §15.2.5), built like ``por.Bundle/1``'s.

``judgement_root`` is the RFC 9162 root over five fixed-width component leaves
``root || uint64_be(size)`` in :data:`JUDGEMENT_COMPONENTS` order, so one vote is
a two-level inclusion proof (vote leaf -> votes root -> judgement_root), exactly
as for PoR bundles.  Subjects, calls and votes are trees of their records'
canonical bytes.
"""

from __future__ import annotations

from por.bundle.layout import component_leaf
from por.judges.records import JudgementBundle, JudgementCommitments
from por.merkle import inclusion_proof, leaf_hash, root_from_inclusion_proof, root_hash

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


def component_proof(bundle: JudgementBundle, component: str,
                    position: int) -> tuple[list[bytes], list[bytes]]:
    """Two-level inclusion proof of one record: (path in its component tree, path of
    the component leaf in the judgement_root tree).  A court ruling (issue 15) cites
    a vote as ``("votes", position)`` and anyone rechecks it with
    :func:`root_from_component_proof` against a trusted judgement_root."""
    records: list[bytes] = {"subjects": bundle.subjects, "calls": bundle.calls,
                            "votes": bundle.votes}[component]
    inner = inclusion_proof(records, position)
    outer = inclusion_proof(component_leaves(bundle.commitments),
                            JUDGEMENT_COMPONENTS.index(component))
    return inner, outer


def root_from_component_proof(record: bytes, component: str, position: int, size: int, *,
                              inner: list[bytes], outer: list[bytes]) -> bytes:
    """The judgement_root a two-level proof implies for ``record`` (compare it yourself)."""
    component_root = root_from_inclusion_proof(leaf_hash(record), position, size, inner)
    leaf = component_leaf(component_root, size)
    return root_from_inclusion_proof(leaf_hash(leaf), JUDGEMENT_COMPONENTS.index(component),
                                     len(JUDGEMENT_COMPONENTS), outer)


__all__ = ["JUDGEMENT_COMPONENTS", "assemble", "component_leaves", "component_proof",
           "compute_judgement_commitments", "root_from_component_proof"]
