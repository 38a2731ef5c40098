"""ABI calldata for ``PorVerdictRegistry`` (SPEC §14.2, §14.4), and its challenge id.

The function signatures below are the contract's (``contracts/src``); the
selector is the first four bytes of their keccak256.  Arguments are encoded
with ``eth_abi.encode`` (Solidity ABI v2: a static struct is its words in
line, a dynamic one an offset to its tuple).  eth-abi is the ``chain`` extra
and is imported inside the functions, so ``por verify`` never loads it.

``market_id`` is the EIP-712 ``marketId``: keccak256 of the market id text
(SPEC §8.1, :func:`por.signing.eip712.market_id_from_text`); ``market_key`` is what
the registry keys every record, round, challenge and proof by: ``keccak256(abi.encode(
marketId, promptSpecHash))`` (SPEC §14.2, ADR 0018), computed here only
(:func:`market_key`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from por.bundle.layout import COMPONENT_INDEX
from por.challenge.records import KIND_COMPONENT, FormStepProof, InclusionProof
from por.errors import SignatureError, UnsupportedError
from por.signing.eip712 import VERDICT_MEMBERS, VerdictStruct, keccak256

#: The ``Verdict`` tuple type, members in EIP-712 order (SPEC §8.1).
VERDICT_TUPLE: Final = "(" + ",".join(kind for _f, _m, kind in VERDICT_MEMBERS) + ")"
#: The ``InclusionProof`` tuple: component, leafIndex, treeSize, leaf, leafPath,
#: componentRoot, componentPath (SPEC §14.4).
PROOF_TUPLE: Final = "(uint8,uint64,uint64,bytes,bytes32[],bytes32,bytes32[])"

PROPOSE_VERDICT: Final = f"proposeVerdict({VERDICT_TUPLE},bytes32[],address,bytes)"
OPEN_CHALLENGE: Final = f"openChallenge(bytes32,bytes32,{PROOF_TUPLE})"
CHECK_INCLUSION: Final = f"checkInclusion(bytes32,{PROOF_TUPLE})"
#: The court's ``Ruling`` tuple (SPEC §16.7) and the relay function taking it.
RULING_TUPLE: Final = "(bytes32,bytes32,bytes32,bool,uint8,bytes32,bytes32,uint64,uint64)"
SUBMIT_RULING: Final = f"submitRuling({RULING_TUPLE},bytes,address)"
FINALIZE: Final = "finalize(bytes32)"
WITHDRAW: Final = "withdraw()"
CLOSE_MOOT: Final = "closeMoot(bytes32)"
#: Strike a proposed verdict with a won one-step proof, no resolver (SPEC §14.4).
SETTLE_BY_PROOF: Final = "settleByProof(bytes32,bytes)"
#: Strike with a won por.FormStepProof/1 sent by ABI (SPEC §14.4): its kind and the
#: forms executor's arguments.
SETTLE_BY_FORMS: Final = "settleByForms(bytes32,bytes32,bytes)"
#: A FormStepProof's inclusion: porRoot, forms size, index, paths, component path
#: (``PorForms.Inclusion``, SPEC §14.8).
FORMS_INCLUSION_TUPLE: Final = "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"
#: Commit to a proof a block before settling it, so a copy pays its copier nothing.
COMMIT_PROOF: Final = "commitProof(bytes32)"
#: Void a market whose challenge the court left unruled past its timeout (SPEC §14.4).
LAPSE: Final = "lapse(bytes32)"

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


def market_key(market_id: bytes, prompt_spec_hash: bytes) -> bytes:
    """The registry's market key (SPEC §14.2, ADR 0018): ``keccak256(abi.encode(marketId,
    promptSpecHash))``, both as the Verdict signs them; the contract's ``marketKeyOf``."""
    _require32(market_id, "market_id")
    _require32(prompt_spec_hash, "prompt_spec_hash")
    return keccak256(market_id + prompt_spec_hash)


