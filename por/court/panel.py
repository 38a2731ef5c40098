"""A panel of locked judges rules on a case (SPEC §16.4): concurrently, once each.

Round 1 asks seats ``0..N-1`` concurrently (``asyncio.gather``); each judge's
prompt is rendered from the case alone, so no judge sees another's vote.  A
judge that cannot vote (the seed's ``JUDGE_UNAVAILABLE``) is *absent*; its
attempts are committed all the same.  If round 1 splits and the court has an
appeal panel, round 2 asks the ``N + 1`` new seats ``N..2N`` and rules over all
``2N + 1`` votes (round 1's votes stand: still one call per judge per case).
The result is ``ruling.cbor`` bytes; the CLI verifies them before writing.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from por.court.aggregate import check_panel, decide, side
from por.court.case import DisputeCase
from por.court.errors import CourtError, ServiceError
from por.court.judges.llm_judge import Attempt, CallTransport, LLMJudge
from por.court.records import (
    MAX_SEATS,
    CourtRule,
    CourtRuling,
    CourtVote,
    SeatVote,
    assemble,
)
from por.judges.attempts import Sleep
from por.judges.manifest import JudgeManifest
from por.judges.outcome import sha256
from por.judges.records import JudgeCall
from por.judges.render import messages_hash
from por.judges.wire import request_hash

Progress = Callable[[str], None]


@dataclass(frozen=True)
class SeatResult:
    """One seat's attempts and vote (None when the judge was unavailable)."""

    seat: int
    calls: list[JudgeCall]
    vote: CourtVote | None
    reason: str | None


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
    if len(manifests) != rule.seats:
        raise CourtError("court.judge_missing", "a seat has no locked judge",
                         expected=rule.seats, actual=len(manifests))
    ids = [m.judge_id for m in manifests]
    if len(set(ids)) != len(ids):
        raise CourtError("court.duplicate_judge", "a judge holds two seats",
                         actual=",".join(sorted(i for i in set(ids) if ids.count(i) > 1)))


def call_records(seat: int, lock: JudgeManifest, case_hash: bytes,
                 attempts: list[Attempt]) -> list[JudgeCall]:
    """The ``por.JudgeCall/1`` of each attempt (the seat is the subject index)."""
    out = []
    for a in attempts:
        ex = a.exchange
        out.append(JudgeCall(
            manifest_digest=lock.digest(), subject_index=seat, subject_hash=case_hash,
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
               votes: dict[int, CourtVote]) -> CourtRuling:
    """The ruling a round's votes imply (the verifier recomputes it)."""
    final = round_no == 2 or rule.seats == rule.panel
    quorum = rule.quorum if round_no == 1 else rule.appeal_quorum
    cast = [votes[s] for s in seats if s in votes]
    outcome = decide([v.worker_pct for v in cast], quorum, final=final)
    return CourtRuling(
        case_hash=case_hash, round=round_no, seats=len(seats), quorum=quorum,
        votes_cast=len(cast), status=outcome.status, worker_pct=outcome.worker_pct,
        decision=outcome.decision if outcome.status != "no_quorum" else None,
        split=outcome.split,
        votes=[SeatVote(seat=v.seat, judge_id=v.judge_id, worker_pct=v.worker_pct,
                        dissent=outcome.decision is not None
                        and side(v.worker_pct) != outcome.decision) for v in cast],
        absent=[s for s in seats if s not in votes], ruled_at=rule.ruled_at)


def round_seats(rule: CourtRule, round_no: int) -> list[int]:
    """Seats asked in a round: ``0..N-1``, then ``N..2N``."""
    return list(range(rule.panel)) if round_no == 1 else list(range(rule.panel, rule.seats))


async def _seat(case: DisputeCase, case_hash: bytes, rule: CourtRule, seat: int, *,
                lock: JudgeManifest, transport: CallTransport, sleep: Sleep) -> SeatResult:
    judge = LLMJudge(lock.judge_id, lock.model.model, Decimal(lock.parameters["temperature"]),
                     lock=lock, transport=transport, voted_at=rule.ruled_at,
                     call_prefix=f"{case_hash.hex()[:16]}-s{seat}", sleep=sleep)
    try:
        vote = await judge.evaluate(case.context())
    except ServiceError as exc:
        return SeatResult(seat, call_records(seat, lock, case_hash, judge.attempts), None,
                          exc.reason)
    calls = call_records(seat, lock, case_hash, judge.attempts)
    return SeatResult(seat, calls, CourtVote(
        seat=seat, judge_id=vote.judge_id, manifest_digest=lock.digest(), case_hash=case_hash,
        attempt=calls[-1].attempt, worker_pct=vote.worker_pct, reasoning=vote.reasoning,
        voted_at=vote.voted_at), None)


async def rule_case(case: DisputeCase, rule: CourtRule, manifests: list[JudgeManifest],
                    transports: list[CallTransport], *, sleep: Sleep = asyncio.sleep,
                    progress: Progress | None = None) -> bytes:
    """Judge ``case`` with the panel (and the appeal panel on a split): ``ruling.cbor``."""
    check_rule(rule, manifests)
    case_hash = hashlib.sha256(case.to_cbor()).digest()
    results: dict[int, SeatResult] = {}
    rulings: list[CourtRuling] = []
    for round_no in (1, 2):
        seats = round_seats(rule, round_no)
        if progress is not None:
            progress(f"round {round_no}: {len(seats)} judge(s) deliberating")

        async def one(seat: int) -> SeatResult:
            result = await _seat(case, case_hash, rule, seat, lock=manifests[seat],
                                 transport=transports[seat], sleep=sleep)
            if progress is not None:  # as each judge finishes (order is not committed)
                shown = (f"worker_pct {result.vote.worker_pct}" if result.vote is not None
                         else f"UNAVAILABLE ({result.reason})")
                progress(f"  seat {seat} {manifests[seat].judge_id}: {shown}")
            return result

        for result in await asyncio.gather(*[one(s) for s in seats]):
            results[result.seat] = result
        votes = {s: r.vote for s, r in results.items() if r.vote is not None}
        ruling = ruling_for(case_hash, rule, round_no, sorted(results), votes)
        rulings.append(ruling)
        if progress is not None:
            progress(f"round {round_no}: {ruling.status}"
                     + (f", worker_pct {ruling.worker_pct}, {ruling.decision}"
                        if ruling.worker_pct is not None else ""))
        if ruling.status != "split":
            break
    ordered = [results[s] for s in sorted(results)]
    return assemble(
        case=case.to_cbor(), rule=rule.to_cbor(), panel=[m.to_cbor() for m in manifests],
        calls=[c.to_cbor() for r in ordered for c in r.calls],
        votes=[r.vote.to_cbor() for r in ordered if r.vote is not None],
        rulings=[r.to_cbor() for r in rulings])


__all__ = ["SeatResult", "call_records", "check_rule", "round_seats", "rule_case", "ruling_for"]
