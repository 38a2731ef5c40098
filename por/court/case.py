"""From a PoR dispute to a court case: ``por.DisputeCase/1`` (SPEC §16.2).

A case commits the whole PoR bundle, the disputed leaf (its kind, index and
``LH(leaf)``, proven under the bundle's ``por_root``), the registry's
``challengeId`` for that leaf (SPEC §14.4), the challenger's claim, the
oracle's rebuttal and the reward, plus the seed's ``DisputeContext`` fields
derived from the bundle.  Every derived field is recomputed by the verifier
(``court.case_mismatch``), so a judge's prompt is a function of committed bytes.

Roles (seed 003 -> por): the *worker* is the oracle that delivered the PoR
bundle (its verdict and evidence); the *poster* is the challenger who rejects
the delivery (the claim).  ``worker_pct`` 100 means the oracle's leaf stands
entirely; 0 means the challenger is entirely right.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, ClassVar, Literal

from pydantic import Field

from por.bundle.layout import Bundle
from por.challenge.check import describe_leaf
from por.challenge.proofs import (
    build_inclusion_proof,
    component_records,
    leaf_index_by_id,
    verify_inclusion_proof,
)
from por.challenge.records import InclusionProof, LeafKind
from por.challenge.refs import bundle_from_bytes
from por.court.errors import CourtError
from por.court.seed003.base import DisputeContext
from por.errors import PorError, value_error_text
from por.locked_judges.subjects import SUBJECT_MAX_SIZE
from por.merkle import leaf_hash
from por.schemas import DeterministicVerdict, EvidenceItem, PromptSpec
from por.schemas.base import Blob, Count, Hash32, Id, Record
from por.schemas.verification import ChallengeRef
from por.signing.eip712 import market_id_from_text

#: The leaf kind's component position in the registry (SPEC §14.2).
COMPONENT_POSITION: dict[str, int] = {"prompt_spec": 1, "evidence_leaf": 2,
                                      "reasoning_leaf": 4, "verdict": 5}
#: Longest claim or rebuttal (code points).
MAX_TEXT = 8000
#: Evidence items listed as deliverables.
MAX_DELIVERABLES = 64
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
#: Largest case read (SPEC §16.2): the judge-subject cap, which follows the bundle cap.
CASE_MAX_SIZE = SUBJECT_MAX_SIZE


class DisputeCase(Record):
    """A dispute about one committed leaf, as the court sees it."""

    SCHEMA: ClassVar[str] = "por.DisputeCase/1"

    record_schema: Literal["por.DisputeCase/1"] = Field("por.DisputeCase/1", alias="schema")
    bundle: Blob
    bundle_hash: Hash32
    por_root: Hash32
    market_id: Id
    market_key: Hash32
    leaf_kind: LeafKind
    component: Annotated[int, Field(ge=1, le=5)]
    leaf_index: Count
    leaf_hash: Hash32
    challenge_id: Hash32
    claim: Text
    rebuttal: Text | None = None
    reward: Count
    task_title: str
    task_spec: str
    deliverables: Annotated[list[str], Field(max_length=MAX_DELIVERABLES + 2)]

    def context(self) -> DisputeContext:
        """The seed's ``DisputeContext`` of this case."""
        return DisputeContext(task_spec=self.task_spec, deliverables=list(self.deliverables),
                              claim=self.claim, rebuttal=self.rebuttal,
                              task_title=self.task_title, reward=self.reward)

    def case_hash(self) -> bytes:
        """SHA-256 of the canonical case bytes: what every court call and vote names."""
        return hashlib.sha256(self.to_cbor()).digest()


def registry_challenge_id(market_key: bytes, component: int, leaf_index: int) -> bytes:
    """The registry's ``leafId`` ``keccak256(abi.encode(marketKey, component, leafIndex))``
    (SPEC §14.4): the position disputed; the on-chain challenge id adds the leaf hash,
    the challenger and the case hash (``por.chain.challenge_id``)."""
    from por.chain.calldata import leaf_id  # noqa: PLC0415 - por verify never loads por.chain

    return leaf_id(market_key, component, leaf_index)


def _task_spec(spec: PromptSpec) -> str:
    market = spec.market
    semantics = spec.prediction_semantics
    rules = sorted(market.resolution_rules.rules, key=lambda r: (r.priority, r.rule_id))
    lines = [
        f"Market: {market.market_id}",
        f"Question: {market.question}",
        f"Event definition: {market.event_definition}",
        f"Resolution window (Unix seconds): {market.resolution_window.start} .. "
        f"{market.resolution_window.end}",
        "Resolution rules (by priority):",
        *[f"- [{r.rule_id}] {r.description}" for r in rules],
        f"Allowed sources: {', '.join(market.allowed_sources) or '(any)'}",
        f"Prediction: {semantics.target_entity}; {semantics.predicate} on {semantics.metric}"
        + (f" {semantics.comparison} {semantics.threshold}" if semantics.threshold else "")
        + (f" {semantics.unit}" if semantics.unit else ""),
    ]
    return "\n".join(lines)


def _deliverables(bundle: Bundle, kind: str, index: int, leaf: bytes) -> list[str]:
    out = []
    try:
        verdict = DeterministicVerdict.from_cbor(bundle.verdict)
        out.append(f"verdict: {verdict.outcome} at {verdict.confidence_bps} bps "
                   f"(rule {verdict.resolution_rule_id})")
    except PorError as exc:
        out.append(f"verdict: not a valid record ({exc.check_id})")
    for raw in bundle.evidence[:MAX_DELIVERABLES]:
        digest = hashlib.sha256(raw).hexdigest()
        try:
            item = EvidenceItem.from_cbor(raw)
            out.append(f"evidence {item.evidence_id}: source {item.source.source_id} "
                       f"({item.source.uri}), {len(item.content)} bytes, record sha256 {digest}")
        except PorError as exc:
            out.append(f"evidence leaf: not a valid record ({exc.check_id}), sha256 {digest}")
    status, record_id = describe_leaf(kind, leaf)
    named = record_id if status == "ok" else f"not a valid record ({status})"
    out.append(f"DISPUTED: {kind} #{index} ({named}), leaf hash {leaf_hash(leaf).hex()}")
    return out


