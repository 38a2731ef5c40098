"""The shared skips and key walks of a checked document agree with Python (ADR 0015 s36).

``PorCbor.skip``, ``PorKeyIndex.indexTo``/``three`` and ``PorCborKeys.pick`` (its
``walkWords.skip``) step over an item of a checked document with one head-driven loop:
a short text (0x60-0x77) advanced by its head alone, every other head by a nibble per
major (a string's bytes, an array's or map's units). Each is compiled here from the
committed sources into a scratch harness and run in revm on seeded documents of every
head form (integers with 0-8 argument bytes, negative ones, short, 24-255 byte and longer
texts, non-ASCII texts, byte strings of 0, 32 and 300 bytes, false/true, empty and
nested arrays and maps, maps of 24 or more entries): every item's end, every map's
entries and value offsets must equal those Python computes from the encodings of the
parts. A wrong step (a short text's head miscounted, a map's count not doubled, a
string's bytes not skipped) moves an end and fails here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from scratch_harness import SOLC, deploy, raw

from por.encoding import encode
from por.signing.eip712 import keccak256

NAMES = ("PorCbor.sol", "PorCborScan.sol", "PorCborKeys.sol", "PorKeyIndex.sol",
         "PorContradictionsItems.sol")
HARNESS = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorCbor} from "./PorCbor.sol";
import {PorCborKeys} from "./PorCborKeys.sol";
import {PorKeyIndex} from "./PorKeyIndex.sol";
import {PorContradictionsItems} from "./PorContradictionsItems.sol";
contract SkipHarness {
    function skips(bytes calldata d, uint256[] calldata ps)
        external pure returns (uint256[] memory out)
    {
        out = new uint256[](ps.length);
        for (uint256 i = 0; i < ps.length; i++) out[i] = PorCbor.skip(d, ps[i]);
    }
    function indexTo(bytes calldata d, uint256 pos)
        external pure returns (uint256[] memory, uint256)
    {
        return PorKeyIndex.indexTo(d, pos);
    }
    function three(bytes calldata d, uint256 pos, uint256 a, uint256 b, uint256 c)
        external pure returns (uint256, uint256, uint256)
    {
        return PorKeyIndex.three(d, pos, a, b, c);
    }
    function pick(bytes calldata d, uint256 m, bytes memory keys)
        external pure returns (uint256[] memory)
    {
        return PorCborKeys.pick(d, m, keys);
    }
    function items(bytes calldata d, uint256 q) external pure returns (uint256, uint256) {
        return (PorContradictionsItems.end(d, q), PorCbor.skip(d, q));
    }
}
"""


def harness() -> tuple[Any, str]:
    """The SkipHarness (compiled once a process, scratch_harness.deploy)."""
    return deploy("SkipHarness", HARNESS, NAMES)


def _call(signature: str, types: list[str], args: list[Any], out: list[str]) -> tuple[Any, ...]:
    data = raw(harness(), keccak256(signature.encode())[:4] + abi_encode(types, args))
    return tuple(abi_decode(out, data))


def _value(rng: random.Random, depth: int) -> Any:
    pick = rng.randrange(14 if depth < 4 else 9)
    if pick == 0:
        return rng.choice(
            [0, 1, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63, 2**64 - 1]
        )
    if pick == 1:
        return -rng.choice([1, 24, 25, 300, 70000, 2**40])
    if pick == 2:
        return rng.choice([True, False])
    if pick == 3:
        return "".join(rng.choice("abcxyz_-.0") for _ in range(rng.randrange(24)))
    if pick == 4:
        return "t" * rng.choice([24, 31, 32, 40, 255, 256, 300])
    if pick == 5:
        return "".join(rng.choice("a\u00e9\u4e2d\U0001f600") for _ in range(rng.randrange(1, 40)))
    if pick == 6:
        return bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 23, 24, 32, 300])))
    if pick in (7, 8):
        return rng.randrange(24)
    if pick in (9, 10):
        return [_value(rng, depth + 1) for _ in range(rng.choice([0, 1, 2, 3, 5, 24, 30]))]
    return _map(rng, depth + 1, rng.choice([0, 1, 2, 3, 6, 24, 26]))


