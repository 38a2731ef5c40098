"""Constants and tiny helpers shared by the pydantic models and the lean path (issue 16).

One definition each: :mod:`por.schemas` re-imports them from here, so the
auditor, the judge and the trace-policy check can use them without importing
pydantic.  Nothing here validates anything; it only names limits, literal
sets and the step-id form (SPEC §4.3-§4.6, §12.5).
"""

from __future__ import annotations

import re
from typing import Literal

#: Longest id-like text (ids, rule ids, source ids), SPEC §4.1.
MAX_ID_LENGTH = 128
#: Largest accepted evidence body (the bundle has its own cap as well), SPEC §4.4.
MAX_CONTENT_BYTES = 4 * 1024 * 1024
#: Most evidence items one bundle may carry (SPEC §5.1): verification holds every
#: record in memory (about 12 KB per item), so this bounds it near 2.4 GB.
MAX_EVIDENCE_ITEMS = 200_000
#: Most data requirements a PromptSpec has (SPEC §4.2): the model's cap and the
#: bundle's work budget (``por.protocol.budget``) read this one definition.
MAX_REQUIREMENTS = 64
#: Items one ``check_requirement`` chunk reads, and the most prior steps any step
#: after ``extract`` cites but one (SPEC §12.5, ADR 0011 decision 3: K = 10).
CHECK_CHUNK_ITEMS = 10
#: Hard ceiling on any trace length, whatever the policy says (SPEC §4.5).
MAX_TRACE_STEPS = 4_000_000
#: Largest committed Unix time or count (64-bit, SPEC §3.1).
MAX_UINT63 = 2**63 - 1

#: The only output schema the strict pipeline produces (seed M07 §8).
VERDICT_SCHEMA_REF = "por.DeterministicVerdict/1"

FieldKind = Literal["boolean", "numeric", "timestamp", "text"]
StepType = Literal["extract", "check", "aggregate", "deduce", "map"]
Outcome = Literal["YES", "NO", "INVALID"]
RuleId = Literal["R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE",
                 "R_INVALID_FALLBACK"]

#: On-chain outcome codes (SPEC §8): 0 is never valid.
OUTCOME_CODES: dict[str, int] = {"YES": 1, "NO": 2, "INVALID": 3}

#: The canonical rule ids of the strict pipeline (seed M07 §6).
CANONICAL_RULE_IDS = (
    "R_VALIDITY",
    "R_CONFLICT",
    "R_BINARY_DECISION",
    "R_CONFIDENCE",
    "R_INVALID_FALLBACK",
)

#: ``step_0001`` ... (seed M06 §5.3); at least four digits, no leading sign.
STEP_ID_PATTERN = re.compile(r"step_(?:[0-9]{4}|[1-9][0-9]{4,8})")


def step_id(n: int) -> str:
    """The id of the ``n``-th step (1-based): ``step_0001``."""
    return f"step_{n:04d}"


def step_number(text: str) -> int | None:
    """The 1-based number of a well-formed step id, else ``None``."""
    if STEP_ID_PATTERN.fullmatch(text) is None:
        return None
    return int(text[5:])


__all__ = [
    "CANONICAL_RULE_IDS",
    "CHECK_CHUNK_ITEMS",
    "MAX_CONTENT_BYTES",
    "MAX_EVIDENCE_ITEMS",
    "MAX_ID_LENGTH",
    "MAX_REQUIREMENTS",
    "MAX_TRACE_STEPS",
    "MAX_UINT63",
    "OUTCOME_CODES",
    "STEP_ID_PATTERN",
    "VERDICT_SCHEMA_REF",
    "FieldKind",
    "Outcome",
    "RuleId",
    "StepType",
    "step_id",
    "step_number",
]
