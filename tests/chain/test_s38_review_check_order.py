"""check7's packed numbers and word compare at the edges of their argument (review8, s38).

``PorCheckClaim.number`` packs a numeric claim's canonical decimal as ``mag | scale << 216
| sign << 255`` (magnitude below 10^64 < 2^213, scale at most 62); ``PorCheckStepGroups
.order`` compares two of one sign (``hi`` 0) whose scales are at most 18 apart as words,
the smaller-scale magnitude times 10^diff when it is below 2^196, any other pair by
``PorDecimal.cmp``. The edges: magnitudes 2^196 - 1 / 2^196 (/ +-1) at scales 0, 1, 18,
19 and 20 (so 18 and 19 apart both ways), the same digits at two scales (a factor of
10^diff between the values), the longest texts (64 characters: 10^64 - 1, scale 62),
mixed signs, zero against the smallest of each sign, equal values (ties), and the
non-canonical spellings of zero (``-0``, ``-0.0``, ``0.0``, ``00``) and others.

A scratch harness (``number`` and ``order`` made internal by ``s38_patched``; the
unpacking is ``fold``'s line) answers every pair of the pool in one call; Python's
``Decimal`` is the reference (SPEC §3.2 values). Then real check chunks: 23 items of
markets 08 and 67 (three chunks, P carrying the group), their numeric claims set to runs
of the pool ascending, descending, and ties, recomputed by por and proved: honest lost
``one_step.match`` on chain and in Python, min/max swapped won; and chunks of one item
(a group of one claim), honest and with its min/max text replaced by a neighbour.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

import pytest
from bundle_edits import recommit
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from exec_support import ExecChecker, recomputed
from s38_patched import patched
from scratch_harness import SOLC, raw
from test_onchain_check import chunks_of, many_items
from test_s37_check_order import rewritten, swapped

from por.encoding import decode, encode
from por.numbers import is_canonical_decimal
from por.signing.eip712 import keccak256

CONTRACT = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorCheckClaim} from "./PorCheckClaim.sol";
import {PorCheckStepGroups} from "./PorCheckRecord.sol";
import {PorDecimal} from "./PorDecimal.sol";
contract OrderHarness {
    function numbers(bytes calldata d, uint256[] calldata at)
        external pure returns (bool[] memory ok, uint256[] memory num)
    {
        ok = new bool[](at.length);
        num = new uint256[](at.length);
        for (uint256 i = 0; i < at.length; i++) (ok[i], num[i]) = PorCheckClaim.number(d, at[i]);
    }
    /// every pair's order (row-major), from the packed words as `fold` unpacks them
    function orders(uint256[] calldata a, uint256[] calldata b)
        external pure returns (int256[] memory c)
    {
        PorDecimal.Dec[] memory x = new PorDecimal.Dec[](a.length);
        PorDecimal.Dec[] memory y = new PorDecimal.Dec[](b.length);
        for (uint256 i = 0; i < a.length; i++) x[i] = unpack(a[i]);
        for (uint256 j = 0; j < b.length; j++) y[j] = unpack(b[j]);
        c = new int256[](a.length * b.length);
        for (uint256 i = 0; i < a.length; i++) {
            for (uint256 j = 0; j < b.length; j++) {
                c[i * b.length + j] = PorCheckStepGroups.order(x[i], y[j]);
            }
        }
    }
    function unpack(uint256 num) private pure returns (PorDecimal.Dec memory v) {
        v = PorDecimal.Dec(num >> 255 != 0, 0, num & ((1 << 216) - 1), (num >> 216) & 0xff);
    }
}
"""
PATCH = (
    ("PorCheckClaim.sol", ((
        "function number(bytes calldata d, uint256 value) private",
        "function number(bytes calldata d, uint256 value) internal"),)),
    ("PorCheckRecord.sol", ((
        "function order(PorDecimal.Dec memory a, PorDecimal.Dec memory b) private",
        "function order(PorDecimal.Dec memory a, PorDecimal.Dec memory b) internal"),)),
)
COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorCheckExec")

M196 = 2**196


def _at(digits: str, scale: int, neg: bool = False) -> str:
    """``digits`` with ``scale`` fractional digits (canonical: the caller's digits end in
    a non-zero digit when scale > 0)."""
    if scale == 0:
        return ("-" if neg else "") + digits
    body = (digits[:-scale] or "0") + "." + digits[-scale:].rjust(scale, "0")
    return ("-" if neg else "") + body


