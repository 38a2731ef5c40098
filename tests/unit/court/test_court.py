"""A panel rules (SPEC §16.4) and its ruling.cbor verifies offline (§16.6); canaries fail."""

from __future__ import annotations

import pytest
from court_support import case, locks, pcts, recommit, run_court, vote

from por.court.case import DisputeCase, check_case
from por.court.records import CourtBundle, CourtRuling, CourtVote
from por.court.verify import verify_court
from por.errors import PorError
from por.locked_judges.records import JudgeCall
from por.merkle import leaf_hash


def _check_id(data: bytes) -> str:
    with pytest.raises(PorError) as caught:
        verify_court(data)
    return caught.value.check_id


def test_a_unanimous_panel_rules_in_one_round_and_verifies() -> None:
    data, wire = run_court(pcts(80, 70, 90, 0, 0, 0, 0))
    summary = verify_court(data)
    final = summary.final
    assert (final.status, final.worker_pct, final.decision, final.round) == (
        "ruled", 80, "rejected", 1)
    assert [v.dissent for v in final.votes] == [False, False, False]
    assert len(wire.seen) == 3 and summary.case_hash == case().case_hash()
    # No judge saw another's vote: every seat got the same prompt, a function of the case.
    assert len({str(m) for m in wire.messages.values()}) == 1


def test_same_inputs_same_bytes() -> None:
    assert run_court(pcts(80, 70, 90, 0, 0, 0, 0))[0] == run_court(pcts(80, 70, 90, 0, 0, 0, 0))[0]


def test_a_split_goes_to_the_appeal_panel_and_each_judge_is_asked_once() -> None:
    data, wire = run_court(pcts(80, 20, 70, 60, 10, 90, 55))
    summary = verify_court(data)
    first, final = summary.rulings
    assert (first.status, first.split, first.worker_pct) == ("split", True, 70)
    assert (final.round, final.seats, final.votes_cast, final.worker_pct, final.decision) == (
        2, 7, 7, 60, "rejected")
    assert [v.seat for v in final.votes if v.dissent] == [1, 4]
    assert sorted(wire.seen) == sorted({*wire.seen})  # one call per judge
    assert len(wire.seen) == 7


def test_upheld_when_the_median_is_below_50() -> None:
    summary = verify_court(run_court(pcts(10, 0, 30, 0, 0, 0, 0))[0])
    assert (summary.final.worker_pct, summary.final.decision) == (10, "upheld")


def test_a_split_without_appeal_seats_is_no_ruling_but_a_three_seat_court_is_final() -> None:
    summary = verify_court(run_court(pcts(80, 20, 70), seats=3)[0])
    assert (summary.final.status, summary.final.split) == ("ruled", True)


def test_an_unavailable_judge_breaks_the_quorum_fail_closed() -> None:
    def script(judge_id: str, attempt: int) -> tuple[int, str | bytes]:
        return (200, vote(500)) if judge_id == "judge-1" else (200, vote(80))

    summary = verify_court(run_court(script)[0])
    final = summary.final
    assert (final.status, final.worker_pct, final.decision, final.absent) == (
        "no_quorum", None, None, [1])
    assert len(summary.rulings) == 1 and len(summary.votes) == 2
    # With a quorum of 2 the same votes rule.
    assert verify_court(run_court(script, quorum=2)[0]).final.status == "ruled"


def test_an_appeal_round_can_lose_its_quorum() -> None:
    def script(judge_id: str, attempt: int) -> tuple[int, str | bytes]:
        seat = int(judge_id.split("-")[1])
        if seat >= 4:
            return 404, b"{}"
        return 200, vote([80, 20, 70, 60][seat])

    summary = verify_court(run_court(script)[0])
    assert [r.status for r in summary.rulings] == ["split", "no_quorum"]
    assert summary.final.absent == [4, 5, 6]


# --- canaries: each must be rejected with its check id ------------------------------------

@pytest.fixture(scope="module")
def ruled() -> bytes:
    return run_court(pcts(80, 20, 70, 60, 10, 90, 55))[0]


def test_canary_vote_edited(ruled: bytes) -> None:
    bundle = CourtBundle.from_cbor(ruled)
    edited = CourtVote.from_cbor(bundle.votes[0]).model_copy(update={"worker_pct": 5})
    votes = [edited.to_cbor(), *bundle.votes[1:]]
    assert _check_id(recommit(ruled, votes=votes)) == "court.vote_mismatch"
    raw = bundle.model_copy(update={"votes": votes}).to_cbor()  # not re-committed
    assert _check_id(raw) == "court.commit_mismatch"


