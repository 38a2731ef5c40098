"""The committed court fixtures are exactly what fixtures/court/generate.py produces, the
valid ruling verifies and every canary fails with the check id README.json names."""

from __future__ import annotations

import json

import pytest
from court_support import COURT, GENERATOR

from por.court.case import DisputeCase, check_case
from por.court.verify import verify_court
from por.errors import PorError

GENERATED = GENERATOR.generate()
CANARIES = json.loads((COURT / "invalid" / "README.json").read_text())


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_committed_fixture_is_reproduced_byte_for_byte(name: str) -> None:
    assert (COURT / name).read_bytes() == GENERATED[name], f"run generate.py ({name})"


def test_the_valid_fixtures_verify() -> None:
    check_case(DisputeCase.from_cbor((COURT / "valid" / "case.cbor").read_bytes()))
    summary = verify_court((COURT / "valid" / "ruling.cbor").read_bytes())
    assert (summary.final.worker_pct, summary.final.decision) == (60, "rejected")
    phased = verify_court((COURT / "valid" / "ruling-commit-first.cbor").read_bytes())
    final = phased.final
    assert (final.worker_pct, final.decision, final.canary_flips, final.canary_answered,
            final.flipped_seats) == (70, "rejected", 3, 9, [2])
    assert [(v.first_pct, v.changed_mind) for v in phased.votes] == [
        (90, False), (10, False), (30, True)]
    policy = verify_court((COURT / "valid" / "ruling-canary-policy.cbor").read_bytes()).final
    assert (policy.discounted, [v.seat for v in policy.votes], policy.votes_cast,
            policy.worker_pct, policy.decision) == ([2], [0, 1], 2, 80, "rejected")


@pytest.mark.parametrize("name", sorted(CANARIES))
def test_every_canary_fails_with_its_check_id(name: str) -> None:
    with pytest.raises(PorError) as caught:
        verify_court((COURT / "invalid" / f"{name}.cbor").read_bytes())
    assert caught.value.check_id == CANARIES[name]
