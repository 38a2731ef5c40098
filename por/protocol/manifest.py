"""The manifest this implementation writes and replays (SPEC §5.2), without pydantic.

``por.bundle.manifest`` (the pydantic ``Manifest`` record) takes its constants
from here; :func:`manifest_bytes` is the canonical encoding of
``current_manifest()`` (a test pins the equality), so the fast path compares a
bundle's manifest by its bytes.
"""

from __future__ import annotations

import functools
import hashlib

from por import SPEC_VERSION
from por.encoding import encode
from por.protocol.limits import CANONICAL_RULE_IDS

PROFILE = "por-cbor/1"
HASH_ALG = "sha-256"
TREE_ALG = "rfc9162"
AUDITOR_VERSION = "por-auditor/2"
JUDGE_VERSION = "por-judge/1"



def rule_set_hash(judge_version: str = JUDGE_VERSION) -> bytes:
    """SHA-256 of the canonical rule-set description (SPEC §5.2).

    ``encode({"schema": "por.RuleSet/1", "judge_version": v, "rules": [...]})``
    with the rules in evaluation order.
    """
    description = {
        "schema": "por.RuleSet/1",
        "judge_version": judge_version,
        "rules": list(CANONICAL_RULE_IDS),
    }
    return hashlib.sha256(encode(description)).digest()


@functools.cache
def manifest_bytes() -> bytes:
    """Canonical bytes of the current ``por.Manifest/1``."""
    return encode({
        "schema": "por.Manifest/1",
        "spec_version": SPEC_VERSION,
        "profile": PROFILE,
        "hash_alg": HASH_ALG,
        "tree_alg": TREE_ALG,
        "auditor_version": AUDITOR_VERSION,
        "judge_version": JUDGE_VERSION,
        "rule_set_hash": rule_set_hash(),
    })


__all__ = ["AUDITOR_VERSION", "CANONICAL_RULE_IDS", "HASH_ALG", "JUDGE_VERSION", "PROFILE",
           "TREE_ALG", "manifest_bytes", "rule_set_hash"]
