"""A check chunk's numeric groups ordered by a one-word compare (ADR 0013 "s37, check7").

``PorCheckStepGroups.fold`` keeps each numeric group's min and max claim; since s37
(check7) its compare (``order``) compares two decimals of one sign whose scales are at
most 18 apart as words at the larger scale (a magnitude below 2^196), and hands any other
pair to ``PorDecimal.cmp``. Here the cited extract steps' numeric claims are rewritten
with values at those edges (negative and mixed signs, equal values at other scales,
scales 18 and 19 apart, 62-digit magnitudes past 2^196, 2^200 against a scale 56 apart
(whose product with 10^56 wraps to 0 in a word), ties), the chunks recomputed by
por's ``recompute_step`` in order (a later chunk's P then carries those groups) and
recommitted: chain and Python must agree on every chunk (honest: lost), and on the same
chunk with its groups' min and max swapped (won).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from bundle_edits import recommit
from exec_support import ExecChecker, recomputed
from test_onchain_check import chunks_of, many_items

from por.bundle.layout import Bundle
from por.encoding import decode, encode

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorCheckExec")
BIG = "9" * 62
TWO200 = str(2**200)  # 61 digits
TINY = "0." + "0" * 55 + "1"  # scale 56
#: Value sets drawn in turn for the numeric claims, item by item.
VALUES: dict[str, list[str]] = {
    "negative": ["-251.4", "-251.42", "-251.38", "-251", "-0.5"],
    "mixed": ["251.4", "-0.5", "3", "-3", "0", "0.25", "-251.42"],
    "ties": ["2.5", "2.5", "2.50001", "2.49999", "2.5"],
    "scales_18_19": ["1", "1.000000000000000001", "0.9999999999999999999", "1.0000000000000000001",
                     "-1", "-1.000000000000000001", "-0.9999999999999999999"],
    "big": [BIG, BIG + ".5", "1" + "0" * 61, "-" + BIG, BIG[:-1] + ".9", "0.1"],
    # 2^200 * 10^56 is 0 modulo 2^256: a compare that aligned it unchecked would wrap
    "wrap": [TWO200, TINY, "-" + TWO200, "-" + TINY, TINY, TWO200, "7", "-" + TINY],
    "wide_scale": ["0." + "0" * 40 + "1", "1", "0." + "0" * 20 + "3", "-0." + "0" * 50 + "7"],
}


def rewritten(bundle: Bundle, values: list[str]) -> tuple[Bundle, list[int]]:
    """``bundle`` with its extract steps' numeric claims set to ``values`` in turn, each
    check chunk recomputed after them (in order); (bundle, the chunks' indices)."""
    steps = list(bundle.steps)
    k = 0
    for i, raw in enumerate(steps):
        step = decode(raw)
        if step.get("inputs", {}).get("kind") != "extract_claims":
            continue
        for claim in step["output"].get("claims") or []:
            if claim.get("kind") == "numeric":
                claim["value"] = values[k % len(values)]
                k += 1
        steps[i] = encode(step)
    assert k > 0
    chunks = chunks_of(bundle)
    for index in chunks:
        again = recomputed(bundle, steps, index)
        assert again is not None
        steps[index] = again
    return recommit(bundle, steps=steps), chunks


def swapped(bundle: Bundle, index: int) -> Bundle | None:
    """Chunk ``index`` with each numeric group's min and max swapped (None: none differ)."""
    steps = list(bundle.steps)
    step = decode(steps[index])
    changed = False
    for group in step["output"].get("groups") or []:
        if group.get("kind") == "numeric" and group["min"] != group["max"]:
            group["min"], group["max"] = group["max"], group["min"]
            changed = True
    if not changed:
        return None
    steps[index] = encode(step)
    return recommit(bundle, steps=steps)


def _groups(bundle: Bundle, index: int) -> list[Any]:
    return list(decode(bundle.steps[index])["output"].get("groups") or [])


@pytest.mark.parametrize("name", ["08-quorum-agree", "67-two-of-three-below"])
@pytest.mark.parametrize("case", sorted(VALUES))
def test_numeric_groups_at_compare_edges(name: str, case: str) -> None:
    bundle, chunks = rewritten(many_items(name, 23), VALUES[case])
    assert len(chunks) >= 3
    for index in chunks:
        answer = _CHAIN.compare(bundle, index, "order.honest", COUNTS)
        assert answer is not None and answer[:2] == (False, "one_step.match")
        forged = swapped(bundle, index)
        if forged is not None:
            answer = _CHAIN.compare(forged, index, "order.swapped", COUNTS)
            assert answer is not None and answer[0]
    # the values reached the groups (the last chunk's state folds every item)
    values = {g["min"]["value"] for g in _groups(bundle, chunks[-1]) if g["kind"] == "numeric"}
    assert values & set(VALUES[case])


def test_order_case_count() -> None:
    assert COUNTS["order.honest"] >= 42, COUNTS
    assert COUNTS["order.swapped"] >= 36, COUNTS
