"""Known answers for por.merkle from fixtures/vectors/merkle-rfc6962.json.

One parametrized case per vector: the RFC 6962 hasher KATs, the 8-leaf tree
(every prefix root, complete subtree hashes), the inclusion and consistency
KATs, the 196 transparency-dev/merkle verifier probes (test id = the upstream
file name) and the three rolling digests of draft-ietf-plants-merkle-tree-certs
"Subtree Test Vectors".  Provenance: fixtures/vectors/README.md.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from por.errors import ConsistencyProofError, InclusionProofError
from por.merkle import (
    EMPTY_ROOT,
    consistency_proof,
    consistency_proof_from_leaf_hashes,
    inclusion_proof,
    inclusion_proof_from_leaf_hashes,
    inclusion_trace,
    leaf_hash,
    leaf_hashes,
    node_hash,
    root_from_inclusion_proof,
    root_from_leaf_hashes,
    root_hash,
    verify_consistency,
    verify_inclusion,
)

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).parents[2] / "fixtures" / "vectors" / "merkle-rfc6962.json").read_text()
)
TREE = VECTORS["tree"]
LEAVES = [bytes.fromhex(leaf) for leaf in TREE["leaf_inputs"]]


def _b(hex_text: str) -> bytes:
    return bytes.fromhex(hex_text)


def _hashes(hex_list: list[str]) -> list[bytes]:
    return [bytes.fromhex(item) for item in hex_list]


def test_vector_file_header() -> None:
    assert VECTORS["format"] == "merkle-vectors/1"
    assert VECTORS["sources"]["tdm"]["commit"] == "417fb0c314750d94e53942e9f92e79b6d35915db"
    assert len(LEAVES) == 8


# --- RFC 6962 hasher and the 8-leaf reference tree ---------------------------


@pytest.mark.parametrize(
    "case", VECTORS["hasher"], ids=lambda case: f"{case['kind']}-{case['hash'][:8]}"
)
def test_hasher(case: dict[str, str]) -> None:
    if case["kind"] == "empty":
        got = EMPTY_ROOT
        assert root_hash([]) == got
    elif case["kind"] == "leaf":
        got = leaf_hash(_b(case["input"]))
    else:
        got = node_hash(_b(case["left"]), _b(case["right"]))
    assert got.hex() == case["hash"]


def test_leaf_hashes() -> None:
    assert [h.hex() for h in leaf_hashes(LEAVES)] == TREE["leaf_hashes"]


@pytest.mark.parametrize("entry", TREE["roots"], ids=lambda entry: f"size-{entry['tree_size']}")
def test_root_of_every_prefix(entry: dict[str, Any]) -> None:
    size = entry["tree_size"]
    assert root_hash(LEAVES[:size]).hex() == entry["root"]
    assert root_from_leaf_hashes(_hashes(TREE["leaf_hashes"][:size])).hex() == entry["root"]


@pytest.mark.parametrize(
    "entry",
    TREE["complete_subtree_hashes"],
    ids=lambda entry: f"range-{entry['start']}-{entry['end']}",
)
def test_complete_subtree_hash(entry: dict[str, Any]) -> None:
    assert root_hash(LEAVES[entry["start"] : entry["end"]]).hex() == entry["hash"]


@pytest.mark.parametrize(
    "case",
    VECTORS["inclusion"],
    ids=lambda case: f"leaf-{case['leaf_index']}-of-{case['tree_size']}",
)
def test_inclusion_kat(case: dict[str, Any]) -> None:
    index, size = case["leaf_index"], case["tree_size"]
    proof = _hashes(case["proof"])
    assert inclusion_proof(LEAVES[:size], index) == proof
    assert inclusion_proof_from_leaf_hashes(leaf_hashes(LEAVES[:size]), index) == proof
    assert leaf_hash(LEAVES[index]).hex() == case["leaf_hash"]
    got = root_from_inclusion_proof(_b(case["leaf_hash"]), index, size, proof)
    assert got.hex() == case["root"]
    trace = inclusion_trace(_b(case["leaf_hash"]), index, size, proof)
    assert len(trace) == len(proof) + 1
    assert trace[0].hex() == case["leaf_hash"]
    assert trace[-1].hex() == case["root"]
    verify_inclusion(_b(case["leaf_hash"]), index, size, proof, _b(case["root"]))


@pytest.mark.parametrize(
    "case", VECTORS["consistency"], ids=lambda case: f"size-{case['size1']}-to-{case['size2']}"
)
def test_consistency_kat(case: dict[str, Any]) -> None:
    size1, size2 = case["size1"], case["size2"]
    proof = _hashes(case["proof"])
    assert consistency_proof(LEAVES[:size2], size1) == proof
    assert consistency_proof_from_leaf_hashes(leaf_hashes(LEAVES[:size2]), size1) == proof
    verify_consistency(size1, size2, proof, _b(case["root1"]), _b(case["root2"]))


# --- transparency-dev/merkle verifier probes ---------------------------------

INCLUSION_PROBES: list[dict[str, Any]] = VECTORS["probes"]["inclusion"]
CONSISTENCY_PROBES: list[dict[str, Any]] = VECTORS["probes"]["consistency"]

# Our policy is stricter than transparency-dev/merkle in one place: every root
# must be 32 bytes (DESIGN §3.3), even where no hash is computed.  The upstream
# probe below compares two equal 12-byte "roots" ("don't care 2") at sizes
# 1 -> 1 and expects success; por rejects it with merkle.hash_length.
STRICTER_THAN_UPSTREAM = {
    "testdata/consistency/additional/sizes-are-equal-one-and-proof-is-empty.json": (
        "merkle.hash_length"
    ),
}

# Check ids a rejected probe may carry, by the upstream mutation (its "desc").
# Index and size mutations can surface as any of the listed ids depending on
# whether the mutated value is still in range and implies the same length.
_HASH = {"merkle.hash_length"}
_LENGTH = {"merkle.proof_length"}
_ROOT = {"merkle.root_mismatch"}
_EITHER_ROOT = {"merkle.root_mismatch", "merkle.consistency_root_mismatch"}
_SIZE = {"merkle.size_range"}
_INDEX_MOVED = {"merkle.index_range", "merkle.proof_length", "merkle.root_mismatch"}
INCLUSION_IDS: dict[str, set[str]] = {
    "empty leaf": _HASH,
    "empty root": _HASH | _ROOT | {"merkle.index_range"},
    "empty root and leaf": _HASH,
    "empty root and random leaf": _ROOT | {"merkle.index_range"},
    "inserted component": _LENGTH,
    "leafIdx XOR @2": _INDEX_MOVED,
    "leafIdx plus @1": _INDEX_MOVED,
    "leafIdx sub @1": _INDEX_MOVED,
    "modified proof[0] bit @3": _ROOT,
    "modified proof[1] bit @3": _ROOT,
    "modified proof[2] bit @3": _ROOT,
    "preceding garbage": _HASH,
    "preceding root": _LENGTH,
    "random leaf": _HASH | {"merkle.index_range"},
    "random root": _ROOT,
    "removed component": _LENGTH,
    "trailing garbage": _HASH,
    "trailing root": _LENGTH,
    "treeSize div @2": _LENGTH | {"merkle.index_range"},
    "treeSize mul @2": _LENGTH,
    "wrong leaf": _HASH,
}
CONSISTENCY_IDS: dict[str, set[str]] = {
    "consistency check on empty tree (size1 is zero) is useless": _SIZE,
    "empty proof": _LENGTH,
    "modified proof@0 bit @4": _EITHER_ROOT,
    "modified proof@1 bit @4": _EITHER_ROOT,
    "modified proof@2 bit @4": _EITHER_ROOT,
    "preceding garbage": _HASH,
    "preceding proof @0": _LENGTH,
    "preceding root1": _LENGTH,
    "preceding root2": _LENGTH,
    "roots do not match and sizes are zero": _SIZE,
    "roots do not not match and sizes are one": _HASH,
    "size1 XOR @2": _LENGTH | _SIZE,
    "size1 is greater than size2": _SIZE,
    "size1 is greater than size2 again": _SIZE,
    "size1 is zero and does not equal size2": _SIZE,
    "size1 is zero and size2 is not zero": _SIZE,
    "size1 plus @1": _LENGTH | _SIZE,
    "size1 sub @1": _LENGTH | _SIZE,
    "size2 div @2": _LENGTH | _SIZE,
    "size2 mul @2": _LENGTH,
    "sizes are equal (one) but roots are not": _HASH | _ROOT,
    "sizes are equal (zero) and proof is empty": _SIZE,
    "sizes are equal (zero) but roots are not": _SIZE,
    "sizes do not watch and proof is empty": _HASH | _LENGTH,
    "sizes match but proof is not empty and sizes are one": _LENGTH,
    "sizes match but proof is not empty and sizes are zero": _SIZE | _LENGTH,
    "swapped roots": _EITHER_ROOT,
    "trailing garbage": _HASH,
    "trailing root1": _LENGTH,
    "trailing root2": _LENGTH,
    "truncated proof": _LENGTH,
    "wrong root1": _HASH,
    "wrong root2": _HASH,
}


def test_probe_counts() -> None:
    """The file holds 98 + 98 probes, 12 of which a verifier must accept."""
    assert len(INCLUSION_PROBES) == 98
    assert len(CONSISTENCY_PROBES) == 98
    wanted = collections.Counter(p["want_error"] for p in INCLUSION_PROBES + CONSISTENCY_PROBES)
    assert wanted == {False: 12, True: 184}
    assert len({p["file"] for p in INCLUSION_PROBES + CONSISTENCY_PROBES}) == 196


def test_probe_outcome_counts() -> None:
    """por accepts 11 and rejects 185: the 12 upstream passes minus STRICTER_THAN_UPSTREAM."""
    accepted = 0
    for probe in INCLUSION_PROBES:
        accepted += _inclusion_probe_error(probe) is None
    for probe in CONSISTENCY_PROBES:
        accepted += _consistency_probe_error(probe) is None
    assert (accepted, 196 - accepted) == (12 - len(STRICTER_THAN_UPSTREAM), 184 + 1)


def _inclusion_probe_error(probe: dict[str, Any]) -> InclusionProofError | None:
    try:
        verify_inclusion(
            _b(probe["leaf_hash"]),
            probe["leaf_index"],
            probe["tree_size"],
            _hashes(probe["proof"]),
            _b(probe["root"]),
        )
    except InclusionProofError as error:
        return error
    return None


def _consistency_probe_error(probe: dict[str, Any]) -> ConsistencyProofError | None:
    try:
        verify_consistency(
            probe["size1"],
            probe["size2"],
            _hashes(probe["proof"]),
            _b(probe["root1"]),
            _b(probe["root2"]),
        )
    except ConsistencyProofError as error:
        return error
    return None


@pytest.mark.parametrize("probe", INCLUSION_PROBES, ids=lambda probe: probe["file"])
def test_inclusion_probe(probe: dict[str, Any]) -> None:
    error = _inclusion_probe_error(probe)
    if not probe["want_error"]:
        assert error is None
        return
    assert error is not None, "a probe that must fail verified"
    assert error.check_id in INCLUSION_IDS[probe["desc"]]


@pytest.mark.parametrize("probe", CONSISTENCY_PROBES, ids=lambda probe: probe["file"])
def test_consistency_probe(probe: dict[str, Any]) -> None:
    error = _consistency_probe_error(probe)
    if probe["file"] in STRICTER_THAN_UPSTREAM:
        assert not probe["want_error"]
        assert error is not None
        assert error.check_id == STRICTER_THAN_UPSTREAM[probe["file"]]
        return
    if not probe["want_error"]:
        assert error is None
        return
    assert error is not None, "a probe that must fail verified"
    assert error.check_id in CONSISTENCY_IDS[probe["desc"]]


# --- rolling digests over every subtree of a 130-leaf tree -------------------

ROLLING = VECTORS["rolling"]
DIGESTS = {entry["name"]: entry["digest"] for entry in ROLLING["digests"]}
ROLLING_MAX = 130
ROLLING_HASHES = leaf_hashes([bytes([i]) for i in range(ROLLING_MAX)])
# The same definitions with the loops of transparency-dev/merkle
# testonly/vectors_test.go (commit ccde87d7b46fa8b872ecea65195dc8159c3e86e3),
# which skip empty ranges [s, s); the vector file's valid_range keeps them.
WITHOUT_EMPTY_RANGES = {
    "subtree_hash": "94a95384a8c69acea9b50d035a58285b3a777cb7a724005faa5e1f1e1190007f",
    "subtree_inclusion": "ac2a8f989e44d99e399db448050ff5f19757df53cfb716aa81015d3955d8163f",
    "subtree_consistency": "c586ebbb73a5621baf2140095d87dde934e3b6503a562a1a5215b8209edd083d",
}


def _bit_ceil(value: int) -> int:
    return 1 if value <= 1 else 1 << (value - 1).bit_length()


def _valid_ranges(end: int, *, with_empty: bool) -> list[int]:
    """Starts s with [s, end) valid per the vector file's ``valid_range``."""
    starts = [0] if end > 0 else []
    starts += [s for s in range(1, end) if s % _bit_ceil(end - s) == 0]
    if with_empty:
        starts.append(end)
    return starts


