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
lean :class:`~por.lean.checks.Check` from :meth:`ContradictionChecker.conflicts`)
with ``ok=False`` and severity ``warn``:
the auditor only detects; the judge applies ``conflict_policy``.  Details are
``{"kind", "key", "claim_ids", "evidence_ids", "values", "claim_count"}`` with
values as text (``"101.5"``, ``"true"``).  One pass, linear in the claims.

Leaves out: which claims feed the decision (the caller passes those) and what
a conflict does to the verdict.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from por.auditor.claim_extraction import Claim
from por.auditor.values import within_tolerance
from por.lean.checks import Check, results_from
from por.numbers import parse_decimal

if TYPE_CHECKING:
    from por.schemas import CheckResult

CHECK_NUMERIC = "contradiction.numeric"
CHECK_BOOLEAN = "contradiction.boolean"


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _conflict(check_id: str, pair: tuple[Claim, Claim], count: int) -> Check:
    first, second = pair
    details: dict[str, Any] = {
        "kind": first.kind,
        "key": first.key,
        "claim_ids": [first.claim_id, second.claim_id],
        "evidence_ids": [first.evidence_id, second.evidence_id],
        "values": [_text(first.value), _text(second.value)],
        "claim_count": count,
    }
    return Check(
        check_id, False, "warn",
        (f"{first.kind} claims for {first.key!r} disagree: "
         f"{_text(first.value)} ({first.evidence_id}) vs "
         f"{_text(second.value)} ({second.evidence_id})"),
        details=details,
    )


class ContradictionChecker:
    """Detect disagreeing claims of the same semantic key."""

    def __init__(self, numeric_tolerance: str = "0") -> None:
        self.numeric_tolerance: Decimal = parse_decimal(numeric_tolerance)

    def check(self, claims: Iterable[Claim]) -> list[CheckResult]:
        """One ``CheckResult`` per conflicting group, groups in first-seen order."""
        return results_from(self.conflicts(claims))

    def conflicts(self, claims: Iterable[Claim]) -> list[Check]:
        """:meth:`check` as lean checks (no pydantic), the same order and content."""
        groups: dict[tuple[str, str], list[Claim]] = {}
        for claim in claims:
            if claim.kind in ("numeric", "boolean"):
                groups.setdefault((claim.kind, claim.key), []).append(claim)
        results: list[Check] = []
        for (kind, _key), members in groups.items():  # insertion order: deterministic
            found = (self._numeric(members) if kind == "numeric"
                     else self._boolean(members))
            if found is not None:
                results.append(found)
        return results

    def _numeric(self, members: list[Claim]) -> Check | None:
        low = high = members[0]
        low_value = high_value = parse_decimal(str(low.value))
        for claim in members[1:]:
            value = parse_decimal(str(claim.value))
            if value < low_value:
                low, low_value = claim, value
            elif value > high_value:
                high, high_value = claim, value
        if within_tolerance(high_value, low_value, self.numeric_tolerance):
            return None
        return _conflict(CHECK_NUMERIC, (low, high), len(members))

    @staticmethod
    def _boolean(members: list[Claim]) -> Check | None:
        first_true = next((c for c in members if c.value is True), None)
        first_false = next((c for c in members if c.value is False), None)
        if first_true is None or first_false is None:
            return None
        pair = ((first_true, first_false) if members.index(first_true)
                < members.index(first_false) else (first_false, first_true))
        return _conflict(CHECK_BOOLEAN, pair, len(members))


__all__ = ["CHECK_BOOLEAN", "CHECK_NUMERIC", "ContradictionChecker"]