def leaf_index_of(bundle: Bundle, ref: ChallengeRef) -> tuple[LeafKind, int]:
    """(kind, index) a ChallengeRef names; ``court.case_leaf`` if it names no leaf."""
    if ref.kind not in COMPONENT_POSITION:
        raise CourtError("court.case_leaf", "a court rules on one committed leaf, not on "
                         "a whole bundle", expected=",".join(COMPONENT_POSITION), actual=ref.kind)
    kind: LeafKind = ref.kind  # type: ignore[assignment]
    if ref.leaf_index is not None:
        return kind, ref.leaf_index
    record_id = ref.evidence_id if kind == "evidence_leaf" else ref.step_id
    if kind in ("evidence_leaf", "reasoning_leaf") and record_id is not None:
        return kind, leaf_index_by_id(bundle, kind, record_id)
    return kind, 0


def open_case(data: bytes, *, kind: str, leaf_index: int, claim: str, rebuttal: str | None,
              reward: int, proof: InclusionProof | None = None) -> DisputeCase:
    """A case about leaf ``kind`` #``leaf_index`` of the PoR bundle ``data``.

    With ``proof`` (an InclusionProof file) the leaf is the proof's, and the
    proof must verify against this bundle's ``por_root`` (``proof.*``).
    """
    bundle = bundle_from_bytes(data)
    try:
        spec = PromptSpec.from_cbor(bundle.prompt_spec)
    except PorError as exc:
        raise CourtError("court.case_bundle", f"the bundle's PromptSpec is not valid: "
                         f"{exc.check_id}") from None
    if kind not in COMPONENT_POSITION:
        raise CourtError("court.case_leaf", "unknown leaf kind", actual=kind)
    leaf_kind: LeafKind = kind  # type: ignore[assignment]
    por_root = bundle.commitments.por_root
    if proof is not None:
        verify_inclusion_proof(proof, por_root=por_root)
        leaf_kind, leaf_index = proof.kind, proof.leaf_index
    records = component_records(bundle, leaf_kind)
    if not 0 <= leaf_index < len(records):
        raise CourtError("court.case_leaf", f"no {leaf_kind} leaf #{leaf_index}",
                         expected=f"0..{len(records) - 1}", actual=leaf_index)
    # The disputed leaf is what the oracle committed under por_root (SPEC §10.4.1).
    verify_inclusion_proof(build_inclusion_proof(bundle, leaf_kind, leaf_index),
                           por_root=por_root)
    leaf = records[leaf_index]
    from por.chain.calldata import market_key as key_of  # noqa: PLC0415 - por verify never loads por.chain

    market_key = key_of(market_id_from_text(spec.market.market_id),
                        bundle.commitments.prompt_spec_hash)
    component = COMPONENT_POSITION[leaf_kind]
    try:
        return _case(data, spec, por_root=por_root, market_key=market_key, leaf_kind=leaf_kind,
                     component=component, leaf_index=leaf_index, leaf=leaf, claim=claim,
                     rebuttal=rebuttal, reward=reward, bundle=bundle)
    except ValueError as exc:  # pydantic: a claim or rebuttal empty or too long, a reward too big
        raise CourtError("court.case_value",
                         f"case field out of range: {value_error_text(exc)[:200]}") from None


def _case(data: bytes, spec: PromptSpec, *, por_root: bytes, market_key: bytes,
          leaf_kind: LeafKind, component: int, leaf_index: int, leaf: bytes, claim: str,
          rebuttal: str | None, reward: int, bundle: Bundle) -> DisputeCase:
    return DisputeCase(
        bundle=data, bundle_hash=hashlib.sha256(data).digest(), por_root=por_root,
        market_id=spec.market.market_id, market_key=market_key, leaf_kind=leaf_kind,
        component=component, leaf_index=leaf_index, leaf_hash=leaf_hash(leaf),
        challenge_id=registry_challenge_id(market_key, component, leaf_index),
        claim=claim, rebuttal=rebuttal, reward=reward, task_title=spec.market.question,
        task_spec=_task_spec(spec),
        deliverables=_deliverables(bundle, leaf_kind, leaf_index, leaf))


def check_case(case: DisputeCase) -> None:
    """Every derived field follows from the committed bundle (``court.case_mismatch``)."""
    try:
        rebuilt = open_case(case.bundle, kind=case.leaf_kind, leaf_index=case.leaf_index,
                            claim=case.claim, rebuttal=case.rebuttal, reward=case.reward)
    except PorError as exc:
        raise CourtError("court.case_mismatch", f"the case's bundle does not support it: "
                         f"{exc.check_id}") from None
    if rebuilt != case:
        wrong = sorted(k for k, v in rebuilt.__dict__.items() if case.__dict__.get(k) != v)
        raise CourtError("court.case_mismatch", "case fields do not follow from its bundle",
                         expected="derived fields", actual=",".join(wrong))


__all__ = ["CASE_MAX_SIZE", "COMPONENT_POSITION", "DisputeCase", "check_case", "leaf_index_of",
           "open_case", "registry_challenge_id"]
