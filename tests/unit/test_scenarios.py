"""The bundled scenarios (fixtures/markets) through the real auditor and judge.

Each scenario's ``expected.json`` pins the outcome, the deciding rule id and
the confidence in basis points; the pipeline must produce exactly those.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from por.auditor import AuditorAgent
from por.errors import PorError
from por.judge import JudgeAgent
from por.scenarios import FILES, ExpectedVerdict, list_scenarios, load_scenario
from por.schemas import EvidenceBundle, load_json

MARKETS = Path(__file__).resolve().parents[2] / "fixtures" / "markets"
NAMES = list_scenarios()
#: Optional per scenario: a README and evidence that flips the verdict (issue 23 item 6).
COUNTERFACTUAL = ("counterfactual_evidence.json", "counterfactual_expected.json")
OPTIONAL = ("README.md", *COUNTERFACTUAL)


def test_at_least_ten_scenarios_cover_the_rules() -> None:
    assert len(NAMES) >= 10
    rules = {load_scenario(n).expected.resolution_rule_id for n in NAMES}
    assert {"R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE"} <= rules
    comparisons = {load_scenario(n).prompt_spec.prediction_semantics.comparison for n in NAMES}
    assert {">", ">=", "<", "<=", "=="} <= comparisons


def _verdict(scenario: Any, evidence: EvidenceBundle, expected: ExpectedVerdict) -> Any:
    trace, _ = AuditorAgent().audit(scenario.prompt_spec, evidence)
    verdict, result = JudgeAgent().judge(scenario.prompt_spec, evidence, trace)
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        expected.outcome, expected.resolution_rule_id, expected.confidence_bps)
    assert result.ok is (verdict.outcome != "INVALID")
    return verdict


@pytest.mark.parametrize("name", [n for n in NAMES if (MARKETS / n / COUNTERFACTUAL[0]).is_file()])
def test_counterfactual_flips_the_verdict(name: str) -> None:
    scenario = load_scenario(name)
    folder = MARKETS / name
    evidence = EvidenceBundle.from_json_obj(load_json((folder / COUNTERFACTUAL[0]).read_bytes()))
    expected = ExpectedVerdict.model_validate(
        load_json((folder / COUNTERFACTUAL[1]).read_bytes()), strict=True)
    assert evidence.market_id == scenario.prompt_spec.market.market_id
    assert expected.outcome != scenario.expected.outcome
    _verdict(scenario, evidence, expected)


def test_corpus_markets_have_a_readme_and_a_counterfactual() -> None:
    # Issue 23 item 6: at least 40 markets over at least 10 categories, each with a
    # README (category, plain-English criterion, verdict) and a counterfactual; from
    # 40 on they are real-shaped (a value form of SPEC §12.1.5-§12.1.8 or a
    # predicate of §12.4.1).
    assert len(NAMES) >= 40 and len([n for n in NAMES if n[:2] >= "40"]) >= 25
    categories = set()
    for name in NAMES:
        assert all((MARKETS / name / f).is_file() for f in OPTIONAL)
        readme = (MARKETS / name / "README.md").read_text(encoding="utf-8")
        categories.add(readme.split("**Category**: ", 1)[1].split(".", 1)[0])
    assert len(categories) >= 10, categories


@pytest.mark.parametrize("name", NAMES)
def test_scenario_verdict(name: str) -> None:
    scenario = load_scenario(name)
    trace, _ = AuditorAgent().audit(scenario.prompt_spec, scenario.evidence)
    verdict, result = JudgeAgent().judge(scenario.prompt_spec, scenario.evidence, trace)
    expected = scenario.expected
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        expected.outcome, expected.resolution_rule_id, expected.confidence_bps)
    assert verdict.market_id == scenario.prompt_spec.market.market_id
    assert result.ok is (verdict.outcome != "INVALID")
    # Replaying the whole pipeline gives the same verdict bytes.
    trace_again, _ = AuditorAgent().audit(scenario.prompt_spec, scenario.evidence)
    again, _ = JudgeAgent().judge(scenario.prompt_spec, scenario.evidence, trace_again)
    assert again.to_cbor() == verdict.to_cbor()


@pytest.mark.parametrize("name", NAMES)
def test_scenario_files_are_tidy(name: str) -> None:
    folder = MARKETS / name
    names = {p.name for p in folder.iterdir()}
    assert set(FILES) <= names <= {*FILES, *OPTIONAL}
    assert (COUNTERFACTUAL[0] in names) is (COUNTERFACTUAL[1] in names)
    for file in sorted(names - {"README.md"}):
        text = (folder / file).read_text(encoding="utf-8")
        # Two-space indent, trailing newline, no float anywhere in the fixtures.
        assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
        assert _floats(json.loads(text, parse_float=_Float)) == []
    scenario = load_scenario(name)
    assert scenario.evidence.market_id == scenario.prompt_spec.market.market_id
    window = scenario.prompt_spec.market.resolution_window
    assert 1_767_225_600 <= window.start <= window.end < 1_798_761_600  # inside 2026 (UTC)


class _Float(str):
    """Marks a JSON number with a fraction or exponent (decimals must be strings)."""


def _floats(value: object) -> list[object]:
    if isinstance(value, dict):
        return [n for v in value.values() for n in _floats(v)]
    if isinstance(value, list):
        return [n for v in value for n in _floats(v)]
    return [value] if isinstance(value, _Float) else []


def test_readme_lists_every_scenario() -> None:
    readme = (MARKETS / "README.md").read_text(encoding="utf-8")
    for name in NAMES:
        assert f"`{name}`" in readme


@pytest.mark.parametrize("name", ["99-missing", "../judge", "01-boolean-observed/..", ""])
def test_unknown_scenario_is_refused(name: str) -> None:
    with pytest.raises(PorError) as info:
        load_scenario(name)
    assert info.value.check_id == "scenario.unknown"
