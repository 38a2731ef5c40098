"""``PorText.sameText`` (s38 unify8: every contract's one text equality) against Python.

The function reads the item at ``a``: a text of a one-byte head (at most 23 bytes) is
compared with the bytes at ``b`` in one masked word, head and bytes; a longer text's
first word (head, length, first bytes) is compared, then the whole by hash. Compiled
here from the committed sources into a scratch harness and run in revm on:

* texts of 0..70 bytes, prefixes of one another (equal prefixes of different lengths),
  each with variants differing in its first, last and 30th..33rd byte (the edges of the
  first word, with the one- or two-byte head before the bytes), non-ASCII ones, and
  non-texts next to the text heads (byte strings of the same bytes, integers, arrays,
  maps, simple values): every item against every item, each text twice in one CBOR
  array (its words run into different next items), and across two documents in both
  orders of the call data (the cross-document variant's offset wraps one way);
* texts in every head that a shortest encoding gives (0x60..0x77, 0x78, 0x79, 0x7a: 23,
  24, 255, 256, 300, 65 535 and 65 536 bytes, differing in their first or last byte);
* non-shortest heads (0x78..0x7b, none of which reaches the function: §2 rejects them):
  equal iff the same head and bytes, as the function's comment says; indefinite (0x5f,
  0x7f) and reserved (0x7c) heads are no text.

Python's answer: both items are texts and equal (``isinstance(x, str) and x == y``).
"""

from __future__ import annotations

from eth_abi import encode as abi_encode
from scratch_harness import SOLC, deploy, item_offsets, raw

from por.encoding import encode
from por.signing.eip712 import keccak256

HARNESS = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorText} from "./PorText.sol";
contract SameText38 {
    function sames(bytes calldata d, uint256[] calldata a, uint256[] calldata b)
        external pure returns (bytes memory same)
    {
        same = new bytes(a.length * b.length);
        for (uint256 i = 0; i < a.length; i++) {
            for (uint256 j = 0; j < b.length; j++) {
                if (PorText.sameText(d, a[i], b[j])) same[i * b.length + j] = 0x01;
            }
        }
    }
    function across(bytes calldata x, uint256[] calldata a, bytes calldata y, uint256[] calldata b)
        external pure returns (bytes memory same)
    {
        same = new bytes(a.length * b.length);
        for (uint256 i = 0; i < a.length; i++) {
            for (uint256 j = 0; j < b.length; j++) {
                if (PorText.sameText(x, a[i], y, b[j])) same[i * b.length + j] = 0x01;
            }
        }
    }
}
"""

#: Items of one harness call's ``a`` (every ``b``): a call stays far below its gas cap.
CHUNK = 20


def _harness() -> tuple[object, str]:
    return deploy("SameText38", HARNESS, ("PorText.sol",))


def _word(n: int) -> bytes:
    return n.to_bytes(32, "big")


def _dyn_bytes(b: bytes) -> bytes:
    return _word(len(b)) + b + bytes(-len(b) % 32)


def _dyn_array(xs: list[int]) -> bytes:
    return _word(len(xs)) + b"".join(_word(x) for x in xs)


def _result(out: bytes) -> bytes:
    """The ABI-encoded ``bytes`` a harness function returns."""
    return out[64:64 + int.from_bytes(out[32:64], "big")]


def sames(d: bytes, a: list[int], b: list[int]) -> list[bool]:
    """``PorText.sameText(d, a[i], b[j])`` for every pair, row by row."""
    out: list[bool] = []
    for k in range(0, len(a), CHUNK):
        call = keccak256(b"sames(bytes,uint256[],uint256[])")[:4] + abi_encode(
            ["bytes", "uint256[]", "uint256[]"], [d, a[k:k + CHUNK], b])
        out += [x == 1 for x in _result(raw(_harness(), call))]  # type: ignore[arg-type]
    return out


def across(x: bytes, a: list[int], y: bytes, b: list[int], y_first: bool) -> list[bool]:
    """``PorText.sameText(x, a[i], y, b[j])`` for every pair; ``y_first``: ``y``'s bytes
    placed before ``x``'s in the call data (the offset from ``x`` to ``y`` wraps)."""
    out: list[bool] = []
    for k in range(0, len(a), CHUNK):
        tails = {"x": _dyn_bytes(x), "a": _dyn_array(a[k:k + CHUNK]), "y": _dyn_bytes(y),
                 "b": _dyn_array(b)}
        order = ("y", "b", "x", "a") if y_first else ("x", "a", "y", "b")
        at, p = {}, 4 * 32
        for name in order:
            at[name] = p
            p += len(tails[name])
        call = (keccak256(b"across(bytes,uint256[],bytes,uint256[])")[:4]
                + b"".join(_word(at[n]) for n in ("x", "a", "y", "b"))
                + b"".join(tails[n] for n in order))
        out += [v == 1 for v in _result(raw(_harness(), call))]  # type: ignore[arg-type]
    return out


