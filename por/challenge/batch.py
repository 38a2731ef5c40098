"""Many inclusion proofs from one tree: the O(n + k log n) one-step builder (SPEC §10.2.3).

A one-step proof for a step that cites k of n evidence items holds k
InclusionProofs of the same tree.  :class:`ComponentTree` builds that tree
once (``por.merkle.tree_levels``), checks once that it is the committed one
(root and size, then the component path to ``por_root``), and then reads each
leaf's path in O(log n).  Because every path comes from the committed tree,
no proof needs a separate check (the builder's "never hand out a failing
proof" promise holds by construction; tests check every one anyway).

The proof maps have one fixed shape, so their canonical ``por-cbor/1`` bytes
are assembled from pre-encoded pieces (:func:`_head`, RFC 8949 §4.2.1 shortest
heads, keys in canonical order) instead of encoding a dict per proof; the
tests pin the bytes against ``por.encoding.encode`` of the same map.  The
``challenge_id`` of a proof body is SHA-256 over the body's bytes (§10.3); for
the OneStepProof, whose ``challenge_id`` key sorts last, the final bytes are
the body's entries plus that key, so the whole proof is hashed once and never
encoded twice.

Leaves out: which leaves a step cites (``one_step``) and verification.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Final

from por.bundle.layout import Commitments
from por.challenge.records import KIND_COMPONENT, InclusionProof, LeafKind, OneStepProof
from por.container import POR_BUNDLE, component_path, root_from_component_path
from por.errors import ProofError
from por.merkle import (
    EMPTY_ROOT,
    inclusion_path_from_levels,
    leaf_hashes,
    tree_levels,
)

_INCLUSION: Final = "por.InclusionProof/1"
_ONE_STEP: Final = "por.OneStepProof/1"


def _head(major: int, value: int) -> bytes:
    """The shortest CBOR head of ``major`` type with argument ``value`` (RFC 8949 §3)."""
    top = major << 5
    if value < 24:
        return bytes([top | value])
    for extra, width in ((24, 1), (25, 2), (26, 4)):
        if value < 1 << (8 * width):
            return bytes([top | extra]) + value.to_bytes(width, "big")
    return bytes([top | 27]) + value.to_bytes(8, "big")


def _text(value: str) -> bytes:
    data = value.encode("utf-8")
    return _head(3, len(data)) + data


def _blob(value: bytes) -> bytes:
    return _head(2, len(value)) + value


def _hashes(values: Sequence[bytes]) -> bytes:
    return _head(4, len(values)) + b"".join(b"\x58\x20" + h for h in values)


class ComponentTree:
    """One committed component tree, from which any leaf's InclusionProof is read."""

    def __init__(self, kind: LeafKind, leaves: Sequence[bytes], commitments: Commitments):
        self.kind = kind
        self.leaves = leaves
        component = KIND_COMPONENT[kind]
        root, size = commitments.component(component)
        self.levels = tree_levels(leaf_hashes(leaves))
        calculated = self.levels[-1][0] if leaves else EMPTY_ROOT
        if calculated != root or len(leaves) != size:
            raise ProofError("proof.leaf_path", f"the {component} records do not hash to the "
                             f"committed {component} root and size", committed=root,
                             recomputed=calculated)
        # The outer level of the component proof (SPEC §5.4-§5.5).
        self.component_path = component_path(POR_BUNDLE, commitments, component)
        reached = root_from_component_path(POR_BUNDLE, component, root, size,
                                           self.component_path)
        if reached != commitments.por_root:
            raise ProofError("proof.component_path", f"the {component} component leaf does "
                             "not lead to por_root", committed=commitments.por_root,
                             recomputed=reached)
        self.root, self.size, self.por_root = root, size, commitments.por_root
        # Canonical key order (length, then bytes): kind, leaf, schema, por_root,
        # component, leaf_path, tree_size, leaf_index, challenge_id,
        # component_path, component_root.
        self._kind = _text("kind") + _text(kind)
        self._middle = (_text("schema") + _text(_INCLUSION) + _text("por_root")
                        + _blob(self.por_root) + _text("component") + _text(component))
        self._size = _text("tree_size") + _head(0, size)
        self._tail = (_text("component_path") + _hashes(self.component_path)
                      + _text("component_root") + _blob(root))

    def proof(self, index: int) -> InclusionProof:
        """The InclusionProof of leaf ``index``, its canonical bytes preset."""
        if type(index) is not int or not 0 <= index < len(self.leaves):
            raise ProofError("proof.no_such_leaf", f"no {self.kind} leaf {index!r} among "
                             f"{len(self.leaves)}")
        path = inclusion_path_from_levels(self.levels, index)
        front = (self._kind + _text("leaf") + _blob(bytes(self.leaves[index])) + self._middle
                 + _text("leaf_path") + _hashes(path) + self._size + _text("leaf_index")
                 + _head(0, index))
        cid = hashlib.sha256(_head(5, 10) + front + self._tail).digest()
        data = _head(5, 11) + front + _text("challenge_id") + _blob(cid) + self._tail
        return InclusionProof.assembled(
            data, record_schema=_INCLUSION, challenge_id=cid, kind=self.kind,
            component=KIND_COMPONENT[self.kind], leaf=bytes(self.leaves[index]),
            leaf_index=index, tree_size=self.size, leaf_path=path,
            component_root=self.root, component_path=list(self.component_path),
            por_root=self.por_root)


def one_step_bytes(por_root: bytes, step: bytes, prompt_spec: bytes,
                   evidence: Sequence[bytes], prior: Sequence[bytes]) -> bytes:
    """The canonical bytes of a OneStepProof from its parts' canonical bytes.

    Keys in canonical order: kind, step, schema, evidence, por_root,
    prior_steps, prompt_spec, challenge_id (last, so the body's entries are a
    prefix of the proof's).
    """
    entries = b"".join([
        _text("kind"), _text("reasoning_leaf"), _text("step"), step,
        _text("schema"), _text(_ONE_STEP),
        _text("evidence"), _head(4, len(evidence)), *evidence,
        _text("por_root"), _blob(por_root),
        _text("prior_steps"), _head(4, len(prior)), *prior,
        _text("prompt_spec"), prompt_spec,
    ])
    challenge_id = hashlib.sha256(_head(5, 7) + entries).digest()
    return _head(5, 8) + entries + _text("challenge_id") + _blob(challenge_id)


def one_step_model(data: bytes, step: InclusionProof, prompt_spec: InclusionProof,
                   evidence: list[InclusionProof], prior: list[InclusionProof]) -> OneStepProof:
    """The OneStepProof record for ``one_step_bytes`` output (no re-validation)."""
    fields: dict[str, Any] = {
        "record_schema": _ONE_STEP, "challenge_id": data[-32:], "kind": "reasoning_leaf",
        "por_root": step.por_root, "step": step, "prompt_spec": prompt_spec,
        "evidence": evidence, "prior_steps": prior}
    return OneStepProof.assembled(data, **fields)


__all__ = ["ComponentTree", "one_step_bytes", "one_step_model"]
