"""``PorCheckKeys.specTop``'s merge of the wanted top-level keys with the §2 reader's
kept offsets agrees with Python (s38, check8).

Since s38 ``lookup`` walks the PromptSpec leaf's top-level keys (the offsets
``PorCborTop.checkTop`` kept) once for all the wanted keys, both lists in their
encodings' order (SPEC §2 rule 2), instead of scanning them from the start for each.
A scratch harness compiled from the committed sources runs ``specTop`` with the check
chunk's ``TOP_KEYS`` on seeded maps (placed after a prefix, as a leaf inside a proof):
the wanted keys present or absent in every combination, keys that are prefixes or
extensions of them, keys of the same length sorting just before or after, short and
long (24+ byte) keys, up to 16 entries (the reader keeps at most 32 items): every
wanted value's absolute offset (0 when absent) must equal Python's. A merge that
advances past a key it did not take, or compares only a prefix, moves or loses an
offset and fails here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from scratch_harness import SOLC, deploy, raw
from test_skip_walks import _entries, _value

from por.encoding import encode
from por.signing.eip712 import keccak256

NAMES = ("PorCbor.sol", "PorCborScan.sol", "PorCborTop.sol", "PorCheckKeys.sol",
         "PorInclusion.sol", "PorMerkle.sol", "PorIds.sol")
HARNESS = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorInclusion} from "./PorInclusion.sol";
contract SpecTopHarness {
    function top(bytes calldata d, uint256 leaf, uint256 len, bytes memory keys, uint256 n)
        external pure returns (bool ok, uint256[] memory at)
    {
        PorInclusion.Part memory p;
        (p.leaf, p.leafLength) = (leaf, len);
        return PorCheckKeys.specTop(d, p, keys, n);
    }
}
"""

#: PorCheckSpec.TOP_KEYS, in §2 order.
WANTED = ("market", "data_requirements", "prediction_semantics", "timestamp_slack_seconds")
#: Keys around the wanted ones: prefixes, extensions, same length just before or after.
NEAR = ("marke", "market_", "markeu", "marker", "a", "schema", "zzzzzz", "data_requirementr",
        "data_requirementt", "data_requirements_", "prediction_semantict", "prediction_semanticr",
        "timestamp_slack_secondr", "timestamp_slack_secondt", "timestamp_slack_seconds_x",
        "strict_mode", "conflict_policy", "confidence_policy", "output_schema_ref",
        "a_key_that_is_longer_than_23_bytes", "x" * 24)


def _call(data: bytes, leaf: int, length: int) -> tuple[bool, list[int]]:
    packed = b"".join(bytes([len(k)]) + k.encode() for k in WANTED)
    harness = deploy("SpecTopHarness", HARNESS, NAMES)
    out = raw(harness, keccak256(b"top(bytes,uint256,uint256,bytes,uint256)")[:4] + abi_encode(
        ["bytes", "uint256", "uint256", "bytes", "uint256"], [data, leaf, length, packed, 4]))
    ok, at = abi_decode(["bool", "uint256[]"], out)
    return ok, list(at)


def _spec(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)  # noqa: S311
    keys = [k for k in WANTED if rng.random() < 0.6]
    keys += rng.sample(NEAR, rng.randrange(0 if keys else 1, 16 - len(keys)))
    return {k: _value(rng, 3) for k in keys}


@SOLC
@pytest.mark.parametrize("seed", range(60))
def test_spec_top_offsets(seed: int) -> None:
    spec = _spec(seed)
    leaf = encode(spec)
    prefix = bytes(random.Random(seed).randrange(256) for _ in range(seed % 40))  # noqa: S311
    data = prefix + leaf + b"\x00" * (seed % 7)
    ok, at = _call(data, len(prefix), len(leaf))
    assert ok
    where = {k: p for k, p, _ in _entries(spec, 0)}
    assert at == [len(prefix) + where[k] if k in spec else 0 for k in WANTED]
