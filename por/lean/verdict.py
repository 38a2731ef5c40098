"""Lean verdict: ``DeterministicVerdict``'s fields and canonical bytes without pydantic.

:class:`Verdict` has exactly the attribute names of
``por.schemas.verdict.DeterministicVerdict`` (SPEC §4.6); :meth:`Verdict.to_cbor`
encodes the dict ``DeterministicVerdict.to_dict()`` gives (``resolution_time``
omitted when absent), so the bytes are identical (pinned on every fixture
market).  Only the judge makes one, from values it computed itself.

Leaves out: decoding (the full verifier parses a committed verdict with
pydantic) and the JSON form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from por.encoding import encode

if TYPE_CHECKING:
    from por.schemas.verdict import DeterministicVerdict

VERDICT_SCHEMA = "por.DeterministicVerdict/1"

#: ``DeterministicVerdict``'s fields after ``schema``, in declaration order.
VERDICT_FIELDS = ("market_id", "outcome", "confidence_bps", "resolution_rule_id",
                  "prompt_spec_hash", "evidence_root", "evidence_count", "reasoning_root",
                  "reasoning_count", "resolution_time")


class Verdict:
    """The judge's verdict and the commitments it was reached over (SPEC §4.6, §5.1)."""

    __slots__ = ("confidence_bps", "evidence_count", "evidence_root", "market_id",
                 "outcome", "prompt_spec_hash", "reasoning_count", "reasoning_root",
                 "record_schema", "resolution_rule_id", "resolution_time")

    def __init__(self, *, market_id: str, outcome: str, confidence_bps: int,
                 resolution_rule_id: str, prompt_spec_hash: bytes, evidence_root: bytes,
                 evidence_count: int, reasoning_root: bytes, reasoning_count: int,
                 resolution_time: int | None = None) -> None:
        self.record_schema = VERDICT_SCHEMA
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

    def fields(self) -> dict[str, Any]:
        """Every field but ``schema``, absent ``resolution_time`` omitted."""
        out = {name: getattr(self, name) for name in VERDICT_FIELDS}
        if out["resolution_time"] is None:
            del out["resolution_time"]
        return out

    def to_cbor(self) -> bytes:
        """Canonical ``por-cbor/1`` bytes, equal to ``DeterministicVerdict.to_cbor()``."""
        return encode({"schema": self.record_schema, **self.fields()})

    def to_model(self) -> DeterministicVerdict:
        """The pydantic ``DeterministicVerdict`` (validated)."""
        from por.schemas.verdict import DeterministicVerdict  # noqa: PLC0415  # API edge

        return DeterministicVerdict(**self.fields())


__all__ = ["VERDICT_FIELDS", "VERDICT_SCHEMA", "Verdict"]
