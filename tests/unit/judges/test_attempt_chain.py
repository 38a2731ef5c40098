"""What a transcript proves (SPEC §15.11): pre-registration, the attempt chain, claim levels.

The issue's two attacks on a recorded transcript (a failed attempt deleted and
the next renumbered; a YES vote rewritten as a timeout followed by a new NO
attempt) are the fixture canaries ``renumbered-attempts`` and ``rerolled-vote``
(tests/vectors/test_judgement_fixtures.py); here each link of the chain is
broken on its own, every way, and the claim levels are pinned.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import cbor2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from judges_support import (
    GENERATOR,
    WireDouble,
    deterministic_manifest,
    llm_manifest,
    recommit,
    run,
    subjects,
    vote_body,
)

from por.errors import UnsupportedError
from por.locked_judges import JudgeBatchReport, JudgeCall, deterministic_transport, verify_judgement
from por.locked_judges.chain import claim_for, preregister, preregistration_digest
from por.locked_judges.errors import JudgementError
from por.locked_judges.records import JudgePreregistration


def _busy_then_vote(index: int, attempt: int) -> tuple[int, bytes]:
    if attempt <= 2 and index == 0:
        return 503, b'{"error":"busy"}'
    return 200, vote_body("YES", 70)


_VALID: dict[str, bytes] = {}


def _valid() -> bytes:
    """Two subjects; subject 0: two 503s then a vote (calls 0..2), subject 1 a vote."""
    if "data" not in _VALID:
        _VALID["data"] = run(llm_manifest(), subjects(2), WireDouble(_busy_then_vote))
    return _VALID["data"]


def _rejected(data: bytes) -> str:
    with pytest.raises(JudgementError) as info:
        verify_judgement(data)
    return info.value.check_id


def _edit(position: int, **update: Any) -> Callable[[list[bytes]], list[bytes]]:
    def change(calls: list[bytes]) -> list[bytes]:
        calls[position] = JudgeCall.from_cbor(calls[position]).model_copy(
            update=update).to_cbor()
        return calls
    return change


def _report(**update: Any) -> Callable[[bytes], bytes]:
    def change(report: bytes) -> bytes:
        return JudgeBatchReport.from_cbor(report).model_copy(update=update).to_cbor()
    return change


def test_every_attempt_names_the_preregistration_and_links_to_the_one_before() -> None:
    summary = verify_judgement(_valid())
    prereg = summary.preregistration
    digest = preregistration_digest(prereg)
    assert prereg.panel == [summary.manifest.digest()] and prereg.run == 1
    assert prereg.subjects_count == 2
    first, second, third = summary.calls[:3]
    assert [c.attempt for c in (first, second, third)] == [1, 2, 3]
    assert {c.preregistration for c in summary.calls} == {digest}
    assert first.previous == digest
    assert second.previous == GENERATOR.sha(first.to_cbor())
    assert third.previous == GENERATOR.sha(second.to_cbor())
    assert summary.calls[3].previous == digest  # subject 1: its own chain
    assert {c.claim for c in summary.calls} == {"rerun"}  # a bitwise local lock


def test_swapped_attempts_break_the_chain() -> None:
    def swap(calls: list[bytes]) -> list[bytes]:  # the vote moved before the last 503
        busy, vote = (JudgeCall.from_cbor(c) for c in calls[1:3])
        return [calls[0], vote.model_copy(update={"attempt": 2}).to_cbor(),
                busy.model_copy(update={"attempt": 3}).to_cbor(), *calls[3:]]
    assert _rejected(recommit(_valid(), calls=swap)) == "judgement.attempt_chain"


def test_a_rewritten_failed_attempt_breaks_the_next_link() -> None:
    edited = recommit(_valid(), calls=_edit(0, status=500, error_kind="server_error"))
    assert _rejected(edited) == "judgement.attempt_chain"


@settings(max_examples=20, deadline=None)
@given(position=st.integers(0, 3), flip=st.integers(0, 31))
def test_any_edited_link_is_refused(position: int, flip: int) -> None:
    call = JudgeCall.from_cbor(JudgeCall.from_cbor(
        GENERATOR.JudgementBundle.from_cbor(_valid()).calls[position]).to_cbor())
    previous = bytearray(call.previous or b"")
    previous[flip] ^= 0x01
    edited = recommit(_valid(), calls=_edit(position, previous=bytes(previous)))
    assert _rejected(edited) == "judgement.attempt_chain"


def test_another_runs_preregistration_is_refused() -> None:
    summary = verify_judgement(_valid())
    other = preregister([summary.manifest], [s.bundle_hash for s in summary.subjects], run=2)
    edited = recommit(_valid(), report=_report(preregistration=other.to_cbor()))
    assert _rejected(edited) == "judgement.preregistration"


def test_a_preregistration_of_other_subjects_or_another_panel_is_refused() -> None:
    summary = verify_judgement(_valid())
    hashes = [s.bundle_hash for s in summary.subjects]
    for wrong in (preregister([summary.manifest], hashes[:1]),
                  preregister([deterministic_manifest()], hashes)):
        edited = recommit(_valid(), report=_report(preregistration=wrong.to_cbor()))
        assert _rejected(edited) == "judgement.preregistration"


def test_a_judgement_without_preregistration_is_refused() -> None:
    edited = recommit(_valid(), report=_report(preregistration=None))
    assert _rejected(edited) == "judgement.preregistration"


def test_claim_levels_follow_from_the_lock() -> None:
    assert claim_for(llm_manifest()) == "rerun"  # bitwise: --reexecute re-runs it
    assert claim_for(llm_manifest().model_copy(update={"determinism": "none"})) == "recorded"
    assert claim_for(deterministic_manifest()) == "rerun"
    data = run(deterministic_manifest(), subjects(2), deterministic_transport)
    assert {c.claim for c in verify_judgement(data).calls} == {"rerun"}


def test_a_call_claiming_another_level_than_its_lock_is_refused() -> None:
    assert _rejected(recommit(_valid(), calls=_edit(3, claim="recorded"))) \
        == "judgement.claim_level"
    assert _rejected(recommit(_valid(), calls=_edit(3, claim=None))) == "judgement.claim_level"


def test_a_transport_proof_is_reserved_and_undecidable() -> None:
    with pytest.raises(UnsupportedError) as info:
        verify_judgement(recommit(_valid(), calls=_edit(3, claim="transport-proven")))
    assert info.value.check_id == "judgement.claim_unsupported"


def test_the_run_number_is_committed() -> None:
    data = GENERATOR.asyncio.run(GENERATOR.judge_batch(
        llm_manifest(), subjects(2), WireDouble(_busy_then_vote),
        sleep=GENERATOR._no_sleep, run=7))
    assert verify_judgement(data).preregistration.run == 7
    assert data != _valid()


def test_preregistration_record_round_trips() -> None:
    record = preregister([llm_manifest()], [b"\x01" * 32], run=3)
    assert JudgePreregistration.from_cbor(record.to_cbor()) == record


def test_preregistration_known_answer() -> None:
    """SPEC §15.11's vector, rebuilt with another encoder (cbor2) and hashlib alone."""
    leaves = [hashlib.sha256(b"\x00" + bytes([b]) * 32).digest() for b in (0x22, 0x33)]
    root = hashlib.sha256(b"\x01" + leaves[0] + leaves[1]).digest()  # RFC 9162 §2.1.1
    assert root.hex() == "96cfe136315282442cd0133b934dd99622a510c075930239725ced808ce7dfa0"
    record = JudgePreregistration(panel=[b"\x11" * 32], subjects_root=root, subjects_count=2,
                                  run=1)
    data = record.to_cbor()
    assert data == cbor2.dumps({"schema": "por.JudgePreregistration/1", "panel": [b"\x11" * 32],
                                "subjects_root": root, "subjects_count": 2, "run": 1},
                               canonical=True)  # keys under 24 bytes: RFC 7049 order = §2's
    assert preregistration_digest(record).hex() \
        == "a9e0e39677789d0238952474a133a3bc9b2fdf46a2aebb8c46e6ea4b29176e31"
