"""Bundle layout, commitments and ``por_root`` (SPEC §5).

``bundle.cbor`` is one por-cbor/1 map (a ``por.Bundle/1`` record).  Records
travel as byte strings holding their canonical encoding, so hashing never
depends on re-encoding.  ``por_root`` is the RFC 9162 root over six fixed-width
*component leaves*, each ``root (32 bytes) || size (8 bytes, big-endian)``, in
the order of :data:`COMPONENTS`.  A contract can check a two-level proof
(record leaf -> component root -> por_root) without parsing CBOR.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import FailFast, Field

from por.lean.bundle import (
    COMPONENTS,
    DEFAULT_BUNDLE_MAX_SIZE,
    component_leaf,
    component_leaves,
)
from por.merkle import leaf_hash, root_hash
from por.schemas.base import Blob, Count, Hash32, Model, Record
from por.schemas.evidence import MAX_EVIDENCE_ITEMS

COMPONENT_INDEX = {name: i for i, name in enumerate(COMPONENTS)}


class Commitments(Model):
    """Every hash and size the bundle commits to (SPEC §5.3)."""

    manifest_hash: Hash32
    prompt_spec_hash: Hash32
    evidence_root: Hash32
    evidence_count: Count
    trace_header_hash: Hash32
    reasoning_root: Hash32
    reasoning_count: Count
    verdict_hash: Hash32
    por_root: Hash32

    def component(self, name: str) -> tuple[bytes, int]:
        """(root, size) of one component."""
        return {
            "manifest": (self.manifest_hash, 1),
            "prompt_spec": (self.prompt_spec_hash, 1),
            "evidence": (self.evidence_root, self.evidence_count),
            "trace_header": (self.trace_header_hash, 1),
            "reasoning": (self.reasoning_root, self.reasoning_count),
            "verdict": (self.verdict_hash, 1),
        }[name]

    def component_leaves(self) -> list[bytes]:
        """The six component leaves, in :data:`COMPONENTS` order."""
        return component_leaves(self)


class Bundle(Record):
    """The whole bundle: records as canonical bytes, commitments, signatures."""

    SCHEMA: ClassVar[str] = "por.Bundle/1"

    record_schema: Literal["por.Bundle/1"] = Field("por.Bundle/1", alias="schema")
    manifest: Blob
    prompt_spec: Blob
    evidence: Annotated[list[Blob], FailFast(), Field(max_length=MAX_EVIDENCE_ITEMS)]
    trace_header: Blob
    steps: Annotated[list[Blob], FailFast()]
    verdict: Blob
    commitments: Commitments
    signatures: Annotated[list[Blob], FailFast()]


def por_root_from_components(leaves: list[bytes]) -> bytes:
    """RFC 9162 root over the component leaves."""
    return root_hash(leaves)


def compute_commitments(
    *,
    manifest: bytes,
    prompt_spec: bytes,
    evidence: list[bytes],
    trace_header: bytes,
    steps: list[bytes],
    verdict: bytes,
) -> Commitments:
    """All commitments from the canonical record bytes (SPEC §5.3)."""
    partial = Commitments.model_construct(
        manifest_hash=leaf_hash(manifest),
        prompt_spec_hash=leaf_hash(prompt_spec),
        evidence_root=root_hash(evidence),
        evidence_count=len(evidence),
        trace_header_hash=leaf_hash(trace_header),
        reasoning_root=root_hash(steps),
        reasoning_count=len(steps),
        verdict_hash=leaf_hash(verdict),
        por_root=b"",
    )
    por_root = por_root_from_components(partial.component_leaves())
    # Validate through the model: a constructed object never skips its invariants.
    return Commitments.model_validate({**partial.__dict__, "por_root": por_root})


__all__ = [
    "COMPONENTS",
    "COMPONENT_INDEX",
    "DEFAULT_BUNDLE_MAX_SIZE",
    "Bundle",
    "Commitments",
    "component_leaf",
    "compute_commitments",
    "por_root_from_components",
]
