"""Nothing a judge says can crash a run (SPEC §15.4, issue 25 item 5).

A lone surrogate, an answer over the cap, bytes that are not UTF-8 or not JSON:
each becomes a recorded failed attempt with its own check id, the batch (in
``partial_save``) and the court still write their bundles, and those verify,
the classification recomputed from the committed bytes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from judges_support import (
    WireDouble,
    completion,
    llm_manifest,
    run,
    subjects,
    vote_body,
    wire_body,
)

from por.court.seed003.llm_judge import classify_court
from por.court.verify import verify_court
from por.locked_judges import JudgeCall, verify_judgement
from por.locked_judges.errors import BatchJudgementFailedError
from por.locked_judges.outcome import Exchange, classify
from por.locked_judges.records import MAX_WIRE_BYTES
from por.locked_judges.render import MAX_RESPONSE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "court"))
from court_support import run_court, vote

SURROGATE_CONTENT = b'{"choices":[{"message":{"role":"assistant","content":"\\ud800"}}]}'
#: name -> (response body of a 200, the check id of the failed attempt)
HOSTILE: dict[str, tuple[bytes, str]] = {
    "surrogate-in-content": (SURROGATE_CONTENT, "judgement.response_surrogate"),
    "over-the-cap": (completion("x" * (MAX_RESPONSE + 10)), "judgement.response_too_large"),
    "far-over-the-cap": (b"[" * (3 << 20), "judgement.response_too_large"),
    "not-utf8": (b'{"choices": "\xff\xfe"}', "judgement.response_utf8"),
    "not-json": (b"<html>502 Bad Gateway</html>", "judgement.response_parse"),
    "deep-json": (b"[" * 100_000 + b"]" * 100_000, "judgement.response_parse"),
}


def _partial() -> object:
    return llm_manifest(fail_closed_mode="partial_save")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_answer_is_a_failed_attempt_and_the_batch_is_written(name: str) -> None:
    body, check_id = HOSTILE[name]

    def script(index: int, attempt: int) -> tuple[int, bytes]:
        return (200, body) if index == 1 else (200, vote_body("NO", 40))

    summary = verify_judgement(run(_partial(), subjects(3), WireDouble(script)))
    [failed] = summary.report.failed
    assert (failed.subject_index, failed.error_kind, failed.check_id) == (
        1, "invalid_response", check_id)
    assert summary.report.judged_count == 2
    [call] = [c for c in summary.calls if c.subject_index == 1]
    assert len(call.response) <= MAX_WIRE_BYTES
    assert call.response == body[:MAX_WIRE_BYTES]  # the prefix proves the length


def test_strict_mode_aborts_with_its_own_error_not_a_crash() -> None:
    body, _ = HOSTILE["far-over-the-cap"]
    with pytest.raises(BatchJudgementFailedError) as info:
        run(llm_manifest(fail_closed_mode="strict"), subjects(1),
            WireDouble(lambda i, a: (200, body)))
    assert "judgement.response_too_large" in info.value.message


def test_a_huge_error_page_is_recorded_capped_with_its_status_kind() -> None:
    page = b"<html>" + b"e" * (2 << 20)
    summary = verify_judgement(run(_partial(), subjects(1),
                                   WireDouble(lambda i, a: (503, page))))
    assert {c.error_kind for c in summary.calls} == {"server_error"}
    assert all(c.response == page[:MAX_WIRE_BYTES] for c in summary.calls)


def test_the_cap_is_exact() -> None:
    manifest = llm_manifest()
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
    request = wire_body(manifest, messages)
    at_cap = vote_body("YES", 1)
    at_cap = at_cap[:-1] + b" " * (MAX_RESPONSE - len(at_cap)) + at_cap[-1:]
    assert len(at_cap) == MAX_RESPONSE
    assert classify(manifest, messages, Exchange(request, 200, at_cap)).vote == ("YES", 100)
    over = Exchange(request, 200, at_cap + b" ").capped()
    assert classify(manifest, messages, over).check_id == "judgement.response_too_large"


@pytest.mark.parametrize("reasoning", ["\ud800", "ok \udfff then", "\ud800\ud800"])
def test_a_lone_surrogate_in_reasoning_is_a_failed_seat_not_a_crash(reasoning: str) -> None:
    """``json.dumps`` writes the surrogate as a ``\\ud800`` escape, as a model would."""
    def script(judge_id: str, attempt: int) -> tuple[int, str]:
        if judge_id == "judge-1":
            return 200, vote(40, reasoning)
        return 200, vote(70)

    data, _ = run_court(script, panel=3, seats=3, quorum=2)
    summary = verify_court(data)
    assert summary.final.status == "ruled" and summary.final.absent == [1]
    [call] = [c for c in summary.calls if c.subject_index == 1]
    assert call.error_kind == "invalid_response"
    lock = summary.panel[1]
    messages = json.loads(call.wire_request)["messages"]
    result = classify_court(lock, messages, Exchange(call.wire_request, 200, call.response))
    assert result.check_id == "judgement.response_surrogate"


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_hostile_answer_leaves_a_court_seat_absent(name: str) -> None:
    body, check_id = HOSTILE[name]

    def script(judge_id: str, attempt: int) -> tuple[int, str | bytes]:
        return (200, body) if judge_id == "judge-2" else (200, vote(30))

    data, _ = run_court(script, panel=3, seats=3, quorum=2)
    summary = verify_court(data)
    assert summary.final.absent == [2] and summary.final.worker_pct == 30
    [call] = [c for c in summary.calls if c.subject_index == 2]
    assert call.error_kind == "invalid_response"
    messages = json.loads(call.wire_request)["messages"]
    assert classify_court(summary.panel[2], messages, Exchange(
        call.wire_request, 200, call.response)).check_id == check_id


#: Any code point, lone surrogates made frequent (hypothesis' default text has none).
ANY_TEXT = st.text(alphabet=st.one_of(st.characters(),
                                      st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)),
                   max_size=40)


def _chat(content: str) -> bytes:
    return json.dumps({"model": "m", "choices": [{"message": {"content": content}}]}).encode()


@given(body=st.one_of(
    st.binary(max_size=200),
    ANY_TEXT.map(_chat),  # lone surrogates included: json.dumps writes them as escapes
    st.tuples(st.integers(-5, 105), ANY_TEXT).map(
        lambda v: _chat(json.dumps({"worker_pct": v[0], "reasoning": v[1]}))),
))
@example(body=_chat(json.dumps({"worker_pct": 50, "reasoning": "\ud800"})))
@example(body=_chat("\udfff"))
def test_any_answer_is_classified_and_recordable(body: bytes) -> None:
    from por.court.records import CourtVote

    manifest = llm_manifest()
    messages = [{"role": "user", "content": "u"}]
    exchange = Exchange(wire_body(manifest, messages), 200, body)
    for result in (classify(manifest, messages, exchange),
                   classify_court(manifest, messages, exchange)):
        assert (result.vote is None) == (result.kind is not None)
        JudgeCall(manifest_digest=b"\0" * 32, subject_index=0, subject_hash=b"\0" * 32,
                  attempt=1, messages_hash=b"\0" * 32, request_hash=b"\0" * 32,
                  wire_request=exchange.wire_request, wire_request_hash=b"\0" * 32,
                  status=200, response=body, response_hash=b"\0" * 32,
                  result="error", error_kind="invalid_response").to_cbor()
    court = classify_court(manifest, messages, exchange)
    if court.vote is not None:  # a vote the court accepts is one a record can hold
        reasoning, pct = court.vote
        CourtVote(seat=0, judge_id="j", manifest_digest=b"\0" * 32, case_hash=b"\0" * 32,
                  attempt=1, worker_pct=pct, reasoning=reasoning,
                  voted_at="2026-01-01T00:00:00Z").to_cbor()
