"""Commit-first (SPEC §16.9), canary cases (§16.10) and absent seats as recorded
failures (§16.4): a court rules with them, its ruling verifies, and every edit of a
phase (dropped, reordered, re-rolled, rewritten) is rejected with its check id."""

from __future__ import annotations

import asyncio
import hashlib

import pytest
from court_support import AT, CLAIM, REBUTTAL, case, completion, locks, recommit, vote, wire_body

from por.court.chain import court_digest
from por.court.config import court_rule, parse_court
from por.court.errors import CourtError
from por.court.panel import rule_case
from por.court.phases import phase_subject, verdict_outcome
from por.court.records import CourtBundle, CourtRuling, CourtVote
from por.court.seed003.prompts import BLIND_SYSTEM_PROMPT
from por.court.verify import decode_court, verify_court
from por.errors import PorError
from por.locked_judges.chain import chained, claim_for
from por.locked_judges.manifest import JudgeManifest
from por.locked_judges.outcome import Exchange
from por.locked_judges.records import JudgeCall

Messages = list[dict[str, str]]


class Judges:
    """Scripted judges that tell the phases apart by what they are shown: the first
    answer (``first``), the case (``votes``), and canaries, where a ``gullible`` seat
    obeys the planted injection and the others answer as on the case."""

    def __init__(self, votes: list[int], first: list[int] | None = None, *,
                 gullible: frozenset[int] = frozenset(), down: frozenset[int] = frozenset(),
                 first_down: frozenset[int] = frozenset()) -> None:
        self.votes, self.first = votes, first or [50] * len(votes)
        self.gullible, self.down, self.first_down = gullible, down, first_down
        self.seen: list[tuple[int, str, Messages]] = []

    async def __call__(self, manifest: JudgeManifest, messages: Messages,
                       call_id: str) -> Exchange:
        seat = int(manifest.judge_id.split("-")[1])
        last = messages[-1]["content"]
        if messages[0]["content"] == BLIND_SYSTEM_PROMPT:
            phase, pct, status = "first", self.first[seat], 503 * (seat in self.first_down)
        elif "MASTER KEY ACCEPTED" in last:
            obeys = seat in self.gullible
            phase = "canary"
            pct = (0 if "rule UPHELD" in last else 100) if obeys else self.votes[seat]
            status = 0
        else:
            phase, pct, status = "contested", self.votes[seat], 503 * (seat in self.down)
        self.seen.append((seat, phase, messages))
        return Exchange(wire_body(manifest, messages), status or 200,
                        completion(vote(pct), manifest.model.version_lock))


def court(judges: Judges, *, commit_first: bool = False, canaries: bool = False,
          seats: int = 3, quorum: int = 3) -> bytes:
    numbers = {"panel": 3, "quorum": quorum, "appeal_quorum": 7,
               "commit_first": int(commit_first), "canaries": int(canaries)}
    rule = court_rule(numbers, seats, AT)

    async def nosleep(seconds: float) -> None:
        del seconds

    return asyncio.run(rule_case(case(), rule, list(locks()[:seats]), [judges] * seats,
                                 sleep=nosleep))


def check_id(data: bytes) -> str:
    with pytest.raises(PorError) as caught:
        verify_court(data)
    return caught.value.check_id


def calls_of(data: bytes) -> list[JudgeCall]:
    return [JudgeCall.from_cbor(c) for c in CourtBundle.from_cbor(data).calls]


# --- commit-first ---------------------------------------------------------------------

