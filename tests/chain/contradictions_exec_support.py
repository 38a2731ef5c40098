"""A step-kind executor (``contracts/build/Por<Kind>Exec.json``) in revm.

:class:`ExecChecker` deploys the committed artifact of one executor and calls its
``execute(bytes)`` (an executor may deploy a second contract in its constructor) on a
``por.OneStepProof/1`` that passed the §2 reader, as the router
does (SPEC §14.8); each answer is ``(won, check id, gas)``, a ``CourtPath(kind)``
revert ``(False, "court_path:<kind>", 0)``. ``code_size`` is the deployed size the
24 576-byte limit (EIP-170) bounds.
"""

from __future__ import annotations

import json
from typing import Any

from eth_abi import decode, encode
from proof_check_support import (
    BY_HASH,
    CALLER,
    ROOT,
    TX_BASE_GAS,
    _selector,
    calldata_gas,
    court_path,
)
from pyrevm import EVM, BlockEnv, CfgEnv, Env

#: EIP-170's limit on deployed code.
CODE_LIMIT = 24_576


def code_size(name: str) -> int:
    """The deployed size of the committed artifact ``contracts/build/<name>.json``."""
    path = ROOT / "contracts" / "build" / f"{name}.json"
    artifact: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return (len(artifact["deployedBytecode"]) - 2) // 2


class ExecChecker:
    """One EVM with ``Por<kind>Exec`` deployed (the code-size limit lifted, so a test
    can report an oversize build instead of failing to deploy it)."""

    def __init__(self, name: str) -> None:
        path = ROOT / "contracts" / "build" / f"{name}.json"
        artifact: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        self.code_size = code_size(name)
        self.evm = EVM(env=Env(cfg=CfgEnv(chain_id=31337, limit_contract_code_size=2**20),
                               block=BlockEnv(number=1, timestamp=1_767_225_600)),
                       spec_id="CANCUN", gas_limit=2**62)
        self.evm.set_balance(CALLER, 10**21)
        self.address = self.evm.deploy(CALLER, bytes.fromhex(artifact["bytecode"][2:]))

    def execute(self, proof: bytes) -> tuple[bool, str, int]:
        """execute(proof): (won, check id, execution gas)."""
        calldata = _selector("execute(bytes)") + encode(["bytes"], [proof])
        try:
            out = self.evm.message_call(CALLER, self.address, calldata)
        except RuntimeError as exc:
            return False, court_path(str(exc)), 0
        result = self.evm.result
        assert result is not None
        gas = result.gas_used - TX_BASE_GAS - calldata_gas(calldata)
        won, check_id, _root = decode(["bool", "bytes32", "bytes32"], bytes(out))
        return bool(won), BY_HASH[check_id], gas
