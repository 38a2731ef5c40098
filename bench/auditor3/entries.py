"""The entry leaves of a record and the trees over them (ADR 0016, "Leaves and trees").

A record (a canonical ``por-cbor/1`` map) is committed as the RFC 9162 tree of its
**entry leaves**, each the canonical encoding of a two-item array ``[path, value]``:
``path`` is the array of map keys (texts) and list positions (unsigned integers)
from the record's top level to the value.  Which maps and lists are split into
entries is fixed per record type (``SPLIT``); every other value is one leaf whole.
A split list at path P of n elements is its *length leaf* ``[P, n]`` followed by
its elements' leaves (P + [i]).  Leaves are ordered by path (``path_key``): a
path before its extensions, texts in §2 key order, positions ascending.

The tree's root and size make the record's 40-byte head ``root || uint64_be(n)``
(as SPEC §5.4's component leaf); a component of many records (evidence, reasoning)
is the RFC 9162 tree of its records' heads.  The PromptSpec component is its entry
tree itself (root, size).  Manifest, trace header and verdict stay whole records.
Everything is computed with ``por.encoding`` and ``por.merkle``.
"""

from __future__ import annotations

import hashlib
from typing import Any

from por.encoding import encode
from por.merkle import leaf_hashes, root_from_leaf_hashes, tree_levels

Path = tuple[str | int, ...]

#: Split paths per record type: "map" (one leaf per entry) or "list" (a length
#: leaf, then one leaf per element).  ``*`` matches any list position.  The record's
#: top level is always split as a map.
SPLIT: dict[str, dict[Path, str]] = {
    "prompt_spec": {("market",): "map", ("data_requirements",): "list",
                    ("data_requirements", "*"): "map",
                    ("data_requirements", "*", "source_targets"): "list",
                    ("data_requirements", "*", "source_targets", "*"): "map",
                    ("data_requirements", "*", "expected_fields"): "list",
                    ("data_requirements", "*", "expected_fields", "*"): "map"},
    "step": {("output",): "map"},
    "evidence": {},
}


#: The step's identity entries, read by every reader of a step.
STEP_HEAD = frozenset({"schema", "step_id", "step_type", "inputs"})
#: Record types whose identity entries travel as one **group leaf** ``[[], {entries}]``
#: (first in the record's order: the empty path precedes every other): fewer leaves
#: to hash, and every reader reads all of them anyway.  ``--every-entry`` empties it
#: to measure the variant with each entry its own leaf.
GROUPED: dict[str, frozenset[str]] = {"step": STEP_HEAD}


def _matches(pattern: Path, path: Path) -> bool:
    return len(pattern) == len(path) and all(
        (p == "*" and type(q) is int) or p == q for p, q in zip(pattern, path, strict=True))


def split_mode(kind: str, path: Path) -> str | None:
    return next((m for p, m in SPLIT[kind].items() if _matches(p, path)), None)


def evidence_view(item: dict[str, Any]) -> dict[str, Any]:
    """An EvidenceItem as /3 commits it: ``content`` replaced by ``content_hash``
    (SHA-256 of the body, 32 bytes); the body travels beside the record."""
    out = {k: v for k, v in item.items() if k != "content"}
    out["content_hash"] = hashlib.sha256(item["content"]).digest()
    return out


def entries(kind: str, record: dict[str, Any]) -> list[tuple[Path, Any]]:
    """(path, value) of every leaf of ``record`` (a decoded record of ``kind``), in
    leaf order."""
    out: list[tuple[Path, Any]] = []

    def walk(prefix: Path, value: Any, mode: str) -> None:
        if mode == "list":
            out.append((prefix, len(value)))
            for i, element in enumerate(value):
                sub = (*prefix, i)
                inner = split_mode(kind, sub)
                walk(sub, element, inner) if inner else out.append((sub, element))
            return
        for key, element in value.items():
            sub = (*prefix, key)
            inner = split_mode(kind, sub)
            walk(sub, element, inner) if inner else out.append((sub, element))

    if kind in GROUPED:
        head = {k: v for k, v in record.items() if k in GROUPED[kind]}
        out.append(((), head))
        walk((), {k: v for k, v in record.items() if k not in head}, "map")
    else:
        walk((), record, "map")
    out.sort(key=lambda e: path_key(e[0]))
    return out


