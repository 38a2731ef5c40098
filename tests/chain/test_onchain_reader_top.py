"""``PorCborTop.checkTop`` agrees with Python on where a top-level map's items start
(ADR 0015, s37 scan6 addendum).

Since s37 the §2 reader opens a top-level map of 1 to 23 entries before its loop, with
its previous key all ones so that each of its keys takes the key path's rare branch,
which keeps the key's and its value's offsets (for ``checkTop``) and the real previous
key at TOP_PREV; no other key asks for its depth. A wrong top-level test loses or adds
offsets, or orders a top-level key against the wrong previous key. ``checkTop`` is
compiled here from the committed sources into a scratch harness and run in revm on:

* seeded accepted documents: top-level maps of 0-40 entries (keys of 1-40 bytes, ASCII
  and not; values of every head form, nested maps and arrays), top-level arrays holding
  maps, and scalars; each must give Python's item count (SPEC §17.1), the offsets of the
  top-level map's items when it holds at most ``TOP_ITEMS`` (32) of them, none
  otherwise, and whether a byte string is met;
* the same top-level maps with two keys swapped, a key repeated, a key made invalid
  UTF-8, the count one more or less, and cut at every key's start and end: each must
  give Python's check id and offset.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from proof_check_support import BY_HASH
from reader_attack_cases import python_fault
from scratch_harness import SOLC, deploy, raw
from test_skip_walks import _map, _value

from por.encoding import encode
from por.signing.eip712 import keccak256

HARNESS = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorCborTop} from "./PorCborTop.sol";
contract TopHarness {
    function checkTop(bytes calldata d)
        external pure returns (bytes32, uint256, uint256[] memory, bool)
    {
        return PorCborTop.checkTop(d);
    }
}
"""

#: The most top-level items whose offsets `checkTop` keeps (PorCborScan.TOP_ITEMS).
TOP_ITEMS = 32


NAMES = ("PorCbor.sol", "PorCborScan.sol", "PorCborTop.sol")


def harness() -> tuple[Any, str]:
    """The TopHarness (compiled once a process, scratch_harness.deploy)."""
    return deploy("TopHarness", HARNESS, NAMES)


def chain(data: bytes) -> tuple[str | None, int, list[int], bool]:
    """checkTop(data): (check id or None, items or the fault's offset, top, hasBytes)."""
    out = raw(harness(), keccak256(b"checkTop(bytes)")[:4] + abi_encode(["bytes"], [data]))
    err, items, top, has_bytes = abi_decode(["bytes32", "uint256", "uint256[]", "bool"], out)
    return (None if err == bytes(32) else BY_HASH[err]), items, list(top), has_bytes


def _count(v: Any) -> tuple[int, bool]:
    """(items its arrays and maps hold, whether a byte string is in it)."""
    if isinstance(v, list):
        parts = [_count(x) for x in v]
        return len(v) + sum(n for n, _ in parts), any(b for _, b in parts)
    if isinstance(v, dict):
        parts = [_count(x) for x in v.values()]
        return 2 * len(v) + sum(n for n, _ in parts), any(b for _, b in parts)
    return 0, isinstance(v, bytes)


def python(doc: Any) -> tuple[str | None, int, list[int], bool]:
    """checkTop's answer for an accepted ``doc``, computed from the encodings of its parts."""
    items, has_bytes = _count(doc)
    top: list[int] = []
    if isinstance(doc, dict) and 0 < 2 * len(doc) <= TOP_ITEMS:
        p = len(encode(doc)) - sum(len(encode(k)) + len(encode(v)) for k, v in doc.items())
        for k in sorted(doc, key=encode):  # canonical order: by encoding
            top.append(p)
            p += len(encode(k))
            top.append(p)
            p += len(encode(doc[k]))
    return None, items, top, has_bytes


def _key(rng: random.Random) -> str:
    n = rng.choice([1, 2, 5, 8, 22, 23, 24, 29, 30, 31, 32, 40])
    return "".join(rng.choice("abcxyz_\u00e9\u4e2d" if rng.randrange(4) == 0 else "abcdefgh_")
                   for _ in range(n))


def _top(rng: random.Random, n: int) -> dict[str, Any]:
    return {_key(rng): _value(rng, 1) for _ in range(n)}


def documents() -> list[Any]:
    rng = random.Random(37)  # noqa: S311 - seeded cases, not secrets
    docs: list[Any] = [_top(rng, n) for n in (*range(25), 30, 40) for _ in range(4)]
    docs += [[_map(rng, 1, rng.choice([1, 3, 16])) for _ in range(3)] for _ in range(10)]
    docs += [{"k": _top(rng, 5)}, [_top(rng, 3)], 0, "text", b"\x01" * 32, [], {}]
    return docs


DOCS = documents()


def _mutations(doc: dict[str, Any]) -> list[bytes]:
    """A top-level map's encoding with keys swapped, repeated or made invalid UTF-8, its
    count off by one, and cut at each key's start and end."""
    pairs = [(encode(k), encode(doc[k])) for k in sorted(doc, key=encode)]
    data = encode(doc)
    head = data[: len(data) - sum(len(k) + len(v) for k, v in pairs)]
    out: list[bytes] = []
    if data[0] < 0xb7:  # the count one more, one less
        out += [bytes([data[0] + 1]) + data[1:], bytes([data[0] - 1]) + data[1:]]
    for i in range(len(pairs) - 1):
        swapped = [*pairs[:i], pairs[i + 1], pairs[i], *pairs[i + 2:]]
        out.append(head + b"".join(k + v for k, v in swapped))
        repeated = [*pairs[: i + 1], pairs[i], *pairs[i + 2:]]
        out.append(head + b"".join(k + v for k, v in repeated))
    p = len(head)
    for i, (k, v) in enumerate(pairs):
        out += [data[:p], data[: p + len(k)]]
        bad = k[:-1] + b"\xff" if len(k) > 1 else k
        out.append(head + b"".join(kk + vv for kk, vv in pairs[:i]) + bad + v
                   + b"".join(kk + vv for kk, vv in pairs[i + 1:]))
        p += len(k) + len(v)
    return out


@SOLC
@pytest.mark.parametrize("part", range(4))
def test_top_level_offsets(part: int) -> None:
    for doc in DOCS[part::4]:
        assert chain(encode(doc)) == python(doc), encode(doc).hex()


@SOLC
@pytest.mark.parametrize("part", range(4))
def test_top_level_keys_mutated(part: int) -> None:
    faults = set()
    for doc in DOCS[part::4]:
        if not isinstance(doc, dict):
            continue
        for data in _mutations(doc):
            want = python_fault(data)
            got = chain(data)
            faults.add(want[0])
            if want[0] is None:
                assert got[0] is None, data.hex()
            else:
                assert got[:2] == want, data.hex()
    assert {"codec.key_order", "codec.duplicate_key", "codec.truncated"} <= faults
