"""``PorText.sameText`` (s37 contra6's ``PorContradictionsMaps.sameText``, every contract's
one since s38 unify8: a text of at most 23 bytes compared with the text at ``b`` in one
word, head and bytes; a longer one word by word) against Python's equality of the decoded
items, compiled from the committed sources.

The items sit where one word's compare could go wrong: texts of 0, 1, 22, 23, 24, 25,
31, 32, 33 and 40 bytes sharing their first bytes and differing only in the last one
(or one past the 23rd, the 32nd), the same bytes as a byte string, and non-texts whose
head is the text head's neighbour (0x57/0x58 byte strings, 0x77/0x78 heads, integers,
arrays, maps, simple values). Every item is compared with every text (``b`` is a text
in every caller), in both orders of one CBOR array (so each word read runs into the
next item's bytes).
"""

from __future__ import annotations

import re
from functools import cache

from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from scratch_harness import SOLC, SRC, deploy, item_offsets, raw

from por.encoding import decode
from por.signing.eip712 import keccak256

HARNESS = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorText} from "./PorText.sol";
contract SameTextHarness {
    function sames(bytes calldata d, uint256[] calldata a, uint256[] calldata b)
        external pure returns (bool[] memory same)
    {
        same = new bool[](a.length * b.length);
        for (uint256 i = 0; i < a.length; i++) {
            for (uint256 j = 0; j < b.length; j++) {
                same[i * b.length + j] = PorText.sameText(d, a[i], b[j]);
            }
        }
    }
}
"""


def imports(name: str) -> set[str]:
    """``name`` and every source file it imports, transitively."""
    seen, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo += re.findall(r'import \{[^}]*\} from "\./([^"]+)"',
                               (SRC / n).read_text(encoding="utf-8"))
    return seen


@cache
def _harness() -> tuple[object, str]:
    return deploy("SameTextHarness", HARNESS,
                  tuple(sorted(imports("PorText.sol"))))


def texts() -> list[str]:
    out = [""]
    for n in (1, 22, 23, 24, 25, 31, 32, 33, 40):
        base = "".join(chr(0x61 + i % 7) for i in range(n))
        out += [base, base[:-1] + "z"]
        if n > 24:
            out.append(base[:23] + "Z" + base[24:])
        if n > 32:
            out.append(base[:32] + "Z" + base[33:])
    out += ["\u00e9" * 11, "\u00e9" * 12, "\u00e9" * 10 + "e\u0301"]
    return out


def others(pool: list[str]) -> list[object]:
    """Non-texts: the texts' bytes as byte strings, and heads next to the text heads."""
    out: list[object] = [t.encode() for t in pool]
    out += [0, 23, 24, 255, -1, -24, True, False, [], {}, ["a"], {"a": "a"}, [""]]
    return out


@SOLC
def test_same_text_every_pair() -> None:
    pool = texts()
    for items in ([*pool, *others(pool)], [*others(pool), *reversed(pool)]):
        data, at = item_offsets(items)
        assert decode(data) == items
        b = [p for p, x in zip(at, items, strict=True) if isinstance(x, str)]
        call = keccak256(b"sames(bytes,uint256[],uint256[])")[:4] + abi_encode(
            ["bytes", "uint256[]", "uint256[]"], [data, at, b])
        (same,) = abi_decode(["bool[]"], raw(_harness(), call))  # type: ignore[arg-type]
        strs = [x for x in items if isinstance(x, str)]
        equal = 0
        for i, x in enumerate(items):
            for j, y in enumerate(strs):
                want = isinstance(x, str) and x == y
                assert same[i * len(strs) + j] == want, (x, y)
                equal += want
        assert equal == len(strs) and len(same) > 1000
