"""Canaries belong to seats that voted (SPEC §16.10, issue 25 item 4).

An absent seat is not asked canaries (it has no vote to flip); verify refuses a
ruling that records canary results for one (``court.canary_absent``) before it
compares the ruling with the one the votes imply, and refuses canary calls
recorded after a failed phase (``court.phase_extra``).
"""

from __future__ import annotations

from court_support import recommit
from test_court_phases import Judges, check_id, court

from por.court.records import CanaryResult, CourtBundle, CourtRuling
from por.court.verify import verify_court


def _absent_seat_court() -> bytes:
    return court(Judges([80, 20, 70], down=frozenset({1})), canaries=True, quorum=2)


def test_an_absent_seat_is_asked_no_canary() -> None:
    summary = verify_court(_absent_seat_court())
    final = summary.final
    assert final.absent == [1]
    assert {c.seat for c in final.canaries or []} == {0, 2}
    assert final.canary_answered == 6


def test_canary_results_recorded_for_an_absent_seat_are_refused() -> None:
    data = _absent_seat_court()
    bundle = CourtBundle.from_cbor(data)
    ruling = CourtRuling.from_cbor(bundle.rulings[0])
    planted = CanaryResult(seat=1, kind="evidence", demand="upheld", expected="rejected",
                           worker_pct=10, flipped=True)
    canaries = sorted([*(ruling.canaries or []), planted], key=lambda c: c.seat)
    forged = ruling.model_copy(update={
        "canaries": canaries, "canary_flips": (ruling.canary_flips or 0) + 1,
        "canary_answered": (ruling.canary_answered or 0) + 1, "flipped_seats": [1]})
    assert check_id(recommit(data, rulings=[forged.to_cbor()])) == "court.canary_absent"
    # Even an unflipped, failed canary (no answer) for the absent seat is refused.
    failed = planted.model_copy(update={"worker_pct": None, "flipped": False})
    quiet = ruling.model_copy(update={
        "canaries": sorted([*(ruling.canaries or []), failed], key=lambda c: c.seat)})
    assert check_id(recommit(data, rulings=[quiet.to_cbor()])) == "court.canary_absent"