def path_key(path: Path) -> tuple[tuple[int, int, bytes], ...]:
    """The order of leaves: component by component, a text by its §2 key order
    (encoded length, then bytes), a position by value; a prefix first."""
    return tuple((0, p, b"") if type(p) is int else (1, len(encode(p)), encode(p))
                 for p in path)


def leaf_bytes(path: Path, value: Any) -> bytes:
    """The leaf: canonical ``[path, value]``."""
    return bytes(encode([list(path), value]))


class RecordTree:
    """A record's leaves, their tree, its head."""

    def __init__(self, kind: str, record: dict[str, Any]) -> None:
        self.kind = kind
        self.entries = entries(kind, record)
        self.leaves = [leaf_bytes(p, v) for p, v in self.entries]
        self.levels = tree_levels(leaf_hashes(self.leaves))
        self.root = root_from_leaf_hashes(leaf_hashes(self.leaves))
        self.head = self.root + len(self.leaves).to_bytes(8, "big")

    def index(self, path: Path) -> int:
        return next(i for i, (p, _v) in enumerate(self.entries) if p == path)

    def select(self, prefixes: list[Path]) -> list[int]:
        """Indices of the leaves whose path starts with one of ``prefixes`` (a ``*``
        matches any position; a pattern ending ``#`` matches its path exactly: a
        split list's length leaf alone); for a path without ``*`` that no leaf has,
        the two leaves around where it would be (the proof of its absence)."""
        if self.kind in GROUPED:  # a grouped entry is read through the group's leaf
            prefixes = [() if q and q[0] in GROUPED[self.kind] else q for q in prefixes]

        def hit(q: Path, p: Path) -> bool:
            if not q:
                return not p
            if q and q[-1] == "#":
                return _matches(q[:-1], p)
            return len(p) >= len(q) and _matches(q, p[:len(q)])
        found = {i for i, (p, _v) in enumerate(self.entries) if any(hit(q, p) for q in prefixes)}
        for q in prefixes:  # an exact path read but absent: its two neighbours show it
            if not q or "*" in q or "#" in q or any(hit(q, p) for p, _v in self.entries):
                continue
            at = sum(1 for p, _v in self.entries if path_key(p) < path_key(q))
            found.update(i for i in (at - 1, at) if 0 <= i < len(self.entries))
        return sorted(found)


class ComponentTree:
    """A component of many records (evidence, reasoning): the tree of their heads."""

    def __init__(self, records: list[RecordTree]) -> None:
        self.records = records
        self.levels = tree_levels(leaf_hashes([r.head for r in records]))
        self.root = root_from_leaf_hashes(leaf_hashes([r.head for r in records]))


def _split(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def multiproof(hashes: list[bytes], chosen: list[int]) -> tuple[list[bytes], int]:
    """The RFC 9162 tree of ``hashes`` (leaf hashes) opened at the ``chosen`` leaves:
    the hashes of the maximal subtrees holding no chosen leaf, left to right (the
    verifier rebuilds the root from them and the chosen leaves by the same recursion
    over (n, chosen)), and the node hashes the verifier computes."""
    wanted = set(chosen)
    out: list[bytes] = []

    def walk(lo: int, hi: int) -> int:
        if not any(lo <= i < hi for i in wanted):
            out.append(root_from_leaf_hashes(hashes[lo:hi]))
            return 0
        if hi - lo == 1:
            return 0
        k = _split(hi - lo)
        return 1 + walk(lo, lo + k) + walk(lo + k, hi)

    nodes = walk(0, len(hashes))
    return out, nodes
