"""s41 ``execa``: the aggregate's vote over a count the signer commits (s40 decision 8's
open item). A proposer who commits a CHUNK form naming ``n`` sources and ``n`` EXTRACT
forms makes every field of the aggregate vote over ``n`` voters; the tie order (an
insertion sort under ``highest_provenance``), each candidate's agreeing group (every
voter against every candidate until one reaches the quorum) and ``sources_used`` were
quadratic in ``n``, and the voters' sets were bits of one word (a voter at 256 or above
was dropped). Now: merge sorts and binary searches, O(n log n), and arrays. The cases run
the executor on chain and Python's twin on the same call data (``forms_python.agrees``:
the same answer). Committed sources compiled in revm (no node for the chain: the SOLC
gate).
"""

from __future__ import annotations

import pytest
from forms_aggregate_cases import chain_answer
from forms_vote_cases import votes_call_data
from scratch_harness import SOLC

pytestmark = SOLC


def test_a_vote_over_many_voters_costs_about_linear_gas() -> None:
    """No candidate reaches the quorum (``need`` above the voters), the tiers ascending
    (the insertion sort's worst order): every candidate's group is counted. Quadratic
    before: 64 -> 256 voters cost about 11x; now under 6x (4x the call data)."""
    gas = {}
    for n in (64, 256):
        answer, gas[n] = chain_answer(votes_call_data(n, n + 1))
        assert answer == (True, "one_step.mismatch", ""), answer
    assert gas[256] < 6 * gas[64], gas


@pytest.mark.parametrize("n", [3, 40, 300])
def test_the_rebuilt_vote_matches_at_any_count(n: int) -> None:
    """Python's own recomputed AGGREGATE on the hostile forms is a match on chain too: the
    agreeing group and ``sources_used`` name every voter, also past 256 (a bit set of one
    word dropped them before: the chain answered ``one_step.mismatch``)."""
    for tiers in (True, False):
        answer, _gas = chain_answer(votes_call_data(n, 2, tiers=tiers, rebuilt=True))
        assert answer == (False, "one_step.match", ""), (n, tiers, answer)


def test_no_quorum_over_many_voters_agrees() -> None:
    """A quorum no group reaches, honest form rebuilt: ``no_quorum`` with ``most`` the
    largest group, on chain as in Python; with a negative tolerance (the exact path: the
    voters sorted by their decimals, every numeric group empty) too."""
    answer, _gas = chain_answer(votes_call_data(300, 301, rebuilt=True))
    assert answer == (False, "one_step.match", ""), answer
    for n in (5, 40):
        answer, _gas = chain_answer(votes_call_data(n, 2, rebuilt=True, negative=True))
        assert answer == (False, "one_step.match", ""), (n, answer)
