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
because they cross the agent boundary; they live in :mod:`por.schemas.agent`
and are re-exported here lazily, so importing the gate does not import
pydantic (issue 16).  :func:`admit` reads only attributes, so the auditor
hands it :class:`ClaimHypothesis`/:class:`ClaimResult` (plain slotted objects
with the same attribute names, built from already validated evidence).
:class:`GateDecision` is an internal, never-serialised result and therefore a
frozen dataclass (seed 001 "JudgedResult -- a dataclass").  One tool per
type, never both.

Leaves out: what happens to a rejected result (the caller records and skips
it), ranking, and any LLM.  Pure: no clock, no I/O.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from por.numbers import BPS_MAX

if TYPE_CHECKING:
    from por.schemas.agent import AgentResult, Hypothesis

#: Most valid ids quoted in a ``gate.unknown_evidence`` reason.
MAX_LISTED_IDS = 16

CHECK_AGENT_NAME = "gate.agent_name"
#: The committed reason of a blank agent name (SPEC §12.5.3): a fixed text, never the
#: name itself (a `repr` of it would be CPython's quoting, issue 22 item 3).
AGENT_NAME_BLANK = "agent name is blank (empty or only white space)"
CHECK_UNCITED_CLAIM = "gate.uncited_claim"
CHECK_UNKNOWN_EVIDENCE = "gate.unknown_evidence"
CHECK_CONFIDENCE_RANGE = "gate.confidence_range"

#: The gate's check ids in the order they run.
GATE_CHECK_IDS = (CHECK_AGENT_NAME, CHECK_UNCITED_CLAIM, CHECK_UNKNOWN_EVIDENCE,
                  CHECK_CONFIDENCE_RANGE)


def __getattr__(name: str) -> Any:
    # PEP 562: the pydantic wire models load on first use only (issue 16).
    if name in ("AgentResult", "Hypothesis"):
        from por.schemas import agent  # noqa: PLC0415

        return getattr(agent, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class ClaimHypothesis:
    """A ``Hypothesis`` without pydantic, for the auditor's own claims (already valid)."""

    __slots__ = ("confidence_bps", "statement", "supporting_evidence_ids")

    def __init__(self, statement: str, supporting_evidence_ids: list[str],
                 confidence_bps: int) -> None:
        self.statement = statement
        self.supporting_evidence_ids = supporting_evidence_ids
        self.confidence_bps = confidence_bps


class ClaimResult:
    """An ``AgentResult`` without pydantic: one source's claim set (see ``admit``)."""

    __slots__ = ("agent_name", "hypotheses")

    def __init__(self, agent_name: str, hypotheses: Sequence[ClaimHypothesis]) -> None:
        self.agent_name = agent_name
        self.hypotheses = hypotheses


@dataclass(frozen=True, slots=True)
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


def admit(result: AgentResult | ClaimResult,
          valid_evidence_ids: Collection[str]) -> GateDecision:
    """Run the four checks in order; the first failure decides (seed 001)."""
    # Check 1: the result can be attributed to an agent.
    name = result.agent_name
    if not isinstance(name, str) or is_blank(name):
        return _reject(CHECK_AGENT_NAME, AGENT_NAME_BLANK)
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
    "ClaimHypothesis",
    "ClaimResult",
    "GateDecision",
    "Hypothesis",
    "admit",
    "is_blank",
]
