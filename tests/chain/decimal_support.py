"""``PorDecimalMath`` (contracts/build) in revm: PorDecimal's arithmetic, text in and out.

Each call is a real message call to the committed artifact; gas is execution gas
(total minus the 21 000 intrinsic and the EIP-2028 calldata price), as
``proof_check_support`` computes it.
"""

from __future__ import annotations

from typing import Any

from eth_abi import decode, encode
from exec_support import ExecChecker
from proof_check_support import message_call

from por.signing.eip712 import keccak256


class DecimalMath:
    """One EVM with PorDecimalMath deployed; ``gas`` is the last call's execution gas."""

    def __init__(self) -> None:
        self.chain = ExecChecker("PorDecimalMath")
        self.gas = 0

    def _call(self, signature: str, types: list[str], args: list[Any], out: list[str]) -> Any:
        calldata = keccak256(signature.encode("ascii"))[:4] + encode(types, args)
        raw, self.gas = message_call(self.chain.evm, self.chain.address, calldata)
        return decode(out, raw)

    def cmp(self, a: str, b: str) -> tuple[bool, int]:
        ok, c = self._call("cmp(string,string)", ["string", "string"], [a, b], ["bool", "int256"])
        return bool(ok), int(c)

    def add(self, a: str, b: str) -> tuple[bool, bool, str]:
        return self._text("add(string,string)", [a, b])

    def sub(self, a: str, b: str) -> tuple[bool, bool, str]:
        return self._text("sub(string,string)", [a, b])

    def sum(self, terms: list[str]) -> tuple[bool, bool, str]:
        ok, fits, text = self._call("sum(string[])", ["string[]"], [terms],
                                    ["bool", "bool", "string"])
        return bool(ok), bool(fits), str(text)

    def abs_diff_le(self, a: str, b: str, t: str) -> tuple[bool, bool]:
        ok, le = self._call("absDiffLe(string,string,string)", ["string"] * 3, [a, b, t],
                            ["bool", "bool"])
        return bool(ok), bool(le)

    def _text(self, signature: str, args: list[str]) -> tuple[bool, bool, str]:
        ok, fits, text = self._call(signature, ["string", "string"], args,
                                    ["bool", "bool", "string"])
        return bool(ok), bool(fits), str(text)
