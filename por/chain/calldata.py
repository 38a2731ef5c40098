"""ABI calldata for ``PorVerdictRegistry`` (SPEC §14.2, §14.4).

The function signatures below are the contract's (``contracts/src``); the
selector is the first four bytes of their keccak256.  Arguments are encoded
with ``eth_abi.encode`` (Solidity ABI v2: a static struct is its words in
line, a dynamic one an offset to its tuple).  eth-abi is the ``chain`` extra
and is imported inside the functions, so ``por verify`` never loads it.

``market_id`` is the EIP-712 ``marketId``: keccak256 of the market id text
(SPEC §8.1, :func:`por.signing.eip712.market_id_from_text`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from por.bundle.layout import COMPONENT_INDEX
from por.challenge.records import KIND_COMPONENT, InclusionProof
from por.errors import SignatureError, UnsupportedError
from por.signing.eip712 import VERDICT_MEMBERS, VerdictStruct, keccak256

#: The ``Verdict`` tuple type, members in EIP-712 order (SPEC §8.1).
VERDICT_TUPLE: Final = "(" + ",".join(kind for _f, _m, kind in VERDICT_MEMBERS) + ")"
#: The ``InclusionProof`` tuple: component, leafIndex, treeSize, leaf, leafPath,
#: componentRoot, componentPath (SPEC §14.4).
PROOF_TUPLE: Final = "(uint8,uint64,uint64,bytes,bytes32[],bytes32,bytes32[])"

SUBMIT_VERDICT: Final = f"submitVerdict({VERDICT_TUPLE},address,bytes)"
OPEN_CHALLENGE: Final = f"openChallenge(bytes32,{PROOF_TUPLE})"
CHECK_INCLUSION: Final = f"checkInclusion(bytes32,{PROOF_TUPLE})"
#: The court's ``Ruling`` tuple (SPEC §16.7) and the relay function taking it.
RULING_TUPLE: Final = "(bytes32,bytes32,bytes32,bool,uint8,bytes32,bytes32,uint64,uint64)"
SUBMIT_RULING: Final = f"submitRuling({RULING_TUPLE},bytes)"

#: InclusionProof kind -> the component position the contract takes (SPEC §5.4).
COMPONENT_POSITION: Final[dict[str, int]] = {
    kind: COMPONENT_INDEX[component] for kind, component in KIND_COMPONENT.items()
}

#: The only scheme ``ecrecover`` checks (SPEC §8.4).
CHAIN_SCHEME: Final = "secp256k1-eip712"


def selector(signature: str) -> bytes:
    """The 4-byte function selector: keccak256(signature)[:4]."""
    return keccak256(signature.encode("ascii"))[:4]


def verdict_args(verdict: VerdictStruct) -> tuple[Any, ...]:
    """The ``Verdict`` tuple value, members in EIP-712 order."""
    return tuple(getattr(verdict, name) for name, _member, _kind in VERDICT_MEMBERS)


def inclusion_proof_args(proof: InclusionProof) -> tuple[Any, ...]:
    """The ``InclusionProof`` tuple value of a por InclusionProof (the fields a
    contract needs; ``por_root`` comes from the contract's storage instead)."""
    return (COMPONENT_POSITION[proof.kind], proof.leaf_index, proof.tree_size, proof.leaf,
            list(proof.leaf_path), proof.component_root, list(proof.component_path))


def submit_verdict_calldata(verdict: VerdictStruct, signer: bytes, signature: bytes,
                            *, scheme: str = CHAIN_SCHEME) -> bytes:
    """``submitVerdict(verdict, signer, signature)`` calldata.

    Only ``secp256k1-eip712`` signatures can be checked on chain
    (``chain.scheme``, exit 2); signer and signature lengths are checked here
    (``signature.malformed``) so a bad record never reaches the encoder.
    """
    if scheme != CHAIN_SCHEME:
        raise UnsupportedError("chain.scheme", f"the contract checks {CHAIN_SCHEME} "
                             f"signatures only, not {scheme}",
                             expected=CHAIN_SCHEME, actual=scheme)
    if len(signer) != 20 or len(signature) != 65:
        raise SignatureError("signature.malformed", "a secp256k1 signer is 20 bytes and its "
                             "signature 65", expected="20, 65",
                             actual=f"{len(signer)}, {len(signature)}")
    encode = _encoder()
    args = encode([VERDICT_TUPLE, "address", "bytes"],
                  [verdict_args(verdict), "0x" + signer.hex(), signature])
    return selector(SUBMIT_VERDICT) + args


def open_challenge_calldata(market_id: bytes, proof: InclusionProof) -> bytes:
    """``openChallenge(marketId, proof)`` calldata."""
    return _proof_call(OPEN_CHALLENGE, market_id, proof)


def check_inclusion_calldata(market_id: bytes, proof: InclusionProof) -> bytes:
    """``checkInclusion(marketId, proof)`` calldata (a view: no state change)."""
    return _proof_call(CHECK_INCLUSION, market_id, proof)


def submit_ruling_calldata(ruling: tuple[Any, ...], signature: bytes) -> bytes:
    """``submitRuling(ruling, signature)`` calldata; ``ruling`` is the nine values of
    a ``por.RulingSignature/1`` in EIP-712 order (SPEC §16.7)."""
    if len(signature) != 65:
        raise SignatureError("signature.malformed", "a secp256k1 signature is 65 bytes",
                             expected=65, actual=len(signature))
    encode = _encoder()
    return selector(SUBMIT_RULING) + encode([RULING_TUPLE, "bytes"], [ruling, signature])


def _proof_call(function: str, market_id: bytes, proof: InclusionProof) -> bytes:
    if len(market_id) != 32:
        raise ValueError("market_id must be 32 bytes (keccak256 of the market id text)")
    encode = _encoder()
    return selector(function) + encode(["bytes32", PROOF_TUPLE],
                                       [market_id, inclusion_proof_args(proof)])


def _encoder() -> Callable[[Sequence[str], Sequence[Any]], bytes]:
    try:
        from eth_abi.abi import encode  # noqa: PLC0415 - the chain extra, loaded on use
    except ImportError:  # pragma: no cover - depends on the installed extras
        raise UnsupportedError("usage.extra", "calldata needs the eth-abi encoder: "
                               "pip install 'por[chain]'") from None
    return encode


__all__ = [
    "CHAIN_SCHEME",
    "CHECK_INCLUSION",
    "COMPONENT_POSITION",
    "OPEN_CHALLENGE",
    "PROOF_TUPLE",
    "RULING_TUPLE",
    "SUBMIT_RULING",
    "SUBMIT_VERDICT",
    "VERDICT_TUPLE",
    "check_inclusion_calldata",
    "inclusion_proof_args",
    "open_challenge_calldata",
    "selector",
    "submit_ruling_calldata",
    "submit_verdict_calldata",
    "verdict_args",
]
