"""por.merkle.compact: the accumulated root equals root_hash for every size."""

from __future__ import annotations

from por.merkle import EMPTY_ROOT, RootAccumulator, leaf_hash, node_hash, root_hash


def test_every_size_up_to_70_matches_root_hash() -> None:
    leaves = [b"leaf-%d" % i for i in range(70)]
    acc = RootAccumulator()
    assert acc.root() == EMPTY_ROOT
    for n, leaf in enumerate(leaves, start=1):
        acc.append(leaf)
        assert acc.size == n
        assert acc.root() == root_hash(leaves[:n]), n
        assert acc.root() == root_hash(leaves[:n])  # root() leaves the state alone


def test_append_hash_is_append_of_the_leaf() -> None:
    by_data, by_hash = RootAccumulator(), RootAccumulator()
    for leaf in (b"a", b"b", b"c"):
        by_data.append(leaf)
        by_hash.append_hash(leaf_hash(leaf))
    assert by_data.root() == by_hash.root()
    la, lb, lc = (leaf_hash(x) for x in (b"a", b"b", b"c"))
    assert by_data.root() == node_hash(node_hash(la, lb), lc)


def test_memory_is_logarithmic() -> None:
    acc = RootAccumulator()
    for i in range(1023):
        acc.append(b"%d" % i)
    assert len(acc._hashes) == 10  # 1023 = 0b1111111111
    acc.append(b"last")
    assert len(acc._hashes) == 1


def test_memoryview_spans_of_one_buffer() -> None:
    # How the fast path hashes leaf records in place (verifier/fast.py).
    leaves = [b"x" * i for i in range(9)]
    buffer = b"".join(leaves)
    view, acc, at = memoryview(buffer), RootAccumulator(), 0
    for leaf in leaves:
        acc.append(view[at:at + len(leaf)])
        at += len(leaf)
    assert acc.root() == root_hash(leaves)
