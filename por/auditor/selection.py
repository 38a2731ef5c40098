"""Selection policies: reconcile several sources for one field (SPEC §12.3).

Input: the admitted candidates for one field of one requirement, each with its
position in bundle order.  First, **one vote per source**: only the first
candidate (bundle order) of each ``source_id`` counts.  Then:

* no candidates at all -> ``missing``;
* ``single_best`` -- one source by the tie-breaker: ``highest_provenance``
  = highest ``provenance_tier``, ties by bundle order; ``source_order`` =
  bundle order;
* ``multi_source_quorum`` -- fewer than ``min_sources`` voting sources ->
  status ``insufficient`` (the only strategy that reads ``min_sources`` and
  ``quorum``, SPEC §18.3); else candidates are visited in tie-breaker order; the
  first candidate ``c`` whose *agreeing group* has at least ``quorum``
  members wins and its own value is the field value (no median, no mean).
  The agreeing group of ``c`` is every voting candidate whose value agrees
  with ``c``: numbers within ``conflict_policy.numeric_tolerance`` (exact, see
  :func:`por.auditor.values.tolerance_bounds`), other kinds equal.  The group
  members, in bundle order, are the evidence used.  No group large enough ->
  ``no_quorum``.  O(n log n): values are sorted once, groups are counted by
  bisection;
* ``fallback_chain`` -- the first candidate in ``source_targets`` order (ties
  by bundle order); ``fallback_used`` iff its source is not the first target.

Leaves out: admission (which candidates exist) and what the statuses mean
for the verdict (``steps.deduce``).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from por.auditor.values import tolerance_bounds
from por.numbers import parse_decimal

if TYPE_CHECKING:  # read by attribute: a lean policy works too (issue 16)
    from por.schemas import SelectionPolicy

SELECTED = "selected"
MISSING = "missing"
INSUFFICIENT = "insufficient"
NO_QUORUM = "no_quorum"


@dataclass(frozen=True, slots=True)
class Candidate:
    """One admitted claim for one field."""

    position: int
    evidence_id: str
    source_id: str
    provenance_tier: int
    claim_id: str
    value: str | int | bool


@dataclass(frozen=True, slots=True)
class FieldSelection:
    """The policy's result for one field."""

    key: str
    kind: str
    status: str
    candidates: int
    value: str | int | bool | None = None
    claim_ids: tuple[str, ...] = ()
    evidence_ids: tuple[str, ...] = ()
    fallback_used: bool = False
    quorum: dict[str, Any] = field(default_factory=dict)

    def to_value(self) -> dict[str, Any]:
        """The committed form inside an ``aggregate`` step."""
        out: dict[str, Any] = {
            "key": self.key, "kind": self.kind, "status": self.status,
            "candidates": self.candidates, "claim_ids": list(self.claim_ids),
            "evidence_ids": list(self.evidence_ids), "fallback_used": self.fallback_used,
        }
        if self.value is not None:
            out["value"] = self.value
        if self.quorum:
            out["quorum"] = dict(self.quorum)
        return out


def _one_per_source(candidates: Sequence[Candidate]) -> list[Candidate]:
    seen: set[str] = set()  # membership only, never iterated
    out: list[Candidate] = []
    for candidate in sorted(candidates, key=lambda c: c.position):
        if candidate.source_id not in seen:
            seen.add(candidate.source_id)
            out.append(candidate)
    return out


def _tie_order(policy: SelectionPolicy, voters: list[Candidate]) -> list[Candidate]:
    if policy.tie_breaker == "highest_provenance":
        return sorted(voters, key=lambda c: (-c.provenance_tier, c.position))
    return voters  # already in bundle order


