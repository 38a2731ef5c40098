"""Sign a bundle's verdict (SPEC §8.3): from committed values to ``VerdictStruct``.

The signed struct is rebuilt from the committed verdict and commitments only, so
verification never trusts anything the signature record says about the verdict.
"""

from __future__ import annotations

from por.bundle.layout import Bundle, Commitments
from por.protocol.budget import add_signature
from por.schemas import OUTCOME_CODES, DeterministicVerdict
from por.signing import (
    Eip712Domain,
    PrivateKey,
    VerdictStruct,
    market_id_from_text,
    sign_verdict,
)


def verdict_struct(
    verdict: DeterministicVerdict,
    commitments: Commitments,
    *,
    issued_at: int,
    expires_at: int,
    nonce: int,
) -> VerdictStruct:
    """The EIP-712 ``Verdict`` struct of a committed verdict (SPEC §8.1)."""
    return VerdictStruct(
        market_id=market_id_from_text(verdict.market_id),
        outcome=OUTCOME_CODES[verdict.outcome],
        confidence_bps=verdict.confidence_bps,
        prompt_spec_hash=commitments.prompt_spec_hash,
        evidence_root=commitments.evidence_root,
        evidence_count=commitments.evidence_count,
        reasoning_root=commitments.reasoning_root,
        reasoning_count=commitments.reasoning_count,
        por_root=commitments.por_root,
        issued_at=issued_at,
        expires_at=expires_at,
        nonce=nonce,
    )


def sign_bundle(
    data: bytes,
    key: PrivateKey,
    domain: Eip712Domain,
    *,
    issued_at: int,
    expires_at: int,
    nonce: int = 0,
) -> bytes:
    """``data`` with one more signature, in its canonical place (SPEC §17: one per
    signer, ordered by signer, at most 64).  The caller verifies the bundle first
    (the CLI does); this function only requires it to be well-formed."""
    bundle = Bundle.from_cbor(data)
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    struct = verdict_struct(verdict, bundle.commitments, issued_at=issued_at,
                            expires_at=expires_at, nonce=nonce)
    record = sign_verdict(struct, key=key, domain=domain)
    return bundle.model_copy(
        update={"signatures": add_signature(list(bundle.signatures), record.to_cbor())}
    ).to_cbor()


__all__ = ["sign_bundle", "verdict_struct"]
