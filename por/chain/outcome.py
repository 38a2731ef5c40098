"""The outcome proof (SPEC §14.4 "The outcome proof"; ADR 0017 s45 ``bind``): strike a
proposal whose stored words are not the committed verdict's.

``proposeVerdict`` stores the signed ``outcome``, ``confidenceBps``, ``evidenceCount``
and ``reasoningCount`` (what ``finalOutcome`` and ``verdicts`` return) and checks only
their ranges; the verdict record ``porRoot`` commits may say otherwise. The proof is
``settleByForms(marketKey, keccak256("form:outcome"), args)``, ``args`` shaped as a
FormStepProof's (``abi.encode(forms, inclusion)``): the committed VERDICT form, the forms
tree's last leaf, with its path and the forms component's path. The chain proves it under
the proof's ``por_root`` and compares its words with the record: any difference wins
``signature.field_mismatch``; all equal is lost ``one_step.match``.

Here: the proposal decoded from its ``proposeVerdict`` calldata, the args built from the
bundle, and the answer the chain will give (``outcome_answer``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from por.bundle import Bundle
from por.chain.calldata import FORMS_INCLUSION_TUPLE, PROPOSE_VERDICT, VERDICT_TUPLE, selector
from por.errors import ProofError
from por.numbers import BPS_MAX
from por.schemas import OUTCOME_CODES, DeterministicVerdict
from por.signing.eip712 import VERDICT_MEMBERS, keccak256

#: ``settleByForms``' kind of the outcome proof.
OUTCOME_KIND: Final = keccak256(b"form:outcome")
#: The stored words it compares, as the Verdict's members (SPEC §8.1), in the record's order.
STORED: Final = ("outcome", "confidence_bps", "evidence_count", "reasoning_count")
#: The answers: won (a stored word differs) and lost (all equal).
WON: Final = "signature.field_mismatch"
LOST: Final = "one_step.match"


@dataclass(frozen=True)
class OutcomeAnswer:
    """What the chain answers an outcome proof for ``proposal`` against the bundle."""

    won: bool
    check_id: str
    #: ``member: (stored, committed)`` for each stored word that differs.
    differences: dict[str, tuple[int, int]]


def proposal_verdict(calldata: bytes) -> dict[str, Any]:
    """The ``Verdict`` members (SPEC §8.1 names) of ``proposeVerdict`` calldata as sent
    (``cast tx HASH input``). ``ProofError`` ``chain.proposal`` for other bytes."""
    if calldata[:4] != selector(PROPOSE_VERDICT):
        raise ProofError("chain.proposal", "not proposeVerdict calldata (its first 4 bytes are "
                         "not the selector)", expected=selector(PROPOSE_VERDICT).hex(),
                         actual=calldata[:4].hex())
    from eth_abi.abi import decode  # noqa: PLC0415 - the chain extra, on use
    from eth_abi.exceptions import DecodingError  # noqa: PLC0415

    try:
        words = decode([VERDICT_TUPLE, "bytes32[]", "address", "bytes"], calldata[4:])[0]
    except (DecodingError, ValueError, OverflowError):
        raise ProofError("chain.proposal", "the proposeVerdict arguments do not decode as "
                         "(Verdict, bytes32[], address, bytes)") from None
    verdict = {name: value for (name, _m, _k), value in zip(VERDICT_MEMBERS, words, strict=True)}
    # proposeVerdict reverts these (OutcomeOutOfRange, ConfidenceOutOfRange): no record holds them
    if verdict["outcome"] not in OUTCOME_CODES.values() or verdict["confidence_bps"] > BPS_MAX:
        raise ProofError("chain.proposal", "proposeVerdict refuses this outcome or "
                         "confidenceBps (1..3, 0..10000): no proposal stored it",
                         actual=f"{verdict['outcome']}, {verdict['confidence_bps']}")
    return verdict


def committed_words(bundle: Bundle) -> dict[str, int]:
    """The stored words as the committed verdict record gives them (its VERDICT form's)."""
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    return {"outcome": OUTCOME_CODES[verdict.outcome], "confidence_bps": verdict.confidence_bps,
            "evidence_count": verdict.evidence_count,
            "reasoning_count": verdict.reasoning_count}


def outcome_answer(bundle: Bundle, proposal: dict[str, Any]) -> OutcomeAnswer:
    """The chain's answer to the outcome proof of ``bundle`` against a proposal with these
    members (its ``por_root`` is the caller's to compare: ``ProofPorRoot`` otherwise)."""
    committed = committed_words(bundle)
    differences = {name: (int(proposal[name]), committed[name]) for name in STORED
                   if int(proposal[name]) != committed[name]}
    return OutcomeAnswer(bool(differences), WON if differences else LOST, differences)


def outcome_args(bundle: Bundle) -> bytes:
    """``args`` of ``settleByForms`` for the outcome proof: ``abi.encode([F], (por_root,
    forms size, [size - 1], [F's path], forms component path))``. Raises the builder's
    ``form.*`` / ``proof.*`` ids (:func:`verdict_form_inclusion`)."""
    from eth_abi.abi import encode  # noqa: PLC0415 - the chain extra, on use

    from por.challenge.form_step import verdict_form_inclusion  # noqa: PLC0415

    form, size, path, forms_path = verdict_form_inclusion(bundle)
    inclusion = (bundle.commitments.por_root, size, [size - 1], [path], forms_path)
    return bytes(encode(["bytes[]", FORMS_INCLUSION_TUPLE], [[form], inclusion]))


def outcome_call(bundle_data: bytes, proposal: bytes, *, max_size: int,
                 commit_by: bytes | None = None) -> dict[str, Any]:
    """``settleByForms(marketKey, keccak256("form:outcome"), args)`` calldata (``commitProof``
    with ``commit_by``) striking the proposal ``proposal`` (its ``proposeVerdict`` calldata)
    with bundle ``bundle_data``'s committed VERDICT form. ``proof.por_root`` (exit 1) when
    the proposal is for another verdict, ``chain.proof_not_won`` (exit 1) when its stored
    words are the bundle's, the decoder's and the builder's ids otherwise."""
    from por.chain.calldata import (  # noqa: PLC0415
        COMMIT_PROOF,
        SETTLE_BY_FORMS,
        market_calldata,
        market_key,
        proof_commitment,
        settle_by_forms_calldata,
        settlement_id,
    )
    from por.chain.documents import call_document  # noqa: PLC0415
    from por.challenge.refs import bundle_from_bytes  # noqa: PLC0415

    bundle = bundle_from_bytes(bundle_data, max_size=max_size)
    verdict = proposal_verdict(proposal)
    root = bundle.commitments.por_root
    if verdict["por_root"] != root:
        raise ProofError("proof.por_root", "the proposal is for another verdict than the "
                         "bundle's (the registry would revert ProofPorRoot)",
                         expected="0x" + verdict["por_root"].hex(), actual="0x" + root.hex())
    answer = outcome_answer(bundle, verdict)
    if not answer.won:
        raise ProofError("chain.proof_not_won", "the proposal stored the committed verdict's "
                         "outcome, confidence and counts: settleByForms would revert "
                         "ProofNotWon (one_step.match)", expected=WON, actual=LOST)
    key = market_key(verdict["market_id"], verdict["prompt_spec_hash"])
    hashed = OUTCOME_KIND + outcome_args(bundle)
    fields: dict[str, Any] = {
        "market_key": "0x" + key.hex(), "por_root_hex": "0x" + root.hex(), "won": WON,
        "kind": "outcome", "kind_hex": "0x" + OUTCOME_KIND.hex(),
        "differences": {name: {"stored": str(stored), "committed": str(committed)}
                        for name, (stored, committed) in answer.differences.items()},
        "challenge_id_hex": "0x" + settlement_id(key, hashed).hex(), "value": "0"}
    if commit_by is not None:
        commitment = proof_commitment(key, hashed, commit_by)
        return call_document(COMMIT_PROOF, market_calldata(COMMIT_PROOF, commitment),
                             commitment_hex="0x" + commitment.hex(),
                             sender_hex="0x" + commit_by.hex(), **fields)
    return call_document(SETTLE_BY_FORMS,
                         settle_by_forms_calldata(key, OUTCOME_KIND, hashed[32:]), **fields)


__all__ = ["LOST", "OUTCOME_KIND", "STORED", "WON", "OutcomeAnswer", "committed_words",
           "outcome_answer", "outcome_args", "outcome_call", "proposal_verdict"]
