"""The ``deduce`` step's computation: evaluation variables from the aggregates
(SPEC §12.4, §12.4.1).

Every field the predicate reads (:func:`por.predicates.needed_fields`: the
metric, then ``terms``, ``other_metric``, ``preconditions``) is *found* as the
first field, in requirement then field order, with its key; a field of another
kind is ``wrong_kind``, none is ``absent``.  Then, in this order:

1. ``insufficient_evidence`` if a requirement is uncovered.
2. Preconditions, in order: one not ``selected`` -> insufficient; the first
   whose value is not ``equals`` -> ``otherwise`` ``NO``: ``event_observed``
   false (no ``numeric_value``); ``INVALID``: insufficient.
3. ``sources_required`` k (k of n, n = the metric requirement's
   ``source_targets``): the metric selection's ``votes`` (one per source) are
   each tested; YES iff at least k hold, NO iff more than n - k fail, else
   insufficient (always if k > n).  ``numeric_value`` is omitted; a conflict on the metric is
   not one (sources may disagree on the outcome).
4. Otherwise every read field must be ``selected``; ``numeric_value`` is the
   metric plus/minus each term (``numeric_threshold``, ``numeric_range``), the
   metric minus ``other_metric`` (``field_comparison``) or the timestamp
   (``timestamp_threshold``), as a canonical decimal; ``event_observed`` is
   :func:`por.predicates.holds` of it.  ``absent_means_no``: a metric with no
   candidate at all (``missing``) in a covered requirement is false, and the
   evidence read is every item the requirement admitted.

``conflict_detected`` iff a contradiction has the (kind, key) of a read field
(the metric even when not selected) whose requirement does not select by
``fallback_chain`` -- a chain reads a later source only when every earlier one
gave nothing, so its unread fallbacks raise none -- and never for a k-of-n
metric (the sources vote on the outcome).
``fallback_used`` iff a read selection used a fallback source.
``source_summary``: the evidence of every read selection (and of the metric
requirement's first selected ``timestamp`` field that is not the metric), in
requirement order, bundle order within one.

Leaves out: citations and step structure (``steps.deduce_step``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from por.auditor import step_io as io
from por.auditor.selection import MISSING, SELECTED
from por.auditor.values import MAX_UNIX_TIME
from por.errors import AuditError, SchemaError
from por.numbers import EXACT_CONTEXT, format_decimal, is_canonical_decimal, parse_decimal
from por.predicates import holds, needed_fields


@dataclass
class Deduced:
    """What deduce found: the variables and how the metric stood."""

    status: str
    uncovered: list[str]
    insufficient: bool = False
    event: bool | None = None
    numeric: str | None = None
    stamp: int | None = None
    conflict: bool = False
    fallback: bool = False
    read: dict[int, set[str]] = field(default_factory=dict)  # owner -> evidence ids


def _find(views: Sequence[io.AggregateView], key: str, kind: str
          ) -> tuple[str, int | None, dict[str, Any] | None]:
    for n, view in enumerate(views):
        for raw in view.fields:
            if raw["key"] == key:
                if raw["kind"] != kind:
                    return "wrong_kind", n, None
                return str(raw["status"]), n, raw
    return "absent", None, None


def _typed(kind: str, value: Any, where: str) -> Any:
    """``value`` if it has the kind's committed type, else the cited step is wrong."""
    if kind == "boolean":
        ok = type(value) is bool
    elif kind == "numeric":
        ok = type(value) is str and is_canonical_decimal(value)
    elif kind == "text":
        ok = type(value) is str
    else:
        ok = type(value) is int and 0 <= value <= MAX_UNIX_TIME
    if not ok:
        raise AuditError(io.BAD_PRIOR_OUTPUT, f"step {where}: a {kind} value of the wrong type")
    return parse_decimal(value) if kind == "numeric" else value


