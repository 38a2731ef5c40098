"""Bounded work in the deduce executor on forms (docs/adr/0017, addendum (s41, execb2);
the reproducer of helper ``xjs``'s ``test_s41_bounds`` "deduce: read evidence").

The cited AGGREGATE cites ``n`` more evidence ids and its metric field (the one deduce
reads) names them all: each read id is looked up among the aggregate's ids
(``_markHash``: the last place of the id) and the read ids are deduplicated into
``source_summary`` (``_summary``). Both were pairwise, O(n^2) over a count a lying form
chooses; above ``FEW`` ids they now use ``PorFormsIndex``'s sorted positions
(O(n log n)). From 100 to 1 000 ids (10x the bytes) the gas may grow at most
:data:`FACTOR` times (n log n about 15x, quadratic about 100x: the old code fails). The
chain and Python give the same answer on each case (a lie: won).
"""

from __future__ import annotations

import pytest
from bundle_edits import honest, recommit, steps_of
from forms_deduce_cases import chain_answer, step_call_data
from forms_python import python_answer
from scratch_harness import SOLC

from por.bundle.layout import Bundle
from por.encoding import decode, encode

pytestmark = SOLC

FACTOR = 20
MARKET = "08-quorum-agree"


def read_evidence(n: int) -> tuple[Bundle, int]:
    """Scenario 08 with ``n`` more evidence ids on the cited aggregate and its metric
    field; the deduce step's leaf."""
    bundle = honest(MARKET)
    leaf = steps_of(bundle, "deduce")[0]
    steps = [decode(s) for s in bundle.steps]
    metric = decode(bundle.prompt_spec)["prediction_semantics"]["metric"]
    agg = steps[steps_of(bundle, "aggregate")[0]]
    ids = [f"ev-x{k}" for k in range(n)]
    agg["evidence_ids"] += ids
    field = next(f for f in agg["output"]["fields"] if f["key"] == metric)
    field["evidence_ids"] += ids
    return recommit(bundle, steps=[encode(s) for s in steps]), leaf


def _run(n: int) -> tuple[object, object, int]:
    bundle, leaf = read_evidence(n)
    data = step_call_data(bundle, leaf)
    chain, gas = chain_answer(data)
    return chain, python_answer("deduce", data), gas


@pytest.mark.parametrize("n", [10, 100])
def test_chain_and_python_agree(n: int) -> None:
    chain, twin, _gas = _run(n)
    assert chain == twin
    assert isinstance(chain, tuple) and chain[0]


def test_gas_grows_at_most_n_log_n() -> None:
    _, _, small = _run(100)
    _, _, big = _run(1000)
    assert big < FACTOR * small, (small, big)
