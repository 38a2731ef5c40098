"""The aggregate's tie-breaker (ADR 0013 "Addendum (s36, agg5)") agrees with ``por
check-proof``.

``PorAggregateStep.first`` picks, of the voters whose agreeing group reaches the quorum
(or all voters for single_best), the first of the highest provenance_tier in one pass,
without building the order. New ways to be wrong: the highest tier present below 3 with
two or more voters in it (the first must win, not the last), a higher tier that does not
reach the quorum ahead of a lower one that does, every voter in one tier. Four sources of
distinct or pairwise-equal values, their tiers drawn from 0-2 (and 3), under
single_best and multi_source_quorum (quorum 1 and 2) with highest_provenance: each
honest aggregate must be lost on chain as in Python, each forged one (claims edited)
must get Python's answer.
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
SOURCES = ["src_a", "src_b", "src_c", "src_d"]
STRATEGIES = (("single_best", 1, 1), ("multi_source_quorum", 1, 1), ("multi_source_quorum", 2, 2))


def market(tiers: tuple[int, ...], values: tuple[int, ...],
           strategy: tuple[str, int, int]) -> Bundle:
    """Four sources of ``tiers`` writing ``values`` for one numeric field and a text one."""
    f = _factories()
    name, min_sources, quorum = strategy
    fields = [f.json_field("price", "numeric", "$.price"), f.json_field("label", "text", "$.label")]
    requirement = f.requirement("r1", sources=SOURCES, strategy=name, min_sources=min_sources,
                                quorum=quorum, tie_breaker="highest_provenance", fields=fields)
    spec = f.prompt_spec(requirements=[requirement], metric="price", tolerance="0")
    items = [f.item(f"e{n}", f'{{"price":{v},"label":"t{v}"}}', source_id=s, tier=t)
             for n, (s, t, v) in enumerate(zip(SOURCES, tiers, values, strict=True))]
    return bundle_from_bytes(build(spec, f.bundle(items)).data)


def test_highest_provenance_ties() -> None:
    rng = random.Random(3605)  # noqa: S311 - seeded cases, not secrets
    tiers = [t for t in itertools.product(range(3), repeat=4) if max(t) < 3 and t.count(max(t)) > 1]
    chosen = [*rng.sample(tiers, 10), (3, 0, 3, 1), (0, 0, 0, 0), (2, 1, 1, 2)]
    for t in chosen:
        for values in ((100, 101, 102, 103), (100, 101, 100, 101), (100, 100, 101, 101)):
            for strategy in STRATEGIES:
                bundle = market(t, values, strategy)
                _CHAIN.compare(bundle, aggregates(bundle)[0], "ties.honest", COUNTS)
                if rng.random() < 0.3:
                    b, index = forged(bundle, rng)
                    _CHAIN.compare(b, index, "ties.forged", COUNTS)
    assert COUNTS["ties.honest"] == len(chosen) * 3 * len(STRATEGIES)
    assert COUNTS["id:one_step.match"] >= COUNTS["ties.honest"], COUNTS
    assert COUNTS["id:one_step.mismatch"] > 0, COUNTS
