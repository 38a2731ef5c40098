"""Judgement bundle commitments (SPEC §15.2.5), built like ``por.Bundle/2``'s.

``judgement_root`` is the RFC 9162 root over five fixed-width component leaves
``root || uint64_be(size)`` in :data:`JUDGEMENT_COMPONENTS` order, so one vote is
a two-level inclusion proof (vote leaf -> votes root -> judgement_root), exactly
as for PoR bundles.  Subjects, calls and votes are trees of their records'
canonical bytes.  Everything derives from the one component spec
(:data:`por.container.JUDGEMENT_BUNDLE`, SPEC §5.5) through :data:`JUDGEMENT`;
the functions here are the family's names for it.
"""

from __future__ import annotations

from por.container import JUDGEMENT_BUNDLE, ComponentProof
from por.container.models import Container
from por.locked_judges.errors import JudgementError
from por.locked_judges.records import JudgementBundle, JudgementCommitments

#: Component order in the judgement_root tree.  Never reorder.
JUDGEMENT_COMPONENTS: tuple[str, ...] = JUDGEMENT_BUNDLE.names

#: The judgement bundle's container (SPEC §5.5, §15.6 steps 1-2).
JUDGEMENT: Container[JudgementBundle, JudgementCommitments] = Container(
    JUDGEMENT_BUNDLE, JudgementBundle, JudgementCommitments, noun="judgement bundle",
    error=JudgementError, mismatch_id="judgement.commit_mismatch")


def component_leaves(c: JudgementCommitments) -> list[bytes]:
    """The five component leaves in :data:`JUDGEMENT_COMPONENTS` order."""
    return JUDGEMENT.component_leaves(c)


def compute_judgement_commitments(*, manifest: bytes, subjects: list[bytes],
                                  calls: list[bytes], votes: list[bytes],
                                  report: bytes) -> JudgementCommitments:
    """Every commitment from the canonical record bytes."""
    return JUDGEMENT.commit({"manifest": manifest, "subjects": subjects, "calls": calls,
                             "votes": votes, "report": report})


def assemble(*, manifest: bytes, subjects: list[bytes], calls: list[bytes],
             votes: list[bytes], report: bytes) -> bytes:
    """``judgement.cbor`` bytes (no signatures)."""
    return JUDGEMENT.assemble({"manifest": manifest, "subjects": subjects, "calls": calls,
                               "votes": votes, "report": report}, signatures=[]).to_cbor()


def component_proof(bundle: JudgementBundle, component: str,
                    position: int) -> tuple[list[bytes], list[bytes]]:
    """Two-level inclusion proof of one record: (path in its component tree, path of
    the component leaf in the judgement_root tree).  A court ruling (issue 15) cites
    a vote as ``("votes", position)`` and anyone rechecks it with
    :func:`root_from_component_proof` against a trusted judgement_root."""
    proof = JUDGEMENT.component_proof(bundle, component, position)
    return proof.inner, proof.outer


def root_from_component_proof(record: bytes, component: str, position: int, size: int, *,
                              inner: list[bytes], outer: list[bytes]) -> bytes:
    """The judgement_root a two-level proof implies for ``record`` (compare it yourself)."""
    return JUDGEMENT.root_from_component_proof(
        record, ComponentProof(component, position, size, inner, outer))


__all__ = ["JUDGEMENT", "JUDGEMENT_COMPONENTS", "assemble", "component_leaves",
           "component_proof", "compute_judgement_commitments", "root_from_component_proof"]
