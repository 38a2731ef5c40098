"""Offline verification of a court bundle (SPEC §16.6): no model, no network.

In order: decode the bundle and every record strictly, then recompute
``court_root`` (the one opening order of SPEC §5.5); the case follows from
its PoR bundle; the rule is sound and every seat has a court lock; a seat's
calls are its phases in order (SPEC §16.9: first answer, case, canaries), and
every call is checked as a judgement call is (SPEC §15.6 step 5: hashes of the wire
bytes, request hash, messages re-rendered from the case, re-classified from
its bytes with the court parser, attempts gapless and within the retry
policy); every seat of a held round has attempts; the votes are exactly the
parses of each seat's last case attempt; each ruling is the one the votes (and
the canaries, SPEC §16.10) imply.
The first failure raises ``CourtError`` / ``JudgementError`` with its check id.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from por.court.aggregate import side
from por.court.case import CASE_MAX_SIZE, DisputeCase, check_case
from por.court.chain import court_digest, seat_chain
from por.court.errors import CourtError
from por.court.panel import check_rule, court_vote, first_answer, round_seats, ruling_for
from por.court.phases import (
    CANARY_KINDS,
    FirstAnswer,
    blind_messages,
    canary_context,
    canary_result,
    contested_messages,
    other,
    phase_subject,
    verdict_outcome,
)
from por.court.records import (
    COURT,
    CanaryResult,
    CourtBundle,
    CourtRule,
    CourtRuling,
    CourtVote,
)
from por.court.seed003.llm_judge import classify_court
from por.locked_judges.attempts import Tried
from por.locked_judges.calls import check_attempts
from por.locked_judges.manifest import COURT_PARSER, JudgeManifest, parse_manifest
from por.locked_judges.outcome import Classified, Exchange
from por.locked_judges.profiles import profile_of
from por.locked_judges.records import JudgeCall

#: Largest ruling.cbor read by default: the case cap (the PoR bundle is inside the
#: case), so every ruling ``por court rule`` writes for a readable case is readable.
DEFAULT_MAX_SIZE = CASE_MAX_SIZE


@dataclass(frozen=True)
class CourtSummary:
    """What a verified court bundle says."""

    case: DisputeCase
    case_hash: bytes
    rule: CourtRule
    panel: list[JudgeManifest]
    calls: list[JudgeCall]
    votes: list[CourtVote]
    rulings: list[CourtRuling]
    court_root: bytes

    @property
    def final(self) -> CourtRuling:
        """The last round's ruling (the court's answer)."""
        return self.rulings[-1]


def fail(check_id: str, message: str, **kw: object) -> CourtError:
    """A ``CourtError`` to raise."""
    return CourtError(check_id, message, **kw)


def decode_court(data: bytes, *, max_size: int = DEFAULT_MAX_SIZE) -> CourtSummary:
    """Decode every record strictly and check the commitments (nothing replayed),
    in the one opening order of every committed bundle (SPEC §5.5, §16.6 step 1)."""
    _, summary = COURT.open(data, max_size=max_size, decode_records=_decode_records)
    return summary


def _decode_records(bundle: CourtBundle) -> CourtSummary:
    """Every record of ``bundle``, each strictly (``codec.*``, ``schema.*``, ``lock.manifest``)."""
    return CourtSummary(
        case=DisputeCase.from_cbor(bundle.case, max_size=CASE_MAX_SIZE),
        case_hash=hashlib.sha256(bundle.case).digest(),
        rule=CourtRule.from_cbor(bundle.rule),
        panel=[parse_manifest(m) for m in bundle.panel],
        calls=[JudgeCall.from_cbor(c) for c in bundle.calls],
        votes=[CourtVote.from_cbor(v) for v in bundle.votes],
        rulings=[CourtRuling.from_cbor(r) for r in bundle.rulings],
        court_root=bundle.commitments.court_root)


def verify_court(data: bytes, *, max_size: int = DEFAULT_MAX_SIZE) -> CourtSummary:
    """Every check of SPEC §16.6; raise on the first failure."""
    s = decode_court(data, max_size=max_size)
    check_case(s.case)
    for seat, lock in enumerate(s.panel):
        if lock.parser != COURT_PARSER:
            raise fail("court.manifest_parser", f"seat {seat} is not a court judge lock",
                       expected=COURT_PARSER, actual=lock.parser)
    check_rule(s.rule, s.panel)
    rounds = len(s.rulings)
    if rounds == 2 and s.rule.seats == s.rule.panel:
        raise fail("court.aggregation_mismatch", "an appeal round without appeal seats")
    held = round_seats(s.rule, 1) + (round_seats(s.rule, 2) if rounds == 2 else [])
    per_seat: dict[int, list[JudgeCall]] = {seat: [] for seat in held}
    previous = -1
    for call in s.calls:
        if call.subject_index < previous:
            raise fail("judgement.call_order", "calls are not sorted by seat")
        previous = call.subject_index
        if call.subject_index not in per_seat:
            raise fail("court.seat", "a call names a seat outside the held rounds",
                       expected=f"0..{len(held) - 1}", actual=call.subject_index)
        per_seat[call.subject_index].append(call)
    expected: dict[int, CourtVote] = {}
    canaries: dict[int, list[CanaryResult]] = {}
    # The first call's messages are the same for every seat: built once (bounded work).
    blind = blind_messages(s.case) if s.rule.commit_first else None
    digest = court_digest(s.rule, s.panel, s.case_hash)  # SPEC §16.11
    for seat in held:
        vote, canaries[seat] = SeatCheck(s, seat, per_seat[seat], blind, digest).run()
        if vote is not None:
            expected[seat] = vote
    if [v.seat for v in s.votes] != sorted(expected):
        missing = sorted(set(expected) - {v.seat for v in s.votes})
        raise fail("court.vote_missing" if missing else "court.vote_extra",
                   "votes are not exactly the seats whose last attempt voted",
                   expected=sorted(expected), actual=[v.seat for v in s.votes])
    for got in s.votes:
        want = expected[got.seat]
        if got != want:
            raise fail("court.vote_mismatch", f"seat {got.seat}'s vote is not its attempt's "
                       "answer", expected=want.worker_pct, actual=got.worker_pct)
    votes = {v.seat: v for v in s.votes}
    for number, ruling in enumerate(s.rulings, start=1):
        seats = round_seats(s.rule, 1) if number == 1 else held
        check_canary_seats(ruling, number, [seat for seat in seats if seat in votes])
        want_ruling = ruling_for(s.case_hash, s.rule, number, seats, votes,
                                 canaries=canaries)
        if ruling.discounted != want_ruling.discounted:
            raise fail("court.canary_policy", f"round {number} does not discount exactly the "
                       "seats the canary policy discounts", expected=want_ruling.discounted,
                       actual=ruling.discounted)
        if ruling != want_ruling:
            raise fail("court.aggregation_mismatch", f"round {number}'s ruling is not the one "
                       "its votes imply", expected=f"{want_ruling.status} "
                       f"{want_ruling.worker_pct} {want_ruling.decision}",
                       actual=f"{ruling.status} {ruling.worker_pct} {ruling.decision}")
        if number == 1 and rounds == 2 and ruling.status != "split":
            raise fail("court.aggregation_mismatch", "an appeal without a split")
    if s.final.status == "split":
        raise fail("court.aggregation_mismatch", "the last round cannot be a split")
    return s


def check_canary_seats(ruling: CourtRuling, number: int, voted: list[int]) -> None:
    """A canary is asked only after its seat's vote (SPEC §16.10): a canary result
    recorded for a seat that did not vote in the round (absent, or not one of its
    seats) is ``court.canary_absent``, whatever else the ruling says."""
    stray = sorted({c.seat for c in ruling.canaries or [] if c.seat not in voted})
    if stray:
        raise fail("court.canary_absent", f"round {number} records canaries for seats "
                   "that did not vote (an absent seat has no vote to flip)",
                   expected=voted, actual=stray)


class SeatCheck:
    """One seat's calls, phase by phase (SPEC §16.6 step 4, §16.9, §16.10)."""

    def __init__(self, s: CourtSummary, seat: int, calls: list[JudgeCall],
                 blind: list[dict[str, str]] | None, digest: bytes | None = None) -> None:
        self.s = s
        self.blind = blind
        self.seat = seat
        self.lock = s.panel[seat]
        #: One chain across every phase of the seat (SPEC §16.11).
        self.chain = seat_chain(digest, self.lock, f"seat {seat}")
        if not calls:
            raise fail("court.judge_missing", f"seat {seat} ({self.lock.judge_id}) of a held "
                       "round has no recorded attempt")
        #: The seat's calls cut where the subject hash changes: one run per phase.
        self.runs: list[list[JudgeCall]] = []
        for call in calls:
            if self.runs and self.runs[-1][0].subject_hash == call.subject_hash:
                self.runs[-1].append(call)
            else:
                self.runs.append([call])

    def run(self) -> tuple[CourtVote | None, list[CanaryResult]]:
        """The seat's vote (``None``: absent) and canaries, after every phase's checks."""
        s, lock = self.s, self.lock
        context = s.case.context()
        first: FirstAnswer | None = None
        blind = self.blind
        if blind is not None:
            last = self.phase("first", blind)
            if last.result.vote is None:
                return self.done(None, [])
            first = first_answer(lock, self.last_call, last.result.vote[1])
        last = self.phase("contested", contested_messages(lock, context, first, blind))
        if last.result.vote is None:
            return self.done(None, [])
        reasoning, pct = last.result.vote
        vote = court_vote(self.seat, lock, s.case_hash, attempt=last.attempt, pct=pct,
                          reasoning=reasoning, at=s.rule.ruled_at, first=first,
                          outcome=verdict_outcome(context))
        tried: list[CanaryResult] = []
        if s.rule.canaries:
            expected = side(pct)
            for kind in CANARY_KINDS:
                last = self.phase(f"canary-{kind}", contested_messages(
                    lock, canary_context(context, kind, other(expected)), first, blind),
                    other(expected))
                tried.append(canary_result(self.seat, kind, expected,
                                           None if last.result.vote is None
                                           else last.result.vote[1]))
        return self.done(vote, tried)

    def done(self, vote: CourtVote | None, tried: list[CanaryResult]
             ) -> tuple[CourtVote | None, list[CanaryResult]]:
        if self.runs:
            raise fail("court.phase_extra", f"seat {self.seat} has calls after its last "
                       "phase (a failed phase ends a seat)", actual=len(self.runs))
        return vote, tried

    def phase(self, name: str, messages: list[dict[str, str]],
              demand: str | None = None) -> Tried:
        """Check the next run as phase ``name`` and return its last attempt."""
        s, seat, lock = self.s, self.seat, self.lock
        subject = phase_subject(s.case_hash, name, demand)
        if not self.runs:
            raise fail("court.phase_missing", f"seat {seat} has no {name} call")
        calls = self.runs.pop(0)
        if calls[0].subject_hash != subject:
            if name == "contested" and s.rule.commit_first is None:
                raise fail("court.case_hash", "a call names another case",
                           expected=s.case_hash, actual=calls[0].subject_hash)
            raise fail("court.phase_order", f"seat {seat}: the {name} phase's calls are "
                       "not next", expected=subject, actual=calls[0].subject_hash)
        self.last_call = calls[-1]

        def names_seat(call: JudgeCall) -> None:
            if call.manifest_digest != lock.digest():
                raise fail("judgement.manifest_digest", f"seat {seat}: a call names another "
                           "manifest", expected=lock.digest(), actual=call.manifest_digest)

        def classify(exchange: Exchange) -> Classified:
            return classify_court(lock, messages, exchange)

        return check_attempts(calls, who=f"seat {seat} {name}", messages=messages,
                              policy=lock.retry_policy, classify=classify, fail=fail,
                              identity=names_seat, chain=self.chain,
                              credential_header=profile_of(lock.model.profile).credential_header)


__all__ = ["DEFAULT_MAX_SIZE", "CourtSummary", "decode_court", "verify_court"]
