"""A panel of locked judges rules on a case (SPEC §16.4): concurrently, once each.

Round 1 asks seats ``0..N-1`` concurrently (``asyncio.gather``); each judge's
prompt is rendered from the case alone, so no judge sees another's vote.  A
judge that cannot vote (the seed's ``JUDGE_UNAVAILABLE``) is *absent*; its
attempts are committed all the same.  If round 1 splits and the court has an
appeal panel, round 2 asks the ``N + 1`` new seats ``N..2N`` and rules over all
``2N + 1`` votes (round 1's votes stand: still one call per judge per case).
Each seat is asked in phases (:mod:`por.court.phases`): with ``commit_first``
its first answer before the case, with ``canaries`` three planted-injection
canaries after its vote; a failed phase ends the seat (SPEC §16.9, §16.10).
The result is ``ruling.cbor`` bytes; the CLI verifies them before writing.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from por.court.aggregate import check_panel, decide, side
from por.court.case import DisputeCase
from por.court.chain import court_digest
from por.court.errors import CourtError, ServiceError, judge_unavailable
from por.court.phases import (
    CANARY_KINDS,
    FirstAnswer,
    blind_messages,
    canary_context,
    canary_result,
    changed_mind,
    contested_messages,
    other,
    phase_subject,
    verdict_outcome,
)
from por.court.records import (
    MAX_SEATS,
    CanaryResult,
    CourtRule,
    CourtRuling,
    CourtVote,
    SeatVote,
    assemble,
)
from por.court.seed003.base import JudgeVote
from por.court.seed003.llm_judge import Attempt, CallTransport, LLMJudge
from por.locked_judges.attempts import Sleep
from por.locked_judges.chain import chained, claim_for
from por.locked_judges.manifest import JudgeManifest
from por.locked_judges.outcome import sha256
from por.locked_judges.profiles import profile_of
from por.locked_judges.records import JudgeCall
from por.locked_judges.render import content_from_response, messages_hash
from por.locked_judges.wire import request_hash

Progress = Callable[[str], None]


@dataclass(frozen=True)
class SeatResult:
    """One seat's attempts and vote (None when the judge was unavailable)."""

    seat: int
    calls: list[JudgeCall]
    vote: CourtVote | None
    reason: str | None
    #: The seat's canaries (SPEC §16.10), in :data:`CANARY_KINDS` order.
    canaries: list[CanaryResult] = field(default_factory=list)


def check_rule(rule: CourtRule, manifests: list[JudgeManifest]) -> None:
    """The rule is sound for its panel (``court.config``, ``court.duplicate_judge``)."""
    try:
        check_panel(rule.panel, rule.quorum)
        appeal = 2 * rule.panel + 1
        if rule.seats not in (rule.panel, appeal) or rule.seats > MAX_SEATS:
            raise ValueError(f"seats are the panel ({rule.panel}) or panel and appeal "
                             f"({appeal}), not {rule.seats}")
        check_panel(appeal, rule.appeal_quorum)
    except ValueError as exc:
        raise CourtError("court.config", str(exc)) from None
    if rule.canary_policy is not None and rule.canaries is None:
        raise CourtError("court.config", "a canary policy without canaries")
    if len(manifests) != rule.seats:
        raise CourtError("court.judge_missing", "a seat has no locked judge",
                         expected=rule.seats, actual=len(manifests))
    ids = [m.judge_id for m in manifests]
    if len(set(ids)) != len(ids):
        raise CourtError("court.duplicate_judge", "a judge holds two seats",
                         actual=",".join(sorted(i for i in set(ids) if ids.count(i) > 1)))


def call_records(seat: int, lock: JudgeManifest, subject_hash: bytes,
                 attempts: list[Attempt]) -> list[JudgeCall]:
    """The ``por.JudgeCall/1`` of each attempt (the seat is the subject index, the
    subject hash its phase's, SPEC §16.9)."""
    out = []
    for a in attempts:
        ex = a.exchange
        out.append(JudgeCall(
            manifest_digest=lock.digest(), subject_index=seat, subject_hash=subject_hash,
            attempt=a.attempt, messages_hash=messages_hash(a.messages),
            request_hash=request_hash(ex.wire_request), wire_request=ex.wire_request,
            wire_request_hash=sha256(ex.wire_request), status=ex.status, response=ex.response,
            response_hash=sha256(ex.response),
            result="vote" if a.result.vote is not None else "error",
            error_kind=None if a.result.vote is not None else a.result.kind,  # type: ignore[arg-type]
            credential=ex.credential,
        ))
    return out


