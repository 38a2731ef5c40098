"""``PorCheckKeys``' merge walk and its skip agree with Python on every head form (s38, check8).

``PorCheckKeys.find``/``findAll`` (the check chunk's PromptSpec and extract-output
readers, contradictions' too) step over each value they do not want with the walk's own
``skipAt``: since s38 a short text (0x60-0x77) is stepped over by its head first, every
other head by its major (a string's bytes, an array's items, a map's twice its count).
A scratch harness compiled from the committed sources runs ``findAll`` over every map of
``test_skip_walks``' seeded documents (every head form, nested arrays and maps, maps of
24 or more entries, long and non-ASCII texts, byte strings) with a few of its short keys
and absent ones wanted: the map's end and each wanted value's offset must equal those
Python computes from the encodings; and ``find`` without ``ALL`` stops at the last
wanted key's value with the right count of entries after it. A wrong step in ``skipAt``
(a short text's head miscounted, a map's count not doubled, a string's bytes not
skipped) moves a value offset or the end and fails here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from scratch_harness import SOLC, deploy, raw
from test_skip_walks import _doc, _entries, _items

from por.encoding import encode
from por.signing.eip712 import keccak256

NAMES = ("PorCbor.sol", "PorCborScan.sol", "PorCborTop.sol", "PorCheckKeys.sol",
         "PorInclusion.sol", "PorMerkle.sol", "PorIds.sol")
HARNESS = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorCheckKeys} from "./PorCheckKeys.sol";
contract CheckWalkHarness {
    function findAll(bytes calldata d, uint256 pos, bytes memory keys, uint256 n)
        external pure returns (uint256 end, uint256[] memory at)
    {
        at = new uint256[](n);
        end = PorCheckKeys.findAll(d, pos, keys, at);
    }
    function find(bytes calldata d, uint256 pos, bytes memory keys, uint256 n)
        external pure returns (uint256 end, uint256 left, uint256[] memory at)
    {
        at = new uint256[](n);
        (end, left) = PorCheckKeys.find(d, pos, keys, at);
    }
}
"""

#: PorCheckKeys.ALL: 23 bytes 0xff, sorting after every text key of at most 23 bytes.
ALL = bytes([23]) + b"\xff" * 23


def _call(signature: str, args: list[Any], out: list[str]) -> tuple[Any, ...]:
    types = ["bytes", "uint256", "bytes", "uint256"]
    harness = deploy("CheckWalkHarness", HARNESS, NAMES)
    data = raw(harness, keccak256(signature.encode())[:4] + abi_encode(types, args))
    return tuple(abi_decode(out, data))


def _packed(keys: list[str]) -> bytes:
    return b"".join(bytes([len(k.encode())]) + k.encode() for k in sorted(keys, key=encode))


@SOLC
@pytest.mark.parametrize("seed", range(40))
def test_find_all_every_map(seed: int) -> None:
    doc = _doc(seed)
    data = encode(doc)
    items: list[tuple[int, int, Any]] = []
    _items(doc, 0, items)
    rng = random.Random(2000 + seed)  # noqa: S311
    maps = [(a, e, v) for a, e, v in items if isinstance(v, dict)]
    assert maps
    for at, end, m in maps:
        entries = _entries(m, at)
        short = [(k, p) for k, p, _ in entries if len(k.encode()) < 24]
        wanted = dict(rng.sample(short, min(3, len(short))))
        wanted.update({"absent": 0, "zz_absent_key": 0})
        wanted = {k: p for k, p in wanted.items() if k not in m or k in dict(short)}
        names = sorted(wanted, key=encode)
        packed = _packed(names)
        got_end, got_at = _call("findAll(bytes,uint256,bytes,uint256)",
                                [data, at, packed + ALL, len(names) + 1], ["uint256", "uint256[]"])
        assert got_end == end
        assert list(got_at) == [wanted[k] for k in names] + [0]
        # find without ALL: stops at the last wanted key present when entries follow it
        present = [k for k in names if wanted[k]]
        if not present:
            continue
        keys = present[-1:]
        got = _call("find(bytes,uint256,bytes,uint256)", [data, at, _packed(keys), 1],
                    ["uint256", "uint256", "uint256[]"])
        order = [k for k, _, _ in entries]
        after = len(order) - 1 - order.index(keys[0])
        long_before = any(len(k.encode()) >= 24 or encode(k) > encode(keys[0])
                          for k in order[:order.index(keys[0])])
        assert not long_before
        assert list(got[2]) == [wanted[keys[0]]]
        assert (got[0], got[1]) == ((0, after) if after else (end, 0))