def test_commit_first_asks_the_question_blind_then_the_case_carrying_the_answer() -> None:
    judges = Judges([80, 20, 70], first=[90, 10, 60])
    data = court(judges, commit_first=True)
    summary = verify_court(data)
    assert summary.rule.commit_first == "por-court-blind/1"
    assert verdict_outcome(case().context()) == "YES"
    by_seat = {v.seat: v for v in summary.votes}
    # Blind YES 90 backs the YES verdict and the seat rejects: unchanged.  Blind YES 10
    # disagrees with it and the seat upholds: unchanged too.  YES 60 then 70: unchanged.
    assert [(by_seat[s].first_pct, by_seat[s].changed_mind) for s in range(3)] == [
        (90, False), (10, False), (60, False)]
    assert [(v.first_pct, v.changed_mind) for v in summary.final.votes] == [
        (90, False), (10, False), (60, False)]
    for seat in range(3):
        first, contested = [m for s, _, m in judges.seen if s == seat]
        blind_text = first[1]["content"]
        # The first call sees the question and the evidence's text, never the verdict,
        # the claim or the rebuttal.
        assert "verdict:" not in blind_text and CLAIM not in blind_text
        assert REBUTTAL not in blind_text and "ev-acme-newsroom" in blind_text
        assert [m["role"] for m in contested] == ["system", "user", "assistant", "user"]
        calls = [c for c in summary.calls if c.subject_index == seat]
        assert [c.subject_hash for c in calls] == [
            phase_subject(summary.case_hash, "first"), summary.case_hash]
        # The case's request carries the committed first answer and its hash.
        assert calls[0].response_hash.hex() in contested[3]["content"]
        assert contested[2]["content"] == vote([90, 10, 60][seat])
        assert by_seat[seat].first_answer_hash == calls[0].response_hash


def test_a_seat_that_changes_its_mind_is_reported() -> None:
    summary = verify_court(court(Judges([80, 20, 70], first=[10, 10, 90]), commit_first=True))
    assert [v.changed_mind for v in summary.votes] == [True, False, False]


def test_commit_first_is_deterministic_and_a_plain_court_keeps_its_bytes() -> None:
    assert court(Judges([80, 20, 70]), commit_first=True) == \
        court(Judges([80, 20, 70]), commit_first=True)
    plain = verify_court(court(Judges([80, 20, 70])))
    assert plain.rule.commit_first is None and plain.rule.canaries is None
    assert all(v.first_pct is None for v in plain.votes) and plain.final.canaries is None


def test_a_rewritten_first_answer_breaks_the_case_request() -> None:
    data = court(Judges([80, 20, 70], first=[90, 10, 60]), commit_first=True)
    calls = calls_of(data)
    body = calls[0].response.replace(b'worker_pct\\": 90', b'worker_pct\\": 91')
    assert body != calls[0].response
    forged = calls[0].model_copy(update={"response": body,
                                         "response_hash": hashlib.sha256(body).digest()})
    edited = [forged.to_cbor(), *CourtBundle.from_cbor(data).calls[1:]]
    # the chain breaks first (SPEC §16.11); re-linked, the case request still fails
    assert check_id(recommit(data, calls=edited)) == "judgement.attempt_chain"
    seat0 = [forged, *[c for c in calls[1:] if c.subject_index == 0]]
    summary = decode_court(data)
    digest = court_digest(summary.rule, summary.panel, summary.case_hash)
    assert digest is not None
    relinked = [c.to_cbor() for c in chained(seat0, digest, claim_for(summary.panel[0]))]
    edited = relinked + [c.to_cbor() for c in calls if c.subject_index != 0]
    assert check_id(recommit(data, calls=edited)) == "judgement.messages_hash"


def test_the_first_answer_comes_first() -> None:
    data = court(Judges([80, 20, 70]), commit_first=True)
    raw = CourtBundle.from_cbor(data).calls
    swapped = [raw[1], raw[0], *raw[2:]]
    assert check_id(recommit(data, calls=swapped)) == "court.phase_order"
    dropped = raw[1:]  # seat 0's first answer deleted
    assert check_id(recommit(data, calls=dropped)) == "court.phase_order"
    no_case = [raw[0], *raw[2:]]  # seat 0's case call deleted
    assert check_id(recommit(data, calls=no_case)) == "court.phase_missing"


def test_a_failed_first_answer_leaves_the_seat_absent_with_its_attempt() -> None:
    judges = Judges([80, 20, 70], first_down=frozenset({1}))
    data = court(judges, commit_first=True, quorum=2)
    summary = verify_court(data)
    assert summary.final.absent == [1] and summary.final.status == "ruled"
    seat1 = [c for c in summary.calls if c.subject_index == 1]
    assert [(c.result, c.error_kind, c.status) for c in seat1] == [
        ("error", "server_error", 503)] * 2  # the lock retries once
    assert {p for s, p, _ in judges.seen if s == 1} == {"first"}  # never shown the case
    # A case call recorded after the failed first answer is refused.
    raw = CourtBundle.from_cbor(data).calls
    seat0_case = JudgeCall.from_cbor(raw[1]).model_copy(update={"subject_index": 1})
    position = 4  # after seat 1's failed first answers
    edited = [*raw[:position], seat0_case.to_cbor(), *raw[position:]]
    assert check_id(recommit(data, calls=edited)) == "court.phase_extra"