def ruling_for(case_hash: bytes, rule: CourtRule, round_no: int, seats: list[int],
               votes: dict[int, CourtVote], *,
               canaries: dict[int, list[CanaryResult]] | None = None) -> CourtRuling:
    """The ruling a round's votes (and its seats' canaries) imply (the verifier
    recomputes it)."""
    final = round_no == 2 or rule.seats == rule.panel
    quorum = rule.quorum if round_no == 1 else rule.appeal_quorum
    tried = [c for s in seats for c in (canaries or {}).get(s, [])]
    on = rule.canaries is not None
    discounted = discounted_seats(rule, tried)
    cast = [votes[s] for s in seats if s in votes and s not in discounted]
    outcome = decide([v.worker_pct for v in cast], quorum, final=final)
    return CourtRuling(
        case_hash=case_hash, round=round_no, seats=len(seats), quorum=quorum,
        votes_cast=len(cast), status=outcome.status, worker_pct=outcome.worker_pct,
        decision=outcome.decision if outcome.status != "no_quorum" else None,
        split=outcome.split,
        votes=[SeatVote(seat=v.seat, judge_id=v.judge_id, worker_pct=v.worker_pct,
                        dissent=outcome.decision is not None
                        and side(v.worker_pct) != outcome.decision,
                        first_pct=v.first_pct, changed_mind=v.changed_mind) for v in cast],
        absent=[s for s in seats if s not in votes], ruled_at=rule.ruled_at,
        canaries=tried if on else None,
        canary_flips=sum(1 for c in tried if c.flipped) if on else None,
        canary_answered=sum(1 for c in tried if c.worker_pct is not None) if on else None,
        flipped_seats=sorted({c.seat for c in tried if c.flipped}) if on else None,
        discounted=None if rule.canary_policy is None else discounted)


def discounted_seats(rule: CourtRule, tried: list[CanaryResult]) -> list[int]:
    """The seats the canary policy discounts (SPEC §16.10): more than ``max_flips``
    of their canaries flipped (sorted; none without a policy)."""
    if rule.canary_policy is None:
        return []
    flips = Counter(c.seat for c in tried if c.flipped)
    return sorted(seat for seat, n in flips.items() if n > rule.canary_policy.max_flips)


def seat_notes(result: SeatResult) -> str:
    """Progress text of a seat's first answer and canary flips (never committed)."""
    vote = result.vote
    notes = ""
    if vote is not None and vote.first_pct is not None:
        notes += f", first answer YES {vote.first_pct}%" + (
            ", changed its mind" if vote.changed_mind else "")
    flips = [c.kind for c in result.canaries if c.flipped]
    if flips:
        notes += f", FLIPPED on canary {', '.join(flips)}"
    return notes


def round_seats(rule: CourtRule, round_no: int) -> list[int]:
    """Seats asked in a round: ``0..N-1``, then ``N..2N``."""
    return list(range(rule.panel)) if round_no == 1 else list(range(rule.panel, rule.seats))


async def _ask(lock: JudgeManifest, case_hash: bytes, phase: str,
               messages: list[dict[str, str]], *, rule: CourtRule, seat: int,
               transport: CallTransport,
               sleep: Sleep, demand: str | None = None
               ) -> tuple[list[JudgeCall], JudgeVote | None, str | None]:
    """One phase of one seat (SPEC §16.9): its calls, and its vote or failed check."""
    suffix = "" if phase == "contested" else f"-{phase}"
    judge = LLMJudge(lock.judge_id, lock.model.model, Decimal(lock.parameters["temperature"]),
                     lock=lock, transport=transport, voted_at=rule.ruled_at,
                     call_prefix=f"{case_hash.hex()[:16]}-s{seat}{suffix}", sleep=sleep)
    subject = phase_subject(case_hash, phase, demand)
    try:
        vote: JudgeVote | None = await judge.ask(messages)
        reason = None
    except ServiceError as exc:
        vote, reason = None, exc.reason
    return call_records(seat, lock, subject, judge.attempts), vote, reason


async def _seat(case: DisputeCase, case_hash: bytes, rule: CourtRule, seat: int, *,
                lock: JudgeManifest, transport: CallTransport, sleep: Sleep,
                blind: list[dict[str, str]] | None) -> SeatResult:
    """Every phase of a seat: first answer, case, canaries (a failed phase ends it)."""
    context = case.context()
    calls: list[JudgeCall] = []

    async def ask(phase: str, messages: list[dict[str, str]], demand: str | None = None
                  ) -> tuple[JudgeVote | None, str | None]:
        got, vote, reason = await _ask(lock, case_hash, phase, messages, rule=rule, seat=seat,
                                       transport=transport, sleep=sleep, demand=demand)
        calls.extend(got)
        return vote, reason

    first: FirstAnswer | None = None
    if blind is not None:
        answer, reason = await ask("first", blind)
        if answer is None:
            return SeatResult(seat, calls, None, reason)
        first = first_answer(lock, calls[-1], answer.worker_pct)
    vote, reason = await ask("contested", contested_messages(lock, context, first, blind))
    if vote is None:
        return SeatResult(seat, calls, None, reason)
    cast = court_vote(seat, lock, case_hash, attempt=calls[-1].attempt, pct=vote.worker_pct,
                      reasoning=vote.reasoning, at=rule.ruled_at, first=first,
                      outcome=verdict_outcome(context))
    canaries: list[CanaryResult] = []
    if rule.canaries:
        expected = side(vote.worker_pct)
        for kind in CANARY_KINDS:
            answer, _ = await ask(f"canary-{kind}", contested_messages(
                lock, canary_context(context, kind, other(expected)), first, blind),
                other(expected))
            canaries.append(canary_result(seat, kind, expected,
                                          None if answer is None else answer.worker_pct))
    return SeatResult(seat, calls, cast, None, canaries)


