"""How a malformed entry tree loses (ADR 0016, "New ways to lie"): the first fault of a
record's committed leaves and the leaves (by index) a proof carries to show it.

``por verify`` runs this over every record (it holds all leaves); a challenger copies
the named leaves with their multiproof into a ``por.RecordProof/1`` and the chain
re-checks the same rule on them alone.  Every rule reads one leaf, two adjacent
leaves, or a length leaf and one leaf at a fixed distance from it:

* ``record.entry_invalid`` (1 leaf): not canonical ``por-cbor/1``, not a 2-array
  ``[path, value]``, a path not an array of texts and unsigned integers, a position
  where the record type splits no list (or a text where it does), a length leaf's
  value not an unsigned integer; the empty path (the group leaf) with a value that is
  not a non-empty map of the type's grouped keys only, or a grouped key as a path;
* ``record.entry_order`` (leaves i, i+1): the first's path not strictly before the
  second's (``entries.path_key``): out of order, or the same path twice;
* ``record.entry_missing`` (leaves i, i+1; leaf 0; or the last leaf): a required path
  (``REQUIRED``) falls strictly between them, before the first or after the last; a
  grouped key missing from the group leaf (leaf 0);
* ``record.entry_count`` (at most 3 leaves): a list's elements are 0..n-1, each
  element's leaves contiguous, right after its length leaf ``[P, n]`` at L: leaf L + 1
  is not in element 0 (or, n = 0, is in the list); two adjacent leaves of the list
  whose element indices are not k, k or k, k + 1; or the list's last leaf j (leaf
  j + 1 outside the list, or j the record's last) not in element n - 1 (shown by
  the length leaf and leaves j, j + 1).
"""

from __future__ import annotations

from typing import Any

from auditor3.entries import GROUPED, SPLIT, Path, path_key, split_mode
from por.encoding import decode, encode
from por.errors import PorError

#: Paths every record of a type holds (``*``: in every element of a split list).
REQUIRED: dict[str, list[Path]] = {
    "prompt_spec": [("confidence_policy",), ("conflict_policy",), ("data_requirements",),
                    ("market",), ("output_schema_ref",), ("prediction_semantics",),
                    ("schema",), ("strict_mode",), ("timestamp_slack_seconds",)],
    "step": [("description",), ("evidence_ids",), ("inputs",), ("prior_step_ids",),
             ("schema",), ("step_id",), ("step_type",)],
    "evidence": [("confidence_bps",), ("content_hash",), ("content_type",),
                 ("evidence_id",), ("provenance_tier",), ("requirement_id",),
                 ("retrieval_receipt",), ("schema",), ("source",)],
}

Fault = tuple[str, tuple[int, ...]]


def _parse(kind: str, leaf: bytes) -> tuple[Path, Any] | None:
    try:
        value = decode(leaf)
    except PorError:
        return None
    if type(value) is not list or len(value) != 2 or type(value[0]) is not list:
        return None
    path = tuple(value[0])
    if bytes(encode(value)) != leaf:
        return None
    if not path:  # the group leaf: a map of the record type's grouped keys only
        group = GROUPED.get(kind, frozenset())
        ok = type(value[1]) is dict and value[1] and set(value[1]) <= group
        return (path, value[1]) if ok else None
    if path[0] in GROUPED.get(kind, frozenset()):
        return None
    for depth, part in enumerate(path):
        parent = split_mode(kind, path[:depth]) if depth else "map"
        if type(part) is not (int if parent == "list" else str):
            return None
    if split_mode(kind, path) == "list" and type(value[1]) is not int:
        return None
    return path, value[1]


def _between(a: Path | None, b: Path | None, want: Path) -> bool:
    key = path_key(want)
    return (a is None or path_key(a) < key) and (b is None or key < path_key(b))


def _element(parsed: list[tuple[Path, Any]], j: int, path: Path) -> int | None:
    """The element index of leaf j in the list at ``path`` (None: not under it)."""
    if j >= len(parsed):
        return None
    p = parsed[j][0]
    return p[len(path)] if len(p) > len(path) and p[:len(path)] == path else None


def _count(parsed: list[tuple[Path, Any]], at: int, path: Path, n: int) -> tuple[int, ...] | None:
    """A list's elements are 0..n-1, each element's leaves contiguous after its length
    leaf at ``at``: the leaves that show otherwise."""
    first = _element(parsed, at + 1, path)
    if first != (0 if n else None):
        return (at, at + 1) if at + 1 < len(parsed) else (at,)
    j = at + 1
    while n and _element(parsed, j + 1, path) is not None:
        k, k2 = _element(parsed, j, path), _element(parsed, j + 1, path)
        if k is None or k2 is None or k2 not in (k, k + 1):
            return (j, j + 1)
        j += 1
    if n and _element(parsed, j, path) != n - 1:
        return (at, j, j + 1) if j + 1 < len(parsed) else (at, j)
    return None


def first_fault(kind: str, leaves: list[bytes]) -> Fault | None:
    """The first fault of a record's leaves and the leaf indices that show it."""
    parsed: list[tuple[Path, Any]] = []
    for i, leaf in enumerate(leaves):
        entry = _parse(kind, leaf)
        if entry is None:
            return "record.entry_invalid", (i,)
        parsed.append(entry)
    for i in range(len(parsed) - 1):
        if not path_key(parsed[i][0]) < path_key(parsed[i + 1][0]):
            return "record.entry_order", (i, i + 1)
    grouped = parsed[0][1] if kind in GROUPED and parsed and not parsed[0][0] else {}
    for want in REQUIRED[kind]:
        if want[0] in GROUPED.get(kind, frozenset()):  # shown by the group leaf (leaf 0)
            if want[0] not in grouped:
                return "record.entry_missing", (0,)
            continue
        if not any(p == want or p[:len(want)] == want for p, _v in parsed):
            bounds = [None, *(p for p, _v in parsed), None]
            i = next(j for j in range(len(parsed) + 1) if _between(bounds[j], bounds[j + 1],
                                                                    want))
            return "record.entry_missing", tuple(k for k in (i - 1, i) if 0 <= k < len(parsed))
    for at, (path, value) in enumerate(parsed):
        if split_mode(kind, path) == "list":
            fault = _count(parsed, at, path, value)
            if fault is not None:
                return "record.entry_count", fault
    return None


__all__ = ["REQUIRED", "SPLIT", "first_fault"]
