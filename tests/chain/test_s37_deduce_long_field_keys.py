"""Deduce's field entries with keys of a one-byte length head (ADR 0013 "s37, dj7").

``PorDeduceRead.fieldEntries`` reads each entry's key word and value offset inline (the
head of a key of 24 bytes or more is two bytes: 0x78 and the length). Each cited
aggregate's field maps get one more key of 23 (one-byte head), 24, 25, 31, 32 or 40
bytes, some a real key's prefix padded (``fallback_used`` + ``_``...), the value a short
text, a number or ``true``; the deduce step left as it was (Python reads the extra key
as an unknown one) and rewritten by por: chain and Python must agree on each.
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
MARKETS = ("03-threshold-gt-boundary", "61-range-settle", "62-field-comparison-home-win")
KEYS = ["k" * 23, "fallback_used" + "_" * 11, "value" + "_" * 20, "status" + "x" * 25,
        "z" * 32, "evidence_ids" + "_" * 28]
VALUES: list[Any] = ["v", 100, True]


def _with_key(steps: list[bytes], cited: list[str], key: str, value: Any) -> list[bytes]:
    steps = list(steps)
    for sid in cited[:-1]:
        at = int(sid[5:]) - 1
        step = decode(steps[at])
        fields = step["output"].get("fields")
        if not isinstance(fields, list):
            continue
        for field in fields:
            field[key] = value
        steps[at] = encode(step)
    return steps


@pytest.mark.parametrize("key", KEYS, ids=[str(len(k)) for k in KEYS])
def test_long_field_keys(key: str) -> None:
    for name in MARKETS:
        bundle = honest(name)
        index = _deduce(bundle)
        cited = decode(bundle.steps[index])["prior_step_ids"]
        for value in VALUES:
            steps = _with_key(list(bundle.steps), cited, key, value)
            _CHAIN.compare(recommit(bundle, steps=steps), index, "long.kept", COUNTS)
            steps[index] = rewritten(bundle.prompt_spec, steps, index) or steps[index]
            _CHAIN.compare(recommit(bundle, steps=steps), index, "long.rewritten", COUNTS)


def test_long_field_key_count() -> None:
    cases = len(KEYS) * len(MARKETS) * len(VALUES)
    assert COUNTS["long.kept"] + COUNTS["long.rewritten"] == 2 * cases, COUNTS
