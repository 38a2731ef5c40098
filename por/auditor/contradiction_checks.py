"""Contradiction detection across claims (seed M06 §9).

Claims are grouped by *semantic key* ``(kind, key)`` -- the field key, not the
path, so two sources that spell the path differently still meet.  Groups are
visited in first-seen order; only ``numeric`` and ``boolean`` claims are
compared (timestamps legitimately differ between sources, and text has no
notion of agreement here).

* ``contradiction.numeric`` -- the group's exact spread ``max - min`` exceeds
  the tolerance (:func:`por.auditor.values.within_tolerance`).  The details
  name the first minimal and the first maximal claim, in that order.
* ``contradiction.boolean`` -- the group holds both ``true`` and ``false``.
  The details name the first claim of each value, in claim order.

Each detection is a check (``CheckResult`` from :meth:`ContradictionChecker.check`, the
lean :class:`~por.lean.writers_gen.Check` from :meth:`ContradictionChecker.conflicts`)
with ``ok=False`` and severity ``warn``:
the auditor only detects; the judge applies ``conflict_policy``.  Details are
``{"kind", "key", "claim_ids", "evidence_ids", "values", "claim_count"}`` with
values as text (``"101.5"``, ``"true"``).  One pass, linear in the claims.

Leaves out: which claims feed the decision (the caller passes those) and what
a conflict does to the verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from por.auditor.claim_extraction import Claim
from por.auditor.values import within_tolerance
from por.lean.writer_hooks import results_from
from por.lean.writers_gen import Check
from por.numbers import parse_decimal

if TYPE_CHECKING:
    from por.schemas import CheckResult

CHECK_NUMERIC = "contradiction.numeric"
CHECK_BOOLEAN = "contradiction.boolean"


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def conflict_check(check_id: str, kind: str, key: str, *, first: Mapping[str, Any],
                   second: Mapping[str, Any], count: int) -> Check:
    """The check of one conflicting group, its pair given as claim references
    ``{"claim_id", "evidence_id", "value"}`` (SPEC §12.5.5)."""
    details: dict[str, Any] = {
        "kind": kind,
        "key": key,
        "claim_ids": [first["claim_id"], second["claim_id"]],
        "evidence_ids": [first["evidence_id"], second["evidence_id"]],
        "values": [_text(first["value"]), _text(second["value"])],
        "claim_count": count,
    }
    return Check(
        check_id, False, "warn",
        (f"{kind} claims for {key!r} disagree: "
         f"{_text(first['value'])} ({first['evidence_id']}) vs "
         f"{_text(second['value'])} ({second['evidence_id']})"),
        details=details,
    )


def _ref(claim: Claim) -> dict[str, Any]:
    return {"claim_id": claim.claim_id, "evidence_id": claim.evidence_id, "value": claim.value}


def _conflict(check_id: str, pair: tuple[Claim, Claim], count: int) -> Check:
    first, second = pair
    return conflict_check(check_id, first.kind, first.key, first=_ref(first),
                          second=_ref(second), count=count)


class ContradictionChecker:
    """Detect disagreeing claims of the same semantic key."""

    def __init__(self, numeric_tolerance: str = "0") -> None:
        self.numeric_tolerance: Decimal = parse_decimal(numeric_tolerance)

    def check(self, claims: Iterable[Claim]) -> list[CheckResult]:
        """One ``CheckResult`` per conflicting group, groups in first-seen order."""
        return results_from(self.conflicts(claims))

    def conflicts(self, claims: Iterable[Claim]) -> list[Check]:
        """:meth:`check` as lean checks (no pydantic), the same order and content.

        One pass that keeps, per group, only what its verdict needs (the first
        minimal and maximal claim, or the first claim of each boolean value, and
        a count): ``claims`` may be a stream no one holds at once (issue 16)."""
        groups: dict[tuple[str, str], _Group] = {}
        for claim in claims:
            if claim.kind in ("numeric", "boolean"):
                group = groups.get((claim.kind, claim.key))
                if group is None:
                    groups[(claim.kind, claim.key)] = _Group(claim)
                elif claim.kind == "numeric":
                    group.numeric(claim)
                else:
                    group.boolean(claim)
        results: list[Check] = []
        for (kind, _key), group in groups.items():  # insertion order: deterministic
            found = (group.numeric_conflict(self.numeric_tolerance) if kind == "numeric"
                     else group.boolean_conflict())
            if found is not None:
                results.append(found)
        return results


class _Group:
    """One semantic key's claims, as far as a conflict needs them: numeric, the
    first minimal and first maximal claim; boolean, the first ``true`` and the
    first ``false`` claim (named in the order seen); and how many there were."""

    __slots__ = ("count", "first", "high", "high_value", "low", "low_value", "second")

    def __init__(self, claim: Claim) -> None:
        self.count = 0
        self.low = self.high = claim
        self.low_value = self.high_value = (
            parse_decimal(str(claim.value)) if claim.kind == "numeric" else None)
        self.first: Claim | None = None  # boolean: the first true or false claim
        self.second: Claim | None = None  # then the first claim of the other value
        if claim.kind == "numeric":
            self.count = 1
        else:
            self.boolean(claim)

    def numeric(self, claim: Claim) -> None:
        self.count += 1
        value = parse_decimal(str(claim.value))
        if value < self.low_value:  # type: ignore[operator]
            self.low, self.low_value = claim, value
        elif value > self.high_value:  # type: ignore[operator]
            self.high, self.high_value = claim, value

    def boolean(self, claim: Claim) -> None:
        self.count += 1
        if claim.value is not True and claim.value is not False:
            return
        if self.first is None:
            self.first = claim
        elif self.second is None and claim.value is not self.first.value:
            self.second = claim

    def numeric_conflict(self, tolerance: Decimal) -> Check | None:
        if within_tolerance(self.high_value, self.low_value, tolerance):  # type: ignore[arg-type]
            return None
        return _conflict(CHECK_NUMERIC, (self.low, self.high), self.count)

    def boolean_conflict(self) -> Check | None:
        if self.first is None or self.second is None:
            return None
        return _conflict(CHECK_BOOLEAN, (self.first, self.second), self.count)


__all__ = ["CHECK_BOOLEAN", "CHECK_NUMERIC", "ContradictionChecker", "conflict_check"]