def _pool() -> list[str]:
    """Canonical decimals at the compare's edges (both signs)."""
    # 2^196 +- 1; where a magnitude times 10^18 (10^19) passes 2^256; 2^197 - 1
    mags = [M196 - 2, M196 - 1, M196, M196 + 1, 10**59 + 1, 99 * 10**57 + 7,
            2**256 // 10**18 + 1, 2**256 // 10**19 + 1, 2**197 - 1]
    out: list[str] = []
    for m in mags:
        for s in (0, 1, 18, 19, 20):
            out.append(_at(str(m), s))
        out.append(str(m)[:-18])  # the scale-18 form's integer part: 10^18 below it
        out.append(str(m)[:-19] + "." + "9" * 19)  # scale 19 just below the scale-18 form's
    out += ["9" * 64, "9" * 62 + ".9", "0." + "0" * 61 + "1", "1", "0.1", "0.9999999999999999999",
            "1.000000000000000001", "0", "9" * 45 + "." + "9" * 18, "1" + "0" * 44 + "." + "1" * 18]
    out += ["-" + x for x in out if x != "0" and len(x) < 64]
    return list(dict.fromkeys(out))


POOL = _pool()
#: Non-canonical texts (the claim's value rejected): every spelling of zero but "0", and others.
BAD = ["-0", "-0.0", "0.0", "00", "-00", "0.", ".5", "+1", "1.50", "1e5", "01", "-", "",
       "9" * 65, "-" + "9" * 64, " 1", "1 ", "\u0661", "0x10", "1.0", "-0." + "0" * 61 + "0"]


def harness() -> tuple[Any, str]:
    return patched("OrderHarness", CONTRACT, PATCH)


def _call(sig: str, types: list[str], args: list[Any], out: list[str]) -> tuple[Any, ...]:
    data = raw(harness(), keccak256(sig.encode())[:4] + abi_encode(types, args))
    return tuple(abi_decode(out, data))


def _numbers(texts: list[Any]) -> tuple[list[bool], list[int]]:
    doc = encode(texts)
    at, p = [], 1 if len(texts) < 24 else (2 if len(texts) < 256 else 3)
    for t in texts:
        at.append(p)
        p += len(encode(t))
    ok, num = _call("numbers(bytes,uint256[])", ["bytes", "uint256[]"], [doc, at],
                    ["bool[]", "uint256[]"])
    return list(ok), list(num)


def _packed(text: str) -> int:
    neg = text.startswith("-")
    body = text.lstrip("-")
    scale = len(body.split(".")[1]) if "." in body else 0
    return int(body.replace(".", "")) | scale << 216 | int(neg) << 255


@SOLC
def test_numbers_packed() -> None:
    """Every canonical text of the pool packed as its sign, scale and magnitude; every
    other text (and a non-text) answers not ok, 0."""
    assert all(is_canonical_decimal(x) for x in POOL) and len(set(POOL)) == len(POOL)
    assert not any(is_canonical_decimal(x) for x in BAD)
    ok, num = _numbers([*POOL, *BAD, 5, b"1", ["1"]])
    assert ok == [True] * len(POOL) + [False] * (len(BAD) + 3)
    assert num == [_packed(x) for x in POOL] + [0] * (len(BAD) + 3)
    COUNTS["numbers"] += len(ok)


@SOLC
def test_every_pair_ordered() -> None:
    """``order`` on every pair of the pool (both ways, each with itself) = the sign of a - b."""
    _, num = _numbers(POOL)
    (c,) = _call("orders(uint256[],uint256[])", ["uint256[]", "uint256[]"], [num, num],
                 ["int256[]"])
    values = [Decimal(x) for x in POOL]
    n = len(POOL)
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            assert c[i * n + j] == (a > b) - (a < b), (POOL[i], POOL[j], c[i * n + j])
    COUNTS["pairs"] += n * n


def _runs() -> dict[str, list[str]]:
    """Runs of claim values: each new value a new max (or min) at another scale or across
    the 2^196 edge, ties (the first claim stays the group's min and max)."""
    pos = sorted((x for x in POOL if not x.startswith("-")), key=Decimal)
    near = [x for x in pos if Decimal(10**40) < Decimal(x) < Decimal(2**197) and len(x) < 64]
    return {
        "up": near[::2][:23], "down": near[::-3][:23],
        "neg_up": ["-" + x for x in near[::-2]][:23],
        "mixed": [v for x in near[1::4] for v in (x, "-" + x)][:23],
        "ties": [near[3], near[5], near[3], near[5], _at(str(M196), 18), _at(str(M196), 18),
                 str(M196)[:-18], "-" + str(M196), "-" + str(M196)],
        # a scale-0 magnitude A whose product with 10^19 (10^18) passes 2^256 (wrapped,
        # below 10^19), against 0.99..9 at scale 19 (18): a wrapped product orders it above A
        "wrap": [str(2**256 // 10**19 + 1), "0." + "9" * 19, str(2**256 // 10**18 + 1),
                 "0." + "9" * 18, "-" + str(2**256 // 10**18 + 1), "-0." + "9" * 18,
                 str(2**197 - 1), "1." + "9" * 18],
        "long": ["9" * 64, "0." + "0" * 61 + "1", "-" + "9" * 63, "9" * 62 + ".9", "0",
                 "-0." + "0" * 60 + "1", "9" * 63],
    }


RUNS = _runs()


@pytest.mark.parametrize("name", ["08-quorum-agree", "67-two-of-three-below"])
@pytest.mark.parametrize("run", sorted(RUNS))
def test_chunks_on_runs(name: str, run: str) -> None:
    bundle, chunks = rewritten(many_items(name, 23), RUNS[run])
    for index in chunks:
        answer = _CHAIN.compare(bundle, index, "runs.honest", COUNTS)
        assert answer is not None and answer[:2] == (False, "one_step.match"), (run, index)
        forged = swapped(bundle, index)
        if forged is not None:
            answer = _CHAIN.compare(forged, index, "runs.swapped", COUNTS)
            assert answer is not None and answer[0], (run, index)


def _group_value(bundle: Any, index: int, which: str, value: Any) -> Any:
    steps = list(bundle.steps)
    step = decode(steps[index])
    for group in step["output"]["groups"]:
        if group["kind"] == "numeric":
            group[which]["value"] = value
    steps[index] = encode(step)
    return recommit(bundle, steps=steps)


@pytest.mark.parametrize("count", [1, 11])
@pytest.mark.parametrize("value", [str(M196), _at(str(M196 - 1), 19), "-" + "9" * 63, "0", "-0.1"])
def test_group_of_one_claim(count: int, value: str) -> None:
    """One item in a chunk (1 item: a group of one claim; 11: the second chunk folds one
    claim into P's group): honest, and its min (then max) text changed to a neighbour."""
    bundle, chunks = rewritten(many_items("08-quorum-agree", count), [value])
    for index in chunks:
        answer = _CHAIN.compare(bundle, index, "one.honest", COUNTS)
        assert answer is not None and answer[:2] == (False, "one_step.match"), (value, index)
        out = decode(bundle.steps[index])["output"]
        groups = [g for g in out["groups"] if g["kind"] == "numeric"]
        for which in ("min", "max"):
            lie = str(Decimal(groups[0][which]["value"]) + 1)
            forged = _group_value(bundle, index, which, lie)
            answer = _CHAIN.compare(forged, index, "one.lie", COUNTS)
            assert answer is not None and answer[0], (value, which)


@pytest.mark.parametrize("value", BAD)
def test_non_canonical_claim(value: str) -> None:
    """A claim value that is no canonical decimal (``-0``, ``0.0``, 65 characters...) in
    the last chunk's items, the chunk left as written: chain = Python (not a match)."""
    bundle = many_items("08-quorum-agree", 11)
    steps = list(bundle.steps)
    last: dict[str, Any] = {}
    index = chunks_of(bundle)[-1]
    for i, raw_step in enumerate(steps[:index]):
        step = decode(raw_step)
        kind = step.get("inputs", {}).get("kind")
        if kind == "extract_claims" and step.get("evidence_ids") == ["ev-010"]:
            for claim in step["output"]["claims"]:
                if claim["kind"] == "numeric":
                    claim["value"] = value
            steps[i] = encode(step)
            last = step
    assert last.get("evidence_ids") == ["ev-010"]
    answer = _CHAIN.compare(recommit(bundle, steps=steps), index, "bad", COUNTS)
    assert answer is not None and answer[1] != "one_step.match", (value, answer)


#: P's carried min/max texts (parsed once a group, compared with the packed claims):
#: extremes of both signs and scales, values equal to a claim's, and malformed ones.
CARRIED: list[Any] = ["9" * 64, "-" + "9" * 63, "0." + "0" * 61 + "1", str(M196),
                      _at(str(M196 - 1), 18), str(2**256 // 10**19 + 1), "0", "-0.1", "251.4",
                      "251.4000000000000000001", "251.39", "-0", "1.50", "0.0", "", "9" * 65,
                      251, True]


@pytest.mark.parametrize("value", CARRIED, ids=[repr(v)[:12] for v in CARRIED])
def test_carried_group_values(value: Any) -> None:
    """The first chunk's numeric group min (then max) text set to ``value``; the second
    chunk (which carries it in P) kept and recomputed: chain = Python."""
    bundle = many_items("08-quorum-agree", 23)
    first, second = chunks_of(bundle)[:2]
    for which in ("min", "max"):
        steps = list(_group_value(bundle, first, which, value).steps)
        _CHAIN.compare(recommit(bundle, steps=steps), second, "carried.kept", COUNTS)
        again = recomputed(bundle, steps, second)
        if again is not None:
            steps[second] = again
            _CHAIN.compare(recommit(bundle, steps=steps), second, "carried.rewritten", COUNTS)


def test_case_count() -> None:
    assert COUNTS["runs.honest"] == 3 * 2 * len(RUNS), COUNTS
    assert COUNTS["runs.swapped"] >= 2 * len(RUNS), COUNTS
    assert COUNTS["one.lie"] >= 16, COUNTS
    assert COUNTS["bad"] == len(BAD), COUNTS
    assert COUNTS["carried.kept"] == 2 * len(CARRIED), COUNTS
