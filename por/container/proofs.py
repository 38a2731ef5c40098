"""Component proofs: one record -> its component root -> the top root (SPEC §5.5).

The same two levels for every committed bundle family (SPEC §5.4's PoR
bundles, §15.2.5's judgement bundles, §16.5's court bundles): the record's
RFC 9162 inclusion in its component tree gives the component root; the
component leaf ``root || uint64_be(size)`` and its path give the top root.
:func:`root_from_component_proof` computes the root a proof implies and
leaves the comparison to the caller, so a mismatch can carry both roots.

Leaves out: the PoR challenge protocol's proof records (``por.challenge``),
which carry these paths with their own check ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from por.container.spec import BundleSpec, component_leaf
from por.merkle import inclusion_proof, leaf_hash, root_from_inclusion_proof
from por.merkle.tree import inclusion_proof_from_leaf_hashes


@dataclass(frozen=True)
class ComponentProof:
    """Two-level inclusion proof of record ``position`` of component ``component``
    (``size`` records): ``inner`` is its path in the component tree, ``outer``
    the component leaf's path in the top tree."""

    component: str
    position: int
    size: int
    inner: list[bytes]
    outer: list[bytes]


def component_path(spec: BundleSpec, commitments: object, component: str) -> list[bytes]:
    """The outer level: the path of ``component``'s leaf in the top tree."""
    return inclusion_proof(spec.leaves(commitments), spec.index[component])


def root_from_component_path(spec: BundleSpec, component: str, root: bytes, size: int,
                             path: Sequence[bytes]) -> bytes:
    """The top root that the component leaf ``root || uint64_be(size)`` of
    ``component`` and its ``path`` imply (SPEC §5.4)."""
    return root_from_inclusion_proof(leaf_hash(component_leaf(root, size)),
                                     spec.index[component], len(spec.components), path)


def component_proof(spec: BundleSpec, commitments: object, records: Sequence[bytes],
                    component: str, position: int) -> ComponentProof:
    """The proof of ``records[position]`` of ``component``; ``records`` are that
    component's records (one for a single record; for a component of leaf hashes,
    the hashes).  Raises ``MerkleError`` (``merkle.index_range``) for a position
    outside them."""
    hashed = spec.component(component).hashed
    inner = (inclusion_proof_from_leaf_hashes if hashed else inclusion_proof)(records, position)
    outer = component_path(spec, commitments, component)
    return ComponentProof(component, position, len(records), inner, outer)


def root_from_component_proof(spec: BundleSpec, record: bytes, proof: ComponentProof) -> bytes:
    """The top root ``proof`` implies for ``record`` (compare it with a trusted one;
    for a component of leaf hashes, ``record`` is the carried leaf hash)."""
    leaf = record if spec.component(proof.component).hashed else leaf_hash(record)
    component_root = root_from_inclusion_proof(leaf, proof.position, proof.size,
                                               proof.inner)
    return root_from_component_path(spec, proof.component, component_root, proof.size,
                                    proof.outer)


__all__ = ["ComponentProof", "component_path", "component_proof", "root_from_component_path",
           "root_from_component_proof"]