def _key(rng: random.Random) -> str:
    n = rng.choice([1, 3, 5, 8, 12, 23, 24, 31, 32, 40])
    return "".join(rng.choice("abcdefghij_") for _ in range(n))


def _map(rng: random.Random, depth: int, n: int) -> dict[str, Any]:
    return {_key(rng): _value(rng, depth) for _ in range(n)}


def _entries(m: dict[str, Any], at: int) -> list[tuple[str, int, int]]:
    """(key, value offset, value end) of map ``m`` encoded at ``at``, in encoded order."""
    body = sum(len(encode(k)) + len(encode(v)) for k, v in m.items())
    p = at + len(encode(m)) - body
    out = []
    for k in sorted(m, key=encode):  # canonical order: by encoding
        p += len(encode(k))
        out.append((k, p, p + len(encode(m[k]))))
        p += len(encode(m[k]))
    return out


def _items(v: Any, at: int, acc: list[tuple[int, int, Any]]) -> None:
    """Every item of ``v`` encoded at ``at``: (offset, end, value)."""
    end = at + len(encode(v))
    acc.append((at, end, v))
    if isinstance(v, list):
        p = end - sum(len(encode(x)) for x in v)
        for x in v:
            _items(x, p, acc)
            p += len(encode(x))
    elif isinstance(v, dict):
        for k, p, _ in _entries(v, at):
            _items(k, p - len(encode(k)), acc)
            _items(v[k], p, acc)


def _word(key: str) -> int:
    b = key.encode()
    return 0 if len(b) >= 32 else (int.from_bytes(b.ljust(32, b"\0"), "big") | len(b))


def _doc(seed: int) -> Any:
    rng = random.Random(seed)  # noqa: S311
    return [_map(rng, 1, rng.choice([1, 3, 7, 24, 25])) for _ in range(rng.randrange(1, 4))] + [
        _value(rng, 1) for _ in range(rng.randrange(4))
    ]


@SOLC
@pytest.mark.parametrize("seed", range(40))
def test_skip_every_item(seed: int) -> None:
    doc = _doc(seed)
    data = encode(doc)
    items: list[tuple[int, int, Any]] = []
    _items(doc, 0, items)
    (ends,) = _call(
        "skips(bytes,uint256[])",
        ["bytes", "uint256[]"],
        [data, [a for a, _, _ in items]],
        ["uint256[]"],
    )
    assert list(ends) == [e for _, e, _ in items]


@SOLC
@pytest.mark.parametrize("seed", range(40))
def test_map_walks(seed: int) -> None:
    doc = _doc(seed)
    data = encode(doc)
    items: list[tuple[int, int, Any]] = []
    _items(doc, 0, items)
    rng = random.Random(1000 + seed)  # noqa: S311
    maps = [(a, e, v) for a, e, v in items if isinstance(v, dict)]
    for at, end, m in maps:
        entries = _entries(m, at)
        ix, got_end = _call(
            "indexTo(bytes,uint256)", ["bytes", "uint256"], [data, at], ["uint256[]", "uint256"]
        )
        assert got_end == end
        assert list(ix) == [x for k, p, _ in entries for x in (_word(k), p)]
        short = [(k, p) for k, p, _ in entries if len(k.encode()) < 24]
        wanted = rng.sample(short, min(3, len(short))) + [("absent_key", 0)] * 3
        ks = wanted[:3]
        words = [_word(k) for k, _ in ks]
        if len(set(words)) == 3:
            got = _call(
                "three(bytes,uint256,uint256,uint256,uint256)",
                ["bytes", "uint256", "uint256", "uint256", "uint256"],
                [data, at, *words],
                ["uint256", "uint256", "uint256"],
            )
            assert list(got) == [p for _, p in ks]
        packed = b"".join(bytes([len(k.encode())]) + k.encode() for k, _ in wanted[:4])
        (got_at,) = _call(
            "pick(bytes,uint256,bytes)",
            ["bytes", "uint256", "bytes"],
            [data, at, packed],
            ["uint256[]"],
        )
        assert list(got_at) == [p for _, p in wanted[:4]]
