"""A step-kind executor (``contracts/build/Por<Kind>Exec.json``) in revm, for the
differential tests of the kinds re-executed on chain (SPEC §14.8).

:class:`ExecChecker` deploys the committed artifact once and calls ``execute(bytes)``
as a real message call: ``(won, check id text, execution gas)``, a ``CourtPath(kind)``
revert as ``(False, "court_path:<kind>", 0)``. Compare with
``proof_check_support.python_answer`` on the same bytes.
"""

from __future__ import annotations

import json
from typing import Any

from eth_abi import decode, encode
from proof_check_support import BY_HASH, CALLER, ROOT, TX_BASE_GAS, calldata_gas, court_path
from pyrevm import EVM, BlockEnv, CfgEnv, Env

from por.signing.eip712 import keccak256

_EXECUTE = keccak256(b"execute(bytes)")[:4]


class ExecChecker:
    """One EVM with ``Por<Kind>Exec`` (``name``) deployed."""

    def __init__(self, name: str) -> None:
        path = ROOT / "contracts" / "build" / f"{name}.json"
        artifact: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        self.evm = EVM(env=Env(cfg=CfgEnv(chain_id=31337),
                               block=BlockEnv(number=1, timestamp=1_767_225_600)),
                       spec_id="CANCUN", gas_limit=2**62)
        self.evm.set_balance(CALLER, 10**21)
        self.address = self.evm.deploy(CALLER, bytes.fromhex(artifact["bytecode"][2:]))

    def code_size(self, address: str | None = None) -> int:
        """Deployed code size of ``address`` (the executor by default)."""
        return len(self.evm.basic(address or self.address).code or b"")

    def call(self, data: bytes) -> bytes:
        """A raw message call to the executor (no gas accounting)."""
        return bytes(self.evm.message_call(CALLER, self.address, data))

    def execute(self, proof: bytes) -> tuple[bool, str, int]:
        """``execute(proof)``: (won, check id, execution gas)."""
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
