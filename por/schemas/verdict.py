"""DeterministicVerdict and Outcome (SPEC §4.6)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from por.protocol.limits import OUTCOME_CODES, Outcome, RuleId  # one definition (issue 16)
from por.schemas.base import Bps, Count, Hash32, Id, Record, UnixTime


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
