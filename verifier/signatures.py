"""Step 8: signatures over the committed verdict (SPEC §6.2 step 8, §8.5).

Each signature record is decoded strictly, the EIP-712 struct is rebuilt from
the committed verdict and commitments, and ``por.signing.check_signature``
runs every check but trust.  Every signature a bundle carries must be valid
(a bundle with a bad signature is rejected, whoever made it).  Trust is a
separate decision: a valid signature counts only if its signer is one of
``trusted_keys``; with ``require_signature`` at least one must count.  The
current time is a parameter: checking signatures without one is "no verdict".
"""

from __future__ import annotations

from por.errors import PorError
from por.schemas import ChallengeRef
from verifier.context import Context


def step8_signatures(ctx: Context) -> None:
    """Step 8: every signature verifies; with ``require_signature``, one is trusted."""
    bundle = ctx.parts["bundle"]
    options = ctx.options
    trusted = options["trusted_keys"] or frozenset()
    verdict_ref = ChallengeRef(kind="verdict")
    if not bundle.signatures:
        if options["require_signature"]:
            ctx.failed("signature.missing", "the bundle carries no signature",
                       challenge=verdict_ref)
        return
    if options["now"] is None:
        ctx.failed("signature.no_time", "signatures present but no current time was given",
                   status="error")
    # The signing stack loads only for signed bundles (start-up time, SPEC §6.2 step 8).
    from por.bundle.sign import verdict_struct  # noqa: PLC0415
    from por.signing import VerdictSignature, check_signature  # noqa: PLC0415

    trusted_signers: list[str] = []
    for index, blob in enumerate(bundle.signatures):
        try:
            record = VerdictSignature.from_cbor(blob)
            struct = verdict_struct(ctx.parts["verdict"], ctx.parts["commitments"],
                                    issued_at=record.issued_at,
                                    expires_at=record.expires_at, nonce=record.nonce)
        except PorError as exc:
            ctx.failed(exc.check_id, f"signature {index}: {exc.message}",
                       challenge=verdict_ref)
        failures = check_signature(
            record, struct, now=options["now"], trusted=None,
            expected_chain_id=options["chain_id"],
            expected_contract=options["verifying_contract"],
        )
        signer = record.signer.hex()
        if failures:
            first = failures[0]
            ctx.failed(first.check_id, f"signature {index} ({signer}): {first.message}",
                       expected=first.expected, actual=first.actual, challenge=verdict_ref)
        is_trusted = record.signer in trusted
        if is_trusted:
            trusted_signers.append(signer)
        ctx.passed("signature.ok" if is_trusted else "signature.not_trusted",
                   f"signature {index} by {signer} ({record.scheme}) is valid"
                   + ("" if is_trusted else " but its signer is not a trusted key"))
    if options["require_signature"] and not trusted_signers:
        ctx.failed("signature.untrusted_key", "no valid signature from a trusted key "
                   "(give the signer's public key)", challenge=verdict_ref)
