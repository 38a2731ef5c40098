"""The common part of a one-step proof's gas (SPEC §10.5 steps 1-6), for splitting a
step executor's gas into the common part and the kind's own part (issue 24 item 7).

``PorMapExec`` runs ``PorOneStepCheck.checkWith``'s common part on any step kind's
proof, then reverts ``CourtPath(kind)`` for a kind that is not ``map``: the execution
gas of that revert (the call's gas minus the 21 000 intrinsic and the EIP-2028 calldata
price) is the common part on that proof, to within the revert's own few hundred gas.
Imported by ``bench/gas_aggregate.py`` and ``bench/deduce_gas.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "chain")]

from eth_abi import encode  # noqa: E402
from exec_support import ExecChecker  # noqa: E402
from proof_check_support import CALLER, TX_BASE_GAS, _selector, calldata_gas  # noqa: E402


class CommonPart:
    """One EVM with ``PorMapExec`` deployed."""

    def __init__(self) -> None:
        self.map = ExecChecker("PorMapExec")

    def gas(self, proof: bytes) -> int:
        """Execution gas of steps 1-6 on ``proof`` (a step of another kind than map)."""
        data = _selector("execute(bytes)") + encode(["bytes"], [proof])
        try:
            self.map.evm.message_call(CALLER, self.map.address, data)
        except RuntimeError:
            result = self.map.evm.result
            assert result is not None
            return int(result.gas_used) - TX_BASE_GAS - calldata_gas(data)
        raise AssertionError("PorMapExec decided a proof of another kind")