def _quorum(key: str, kind: str, policy: SelectionPolicy, voters: list[Candidate],
            tolerance: Decimal) -> FieldSelection:
    order = _tie_order(policy, voters)
    if kind == "numeric":
        numbers = [parse_decimal(str(c.value)) for c in voters]
        ranked = sorted(numbers)
        for candidate in order:
            center = parse_decimal(str(candidate.value))
            low, high = tolerance_bounds(center, tolerance)
            count = bisect.bisect_right(ranked, high) - bisect.bisect_left(ranked, low)
            if count >= policy.quorum:
                members = [c for c, n in zip(voters, numbers, strict=True) if low <= n <= high]
                return _chosen(key, kind, voters, value=candidate.value, members=members,
                               count=count, policy=policy)
    else:
        counts: dict[str | int | bool, int] = {}
        for c in voters:
            # bool and int are kept apart: a field has one kind, so they never mix.
            counts[c.value] = counts.get(c.value, 0) + 1
        for candidate in order:
            count = counts[candidate.value]
            if count >= policy.quorum:
                members = [c for c in voters if c.value == candidate.value]
                return _chosen(key, kind, voters, value=candidate.value, members=members,
                               count=count, policy=policy)
    best = max(counts_for(kind, voters, tolerance))  # the largest group, for people
    return FieldSelection(key=key, kind=kind, status=NO_QUORUM, candidates=len(voters),
                          quorum={"required": policy.quorum, "agreeing": best, "met": False})


def counts_for(kind: str, voters: list[Candidate], tolerance: Decimal) -> list[int]:
    """Size of each voter's agreeing group (used only for the ``no_quorum`` report)."""
    if kind == "numeric":
        ranked = sorted(parse_decimal(str(c.value)) for c in voters)
        out = []
        for c in voters:
            low, high = tolerance_bounds(parse_decimal(str(c.value)), tolerance)
            out.append(bisect.bisect_right(ranked, high) - bisect.bisect_left(ranked, low))
        return out
    counts: dict[str | int | bool, int] = {}
    for c in voters:
        counts[c.value] = counts.get(c.value, 0) + 1
    return [counts[c.value] for c in voters]


def _chosen(key: str, kind: str, voters: list[Candidate], *, value: str | int | bool,
            members: list[Candidate], count: int, policy: SelectionPolicy) -> FieldSelection:
    return FieldSelection(
        key=key, kind=kind, status=SELECTED, candidates=len(voters), value=value,
        claim_ids=tuple(c.claim_id for c in members),
        evidence_ids=tuple(c.evidence_id for c in members),
        quorum={"required": policy.quorum, "agreeing": count, "met": True})


def select_field(key: str, kind: str, *, policy: SelectionPolicy, target_ids: Sequence[str],
                 candidates: Sequence[Candidate], tolerance: Decimal) -> FieldSelection:
    """Apply ``policy`` to one field's candidates (see the module docstring)."""
    voters = _one_per_source(candidates)
    if not voters:
        return FieldSelection(key=key, kind=kind, status=MISSING, candidates=0)
    if policy.strategy == "multi_source_quorum":
        if len(voters) < policy.min_sources:
            return FieldSelection(key=key, kind=kind, status=INSUFFICIENT,
                                  candidates=len(voters))
        return _quorum(key, kind, policy, voters, tolerance)
    fallback_used = False
    if policy.strategy == "fallback_chain":
        rank = {source_id: i for i, source_id in enumerate(target_ids)}
        unranked = len(rank)  # admitted evidence is always targeted; be total anyway
        chosen = min(voters, key=lambda c: (rank.get(c.source_id, unranked), c.position))
        fallback_used = not target_ids or chosen.source_id != target_ids[0]
    else:  # single_best
        chosen = _tie_order(policy, voters)[0]
    return FieldSelection(key=key, kind=kind, status=SELECTED, candidates=len(voters),
                          value=chosen.value, claim_ids=(chosen.claim_id,),
                          evidence_ids=(chosen.evidence_id,), fallback_used=fallback_used)


__all__ = [
    "INSUFFICIENT",
    "MISSING",
    "NO_QUORUM",
    "SELECTED",
    "Candidate",
    "FieldSelection",
    "select_field",
]
