"""Records the core writes, generated from the pydantic models: do not edit (issue 21).

Written by ``python -m por.lean.generate`` (``por.lean.generate_writers``) from
the models its table ``WRITERS`` names (``por.schemas``): slots with the
model's field names, ``NAMES`` (the fields after ``schema``, in declaration
order), ``SCHEMA`` and a constructor with the model's defaults.  The auditor and
the judge make them from values they computed, so nothing is validated but
the bounds a row checks.  Their behaviour is in :mod:`por.lean.writer_hooks`.
``tests/unit/lean/test_lean_generated.py`` fails while this file differs from
what the generator writes.
"""

from __future__ import annotations

from typing import Any

from por.encoding.encoder import Fragments
from por.lean.writer_hooks import (
    ChallengeRecord,
    CheckRecord,
    PolicyRecord,
    StepRecord,
    VariablesRecord,
    VerdictRecord,
    Written,
)


class Step(StepRecord):
    """``por.schemas.trace.ReasoningStep``."""

    __slots__ = (
        "_cbor",
        "_claims",
        "description",
        "evidence_ids",
        "inputs",
        "output",
        "prior_step_ids",
        "record_schema",
        "step_id",
        "step_type",
    )
    SCHEMA = "por.ReasoningStep/1"
    NAMES = (
        "step_id",
        "step_type",
        "description",
        "evidence_ids",
        "prior_step_ids",
        "inputs",
        "output",
    )

    # Positional on the hot path: one call per record (issue 16).
    def __init__(self, step_id: str, step_type: str, description: str,  # noqa: PLR0917
                 evidence_ids: list[str], prior_step_ids: list[str] | Fragments,
                 inputs: dict[str, Any], output: dict[str, Any]) -> None:
        self.record_schema = "por.ReasoningStep/1"
        self.step_id = step_id
        self.step_type = step_type
        self.description = description
        self.evidence_ids = evidence_ids
        self.prior_step_ids = prior_step_ids
        self.inputs = inputs
        self.output = output
        self._cbor = None
        self._claims = None

    def _cbor_value(self) -> dict[str, Any]:
        # The record's dict in canonical key order (by length, then
        # bytewise, SPEC §2 rule 2): the encoder need not copy it.
        return {
            "inputs": self.inputs,
            "output": self.output,
            "schema": self.record_schema,
            "step_id": self.step_id,
            "step_type": self.step_type,
            "description": self.description,
            "evidence_ids": self.evidence_ids,
            "prior_step_ids": self.prior_step_ids,
        }


class Policy(PolicyRecord):
    """``por.schemas.trace.TracePolicy``."""

    __slots__ = (
        "allow_external_facts",
        "decoding_policy",
        "max_steps",
    )
    NAMES = (
        "max_steps",
        "decoding_policy",
        "allow_external_facts",
    )

    def __init__(self, max_steps: int, decoding_policy: str = "deterministic",
                 allow_external_facts: bool = False) -> None:
        if type(max_steps) is not int or not 1 <= max_steps <= 4_000_000:
            raise ValueError(f"max_steps {max_steps!r} outside 1..4000000")
        self.max_steps = max_steps
        self.decoding_policy = decoding_policy
        self.allow_external_facts = allow_external_facts


class Header(Written):
    """``por.schemas.trace.TraceHeader``."""

    __slots__ = (
        "market_id",
        "policy",
        "record_schema",
        "step_count",
        "trace_id",
    )
    SCHEMA = "por.TraceHeader/1"
    NAMES = (
        "trace_id",
        "market_id",
        "policy",
        "step_count",
    )

    def __init__(self, trace_id: str, market_id: str, policy: dict[str, Any],
                 step_count: int) -> None:
        self.record_schema = "por.TraceHeader/1"
        self.trace_id = trace_id
        self.market_id = market_id
        self.policy = policy
        self.step_count = step_count


