"""The canary policy (SPEC §16.10, issue 25 item 3): ``canary_policy: {max_flips: N}``
discounts the vote of a seat with more than N flipped canaries; verify re-derives the
discounted seats (``court.canary_policy``)."""

from __future__ import annotations

import asyncio

import pytest
from court_support import AT, case, locks, recommit
from test_court_phases import Judges, check_id

from por.court.config import court_rule, parse_court
from por.court.errors import CourtError
from por.court.panel import check_rule, rule_case
from por.court.records import CourtBundle, CourtRuling
from por.court.verify import verify_court


def policy_court(judges: Judges, *, max_flips: int = 0, quorum: int = 2) -> bytes:
    numbers = {"panel": 3, "quorum": quorum, "appeal_quorum": 7, "canaries": 1,
               "canary_max_flips": max_flips}

    async def nosleep(seconds: float) -> None:
        del seconds

    return asyncio.run(rule_case(case(), court_rule(numbers, 3, AT), list(locks()[:3]),
                                 [judges] * 3, sleep=nosleep))


@pytest.mark.parametrize("max_flips", [0, 1, 2])
def test_a_seat_that_obeys_the_injections_is_discounted(max_flips: int) -> None:
    """Seat 2 votes 70 but obeys all three planted injections: without its vote the
    ruling is the upper median of 80 and 20 (the policy changes the ruling)."""
    final = verify_court(policy_court(Judges([80, 20, 70], gullible=frozenset({2})),
                                      max_flips=max_flips)).final
    assert final.discounted == [2] and final.flipped_seats == [2]
    assert ([v.seat for v in final.votes], final.votes_cast, final.absent) == ([0, 1], 2, [])
    assert (final.status, final.worker_pct, final.decision) == ("ruled", 80, "rejected")


def test_honest_seats_are_not_discounted_and_the_ruling_is_unchanged() -> None:
    final = verify_court(policy_court(Judges([80, 20, 70]))).final
    assert final.discounted == [] and final.votes_cast == 3
    assert (final.worker_pct, final.decision) == (70, "rejected")


def test_too_many_discounted_seats_is_no_quorum_fail_closed() -> None:
    data = policy_court(Judges([80, 20, 70], gullible=frozenset({1, 2})))
    final = verify_court(data).final
    assert (final.discounted, final.status, final.decision) == ([1, 2], "no_quorum", None)


def test_the_discounted_seats_cannot_be_misreported() -> None:
    data = policy_court(Judges([80, 20, 70], gullible=frozenset({2})))
    ruling = CourtRuling.from_cbor(CourtBundle.from_cbor(data).rulings[0])
    for forged in ([], [0, 2], None):
        edited = ruling.model_copy(update={"discounted": forged})
        assert check_id(recommit(data, rulings=[edited.to_cbor()])) == "court.canary_policy"


COURT_FILE = b"court: por-court/1\npanel: 1\njudges: [a.yaml]\ncanaries: true\n"


def test_the_court_file_policy() -> None:
    numbers, _, _ = parse_court(COURT_FILE + b"canary_policy:\n  max_flips: 1\n")
    rule = court_rule(numbers, 1, AT)
    assert rule.canary_policy is not None and rule.canary_policy.max_flips == 1
    assert court_rule(parse_court(COURT_FILE)[0], 1, AT).canary_policy is None
    for bad in (b"canary_policy:\n  max_flips: 3\n", b"canary_policy:\n  max_flips: true\n",
                b"canary_policy: 1\n", b"canary_policy:\n  max_flips: 0\n  seats: 1\n"):
        with pytest.raises(CourtError) as caught:
            parse_court(COURT_FILE + bad)
        assert caught.value.check_id == "court.config", bad
    with pytest.raises(CourtError) as caught:  # a policy needs canaries
        parse_court(COURT_FILE.replace(b"true", b"false") + b"canary_policy:\n  max_flips: 0\n")
    assert caught.value.check_id == "court.config"
    committed = rule.model_copy(update={"canaries": None})
    with pytest.raises(CourtError) as caught:
        check_rule(committed, list(locks()[:1]))
    assert caught.value.check_id == "court.config"
