"""``PorJudgeExec`` (contracts/build) in revm, and JudgeProofs made from edited bundles.

:class:`JudgeExec` deploys the committed artifact and calls ``check(bytes)`` as a real
message call: ``(won, check id, execution gas)`` with the id turned back into its SPEC
text.  :func:`judge_proof` is por's own builder on a bundle whose commitments are
recomputed; :func:`rejudged` recommits a bundle with the verdict Python's judge gives
on it, so consistent rewrites (lost ``judge.match``) are made as easily as lies.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bundle_edits import recommit
from eth_abi import decode, encode
from proof_check_support import BY_HASH, CALLER, TX_BASE_GAS, calldata_gas
from pyrevm import EVM, BlockEnv, CfgEnv, Env

from por.bundle.layout import Bundle
from por.challenge.batch import ComponentTree
from por.challenge.judge_proof import build_judge_proof, verify_judge_proof
from por.challenge.records import JudgeProof, seal
from por.schemas import DeterministicVerdict
from por.signing.eip712 import keccak256

ARTIFACT = Path(__file__).resolve().parents[2] / "contracts" / "build" / "PorJudgeExec.json"


class JudgeExec:
    """One EVM with PorJudgeExec deployed."""

    def __init__(self) -> None:
        artifact: dict[str, Any] = json.loads(ARTIFACT.read_text(encoding="utf-8"))
        self.evm = EVM(env=Env(cfg=CfgEnv(chain_id=31337),
                               block=BlockEnv(number=1, timestamp=1_767_225_600)),
                       spec_id="CANCUN", gas_limit=2**62)
        self.evm.set_balance(CALLER, 10**21)
        self.address = self.evm.deploy(CALLER, bytes.fromhex(artifact["bytecode"][2:]))
        self.size = len(bytes.fromhex(artifact["deployedBytecode"][2:]))

    def check(self, proof: bytes) -> tuple[bool, str, int]:
        """check(bytes): (won, check id, execution gas)."""
        calldata = keccak256(b"check(bytes)")[:4] + encode(["bytes"], [proof])
        out = self.evm.message_call(CALLER, self.address, calldata)
        result = self.evm.result
        assert result is not None
        gas = result.gas_used - TX_BASE_GAS - calldata_gas(calldata)
        won, check_id, _root = decode(["bool", "bytes32", "bytes32"], bytes(out))
        return bool(won), BY_HASH[check_id], gas


def judge_proof(bundle: Bundle) -> bytes:
    """por's JudgeProof of ``bundle``."""
    return bytes(build_judge_proof(bundle).to_cbor())


def judge_proof_carrying(bundle: Bundle, leaves: list[int]) -> bytes:
    """A JudgeProof of ``bundle`` whose extract parts are step leaves ``leaves`` (any
    choice, as a challenger may send; por's builder picks the cited items' extract steps)."""
    commitments = bundle.commitments
    steps = ComponentTree("reasoning_leaf", bundle.steps, commitments)
    body = {
        "schema": JudgeProof.SCHEMA, "kind": "verdict", "por_root": commitments.por_root,
        "verdict": ComponentTree("verdict", [bundle.verdict], commitments).proof(0).to_dict(),
        "prompt_spec": ComponentTree("prompt_spec", [bundle.prompt_spec],
                                     commitments).proof(0).to_dict(),
        "final_step": steps.proof(len(bundle.steps) - 1).to_dict(),
        "extract_steps": [steps.proof(i).to_dict() for i in leaves],
    }
    return bytes(seal(JudgeProof, body).to_cbor())


def rejudged(bundle: Bundle) -> Bundle | None:
    """``bundle`` recommitted with the verdict the judge gives on its committed trace
    (the references kept), or None when the JudgeProof does not reach the judge."""
    outcome = verify_judge_proof(JudgeProof.from_cbor(judge_proof(bundle)))
    if outcome.recomputed is None:
        return None
    decided = {k: outcome.recomputed.get(k) for k in (
        "market_id", "outcome", "confidence_bps", "resolution_rule_id", "resolution_time")}
    verdict = DeterministicVerdict.from_cbor(bundle.verdict).model_copy(update=decided)
    return recommit(bundle, verdict=verdict.to_cbor())


__all__ = ["JudgeExec", "judge_proof", "judge_proof_carrying", "rejudged"]
