"""Logic sanity: which evidence may feed the decision (seed M06 §10, SPEC §12.2).

For each requirement, each of its items (``item.requirement_id``) is admitted
or rejected with every failing reason, in this fixed order:

1. ``sanity.allowed_source`` -- ``source.source_id`` not in ``market.allowed_sources``;
2. ``sanity.source_target`` -- not one of the requirement's ``source_targets``;
3. ``sanity.time_window`` -- the observation time is outside
   ``[max(0, start - slack), end + slack]`` (closed; ``slack`` =
   ``timestamp_slack_seconds``).  The observation time is the item's first
   ``timestamp`` claim (field order), else ``retrieval_receipt.retrieved_at``;
4. ``sanity.provenance`` -- ``provenance_tier < min_provenance_tier``;
5. ``sanity.confidence`` -- ``confidence_bps`` not an int in 0..10000
   (defence in depth: the schema already refuses it);
6. ``sanity.http_status`` -- ``retrieval_receipt.status_code`` is not one of
   the requirement's ``accepted_status_codes`` (absent: 200..299).  An error
   page is not evidence, whatever its body says (issue 23: an HTTP 500 with a
   zero-filled body decided NO);
7. only if 1-6 pass: the admission gate (:func:`por.gate.admit`) on the item's
   claim set as an agent result (agent = source id, one hypothesis per claim
   citing the item); a rejection adds the gate's check id.

Per requirement: ``covered`` iff at least one item is admitted
(``sanity.requirement_coverage``); ``provenance_ok`` is false iff nothing is
admitted *and* some item was rejected for its tier (``sanity.provenance``):
the required tier was not met by any evidence.  Admitted evidence always
meets the tier, so the judge's per-item tier rule holds for what it cites.

``sanity.variables`` (can the predicate be evaluated?) is decided by the
``deduce`` step; :meth:`LogicSanityChecker.check` gives a pre-aggregation
version (some admitted claim has the metric's key and kind).

Every finding is a check with severity ``warn`` (``info`` when ok):
excluded evidence is a data-quality fact the judge acts on through the
evaluation variables, not a failed audit.  The ``*_findings`` functions give
lean :class:`~por.lean.writers_gen.Check` objects (the auditor's own path, no
pydantic); the public ``*_results`` functions and :class:`LogicSanityChecker`
give the same as ``CheckResult``.

Leaves out: extraction and reconciliation; the trace structure.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from por.auditor.claim_extraction import Claim, ClaimSet, requirement_for
from por.gate import ClaimHypothesis, ClaimResult, admit
from por.lean.writer_hooks import results_from
from por.lean.writers_gen import Check
from por.numbers import BPS_MAX
from por.predicates import METRIC_KIND

if TYPE_CHECKING:
    from por.gate import AgentResult
    from por.schemas import (
        CheckResult,
        DataRequirement,
        EvidenceBundle,
        EvidenceItem,
        PromptSpec,
    )

CHECK_ALLOWED_SOURCE = "sanity.allowed_source"
CHECK_SOURCE_TARGET = "sanity.source_target"
CHECK_TIME_WINDOW = "sanity.time_window"
CHECK_PROVENANCE = "sanity.provenance"
CHECK_CONFIDENCE = "sanity.confidence"
CHECK_COVERAGE = "sanity.requirement_coverage"
CHECK_VARIABLES = "sanity.variables"
CHECK_HTTP_STATUS = "sanity.http_status"

#: Kind of the ``metric`` field each predicate needs.
PREDICATE_KIND = METRIC_KIND


@dataclass(frozen=True, slots=True)
class ItemAdmission:
    """One item's admission decision."""

    evidence_id: str
    source_id: str
    observed_at: int
    observed_from: str  # "claim" or "receipt"
    reasons: tuple[str, ...]
    gate_reason: str | None = None
    status_code: int = 200  # for the report only; never committed

    @property
    def admitted(self) -> bool:
        return not self.reasons

    def to_value(self) -> dict[str, Any]:
        # Keys in canonical order (by length, then bytewise): one map per item, which
        # the encoder then need not copy (issue 16).
        out: dict[str, Any] = {
            "reasons": list(self.reasons), "admitted": self.admitted,
            "source_id": self.source_id, "evidence_id": self.evidence_id,
        }
        if self.gate_reason is not None:
            out["gate_reason"] = self.gate_reason
        out["observed_at"] = self.observed_at
        out["observed_from"] = self.observed_from
        return out


@dataclass(frozen=True, slots=True)
class RequirementCheck:
    """One requirement's admission results."""

    requirement_id: str
    window_start: int
    window_end: int
    items: tuple[ItemAdmission, ...]

    @property
    def admitted_ids(self) -> tuple[str, ...]:
        return tuple(i.evidence_id for i in self.items if i.admitted)

    @property
    def covered(self) -> bool:
        return any(i.admitted for i in self.items)

    @property
    def provenance_ok(self) -> bool:
        return self.covered or not any(CHECK_PROVENANCE in i.reasons for i in self.items)


