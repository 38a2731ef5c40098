"""The s37 decimal readers at their edges, each against Python's SPEC §3.2 (ADR 0013,
s37 contra6 and agg6 addenda).

* ``PorContradictionsDecimal.end`` (contra6: a canonical decimal in one pass) must
  accept exactly ``por.numbers.is_canonical_decimal``'s texts and say the sign;
* ``PorContradictionsDecimal.exceeds`` (contra6: ``|a - b| > t`` in one word for texts
  of at most 23 characters) must say ``fast`` iff all three have at most 23 characters
  and then decide exactly as ``decimal.Decimal``;
* ``PorAggregateNumber.text`` / ``isDecimal`` (agg6: a word at a time from 28
  characters) must accept exactly the canonical texts and pack the value
  ``m << 8 | scale << 1 | neg``.

The texts sit at the cuts' edges: 1-3, 21-25, 27-29, 31-33 and 62-65 characters (one-byte
head / 0x78 head; the 23-character fast bound; WORDWISE = 28; a 32-byte word's end; the
64-character cap), with a sign, a leading zero, a trailing zero after the point, "-0",
"-0.0", a point first or last, and one character replaced at the first, the last and
each word edge by the bytes around the digits ("/", ":", ".", "-", "+", "e", " ", "0",
a two-byte letter). ``exceeds`` gets pairs of both signs whose distance equals the
tolerance exactly, or is one unit of the 21st fractional digit above or below it, and
the largest 23-character magnitudes. All texts sit in one CBOR array (so each reader
reads past its text into its neighbour's bytes), compiled from the committed sources.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache

import pytest
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from scratch_harness import SOLC, deploy, item_offsets, raw

from por.encoding import encode
from por.numbers import EXACT_CONTEXT, is_canonical_decimal
from por.signing.eip712 import keccak256

HARNESS = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorContradictionsDecimal} from "./PorContradictionsDecimal.sol";
import {PorAggregateNumber} from "./PorAggregateNumber.sol";
contract DecimalHarness {
    function ends(bytes calldata d, uint256[] calldata at)
        external pure returns (uint256[] memory e, bool[] memory neg)
    {
        e = new uint256[](at.length);
        neg = new bool[](at.length);
        for (uint256 i = 0; i < at.length; i++) {
            (e[i], neg[i]) = PorContradictionsDecimal.end(d, at[i]);
        }
    }
    function numbers(bytes calldata d, uint256[] calldata at)
        external pure returns (bool[] memory ok, uint256[] memory num, bool[] memory isDec)
    {
        ok = new bool[](at.length);
        num = new uint256[](at.length);
        isDec = new bool[](at.length);
        for (uint256 i = 0; i < at.length; i++) {
            (ok[i], num[i]) = PorAggregateNumber.text(d, at[i]);
            isDec[i] = PorAggregateNumber.isDecimal(d, at[i]);
        }
    }
    function exceeds(bytes calldata d, uint256[] calldata at)
        external pure returns (bool[] memory fast, bool[] memory over)
    {
        fast = new bool[](at.length / 3);
        over = new bool[](at.length / 3);
        for (uint256 i = 0; i < at.length / 3; i++) {
            (fast[i], over[i]) =
                PorContradictionsDecimal.exceeds(d, at[3 * i], at[3 * i + 1], at[3 * i + 2]);
        }
    }
}
"""
FILES = ("PorCbor.sol", "PorCborScan.sol", "PorDecimal.sol", "PorContradictionsDecimal.sol",
         "PorAggregateNumber.sol")
#: Lengths at each cut's edges.
LENGTHS = (1, 2, 3, 21, 22, 23, 24, 25, 27, 28, 29, 31, 32, 33, 62, 63, 64, 65)
#: Replacement characters around the digits' and the point's bytes.
SWAPS = ("/", ":", ".", "-", "+", "e", " ", "0", "\u00e9")


@cache
def _harness() -> tuple[object, str]:
    return deploy("DecimalHarness", HARNESS, FILES)


def _call(signature: str, args: list[object], types: list[str], out: list[str]) -> tuple:
    data = keccak256(signature.encode())[:4] + abi_encode(types, args)
    return tuple(abi_decode(out, raw(_harness(), data)))  # type: ignore[arg-type]


def _digits(n: int, seed: int) -> str:
    """``n`` digits, none 0 first or last (so the shape alone decides)."""
    return "".join(str(1 + (seed + 7 * i) % 9) for i in range(n))