@functools.cache
def _subtree_hash(start: int, end: int) -> bytes:
    return root_from_leaf_hashes(ROLLING_HASHES[start:end])


def _split(size: int) -> int:
    return 1 << ((size - 1).bit_length() - 1)


def _subtree_consistency(start: int, end: int, low: int, high: int, known: bool) -> list[bytes]:
    """draft-ietf-plants-merkle-tree-certs SUBTREE_SUBPROOF(start, end, D[low:high], known).

    RFC 9162 SUBPROOF with the valid subtree [start, end) in place of D[0:m]:
    recurse into the side that holds it; ``known`` drops only when the range
    straddles the split (which a valid subtree can do only when start == low).
    """
    if (start, end) == (low, high):
        return [] if known else [_subtree_hash(low, high)]
    middle = low + _split(high - low)
    if end <= middle:
        return [*_subtree_consistency(start, end, low, middle, known), _subtree_hash(middle, high)]
    if start >= middle:
        return [*_subtree_consistency(start, end, middle, high, known), _subtree_hash(low, middle)]
    assert start == low
    return [*_subtree_consistency(middle, end, middle, high, False), _subtree_hash(low, middle)]


def _line(prefix: str, proof: list[bytes]) -> bytes:
    return (prefix + "".join(f" {item.hex()}" for item in proof) + "\n").encode()


