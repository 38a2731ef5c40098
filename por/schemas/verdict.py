"""DeterministicVerdict and Outcome (SPEC §4.6)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from por.schemas.base import Bps, Count, Hash32, Id, Record, UnixTime

Outcome = Literal["YES", "NO", "INVALID"]

#: On-chain outcome codes (SPEC §8): 0 is never valid.
OUTCOME_CODES: dict[str, int] = {"YES": 1, "NO": 2, "INVALID": 3}

RuleId = Literal["R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE",
                 "R_INVALID_FALLBACK"]


class DeterministicVerdict(Record):
    """The judge's verdict and the commitments it was reached over."""

    SCHEMA: ClassVar[str] = "por.DeterministicVerdict/1"

    record_schema: Literal["por.DeterministicVerdict/1"] = Field(
        "por.DeterministicVerdict/1", alias="schema")
    market_id: Id
    outcome: Outcome
    confidence_bps: Bps
    resolution_rule_id: RuleId
    prompt_spec_hash: Hash32
    evidence_root: Hash32
    evidence_count: Count
    reasoning_root: Hash32
    reasoning_count: Count
    #: Deterministic resolution time (end of the resolution window), never the clock.
    resolution_time: UnixTime | None = None


__all__ = ["OUTCOME_CODES", "DeterministicVerdict", "Outcome", "RuleId"]
