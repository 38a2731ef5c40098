"""Why a verdict is what it is, read from committed step outputs and judge checks.

:func:`findings` walks the steps a trace commits and returns every recorded
reason an item or field did not count: ``extract.*`` warnings of an extract
step (with the evidence id, the field key and the FieldSpec's locator), items
a ``check_requirement`` step did not admit (``sanity.*`` reasons, with the
observation time against the window), fields an ``aggregate`` step left
unselected or (``fallback_chain``) admitted items it never read, the
conflicts a ``contradictions`` step found (each value with its
source and evidence id: what an ``R_CONFLICT`` verdict rests on), requirements
the ``deduce`` step found uncovered and the metric's status.
:func:`deciding_check` picks, from the judge's checks, the one that
decided the verdict and says which values it compared.

Pure functions of records; no I/O.  Leaves out: printing (``por.cli``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from por.explain.value_hints import value_hint
from por.schemas import CheckResult, PromptSpec, ReasoningStep


@dataclass(frozen=True)
class Finding:
    """One reason something did not count: a check id, where, and one line."""

    check_id: str
    step_id: str
    message: str
    evidence_id: str | None = None
    field: str | None = None

    def line(self) -> str:
        """``extract.field_missing: ev_1 close ($.closee): json_path not present (step_0001)``."""
        where = " ".join(p for p in (self.evidence_id, self.field) if p)
        return f"{self.check_id}: {where + ': ' if where else ''}{self.message} ({self.step_id})"

    def to_json_obj(self) -> dict[str, Any]:
        """Every field, absent ones as null."""
        return {"check_id": self.check_id, "step_id": self.step_id, "message": self.message,
                "evidence_id": self.evidence_id, "field": self.field}


def _locators(spec: PromptSpec) -> dict[tuple[str, str], str]:
    """(requirement_id, field key) -> the FieldSpec's json_path or regex."""
    found: dict[tuple[str, str], str] = {}
    for requirement in spec.data_requirements:
        for field in requirement.expected_fields:
            locator = field.json_path if field.json_path is not None else field.regex
            if locator is not None:
                found[(requirement.requirement_id, field.key)] = locator
    return found


def findings(spec: PromptSpec, steps: list[ReasoningStep],
             items: Sequence[Any] = ()) -> list[Finding]:
    """Every recorded reason, in step order (see the module docstring).  With the
    evidence ``items``, an ``extract.field_kind`` finding also shows the captured
    text and the accepted forms (:func:`por.explain.value_hints.value_hint`)."""
    locate = _locators(spec)
    by_id = {item.evidence_id: item for item in items}
    found: list[Finding] = []
    source_of: dict[str, str] = {}  # evidence id -> source id, from the check steps
    for step in steps:
        kind = step.inputs.get("kind")
        output: Any = step.to_json_obj().get("output", {})
        if not isinstance(output, dict):
            continue
        if kind == "extract_claims":
            requirement = str(output.get("requirement_id", ""))
            for warning in _dicts(output.get("warnings")):
                key = str(warning.get("key", "")) or None
                locator = locate.get((requirement, key or ""))
                label = f"{key} ({locator})" if key and locator else key
                message = str(warning.get("message", ""))
                source = by_id.get(output.get("evidence_id"))
                if warning.get("check_id") == "extract.field_kind" and key and source:
                    hint = value_hint(spec, source, key)
                    message += f": {hint}" if hint else ""
                found.append(Finding(str(warning.get("check_id", "extract.warning")),
                                     step.step_id, message,
                                     str(output.get("evidence_id", "")) or None, label))
        elif kind == "check_requirement":
            raw_window = output.get("window")
            window: dict[str, Any] = raw_window if isinstance(raw_window, dict) else {}
            for item in _dicts(output.get("items")):
                source_of[str(item.get("evidence_id"))] = str(item.get("source_id"))
                if item.get("admitted") is True:
                    continue
                reasons = [str(r) for r in item.get("reasons", []) if isinstance(r, str)]
                detail = (f"not admitted for {output.get('requirement_id')}; observed_at "
                          f"{item.get('observed_at')} ({item.get('observed_from')}), window "
                          f"[{window.get('start')}, {window.get('end')}], source "
                          f"{item.get('source_id')}")
                for reason in reasons or ["sanity.not_admitted"]:
                    found.append(Finding(reason, step.step_id, detail,
                                         str(item.get("evidence_id", "")) or None))
        elif kind == "aggregate":
            if output.get("strategy") == "fallback_chain":
                used = output.get("sources_used") or []
                found += [Finding("aggregate.unused_fallback", step.step_id,
                                  f"admitted for {output.get('requirement_id')} but never "
                                  "read: an earlier source of the chain gave every field", e)
                          for e in step.evidence_ids if e not in used]
            for field in _dicts(output.get("fields")):
                if field.get("status") not in ("selected", None):
                    found.append(Finding("aggregate.unselected", step.step_id,
                                         f"field {field.get('key')} of "
                                         f"{output.get('requirement_id')} is "
                                         f"{field.get('status')} ({field.get('candidates')} "
                                         "candidate(s))", None, str(field.get("key"))))
        elif kind == "contradictions":
            for conflict in _dicts(output.get("conflicts")):
                found.append(_conflict_finding(step.step_id, conflict, source_of))
        elif kind == "deduce":
            for requirement in output.get("uncovered_requirements", []) or []:
                found.append(Finding("deduce.uncovered", step.step_id,
                                     f"requirement {requirement} has no admitted item"))
            if output.get("metric_status") not in ("selected", None):
                found.append(Finding("deduce.metric", step.step_id,
                                     f"metric {output.get('metric')} is "
                                     f"{output.get('metric_status')}", None,
                                     str(output.get("metric"))))
    return found