def texts() -> list[str]:
    """Texts of 0..70 bytes, each a prefix of the longer ones, with their variants."""
    base = "".join(chr(0x61 + i % 26) for i in range(70))
    out = []
    for n in range(71):
        t = base[:n]
        out.append(t)
        for i in sorted({0, 29, 30, 31, 32, n - 1}):
            if 0 <= i < n:
                out.append(t[:i] + "Z" + t[i + 1:])
    out += ["\u00e9" * 11, "\u00e9" * 12, "\u00e9" * 10 + "e\u0301", "\u00e9" * 16,
            "\u00e9" * 15 + "e", "\u20ac" * 11, "\u20ac" * 10 + "\u00e9e"]
    return out


def others(pool: list[str]) -> list[object]:
    """Non-texts: byte strings of the texts' bytes, and heads next to the text heads."""
    out: list[object] = [t.encode() for t in pool[::5]]
    long = "abcdefghijklmnopqrstuvwxyzabcd"
    out += [0, 23, 24, 255, 256, -1, -24, -25, True, False, [], {}, ["a"],
            {"a": "a"}, [""], [long], {long: long}]
    return out




def _python(x: object, y: object) -> bool:
    return isinstance(x, str) and isinstance(y, str) and x == y


def _check(items: list[object], same: list[bool]) -> int:
    """Every pair's answer is Python's; the number of equal pairs."""
    equal = 0
    for i, x in enumerate(items):
        for j, y in enumerate(items):
            want = _python(x, y)
            assert same[i * len(items) + j] == want, (x, y)
            equal += want
    return equal


@SOLC
def test_texts_0_to_70_bytes_every_pair() -> None:
    pool = texts()
    assert {len(t.encode()) for t in pool} == set(range(71))
    # each text twice, before and after the non-texts: equal texts at two places, their
    # words running into different next items (a text head, then a 0)
    items = [*pool, *others(pool), *(x for t in reversed(pool) for x in (t, 0))]
    data, at = item_offsets(items)
    assert _check(items, sames(data, at, at)) == 4 * len(set(pool)) > 1200


@SOLC
def test_across_documents_both_orders() -> None:
    pool = texts()
    xs: list[object] = [*pool[::2], *others(pool)]
    ys: list[object] = [*reversed(pool[::3]), "", *others(pool)[::2]]
    (x, xa), (y, ya) = item_offsets(xs), item_offsets(ys)
    for y_first in (False, True):
        same = across(x, xa, y, ya, y_first)
        equal = 0
        for i, p in enumerate(xs):
            for j, q in enumerate(ys):
                assert same[i * len(ys) + j] == _python(p, q), (p, q, y_first)
                equal += _python(p, q)
        assert equal > 50


@SOLC
def test_every_shortest_head_width() -> None:
    items: list[object] = []
    for n in (23, 24, 255, 256, 300, 65_535, 65_536):
        t = "".join(chr(0x61 + i % 26) for i in range(n))
        items += [t, "Z" + t[1:], t[:-1] + "Z"]
    heads = {encode(t)[0] for t in items if isinstance(t, str)}
    assert heads == {0x77, 0x78, 0x79, 0x7a}
    items += [b"a" * 300, 300, ["a" * 300]]
    data, at = item_offsets(items)
    assert _check(items, sames(data, at, at)) == 21


def _raw_same(data: bytes, a: int, b: int) -> bool:
    """Same head and bytes as the text at ``a`` (False: no text at ``a``)."""
    h = data[a]
    if 0x60 <= h <= 0x77:
        n = h - 0x5f
    elif 0x78 <= h <= 0x7b:
        w = 1 << (h - 0x78)
        n = 1 + w + int.from_bytes(data[a + 1:a + 1 + w], "big")
    else:
        return False
    return data[a:a + n] == data[b:b + n]


@SOLC
def test_non_shortest_heads_compare_head_and_bytes() -> None:
    encs = []
    for body in (b"hello", b"h" * 30, b"h" * 40):
        for h in range(0x78, 0x7c):
            w = 1 << (h - 0x78)
            if len(body) < 1 << (8 * w):
                encs.append(bytes([h]) + len(body).to_bytes(w, "big") + body)
        encs.append(encode(body.decode()))
        encs.append(encode(body))
    # an indefinite-length text and byte string, a reserved head: no text at any
    encs += [b"\x7f\x65hello\xff", b"\x5f\x41h\xff", b"\x7c\x05hello"]
    data = b"".join(encs)
    at = [sum(map(len, encs[:i])) for i in range(len(encs))]
    same = sames(data, at, at)
    for i, a in enumerate(at):
        for j, b in enumerate(at):
            assert same[i * len(at) + j] == _raw_same(data, a, b), (encs[i], encs[j])
    # 15 texts, each equal to itself; the 0x78 forms of 30 and 40 bytes are their
    # shortest encodings: equal to those, both ways
    assert sum(same) == 15 + 4
