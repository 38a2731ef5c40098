"""``por explain``: what a bundle's committed records say, step by step.

:func:`explain_bundle` decodes a bundle (strictly: every record must be valid)
and returns the ``por/explain/1`` document: for each step its inputs, its
citations and its output; the claims the extract steps committed (value,
evidence id, locator); every recorded reason something did not count
(``por.explain.findings``); the evaluation variables of the final step; and
the rule that decided, with the values compared, from a replay of the judge
on the committed inputs.  ``matches_committed`` says whether that replay gives
the committed verdict.  This explains; it does not verify (``por verify``).

Leaves out: printing (``por.cli.explain``), the tree view (``tree``).
"""

from __future__ import annotations

import json
from typing import Any, Final

from por.challenge import bundle_from_bytes
from por.explain.findings import deciding_check, findings
from por.judge import JudgeAgent
from por.schemas import (
    DeterministicVerdict,
    EvidenceBundle,
    EvidenceItem,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
    TraceHeader,
)

#: The versioned ``schema`` field of the document.
EXPLAIN_SCHEMA: Final = "por/explain/1"


def explain_bundle(data: bytes, *, max_size: int | None = None) -> dict[str, Any]:
    """The ``por/explain/1`` document of bundle bytes; ``PorError`` if not decodable."""
    bundle = bundle_from_bytes(data, max_size=max_size)
    spec = PromptSpec.from_cbor(bundle.prompt_spec)
    items = [EvidenceItem.from_cbor(blob) for blob in bundle.evidence]
    steps = [ReasoningStep.from_cbor(blob) for blob in bundle.steps]
    header = TraceHeader.from_cbor(bundle.trace_header)
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    trace = ReasoningTrace.from_parts(header, steps)
    evidence = EvidenceBundle(bundle_id="committed", market_id=spec.market.market_id,
                              items=items)
    replayed, judged = JudgeAgent().judge(spec, evidence, trace)
    decision = deciding_check(spec, replayed.resolution_rule_id, judged.checks)
    final = steps[-1].to_json_obj().get("output", {}) if steps else {}
    variables = final.get("evaluation_variables") if isinstance(final, dict) else None
    return {
        "schema": EXPLAIN_SCHEMA,
        "market_id": spec.market.market_id,
        "question": spec.market.question,
        "predicate": spec.prediction_semantics.model_dump(mode="json", exclude_none=True),
        "por_root": bundle.commitments.por_root.hex(),
        "verdict": {"outcome": verdict.outcome, "confidence_bps": verdict.confidence_bps,
                    "resolution_rule_id": verdict.resolution_rule_id},
        "steps": [_step(i, s) for i, s in enumerate(steps)],
        "claims": _claims(steps),
        "findings": [f.to_json_obj() for f in findings(spec, steps, items)],
        "evaluation_variables": variables if isinstance(variables, dict) else None,
        "decision": {**decision.to_json_obj(), "outcome": replayed.outcome,
                     "confidence_bps": replayed.confidence_bps,
                     "matches_committed": replayed.to_cbor() == bundle.verdict},
        "judge_checks": [{"id": c.check_id, "ok": c.ok, "severity": c.severity,
                          "message": c.message, "expected": c.expected, "actual": c.actual}
                         for c in judged.checks],
    }


def _step(index: int, step: Any) -> dict[str, Any]:
    value = step.to_json_obj()
    return {"index": index, "step_id": step.step_id, "step_type": step.step_type,
            "kind": step.inputs.get("kind"), "description": step.description,
            "inputs": value.get("inputs", {}), "evidence_ids": list(step.evidence_ids),
            "prior_step_ids": list(step.prior_step_ids), "output": value.get("output", {})}


def _claims(steps: list[Any]) -> list[dict[str, Any]]:
    claims = []
    for step in steps:
        if step.inputs.get("kind") != "extract_claims":
            continue
        output = step.to_json_obj().get("output", {})
        for claim in output.get("claims", []) if isinstance(output, dict) else []:
            if isinstance(claim, dict):
                claims.append({"claim_id": claim.get("claim_id"), "step_id": step.step_id,
                               "evidence_id": output.get("evidence_id"),
                               "key": claim.get("key"), "kind": claim.get("kind"),
                               "value": claim.get("value"), "locator": claim.get("path")})
    return claims


def text_lines(doc: dict[str, Any]) -> list[str]:
    """The human form of a ``por/explain/1`` document (callers escape nothing:
    every line goes through the CLI's escaping ``out``)."""
    verdict, decision = doc["verdict"], doc["decision"]
    lines = [f"market   {doc['market_id']}: {doc['question']}",
             f"verdict  {verdict['outcome']} {verdict['confidence_bps']} bps "
             f"{verdict['resolution_rule_id']} (committed; explain does not verify: run "
             "por verify)",
             f"decided  {decision['rule_id']} by {decision['check_id']}: {decision['message']}"]
    if decision["compared"]:
        lines.append(f"         compared {decision['compared']}")
    if not decision["matches_committed"]:
        lines.append(f"         replaying the judge gives {decision['outcome']}, not the "
                     "committed verdict")
    variables = doc["evaluation_variables"]
    if variables is not None:
        shown = ", ".join(f"{k}={_short(v)}" for k, v in sorted(variables.items()))
        lines.append(f"variables {shown}")
    if doc["findings"]:
        lines.append("findings")
        lines += [f"  {_finding(f)}" for f in doc["findings"]]
    if doc["claims"]:
        lines.append("claims")
        lines += [f"  {c['evidence_id']} {c['key']} = {_short(c['value'])} ({c['kind']}, "
                  f"{c['locator']}) {c['claim_id']}" for c in doc["claims"]]
    lines.append("steps")
    for step in doc["steps"]:
        cites = ", ".join([*step["evidence_ids"][:5], *step["prior_step_ids"][:5]])
        more = len(step["evidence_ids"]) + len(step["prior_step_ids"]) - min(
            5, len(step["evidence_ids"])) - min(5, len(step["prior_step_ids"]))
        requirement = step["inputs"].get("requirement_id")
        lines.append(f"  {step['step_id']} {step['step_type']}/{step['kind']}"
                     f"{' ' + str(requirement) if requirement else ''}"
                     f" <- {cites or '(nothing)'}{f' (+{more})' if more > 0 else ''}")
        lines.append(f"    output {_short(step['output'], 300)}")
    return lines


def _finding(f: dict[str, Any]) -> str:
    where = " ".join(p for p in (f["evidence_id"], f["field"]) if p)
    return f"{f['check_id']}: {where + ': ' if where else ''}{f['message']} ({f['step_id']})"


def _short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True,
                                                          ensure_ascii=True)
    return text if len(text) <= limit else text[:limit] + "..."


__all__ = ["EXPLAIN_SCHEMA", "explain_bundle", "text_lines"]
