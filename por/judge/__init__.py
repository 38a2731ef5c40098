"""The deterministic judge (seed M07, SPEC §7): evaluation variables -> verdict.

``JudgeAgent().judge(prompt_spec, evidence, trace)`` returns a
``DeterministicVerdict`` (YES / NO / INVALID, integer confidence in basis
points, the rule that decided, the commitments) and a ``VerificationResult``.
``map_to_verdict`` is the pure engine; ``SchemaLock`` the static input checks.
``judge_core`` is the engine on duck-typed inputs without pydantic (issue 16):
a lean verdict whose ``to_cbor()`` equals the pydantic verdict's bytes.
Leaves out: evidence extraction and reasoning (``por.auditor``), bundles and
signatures.
"""

from por.judge.agent import JudgeAgent
from por.judge.deterministic_mapping import (
    CHECK_BINARY_DECISION,
    CHECK_CONFIDENCE,
    CHECK_CONFLICT,
    CHECK_EVENT_OBSERVED_IGNORED,
    CHECK_VALIDITY,
    R_BINARY_DECISION,
    R_CONFIDENCE,
    R_CONFLICT,
    R_INVALID_FALLBACK,
    R_VALIDITY,
    compare_decimal,
    confidence_from,
    judge_core,
    map_to_verdict,
)
from por.judge.schema_lock import SchemaLock, final_step_index

__all__ = [
    "CHECK_BINARY_DECISION",
    "CHECK_CONFIDENCE",
    "CHECK_CONFLICT",
    "CHECK_EVENT_OBSERVED_IGNORED",
    "CHECK_VALIDITY",
    "R_BINARY_DECISION",
    "R_CONFIDENCE",
    "R_CONFLICT",
    "R_INVALID_FALLBACK",
    "R_VALIDITY",
    "JudgeAgent",
    "SchemaLock",
    "compare_decimal",
    "confidence_from",
    "final_step_index",
    "judge_core",
    "map_to_verdict",
]
