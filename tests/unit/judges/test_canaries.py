"""Tampered judgement bundles that must be rejected, each with its check id (SPEC §14.6).

Every canary re-commits the trees honestly and, where a hash covers the edit,
recomputes it too: the deeper check must catch the lie, not the root.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from judges_support import WireDouble, llm_manifest, recommit, run, sha, subjects, vote_body

from por.errors import PorError
from por.judges import JudgeCall, JudgementBundle, JudgeVote, verify_judgement
from por.judges.wire import request_hash


def _valid() -> bytes:
    # Subject 0: a 503 then a vote (a failed attempt to delete); subjects 1, 2: votes.
    def script(index: int, attempt: int) -> tuple[int, bytes]:
        if index == 0 and attempt == 1:
            return 503, b'{"error":"busy"}'
        return 200, vote_body("YES", 70)
    return run(llm_manifest(), subjects(3), WireDouble(script))


VALID = _valid()


def _edit_call(position: int, edit: Callable[[JudgeCall], dict[str, object]]):
    def change(calls: list[bytes]) -> list[bytes]:
        call = JudgeCall.from_cbor(calls[position])
        calls[position] = call.model_copy(update=edit(call)).to_cbor()
        return calls
    return change


def _rewire(mutate: Callable[[dict[str, object]], None]):
    def edit(call: JudgeCall) -> dict[str, object]:
        body = json.loads(call.wire_request)
        mutate(body)
        raw = json.dumps(body).encode()
        return {"wire_request": raw, "wire_request_hash": sha(raw),
                "request_hash": request_hash(raw)}
    return edit


def _flip(call: JudgeCall) -> dict[str, object]:
    raw = bytearray(call.response)
    raw[len(raw) // 2] ^= 0x01
    return {"response": bytes(raw)}


def _answer(confidence: int):
    def edit(call: JudgeCall) -> dict[str, object]:
        raw = vote_body("YES", confidence)
        return {"response": raw, "response_hash": sha(raw)}
    return edit


def _edit_vote(votes: list[bytes]) -> list[bytes]:
    vote = JudgeVote.from_cbor(votes[0])
    votes[0] = vote.model_copy(update={"outcome": "NO"}).to_cbor()
    return votes


CANARIES: dict[str, tuple[bytes, str]] = {
    "dropped-parameter": (recommit(VALID, calls=_edit_call(1, _rewire(
        lambda b: b.pop("top_k")))), "judgement.param_missing"),
    "changed-parameter": (recommit(VALID, calls=_edit_call(1, _rewire(
        lambda b: b.update(temperature=0.7)))), "judgement.param_value"),
    "aliased-model": (recommit(VALID, calls=_edit_call(1, _rewire(
        lambda b: b.update(model="smollm2-360m")))), "judgement.model_rewritten"),
    "edited-prompt": (recommit(VALID, calls=_edit_call(1, _rewire(
        lambda b: b["messages"][1].update(content="say YES")))), "judgement.messages_mismatch"),
    "flipped-response-byte": (recommit(VALID, calls=_edit_call(1, _flip)),
                              "judgement.response_hash"),
    "edited-vote": (recommit(VALID, votes=_edit_vote), "judgement.vote_mismatch"),
    "deleted-failed-attempt": (recommit(VALID, calls=lambda calls: calls[1:]),
                               "judgement.attempt_gap"),
    "out-of-range-vote": (recommit(VALID, calls=_edit_call(1, _answer(500))),
                          "judgement.vote_range"),
    "deleted-vote": (recommit(VALID, votes=lambda votes: votes[1:]), "judgement.vote_count"),
    "unrecommitted-edit": (VALID.replace(b"chatcmpl-test", b"chatcmpl-TEST", 1),
                           "judgement.commit_mismatch"),
}


def test_the_untampered_bundle_verifies() -> None:
    summary = verify_judgement(VALID)
    assert [c.attempt for c in summary.calls] == [1, 2, 1, 1]


@pytest.mark.parametrize("name", sorted(CANARIES))
def test_canary_is_rejected_with_its_check_id(name: str) -> None:
    data, check_id = CANARIES[name]
    assert data != VALID
    with pytest.raises(PorError) as info:
        verify_judgement(data)
    assert info.value.check_id == check_id, info.value.diagnostics()


def test_recommit_of_nothing_is_identity() -> None:
    assert recommit(VALID) == VALID
    assert JudgementBundle.from_cbor(VALID).to_cbor() == VALID
