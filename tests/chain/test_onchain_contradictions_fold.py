"""Numeric groups of one key in several cited chunks, merged on chain as Python merges
them (SPEC §12.5.5; ``PorContradictionsState.fold``, ADR 0013's s36 ``contra5``
addendum).

The chain does not parse a later chunk's ``min`` (``max``) when its text equals the
merged group's: equal canonical texts are equal values, so the merged reference stays
the earlier chunk's, as in Python (a strict ``<`` / ``>``). Each case, on a market whose
requirement is copied to three (three cited chunks), gives the first chunk's numeric
group a wide range (so the merged group conflicts and its claim ids are in the output)
and the later chunks a group of the same key whose min and max are equal to, below or
above it, with other claim ids; the contradictions step is recomputed by por and the
chain must agree (lost ``one_step.match``) and, forged, won.
"""

from __future__ import annotations

import copy
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import recommit
from exec_support import ExecChecker, recomputed

from por.encoding import decode, encode

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from contradictions_gas import copied

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorContradictionsExec")
#: 08's requirement copied to three (`bench/contradictions_gas.py`): three cited chunks.
MARKET, REQS = "08-quorum-agree", 3
LOW, HIGH = "1.5", "1000000"
#: (the later chunk's min, its max): equal, below, above the first chunk's.
CASES = {
    "both_equal": (LOW, HIGH),
    "min_equal_max_above": (LOW, "1000001"),
    "min_below_max_equal": ("1.25", HIGH),
    "inside": ("2", "3"),
    "both_equal_inside_range": ("2", "2"),
}


def _ref(claim: str, evidence: str, value: str) -> dict[str, Any]:
    return {"claim_id": claim, "evidence_id": evidence, "value": value}


def _numeric(out: dict[str, Any], key: str, lo: dict[str, Any], hi: dict[str, Any]) -> None:
    """The chunk state's numeric group of `key` set to (lo, hi), added when absent."""
    for group in out["groups"]:
        if group["kind"] == "numeric" and group["key"] == key:
            group["min"], group["max"] = lo, hi
            return
    out["groups"].append({"kind": "numeric", "key": key, "claim_count": 2, "min": lo, "max": hi})


@pytest.mark.parametrize("name", sorted(CASES))
def test_equal_texts_merged(name: str) -> None:
    bundle = copied(MARKET, REQS)
    steps = list(bundle.steps)
    bodies = [decode(s) for s in steps]
    index = next(i for i, s in enumerate(bodies) if s["inputs"]["kind"] == "contradictions")
    chunks = [int(sid[5:]) - 1 for sid in bodies[index]["prior_step_ids"]]
    assert len(chunks) == REQS
    first = copy.deepcopy(bodies[chunks[0]])
    _numeric(first["output"], "price", _ref("c_a_lo", "e_a_lo", LOW),
             _ref("c_a_hi", "e_a_hi", HIGH))
    steps[chunks[0]] = encode(first)
    lo, hi = CASES[name]
    for n, chunk in enumerate(chunks[1:]):
        later = copy.deepcopy(bodies[chunk])
        _numeric(later["output"], "price", _ref(f"c_{n}_lo", f"e_{n}_lo", lo),
                 _ref(f"c_{n}_hi", f"e_{n}_hi", hi))
        steps[chunk] = encode(later)
    _CHAIN.compare(recommit(bundle, steps=steps), index, "fold.forged", COUNTS)
    again = recomputed(bundle, steps, index)
    assert again is not None, name
    steps[index] = again
    answer = _CHAIN.compare(recommit(bundle, steps=steps), index, "fold.recomputed", COUNTS)
    assert answer is not None and answer[1] == "one_step.match", (name, answer)
