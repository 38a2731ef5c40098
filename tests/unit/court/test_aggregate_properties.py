"""The ruling rule (SPEC §16.4): known answers and properties (hypothesis, ``ci`` derandomized)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from por.court.aggregate import aggregate, check_panel, decide, side

pct = st.integers(min_value=0, max_value=100)
odd_votes = st.lists(pct, min_size=1, max_size=15).filter(lambda v: len(v) % 2 == 1)
votes = st.lists(pct, min_size=1, max_size=15)


@pytest.mark.parametrize(("values", "expected"), [
    ([70], 70), ([0, 100, 50], 50), ([10, 20, 90], 20), ([1, 2, 3, 4], 3),
    ([0, 0, 100, 100], 100), ([30, 60, 60, 90, 5], 60),
])
def test_known_answers_upper_median(values: list[int], expected: int) -> None:
    assert aggregate(values) == expected


def test_the_tie_favours_the_worker() -> None:
    assert side(49) == "upheld" and side(50) == "rejected" and side(100) == "rejected"
    assert decide([50, 49, 51], 3, final=True).decision == "rejected"


@pytest.mark.parametrize(("values", "quorum", "final", "status", "split"), [
    ([80, 20, 70], 3, False, "split", True),     # 1 of 3 on the losing side: a third
    ([80, 20, 70], 3, True, "ruled", True),      # a final round rules even when split
    ([80, 60, 70], 3, False, "ruled", False),
    ([80, 20, 70, 90, 60], 5, False, "ruled", False),  # 1 of 5 < a third
    ([80, 20, 10, 90, 60], 5, False, "split", True),
    ([80, 70], 3, False, "no_quorum", False),
    ([], 1, True, "no_quorum", False),
])
def test_quorum_and_split(values: list[int], quorum: int, final: bool, status: str,
                          split: bool) -> None:
    outcome = decide(values, quorum, final=final)
    assert (outcome.status, outcome.split) == (status, split)
    if status == "no_quorum":
        assert outcome.worker_pct is None and outcome.decision is None


def test_panels_are_odd_and_quorums_majorities() -> None:
    check_panel(3, 2)
    check_panel(7, 7)
    for panel, quorum in ((2, 2), (3, 1), (3, 4), (0, 0), (5, 2)):
        with pytest.raises(ValueError):
            check_panel(panel, quorum)


@given(votes, st.randoms(use_true_random=False))
def test_permutation_invariance(values: list[int], rnd: object) -> None:
    shuffled = list(values)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert aggregate(shuffled) == aggregate(values)
    assert decide(shuffled, 1, final=False) == decide(values, 1, final=False)


@given(votes, st.data())
def test_monotonicity(values: list[int], data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(values) - 1))
    raised = list(values)
    raised[index] = data.draw(st.integers(values[index], 100))
    assert aggregate(raised) >= aggregate(values)


@given(votes)
def test_stays_within_the_votes_range_and_is_one_of_them(values: list[int]) -> None:
    result = aggregate(values)
    assert min(values) <= result <= max(values) and result in values


@given(odd_votes, st.data())
def test_breakdown_point_tolerates_floor_n_minus_1_over_2_bad_votes(
        honest: list[int], data: st.DataObject) -> None:
    """Replace up to (n-1)//2 votes with anything: the result stays inside the range
    of the votes that were kept (the honest ones)."""
    n = len(honest)
    bad = data.draw(st.integers(0, (n - 1) // 2))
    positions = data.draw(st.lists(st.integers(0, n - 1), min_size=bad, max_size=bad,
                                   unique=True))
    mixed = list(honest)
    for position in positions:
        mixed[position] = data.draw(pct)
    kept = [v for i, v in enumerate(honest) if i not in positions]
    assert min(kept) <= aggregate(mixed) <= max(kept)


@given(st.integers(0, 7).map(lambda k: 2 * k + 1), pct, st.booleans())
def test_breakdown_point_is_tight(n: int, honest: int, low: bool) -> None:
    """(n+1)//2 bad votes can move the result anywhere (when they agree)."""
    bad = (n + 1) // 2
    target = 0 if low else 100
    mixed = [honest] * (n - bad) + [target] * bad
    assert aggregate(mixed) == target


@given(votes, st.integers(1, 15))
def test_dissent_is_exactly_the_losing_side(values: list[int], quorum: int) -> None:
    outcome = decide(values, quorum, final=True)
    if outcome.decision is None:
        assert len(values) < quorum
    else:
        assert outcome.minority == sum(1 for v in values if side(v) != outcome.decision)
        assert 2 * outcome.minority <= len(values)  # the median's side is a majority
