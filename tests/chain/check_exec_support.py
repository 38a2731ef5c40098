"""``PorCheckExec`` (contracts/build) in revm: the ``check_requirement`` executor
(SPEC §14.8) deployed on its own and called as the router calls it."""

from __future__ import annotations

import json
from typing import Any

from eth_abi import decode, encode
from proof_check_support import BY_HASH, CALLER, ROOT, TX_BASE_GAS, calldata_gas, court_path
from pyrevm import EVM, BlockEnv, CfgEnv, Env

from por.signing.eip712 import keccak256

ARTIFACT = ROOT / "contracts" / "build" / "PorCheckExec.json"
#: EIP-170's limit on deployed code.
CODE_LIMIT = 24_576


def deployed_size(name: str = "PorCheckExec") -> int:
    """Deployed bytes of a committed artifact."""
    path = ROOT / "contracts" / "build" / f"{name}.json"
    artifact: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return (len(artifact["deployedBytecode"]) - 2) // 2


class CheckExecutor:
    """One EVM with PorCheckExec deployed (EIP-170 and EIP-3860 in force: its
    constructor deploys PorCheckCompute)."""

    def __init__(self) -> None:
        artifact: dict[str, Any] = json.loads(ARTIFACT.read_text(encoding="utf-8"))
        block = BlockEnv(number=1, timestamp=1_767_225_600)
        self.evm = EVM(env=Env(cfg=CfgEnv(chain_id=31337), block=block), spec_id="CANCUN",
                       gas_limit=2**62)
        self.evm.set_balance(CALLER, 10**21)
        self.address = self.evm.deploy(CALLER, bytes.fromhex(artifact["bytecode"][2:]))

    def execute(self, proof: bytes) -> tuple[bool, str, int]:
        """execute(bytes): (won, check id, execution gas); a revert CourtPath(kind) is
        (False, "court_path:" + kind, 0)."""
        calldata = keccak256(b"execute(bytes)")[:4] + encode(["bytes"], [proof])
        try:
            out = self.evm.message_call(CALLER, self.address, calldata)
        except RuntimeError as exc:
            return False, court_path(str(exc)), 0
        result = self.evm.result
        assert result is not None
        gas = result.gas_used - TX_BASE_GAS - calldata_gas(calldata)
        won, check_id, _root = decode(["bool", "bytes32", "bytes32"], bytes(out))
        return bool(won), BY_HASH[check_id], gas