def _rolling_subtree_hash(with_empty: bool) -> str:
    digest = hashlib.sha256()
    for end in range(ROLLING_MAX + 1):
        for start in _valid_ranges(end, with_empty=with_empty):
            # MTH(D[start:end]) computed by por directly, not through the cache.
            value = root_from_leaf_hashes(ROLLING_HASHES[start:end])
            digest.update(f"[{start}, {end}) {value.hex()}\n".encode())
    return digest.hexdigest()


def _rolling_subtree_inclusion(with_empty: bool) -> str:
    digest = hashlib.sha256()
    for end in range(ROLLING_MAX + 1):
        for start in _valid_ranges(end, with_empty=with_empty):
            subtree = ROLLING_HASHES[start:end]
            for index in range(start, end):
                proof = inclusion_proof_from_leaf_hashes(subtree, index - start)
                if start == 0:  # plain RFC 9162 paths: they must verify too
                    leaf = ROLLING_HASHES[index]
                    verify_inclusion(leaf, index, end, proof, _subtree_hash(0, end))
                digest.update(_line(f"{index} [{start}, {end})", proof))
    return digest.hexdigest()


def _rolling_subtree_consistency(with_empty: bool) -> str:
    digest = hashlib.sha256()
    for size in range(ROLLING_MAX + 1):
        tree = ROLLING_HASHES[:size]
        for end in range(size + 1):
            for start in _valid_ranges(end, with_empty=with_empty):
                if start == end:
                    proof: list[bytes] = []
                elif start == 0:  # plain RFC 9162 PROOF(end, D[0:size]) from por
                    proof = consistency_proof_from_leaf_hashes(tree, end)
                    verify_consistency(
                        end, size, proof, _subtree_hash(0, end), _subtree_hash(0, size)
                    )
                else:
                    proof = _subtree_consistency(start, end, 0, size, True)
                digest.update(_line(f"[{start}, {end}) {size}", proof))
    return digest.hexdigest()


ROLLING_FUNCTIONS = {
    "subtree_hash": _rolling_subtree_hash,
    "subtree_inclusion": _rolling_subtree_inclusion,
    "subtree_consistency": _rolling_subtree_consistency,
}


def test_rolling_digest_names() -> None:
    assert set(DIGESTS) == set(ROLLING_FUNCTIONS)


@pytest.mark.parametrize("name", sorted(ROLLING_FUNCTIONS))
def test_rolling_digest_vector_file(name: str) -> None:
    """The file's loops, which include the empty ranges [s, s)."""
    assert ROLLING_FUNCTIONS[name](True) == DIGESTS[name]


@pytest.mark.parametrize("name", sorted(ROLLING_FUNCTIONS))
def test_rolling_digest_upstream_loops(name: str) -> None:
    """transparency-dev/merkle's loops, which skip empty ranges."""
    assert ROLLING_FUNCTIONS[name](False) == WITHOUT_EMPTY_RANGES[name]
