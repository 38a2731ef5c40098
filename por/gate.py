"""The admission gate (seed 001 "Judge Layer"): four fail-fast checks per agent result.

Every per-source result passes the gate before the auditor aggregates it.  The
checks run in a fixed order and the first failure decides (seed 001 "Fail
Fast Pattern"):

1. ``gate.agent_name`` -- the agent name is not blank (:func:`is_blank`);
2. ``gate.uncited_claim`` -- every hypothesis cites at least one evidence id
   (zero hypotheses is a valid result: the source said nothing relevant);
3. ``gate.unknown_evidence`` -- every cited id is one of the valid evidence
   ids; the reason lists the valid ids, sorted (at most
   :data:`MAX_LISTED_IDS` of them, then how many more);
4. ``gate.confidence_range`` -- every ``confidence_bps`` is an ``int`` in
   0..10000.  Pydantic already refuses anything else, so this only fires for
   objects built around validation (``model_construct``): defence in depth.

Wire objects (:class:`AgentResult`, :class:`Hypothesis`) are pydantic models
because they cross the agent boundary; :class:`GateDecision` is an internal,
never-serialised result and therefore a frozen dataclass (seed 001
"JudgedResult -- a dataclass").  One tool per type, never both.

Leaves out: what happens to a rejected result (the caller records and skips
it), ranking, and any LLM.  Pure: no clock, no I/O.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection
from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from por.numbers import BPS_MAX
from por.schemas.base import Bps, Id, Model

#: Most valid ids quoted in a ``gate.unknown_evidence`` reason.
MAX_LISTED_IDS = 16

CHECK_AGENT_NAME = "gate.agent_name"
CHECK_UNCITED_CLAIM = "gate.uncited_claim"
CHECK_UNKNOWN_EVIDENCE = "gate.unknown_evidence"
CHECK_CONFIDENCE_RANGE = "gate.confidence_range"

#: The gate's check ids in the order they run.
GATE_CHECK_IDS = (CHECK_AGENT_NAME, CHECK_UNCITED_CLAIM, CHECK_UNKNOWN_EVIDENCE,
                  CHECK_CONFIDENCE_RANGE)


class Hypothesis(Model):
    """One interpretation an agent offers, grounded in evidence ids."""

    statement: str
    supporting_evidence_ids: Annotated[list[Id], Field(max_length=1024)]
    confidence_bps: Bps


class AgentResult(Model):
    """What one agent (here: one source's claim set) hands to the aggregator."""

    agent_name: str
    hypotheses: list[Hypothesis]


@dataclass(frozen=True)
class GateDecision:
    """The gate's answer: admitted, or the first failing check and why."""

    admitted: bool
    check_id: str | None = None
    reason: str | None = None


_ADMITTED = GateDecision(admitted=True)


def _reject(check_id: str, reason: str) -> GateDecision:
    return GateDecision(admitted=False, check_id=check_id, reason=reason)


def _listed(valid: Collection[str]) -> str:
    shown = heapq.nsmallest(MAX_LISTED_IDS, valid)  # linear, sorted, deterministic
    more = len(valid) - len(shown)
    return repr(shown) + (f" (and {more} more)" if more > 0 else "")


#: Unicode's White_Space property (PropList.txt), the 25 code points SPEC §12.4
#: lists.  Not Python's ``str.isspace`` (which adds U+001C-U+001F) nor
#: JavaScript's ``trim`` (which adds U+FEFF): a name is blank iff every
#: character is in this set.
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)


def is_blank(text: str) -> bool:
    """True iff ``text`` is empty or made only of :data:`WHITE_SPACE`."""
    return all(ch in WHITE_SPACE for ch in text)


def admit(result: AgentResult, valid_evidence_ids: Collection[str]) -> GateDecision:
    """Run the four checks in order; the first failure decides (seed 001)."""
    # Check 1: the result can be attributed to an agent.
    name = result.agent_name
    if not isinstance(name, str) or is_blank(name):
        return _reject(CHECK_AGENT_NAME, f"agent name is empty: {name!r}")
    # Check 2: no hypothesis without grounding.
    for hypothesis in result.hypotheses:
        if not hypothesis.supporting_evidence_ids:
            return _reject(CHECK_UNCITED_CLAIM,
                           f"Hypothesis {hypothesis.statement!r} cites no evidence")
    # Check 3: every cited id exists (membership only; ``valid_evidence_ids``
    # should be a set or frozenset for O(1) lookups).
    for hypothesis in result.hypotheses:
        for evidence_id in hypothesis.supporting_evidence_ids:
            if evidence_id not in valid_evidence_ids:
                return _reject(CHECK_UNKNOWN_EVIDENCE,
                               f"Hypothesis {hypothesis.statement!r} cites unknown evidence "
                               f"id {evidence_id!r}. Valid IDs: {_listed(valid_evidence_ids)}")
    # Check 4: defence in depth against objects built around validation.
    for hypothesis in result.hypotheses:
        confidence = hypothesis.confidence_bps
        if type(confidence) is not int or not 0 <= confidence <= BPS_MAX:
            return _reject(CHECK_CONFIDENCE_RANGE,
                           f"Hypothesis {hypothesis.statement!r} has confidence_bps "
                           f"{confidence!r} outside 0..{BPS_MAX}")
    return _ADMITTED


__all__ = [
    "CHECK_AGENT_NAME",
    "CHECK_CONFIDENCE_RANGE",
    "CHECK_UNCITED_CLAIM",
    "CHECK_UNKNOWN_EVIDENCE",
    "GATE_CHECK_IDS",
    "MAX_LISTED_IDS",
    "WHITE_SPACE",
    "AgentResult",
    "GateDecision",
    "Hypothesis",
    "admit",
    "is_blank",
]
