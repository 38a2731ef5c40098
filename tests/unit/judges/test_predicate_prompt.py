"""A locked judge's prompt states the predicate the deterministic judge applies.

The event definition (SPEC §15.3) gains one line per predicate feature beyond
``event_observed`` and a plain ``numeric_threshold`` (``por.predicates.describe``);
a spec that uses none of them renders exactly as before (the committed judgement
fixtures, one recorded from a real model, keep their bytes:
tests/vectors/test_judgement_fixtures.py).
"""

from __future__ import annotations

import pytest

from por.bundle import build_bundle
from por.locked_judges.render import subject_fields
from por.locked_judges.subjects import subject_from_bundle
from por.predicates.describe import predicate_lines
from por.scenarios import list_scenarios, load_scenario

EXPECTED = {
    "61-range-settle": ["Rule (numeric_range): YES iff 140 <= settle < 150 USD/bbl."],
    "62-field-comparison-home-win": [
        "Rule (field_comparison): YES iff home_score > away_score.",
        'Precondition: match_status must equal "FINISHED"; otherwise the answer is INVALID.'],
    "63-arithmetic-total-over": [
        "Rule (terms): YES iff home_points + away_points > 210.5 points."],
    "64-text-equals-award": [
        'Rule (text_equals): YES iff the text winner equals "The Glass Orchard" exactly '
        "(same characters and case)."],
    "65-null-means-no": [
        "Rule (timestamp_threshold): YES iff the time touchdown_at is < 1794700800 "
        "(Unix seconds, UTC).",
        "Absent means NO: a source that answers without touchdown_at (missing or null) "
        "decides NO, not INVALID."],
    "67-two-of-three-below": [
        "Sources required: YES iff at least 2 sources each satisfy the rule; NO iff so "
        "many fail that it cannot be reached; otherwise INVALID."],
    "68-precondition-no": [
        'Rule (text_equals): YES iff the text decision equals "cut" exactly '
        "(same characters and case).",
        'Precondition: meeting_status must equal "HELD"; otherwise the answer is NO.'],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_predicate_is_described_in_the_prompt(name: str) -> None:
    scenario = load_scenario(name)
    subject = subject_from_bundle(build_bundle(scenario.prompt_spec, scenario.evidence))
    definition = subject_fields(subject)["event_definition"]
    assert definition == "\n".join([scenario.prompt_spec.market.event_definition,
                                    *EXPECTED[name]])


def test_every_predicate_feature_has_a_line() -> None:
    text = "\n".join(line for name in list_scenarios()
                     for line in predicate_lines(load_scenario(name).prompt_spec
                                                 .prediction_semantics))
    for feature in ("numeric_range", "field_comparison", "terms", "text_equals",
                    "timestamp_threshold", "Absent means NO", "Sources required",
                    "Precondition"):
        assert feature in text


@pytest.mark.parametrize("name", [n for n in list_scenarios() if n < "16"])
def test_older_predicates_add_nothing(name: str) -> None:
    """event_observed and plain numeric_threshold: the prompt keeps its bytes."""
    assert predicate_lines(load_scenario(name).prompt_spec.prediction_semantics) == []