def shapes(n: int) -> list[str]:
    """Texts of ``n`` characters of every shape at its edges."""
    out = [_digits(n, 1), "-" + _digits(n - 1, 2) if n > 1 else "-"]
    if n >= 3:
        for point in (1, n // 2, n - 2):
            out.append(_digits(point, 3) + "." + _digits(n - point - 1, 4))
        out += ["0." + _digits(n - 2, 5), "-0." + _digits(n - 3, 6) if n > 3 else "-0",
                "0" + _digits(n - 1, 7), "-0" + _digits(n - 2, 8),  # leading zeros
                "0" + _digits(1, 12) + "." + _digits(n - 3, 13),
                "-0" + _digits(1, 14) + "." + _digits(n - 4, 15) if n > 4 else "-01",
                _digits(n - 2, 9) + ".0" if n > 3 else "1.0",  # a trailing zero
                "0." + "0" * (n - 3) + "1", "-0." + "0" * (n - 4) + "1" if n > 4 else "-0.1",
                "0." + "0" * (n - 2), "-0." + "0" * (n - 3), "-" + "0" * (n - 1),
                "." + _digits(n - 1, 10), _digits(n - 1, 11) + ".", "1" + "0" * (n - 1),
                "-" + "9" * (n - 1), "9" * n]
    out += ["0" * n, "-0"]
    return [t for t in out if len(t) == n or t in ("-0", "1.0", "-0.1")]


def texts() -> list[str]:
    out: list[str] = ["0", "-0", "", "-", ".", "+1", "00", "0.0", "-0.0", "1.", ".1"]
    for n in LENGTHS:
        for base in shapes(n):
            out.append(base)
            for at in {0, n - 1, n // 2, 30, 31, 32, 33} & set(range(n)):
                out += [base[:at] + c + base[at + 1:] for c in SWAPS]
    return list(dict.fromkeys(out))


def _packed(t: str) -> int:
    sign, digits, exponent = Decimal(t).as_tuple()
    assert isinstance(exponent, int)
    m = int("".join(map(str, digits)) or "0")
    return m << 8 | max(0, -exponent) << 1 | sign


TEXTS = texts()


@SOLC
@pytest.mark.parametrize("part", range(4))
def test_canonical_texts_at_every_edge(part: int) -> None:
    items = TEXTS[part::4]
    data, at = item_offsets(items)
    ends, negs = _call("ends(bytes,uint256[])", [data, at], ["bytes", "uint256[]"],
                       ["uint256[]", "bool[]"])
    oks, nums, decs = _call("numbers(bytes,uint256[])", [data, at], ["bytes", "uint256[]"],
                            ["bool[]", "uint256[]", "bool[]"])
    canonical = 0
    for i, t in enumerate(items):
        want = is_canonical_decimal(t)
        canonical += want
        end = at[i] + len(encode(t)) if want else 0
        assert (ends[i], negs[i]) == (end, want and t.startswith("-")), t
        assert (oks[i], decs[i]) == (want, want), t
        if want:
            assert nums[i] == _packed(t), t
    assert len(items) > 400
    assert 60 < canonical < len(items) - 200


def _triples() -> list[tuple[str, str, str]]:
    """(a, b, tolerance): distances equal to the tolerance, a unit away, of both signs."""
    unit = Decimal("1e-21")
    bases = ["0", "1", "-1", "0.5", "-0.5", "12.25", "99999999999999999999999",
             "-9999999999999999999999", "0.000000000000000000001", "1234567890.123456789012",
             "-1234567890.12345678901", "10000000000000000000000"]
    tols = ["0", "0.5", "1", "2", "0.000000000000000000001", "24.5", "1234567890.123456789012",
            "99999999999999999999999", "0.000000000000000000009"]
    out = []
    for a in bases:
        for t in tols:
            for step in (Decimal(0), unit, -unit, Decimal(1), Decimal(-1)):
                for sign in (1, -1):
                    b = EXACT_CONTEXT.add(Decimal(a), sign * EXACT_CONTEXT.add(Decimal(t), step))
                    text = format(b.normalize(EXACT_CONTEXT), "f")
                    if text in ("-0", "0E-21") or not is_canonical_decimal(text):
                        text = "0" if b == 0 else text
                    if is_canonical_decimal(text):
                        out += [(a, text, t), (text, a, t)]
        for t in ("12345678901234567890.1234", "0.0000000000000000000001"):
            out.append((a, "1", t))  # a tolerance of 24 characters: not fast
        out.append((a, "1." + "1" * 22, "1"))  # 24 characters
    return list(dict.fromkeys(out))


@SOLC
def test_distance_against_the_tolerance() -> None:
    triples = _triples()
    flat = [x for tri in triples for x in tri]
    data, at = item_offsets(flat)
    fast, over = _call("exceeds(bytes,uint256[])", [data, at], ["bytes", "uint256[]"],
                       ["bool[]", "bool[]"])
    seen = {True: 0, False: 0}
    equal = 0
    for i, (a, b, t) in enumerate(triples):
        short = max(len(a), len(b), len(t)) <= 23
        assert fast[i] == short, (a, b, t)
        if short:
            diff = abs(EXACT_CONTEXT.subtract(Decimal(a), Decimal(b)))
            assert over[i] == (diff > Decimal(t)), (a, b, t)
            seen[over[i]] += 1
            equal += diff == Decimal(t)
    assert min(seen.values()) > 100 and equal > 50, (seen, equal)
