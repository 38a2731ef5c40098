"""``PorAggregateExec`` (contracts/build) in revm: the committed artifact deployed once
(its constructor creates its reader and selector) and ``execute(bytes)`` called as a
real message call; each answer is ``(won, check id, gas)`` as
:class:`proof_check_support.ProofChecker` gives it."""

from __future__ import annotations

import json
from typing import Any

from eth_abi import decode, encode
from proof_check_support import (
    BY_HASH,
    CALLER,
    ROOT,
    TX_BASE_GAS,
    calldata_gas,
    court_path,
)
from pyrevm import EVM, BlockEnv, CfgEnv, Env

from por.signing.eip712 import keccak256

ARTIFACT = ROOT / "contracts" / "build" / "PorAggregateExec.json"
_EXECUTE = keccak256(b"execute(bytes)")[:4]


def artifact() -> dict[str, Any]:
    """The committed build of ``PorAggregateExec``."""
    return json.loads(ARTIFACT.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


class AggregateExec:
    """One EVM with PorAggregateExec deployed."""

    def __init__(self) -> None:
        self.evm = EVM(env=Env(cfg=CfgEnv(chain_id=31337),
                               block=BlockEnv(number=1, timestamp=1_767_225_600)),
                       spec_id="CANCUN", gas_limit=2**62)
        self.evm.set_balance(CALLER, 10**21)
        self.address = self.evm.deploy(CALLER, bytes.fromhex(artifact()["bytecode"][2:]))

    def execute(self, proof: bytes) -> tuple[bool, str, int]:
        """(won, check id, execution gas); a revert ``CourtPath(kind)`` is
        (False, "court_path:" + the kind's text, 0)."""
        calldata = _EXECUTE + encode(["bytes"], [proof])
        try:
            out = self.evm.message_call(CALLER, self.address, calldata)
        except RuntimeError as exc:
            return False, court_path(str(exc)), 0
        result = self.evm.result
        assert result is not None
        gas = result.gas_used - TX_BASE_GAS - calldata_gas(calldata)
        won, check_id, _root = decode(["bool", "bytes32", "bytes32"], bytes(out))
        return bool(won), BY_HASH[check_id], gas
