"""Step 8: signatures over the committed verdict (SPEC §6.2 step 8, §8.5).

Each signature record is decoded strictly, the EIP-712 struct is rebuilt from
the committed verdict and commitments, and ``por.signing.check_signature``
runs every check but trust.  Its failures fall in three groups:

* **broken** (malformed, bad v, high s, zero signer, field mismatch, invalid,
  ``issued_at > expires_at``): the bundle is rejected, whoever signed;
* **another deployment** (``signature.chain_id``, ``signature.contract``
  against ``--chain-id``/``--contract``): a good signature for another chain
  or contract is reported (``signature.other_domain``) and set aside, so a
  verdict signed for two deployments verifies with either;
* **outside its validity period** (``signature.expired``,
  ``signature.not_yet_valid``): a good signature is reported with that id as a
  warning and set aside, so an archived bundle keeps verifying (gpg reports an
  expired good signature the same way).

A signature *counts* when it is good, for the expected deployment and valid
at ``now``; it is trusted when the ``TrustPolicy`` (``options.trust``) trusts
its signer.  With ``require_signature`` at least one counting, trusted
signature is required;
the failure names why there is none (``signature.missing``,
``signature.chain_id``/``signature.contract``, ``signature.expired``/
``signature.not_yet_valid``, ``signature.untrusted_key``).  If the caller
names a chain or contract and the bundle is signed, at least one good
signature must be for it.  The current time is a parameter: checking
signatures without one is "no verdict".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from por.errors import PorError, SignatureError
from por.schemas import ChallengeRef, CheckResult
from por.schemas.verification import Severity
from verifier.context import Context

if TYPE_CHECKING:
    from por.bundle.layout import Commitments
    from por.schemas.base import Value
    from por.signing.policy import TrustPolicy
    from verifier.stages import Records


def step8_signatures(ctx: Context, records: Records, commitments: Commitments) -> None:
    """Step 8: every signature is good; set aside other deployments and periods.

    Each signature gets one check whose ``details`` is its gpg-like status
    (``por.signing.status``): the report's ``signatures`` array is made of them.
    """
    bundle = records.bundle
    policy = ctx.options.trust
    verdict_ref = ChallengeRef(kind="verdict")
    if not bundle.signatures:
        if policy.require_signature:
            ctx.failed("signature.missing", "the bundle carries no signature",
                       challenge=verdict_ref)
        return
    if policy.now is None:
        ctx.failed("signature.no_time", "signatures present but no current time was given",
                   status="error")
    # The signing stack loads only for signed bundles (start-up time, SPEC §6.2 step 8).
    from por.bundle.sign import verdict_struct  # noqa: PLC0415
    from por.signing.display import checksum_address  # noqa: PLC0415
    from por.signing.record import VerdictSignature, check_signature  # noqa: PLC0415
    from por.signing.status import (  # noqa: PLC0415
        SignatureStatus,
        classify,
        status_document,
        trust_of,
    )

    counted_trusted = 0
    in_domain = 0
    elsewhere: list[tuple[int, bytes]] = []  # (chain id, contract) of good signatures set aside
    set_aside: dict[str, int] = {}  # reason id -> count, among trusted signers
    for index, blob in enumerate(bundle.signatures):
        try:
            record = VerdictSignature.from_cbor(blob)
            struct = verdict_struct(records.verdict, commitments,
                                    issued_at=record.issued_at,
                                    expires_at=record.expires_at, nonce=record.nonce)
        except PorError as exc:
            ctx.failed(exc.check_id, f"signature {index}: {exc.message}",
                       challenge=verdict_ref)
        # Every rule of SPEC §8.5 but trust, with the policy's domain and time.
        failures = check_signature(record, struct, now=policy.now, trusted=None,
                                   expected_chain_id=policy.chain_id,
                                   expected_contract=policy.contract)
        kind, failure = classify(failures, issued_at=record.issued_at,
                                 expires_at=record.expires_at)
        status = SignatureStatus(index, kind, record.scheme, record.signer,
                                 trust_of(policy, record.signer), failure)
        details: dict[str, Value] = {k: v for k, v in status_document(status).items()
                                     if v is not None}
        who = f"signature {index} by {status.signer_text} ({record.scheme})"
        if kind == "bad" and failure is not None:
            ctx.failed(failure.check_id, f"signature {index} ({status.signer_text}): "
                       f"{failure.message}", expected=failure.expected,
                       actual=failure.actual, challenge=verdict_ref, details=details)
        is_trusted = status.trust == "trusted"
        if kind == "other_domain" and failure is not None:
            elsewhere.append((record.chain_id, record.verifying_contract))
            _note(ctx, "signature.other_domain", "info",
                  f"{who} is good but for chain {record.chain_id}, contract "
                  f"{checksum_address(record.verifying_contract)}; set aside",
                  failure, details=details)
            if is_trusted:
                set_aside[failure.check_id] = set_aside.get(failure.check_id, 0) + 1
            continue
        in_domain += 1
        if failure is not None:  # expired or not yet valid
            _note(ctx, failure.check_id, "warn",
                  f"{who} is good but {failure.message.removeprefix('the signature ')} "
                  f"(valid {record.issued_at} to {record.expires_at}, now {policy.now});"
                  " set aside", failure, details=details)
            if is_trusted:
                set_aside[failure.check_id] = set_aside.get(failure.check_id, 0) + 1
            continue
        if is_trusted:
            counted_trusted += 1
        ctx.passed("signature.ok" if is_trusted else "signature.not_trusted",
                   f"{who} is valid" + ("" if is_trusted else
                                        " but its signer is not a trusted key"),
                   details=details)
    if in_domain == 0:
        _no_signature_for_deployment(ctx, policy, elsewhere, verdict_ref)
    _require(ctx, policy, counted_trusted, set_aside, verdict_ref)


def _note(ctx: Context, check_id: str, severity: Severity, message: str,
          failure: SignatureError, *, details: dict[str, Value]) -> None:
    """A passing check with a severity: the signature is reported and set aside."""
    ctx.checks.append(CheckResult(
        check_id=check_id, ok=True, severity=severity, message=message,
        expected=None if failure.expected is None else str(failure.expected),
        actual=None if failure.actual is None else str(failure.actual), details=details))


def _no_signature_for_deployment(ctx: Context, policy: TrustPolicy,
                                 elsewhere: list[tuple[int, bytes]], ref: ChallengeRef) -> None:
    """A signed bundle none of whose good signatures is for the named deployment."""
    chain, contract = policy.chain_id, policy.contract
    if chain is not None and all(c != chain for c, _ in elsewhere):
        ctx.failed("signature.chain_id", f"no good signature is for chain {chain}",
                   expected=chain, actual=",".join(sorted({str(c) for c, _ in elsewhere})),
                   challenge=ref)
    ctx.failed("signature.contract", f"no good signature is for contract {_hex(contract)}"
               + ("" if chain is None else f" on chain {chain}"), expected=contract,
               actual=",".join(sorted({_hex(k) for _, k in elsewhere})), challenge=ref)


def _require(ctx: Context, policy: TrustPolicy, counted_trusted: int,
             set_aside: dict[str, int], ref: ChallengeRef) -> None:
    """``require_signature`` needs one counting (good, this deployment, currently
    valid) trusted signature; the failure names why there is none."""
    if not policy.require_signature or counted_trusted:
        return
    for reason in ("signature.expired", "signature.not_yet_valid", "signature.chain_id",
                   "signature.contract"):
        if set_aside.get(reason):
            ctx.failed(reason, "no currently valid signature from a trusted key for this "
                       f"deployment ({set_aside[reason]} trusted signature(s) set aside: "
                       f"{reason})", challenge=ref)
    ctx.failed("signature.untrusted_key", "no valid signature from a trusted key "
               "(give the signer's public key)", challenge=ref)


def _hex(value: bytes | None) -> str:
    return "any" if value is None else "0x" + value.hex()
