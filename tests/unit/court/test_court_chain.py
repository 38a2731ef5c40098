"""A court run is pre-registered and each seat's attempts are one chain across its
phases (SPEC §16.11): an honest ruling verifies, every edit of the chain is refused
with its check id, and a ruling made before pre-registration is still read."""

from __future__ import annotations

import hashlib

import pytest
from court_support import recommit
from test_court_phases import Judges, calls_of, check_id, court

from por.court.case import CASE_MAX_SIZE
from por.court.chain import court_digest
from por.court.config import court_rule, parse_court
from por.court.errors import CourtError
from por.court.records import CourtRule
from por.court.verify import decode_court, verify_court
from por.locked_judges.chain import chained, claim_for, preregister, preregistration_digest
from por.locked_judges.records import JudgeCall
from por.locked_judges.subjects import SUBJECT_MAX_SIZE


def _digest(data: bytes) -> bytes:
    s = decode_court(data)
    digest = court_digest(s.rule, s.panel, s.case_hash)
    assert digest is not None
    return digest


def test_a_ruling_names_its_preregistration_and_chains_each_seat_across_phases() -> None:
    data = court(Judges([80, 20, 70]), commit_first=True, canaries=True)
    summary = verify_court(data)
    assert summary.rule.run == 1
    digest = _digest(data)
    record = preregister(summary.panel, [summary.case_hash], 1)
    assert digest == preregistration_digest(record)
    for seat in range(3):
        mine = [c for c in summary.calls if c.subject_index == seat]
        assert len(mine) == 5  # first, contested, three canaries: one chain
        previous = digest
        for call in mine:
            assert call.preregistration == digest
            assert call.claim == claim_for(summary.panel[seat])
            assert call.previous == previous
            previous = hashlib.sha256(call.to_cbor()).digest()


def test_a_rerolled_phase_breaks_the_next_phase_link() -> None:
    data = court(Judges([80, 20, 70]), canaries=True)
    calls = calls_of(data)
    # seat 0's first canary answered the other way, its own link kept
    canary = calls[1]
    body = canary.response.replace(b'worker_pct\\": 80', b'worker_pct\\": 10')
    assert body != canary.response
    forged = canary.model_copy(update={"response": body,
                                       "response_hash": hashlib.sha256(body).digest()})
    edited = [c.to_cbor() for c in [calls[0], forged, *calls[2:]]]
    assert check_id(recommit(data, calls=edited)) == "judgement.attempt_chain"


def test_a_dropped_case_call_is_refused_before_the_chain() -> None:
    data = court(Judges([80, 20, 70]), canaries=True)
    calls = calls_of(data)
    assert check_id(recommit(data, calls=[c.to_cbor() for c in calls[1:]])) \
        == "court.case_hash"  # the phase order is checked first (SPEC §16.6 step 4)


def test_unchained_calls_in_a_preregistered_ruling_are_refused() -> None:
    data = court(Judges([80, 20, 70]))
    bare = [JudgeCall.from_dict(c.to_dict() | {"claim": None, "preregistration": None,
                                                "previous": None}).to_cbor()
            for c in calls_of(data)]
    assert check_id(recommit(data, calls=bare)) == "judgement.claim_level"


def test_another_run_number_is_another_preregistration() -> None:
    data = court(Judges([80, 20, 70]))
    s = decode_court(data)
    rule = s.rule.model_copy(update={"run": 2}).to_cbor()
    assert check_id(recommit(data, rule=rule)) == "judgement.preregistration"


def test_a_ruling_from_before_preregistration_is_read_unchained() -> None:
    data = court(Judges([80, 20, 70]))
    s = decode_court(data)
    rule = CourtRule.from_dict(s.rule.to_dict() | {"run": None})
    bare = [JudgeCall.from_dict(c.to_dict() | {"claim": None, "preregistration": None,
                                                "previous": None}) for c in s.calls]
    legacy = recommit(data, rule=rule.to_cbor(), calls=[c.to_cbor() for c in bare])
    assert verify_court(legacy).rule.run is None
    # chain fields in a ruling whose rule names no run: refused
    linked = [c.to_cbor() for c in chained(bare[:1], b"\x01" * 32, "recorded")] + \
        [c.to_cbor() for c in bare[1:]]
    assert check_id(recommit(legacy, calls=linked)) == "court.preregistration"


def test_a_case_is_read_under_the_bundle_cap() -> None:
    assert CASE_MAX_SIZE == SUBJECT_MAX_SIZE > 64 * 1024 * 1024


def test_the_court_file_names_the_run() -> None:
    text = b"court: por-court/1\npanel: 1\njudges: [j.yaml]\nrun: %s\n"
    assert parse_court(text % b"7")[0]["run"] == 7
    assert parse_court(text.replace(b"run: %s\n", b""))[0]["run"] == 1
    for bad in (b"0", b"true", b"x"):
        with pytest.raises(CourtError) as caught:
            parse_court(text % bad)
        assert caught.value.check_id == "court.config"
    with pytest.raises(CourtError):
        court_rule({"panel": 1, "quorum": 1, "appeal_quorum": 3, "run": 2**32}, 1, 0)
