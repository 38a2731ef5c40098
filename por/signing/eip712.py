"""EIP-712 typed-data hashing of the fixed ``Verdict`` struct (SPEC §8.1-8.3).

Computes the type hash, the domain separator, ``hashStruct(verdict)`` and the
signing digest ``keccak256(0x1901 || domainSeparator || hashStruct(verdict))``
for exactly one struct type and one domain type.  It is deliberately not a
general EIP-712 encoder: the struct has no strings, arrays, nested structs or
floats, so every member encodes as one 32-byte word (EIP-712 "encodeData").

Out of scope: signing and verification (``secp256k1``, ``ed25519``, ``record``),
mapping a committed verdict record to these values (the bundle layer).

keccak256 is the original Keccak (pad 0x01), as used by Ethereum; it is NOT
``hashlib.sha3_256`` (FIPS 202 pad 0x06) and gives different digests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from Crypto.Hash import keccak

from por.errors import SchemaError

#: SPEC §8.1: the primary type, members in this order.
VERDICT_TYPE = (
    "Verdict(bytes32 marketId,uint8 outcome,uint16 confidenceBps,bytes32 promptSpecHash,"
    "bytes32 evidenceRoot,uint64 evidenceCount,bytes32 reasoningRoot,uint64 reasoningCount,"
    "bytes32 porRoot,uint64 issuedAt,uint64 expiresAt,uint64 nonce)"
)
#: SPEC §8.2: the domain type (EIP-712 field order name, version, chainId, verifyingContract).
DOMAIN_TYPE = (
    "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
)

DEFAULT_DOMAIN_NAME = "por"
DEFAULT_DOMAIN_VERSION = "1"

OUTCOME_YES = 1
OUTCOME_NO = 2
OUTCOME_INVALID = 3

UINT64_MAX = 2**64 - 1
#: Longest domain name or version (characters); a contract hard-codes both.
MAX_DOMAIN_TEXT = 64

#: (Python field name, EIP-712 member name, EIP-712 type) in struct order.
VERDICT_MEMBERS: tuple[tuple[str, str, str], ...] = (
    ("market_id", "marketId", "bytes32"),
    ("outcome", "outcome", "uint8"),
    ("confidence_bps", "confidenceBps", "uint16"),
    ("prompt_spec_hash", "promptSpecHash", "bytes32"),
    ("evidence_root", "evidenceRoot", "bytes32"),
    ("evidence_count", "evidenceCount", "uint64"),
    ("reasoning_root", "reasoningRoot", "bytes32"),
    ("reasoning_count", "reasoningCount", "uint64"),
    ("por_root", "porRoot", "bytes32"),
    ("issued_at", "issuedAt", "uint64"),
    ("expires_at", "expiresAt", "uint64"),
    ("nonce", "nonce", "uint64"),
)

#: Inclusive value range per integer member (SPEC §8.1).
_INT_RANGE = {
    "outcome": (OUTCOME_YES, OUTCOME_INVALID),
    "confidence_bps": (0, 10_000),
    "evidence_count": (0, UINT64_MAX),
    "reasoning_count": (0, UINT64_MAX),
    "issued_at": (0, UINT64_MAX),
    "expires_at": (0, UINT64_MAX),
    "nonce": (0, UINT64_MAX),
}


def keccak256(data: bytes) -> bytes:
    """Ethereum's keccak256 (Keccak-256 with the original 0x01 padding)."""
    return keccak.new(digest_bits=256, data=data).digest()


def _require_bytes(name: str, value: object, size: int) -> None:
    if type(value) is not bytes:
        raise SchemaError("schema.type", f"{name}: expected bytes, got {type(value).__name__}")
    if len(value) != size:
        raise SchemaError("schema.value", f"{name}: expected {size} bytes, got {len(value)}")


def _require_int(name: str, value: object, low: int, high: int) -> None:
    # type() is not int also refuses bool (SPEC §4: no lax coercion).
    if type(value) is not int:
        raise SchemaError("schema.type", f"{name}: expected int, got {type(value).__name__}")
    if not low <= value <= high:
        raise SchemaError("schema.value", f"{name}: {value} is outside {low}..{high}")


