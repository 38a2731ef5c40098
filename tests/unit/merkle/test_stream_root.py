"""``StreamRoot``: the RFC 9162 root of leaves added one at a time equals ``root_hash``."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from por.merkle import EMPTY_ROOT, StreamRoot, leaf_hash, root_hash


@given(st.lists(st.binary(max_size=8), max_size=140))
def test_equals_root_hash(leaves: list[bytes]) -> None:
    stream = StreamRoot()
    for i, leaf in enumerate(leaves):
        if i % 2:
            stream.add(memoryview(leaf))
        else:
            stream.add_hash(leaf_hash(leaf))
    assert stream.count == len(leaves)
    assert stream.root() == root_hash(leaves)


def test_empty_and_order() -> None:
    assert StreamRoot().root() == EMPTY_ROOT
    a, b = StreamRoot(), StreamRoot()
    for leaf in (b"1", b"2", b"3"):
        a.add(leaf)
    for leaf in (b"1", b"3", b"2"):
        b.add(leaf)
    assert a.root() != b.root()
