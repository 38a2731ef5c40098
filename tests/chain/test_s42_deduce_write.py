"""s42 ``dedbound``: ``PorDeduceFormWrite``'s summary check (``_same``) alone, on read ids
with repeats. The DEDUCE's ``source_summary`` is the read ids, each once in its first
place; a repeat needs two cited AGGREGATEs reading one id, which no fixture deduce step
and no bounds case has, so the writer is called directly here: ``hash``'s first answer
must be whether Python's de-duplication (``deduce._summary``: first places) equals the
committed ids, at or below 16 read ids (the walk) and above (the sort)."""

from __future__ import annotations

import random

import pytest
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_harness import call, deploy, selector
from scratch_harness import SOLC

pytestmark = SOLC

HASH = "hash(bytes,bytes,bytes,bytes32[],uint256[8])"


def _same(read: list[bytes], committed: list[bytes]) -> bool:
    """The writer's first answer on ``read`` against the committed ids."""
    head = bytes(64) + len(committed).to_bytes(32, "big") + b"".join(committed)
    texts = (5).to_bytes(32, "big") + b"close" + bytes(27)
    data = selector(HASH) + abi_encode(["bytes", "bytes", "bytes", "bytes32[]", "uint256[8]"],
                                       [head, texts, b"", read, [64, 1, 0, 0, 0, 0, 0, 0]])
    out, _gas = call(deploy("PorDeduceFormWrite"), data)
    assert isinstance(out, bytes), out
    same, _hash = abi_decode(["bool", "bytes32"], out)
    return bool(same)


@pytest.mark.parametrize("m", [0, 1, 5, 16, 17, 40])
def test_the_summary_keeps_first_places(m: int) -> None:
    rng = random.Random(m)  # noqa: S311 - seeded cases, not secrets
    words = [rng.randbytes(32) for _ in range(max(m // 2, 1))]
    for _ in range(6):
        read = [rng.choice(words) for _ in range(m)]
        first = list(dict.fromkeys(read))  # deduce._summary: each id once, first place
        assert _same(read, first)
        if len(first) > 1:
            assert not _same(read, first[::-1])  # the same ids, not in first-place order
            assert not _same(read, first[:-1])
        assert not _same(read, [*first, words[0]])
        assert not _same(read, [*read, bytes(32)])
