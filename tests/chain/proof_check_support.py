"""``PorProofCheck`` (contracts/build) in revm, and the Python side it must agree with.

:class:`ProofChecker` deploys the committed artifact once and calls its view
functions as real message calls; each answer is ``(won, check id, gas)`` with the
check id turned back into its SPEC text (the contract returns keccak256 of it).
:func:`python_answer` is ``por check-proof``'s library answer for the same bytes,
so a differential test compares two tuples.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from deployment import deploy_checker
from eth_abi import decode, encode
from pyrevm import EVM, BlockEnv, CfgEnv, Env

from por.bundle.layout import Bundle
from por.challenge import check_proof
from por.challenge.batch import ComponentTree
from por.challenge.records import CitationProof, seal
from por.signing.eip712 import keccak256

ROOT = Path(__file__).resolve().parents[2]
CALLER = "0x" + "c4" * 20
#: Intrinsic gas of a call transaction, and calldata's EIP-2028 price.
TX_BASE_GAS = 21_000

#: Every id the contract can return (SPEC §2, §10.8); keccak256 -> text.
IDS = [
    "codec.empty", "codec.truncated", "codec.trailing_bytes", "codec.reserved",
    "codec.indefinite", "codec.non_canonical", "codec.key_type", "codec.key_order",
    "codec.duplicate_key", "codec.float", "codec.simple", "codec.tag", "codec.invalid_utf8",
    "codec.depth", "proof.malformed", "proof.schema", "proof.unsupported", "proof.kind",
    "proof.component",
    "proof.por_root", "proof.leaf_path", "proof.component_path", "proof.challenge_id",
    "proof.citations", "proof.final_step", "merkle.index_range", "merkle.proof_length",
    "one_step.invalid_record", "one_step.id_position", "one_step.citation_repeat",
    "one_step.citation_order", "one_step.citation_set", "one_step.prior_order",
    "one_step.citations_canonical", "judge.match", "judge.mismatch", "judge.final_step",
    "one_step.match", "one_step.mismatch", "one_step.unexecutable",
    "omission.uncited_item", "omission.extract_position", "omission.cited",
    "omission.not_a_check", "omission.other_requirement", "omission.other_chunk",
]
BY_HASH = {keccak256(name.encode("ascii")): name for name in IDS}


def _selector(signature: str) -> bytes:
    return keccak256(signature.encode("ascii"))[:4]


def calldata_gas(data: bytes) -> int:
    """EIP-2028: 4 gas per zero byte, 16 per other byte."""
    return len(data) * 16 - data.count(0) * 12


def new_evm(**cfg: Any) -> EVM:
    """A Cancun revm (chain 31337, block 1) with ``CALLER`` funded; ``cfg`` goes to
    ``CfgEnv``."""
    evm = EVM(env=Env(cfg=CfgEnv(chain_id=31337, **cfg),
                      block=BlockEnv(number=1, timestamp=1_767_225_600)),
              spec_id="CANCUN", gas_limit=2**62)
    evm.set_balance(CALLER, 10**21)
    return evm


def message_call(evm: EVM, address: str, calldata: bytes) -> tuple[bytes, int]:
    """A real message call from ``CALLER``: (output, execution gas), the gas being the
    total minus the 21 000 intrinsic and the EIP-2028 calldata price."""
    out = evm.message_call(CALLER, address, calldata)
    result = evm.result
    assert result is not None
    return bytes(out), result.gas_used - TX_BASE_GAS - calldata_gas(calldata)


def answer(evm: EVM, address: str, signature: str, proof: bytes) -> tuple[bool, str, int]:
    """``signature(proof)`` returning (bool won, bytes32 checkId, bytes32 root): (won,
    check id text, execution gas); a revert ``CourtPath(kind)`` is
    (False, "court_path:" + the kind's text, 0)."""
    try:
        out, gas = message_call(evm, address, _selector(signature) + encode(["bytes"], [proof]))
    except RuntimeError as exc:
        return False, court_path(str(exc)), 0
    won, check_id, _root = decode(["bool", "bytes32", "bytes32"], out)
    return bool(won), BY_HASH[check_id], gas


class ProofChecker:
    """One EVM with the executors and PorProofCheck deployed (deployment.py)."""

    def __init__(self, extra: tuple[bytes, ...] = ()) -> None:
        """``extra``: creation codes of executors deployed after the listed ones."""
        self.evm = new_evm()
        self.address = deploy_checker(lambda code: str(self.evm.deploy(CALLER, code)), extra)

    def _call(self, signature: str, data: bytes) -> tuple[bytes, int]:
        return message_call(self.evm, self.address,
                            _selector(signature) + encode(["bytes"], [data]))

    def cbor(self, data: bytes) -> str | None:
        """checkCbor: None for an accepted document, else the codec id."""
        out, _ = self._call("checkCbor(bytes)", data)
        check_id, _offset = decode(["bytes32", "uint256"], out)
        return None if check_id == bytes(32) else BY_HASH[check_id]

    def citation(self, proof: bytes) -> tuple[bool, str, int]:
        """checkCitationProof: (won, check id, execution gas)."""
        return answer(self.evm, self.address, "checkCitationProof(bytes)", proof)

    def any_proof(self, proof: bytes) -> tuple[bool, str, int]:
        """checkProof (the registry's call): (won, check id, execution gas); a revert
        ``CourtPath(kind)`` is (False, "court_path:" + the kind's text, 0)."""
        return answer(self.evm, self.address, "checkProof(bytes)", proof)

    def same_as_python(self, proof: bytes, name: str, counts: Counter[str]) -> None:
        """checkProof's (won, check id) must be ``por check-proof``'s; the outcome is
        counted in ``counts`` as ``won:<id>`` or ``lost:<id>``."""
        won, check_id, _gas = self.any_proof(proof)
        assert (won, check_id) == python_answer(proof), name
        counts[f"{'won' if won else 'lost'}:{check_id}"] += 1


#: Step kinds (inputs.kind) by keccak256, for CourtPath reverts.
KINDS = {keccak256(k.encode("ascii")): k for k in (
    "extract_claims", "check_requirement", "aggregate", "contradictions", "deduce", "map")}
_COURT_PATH = _selector("CourtPath(bytes32)").hex()


def court_path(message: str) -> str:
    """``court_path:<kind>`` for a revert ``CourtPath(keccak256(kind))`` in pyrevm's
    error text; anything else is re-raised."""
    found = re.search(r"output: 0x([0-9a-f]*)", message)
    data = bytes.fromhex(found.group(1)) if found else b""
    if data[:4].hex() != _COURT_PATH:
        raise RuntimeError(message)
    return "court_path:" + KINDS.get(data[4:36], data[4:36].hex())


def python_answer(proof: bytes) -> tuple[bool, str]:
    """``por check-proof``'s answer: (won, the outcome's reason or the failing check id)."""
    report = check_proof(proof)
    if report.status == "valid" and report.outcome is not None:
        return report.outcome.outcome == "won", report.outcome.reason
    return False, report.check_id


def citation_proof(bundle: Bundle, step: int, items: list[int],
                   priors: list[int] | None = None) -> bytes:
    """A CitationProof of step leaf ``step`` carrying step leaves ``items`` as its
    extract steps (leaf i extracts evidence leaf i in an honest bundle) and, for rule
    S5, step leaves ``priors`` as its ``prior_steps``: any choice, as a challenger may
    send (por's builder only makes won ones)."""
    commitments = bundle.commitments
    steps = ComponentTree("reasoning_leaf", bundle.steps, commitments)
    body = {"schema": CitationProof.SCHEMA, "kind": "reasoning_leaf",
            "por_root": commitments.por_root, "step": steps.proof(step).to_dict(),
            "extract_steps": [steps.proof(i).to_dict() for i in items]}
    if priors is not None:
        body["prior_steps"] = [steps.proof(i).to_dict() for i in priors]
    return bytes(seal(CitationProof, body).to_cbor())
