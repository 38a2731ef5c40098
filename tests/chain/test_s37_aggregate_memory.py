"""The aggregate's scratch memory reused (ADR 0013 "s36, agg5", cut 2) under values that
fill memory.

``PorAggregateRead.items`` and ``claims`` put the free memory pointer back after each
item and claim, ``PorAggregateStep.select`` after each field's policy: sound only while
nothing allocated there outlives it (a vote must go into the item's arrays allocated
before). The fixture markets' values are short. Here six sources write eight fields
(the cap): numeric values of up to 60 digits and long scales, text values of 24 to 300
bytes (and four-byte code points) that differ from each other only in their last byte or
at a word edge, so each claim's scratch words are many and a stale pointer would let a
later item's or field's words overwrite an earlier vote. Under single_best and
multi_source_quorum (quorum 1, 2, 3; values equal in pairs or triples) with both
tie-breakers, each honest aggregate must be lost on chain as in Python, and forged ones
(claims edited) get Python's answer.
"""

from __future__ import annotations

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
SOURCES = [f"src_{c}" for c in "abcdef"]
NUMBERS = ("1" * 60, "98765432109876543210.123456789012345678", "0.000000000000000000000001",
           "12345678901234567890123456789012", "7", "100.5")
TEXT_LENGTHS = (24, 31, 32, 33, 64, 255, 256, 300)


def _text(n: int, last: int, wide: bool) -> str:
    """``n`` bytes, all alike but the last (``last`` picks it); of four-byte code points
    (then ascii to fill) when ``wide``."""
    body = "\U0001f600" * ((n - 1) // 4) if wide else ""
    return body + "t" * (n - 1 - len(body.encode())) + chr(ord("a") + last)


def market(groups: list[int], strategy: tuple[str, int, int], breaker: str, wide: bool) -> Bundle:
    """Six sources; voter v writes value group ``groups[v]`` of each field."""
    f = _factories()
    name, min_sources, quorum = strategy
    fields = [f.json_field(f"n{i}", "numeric", f"$.n{i}") for i in range(4)]
    fields += [f.json_field(f"t{i}", "text", f"$.t{i}") for i in range(4)]
    requirement = f.requirement("r1", sources=SOURCES, strategy=name, min_sources=min_sources,
                                quorum=quorum, tie_breaker=breaker, fields=fields)
    spec = f.prompt_spec(requirements=[requirement], metric="n0", tolerance="0")
    items = []
    for v, (source, g) in enumerate(zip(SOURCES, groups, strict=True)):
        nums = ",".join(f'"n{i}":{NUMBERS[(g + i) % len(NUMBERS)]}' for i in range(4))
        texts = ",".join(f'"t{i}":"{_text(TEXT_LENGTHS[(g + 2 * i) % 8], g, wide)}"'
                         for i in range(4))
        items.append(f.item(f"e{v}", "{" + nums + "," + texts + "}", source_id=source,
                            tier=(v * 7 + g) % 4))
    return bundle_from_bytes(build(spec, f.bundle(items)).data)


GROUPINGS = ([0, 1, 2, 3, 4, 5], [0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 0, 1], [3, 3, 3, 0, 1, 2],
             [5, 4, 3, 3, 4, 5], [0, 0, 0, 0, 0, 0])
STRATEGIES = (("single_best", 1, 1), ("multi_source_quorum", 1, 1),
              ("multi_source_quorum", 2, 2), ("multi_source_quorum", 3, 3))


def test_long_values_in_every_field() -> None:
    rng = random.Random(3705)  # noqa: S311 - seeded cases, not secrets
    for groups in GROUPINGS:
        for strategy in STRATEGIES:
            for breaker in ("highest_provenance", "source_order"):
                for wide in (False, True):
                    bundle = market(groups, strategy, breaker, wide)
                    answer = _CHAIN.compare(bundle, aggregates(bundle)[0], "memory.honest",
                                            COUNTS)
                    assert answer is not None and answer[:2] == (False, "one_step.match")
                    if rng.random() < 0.25:
                        b, index = forged(bundle, rng)
                        _CHAIN.compare(b, index, "memory.forged", COUNTS)
    assert COUNTS["memory.honest"] == len(GROUPINGS) * len(STRATEGIES) * 4, COUNTS
    assert COUNTS["memory.forged"] > 10, COUNTS
