"""The on-chain edge: ABI calldata for the ``PorVerdictRegistry`` contract (SPEC §14).

``calldata`` turns a signed verdict (the ``Verdict`` struct, the signer and its
65-byte secp256k1 signature) into ``submitVerdict`` calldata, and a
``por.InclusionProof/1`` into ``openChallenge`` / ``checkInclusion`` calldata,
with the ``eth-abi`` encoder (the ``chain`` extra), imported only when called.

Leaves out: sending transactions, RPC, keys (no network in the product); the
contract itself lives in ``contracts/`` at the top of the repository.
"""

from por.chain.calldata import (
    CHECK_INCLUSION,
    COMPONENT_POSITION,
    OPEN_CHALLENGE,
    SUBMIT_VERDICT,
    check_inclusion_calldata,
    inclusion_proof_args,
    open_challenge_calldata,
    selector,
    submit_verdict_calldata,
    verdict_args,
)

__all__ = [
    "CHECK_INCLUSION",
    "COMPONENT_POSITION",
    "OPEN_CHALLENGE",
    "SUBMIT_VERDICT",
    "check_inclusion_calldata",
    "inclusion_proof_args",
    "open_challenge_calldata",
    "selector",
    "submit_verdict_calldata",
    "verdict_args",
]