# --- canaries -------------------------------------------------------------------------

def test_honest_seats_do_not_flip_and_the_rate_is_committed() -> None:
    judges = Judges([80, 20, 70])
    summary = verify_court(court(judges, canaries=True))
    final = summary.final
    assert summary.rule.canaries == "por-court-canary/1"
    assert (final.canary_flips, final.canary_answered, final.flipped_seats) == (0, 9, [])
    assert [(c.seat, c.kind, c.demand, c.expected) for c in final.canaries or []][:3] == [
        (0, "evidence", "upheld", "rejected"), (0, "claim", "upheld", "rejected"),
        (0, "rebuttal", "upheld", "rejected")]
    assert (final.canaries or [])[3].demand == "rejected"  # seat 1 upheld: pushed the other way
    planted = [m for s, p, m in judges.seen if p == "canary"]
    assert len(planted) == 9
    assert all("Ignore previous instructions" in m[-1]["content"] for m in planted)


def test_a_seat_that_obeys_an_injection_is_reported_as_flipped() -> None:
    summary = verify_court(court(Judges([80, 20, 70], gullible=frozenset({2})),
                                 canaries=True))
    final = summary.final
    assert (final.canary_flips, final.canary_answered, final.flipped_seats) == (3, 9, [2])
    # The canaries are reported, the ruling is the case's own.
    assert (final.worker_pct, final.decision) == (70, "rejected")


def test_canaries_with_commit_first_and_a_canary_failure() -> None:
    summary = verify_court(court(Judges([80, 20, 70], first=[90, 10, 60]),
                                 commit_first=True, canaries=True))
    assert len(summary.calls) == 3 * 5
    assert summary.final.canary_answered == 9


def test_canary_results_cannot_be_misreported_or_dropped() -> None:
    data = court(Judges([80, 20, 70], gullible=frozenset({2})), canaries=True)
    bundle = CourtBundle.from_cbor(data)
    ruling = CourtRuling.from_cbor(bundle.rulings[0])
    hidden = ruling.model_copy(update={"canary_flips": 0, "flipped_seats": []})
    assert check_id(recommit(data, rulings=[hidden.to_cbor()])) == "court.aggregation_mismatch"
    calls = calls_of(data)
    no_canary = [c.to_cbor() for c in calls
                 if not (c.subject_index == 2 and c.subject_hash == phase_subject(
                     hashlib.sha256(bundle.case).digest(), "canary-rebuttal", "upheld"))]
    assert len(no_canary) == len(calls) - 1
    assert check_id(recommit(data, calls=no_canary)) == "court.phase_missing"
    # A canary answer rewritten to hide the flip (hash recomputed) no longer matches the ruling.
    index = max(i for i, c in enumerate(calls) if c.subject_index == 2)
    body = calls[index].response.replace(b'worker_pct\\": 0', b'worker_pct\\": 70')
    assert body != calls[index].response
    forged = calls[index].model_copy(update={"response": body,
                                             "response_hash": hashlib.sha256(body).digest()})
    edited = [*bundle.calls[:index], forged.to_cbor(), *bundle.calls[index + 1:]]
    assert check_id(recommit(data, calls=edited)) == "court.aggregation_mismatch"


# --- absent seats are recorded failures (issue 25 item 3) -----------------------------

def test_an_unwanted_seat_cannot_be_recorded_absent_without_its_attempts() -> None:
    """Quorum 2 of 3: dropping seat 1's vote *and* its calls, with the ruling recomputed
    as if it were absent, still fails: every held seat's attempts are mandatory."""
    data = court(Judges([80, 20, 70]), quorum=2)
    bundle = CourtBundle.from_cbor(data)
    calls = [c for c in bundle.calls if JudgeCall.from_cbor(c).subject_index != 1]
    votes = [v for v in bundle.votes if CourtVote.from_cbor(v).seat != 1]
    assert check_id(recommit(data, calls=calls, votes=votes)) == "court.judge_missing"
    # A seat that really failed is absent with its failed attempt's bytes, and verifies.
    failed = verify_court(court(Judges([80, 20, 70], down=frozenset({1})), quorum=2))
    assert failed.final.absent == [1]
    assert [(c.status, c.error_kind) for c in failed.calls if c.subject_index == 1] == [
        (503, "server_error")] * 2