def test_canary_judge_missing(ruled: bytes) -> None:
    bundle = CourtBundle.from_cbor(ruled)
    calls = [c for c in bundle.calls if JudgeCall.from_cbor(c).subject_index != 2]
    votes = [v for v in bundle.votes if CourtVote.from_cbor(v).seat != 2]
    assert _check_id(recommit(ruled, calls=calls, votes=votes)) == "court.judge_missing"
    assert _check_id(recommit(ruled, panel=bundle.panel[:6])) == "court.judge_missing"


def test_canary_response_byte_flipped(ruled: bytes) -> None:
    bundle = CourtBundle.from_cbor(ruled)
    call = JudgeCall.from_cbor(bundle.calls[0])
    flipped = bytearray(call.response)
    flipped[flipped.index(b"worker_pct") + 14] ^= 0x01  # 80 -> 81 inside the JSON
    calls = [call.model_copy(update={"response": bytes(flipped)}).to_cbor(), *bundle.calls[1:]]
    assert _check_id(recommit(ruled, calls=calls)) == "judgement.response_hash"
    import hashlib

    rehashed = call.model_copy(update={"response": bytes(flipped),
                                       "response_hash": hashlib.sha256(flipped).digest()})
    calls = [rehashed.to_cbor(), *bundle.calls[1:]]
    assert _check_id(recommit(ruled, calls=calls)) == "court.vote_mismatch"


def test_canary_aggregation_misreported(ruled: bytes) -> None:
    bundle = CourtBundle.from_cbor(ruled)
    final = CourtRuling.from_cbor(bundle.rulings[1])
    lied = final.model_copy(update={"worker_pct": 40, "decision": "upheld"})
    assert _check_id(recommit(ruled, rulings=[bundle.rulings[0], lied.to_cbor()])) == \
        "court.aggregation_mismatch"
    no_appeal = recommit(ruled, rulings=[bundle.rulings[0]])
    assert _check_id(no_appeal) in {"court.seat", "court.aggregation_mismatch"}
    first = CourtRuling.from_cbor(bundle.rulings[0]).model_copy(update={"status": "ruled"})
    assert _check_id(recommit(ruled, rulings=[first.to_cbor()])) in {
        "court.seat", "court.aggregation_mismatch"}


def test_canary_case_edited(ruled: bytes) -> None:
    bundle = CourtBundle.from_cbor(ruled)
    edited = DisputeCase.from_cbor(bundle.case).model_copy(update={"task_spec": "anything"})
    assert _check_id(recommit(ruled, case=edited.to_cbor())) == "court.case_mismatch"
    with pytest.raises(PorError):
        check_case(edited)


def test_canary_calls_about_another_case_or_prompt(ruled: bytes) -> None:
    bundle = CourtBundle.from_cbor(ruled)
    other = case(rebuttal="A different rebuttal the judges never saw.")
    assert _check_id(recommit(ruled, case=other.to_cbor())) == "court.case_hash"
    call = JudgeCall.from_cbor(bundle.calls[0])
    seen = call.model_copy(update={"messages_hash": bytes(32)})
    assert _check_id(recommit(ruled, calls=[seen.to_cbor(), *bundle.calls[1:]])) == \
        "judgement.messages_hash"


def test_canary_a_market_judge_in_a_court_seat(ruled: bytes) -> None:
    from judges_support_shim import market_lock

    bundle = CourtBundle.from_cbor(ruled)
    panel = [market_lock().to_cbor(), *bundle.panel[1:]]
    assert _check_id(recommit(ruled, panel=panel)) == "court.manifest_parser"


def test_garbage_is_a_codec_error() -> None:
    assert _check_id(b"\x00not cbor").startswith(("codec.", "schema."))


def test_a_vote_is_a_two_level_proof_against_the_court_root(ruled: bytes) -> None:
    from por.bundle.layout import component_leaf
    from por.court.records import COURT_COMPONENTS, component_leaves
    from por.merkle import inclusion_proof, root_from_inclusion_proof

    bundle = CourtBundle.from_cbor(ruled)
    inner = inclusion_proof(bundle.votes, 3)
    outer = inclusion_proof(component_leaves(bundle.commitments), COURT_COMPONENTS.index("votes"))
    root = root_from_inclusion_proof(leaf_hash(bundle.votes[3]), 3, len(bundle.votes), inner)
    top = root_from_inclusion_proof(leaf_hash(component_leaf(root, len(bundle.votes))),
                                    COURT_COMPONENTS.index("votes"), 6, outer)
    assert top == bundle.commitments.court_root
    assert locks()[0].judge_id == "judge-0"
