"""Signed verdicts for on-chain submission (SPEC §8).

``eip712`` hashes the fixed ``Verdict`` struct, ``secp256k1`` and ``ed25519``
sign and verify its 32-byte digest, ``keys`` holds key values and their file
formats, ``record`` the ``VerdictSignature`` wire record with
``sign_verdict``/``check_signature``/``verify_signature``.  ``keyfiles`` (file
I/O for the CLI) is not imported here.  Check ids are in ``checks``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: Where each public name lives: the package loads a module (and pydantic, for
#: ``record``) only when a name is first used, so ``por.signing.policy`` stays
#: importable on the pydantic-free fast path of ``por verify``.
_LAZY: dict[str, str] = {
    "KEY_CHECK_IDS": "por.signing.checks",
    "SIGNATURE_CHECK_IDS": "por.signing.checks",
    "checksum_address": "por.signing.display",
    "signer_text": "por.signing.display",
    "DEFAULT_DOMAIN_NAME": "por.signing.eip712",
    "DEFAULT_DOMAIN_VERSION": "por.signing.eip712",
    "DOMAIN_TYPE": "por.signing.eip712",
    "OUTCOME_INVALID": "por.signing.eip712",
    "OUTCOME_NO": "por.signing.eip712",
    "OUTCOME_YES": "por.signing.eip712",
    "VERDICT_TYPE": "por.signing.eip712",
    "Eip712Domain": "por.signing.eip712",
    "VerdictStruct": "por.signing.eip712",
    "domain_separator": "por.signing.eip712",
    "keccak256": "por.signing.eip712",
    "market_id_from_text": "por.signing.eip712",
    "signing_digest": "por.signing.eip712",
    "struct_hash": "por.signing.eip712",
    "type_hash": "por.signing.eip712",
    "KeyScheme": "por.signing.keys",
    "PrivateKey": "por.signing.keys",
    "PublicKey": "por.signing.keys",
    "generate_key": "por.signing.keys",
    "public_key_from_private_key": "por.signing.keys",
    "SignatureScheme": "por.signing.record",
    "VerdictSignature": "por.signing.record",
    "attestation": "por.signing.record",
    "check_signature": "por.signing.record",
    "domain_from_signature": "por.signing.record",
    "sign_verdict": "por.signing.record",
    "verify_signature": "por.signing.record",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'por.signing' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
