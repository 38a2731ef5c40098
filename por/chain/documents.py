"""The JSON views of contract calls that ``por attestation --calldata`` prints
(SPEC §14.5).  Bytes are ``0x``-prefixed lower-case hex (the EVM display edge).

``verdict_call`` is ``submitVerdict`` for one signature record of a verified
bundle; ``proof_call`` is ``openChallenge`` for an InclusionProof file, checked
with ``por check-proof``'s verifier first (against its own ``por_root``: the
contract then checks it against the root it stored).
"""

from __future__ import annotations

from typing import Any

from por.chain.calldata import (
    COMPONENT_POSITION,
    OPEN_CHALLENGE,
    SUBMIT_VERDICT,
    open_challenge_calldata,
    selector,
    submit_verdict_calldata,
)
from por.errors import UnsupportedError
from por.signing.eip712 import VerdictStruct, market_id_from_text
from por.signing.record import VerdictSignature

#: The ``schema`` of the document printed for a proof file.
CALLDATA_SCHEMA = "por/calldata/1"


def _hex(data: bytes) -> str:
    return "0x" + data.hex()


def verdict_call(record: VerdictSignature, verdict: VerdictStruct) -> dict[str, Any]:
    """``submitVerdict(verdict, signer, signature)`` for one signature record.
    ``to`` is the record's ``verifying_contract``: the only contract whose
    domain the signature is valid for.  An unbound signature (20 zero bytes,
    ``por sign`` without ``--contract``) is valid for no contract:
    ``chain.unbound`` (exit 2), rather than calldata for the zero address."""
    data = submit_verdict_calldata(verdict, record.signer, record.signature,
                                   scheme=record.scheme)
    if record.verifying_contract == bytes(20):
        raise UnsupportedError("chain.unbound", "the signature is not bound to a contract "
                               "(signed without --contract): no registry can accept it; "
                               "sign again with --contract ADDR")
    return {"function": SUBMIT_VERDICT, "selector_hex": _hex(selector(SUBMIT_VERDICT)),
            "to_hex": _hex(record.verifying_contract), "chain_id": str(record.chain_id),
            "data_hex": _hex(data)}


def proof_call(data: bytes, market: str, *, max_size: int) -> dict[str, Any]:
    """``openChallenge(keccak256(market), proof)`` for the InclusionProof ``data``.

    Raises the proof's failure (``proof.*``, ``merkle.*``: exit 1) if it does
    not verify, and ``chain.proof_kind`` (exit 2) for a BundleProof or OneStepProof,
    which the contract does not take (``por challenge`` makes an InclusionProof
    for any leaf: ``--evidence``, ``--prompt-spec``, ``--verdict``, or
    ``--step ID --inclusion``).
    """
    from por.challenge.check import verify_proof  # noqa: PLC0415 - the checker on use
    from por.challenge.records import InclusionProof, proof_from_cbor  # noqa: PLC0415

    verify_proof(data, max_size=max_size)
    proof = proof_from_cbor(data, max_size=max_size)
    if not isinstance(proof, InclusionProof):
        raise UnsupportedError("chain.proof_kind", f"the contract checks InclusionProofs, not "
                               f"{proof.SCHEMA}; make one with `por challenge` and --evidence ID, "
                               "--prompt-spec, --verdict or --step ID --inclusion",
                               expected="por.InclusionProof/1", actual=proof.SCHEMA)
    market_id = market_id_from_text(market)
    return {"function": OPEN_CHALLENGE, "selector_hex": _hex(selector(OPEN_CHALLENGE)),
            "market": market, "market_id_hex": _hex(market_id),
            "por_root_hex": _hex(proof.por_root), "kind": proof.kind,
            "component": COMPONENT_POSITION[proof.kind], "leaf_index": str(proof.leaf_index),
            "tree_size": str(proof.tree_size),
            "data_hex": _hex(open_challenge_calldata(market_id, proof))}


__all__ = ["CALLDATA_SCHEMA", "proof_call", "verdict_call"]
