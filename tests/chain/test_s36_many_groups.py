"""Repeats among more than 16 hashes (ADR 0013 "Addendum (s36, agg4)", cut 3) against
``por check-proof``.

``PorAggregateRead.repeats`` compares up to 16 hashes pairwise and sorts more. Only a
hostile check chunk reaches past 16 (its state's groups and sources have no cap the
aggregate reads): an aggregate's cited check chunk is given 15 to 18 and 33 groups
(copies of its first group under other keys, in §2-sortable order), with one (kind,
key) twice at the edges of the pairwise loop and of the sort (the first and the last,
the last two, indices 15 and 16, the middle), or none; the aggregate is then recomputed
from what it cites or left; and each key of 16, 17 and 33 groups written again last.
The chain (``PorAggregateExec`` through ``checkProof``) and Python must give the same
(won, check id) each time, and a repeat must be found.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from aggregate_lies import _index, aggregates, rewrite
from bundle_edits import honest, recommit
from proof_check_support import ProofChecker, python_answer

from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()
#: Fixture markets whose aggregate's check chunk has a numeric / a boolean group.
MARKETS = (7, 0)
SIZES = (15, 16, 17, 18, 33)


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    return ProofChecker()


def repeats(n: int) -> dict[str, tuple[int, int] | None]:
    """Where a group is repeated in a list of ``n``: (copied from, written at)."""
    return {"none": None, "first.last": (0, n - 1), "last.two": (n - 2, n - 1),
            "15.16": (15, 16) if n > 16 else (n - 2, n - 1), "middle": (n // 2 - 1, n // 2)}


def groups_of(first: dict[str, Any], n: int, at: tuple[int, int] | None) -> list[dict[str, Any]]:
    out = []
    for j in range(n):
        g = copy.deepcopy(first)
        g["key"] = f"{first['key']}_{j:02d}"
        out.append(g)
    if at is not None:
        out[at[1]]["key"] = out[at[0]]["key"]
    return out


def _same(router: ProofChecker, case: str, proof: bytes) -> tuple[bool, str]:
    won, check_id, _gas = router.any_proof(proof)
    assert (won, check_id) == python_answer(proof), case
    COUNTS[f"{'won' if won else 'lost'}:{check_id}"] += 1
    return won, check_id


@pytest.mark.parametrize("market", MARKETS)
@pytest.mark.parametrize("n", SIZES)
def test_many_groups(router: ProofChecker, market: int, n: int) -> None:
    bundle = honest(list_scenarios()[market])
    index = aggregates(bundle)[0]
    steps = [decode(s) for s in bundle.steps]
    chunk = [i for i in (_index(p) for p in steps[index]["prior_step_ids"]) if i is not None][-1]
    first = steps[chunk]["output"]["groups"][0]
    answers = {}
    for name, at in repeats(n).items():
        edited = copy.deepcopy(steps)
        edited[chunk]["output"]["groups"] = groups_of(first, n, at)
        raw = [encode(s) for s in edited]
        for recompute in (False, True):
            if recompute:
                raw[index] = rewrite(bundle.prompt_spec, raw, index) or raw[index]
            b = recommit(bundle, steps=raw)
            proof = bytes(build_one_step_proof(b, index).to_cbor())
            answers[name, recompute] = _same(router, f"{name}.{recompute}", proof)
            COUNTS["cases"] += 1
    for name in repeats(n):
        if name != "none":
            # a repeated (kind, key) is a malformed prior state whatever the aggregate says
            assert answers[name, True] == answers[name, False], (n, name)
            assert answers[name, True] != answers["none", True], (n, name)


@pytest.mark.parametrize("n", (16, 17, 33))
def test_every_key_repeated(router: ProofChecker, n: int) -> None:
    """Each key written again last: one of them is the largest hash, so the sorted list's
    last two are the repeat (a sort's neighbour loop one short misses it)."""
    bundle = honest(list_scenarios()[MARKETS[0]])
    index = aggregates(bundle)[0]
    steps = [decode(s) for s in bundle.steps]
    chunk = [i for i in (_index(p) for p in steps[index]["prior_step_ids"]) if i is not None][-1]
    first = steps[chunk]["output"]["groups"][0]
    for j in range(n - 1):
        edited = copy.deepcopy(steps)
        edited[chunk]["output"]["groups"] = groups_of(first, n, (j, n - 1))
        b = recommit(bundle, steps=[encode(s) for s in edited])
        proof = bytes(build_one_step_proof(b, index).to_cbor())
        assert _same(router, f"every.{n}.{j}", proof) == (True, "one_step.unexecutable"), j
        COUNTS["every"] += 1


def test_cases_seen() -> None:
    if not COUNTS:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())))
    assert COUNTS["cases"] == len(MARKETS) * len(SIZES) * 5 * 2, COUNTS
    assert COUNTS["every"] == 15 + 16 + 32, COUNTS