def effective_window(prompt_spec: PromptSpec) -> tuple[int, int]:
    """The resolution window widened by the slack on both sides (start floored at 0)."""
    window = prompt_spec.market.resolution_window
    slack = prompt_spec.timestamp_slack_seconds
    return max(0, window.start - slack), window.end + slack


def event_time_key(prompt_spec: PromptSpec) -> str | None:
    """The metric of a ``timestamp_threshold`` predicate: an event time, never the
    observation time (SPEC §12.2)."""
    semantics = prompt_spec.prediction_semantics
    return semantics.metric if semantics.predicate == "timestamp_threshold" else None


def status_accepted(requirement: DataRequirement, status_code: int) -> bool:
    """``status_code`` is one the requirement counts as evidence (absent: 2xx)."""
    codes = requirement.accepted_status_codes
    return 200 <= status_code <= 299 if codes is None else status_code in codes


def observed_time(item: EvidenceItem, claims: Sequence[Claim],
                  skip_key: str | None = None) -> tuple[int, str]:
    """The item's first timestamp claim (not ``skip_key``), else its retrieval time."""
    for claim in claims:
        if claim.kind == "timestamp" and type(claim.value) is int and claim.key != skip_key:
            return claim.value, "claim"
    return item.retrieval_receipt.retrieved_at, "receipt"


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def claim_result_from(item: EvidenceItem, claims: Sequence[Claim]) -> ClaimResult:
    """The item's claim set as the admission gate reads it (no pydantic)."""
    return ClaimResult(item.source.source_id, [
        ClaimHypothesis(f"{c.key}={_text(c.value)}", [c.evidence_id], c.confidence_bps)
        for c in claims])


def agent_result_from(item: EvidenceItem, claims: Sequence[Claim]) -> AgentResult:
    """The item's claim set as a (pydantic) agent result for the admission gate."""
    from por.gate import AgentResult, Hypothesis  # noqa: PLC0415  # public API edge only

    lean = claim_result_from(item, claims)
    return AgentResult(agent_name=lean.agent_name, hypotheses=[
        Hypothesis(statement=h.statement, supporting_evidence_ids=h.supporting_evidence_ids,
                   confidence_bps=h.confidence_bps) for h in lean.hypotheses])


class _ItemIds(Collection[str]):
    """The evidence ids of ``items``, as the gate reads them, without a set of
    them all while each item's claims cite only its own id (``current``): the
    set is made only if something else is asked (issue 16: memory per item)."""

    __slots__ = ("_all", "current", "items")

    def __init__(self, items: Sequence[EvidenceItem]) -> None:
        self.items = items
        self.current: str | None = None
        self._all: frozenset[str] | None = None

    def _every(self) -> frozenset[str]:
        if self._all is None:
            self._all = frozenset(i.evidence_id for i in self.items)
        return self._all

    def __contains__(self, value: object) -> bool:
        return (self.current is not None and value == self.current) or value in self._every()

    def __iter__(self) -> Iterator[str]:
        return iter(self._every())

    def __len__(self) -> int:
        return len(self._every())


def check_requirement(prompt_spec: PromptSpec, requirement: DataRequirement,
                      items: Sequence[EvidenceItem],
                      claims_per_item: Iterable[Sequence[Claim]]) -> RequirementCheck:
    """Admit or reject each of a requirement's items (see the module docstring)."""
    low, high = effective_window(prompt_spec)
    allowed = frozenset(prompt_spec.market.allowed_sources)
    targets = frozenset(t.source_id for t in requirement.source_targets)
    valid_ids = _ItemIds(items)
    skip = event_time_key(prompt_spec)
    out: list[ItemAdmission] = []
    for item, claims in zip(items, claims_per_item, strict=True):
        valid_ids.current = item.evidence_id
        observed, observed_from = observed_time(item, claims, skip)
        reasons: list[str] = []
        if item.source.source_id not in allowed:
            reasons.append(CHECK_ALLOWED_SOURCE)
        if item.source.source_id not in targets:
            reasons.append(CHECK_SOURCE_TARGET)
        if not low <= observed <= high:
            reasons.append(CHECK_TIME_WINDOW)
        if item.provenance_tier < requirement.min_provenance_tier:
            reasons.append(CHECK_PROVENANCE)
        confidence = item.confidence_bps
        if type(confidence) is not int or not 0 <= confidence <= BPS_MAX:
            reasons.append(CHECK_CONFIDENCE)
        if not status_accepted(requirement, item.retrieval_receipt.status_code):
            reasons.append(CHECK_HTTP_STATUS)
        gate_reason = None
        if not reasons:
            decision = admit(claim_result_from(item, claims), valid_ids)
            if not decision.admitted:
                reasons.append(str(decision.check_id))
                gate_reason = decision.reason
        out.append(ItemAdmission(item.evidence_id, item.source.source_id, observed,
                                 observed_from, tuple(reasons), gate_reason,
                                 item.retrieval_receipt.status_code))
    return RequirementCheck(requirement.requirement_id, low, high, tuple(out))


