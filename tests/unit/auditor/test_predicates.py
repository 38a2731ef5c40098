"""Predicates (SPEC §12.4.1): schema rules, edge vectors and properties.

Edges: equal bounds, inclusive and exclusive bounds, ties of a field
comparison, k-of-n ties and undecided votes, exact text.  Properties: the
verdict is the exact test of the committed values, and a function of the
committed claims only (the same values in differently shaped bodies give the
same deduce step and verdict).  The lean twin accepts exactly what the model
accepts.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from por.auditor import AuditorAgent
from por.encoding import decode, encode
from por.errors import PorError
from por.judge import JudgeAgent
from por.lean.prompt import PromptSpec as LeanPromptSpec
from por.numbers import format_decimal
from por.scenarios import list_scenarios, load_scenario
from por.schemas import EvidenceBundle, PromptSpec


def _spec(name: str, **semantics: Any) -> PromptSpec:
    data = load_scenario(name).prompt_spec.to_json_obj()
    data["prediction_semantics"].update(semantics)
    data["prediction_semantics"] = {k: v for k, v in data["prediction_semantics"].items()
                                    if v is not None}
    return PromptSpec.from_json_obj(data)


def _bodies(name: str, *bodies: Any) -> EvidenceBundle:
    evidence = load_scenario(name).evidence
    items = [item.model_copy(update={"content": json.dumps(body).encode()})
             for item, body in zip(evidence.items, bodies, strict=True)]
    return evidence.model_copy(update={"items": items})


def _run(spec: PromptSpec, evidence: EvidenceBundle) -> tuple[str, dict[str, Any]]:
    trace, _ = AuditorAgent().audit(spec, evidence)
    verdict, _ = JudgeAgent().judge(spec, evidence, trace)
    deduce = next(s for s in trace.steps if s.step_type == "deduce")
    return verdict.outcome, dict(deduce.output)


def _settle(value: Any) -> dict[str, Any]:
    return {"settlements": [{"settle": value}]}


# --- schema rules ----------------------------------------------------------------

REFUSED = [
    ("61-range-settle", {"lower": "150", "upper": "150"}),  # empty: [150, 150)
    ("61-range-settle", {"lower": "151", "upper": "150"}),
    ("61-range-settle", {"comparison": ">"}),
    ("61-range-settle", {"upper": None}),
    ("64-text-equals-award", {"threshold": "1"}),
    ("64-text-equals-award", {"expected_text": None}),
    ("64-text-equals-award", {"absent_means_no": False}),
    ("63-arithmetic-total-over", {"absent_means_no": True}),
    ("63-arithmetic-total-over", {"sources_required": 2}),
    ("63-arithmetic-total-over", {"terms": [{"op": "+", "metric": "home_points"}]}),
    ("62-field-comparison-home-win", {"other_metric": "home_score"}),
    ("62-field-comparison-home-win", {"threshold": "0"}),
    ("62-field-comparison-home-win", {"lower": "0"}),
    ("66-deadline-launch", {"threshold": "1794268800.5"}),
    ("66-deadline-launch", {"threshold": "-1"}),
    ("01-boolean-observed", {"terms": [{"op": "+", "metric": "x"}]}),
    ("03-threshold-gt-boundary", {"expected_text": "x"}),
]


@pytest.mark.parametrize(("name", "change"), REFUSED)
def test_malformed_semantics_are_refused_by_model_and_lean_twin(name: str,
                                                                change: dict[str, Any]) -> None:
    good = _spec(name)
    data = good.to_json_obj()
    data["prediction_semantics"].update(change)
    data["prediction_semantics"] = {k: v for k, v in data["prediction_semantics"].items()
                                    if v is not None}
    with pytest.raises(PorError):
        PromptSpec.from_json_obj(data)
    # The lean twin (verify's fast path) refuses the same bytes.
    raw = decode(good.to_cbor())
    raw["prediction_semantics"] = {**raw["prediction_semantics"], **change}
    raw["prediction_semantics"] = {k: v for k, v in raw["prediction_semantics"].items()
                                   if v is not None}
    data_bytes = encode(raw)
    with pytest.raises(Exception):  # noqa: B017  # lean Reject or SchemaError
        LeanPromptSpec.from_value(decode(data_bytes), data_bytes)


@pytest.mark.parametrize("name", [f"{n:02d}" for n in range(1, 16)] + [
    f"{n}" for n in range(60, 71)])
def test_specs_round_trip_and_lean_agrees(name: str) -> None:
    full = next(n for n in list_scenarios() if n.startswith(name + "-"))
    spec = load_scenario(full).prompt_spec
    data = spec.to_cbor()
    assert PromptSpec.from_cbor(data).to_cbor() == data
    assert LeanPromptSpec.from_value(decode(data), data).to_cbor() == data


def test_original_predicates_keep_their_bytes() -> None:
    """No new key appears in a spec that does not use it (SPEC §4.2)."""
    for name in ("03-threshold-gt-boundary", "01-boolean-observed", "11-fallback-chain"):
        semantics = load_scenario(name).prompt_spec.to_json_obj()["prediction_semantics"]
        assert set(semantics) <= {"target_entity", "predicate", "metric", "comparison",
                                  "threshold", "unit"}
        requirement = load_scenario(name).prompt_spec.to_json_obj()["data_requirements"][0]
        assert "accepted_status_codes" not in requirement


# --- edge vectors ----------------------------------------------------------------

@pytest.mark.parametrize(("lower_inc", "upper_inc", "value", "outcome"), [
    (None, None, "140", "YES"), (None, None, "150", "NO"), (None, True, "150", "YES"),
    (False, None, "140", "NO"), (False, True, "150", "YES"), (None, None, "149.999", "YES"),
    (None, None, "139.999", "NO"),
])
def test_range_bounds(lower_inc: bool | None, upper_inc: bool | None, value: str,
                      outcome: str) -> None:
    spec = _spec("61-range-settle", lower_inclusive=lower_inc, upper_inclusive=upper_inc)
    assert _run(spec, _bodies("61-range-settle", _settle(value)))[0] == outcome


def test_equal_bounds_closed_range_is_one_point() -> None:
    spec = _spec("61-range-settle", lower="145", upper="145", upper_inclusive=True)
    assert _run(spec, _bodies("61-range-settle", _settle(145)))[0] == "YES"
    assert _run(spec, _bodies("61-range-settle", _settle("145.0001")))[0] == "NO"


@pytest.mark.parametrize(("comparison", "home", "away", "outcome"), [
    (">", 2, 2, "NO"), (">=", 2, 2, "YES"), ("==", 2, 2, "YES"), ("<", 1, 2, "YES"),
    (">", "2.5", "2.49", "YES"),
])
def test_field_comparison_ties(comparison: str, home: Any, away: Any, outcome: str) -> None:
    spec = _spec("62-field-comparison-home-win", comparison=comparison)
    body = {"match": {"status": "FINISHED", "home": {"score": home}, "away": {"score": away}}}
    out, deduce = _run(spec, _bodies("62-field-comparison-home-win", body))
    assert out == outcome
    assert Decimal(deduce["numeric_value"]) == Decimal(str(home)) - Decimal(str(away))


def test_arithmetic_difference_term() -> None:
    spec = _spec("63-arithmetic-total-over", terms=[{"op": "-", "metric": "away_points"}],
                 comparison=">=", threshold="3")
    body = {"game": {"homeTeam": {"points": 108}, "awayTeam": {"points": 105}}}
    out, deduce = _run(spec, _bodies("63-arithmetic-total-over", body))
    assert (out, deduce["numeric_value"]) == ("YES", "3")


def test_arithmetic_needs_every_term() -> None:
    body = {"game": {"homeTeam": {"points": 108}, "awayTeam": {}}}
    out, deduce = _run(load_scenario("63-arithmetic-total-over").prompt_spec,
                       _bodies("63-arithmetic-total-over", body))
    assert out == "INVALID" and deduce["insufficient_evidence"] is True


@pytest.mark.parametrize(("k", "closes", "outcome"), [
    (2, (79, 81, 81), "NO"),         # 2 fail > 3 - 2
    (2, (79, 79, 81), "YES"),
    (3, (79, 79, 81), "NO"),
    (1, (81, 81, 79), "YES"),
    (1, (81, 81, 81), "NO"),
    (2, (79, "80", 79), "YES"),      # 80 is not below 80
    (3, (79, 79, 79), "YES"),
])
def test_k_of_n_votes(k: int, closes: tuple[Any, ...], outcome: str) -> None:
    spec = _spec("67-two-of-three-below", sources_required=k)
    evidence = _bodies("67-two-of-three-below", *({"close": c} for c in closes))
    out, deduce = _run(spec, evidence)
    assert out == outcome
    assert deduce["conflict_detected"] is False  # sources vote on the outcome


def test_k_of_n_undecided_with_a_missing_source() -> None:
    spec = load_scenario("67-two-of-three-below").prompt_spec
    evidence = _bodies("67-two-of-three-below", {"close": 79}, {"close": 81}, {"x": 1})
    out, deduce = _run(spec, evidence)
    assert (out, deduce["metric_status"]) == ("INVALID", "votes_undecided")


def test_text_equality_is_exact_code_points() -> None:
    spec = load_scenario("64-text-equals-award").prompt_spec
    for title, outcome in (("The Glass Orchard", "YES"), ("The Glass Orchard ", "NO"),
                           ("The Glass Orchard\u0301", "NO"), ("THE GLASS ORCHARD", "NO")):
        body = {"category": {"winner": {"title": title}}}
        assert _run(spec, _bodies("64-text-equals-award", body))[0] == outcome


def test_absent_without_the_flag_is_invalid() -> None:
    spec = _spec("65-null-means-no", absent_means_no=None)
    assert _run(spec, load_scenario("65-null-means-no").evidence)[0] == "INVALID"


def test_precondition_invalid_and_no() -> None:
    body = {"match": {"status": "ABANDONED", "home": {"score": 2}, "away": {"score": 0}}}
    spec = load_scenario("62-field-comparison-home-win").prompt_spec
    out, deduce = _run(spec, _bodies("62-field-comparison-home-win", body))
    assert (out, deduce["metric_status"]) == ("INVALID", "precondition_unmet")
    no = _spec("62-field-comparison-home-win", preconditions=[
        {"key": "match_status", "equals": "FINISHED", "otherwise": "NO"}])
    out, deduce = _run(no, _bodies("62-field-comparison-home-win", body))
    assert out == "NO" and "numeric_value" not in deduce


# --- properties --------------------------------------------------------------------

DECIMALS = st.decimals(min_value=-10**6, max_value=10**6, places=3, allow_nan=False,
                       allow_infinity=False)


@settings(max_examples=40, deadline=None)
@given(value=DECIMALS, low=DECIMALS, width=st.decimals(min_value=0, max_value=1000, places=2),
       lower_inc=st.booleans(), upper_inc=st.booleans())
def test_range_verdict_is_the_exact_test(value: Decimal, low: Decimal, width: Decimal,
                                         lower_inc: bool, upper_inc: bool) -> None:
    high = low + width
    if low == high and not (lower_inc and upper_inc):
        return  # an empty range is refused by the schema
    spec = _spec("61-range-settle", lower=_text(low), upper=_text(high),
                 lower_inclusive=lower_inc, upper_inclusive=upper_inc)
    inside = (value >= low if lower_inc else value > low) and (
        value <= high if upper_inc else value < high)
    out, _ = _run(spec, _bodies("61-range-settle", _settle(_text(value))))
    assert out == ("YES" if inside else "NO")


@settings(max_examples=30, deadline=None)
@given(home=st.integers(0, 300), away=st.integers(0, 300), line=DECIMALS,
       pad=st.dictionaries(st.sampled_from(["venue", "q1", "attendance", "note"]),
                           st.integers(0, 9), max_size=4))
def test_verdict_is_a_function_of_the_claims(home: int, away: int, line: Decimal,
                                             pad: dict[str, int]) -> None:
    spec = _spec("63-arithmetic-total-over", threshold=_text(line))
    plain = {"game": {"homeTeam": {"points": home}, "awayTeam": {"points": away}}}
    padded = {"meta": pad, "game": {"awayTeam": {**pad, "points": away},
                                    "homeTeam": {"points": home, **pad}}}
    first = _run(spec, _bodies("63-arithmetic-total-over", plain))
    second = _run(spec, _bodies("63-arithmetic-total-over", padded))
    assert first[0] == second[0] == ("YES" if home + away > line else "NO")
    assert first[1] == second[1]


def _text(value: Decimal) -> str:
    return format_decimal(value)
