"""Step 8: signatures over the committed verdict (SPEC §6.2 step 8, §8).

Each signature record is decoded strictly, the EIP-712 struct is rebuilt from
the committed verdict and commitments, and ``por.signing.check_signature`` runs
every check.  Trust comes only from ``trusted_keys``; with none given, a
signature that verifies is reported but trusts nothing.  The current time is a
parameter: checking signatures without one is "no verdict" (exit 2).
"""

from __future__ import annotations

from por.bundle.sign import verdict_struct
from por.errors import PorError
from por.schemas import ChallengeRef
from por.signing import VerdictSignature, check_signature
from verifier.context import Context


def step8_signatures(ctx: Context) -> None:
    """Step 8: every signature verifies; with ``require_signature``, one is trusted."""
    bundle = ctx.parts["bundle"]
    options = ctx.options
    trusted = options["trusted_keys"]
    verdict_ref = ChallengeRef(kind="verdict")
    if not bundle.signatures:
        if options["require_signature"]:
            ctx.failed("signature.missing", "the bundle carries no signature",
                       challenge=verdict_ref)
        return
    if options["now"] is None:
        ctx.failed("signature.no_time", "signatures present but no current time was given",
                   status="error")
    trusted_valid = 0
    for index, blob in enumerate(bundle.signatures):
        try:
            record = VerdictSignature.from_cbor(blob)
            struct = verdict_struct(ctx.parts["verdict"], ctx.parts["commitments"],
                                    issued_at=record.issued_at,
                                    expires_at=record.expires_at, nonce=record.nonce)
        except PorError as exc:
            ctx.failed(exc.check_id, f"signature {index}: {exc.message}",
                       challenge=verdict_ref)
            continue
        failures = check_signature(
            record, struct, now=options["now"], trusted=trusted,
            expected_chain_id=options["chain_id"],
            expected_contract=options["verifying_contract"],
        )
        if failures:
            first = failures[0]
            ctx.failed(first.check_id, f"signature {index} ({record.signer.hex()}): "
                       f"{first.message}", expected=first.expected, actual=first.actual,
                       challenge=verdict_ref)
        if trusted is not None:
            trusted_valid += 1
        ctx.passed("signature.ok", f"signature {index} by {record.signer.hex()} "
                   f"({record.scheme}) verifies" + ("" if trusted else "; no key is trusted"))
    if options["require_signature"] and trusted_valid == 0:
        ctx.failed("signature.untrusted_key", "no signature from a trusted key "
                   "(give the signer's public key)", challenge=verdict_ref)