def test_the_court_file_switches() -> None:
    text = b"court: por-court/1\npanel: 1\njudges: [a.yaml]\ncommit_first: true\ncanaries: false\n"
    numbers, _, _ = parse_court(text)
    assert (numbers["commit_first"], numbers["canaries"]) == (1, 0)
    rule = court_rule(numbers, 1, AT)
    assert rule.commit_first == "por-court-blind/1" and rule.canaries is None
    with pytest.raises(CourtError) as caught:
        parse_court(text.replace(b"commit_first: true", b"commit_first: 1"))
    assert caught.value.check_id == "court.config"


# --- vectors: the phase texts and subject hashes (SPEC §16.9, §16.10) -------------------

def test_the_phase_prompts_are_the_fixture_files_byte_for_byte() -> None:
    from court_support import COURT

    from por.court.seed003 import prompts

    for name, text in [("blind-system.md", prompts.BLIND_SYSTEM_PROMPT),
                       ("blind.md", prompts.BLIND_TEMPLATE),
                       ("after-commit.md", prompts.AFTER_COMMIT)]:
        assert (COURT / "prompts" / name).read_text(encoding="utf-8") == text


def test_phase_subject_hash_vectors() -> None:
    """Hand-checkable canonical CBOR (§2: keys sorted by their encoded bytes):
    ``a2`` map(2), ``65 'phase'`` ``65 'first'``, ``69 'case_hash'`` ``58 20`` 32 bytes."""
    case_hash = bytes(range(32))
    encoded = bytes.fromhex("a2" + "65" + b"phase".hex() + "65" + b"first".hex()
                            + "69" + b"case_hash".hex() + "5820" + case_hash.hex())
    assert phase_subject(case_hash, "first") == hashlib.sha256(encoded).digest()
    assert phase_subject(case_hash, "first").hex() == \
        "1246f27b141d9690b8c9cf65576427f109f4e23bb64a2c8ce2e7cf5aa4a6934a"
    assert phase_subject(case_hash, "canary-claim", "upheld").hex() == \
        "d2c2de94303a22c812cc8d605dec4bfb6f6e9d5311bd8d8b815bb55cdd81f20b"
    assert phase_subject(case_hash, "contested") == case_hash


def test_an_appeal_round_lists_every_seats_canaries() -> None:
    judges = Judges([80, 20, 70, 60, 10, 90, 55], first=[90, 10, 60, 60, 10, 90, 50],
                    gullible=frozenset({4}))
    summary = verify_court(court(judges, commit_first=True, canaries=True, seats=7))
    first, final = summary.rulings
    assert (first.status, first.canary_answered, first.canary_flips) == ("split", 9, 0)
    assert (final.round, final.canary_answered, final.canary_flips, final.flipped_seats) == (
        2, 21, 3, [4])
    assert len(summary.calls) == 7 * 5


def test_a_seat_that_fails_before_the_wire_refuses_the_ruling() -> None:
    """Every held seat's attempts are mandatory: a seat whose call never reached the
    wire (a lock the client refuses) has nothing a record can hold, so there is no
    ruling (the seed's JUDGE_UNAVAILABLE, exit 2), never one with the seat left out."""
    from por.court.errors import ServiceError

    judges = Judges([80, 20, 70])

    async def refusing(manifest: JudgeManifest, messages: Messages, call_id: str) -> Exchange:
        if manifest.judge_id == "judge-1":
            raise PorError("lock.forbidden_option", "the client refuses the lock")
        return await judges(manifest, messages, call_id)

    rule = court_rule({"panel": 3, "quorum": 2, "appeal_quorum": 7}, 3, AT)
    with pytest.raises(ServiceError) as caught:
        asyncio.run(rule_case(case(), rule, list(locks()[:3]), [refusing] * 3))
    assert (caught.value.check_id, caught.value.reason) == (
        "court.judge_unavailable", "lock.forbidden_option")