def leaf_id(market_key: bytes, component: int, leaf_index: int) -> bytes:
    """``keccak256(abi.encode(marketKey, component, leafIndex))``: a committed leaf
    position, the DisputeCase's ``challenge_id`` and the Ruling's (SPEC §14.4, §16.2)."""
    return keccak256(market_key + component.to_bytes(32, "big") + leaf_index.to_bytes(32, "big"))


def challenge_id(leaf: bytes, leaf_hash: bytes, challenger: bytes, case_hash: bytes) -> bytes:
    """The registry's one challenge id (SPEC §14.4): ``keccak256(abi.encode(leafId,
    leafHash, challenger, caseHash))``, what ``openChallenge`` returns and a Ruling
    relayed for ``challenger`` settles."""
    if len(challenger) != 20:
        raise ValueError("challenger must be a 20-byte address")
    return keccak256(leaf + leaf_hash + bytes(12) + challenger + case_hash)


def settlement_id(market_key: bytes, proof: bytes) -> bytes:
    """The id ``settleByProof`` strikes with (SPEC §14.4): ``keccak256(abi.encode(marketKey,
    keccak256(proof)))``, the proof file's exact bytes; for ``settleByForms``, ``proof`` is
    ``kind || args`` (:func:`form_step_args`), what it hashes."""
    _require32(market_key, "market_key")
    return keccak256(market_key + keccak256(proof))


def proof_commitment(market_key: bytes, proof: bytes, committer: bytes) -> bytes:
    """What ``commitProof`` stores (SPEC §14.4): ``keccak256(abi.encode(marketKey,
    keccak256(proof), committer))``; ``settleByProof`` pays only ``committer``, and only
    in a later block. For ``settleByForms``, ``proof`` is ``kind || args``."""
    _require32(market_key, "market_key")
    if len(committer) != 20:
        raise ValueError("committer must be a 20-byte address")
    return keccak256(market_key + keccak256(proof) + bytes(12) + committer)


def settle_by_proof_calldata(market_key: bytes, proof: bytes) -> bytes:
    """``settleByProof(marketKey, proof)`` calldata (no value): ``proof`` is the exact
    bytes of a proof file (a ``por.CitationProof/2``)."""
    _require32(market_key, "market_key")
    return selector(SETTLE_BY_PROOF) + _encoder()(["bytes32", "bytes"], [market_key, proof])


def form_step_args(proof: FormStepProof) -> tuple[bytes, bytes]:
    """(kind, args) of ``settleByForms`` for a FormStepProof (SPEC §14.4): ``kind =
    keccak256("form:" || proof.kind)``, ``args = abi.encode(forms, (por_root, forms_size,
    index, paths, forms_path))``, the forms executor's call data after its selector. The
    proof hash is ``keccak256(kind || args)``."""
    kind = keccak256(b"form:" + proof.kind.encode("ascii"))
    inclusion = (proof.por_root, proof.forms_size, list(proof.index),
                 [list(path) for path in proof.paths], list(proof.forms_path))
    args = _encoder()(["bytes[]", FORMS_INCLUSION_TUPLE], [list(proof.forms), inclusion])
    return kind, args


def settle_by_forms_calldata(market_key: bytes, kind: bytes, args: bytes) -> bytes:
    """``settleByForms(marketKey, kind, args)`` calldata (no value), ``(kind, args)`` from
    :func:`form_step_args`."""
    _require32(market_key, "market_key")
    _require32(kind, "kind")
    return selector(SETTLE_BY_FORMS) + _encoder()(["bytes32", "bytes32", "bytes"],
                                                  [market_key, kind, args])


