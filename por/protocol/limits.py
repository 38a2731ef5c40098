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
#: Most data requirements a PromptSpec has (SPEC §4.2, ADR 0011 decision 3): the
#: model's cap and the bundle's work budget (``por.protocol.budget``) read this one
#: definition.
MAX_REQUIREMENTS = 8
#: Most source targets one data requirement names (SPEC §4.2; real binary markets
#: read one to ten sources per question, ADR 0011 decision 3).
MAX_SOURCE_TARGETS = 10
#: Most expected fields one data requirement extracts (SPEC §4.2).
MAX_EXPECTED_FIELDS = 8
#: Most expected fields a PromptSpec declares over all its requirements (SPEC §4.2):
#: bounds the contradiction groups the ``contradictions`` step merges from the r last
#: check chunks, so its one-step proof stays under 64 KiB (ADR 0011, stage 3).
MAX_SPEC_EXPECTED_FIELDS = 16
#: Largest PromptSpec, its canonical ``por-cbor/1`` bytes (SPEC §4.2; UMA's optimistic
#: oracle caps a question's ancillary data at about 8 KB).
MAX_PROMPT_SPEC_BYTES = 8 * 1024
#: Items one ``check_requirement`` chunk reads, and the most prior steps any step
#: after ``extract`` cites but one (SPEC §12.5, ADR 0011 decision 3: K = 10).
CHECK_CHUNK_ITEMS = 10
#: Most items (array elements, map keys and values) an extract step record's arrays
#: and maps hold together (SPEC §17.1): the step map 16, evidence_ids 1, inputs 2,
#: output 10, card 10, at most 8 claims of 5 entries (88) and at most 8 warnings of 4
#: entries (72) make 199 under the field cap; 256 leaves room.  A committed extract
#: step that differs from its replay is decoded under it (``codec.too_large``).
MAX_EXTRACT_STEP_ITEMS = 256
#: Most items (array elements, map keys and values, a map entry counting two) any
#: ``por.ReasoningStep/1`` record holds in its arrays and maps together (SPEC §17.1),
#: whatever its kind.  Upper bounds of the honest records at the caps of §4.2 and
#: §12.5 (K = 10 items per chunk, 10 sources and 8 fields per requirement, 16 fields
#: and 8 requirements per spec; every optional key present, every list at its
#: longest): ``extract_claims`` 199 (above); ``check_requirement`` 505 (the step map
#: 16, 10 items, 11 prior steps, inputs 4, output 26, window 4, 10 item maps of 17
#: (6 keys, 5 reasons) 180, 10 sources of 6 70, 8 groups of 22 184); ``aggregate``
#: 501 (16, 10, 11, 4, output 18, 8 fields of 44 (9 keys, 10 claim ids, 10 evidence
#: ids, a quorum of 6) and the metric's 10 votes of 6 432, 10 ``sources_used``);
#: ``contradictions`` 431 (16, 8 prior steps, inputs 2, output 6, 19 conflicts of 20:
#: 16 declared (kind, key) groups and the 3 fallback ones); ``deduce`` 219 (16, 80
#: summarised items, 9 prior steps, 2, output 24, 8 uncovered requirements, a
#: ``source_summary`` of 80); ``map`` 197 (16, 80, 1, 2, output 2, 8 variables 16,
#: 80).  The largest is 505; 1024 leaves 2x room (the fixtures' largest: 245).  A
#: step record over it is not valid (``codec.too_large``, refused at the head of the
#: container past it), so a forged leaf of millions of one-byte items costs its head.
MAX_STEP_ITEMS = 1024
#: Largest proof file anyone builds or checks (SPEC §10.7): ``check_proof``'s default,
#: the candidates ``verify --challenges`` checks and ``check-proof --max-size``.  The
#: largest honest proofs carry one evidence leaf (content at most ``MAX_CONTENT_BYTES``:
#: 4 194 664 bytes measured at the cap with scenario 08's ids, 4 195 566 with every id
#: at 128 four-byte code points): an extraction proof (the leaf, the PromptSpec of at
#: most ``MAX_PROMPT_SPEC_BYTES``, its step leaf and paths: 4 204 874 bytes for scenario
#: 08, ``bench/proofs.py --item-bytes 4194304 --spec-bytes 8192``; 4 213 797 with every
#: text at its cap, the extract step leaf 8 584 bytes) and the OmissionProof of an
#: unread item (SPEC §10.2.4 rule 3: the leaf and the step at its leaf index, 4 228 807
#: bytes with every text at its cap; ``bench/largest_shapes.py``'s ``one.numeric``
#: market, ADR 0014's s34 addendum).  A lie can be larger: a forged step record at the
#: 64 MiB record cap is shown only by a proof that carries it, so the cap is that record,
#: one item leaf (4 MiB of content) and 4 MiB for the PromptSpec, the item's other
#: fields, the step's honest cited records and the paths: 72 MiB.
PROOF_MAX_SIZE = 72 * 1024 * 1024
#: Hard ceiling on any trace length, whatever the policy says (SPEC §4.5).
MAX_TRACE_STEPS = 4_000_000
#: Largest court or locked-judge document (SPEC §15.2, §16.2): a judge subject, a
#: dispute case, a judgement bundle and a ruling are all read under it (the bundle
#: cap of §5.1, 256 MiB, plus 4096 bytes for the record's other fields).
DOCUMENT_MAX_SIZE = 256 * 1024 * 1024 + 4096
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
    "MAX_EXPECTED_FIELDS",
    "MAX_EXTRACT_STEP_ITEMS",
    "MAX_ID_LENGTH",
    "MAX_PROMPT_SPEC_BYTES",
    "MAX_REQUIREMENTS",
    "MAX_SOURCE_TARGETS",
    "MAX_SPEC_EXPECTED_FIELDS",
    "MAX_STEP_ITEMS",
    "MAX_TRACE_STEPS",
    "MAX_UINT63",
    "OUTCOME_CODES",
    "PROOF_MAX_SIZE",
    "STEP_ID_PATTERN",
    "VERDICT_SCHEMA_REF",
    "FieldKind",
    "Outcome",
    "RuleId",
    "StepType",
    "step_id",
    "step_number",
]
