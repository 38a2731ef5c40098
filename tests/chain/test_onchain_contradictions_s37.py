"""The `contradictions` step's s37 fast paths (ADR 0013's s37 ``contra6`` addendum),
each edited where it could go wrong and decided on chain as Python decides it.

* ``PorContradictionsDecimal.exceeds``: a numeric group's ``max - min`` against the
  tolerance in one word for texts of at most 23 characters (signs, scales, the boundary,
  the 23/24-character edge where the general parse takes over);
* ``PorContradictionsOutput.matches`` no longer skips to the committed description's
  and output's ends: a committed item that begins with the recomputed one's bytes and
  goes on (a longer text, a map of more entries, a longer last value) must still lose;
* a cited check chunk's inputs and step_type read with word compares, its items read
  by ``plain``, its sources compared pairwise, its counts and bools in one block.

Each edit of a cited chunk is compared forged (the contradictions step unchanged) and
recomputed by por where it can be (``test_onchain_contradictions_maps.edit_output``);
each edit of the step itself is compared as forged.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import ExecChecker
from test_onchain_contradictions_maps import edit_output

from por.bundle.layout import Bundle
from por.encoding import decode, encode

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorContradictionsExec")
#: A market whose cited chunk holds a numeric group (tolerance 0.05).
NUMERIC = "08-quorum-agree"
MARKETS = ("08-quorum-agree", "01-boolean-observed")

Edit = Callable[[dict[str, Any]], None]


def _num(out: dict[str, Any]) -> dict[str, Any]:
    group: dict[str, Any] = next(g for g in out["groups"] if g["kind"] == "numeric")
    return group


def _pair(low: str, high: str) -> Edit:
    def edit(out: dict[str, Any]) -> None:
        group = _num(out)
        group["min"]["value"], group["max"]["value"] = low, high
    return edit


#: (min, max) texts around the 0.05 tolerance: signs, scales, the boundary, lengths.
PAIRS = {
    "cross_zero_at": ("-0.01", "0.04"),
    "cross_zero_over": ("-0.01", "0.041"),
    "negative_at": ("-1", "-0.95"),
    "negative_over": ("-1", "-0.9499"),
    "negative_under": ("-1.05", "-1.0000000000000000001"),
    "scales_at": ("99.96", "100.01"),
    "scales_over": ("100", "100.0500000000000000001"),
    "integers_over": ("7", "8"),
    "zero_at": ("0", "0.05"),
    "zero_over": ("0", "0.051"),
    "max_below_min": ("1", "0.5"),
    "max_below_min_close": ("0.06", "0.02"),
    "long23_at": ("1" + "0" * 19 + ".01", "1" + "0" * 19 + ".06"),
    "long23_over": ("1" + "0" * 19 + ".01", "1" + "0" * 19 + ".07"),
    "long23_under": ("1", "1.000000000000000000001"),
    "long24_over": ("1" + "0" * 20 + ".01", "1" + "0" * 20 + ".07"),
    "long24_under": ("1", "1.0000000000000000000001"),
    "long24_at": ("99999999999999999999999", "99999999999999999999999.05"),
    "long64": ("-" + "9" * 63, "9" * 63),
    "wide_over": ("12345678901234567890123", "12345678901234567890124"),
}

#: Edits of the cited chunk's state (the items, inputs, sources and counts read fast).
STATE_EDITS: dict[str, Edit] = {
    **{f"pair.{name}": _pair(*pair) for name, pair in PAIRS.items()},
    "items.first_rejected": lambda o: o["items"][0].update(admitted=False),
    "items.reasons_one": lambda o: o["items"][0].update(reasons=["r"]),
    "items.admitted_text": lambda o: o["items"][-1].update(admitted="true"),
    "items.admitted_int": lambda o: o["items"][-1].update(admitted=1),
    "items.observed_wide": lambda o: o["items"][-1].update(observed_at=2**40),
    "items.observed_negative": lambda o: o["items"][-1].update(observed_at=-1),
    "items.source_long": lambda o: o["items"][0].update(source_id="s" * 40),
    "items.evidence_int": lambda o: o["items"][0].update(evidence_id=7),
    "items.from_last_int": lambda o: o["items"][0].update(observed_from=3),
    "items.gate_reason": lambda o: o["items"][0].update(gate_reason="g"),
    "sources.twice_long": lambda o: o["sources"].extend(
        [{**o["sources"][0], "source_id": "x" * 40}, {**o["sources"][0], "source_id": "x" * 40}]),
    "sources.last_char": lambda o: o["sources"].append(
        {**o["sources"][0], "source_id": o["sources"][0]["source_id"][:-1] + "~"}),
    "sources.prefix": lambda o: o["sources"].append(
        {**o["sources"][0], "source_id": o["sources"][0]["source_id"][:-1]}),
    "sources.nine_distinct": lambda o: o["sources"].extend(
        [{**o["sources"][0], "source_id": f"s{i}"} for i in range(9)]),
    "sources.nine_twice": lambda o: o["sources"].extend(
        [{**o["sources"][0], "source_id": f"s{i % 8}"} for i in range(9)]),
    "counts.claims_max": lambda o: o.update(claim_count=2**63 - 1),
    "counts.claims_over": lambda o: o.update(claim_count=2**63),
    "counts.admitted_zero_covered": lambda o: o.update(admitted_count=0),
    "counts.provenance_false": lambda o: o.update(provenance_ok=False),
    "counts.last_leaf_over": lambda o: o.update(last_leaf=2**63),
    "counts.chunk_over": lambda o: o.update(chunk=2**63),
    "counts.items_wide": lambda o: o.update(item_count=2**40),
}


#: Edits of the cited chunk's record outside its output (inputs, step_type).
RECORD_EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "record.step_type_extract": lambda r: r.update(step_type="extract"),
    "record.step_type_checks": lambda r: r.update(step_type="checks"),
    "record.inputs_extra": lambda r: r["inputs"].update({"z" * 20: "x"}),
    "record.inputs_extra_first": lambda r: r["inputs"].update(a="x"),
    "record.kind_other": lambda r: r["inputs"].update(kind="check_requirements"),
    "record.requirement_other": lambda r: r["inputs"].update(requirement_id="req_other"),
    "record.requirement_long": lambda r: r["inputs"].update(requirement_id="r" * 40),
}

#: Edits of the contradictions step's own description and output: each begins with
#: the recomputed bytes or differs late (the ends are no longer skipped to).
STEP_EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "step.desc_longer": lambda s: s.update(description=s["description"] + "."),
    "step.desc_shorter": lambda s: s.update(description=s["description"][:-1]),
    # keys sort by their encodings (§2): "z" * 20 after "numeric_tolerance", "a" first
    "step.out_extra_last": lambda s: s["output"].update({"z" * 20: 0}),
    "step.out_extra_first": lambda s: s["output"].update(a=0),
    "step.tolerance_longer": lambda s: s["output"].update(
        numeric_tolerance=s["output"]["numeric_tolerance"] + "1"),
    "step.tolerance_shorter": lambda s: s["output"].update(
        numeric_tolerance=s["output"]["numeric_tolerance"][:-1]),
    "step.conflicts_extra": lambda s: s["output"]["conflicts"].append(0),
    "step.claims_wider": lambda s: s["output"].update(claim_count=s["output"]["claim_count"] + 256),
}


def _indexes(bundle: Bundle) -> tuple[int, int]:
    steps = [decode(s) for s in bundle.steps]
    index = next(i for i, s in enumerate(steps) if s["inputs"]["kind"] == "contradictions")
    return index, int(steps[index]["prior_step_ids"][0][5:]) - 1


#: A numeric group's edits on market 08 alone; the others on both.
STATE_CASES = [(market, name) for name in sorted(STATE_EDITS) for market in MARKETS
               if market == NUMERIC or not name.startswith("pair.")]


@pytest.mark.parametrize(("market", "name"), STATE_CASES)
def test_state_edit(market: str, name: str) -> None:
    bundle = honest(market)
    index, chunk = _indexes(bundle)
    answer = edit_output(_CHAIN, bundle, index, chunk, STATE_EDITS[name],
                         label=f"s37.{name}", counts=COUNTS)
    if answer is not None:
        COUNTS[f"recomputed:{answer[1]}"] += 1


def _edit_record(bundle: Bundle, at: int, edit: Callable[[dict[str, Any]], None]) -> Bundle:
    steps = list(bundle.steps)
    body = copy.deepcopy(decode(steps[at]))
    edit(body)
    steps[at] = encode(body)
    return recommit(bundle, steps=steps)


@pytest.mark.parametrize("name", sorted(RECORD_EDITS))
@pytest.mark.parametrize("market", MARKETS)
def test_cited_record_edit(market: str, name: str) -> None:
    bundle = honest(market)
    index, chunk = _indexes(bundle)
    _CHAIN.compare(_edit_record(bundle, chunk, RECORD_EDITS[name]), index, f"s37.{name}", COUNTS)


@pytest.mark.parametrize("name", sorted(STEP_EDITS))
@pytest.mark.parametrize("market", MARKETS)
def test_step_edit(market: str, name: str) -> None:
    bundle = honest(market)
    index, _ = _indexes(bundle)
    answer = _CHAIN.compare(_edit_record(bundle, index, STEP_EDITS[name]), index,
                            f"s37.{name}", COUNTS)
    assert answer is not None and answer[0], (name, answer)  # every such edit is a lie


def test_s37_outcomes() -> None:
    """The pairs and state edits reach both answers: some recomputed steps report a
    conflict the honest one did not, and malformed states are unexecutable."""
    if not COUNTS:
        pytest.skip("run with the other tests of this file")
    assert COUNTS["recomputed:one_step.match"] >= 20, COUNTS
    assert COUNTS["id:one_step.unexecutable"] >= 15, COUNTS
    assert COUNTS["id:one_step.mismatch"] >= 20, COUNTS
