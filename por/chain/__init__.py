"""The on-chain edge: ABI calldata for the ``PorVerdictRegistry`` contract (SPEC §14).

``calldata`` turns a signed verdict (the ``Verdict`` struct, the signer and its
65-byte secp256k1 signature) into ``proposeVerdict`` calldata, a
``por.InclusionProof/1`` and a DisputeCase hash into ``openChallenge`` /
``checkInclusion`` calldata, a ``por.RulingSignature/1`` into ``submitRuling``,
a won ``por.CitationProof/2`` into ``settleByProof``, a won ``por.FormStepProof/1``
into ``settleByForms`` (``form_step_args``), and computes the registry's
challenge id and the market key (``market_key``: keccak256(abi.encode(marketId,
promptSpecHash)), SPEC §14.2), with the ``eth-abi`` encoder (the ``chain`` extra), imported only
when called.

Leaves out: sending transactions, RPC, keys (no network in the product); the
contract itself lives in ``contracts/`` at the top of the repository.
"""

from por.chain.calldata import (
    CHECK_INCLUSION,
    COMPONENT_POSITION,
    OPEN_CHALLENGE,
    PROPOSE_VERDICT,
    SETTLE_BY_FORMS,
    SETTLE_BY_PROOF,
    challenge_id,
    check_inclusion_calldata,
    form_step_args,
    inclusion_proof_args,
    leaf_id,
    market_key,
    open_challenge_calldata,
    propose_verdict_calldata,
    selector,
    settle_by_forms_calldata,
    settle_by_proof_calldata,
    settlement_id,
    verdict_args,
)

__all__ = [
    "CHECK_INCLUSION",
    "COMPONENT_POSITION",
    "OPEN_CHALLENGE",
    "PROPOSE_VERDICT",
    "SETTLE_BY_FORMS",
    "SETTLE_BY_PROOF",
    "challenge_id",
    "check_inclusion_calldata",
    "form_step_args",
    "inclusion_proof_args",
    "leaf_id",
    "market_key",
    "open_challenge_calldata",
    "propose_verdict_calldata",
    "selector",
    "settle_by_forms_calldata",
    "settle_by_proof_calldata",
    "settlement_id",
    "verdict_args",
]
