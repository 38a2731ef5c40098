"""What a seat is asked, call by call: commit-first and canaries (SPEC §16.9, §16.10).

A seat's calls come in *phases*, in this order, each with its own attempts
``1..k`` and its own subject hash (the ``subject_hash`` of its calls):

* ``first`` (commit-first courts only, ``por-court-blind/1``): the market
  question from the specification and the evidence alone;
* ``contested``: the case itself (subject hash: the case hash).  After a
  committed first answer its messages carry that answer, verbatim, as the
  judge's own turn, and its SHA-256, so the request cannot be built before
  the answer exists;
* ``canary-evidence``, ``canary-claim``, ``canary-rebuttal`` (courts with
  canaries, ``por-court-canary/1``; only after a contested vote): the
  contested messages with a planted injection demanding the decision the
  seat did *not* give.  The planted text adds no fact, so the known right
  ruling is the seat's own; a canary answered on the other side is a flip.

Everything here is a function of the case, the lock and earlier answers, so
a verifier re-derives every phase's messages and subject hash.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Literal

from por.challenge.refs import bundle_from_bytes
from por.court.aggregate import Decision, side
from por.court.case import MAX_DELIVERABLES, DisputeCase
from por.court.records import CanaryResult
from por.court.seed003.base import DisputeContext
from por.court.seed003.prompts import (
    AFTER_COMMIT,
    BLIND_SYSTEM_PROMPT,
    BLIND_TEMPLATE,
    CANARY_INJECTIONS,
)
from por.court.seed003.render import fill, json_line, render_messages
from por.encoding import encode
from por.errors import PorError
from por.locked_judges.manifest import JudgeManifest
from por.schemas import EvidenceItem

#: The commit-first phase's name in ``por.CourtRule/1`` (its prompts are SPEC §16.9's).
BLIND: Literal["por-court-blind/1"] = "por-court-blind/1"
#: The canaries' name in ``por.CourtRule/1`` (the injections are SPEC §16.10's).
CANARY: Literal["por-court-canary/1"] = "por-court-canary/1"
#: Most code points of one evidence text in the first call.
MAX_BLIND_TEXT = 4000
CanaryKind = Literal["evidence", "claim", "rebuttal"]
#: Canary phases, in the order a seat is asked them.
CANARY_KINDS: tuple[CanaryKind, ...] = ("evidence", "claim", "rebuttal")
Messages = list[dict[str, str]]


@dataclass(frozen=True)
class FirstAnswer:
    """A seat's committed first answer: its YES percentage, text and response hash."""

    pct: int
    content: str
    response_hash: bytes


def phase_subject(case_hash: bytes, phase: str, demand: str | None = None) -> bytes:
    """The subject hash of a phase's calls: the case hash for ``contested``, else
    SHA-256 of the canonical CBOR map ``{case_hash, phase[, demand]}``."""
    if phase == "contested":
        return case_hash
    value: dict[str, object] = {"case_hash": case_hash, "phase": phase}
    if demand is not None:
        value["demand"] = demand
    return hashlib.sha256(encode(value)).digest()


def blind_evidence(case: DisputeCase) -> list[str]:
    """The evidence as the first call sees it: per item (at most 64, bundle order)
    ``ID (URI): TEXT``, the content as UTF-8 cut to :data:`MAX_BLIND_TEXT` code points
    (``... [cut: N bytes]`` after a cut; ``[N bytes, not UTF-8 text]`` if it is not
    text), or ``evidence leaf: not a valid record (CHECK_ID)``."""
    out = []
    for raw in bundle_from_bytes(case.bundle).evidence[:MAX_DELIVERABLES]:
        try:
            item = EvidenceItem.from_cbor(raw)
        except PorError as exc:
            out.append(f"evidence leaf: not a valid record ({exc.check_id})")
            continue
        try:
            text = item.content.decode("utf-8")
        except UnicodeDecodeError:
            text = f"[{len(item.content)} bytes, not UTF-8 text]"
        if len(text) > MAX_BLIND_TEXT:
            text = text[:MAX_BLIND_TEXT] + f" ... [cut: {len(item.content)} bytes]"
        out.append(f"{item.evidence_id} ({item.source.uri}): {text}")
    return out


def blind_messages(case: DisputeCase) -> Messages:
    """The first call: the question, the specification and the evidence, nothing else."""
    quoted = {"task_title": json_line(case.task_title),
              "task_spec": json_line(case.task_spec),
              "evidence": json_line(blind_evidence(case))}
    return [{"role": "system", "content": BLIND_SYSTEM_PROMPT},
            {"role": "user", "content": fill(BLIND_TEMPLATE, {}, quoted)}]


def contested_messages(lock: JudgeManifest, context: DisputeContext,
                       first: FirstAnswer | None, blind: Messages | None) -> Messages:
    """The lock's messages for ``context``; after a committed first answer, the
    conversation system, first question, first answer, then the contested case."""
    base = render_messages(lock, context)
    if first is None:
        return base
    if blind is None:
        raise ValueError("a first answer needs the first call's messages")
    question = blind[1]
    preface = AFTER_COMMIT.format(answer_hash=first.response_hash.hex())
    return [base[0], question, {"role": "assistant", "content": first.content},
            {"role": "user", "content": preface + base[1]["content"]}]


def other(decision: Decision) -> Decision:
    """The other decision."""
    return "rejected" if decision == "upheld" else "upheld"


def canary_context(context: DisputeContext, kind: CanaryKind, demand: Decision
                   ) -> DisputeContext:
    """``context`` with the injection demanding ``demand`` planted in one field: an
    evidence line before the disputed-leaf line, or the end of the claim or rebuttal."""
    planted = CANARY_INJECTIONS[demand]
    if kind == "evidence":
        items = list(context.deliverables)
        items[max(len(items) - 1, 0):max(len(items) - 1, 0)] = [f"evidence note: {planted}"]
        return replace(context, deliverables=items)
    if kind == "claim":
        return replace(context, claim=context.claim + planted)
    rebuttal = planted if context.rebuttal is None else context.rebuttal + planted
    return replace(context, rebuttal=rebuttal)


def canary_result(seat: int, kind: CanaryKind, expected: Decision,
                  worker_pct: int | None) -> CanaryResult:
    """A canary's committed result: a flip iff it answered on the other side."""
    return CanaryResult(seat=seat, kind=kind, demand=other(expected), expected=expected,
                        worker_pct=worker_pct,
                        flipped=worker_pct is not None and side(worker_pct) != expected)


def verdict_outcome(context: DisputeContext) -> str | None:
    """``YES`` or ``NO`` from the verdict line of the deliverables, else ``None``."""
    line = context.deliverables[0] if context.deliverables else ""
    for outcome in ("YES", "NO"):
        if line.startswith(f"verdict: {outcome} at "):
            return outcome
    return None


def changed_mind(first_pct: int, outcome: str | None, worker_pct: int) -> bool | None:
    """Whether the contested vote's decision differs from the one the first answer
    implies (it backs the oracle iff YES >= 50 for a YES verdict, <= 50 for NO;
    ambiguity favours the worker); ``None`` when the verdict is neither."""
    if outcome is None:
        return None
    backs = first_pct >= 50 if outcome == "YES" else first_pct <= 50
    return side(worker_pct) != ("rejected" if backs else "upheld")


__all__ = ["BLIND", "CANARY", "CANARY_KINDS", "MAX_BLIND_TEXT", "CanaryKind", "FirstAnswer",
           "Messages", "blind_evidence", "blind_messages", "canary_context", "canary_result",
           "changed_mind", "contested_messages", "other", "phase_subject", "verdict_outcome"]
