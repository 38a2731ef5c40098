"""The signature record, signing, and the signature checks (SPEC §8.4-8.6).

``VerdictSignature`` is the wire record a bundle stores (``por.VerdictSignature/1``):
who signed (``signer``), the signature bytes, the EIP-712 domain, and the
three signed values that are not part of the committed verdict (``issued_at``,
``expires_at``, ``nonce``).  The nine verdict values are not repeated in it:
verification rebuilds the ``VerdictStruct`` from the committed bundle, so a
signature over any other verdict fails as ``signature.invalid``.

``check_signature`` returns every failure (empty tuple: verified);
``verify_signature`` raises the first.  Both take the current time as a
parameter (no clock here).  Out of scope: where trusted keys come from (the
CLI reads key files) and replay protection by ``nonce`` (the contract's job).
"""

from __future__ import annotations

from collections.abc import Callable, Set
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from por.errors import SignatureError
from por.schemas.base import Blob, Record
from por.signing import ed25519, secp256k1
from por.signing.checks import CHECK_FIELD_MISMATCH
from por.signing.eip712 import (
    DEFAULT_DOMAIN_NAME,
    DEFAULT_DOMAIN_VERSION,
    MAX_DOMAIN_TEXT,
    UINT64_MAX,
    Eip712Domain,
    VerdictStruct,
    domain_separator,
    signing_digest,
    struct_hash,
    type_hash,
    typed_data,
)
from por.signing.keys import PrivateKey, public_key_from_private_key
from por.signing.policy import TrustPolicy

SignatureScheme = Literal["secp256k1-eip712", "ed25519-eip712"]

Uint64 = Annotated[int, Field(ge=0, le=UINT64_MAX)]
DomainText = Annotated[str, Field(min_length=1, max_length=MAX_DOMAIN_TEXT)]

#: Per signature scheme: (encoding checks, full verification of a digest).
_Check = Callable[[bytes, bytes], None]
_Verify = Callable[[bytes, bytes, bytes], None]
_SCHEMES: dict[str, tuple[_Check, _Verify]] = {
    "secp256k1-eip712": (secp256k1.check_encoding, secp256k1.verify_digest),
    "ed25519-eip712": (ed25519.check_encoding, ed25519.verify_digest),
}


class VerdictSignature(Record):
    """One signature over the EIP-712 digest of a verdict (SPEC §8.4).

    The schema fixes types only.  Lengths that depend on the scheme (signer 20
    or 32 bytes, signature 65 or 64) are checked by verification, so a
    truncated signature is ``signature.malformed`` rather than a schema error.
    """

    SCHEMA: ClassVar[str] = "por.VerdictSignature/1"

    record_schema: Literal["por.VerdictSignature/1"] = Field(
        "por.VerdictSignature/1", alias="schema"
    )
    scheme: SignatureScheme
    signer: Blob
    signature: Blob
    chain_id: Uint64
    verifying_contract: Annotated[Blob, Field(min_length=20, max_length=20)]
    domain_name: DomainText
    domain_version: DomainText
    issued_at: Uint64
    expires_at: Uint64
    nonce: Uint64


def domain_from_signature(sig: VerdictSignature) -> Eip712Domain:
    """The EIP-712 domain a signature record names."""
    return Eip712Domain(
        chain_id=sig.chain_id,
        verifying_contract=sig.verifying_contract,
        name=sig.domain_name,
        version=sig.domain_version,
    )


def sign_verdict(
    verdict: VerdictStruct, *, key: PrivateKey, domain: Eip712Domain
) -> VerdictSignature:
    """Sign ``signing_digest(verdict, domain)`` with ``key`` (deterministic:
    RFC 6979 nonces for secp256k1, RFC 8032 for Ed25519)."""
    digest = signing_digest(verdict, domain)
    signer = public_key_from_private_key(key).signer
    if key.scheme == "secp256k1":
        scheme: SignatureScheme = "secp256k1-eip712"
        signature = secp256k1.sign_digest(key.secret, digest)
    else:
        scheme = "ed25519-eip712"
        signature = ed25519.sign_digest(key.secret, digest)
    return VerdictSignature(
        scheme=scheme,
        signer=signer,
        signature=signature,
        chain_id=domain.chain_id,
        verifying_contract=domain.verifying_contract,
        domain_name=domain.name,
        domain_version=domain.version,
        issued_at=verdict.issued_at,
        expires_at=verdict.expires_at,
        nonce=verdict.nonce,
    )


