"""Signed verdicts for on-chain submission (SPEC §8).

``eip712`` hashes the fixed ``Verdict`` struct, ``secp256k1`` and ``ed25519``
sign and verify its 32-byte digest, ``keys`` holds key values and their file
formats, ``record`` the ``VerdictSignature`` wire record with
``sign_verdict``/``check_signature``/``verify_signature``.  ``keyfiles`` (file
I/O for the CLI) is not imported here.  Check ids are in ``checks``.
"""

from por.signing.checks import KEY_CHECK_IDS, SIGNATURE_CHECK_IDS
from por.signing.display import checksum_address, signer_text
from por.signing.eip712 import (
    DEFAULT_DOMAIN_NAME,
    DEFAULT_DOMAIN_VERSION,
    DOMAIN_TYPE,
    OUTCOME_INVALID,
    OUTCOME_NO,
    OUTCOME_YES,
    VERDICT_TYPE,
    Eip712Domain,
    VerdictStruct,
    domain_separator,
    keccak256,
    market_id_from_text,
    signing_digest,
    struct_hash,
    type_hash,
)
from por.signing.keys import (
    KeyScheme,
    PrivateKey,
    PublicKey,
    generate_key,
    public_key_from_private_key,
)
from por.signing.record import (
    SignatureScheme,
    VerdictSignature,
    attestation,
    check_signature,
    domain_from_signature,
    sign_verdict,
    verify_signature,
)

__all__ = [
    "DEFAULT_DOMAIN_NAME",
    "DEFAULT_DOMAIN_VERSION",
    "DOMAIN_TYPE",
    "KEY_CHECK_IDS",
    "OUTCOME_INVALID",
    "OUTCOME_NO",
    "OUTCOME_YES",
    "SIGNATURE_CHECK_IDS",
    "VERDICT_TYPE",
    "Eip712Domain",
    "KeyScheme",
    "PrivateKey",
    "PublicKey",
    "SignatureScheme",
    "VerdictSignature",
    "VerdictStruct",
    "attestation",
    "check_signature",
    "checksum_address",
    "domain_from_signature",
    "domain_separator",
    "generate_key",
    "keccak256",
    "market_id_from_text",
    "public_key_from_private_key",
    "sign_verdict",
    "signer_text",
    "signing_digest",
    "struct_hash",
    "type_hash",
    "verify_signature",
]
