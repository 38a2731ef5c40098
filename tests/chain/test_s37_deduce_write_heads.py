"""Deduce's output written on chain (``PorDeduceWrite``, ADR 0013 "s36, dj5") with every
head width in the values it writes.

``PorDeduceWrite.head`` writes the shortest CBOR head of an integer or a text's length
(1, 2, 3, 5 or 9 bytes); ``bytesAt``/``item``/``span`` copy texts and items. The fixture
markets' values are 10-digit stamps and short decimals; ``test_onchain_deduce.py``'s
stamps skip the head edges. Here a cited aggregate's value is set at each edge (a
timestamp field to 0, 23/24, 255/256, 65535/65536, 2^32 - 1 / 2^32, 2^63 - 1; a numeric
field to canonical decimals of 22 to 26 and 255/256 characters), the threshold on
either side of it, the deduce step rewritten by por (consistent: lost) or left (a lie):
the chain's answer must be Python's in each.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import ExecChecker, assert_case_count
from test_onchain_deduce import _deduce, rewritten

from por.bundle.layout import Bundle
from por.encoding import decode, encode

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorDeduceExec")
STAMPS = (0, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1)
NUMBERS = ("1" * 22, "1" * 23, "1" * 24, "9" * 20 + ".125", "-" + "9" * 22 + ".5",
           "0." + "0" * 21 + "1", "1" * 255, "1" * 256, "-" + "1" * 254 + ".5")


def _cases(bundle: Bundle, key: str, values: tuple[Any, ...], threshold: Any,
           extra: bool = False) -> None:
    """The aggregate's field ``key`` set to each of ``values`` (a selected timestamp
    field ``key`` added to it when ``extra``), the threshold to each of
    ``threshold(value)`` (unchanged for None)."""
    index = _deduce(bundle)
    agg = next(i for i, s in enumerate(bundle.steps) if decode(s)["inputs"].get("kind")
               == "aggregate" and (extra or any(f["key"] == key
                                                for f in decode(s)["output"]["fields"])))
    for value in values:
        for edge in threshold(value):
            spec = decode(bundle.prompt_spec)
            if edge is not None:
                spec["prediction_semantics"]["threshold"] = edge
            steps = list(bundle.steps)
            step = decode(steps[agg])
            if extra:
                first = step["output"]["fields"][0]
                step["output"]["fields"].append({**first, "key": key, "kind": "timestamp"})
            for f in step["output"]["fields"]:
                if f["key"] == key:
                    f["value"] = value
            steps[agg] = encode(step)
            spec_bytes = encode(spec)
            consistent = list(steps)
            consistent[index] = rewritten(spec_bytes, steps, index) or steps[index]
            for case, edited in (("rewritten", consistent), ("left", steps)):
                b = recommit(bundle, prompt_spec=spec_bytes, steps=edited)
                answer = _CHAIN.compare(b, index, f"heads.{case}", COUNTS)
                if case == "rewritten" and consistent[index] != steps[index]:
                    assert answer is not None and answer[:2] == (False, "one_step.match"), (
                        value, edge)


def _stamp_thresholds(v: int) -> list[str]:
    return sorted({str(max(v - 1, 0)), str(v), str(min(v + 1, 2**63 - 1))})


def _number_thresholds(v: str) -> list[str]:
    return [v, "0", "-" + "9" * 30]


@pytest.mark.parametrize("market", ["66-deadline-launch"])
def test_stamps_at_every_head_width(market: str) -> None:
    bundle = honest(market)
    key = decode(bundle.prompt_spec)["prediction_semantics"]["metric"]
    _cases(bundle, key, STAMPS, _stamp_thresholds)


@pytest.mark.parametrize("market", ["08-quorum-agree", "04-threshold-gte-boundary"])
def test_numbers_at_text_head_edges(market: str) -> None:
    bundle = honest(market)
    sem = decode(bundle.prompt_spec)["prediction_semantics"]
    if sem["predicate"] != "numeric_threshold":
        pytest.skip(f"{market}: {sem['predicate']}")
    _cases(bundle, sem["metric"], NUMBERS, _number_thresholds)


def test_stamp_written_at_every_head_width() -> None:
    """A second, timestamp field selected in 08's aggregate: deduce writes it as the
    output's ``timestamp`` (an unsigned integer head of 1 to 9 bytes)."""
    _cases(honest("08-quorum-agree"), "as_of", STAMPS, lambda _v: [None], extra=True)
    assert COUNTS["id:one_step.match"] >= len(STAMPS), COUNTS


def test_deduce_heads_case_count() -> None:
    assert_case_count(COUNTS, "heads.", ("one_step.match", "one_step.mismatch"), minimum=60)