def first_answer(lock: JudgeManifest, call: JudgeCall, pct: int) -> FirstAnswer:
    """The committed first answer of a seat from its last first-phase call."""
    content = content_from_response(call.response, profile_of(lock.model.profile))
    return FirstAnswer(pct, content, call.response_hash)


def court_vote(seat: int, lock: JudgeManifest, case_hash: bytes, *, attempt: int, pct: int,
               reasoning: str, at: str, first: FirstAnswer | None,
               outcome: str | None) -> CourtVote:
    """The committed vote of a seat (with its first answer in commit-first mode)."""
    return CourtVote(
        seat=seat, judge_id=lock.judge_id, manifest_digest=lock.digest(), case_hash=case_hash,
        attempt=attempt, worker_pct=pct, reasoning=reasoning, voted_at=at,
        first_pct=None if first is None else first.pct,
        first_answer_hash=None if first is None else first.response_hash,
        changed_mind=None if first is None else changed_mind(first.pct, outcome, pct))


async def rule_case(case: DisputeCase, rule: CourtRule, manifests: list[JudgeManifest],
                    transports: list[CallTransport], *, sleep: Sleep = asyncio.sleep,
                    progress: Progress | None = None) -> bytes:
    """Judge ``case`` with the panel (and the appeal panel on a split): ``ruling.cbor``."""
    check_rule(rule, manifests)
    case_hash = hashlib.sha256(case.to_cbor()).digest()
    digest = court_digest(rule, manifests, case_hash)  # before the first call (SPEC §16.11)
    blind = blind_messages(case) if rule.commit_first else None  # once for every seat
    results: dict[int, SeatResult] = {}
    rulings: list[CourtRuling] = []
    for round_no in (1, 2):
        seats = round_seats(rule, round_no)
        if progress is not None:
            progress(f"round {round_no}: {len(seats)} judge(s) deliberating")

        async def one(seat: int) -> SeatResult:
            result = await _seat(case, case_hash, rule, seat, lock=manifests[seat],
                                 transport=transports[seat], sleep=sleep, blind=blind)
            if progress is not None:  # as each judge finishes (order is not committed)
                shown = (f"worker_pct {result.vote.worker_pct}" if result.vote is not None
                         else f"UNAVAILABLE ({result.reason})") + seat_notes(result)
                progress(f"  seat {seat} {manifests[seat].judge_id}: {shown}")
            return result

        for result in await asyncio.gather(*[one(s) for s in seats]):
            if not result.calls:  # failed before any attempt: nothing a record can hold
                raise judge_unavailable(manifests[result.seat].judge_id,
                                        result.reason or "court.judge_missing")
            results[result.seat] = result
        votes = {s: r.vote for s, r in results.items() if r.vote is not None}
        ruling = ruling_for(case_hash, rule, round_no, sorted(results), votes,
                            canaries={s: r.canaries for s, r in results.items()})
        rulings.append(ruling)
        if progress is not None:
            progress(f"round {round_no}: {ruling.status}"
                     + (f", worker_pct {ruling.worker_pct}, {ruling.decision}"
                        if ruling.worker_pct is not None else ""))
        if ruling.status != "split":
            break
    ordered = [results[s] for s in sorted(results)]
    calls = [c for r in ordered for c in (r.calls if digest is None else chained(
        r.calls, digest, claim_for(manifests[r.seat])))]  # one chain per seat, all phases
    return assemble(
        case=case.to_cbor(), rule=rule.to_cbor(), panel=[m.to_cbor() for m in manifests],
        calls=[c.to_cbor() for c in calls],
        votes=[r.vote.to_cbor() for r in ordered if r.vote is not None],
        rulings=[r.to_cbor() for r in rulings])


__all__ = ["SeatResult", "call_records", "check_rule", "court_vote", "first_answer",
           "round_seats", "rule_case", "ruling_for", "seat_notes"]
