"""Deduce's item ends without a skip call (ADR 0013 "s38, deduce8").

``PorDeduceRead.itemEnd`` ends a short text (head 0x60-0x77) and a one-byte item (an int
0..23, false, true, null, undefined) by its head, any other item by ``PorCbor.skip``; the
walk of a cited aggregate's output uses it for each top-level value before
``provenance_ok`` and stops there. Each cited aggregate's ``item_count`` and
``last_leaf`` get values at the head's edges (23, 24, 255, 256, 65 535, 65 536, 2^32),
and one more top-level key sorting between them and ``provenance_ok`` gets values of
every short and long head; the deduce step left as it was and rewritten by por: chain
and Python must agree on each.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import ExecChecker
from test_onchain_deduce import _deduce, rewritten

from por.encoding import decode, encode

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorDeduceExec")
MARKETS = ("03-threshold-gt-boundary", "08-quorum-agree", "67-two-of-three-below")
NUMBERS = (23, 24, 255, 256, 65535, 65536, 2**32)
#: Values of the extra key: each head the fast path reads, and its neighbours.
VALUES: list[Any] = [0, 23, 24, 255, -1, -24, -25, "", "x" * 23, "x" * 24, "é" * 12,
                     True, False, [], ["a"], {}, {"a": 1}]
#: Sorts after item_count (10 bytes) and before provenance_ok (13 bytes).
EXTRA = "aaaaaaaaaaa"


def _edited(steps: list[bytes], cited: list[str], edit: Any) -> list[bytes]:
    steps = list(steps)
    for sid in cited[:-1]:
        at = int(sid[5:]) - 1
        step = decode(steps[at])
        edit(step["output"])
        steps[at] = encode(step)
    return steps


def _edits() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for n in NUMBERS:
        out.append((f"item_count={n}", lambda o, n=n: o.__setitem__("item_count", n)))
        out.append((f"last_leaf={n}", lambda o, n=n: o.__setitem__("last_leaf", n)))
    for v in VALUES:
        out.append((f"extra={v!r}", lambda o, v=v: o.__setitem__(EXTRA, v)))
    return out


@pytest.mark.parametrize("market", MARKETS)
def test_item_ends(market: str) -> None:
    bundle = honest(market)
    index = _deduce(bundle)
    cited = decode(bundle.steps[index])["prior_step_ids"]
    for _, edit in _edits():
        steps = _edited(list(bundle.steps), cited, edit)
        _CHAIN.compare(recommit(bundle, steps=steps), index, "ends.kept", COUNTS)
        steps[index] = rewritten(bundle.prompt_spec, steps, index) or steps[index]
        _CHAIN.compare(recommit(bundle, steps=steps), index, "ends.rewritten", COUNTS)


def test_item_end_count() -> None:
    cases = len(_edits()) * len(MARKETS)
    assert COUNTS["ends.kept"] + COUNTS["ends.rewritten"] == 2 * cases, COUNTS
