"""The aggregate's one-pass tie-breaker (ADR 0013 "s36, agg5", cut 3) with the tie at
every position.

``PorAggregateStep.first`` walks the voters once: of those whose group reaches the
quorum, the first of the highest tier wins; the walk stops at the first tier-3 voter.
``test_onchain_aggregate_ties.py`` draws four sources' tiers at random; here five and six
sources hold the highest tier (0, 1, 2 or 3) at every pair of positions (first and
last included) with every other voter one tier lower, a lone tier-3 voter at every
position behind and ahead of a tier-2 pair, and, under multi_source_quorum (quorum 2), a
highest-tier pair that does not reach the quorum ahead of (or behind) a lower pair that
does. Values are distinct per voter (the chosen voter is visible in the output) or
equal in pairs. Each honest aggregate must be lost on chain as in Python; a seeded share
is forged (claims edited, the aggregate recomputed by por or left).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from aggregate_lies import aggregates
from exec_support import ExecChecker
from test_onchain_aggregate import _factories
from test_onchain_aggregate_keys import forged

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorAggregateExec")
STRATEGIES = (("single_best", 1, 1), ("multi_source_quorum", 1, 1), ("multi_source_quorum", 2, 2))


def market(tiers: tuple[int, ...], values: tuple[int, ...], strategy: tuple[str, int, int],
           breaker: str = "highest_provenance") -> Bundle:
    """One source per voter, of ``tiers``, writing ``values`` (a numeric and a text field)."""
    f = _factories()
    name, min_sources, quorum = strategy
    sources = [f"src_{chr(97 + i)}" for i in range(len(tiers))]
    fields = [f.json_field("price", "numeric", "$.price"), f.json_field("label", "text", "$.label")]
    requirement = f.requirement("r1", sources=sources, strategy=name, min_sources=min_sources,
                                quorum=quorum, tie_breaker=breaker, fields=fields)
    spec = f.prompt_spec(requirements=[requirement], metric="price", tolerance="0")
    items = [f.item(f"e{n}", f'{{"price":{v},"label":"t{v}"}}', source_id=s, tier=t)
             for n, (s, t, v) in enumerate(zip(sources, tiers, values, strict=True))]
    return bundle_from_bytes(build(spec, f.bundle(items)).data)


Strategy = tuple[str, int, int]


def _check(tiers: tuple[int, ...], values: tuple[int, ...], strategies: tuple[Strategy, ...],
           rng: random.Random, case: str) -> None:
    for strategy in strategies:
        bundle = market(tiers, values, strategy)
        answer = _CHAIN.compare(bundle, aggregates(bundle)[0], f"{case}.honest", COUNTS)
        assert answer is not None and answer[:2] == (False, "one_step.match"), (tiers, values)
        if rng.random() < 0.15:
            b, index = forged(bundle, rng)
            _CHAIN.compare(b, index, f"{case}.forged", COUNTS)


def test_highest_tier_pair_at_every_position() -> None:
    rng = random.Random(3701)  # noqa: S311 - seeded cases, not secrets
    for n in (5, 6):
        distinct = tuple(100 + i for i in range(n))
        for top in (1, 2, 3):
            for i, j in itertools.combinations(range(n), 2):
                tiers = tuple(top if v in (i, j) else top - 1 for v in range(n))
                _check(tiers, distinct, STRATEGIES[:2], rng, "pair")
    assert COUNTS["pair.honest"] == 3 * (10 + 15) * 2, COUNTS


def test_lone_tier_three_at_every_position() -> None:
    """One tier-3 voter at every position, a tier-2 pair before or after it, and a second
    tier-3 voter after it (the walk stops at the first)."""
    rng = random.Random(3702)  # noqa: S311
    n = 6
    distinct = tuple(100 + i for i in range(n))
    for at in range(n):
        for pair in ((0, 1), (n - 2, n - 1), (0, n - 1)):
            tiers = tuple(3 if v == at else 2 if v in pair else 0 for v in range(n))
            _check(tiers, distinct, STRATEGIES[:2], rng, "three")
        for later in range(at + 1, n):
            tiers = tuple(3 if v in (at, later) else 1 for v in range(n))
            _check(tiers, distinct, STRATEGIES[:2], rng, "three")
    assert COUNTS["three.honest"] > 2 * 6 * 3, COUNTS


def test_quorum_pair_behind_a_higher_tier() -> None:
    """quorum 2: values equal in one pair only (the group reaching the quorum), the
    highest tier held by voters outside it, before, between and after the pair."""
    rng = random.Random(3703)  # noqa: S311
    n = 5
    for i, j in itertools.combinations(range(n), 2):
        values = tuple(100 if v in (i, j) else 101 + v for v in range(n))
        for top in range(n):
            for tier_pair, tier_top in ((0, 2), (1, 3), (2, 2), (0, 3)):
                tiers = tuple(tier_top if v == top else tier_pair if v in (i, j) else 0
                              for v in range(n))
                _check(tiers, values, STRATEGIES[2:], rng, "quorum")
        # two groups reach the quorum: the one holding the first highest-tier voter wins
        k, m = [v for v in range(n) if v not in (i, j)][:2]
        values = tuple(100 if v in (i, j) else 200 if v in (k, m) else 300 + v for v in range(n))
        for hi in (i, j, k, m):
            tiers = tuple(2 if v == hi else 1 for v in range(n))
            _check(tiers, values, STRATEGIES[1:], rng, "quorum")
    assert COUNTS["id:one_step.match"] >= COUNTS["quorum.honest"] > 200, COUNTS
    assert COUNTS["id:one_step.mismatch"] + COUNTS["id:one_step.unexecutable"] > 0, COUNTS