def _conflict_finding(step_id: str, conflict: dict[str, Any],
                      source_of: dict[str, str]) -> Finding:
    """``contradiction.numeric: close: 101.5 from src_a (e1) vs 99 from src_b (e2)``:
    the sources and values behind an ``R_CONFLICT`` (issue 23)."""
    ids = [str(e) for e in conflict.get("evidence_ids", []) or []]
    values = [str(v) for v in conflict.get("values", []) or []]
    sides = [f"{v} from {source_of.get(e, '?')} ({e})" for e, v in zip(ids, values, strict=False)]
    return Finding(str(conflict.get("check_id", "contradiction")), step_id,
                   f"{conflict.get('kind')} claims disagree: {' vs '.join(sides)}", None,
                   str(conflict.get("key")))


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


@dataclass(frozen=True)
class Decision:
    """The rule that decided a verdict and the values it compared."""

    rule_id: str
    check_id: str
    message: str
    compared: str | None
    expected: str | None
    actual: str | None

    def to_json_obj(self) -> dict[str, Any]:
        """Every field, absent ones as null."""
        return {"rule_id": self.rule_id, "check_id": self.check_id, "message": self.message,
                "compared": self.compared, "expected": self.expected, "actual": self.actual}


def deciding_check(spec: PromptSpec, rule_id: str, checks: list[CheckResult]) -> Decision:
    """The judge check behind ``rule_id`` (SPEC §7.2), with the comparison spelt out.

    ``R_BINARY_DECISION``: the ``binary_decision`` check
    (``numeric_value 100412.37 > threshold 100000``); ``R_CONFIDENCE``: the
    failing ``confidence`` check (``confidence 5400 >= minimum 5500``); any
    other INVALID rule: the first failing error check.
    """
    failing = [c for c in checks if not c.ok and c.severity == "error"]
    if rule_id == "R_BINARY_DECISION":
        check = next((c for c in checks if c.check_id == "binary_decision"), None)
    elif rule_id == "R_CONFIDENCE":
        check = next((c for c in failing if c.check_id == "confidence"), None)
    else:
        check = failing[0] if failing else None
    if check is None:
        return Decision(rule_id, "(none)", "no judge check recorded the decision", None,
                        None, None)
    semantics = spec.prediction_semantics
    compared = None
    if check.check_id == "binary_decision" and semantics.predicate == "numeric_threshold":
        compared = (f"numeric_value {check.actual} {semantics.comparison} threshold "
                    f"{semantics.threshold}")
    elif check.check_id == "binary_decision" and check.expected is not None:
        compared = f"numeric_value {check.actual} {check.expected}"  # range, comparison...
    elif check.check_id == "binary_decision":
        compared = f"event_observed {check.actual}"
    elif check.check_id == "confidence" and check.expected is not None:
        compared = f"confidence {check.actual} {check.expected.replace('>=', '>= minimum ')}"
    elif check.expected is not None or check.actual is not None:
        compared = f"expected {check.expected}, actual {check.actual}"
    reason = (check.details or {}).get("reason") if check.details else None
    message = check.message + (f" ({reason})" if reason else "")
    return Decision(rule_id, check.check_id, message, compared, check.expected, check.actual)


__all__ = ["Decision", "Finding", "deciding_check", "findings"]