def check_signature(
    sig: VerdictSignature,
    verdict: VerdictStruct,
    *,
    now: int,
    trusted: Set[bytes] | None = None,
    expected_chain_id: int | None = None,
    expected_contract: bytes | None = None,
    expected_domain_name: str | None = DEFAULT_DOMAIN_NAME,
    expected_domain_version: str | None = DEFAULT_DOMAIN_VERSION,
) -> tuple[SignatureError, ...]:
    """Every failure of SPEC §8.5, in step order; an empty tuple means verified.

    ``verdict`` holds the committed values.  ``trusted`` is the set of signer
    ids (addresses for secp256k1, public keys for Ed25519); ``None`` skips the
    trust step (self-consistency only).  An ``expected_*`` of ``None`` skips
    that comparison.
    """
    failures: list[SignatureError] = []
    check_encoding, verify_digest = _SCHEMES[sig.scheme]

    # Steps 1-4: lengths, r/s range and S < L, v in {27, 28}, low s, zero signer.
    encoding_ok = _run(failures, lambda: check_encoding(sig.signer, sig.signature))

    # Steps 5-6: the domain is the one the caller submits to.
    policy = TrustPolicy.of(trusted, now=now, chain_id=expected_chain_id,
                            contract=expected_contract)
    failures += policy.domain_failures(sig.chain_id, sig.verifying_contract)

    # Step 7: signed values carried in the record equal the committed ones.
    pairs: list[tuple[str, object, object]] = [
        ("domain_name", expected_domain_name, sig.domain_name),
        ("domain_version", expected_domain_version, sig.domain_version),
        ("issued_at", verdict.issued_at, sig.issued_at),
        ("expires_at", verdict.expires_at, sig.expires_at),
        ("nonce", verdict.nonce, sig.nonce),
    ]
    for name, expected, actual in pairs:
        if expected is not None and expected != actual:
            failures.append(SignatureError(CHECK_FIELD_MISMATCH,
                                           f"signed {name} differs from the committed value",
                                           expected=expected, actual=actual))

    # Step 8: the signature over the digest of the committed verdict.
    if encoding_ok:
        digest = signing_digest(verdict, domain_from_signature(sig))
        _run(failures, lambda: verify_digest(sig.signer, digest, sig.signature))

    # Step 9: the signer is one the caller trusts.  Steps 10-11: validity period.
    failures += policy.signer_failures(sig.signer)
    failures += policy.period_failures(sig.issued_at, sig.expires_at)
    return tuple(failures)


def _run(failures: list[SignatureError], step: Callable[[], None]) -> bool:
    try:
        step()
    except SignatureError as exc:
        failures.append(exc)
        return False
    return True


def verify_signature(
    sig: VerdictSignature,
    verdict: VerdictStruct,
    *,
    now: int,
    trusted: Set[bytes] | None = None,
    expected_chain_id: int | None = None,
    expected_contract: bytes | None = None,
    expected_domain_name: str | None = DEFAULT_DOMAIN_NAME,
    expected_domain_version: str | None = DEFAULT_DOMAIN_VERSION,
) -> None:
    """Raise the first failure of :func:`check_signature` as ``SignatureError``."""
    failures = check_signature(
        sig, verdict, now=now, trusted=trusted,
        expected_chain_id=expected_chain_id, expected_contract=expected_contract,
        expected_domain_name=expected_domain_name,
        expected_domain_version=expected_domain_version,
    )
    if failures:
        raise failures[0]


def attestation(sig: VerdictSignature, verdict: VerdictStruct) -> dict[str, Any]:
    """What a contract call needs, as JSON-ready values (SPEC §8.8).

    Bytes are ``0x``-prefixed lower-case hex (the EVM display edge).  This does
    not verify anything; call :func:`verify_signature` first.  For secp256k1,
    ``r``, ``s`` and ``v`` are split out for ``ecrecover(digest, v, r, s)``.
    """
    domain = domain_from_signature(sig)
    out: dict[str, Any] = {
        "schema": "por.VerdictAttestation/1",
        "scheme": sig.scheme,
        "signer_hex": _hex(sig.signer),
        "typed_data": _decimal_strings(typed_data(verdict, domain)),
        "type_hash_hex": _hex(type_hash()),
        "domain_separator_hex": _hex(domain_separator(domain)),
        "struct_hash_hex": _hex(struct_hash(verdict)),
        "digest_hex": _hex(signing_digest(verdict, domain)),
        "signature_hex": _hex(sig.signature),
    }
    if sig.scheme == "secp256k1-eip712":
        r, s, v = secp256k1.split_signature(sig.signature)
        out["r_hex"] = _hex(r.to_bytes(32, "big"))
        out["s_hex"] = _hex(s.to_bytes(32, "big"))
        out["v"] = v
    return out


#: EIP-712 member types written as decimal strings in the JSON form (SPEC §8.8):
#: JavaScript numbers lose precision above 2^53.
_WIDE_UINTS = frozenset({"uint64", "uint256"})


def _decimal_strings(typed: dict[str, Any]) -> dict[str, Any]:
    """``typed`` with every uint64/uint256 value (message and domain) as a
    decimal string, which wallets and ``encode_typed_data`` accept."""
    for section, type_name in (("message", "Verdict"), ("domain", "EIP712Domain")):
        for member in typed["types"][type_name]:
            if member["type"] in _WIDE_UINTS:
                typed[section][member["name"]] = str(typed[section][member["name"]])
    return typed


def _hex(data: bytes) -> str:
    return "0x" + data.hex()


__all__ = [
    "SignatureScheme",
    "VerdictSignature",
    "attestation",
    "check_signature",
    "domain_from_signature",
    "sign_verdict",
    "verify_signature",
]