_MESSAGES = {
    CHECK_ALLOWED_SOURCE: "source is not in market.allowed_sources",
    CHECK_SOURCE_TARGET: "source is not a target of the requirement",
    CHECK_TIME_WINDOW: "observation time is outside the resolution window (with slack)",
    CHECK_PROVENANCE: "provenance tier is below the requirement's minimum",
    CHECK_CONFIDENCE: "confidence_bps is outside 0..10000",
    CHECK_HTTP_STATUS: "HTTP status is not one the requirement accepts as evidence",
}


def requirement_check_results(check: RequirementCheck) -> list[CheckResult]:
    """One requirement's rejections, then its coverage and provenance checks."""
    return results_from([*requirement_findings(check), *coverage_findings(
        check.requirement_id, len(check.admitted_ids), len(check.items), check.covered,
        check.provenance_ok)])


def requirement_findings(check: RequirementCheck) -> list[Check]:
    """The items' rejections of one check chunk, as lean checks (the coverage
    checks come from :func:`coverage_findings`)."""
    results: list[Check] = []
    for item in check.items:
        for reason in item.reasons:
            details: dict[str, Any] = {"requirement_id": check.requirement_id,
                                       "evidence_id": item.evidence_id,
                                       "source_id": item.source_id}
            if reason == CHECK_TIME_WINDOW:
                details["observed_at"] = item.observed_at
                details["observed_from"] = item.observed_from
            if reason == CHECK_HTTP_STATUS:
                details["status_code"] = item.status_code
            results.append(Check(
                reason, False, "warn",
                f"{item.evidence_id} excluded: "
                f"{_MESSAGES.get(reason, item.gate_reason or 'rejected by the gate')}",
                expected=(f"[{check.window_start}, {check.window_end}]"
                          if reason == CHECK_TIME_WINDOW else None),
                actual=str(item.observed_at) if reason == CHECK_TIME_WINDOW else None,
                details=details))
    return results


def coverage_findings(requirement_id: str, admitted: int, total: int, covered: bool,
                      provenance_ok: bool) -> list[Check]:
    """``sanity.coverage`` and ``sanity.provenance`` of one requirement, from its
    chain's last running state (SPEC §12.5.3): reported once, by its aggregate."""
    rid = requirement_id
    return [
        Check(CHECK_COVERAGE, covered, "info" if covered else "warn",
              f"requirement {rid}: {admitted} of {total} item(s) admitted",
              details={"requirement_id": rid}),
        Check(CHECK_PROVENANCE, provenance_ok, "info" if provenance_ok else "warn",
              (f"requirement {rid}: provenance tier "
               + ("met" if provenance_ok else "not met by any evidence")),
              details={"requirement_id": rid}),
    ]


def variables_finding(ok: bool, metric: str, reason: str) -> Check:
    """``sanity.variables``: whether the predicate's variables are computable."""
    return Check(CHECK_VARIABLES, ok, "info" if ok else "warn", f"metric {metric!r}: {reason}",
                 details={"metric": metric})


def variables_result(ok: bool, metric: str, reason: str) -> CheckResult:
    """:func:`variables_finding` as a ``CheckResult``."""
    return variables_finding(ok, metric, reason).to_model()


class LogicSanityChecker:
    """Seed M06 §10 entry point over a whole bundle."""

    def check(self, prompt_spec: PromptSpec, evidence: EvidenceBundle,
              claims: ClaimSet) -> list[CheckResult]:
        """Admission and coverage per requirement, then a pre-aggregation variables check."""
        per_item = claims.by_evidence_id()
        groups: dict[str, list[EvidenceItem]] = {}
        for item in evidence.items:
            groups.setdefault(item.requirement_id, []).append(item)
        results: list[CheckResult] = []
        semantics = prompt_spec.prediction_semantics
        needed = PREDICATE_KIND[semantics.predicate]
        computable = False
        for requirement in prompt_spec.data_requirements:
            items = groups.get(requirement.requirement_id, [])
            item_claims = [per_item.get(i.evidence_id, ()) for i in items]
            check = check_requirement(prompt_spec, requirement, items, item_claims)
            results.extend(requirement_check_results(check))
            admitted = frozenset(check.admitted_ids)
            computable = computable or any(
                c.key == semantics.metric and c.kind == needed
                for item_id, found in zip((i.evidence_id for i in items), item_claims,
                                          strict=True)
                if item_id in admitted for c in found)
        reason = ("an admitted claim supplies it" if computable
                  else f"no admitted {needed} claim")
        results.append(variables_result(computable, semantics.metric, reason))
        return results


__all__ = [
    "CHECK_ALLOWED_SOURCE",
    "CHECK_CONFIDENCE",
    "CHECK_COVERAGE",
    "CHECK_HTTP_STATUS",
    "CHECK_PROVENANCE",
    "CHECK_SOURCE_TARGET",
    "CHECK_TIME_WINDOW",
    "CHECK_VARIABLES",
    "PREDICATE_KIND",
    "ItemAdmission",
    "LogicSanityChecker",
    "RequirementCheck",
    "agent_result_from",
    "check_requirement",
    "claim_result_from",
    "coverage_findings",
    "effective_window",
    "event_time_key",
    "observed_time",
    "requirement_check_results",
    "requirement_findings",
    "requirement_for",
    "status_accepted",
    "variables_finding",
    "variables_result",
]