def propose_verdict_calldata(verdict: VerdictStruct, prompt_spec_path: Sequence[bytes],
                             signer: bytes, signature: bytes,
                             *, scheme: str = CHAIN_SCHEME) -> bytes:
    """``proposeVerdict(verdict, promptSpecPath, signer, signature)`` calldata (sent with
    the bond); ``prompt_spec_path`` is the 3 hashes of PATH(1, 7) over the bundle's
    component leaves (SPEC §5.4), which bind the signed ``promptSpecHash`` to ``porRoot``.

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
    for item in prompt_spec_path:
        _require32(item, "prompt_spec_path item")
    encode = _encoder()
    args = encode([VERDICT_TUPLE, "bytes32[]", "address", "bytes"],
                  [verdict_args(verdict), list(prompt_spec_path), "0x" + signer.hex(), signature])
    return selector(PROPOSE_VERDICT) + args


def open_challenge_calldata(market_key: bytes, case_hash: bytes, proof: InclusionProof) -> bytes:
    """``openChallenge(marketKey, caseHash, proof)`` calldata (sent with the bond)."""
    _require32(case_hash, "case_hash")
    return _proof_call(OPEN_CHALLENGE, market_key, proof, case_hash)


def check_inclusion_calldata(market_key: bytes, proof: InclusionProof) -> bytes:
    """``checkInclusion(marketKey, proof)`` calldata (a view: no state change)."""
    return _proof_call(CHECK_INCLUSION, market_key, proof)


def submit_ruling_calldata(ruling: tuple[Any, ...], signature: bytes,
                           challenger: bytes) -> bytes:
    """``submitRuling(ruling, signature, challenger)`` calldata; ``ruling`` is the nine
    values of a ``por.RulingSignature/1`` in EIP-712 order (SPEC §16.7), ``challenger``
    the account that opened the challenge on the ruling's case."""
    if len(signature) != 65:
        raise SignatureError("signature.malformed", "a secp256k1 signature is 65 bytes",
                             expected=65, actual=len(signature))
    if len(challenger) != 20:
        raise ValueError("challenger must be a 20-byte address")
    encode = _encoder()
    return selector(SUBMIT_RULING) + encode([RULING_TUPLE, "bytes", "address"],
                                            [ruling, signature, "0x" + challenger.hex()])


def market_calldata(function: str, word: bytes) -> bytes:
    """A one-``bytes32`` call: ``finalize(marketKey)``, ``closeMoot(challengeId)``,
    ``lapse(challengeId)`` or ``commitProof(commitment)`` (the selector and the word;
    no encoder needed)."""
    _require32(word, "argument")
    return selector(function) + word


def withdraw_calldata() -> bytes:
    """``withdraw()`` calldata: the selector alone."""
    return selector(WITHDRAW)


def _require32(value: bytes, name: str) -> None:
    if len(value) != 32:
        raise ValueError(f"{name} must be 32 bytes")


def _proof_call(function: str, market_key: bytes, proof: InclusionProof,
                *middle: bytes) -> bytes:
    _require32(market_key, "market_key")
    encode = _encoder()
    types = ["bytes32"] * (1 + len(middle)) + [PROOF_TUPLE]
    return selector(function) + encode(types, [market_key, *middle,
                                               inclusion_proof_args(proof)])


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
    "CLOSE_MOOT",
    "COMMIT_PROOF",
    "COMPONENT_POSITION",
    "FINALIZE",
    "FORMS_INCLUSION_TUPLE",
    "LAPSE",
    "OPEN_CHALLENGE",
    "PROOF_TUPLE",
    "PROPOSE_VERDICT",
    "RULING_TUPLE",
    "SETTLE_BY_FORMS",
    "SETTLE_BY_PROOF",
    "SUBMIT_RULING",
    "VERDICT_TUPLE",
    "WITHDRAW",
    "challenge_id",
    "check_inclusion_calldata",
    "form_step_args",
    "inclusion_proof_args",
    "leaf_id",
    "market_calldata",
    "market_key",
    "open_challenge_calldata",
    "proof_commitment",
    "propose_verdict_calldata",
    "selector",
    "settle_by_forms_calldata",
    "settle_by_proof_calldata",
    "settlement_id",
    "submit_ruling_calldata",
    "verdict_args",
    "withdraw_calldata",
]