def deduce(prompt_spec: Any, views: Sequence[io.AggregateView],
           conflict_keys: Sequence[tuple[str, str]], step_ids: Sequence[str]) -> Deduced:
    """The module docstring's rules."""
    s = prompt_spec.prediction_semantics
    requirements = prompt_spec.data_requirements
    needed = needed_fields(s)
    found = [_find(views, n.key, n.kind) for n in needed]
    out = Deduced(found[0][0], [r.requirement_id for r, v in zip(requirements, views,
                                                                strict=True) if not v.covered])
    conflicts = set(conflict_keys)

    def read(n: int, raw: dict[str, Any], kind: str, *, votes: bool = False) -> None:
        ids = {str(v["evidence_id"]) for v in raw["votes"]} if votes else set(
            raw["evidence_ids"])
        out.read.setdefault(n, set()).update(ids)
        out.fallback = out.fallback or raw["fallback_used"] is True
        chain = requirements[n].selection_policy.strategy == "fallback_chain"
        out.conflict = out.conflict or (not votes and not chain
                                        and (kind, raw["key"]) in conflicts)

    for need, (status, owner, raw) in zip(needed, found, strict=True):
        if need.role != "precondition":
            continue
        if status != SELECTED or owner is None or raw is None:
            out.insufficient = True
            return out
        read(owner, raw, "text")
        if _typed("text", raw.get("value"), step_ids[owner]) != _equals(s, need.key):
            out.status = "precondition_unmet"
            if _otherwise(s, need.key) == "NO" and not out.uncovered:
                out.event = False
            else:
                out.insufficient = True
            return out
    status, owner, raw = found[0]
    kind = needed[0].kind
    if owner is not None and s.sources_required is None:  # even when not selected
        out.conflict = out.conflict or (
            requirements[owner].selection_policy.strategy != "fallback_chain"
            and (kind, s.metric) in conflicts)
    if owner is None or raw is None:
        out.insufficient = True
        return out
    if s.sources_required is not None:
        _votes(out, s, raw, len(requirements[owner].source_targets), step_ids[owner])
        if out.event is not None:
            read(owner, raw, kind, votes=True)
        return out
    if status == MISSING and s.absent_means_no is True and views[owner].covered:
        out.event = False
        out.read.setdefault(owner, set()).update(views[owner].evidence_ids)
        return out
    if status != SELECTED or any(f[0] != SELECTED for f in found):
        out.insufficient = True
        return out
    value = _typed(kind, raw.get("value"), step_ids[owner])
    read(owner, raw, kind)
    for need, (_, n, other) in zip(needed[1:], found[1:], strict=True):
        if need.role in ("term", "other_metric") and n is not None and other is not None:
            operand = _typed("numeric", other.get("value"), step_ids[n])
            read(n, other, "numeric")
            minus = need.role == "other_metric" or _term_op(s, need.key) == "-"
            value = (EXACT_CONTEXT.subtract(value, operand) if minus
                     else EXACT_CONTEXT.add(value, operand))
    _stamp(out, s, views[owner], owner, step_ids[owner])
    try:
        out.numeric = (format_decimal(Decimal(value)) if kind in ("numeric", "timestamp")
                       else None)
    except SchemaError:  # a sum longer than the canonical cap cannot be committed
        out.insufficient, out.status = True, "value_out_of_range"
        return out
    out.event = holds(s, Decimal(value) if out.numeric is not None else value)
    return out


def _votes(out: Deduced, s: Any, raw: dict[str, Any], targets: int, where: str) -> None:
    votes = raw.get("votes")
    if not isinstance(votes, list):
        raise AuditError(io.BAD_PRIOR_OUTPUT, f"step {where}: the metric has no votes")
    kind = raw["kind"]
    yes = no = 0
    for vote in votes:
        if not isinstance(vote, dict) or type(vote.get("evidence_id")) is not str:
            raise AuditError(io.BAD_PRIOR_OUTPUT, f"step {where}: a malformed vote")
        if holds(s, _typed(kind, vote.get("value"), where)):
            yes += 1
        else:
            no += 1
    k = s.sources_required
    if k > targets:  # neither k holding nor n - k + 1 failing can happen: undecidable
        out.insufficient, out.status = True, "votes_undecided"
    elif yes >= k:
        out.event = True
    elif no > targets - k:
        out.event = False
    else:
        out.insufficient, out.status = True, "votes_undecided"


def _stamp(out: Deduced, s: Any, view: io.AggregateView, owner: int, where: str) -> None:
    skip = s.metric if s.predicate == "timestamp_threshold" else None
    stamp = next((f for f in view.fields if f["kind"] == "timestamp"
                  and f["status"] == SELECTED and f["key"] != skip), None)
    if stamp is not None and type(stamp.get("value")) is int:
        if not 0 <= stamp["value"] <= MAX_UNIX_TIME:
            # Extraction never yields such a value: the cited step is wrong.
            raise AuditError(io.BAD_PRIOR_OUTPUT, f"step {where}: timestamp outside 0..2^63-1")
        out.stamp = stamp["value"]
        out.read.setdefault(owner, set()).update(stamp["evidence_ids"])
        out.fallback = out.fallback or stamp["fallback_used"] is True


def _equals(s: Any, key: str) -> str:
    return next(str(p.equals) for p in s.preconditions if p.key == key)


def _otherwise(s: Any, key: str) -> str:
    return next(str(p.otherwise) for p in s.preconditions if p.key == key)


def _term_op(s: Any, key: str) -> str:
    return next(str(t.op) for t in s.terms if t.metric == key)


def summary_of(out: Deduced, views: Sequence[io.AggregateView],
               step_ids: Sequence[str]) -> list[str]:
    """The evidence read, in requirement order, bundle order within one."""
    summary: list[str] = []
    seen: set[str] = set()
    for owner in sorted(out.read):
        ids = out.read[owner]
        positions = views[owner].positions_of(ids)
        if not ids <= positions.keys():
            raise AuditError(io.BAD_PRIOR_OUTPUT, f"step {step_ids[owner]}: selection names "
                             "evidence its step does not cite")
        for eid in sorted(ids, key=positions.__getitem__):
            if eid not in seen:
                seen.add(eid)
                summary.append(eid)
    return summary


__all__ = ["Deduced", "deduce", "summary_of"]
