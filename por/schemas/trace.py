"""ReasoningStep, TracePolicy, ReasoningTrace and EvaluationVariables (SPEC §4.5).

A trace is committed step by step: each ReasoningStep is one leaf of the
reasoning tree, and a TraceHeader record carries the policy and the count.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import FailFast, Field, PrivateAttr, model_validator

from por.protocol.limits import (  # one definition (issue 16)
    MAX_STEP_ITEMS,
    MAX_TRACE_STEPS,
    STEP_ID_PATTERN,
    StepType,
    step_id,
    step_number,
)
from por.schemas.base import Count, DecimalStr, Id, Model, Record, UnixTime, Value


class TracePolicy(Model):
    """Bounds and rules every trace must satisfy (seed M06 §11)."""

    max_steps: Annotated[int, Field(ge=1, le=MAX_TRACE_STEPS)]
    decoding_policy: Literal["deterministic"] = "deterministic"
    allow_external_facts: bool = False


class ReasoningStep(Record):
    """One step; cites evidence ids and earlier steps only."""

    SCHEMA: ClassVar[str] = "por.ReasoningStep/1"

    record_schema: Literal["por.ReasoningStep/1"] = Field("por.ReasoningStep/1", alias="schema")
    step_id: Id
    step_type: StepType
    description: str
    evidence_ids: Annotated[list[Id], FailFast()]
    prior_step_ids: Annotated[list[Id], FailFast()]
    inputs: dict[str, Value]
    output: dict[str, Value]
    #: A reader's memo of what it parsed from this (immutable) step, with the
    #: key it depends on (``por.auditor.step_io.read_extract``); not a field.
    _claims: Any = PrivateAttr(default=None)

    @classmethod
    def from_cbor(cls, data: bytes, *, max_size: int | None = None,
                  max_items: int | None = None) -> Self:
        """As :meth:`Record.from_cbor`, always under the step item cap (SPEC §17.1):
        ``MAX_STEP_ITEMS``, or ``max_items`` if smaller.  A leaf over it is not a
        valid record (``codec.too_large``), refused at the head of the container
        that passes the cap, before its items are built."""
        cap = MAX_STEP_ITEMS if max_items is None else min(max_items, MAX_STEP_ITEMS)
        return super().from_cbor(data, max_size=max_size, max_items=cap)

    def _cbor_value(self) -> dict[str, Any]:
        # Equal to to_dict(): every field is required and none is a model;
        # a step is encoded once per step on replay (tests pin the equality).
        d = self.__dict__
        return {"schema": d["record_schema"], "step_id": d["step_id"],
                "step_type": d["step_type"], "description": d["description"],
                "evidence_ids": d["evidence_ids"], "prior_step_ids": d["prior_step_ids"],
                "inputs": d["inputs"], "output": d["output"]}


class TraceHeader(Record):
    """The committed header of a trace: its policy and its length."""

    SCHEMA: ClassVar[str] = "por.TraceHeader/1"

    record_schema: Literal["por.TraceHeader/1"] = Field("por.TraceHeader/1", alias="schema")
    trace_id: Id
    market_id: Id
    policy: TracePolicy
    step_count: Count


class ReasoningTrace(Record):
    """A whole trace (the in-memory and JSON form; the bundle commits it per step)."""

    SCHEMA: ClassVar[str] = "por.ReasoningTrace/1"

    record_schema: Literal["por.ReasoningTrace/1"] = Field("por.ReasoningTrace/1",
                                                           alias="schema")
    trace_id: Id
    market_id: Id
    policy: TracePolicy
    steps: Annotated[list[ReasoningStep], FailFast()]

    def header(self) -> TraceHeader:
        """The committed header of this trace."""
        return TraceHeader(trace_id=self.trace_id, market_id=self.market_id,
                           policy=self.policy, step_count=len(self.steps))

    @classmethod
    def from_parts(cls, header: TraceHeader, steps: list[ReasoningStep]) -> Self:
        """Reassemble from the committed header and steps."""
        return cls(trace_id=header.trace_id, market_id=header.market_id,
                   policy=header.policy, steps=steps)


class EvaluationVariables(Model):
    """The auditor's final evaluation state (seed M06 §6, M07 §5).

    Lives in the final ``map`` step as ``output["evaluation_variables"]``.
    Absent means unknown: ``event_observed`` is omitted, never null, when the
    evidence does not decide it.
    """

    event_observed: bool | None = None
    numeric_value: DecimalStr | None = None
    timestamp: UnixTime | None = None
    conflict_detected: bool
    insufficient_evidence: bool
    fallback_used: bool
    provenance_ok: bool
    source_summary: Annotated[list[Id], FailFast()]

    def to_value(self) -> dict[str, Any]:
        """As a committed step value (absent optionals omitted)."""
        return self.model_dump(mode="python", exclude_none=True)

    @model_validator(mode="after")
    def _summary_unique(self) -> Self:
        if len(set(self.source_summary)) != len(self.source_summary):
            raise ValueError("source_summary ids must be unique")
        return self


__all__ = [
    "MAX_TRACE_STEPS",
    "STEP_ID_PATTERN",
    "EvaluationVariables",
    "ReasoningStep",
    "ReasoningTrace",
    "StepType",
    "TraceHeader",
    "TracePolicy",
    "step_id",
    "step_number",
]
