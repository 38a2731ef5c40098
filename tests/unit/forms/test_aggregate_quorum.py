"""s42 ``dedbound``: Python's aggregate twin's quorum vote (``por.forms.execute.aggregate
._quorum``) found each tie-ordered voter's agreeing group by comparing it with every voter:
O(n^2) in a field's voters. The chain's vote sorts (``PorAggregateFormVote._counts``, s41
``execa``); the twin now counts a group by binary search in the sorted numbers (or a
``Counter`` of the other values), the group itself listed once, for the voter selected.

The voters are the cited items, so a FormStepProof record (``MAX_FORMS``) holds at most
64; ``aggregate.run`` itself takes any number. Here: the new vote equals the pairwise one
(kept below as the reference) on random voters, numeric and not, with and without a
tolerance; and its time grows about n log n from 256 to 4 096 voters (the pairwise one:
0.13 s at 256 and about 36 s at 4 096, no group ever met).
"""

from __future__ import annotations

import random
import time
from fractions import Fraction

from por.forms.execute import aggregate as agg
from por.forms.execute.aggregate_read import Ctx
from por.forms.words import D, W


def _reference(c: Ctx, vote: agg.Vote, kind: int, voters: list[agg.Voter],
               tolerance: Fraction | None) -> list[bytes]:
    """The twin's vote before s42 (each voter's group by a walk of every voter)."""
    nv = len(voters)
    if nv < agg.word(c.req, 128):
        return [agg._w(2), agg._w(nv), *[agg.ZERO] * 5]
    need = agg.word(c.req, 160)
    most = 0
    if kind == agg.NUMERIC:
        for voter in voters:
            voter.number = agg.decimal_at(voter.value, 0)
    for chosen in sorted(voters, key=lambda x: -x.tier):
        group = [x for x in voters if agg._agree(kind, chosen, x, tolerance)]
        most = max(most, len(group))
        if len(group) >= need:
            vote.selected += 1
            vote.used.update(x.k for x in group)
            return [agg._w(0), agg._w(nv), agg.ZERO, agg._w(1), chosen.value, agg._w(1),
                    agg._w(need), agg._w(len(group)), agg._w(1), agg.ZERO, agg._w(len(group)),
                    *(agg._claim_id(x) for x in group),
                    agg._w(len(group)), *(x.f[128:160] for x in group)]
    return [agg._w(3), agg._w(nv), agg.ZERO, agg.ZERO, agg._w(1), agg._w(need), agg._w(most),
            *[agg.ZERO] * 4]


def _voters(rng: random.Random, n: int, kind: int, spread: int) -> list[agg.Voter]:
    """``n`` voters (their form: 160 bytes of words, the claim's id at 64 + 64), values
    from ``spread`` numbers (numeric: at scales 0 and 1) or texts' hashes, tiers 0..3."""
    out = []
    for k in range(n):
        f = b"".join(rng.randbytes(32) for _ in range(5))
        if kind == agg.NUMERIC:
            value = D(f"{rng.randrange(-spread, spread)}.{rng.randrange(1, 10)}"
                      if rng.random() < 0.5 else str(rng.randrange(-spread, spread)))
        else:
            value = rng.randrange(spread).to_bytes(32, "big")
        out.append(agg.Voter(k=k, f=f, claim=0, value=value, tier=rng.randrange(4)))
    return out


def _ctx(min_sources: int, quorum: int) -> Ctx:
    c = Ctx()
    c.req = bytes(128) + W(min_sources) + W(quorum)
    return c


def test_the_vote_equals_the_pairwise_one() -> None:
    rng = random.Random(42)  # noqa: S311 - reproducible cases
    for case in range(400):
        kind = agg.NUMERIC if case % 2 else 3
        n = rng.randrange(0, 40)
        voters = _voters(rng, n, kind, rng.choice((2, 5, 50)))
        tol = rng.choice((None, Fraction(0), Fraction(1, 2), Fraction(3), Fraction(40)))
        c = _ctx(rng.randrange(0, 4), rng.randrange(0, n + 2))
        got, want = agg.Vote(), agg.Vote()
        new = agg._quorum(c, got, kind, voters, tol)
        old = _reference(c, want, kind, voters, tol)
        assert new == old, case
        assert (got.selected, got.used) == (want.selected, want.used), case


def _time(n: int) -> float:
    voters = _voters(random.Random(n), n, agg.NUMERIC, 10**9)  # noqa: S311
    c = _ctx(n, n)  # quorum n: no group is met, every voter's group is counted
    start = time.perf_counter()
    agg._quorum(c, agg.Vote(), agg.NUMERIC, voters, Fraction(1, 100))
    return time.perf_counter() - start


def test_the_vote_grows_n_log_n() -> None:
    """256 -> 4 096 voters (16x): n log n about 24x, pairwise 256x; 80 between."""
    small = min(_time(256) for _ in range(3))
    big = _time(4096)
    print(f"quorum vote: 256 voters {small:.4f} s, 1024 {_time(1024):.4f} s, 4096 {big:.4f} s")
    assert big < 80 * small + 0.05, (small, big)
