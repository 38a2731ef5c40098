"""Build and verify inclusion proofs and bundle proofs (SPEC §10.2.1, §10.2.2, §10.4).

An inclusion proof is two RFC 9162 §2.1.3 inclusion paths stacked:

1. record leaf -> component root, in a tree of ``tree_size`` leaves;
2. component leaf ``component_root || uint64_be(tree_size)`` -> ``por_root``,
   at the component's fixed position in the seven-leaf tree (SPEC §5.4).

Binding ``tree_size`` into the component leaf is what stops the RFC's own
size ambiguity (a path for leaf 5 of 8 also verifies as leaf 5 of 7).

Builders take a :class:`~por.bundle.layout.Bundle` (or the leaves and the
commitments) and verify what they built before returning it, so they never
hand out a proof that fails: a bundle whose records do not hash to its own
commitments raises the ``proof.*`` id the check would have raised.

Verifiers compute each level with :func:`por.merkle.inclusion_trace` and
compare in a second step (transparency-dev/merkle style), recording every
computed hash in the caller's :class:`InclusionCheck` before comparing, so a
failing report still shows what was computed.  Leaves out: one-step proofs
(``one_step``) and decoding proof bytes (``records``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from por.bundle.layout import COMPONENT_INDEX, COMPONENTS, Bundle, Commitments
from por.bundle.manifest import JUDGE_VERSION, Manifest, rule_set_hash
from por.challenge.records import (
    KIND_COMPONENT,
    BundleProof,
    InclusionProof,
    LeafKind,
    Proof,
    body_of,
    challenge_id_from_body,
    seal,
)
from por.challenge.report import BundleCheck, Finding, InclusionCheck, LevelTrace
from por.container import POR_BUNDLE, component_leaf, component_path
from por.encoding import decode
from por.errors import MerkleError, PorError, ProofError
from por.merkle import (
    inclusion_path_from_levels,
    inclusion_sides,
    inclusion_trace,
    leaf_hash,
    leaf_hashes,
    root_from_leaf_hashes,
    tree_levels,
)
from por.schemas import DeterministicVerdict, TraceHeader, step_number

#: Components that hold a single record: their tree has size 1.
SINGLE_RECORD = ("manifest", "prompt_spec", "trace_header", "verdict")


# --- building ---------------------------------------------------------------------------


def component_records(bundle: Bundle, kind: LeafKind) -> list[bytes]:
    """The leaves of the tree a ``kind`` leaf lives in (one record for single records)."""
    if kind == "evidence_leaf":
        return list(bundle.evidence)
    if kind == "reasoning_leaf":
        return list(bundle.steps)
    return [bundle.prompt_spec if kind == "prompt_spec" else bundle.verdict]


def inclusion_proof_from_leaves(
    kind: LeafKind,
    leaves: Sequence[bytes],
    leaf_index: int,
    commitments: Commitments,
    *,
    levels: Sequence[Sequence[bytes]] | None = None,
) -> InclusionProof:
    """The InclusionProof of ``leaves[leaf_index]`` against the committed ``por_root``.

    ``leaves`` are the records of the component ``kind`` names; ``levels`` their
    tree (``por.merkle.tree_levels`` of their leaf hashes) when the caller
    builds many proofs from one tree: each path is then O(log n).
    Raises ``ProofError('proof.no_such_leaf')`` for an index outside the
    records, and the failing ``proof.*``/``merkle.*`` id when the records do not
    hash to the commitments.
    """
    if type(leaf_index) is not int or not 0 <= leaf_index < len(leaves):
        raise ProofError("proof.no_such_leaf",
                         f"no {kind} leaf {leaf_index!r} among {len(leaves)}",
                         required=f"0..{len(leaves) - 1}", found=str(leaf_index))
    component = KIND_COMPONENT[kind]
    root, _ = commitments.component(component)
    tree = tree_levels(leaf_hashes(leaves)) if levels is None else levels
    body = {
        "schema": InclusionProof.SCHEMA,
        "kind": kind,
        "component": component,
        "leaf": bytes(leaves[leaf_index]),
        "leaf_index": leaf_index,
        "tree_size": len(leaves),
        "leaf_path": inclusion_path_from_levels(tree, leaf_index),
        "component_root": root,
        "component_path": component_path(POR_BUNDLE, commitments, component),
        "por_root": commitments.por_root,
    }
    proof: InclusionProof = seal(InclusionProof, body)
    verify_inclusion_proof(proof, por_root=commitments.por_root)
    return proof


def build_inclusion_proof(bundle: Bundle, kind: LeafKind, leaf_index: int = 0) -> InclusionProof:
    """The InclusionProof of one leaf of ``bundle`` (index 0 for single records)."""
    return inclusion_proof_from_leaves(kind, component_records(bundle, kind), leaf_index,
                                       bundle.commitments)


def build_bundle_proof(bundle: Bundle) -> BundleProof:
    """The BundleProof of ``bundle``: its committed component leaves and top records."""
    commitments = bundle.commitments
    body = {
        "schema": BundleProof.SCHEMA,
        "kind": "por_bundle",
        "component_leaves": commitments.component_leaves(),
        "manifest": bytes(bundle.manifest),
        "trace_header": bytes(bundle.trace_header),
        "verdict": bytes(bundle.verdict),
        "por_root": commitments.por_root,
    }
    proof: BundleProof = seal(BundleProof, body)
    verify_bundle_proof(proof, por_root=commitments.por_root)
    return proof


def leaf_index_by_id(bundle: Bundle, kind: LeafKind, record_id: str) -> int:
    """Position of the first evidence item / step whose id is ``record_id``.

    Leaves that do not decode are skipped (they have no id).  Raises
    ``ProofError('proof.no_such_leaf')`` when no leaf carries the id.
    """
    key = {"evidence_leaf": "evidence_id", "reasoning_leaf": "step_id"}.get(kind)
    if key is None:
        raise ProofError("proof.no_such_leaf", f"{kind} leaves have no id")
    leaves = component_records(bundle, kind)
    guess = step_number(record_id) if kind == "reasoning_leaf" else None
    order = list(range(len(leaves)))
    if guess is not None and 0 < guess <= len(leaves):
        order.insert(0, guess - 1)  # step_000n is leaf n - 1 in a valid trace
    known: list[str] = []
    for index in order:
        try:
            value = decode(leaves[index])
        except PorError:
            continue
        found = value.get(key) if isinstance(value, dict) else None
        if found == record_id:
            return index
        if isinstance(found, str) and len(known) < 11 and found not in known:
            known.append(found)
    listed = ", ".join(repr(k[:40]) for k in known[:10])
    more = f", ... ({len(leaves)} leaves)" if len(known) > 10 else ""
    raise ProofError("proof.no_such_leaf", f"no {kind} leaf has {key} {record_id[:80]!r}; "
                     f"valid ids: {listed or '(none)'}{more}")


# --- verifying --------------------------------------------------------------------------


def verify_inclusion_proof(
    proof: InclusionProof,
    *,
    por_root: bytes | None = None,
    check: InclusionCheck | None = None,
) -> InclusionCheck:
    """Verify both levels of ``proof`` (SPEC §10.4.1); raise on the first failure.

    ``por_root``: the trusted root (from a signature or a chain); without it
    the proof's own ``por_root`` field is what the path must reach.  Levels are
    appended to ``check`` as they are computed.
    """
    result = check if check is not None else InclusionCheck(role="leaf", proof=proof)
    where = result.role
    # 1. The component is the one the kind names (SPEC §10.2.1 table).
    component = KIND_COMPONENT[proof.kind]
    if proof.component != component:
        raise ProofError("proof.component", f"{where}: a {proof.kind} leaf lives in "
                         f"component {component!r}", required=component,
                         found=proof.component[:80])
    # 2. The proof is about the trusted bundle.
    if por_root is not None and proof.por_root != por_root:
        raise ProofError("proof.por_root", f"{where}: the proof is for another por_root",
                         required=por_root, found=proof.por_root)
    # 3. Level 1: record leaf -> component root (RFC 9162 §2.1.3.2).
    level = level_trace(where, "leaf", proof.leaf, proof.leaf_index, proof.tree_size,
                   proof.leaf_path, proof.component_root)
    result.levels.append(level)
    if not level.ok:
        raise ProofError("proof.leaf_path", f"{where}: the leaf path does not lead to the "
                         f"{component} root", committed=level.expected_root,
                         recomputed=level.calculated_root)
    # 4. Level 2: component leaf (root || uint64_be(size)) -> por_root (SPEC §5.4).
    level = level_trace(where, "component", component_leaf(proof.component_root, proof.tree_size),
                   COMPONENT_INDEX[component], len(COMPONENTS), proof.component_path,
                   proof.por_root)
    result.levels.append(level)
    if not level.ok:
        raise ProofError("proof.component_path", f"{where}: the {component} component "
                         "leaf does not lead to por_root", committed=level.expected_root,
                         recomputed=level.calculated_root)
    # 5. The id names exactly this proof (SPEC §10.3).
    verify_challenge_id(proof, where)
    return result


def require_por_root(proof_root: bytes, por_root: bytes | None) -> None:
    """The proof is about the trusted bundle, when one is given (``proof.por_root``)."""
    if por_root is not None and proof_root != por_root:
        raise ProofError("proof.por_root", "the proof is for another por_root",
                         required=por_root, found=proof_root)


def verify_parts(parts: Iterable[tuple[str, InclusionProof, str]], por_root: bytes,
                 sink: list[InclusionCheck]) -> None:
    """Each ``(role, part, kind)`` of a composite proof is an inclusion proof of
    ``kind`` under ``por_root`` (SPEC §10.4.1); checks are appended to ``sink``."""
    for role, part, kind in parts:
        if part.kind != kind:
            raise ProofError("proof.kind", f"{role} must be a {kind} proof", required=kind,
                             found=part.kind)
        check = InclusionCheck(role=role, proof=part)
        sink.append(check)
        verify_inclusion_proof(part, por_root=por_root, check=check)


def verify_bundle_proof(
    proof: BundleProof,
    *,
    por_root: bytes | None = None,
    check: BundleCheck | None = None,
) -> BundleCheck:
    """Verify a BundleProof (SPEC §10.4.2); raise on the first failure.

    A verified proof may still carry findings: faults among the committed
    components and records that the proof exhibits (:func:`bundle_findings`).
    """
    result = check if check is not None else BundleCheck(tuple(proof.component_leaves))
    # 1. The proof is about the trusted bundle.
    require_por_root(proof.por_root, por_root)
    # 2. The seven component leaves are the leaves of por_root (RFC 9162 §2.1.1).
    result.leaf_hashes = tuple(leaf_hashes(proof.component_leaves))
    result.calculated_root = root_from_leaf_hashes(result.leaf_hashes)
    if result.calculated_root != proof.por_root:
        raise ProofError("proof.component_leaves", "the component leaves do not hash to "
                         "por_root", committed=proof.por_root,
                         recomputed=result.calculated_root)
    # 3. Each carried record is its component's root (a single-record tree).
    for name in ("manifest", "trace_header", "verdict"):
        want = proof.component_leaves[COMPONENT_INDEX[name]][:32]
        got = leaf_hash(getattr(proof, name))
        if got != want:
            raise ProofError("proof.record_hash", f"the {name} record is not the committed "
                             f"{name}", committed=want, recomputed=got)
    # 4. The id names exactly this proof.
    verify_challenge_id(proof, "bundle")
    result.findings = bundle_findings(proof)
    return result


def verify_challenge_id(proof: Proof, where: str) -> None:
    """Raise ``proof.challenge_id`` unless the id is SHA-256 of the body (SPEC §10.3)."""
    want = challenge_id_from_body(body_of(proof))
    if proof.challenge_id != want:
        raise ProofError("proof.challenge_id", f"{where}: challenge_id is not the hash of "
                         "the proof body", committed=proof.challenge_id, recomputed=want)


def bundle_findings(proof: BundleProof) -> list[Finding]:
    """Faults a (verified) BundleProof exhibits, in a fixed order (SPEC §10.4.2)."""
    sizes = {name: int.from_bytes(leaf[32:], "big")
             for name, leaf in zip(COMPONENTS, proof.component_leaves, strict=True)}
    roots = {name: leaf[:32] for name, leaf in zip(COMPONENTS, proof.component_leaves,
                                                   strict=True)}
    findings = [Finding("bundle.component_size", f"{name} commits size {sizes[name]}; a "
                        "single record has size 1")
                for name in SINGLE_RECORD if sizes[name] != 1]
    parsed = {}
    for name, cls in (("manifest", Manifest), ("trace_header", TraceHeader),
                      ("verdict", DeterministicVerdict)):
        try:
            parsed[name] = cls.from_cbor(getattr(proof, name))
        except PorError as exc:
            findings.append(Finding(exc.check_id, f"{name}: {exc.message}"))
    manifest = parsed.get("manifest")
    if isinstance(manifest, Manifest) and manifest.judge_version == JUDGE_VERSION \
            and manifest.rule_set_hash != rule_set_hash(JUDGE_VERSION):
        findings.append(Finding("manifest.rule_set_hash",
                                f"rule set hash differs for {JUDGE_VERSION}"))
    header, verdict = parsed.get("trace_header"), parsed.get("verdict")
    if isinstance(header, TraceHeader) and header.step_count != sizes["reasoning"]:
        findings.append(Finding("bundle.step_count", f"trace header says {header.step_count}"
                                f" steps, the reasoning tree has {sizes['reasoning']}"))
    if isinstance(verdict, DeterministicVerdict):
        if verdict.outcome != "INVALID" and sizes["evidence"] == 0:
            # The judge decides YES/NO only from cited items (SPEC §7.2 R_VALIDITY).
            findings.append(Finding("bundle.verdict_without_evidence",
                                    f"verdict {verdict.outcome} with no committed evidence"))
        if isinstance(header, TraceHeader) and header.market_id != verdict.market_id:
            findings.append(Finding("bundle.market_id",
                                    "trace header and verdict name different markets"))
        refs = (("prompt_spec_hash", roots["prompt_spec"]),
                ("evidence_root", roots["evidence"]), ("evidence_count", sizes["evidence"]),
                ("reasoning_root", roots["reasoning"]),
                ("reasoning_count", sizes["reasoning"]))
        findings.extend(Finding("commit.verdict_refs", f"verdict.{name} differs from the "
                                "committed component")
                        for name, want in refs if getattr(verdict, name) != want)
    return findings


def level_trace(  # noqa: PLR0917 - the RFC's arguments, in the RFC's order
    where: str, level: str, leaf: bytes, index: int, size: int, path: Sequence[bytes],
    expected_root: bytes,
) -> LevelTrace:
    """One inclusion level, computed by ``inclusion_trace`` (merkle.* ids pass through)."""
    hashed = leaf_hash(leaf)
    try:
        hashes = inclusion_trace(hashed, index, size, path)
        sides = inclusion_sides(index, size)
    except MerkleError as exc:
        raise type(exc)(exc.check_id, f"{where}: {level} path: {exc.message}",
                        expected=exc.expected, actual=exc.actual) from None
    return LevelTrace(level=level, leaf=leaf, index=index, size=size, path=tuple(path),
                      sides=tuple(sides), hashes=tuple(hashes), expected_root=expected_root)


__all__ = [
    "SINGLE_RECORD",
    "build_bundle_proof",
    "build_inclusion_proof",
    "bundle_findings",
    "component_records",
    "inclusion_proof_from_leaves",
    "leaf_index_by_id",
    "level_trace",
    "verify_bundle_proof",
    "verify_challenge_id",
    "verify_inclusion_proof",
]