class Variables(VariablesRecord):
    """``por.schemas.trace.EvaluationVariables``."""

    __slots__ = (
        "conflict_detected",
        "event_observed",
        "fallback_used",
        "insufficient_evidence",
        "numeric_value",
        "provenance_ok",
        "source_summary",
        "timestamp",
    )
    NAMES = (
        "event_observed",
        "numeric_value",
        "timestamp",
        "conflict_detected",
        "insufficient_evidence",
        "fallback_used",
        "provenance_ok",
        "source_summary",
    )

    def __init__(self, *, event_observed: bool | None = None, numeric_value: str | None = None,
                 timestamp: int | None = None, conflict_detected: bool, insufficient_evidence: bool,
                 fallback_used: bool, provenance_ok: bool, source_summary: list[str]) -> None:
        self.event_observed = event_observed
        self.numeric_value = numeric_value
        self.timestamp = timestamp
        self.conflict_detected = conflict_detected
        self.insufficient_evidence = insufficient_evidence
        self.fallback_used = fallback_used
        self.provenance_ok = provenance_ok
        self.source_summary = source_summary


class Verdict(VerdictRecord):
    """``por.schemas.verdict.DeterministicVerdict``."""

    __slots__ = (
        "confidence_bps",
        "evidence_count",
        "evidence_root",
        "market_id",
        "outcome",
        "prompt_spec_hash",
        "reasoning_count",
        "reasoning_root",
        "record_schema",
        "resolution_rule_id",
        "resolution_time",
    )
    SCHEMA = "por.DeterministicVerdict/1"
    NAMES = (
        "market_id",
        "outcome",
        "confidence_bps",
        "resolution_rule_id",
        "prompt_spec_hash",
        "evidence_root",
        "evidence_count",
        "reasoning_root",
        "reasoning_count",
        "resolution_time",
    )

    def __init__(self, *, market_id: str, outcome: str, confidence_bps: int,
                 resolution_rule_id: str, prompt_spec_hash: bytes, evidence_root: bytes,
                 evidence_count: int, reasoning_root: bytes, reasoning_count: int,
                 resolution_time: int | None = None) -> None:
        self.record_schema = "por.DeterministicVerdict/1"
        self.market_id = market_id
        self.outcome = outcome
        self.confidence_bps = confidence_bps
        self.resolution_rule_id = resolution_rule_id
        self.prompt_spec_hash = prompt_spec_hash
        self.evidence_root = evidence_root
        self.evidence_count = evidence_count
        self.reasoning_root = reasoning_root
        self.reasoning_count = reasoning_count
        self.resolution_time = resolution_time


class Challenge(ChallengeRecord):
    """``por.schemas.verification.ChallengeRef``."""

    __slots__ = (
        "evidence_id",
        "kind",
        "leaf_index",
        "reason",
        "step_id",
    )
    NAMES = (
        "kind",
        "evidence_id",
        "step_id",
        "leaf_index",
        "reason",
    )

    def __init__(self, kind: str, *, evidence_id: str | None = None, step_id: str | None = None,
                 leaf_index: int | None = None, reason: str | None = None) -> None:
        self.kind = kind
        self.evidence_id = evidence_id
        self.step_id = step_id
        self.leaf_index = leaf_index
        self.reason = reason


class Check(CheckRecord):
    """``por.schemas.verification.CheckResult``."""

    __slots__ = (
        "actual",
        "challenge",
        "check_id",
        "details",
        "expected",
        "message",
        "ok",
        "severity",
    )
    NAMES = (
        "check_id",
        "ok",
        "severity",
        "message",
        "expected",
        "actual",
        "details",
        "challenge",
    )

    def __init__(self, check_id: str, ok: bool, severity: str, message: str, *,
                 expected: str | None = None, actual: str | None = None,
                 details: dict[str, Any] | None = None,
                 challenge: ChallengeRecord | None = None) -> None:
        self.check_id = check_id
        self.ok = ok
        self.severity = severity
        self.message = message
        self.expected = expected
        self.actual = actual
        self.details = details
        self.challenge = challenge


__all__ = ["Challenge", "Check", "Header", "Policy", "Step", "Variables", "Verdict"]