def _require_text(name: str, value: object) -> None:
    if type(value) is not str:
        raise SchemaError("schema.type", f"{name}: expected str, got {type(value).__name__}")
    if not 1 <= len(value) <= MAX_DOMAIN_TEXT:
        raise SchemaError("schema.value", f"{name}: length must be 1..{MAX_DOMAIN_TEXT}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise SchemaError("schema.value", f"{name}: not encodable as UTF-8") from None


@dataclass(frozen=True)
class Eip712Domain:
    """The EIP-712 domain (SPEC §8.2).  ``chain_id`` is a uint256 in the type
    but por limits it to 64 bits because the signature record is por-cbor/1,
    which has no bignums."""

    chain_id: int
    verifying_contract: bytes
    name: str = DEFAULT_DOMAIN_NAME
    version: str = DEFAULT_DOMAIN_VERSION

    def __post_init__(self) -> None:
        _require_text("domain.name", self.name)
        _require_text("domain.version", self.version)
        _require_int("domain.chain_id", self.chain_id, 0, UINT64_MAX)
        _require_bytes("domain.verifying_contract", self.verifying_contract, 20)


@dataclass(frozen=True)
class VerdictStruct:
    """The twelve signed values, in EIP-712 member order (SPEC §8.1).

    Valid by construction: hashes are exactly 32 bytes, outcome is 1 (YES),
    2 (NO) or 3 (INVALID), confidence is 0..10000 basis points, the rest are
    uint64.  ``market_id`` is ``keccak256`` of the market id text
    (:func:`market_id_from_text`).
    """

    market_id: bytes
    outcome: int
    confidence_bps: int
    prompt_spec_hash: bytes
    evidence_root: bytes
    evidence_count: int
    reasoning_root: bytes
    reasoning_count: int
    por_root: bytes
    issued_at: int
    expires_at: int
    nonce: int

    def __post_init__(self) -> None:
        for name, _member, kind in VERDICT_MEMBERS:
            value = getattr(self, name)
            if kind == "bytes32":
                _require_bytes(name, value, 32)
            else:
                low, high = _INT_RANGE[name]
                _require_int(name, value, low, high)


def market_id_from_text(text: str) -> bytes:
    """``marketId`` = keccak256 of the UTF-8 bytes of the market id (SPEC §8.1)."""
    return keccak256(text.encode("utf-8"))


def type_hash() -> bytes:
    """keccak256 of :data:`VERDICT_TYPE` (EIP-712 ``typeHash``)."""
    return _VERDICT_TYPE_HASH


def domain_type_hash() -> bytes:
    """keccak256 of :data:`DOMAIN_TYPE`."""
    return _DOMAIN_TYPE_HASH


def _word(value: int) -> bytes:
    # EIP-712 encodeData: every uintN is a 32-byte big-endian word.
    return value.to_bytes(32, "big")


def domain_separator(domain: Eip712Domain) -> bytes:
    """``hashStruct(EIP712Domain)``: strings hash as keccak256(UTF-8), the
    address is left-padded to 32 bytes (EIP-712 "Definition of encodeData")."""
    return keccak256(
        _DOMAIN_TYPE_HASH
        + keccak256(domain.name.encode("utf-8"))
        + keccak256(domain.version.encode("utf-8"))
        + _word(domain.chain_id)
        + bytes(12)
        + domain.verifying_contract
    )


def struct_hash(verdict: VerdictStruct) -> bytes:
    """``hashStruct(verdict)`` = keccak256(typeHash || twelve 32-byte words)."""
    words = [_VERDICT_TYPE_HASH]
    for name, _member, kind in VERDICT_MEMBERS:
        value = getattr(verdict, name)
        words.append(value if kind == "bytes32" else _word(value))
    return keccak256(b"".join(words))


def signing_digest(verdict: VerdictStruct, domain: Eip712Domain) -> bytes:
    """The 32 bytes both schemes sign: keccak256(0x19 0x01 || domainSeparator
    || hashStruct(verdict)) (EIP-712 "Specification", EIP-191 version 0x01)."""
    return keccak256(b"\x19\x01" + domain_separator(domain) + struct_hash(verdict))


def typed_data(verdict: VerdictStruct, domain: Eip712Domain) -> dict[str, Any]:
    """The EIP-712 JSON form (``types``, ``primaryType``, ``domain``,
    ``message``) that wallets and eth_account's ``encode_typed_data`` accept.
    A display edge: bytes are ``0x``-prefixed lower-case hex."""
    message: dict[str, Any] = {}
    for name, member, kind in VERDICT_MEMBERS:
        value = getattr(verdict, name)
        message[member] = "0x" + value.hex() if kind == "bytes32" else value
    return {
        "types": {
            "EIP712Domain": _members(DOMAIN_TYPE),
            "Verdict": _members(VERDICT_TYPE),
        },
        "primaryType": "Verdict",
        "domain": {
            "name": domain.name,
            "version": domain.version,
            "chainId": domain.chain_id,
            "verifyingContract": "0x" + domain.verifying_contract.hex(),
        },
        "message": message,
    }


def _members(type_string: str) -> list[dict[str, str]]:
    inner = type_string[type_string.index("(") + 1 : -1]
    out = []
    for member in inner.split(","):
        kind, name = member.split(" ")
        out.append({"name": name, "type": kind})
    return out


_VERDICT_TYPE_HASH = keccak256(VERDICT_TYPE.encode("ascii"))
_DOMAIN_TYPE_HASH = keccak256(DOMAIN_TYPE.encode("ascii"))

__all__ = [
    "DEFAULT_DOMAIN_NAME",
    "DEFAULT_DOMAIN_VERSION",
    "DOMAIN_TYPE",
    "OUTCOME_INVALID",
    "OUTCOME_NO",
    "OUTCOME_YES",
    "UINT64_MAX",
    "VERDICT_MEMBERS",
    "VERDICT_TYPE",
    "Eip712Domain",
    "VerdictStruct",
    "domain_separator",
    "domain_type_hash",
    "keccak256",
    "market_id_from_text",
    "signing_digest",
    "struct_hash",
    "type_hash",
    "typed_data",
]
