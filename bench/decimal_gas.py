"""Benchmark: gas of PorDecimal's exact arithmetic (SPEC §3.2, §14.8) through
PorDecimalMath, text in and out, measured in one EVM run.

Runs the committed artifact (contracts/build/PorDecimalMath.json) in revm (pyrevm,
the test extra) with CANCUN rules and reports *execution gas* (a call's gas minus
the 21 000 intrinsic and its EIP-2028 calldata cost), for operands of 1, 8, 16, 32
and 64 characters (64: the canonical cap, with 62 fractional digits or 64 integer
digits), and the ratio to the same call on one-character operands ("1", "2").

    PYTHONPATH=$PWD python bench/decimal_gas.py
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "chain"))
from decimal_support import DecimalMath


def operands(n: int) -> list[tuple[str, str]]:
    """Pairs of canonical decimals of n characters: integers, fractions, mixed signs."""
    if n == 1:
        return [("1", "2")]
    ints = "9" * n
    frac = "0." + "9" * (n - 2)
    neg = "-" + "1" * (n - 1)
    mixed = "1" * (n // 2) + "." + "3" * (n - n // 2 - 1)
    small = "-0." + "7" * (n - 3) if n > 3 else "-1"
    return [(ints, frac), (neg, frac), (mixed, ints), (frac, small)]


def main() -> None:
    math = DecimalMath()
    calls: dict[str, Callable[[str, str], object]] = {
        "cmp": math.cmp,
        "add": math.add,
        "sub": math.sub,
        "absDiffLe": lambda a, b: math.abs_diff_le(a, b, b.lstrip("-")),
    }
    base: dict[str, int] = {}
    print(f"{'call':<10} {'chars':>5} {'median gas':>11} {'max gas':>8} {'x 1-char':>9}")
    for n in (1, 8, 16, 32, 64):
        for name, call in calls.items():
            gas = []
            for a, b in operands(n):
                call(a, b)
                gas.append(math.gas)
            base.setdefault(name, int(median(gas)))
            mid = int(median(gas))
            print(f"{name:<10} {n:>5} {mid:>11} {max(gas):>8} {mid / base[name]:>9.2f}")


if __name__ == "__main__":
    main()
