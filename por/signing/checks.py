"""Stable check ids for signatures and key files (SPEC §8.6).

One constant per id, so a typo is a NameError rather than a silently new id.
The order of :data:`SIGNATURE_CHECK_IDS` is the order in which
``check_signature`` evaluates the steps (SPEC §8.5).
"""

from __future__ import annotations

# Signatures (SignatureError).
CHECK_MALFORMED = "signature.malformed"
CHECK_BAD_V = "signature.bad_v"
CHECK_HIGH_S = "signature.high_s"
CHECK_ZERO_SIGNER = "signature.zero_signer"
CHECK_CHAIN_ID = "signature.chain_id"
CHECK_CONTRACT = "signature.contract"
CHECK_FIELD_MISMATCH = "signature.field_mismatch"
CHECK_INVALID = "signature.invalid"
CHECK_UNTRUSTED_KEY = "signature.untrusted_key"
CHECK_EXPIRED = "signature.expired"
CHECK_NOT_YET_VALID = "signature.not_yet_valid"

SIGNATURE_CHECK_IDS = (
    CHECK_MALFORMED,
    CHECK_BAD_V,
    CHECK_HIGH_S,
    CHECK_ZERO_SIGNER,
    CHECK_CHAIN_ID,
    CHECK_CONTRACT,
    CHECK_FIELD_MISMATCH,
    CHECK_INVALID,
    CHECK_UNTRUSTED_KEY,
    CHECK_EXPIRED,
    CHECK_NOT_YET_VALID,
)

# Key files (KeyFileError).
CHECK_KEY_FORMAT = "key.format"
CHECK_KEY_SCHEME = "key.scheme"
CHECK_KEY_PERMISSIONS = "key.permissions"
CHECK_KEY_UNREADABLE = "key.unreadable"
CHECK_KEY_EXISTS = "key.exists"
CHECK_KEY_UNWRITABLE = "key.unwritable"

KEY_CHECK_IDS = (
    CHECK_KEY_FORMAT,
    CHECK_KEY_SCHEME,
    CHECK_KEY_PERMISSIONS,
    CHECK_KEY_UNREADABLE,
    CHECK_KEY_EXISTS,
    CHECK_KEY_UNWRITABLE,
)
