"""The admission gate (seed 001): four fail-fast checks, in order, with stable ids."""

from __future__ import annotations

import dataclasses
import unicodedata

import pytest
from pydantic import ValidationError

from por.gate import (
    GATE_CHECK_IDS,
    MAX_LISTED_IDS,
    WHITE_SPACE,
    AgentResult,
    GateDecision,
    Hypothesis,
    admit,
    is_blank,
)

VALID = frozenset({"ev_2", "ev_1"})


def hyp(statement: str = "price=101.5", ids: list[str] | None = None,
        confidence: int = 9000) -> Hypothesis:
    return Hypothesis(statement=statement,
                      supporting_evidence_ids=["ev_1"] if ids is None else ids,
                      confidence_bps=confidence)


def test_valid_result_is_admitted() -> None:
    decision = admit(AgentResult(agent_name="src_a", hypotheses=[hyp(), hyp(ids=["ev_2"])]),
                     VALID)
    assert decision == GateDecision(admitted=True, check_id=None, reason=None)


def test_zero_hypotheses_is_valid() -> None:
    # Seed 001 check 2 note: an agent that found nothing relevant is legitimate.
    assert admit(AgentResult(agent_name="src_a", hypotheses=[]), VALID).admitted


@pytest.mark.parametrize("name", ["", "   ", "\t\n"])
def test_empty_or_blank_agent_name(name: str) -> None:
    decision = admit(AgentResult(agent_name=name, hypotheses=[hyp()]), VALID)
    assert (decision.admitted, decision.check_id) == (False, "gate.agent_name")


def test_uncited_hypothesis() -> None:
    decision = admit(AgentResult(agent_name="a", hypotheses=[hyp(), hyp("orphan", ids=[])]),
                     VALID)
    assert (decision.admitted, decision.check_id) == (False, "gate.uncited_claim")
    assert decision.reason == "Hypothesis 'orphan' cites no evidence"


def test_unknown_evidence_lists_valid_ids_sorted() -> None:
    decision = admit(AgentResult(agent_name="a", hypotheses=[hyp("DB Exhaustion",
                                                                 ids=["ev_999"])]), VALID)
    assert decision.check_id == "gate.unknown_evidence"
    assert decision.reason == ("Hypothesis 'DB Exhaustion' cites unknown evidence id "
                               "'ev_999'. Valid IDs: ['ev_1', 'ev_2']")


def test_unknown_evidence_reason_is_bounded() -> None:
    valid = frozenset(f"ev_{n:03d}" for n in range(100))
    decision = admit(AgentResult(agent_name="a", hypotheses=[hyp(ids=["nope"])]), valid)
    assert decision.reason is not None
    assert decision.reason.endswith(f"(and {100 - MAX_LISTED_IDS} more)")
    assert "'ev_000'" in decision.reason and "'ev_099'" not in decision.reason


def test_pydantic_refuses_out_of_range_confidence() -> None:
    with pytest.raises(ValidationError):
        Hypothesis(statement="x", supporting_evidence_ids=["ev_1"], confidence_bps=10_001)


@pytest.mark.parametrize("confidence", [10_001, -1, True, 0.5, "9000"])
def test_model_construct_bypass_is_caught(confidence: object) -> None:
    # Defence in depth (seed 001 check 4): model_construct skips validation.
    rogue = Hypothesis.model_construct(statement="x", supporting_evidence_ids=["ev_1"],
                                       confidence_bps=confidence)  # type: ignore[arg-type]
    decision = admit(AgentResult.model_construct(agent_name="a", hypotheses=[rogue]), VALID)
    assert (decision.admitted, decision.check_id) == (False, "gate.confidence_range")


@pytest.mark.parametrize("confidence", [0, 10_000])
def test_confidence_bounds_are_inclusive(confidence: int) -> None:
    assert admit(AgentResult(agent_name="a", hypotheses=[hyp(confidence=confidence)]),
                 VALID).admitted


def test_first_failure_short_circuits() -> None:
    # Every check would fail; only the first (agent name) is reported.
    rogue = Hypothesis.model_construct(statement="x", supporting_evidence_ids=[],
                                       confidence_bps=-5)
    result = AgentResult.model_construct(agent_name=" ", hypotheses=[rogue])
    assert admit(result, VALID).check_id == "gate.agent_name"
    named = AgentResult.model_construct(agent_name="a", hypotheses=[rogue])
    assert admit(named, VALID).check_id == "gate.uncited_claim"
    cites = Hypothesis.model_construct(statement="x", supporting_evidence_ids=["zz"],
                                       confidence_bps=-5)
    assert admit(AgentResult.model_construct(agent_name="a", hypotheses=[cites]),
                 VALID).check_id == "gate.unknown_evidence"


def test_check_order_and_decision_type() -> None:
    assert GATE_CHECK_IDS == ("gate.agent_name", "gate.uncited_claim",
                              "gate.unknown_evidence", "gate.confidence_range")
    decision = admit(AgentResult(agent_name="a", hypotheses=[]), VALID)
    with pytest.raises(dataclasses.FrozenInstanceError):
        decision.admitted = False  # type: ignore[misc]
    with pytest.raises(ValidationError):  # wire objects are frozen pydantic models
        AgentResult(agent_name="a", hypotheses=[], extra_field=1)  # type: ignore[call-arg]


# --- SPEC §12.4: "blank" is Unicode's White_Space, not a language's strip() ---


def test_white_space_is_unicode_white_space_property() -> None:
    # The 25 code points of PropList.txt's White_Space (Unicode 15).
    assert len(WHITE_SPACE) == 25
    assert all(unicodedata.category(ch) in {"Zs", "Zl", "Zp", "Cc"} for ch in WHITE_SPACE)


def test_python_strip_and_javascript_trim_disagree_with_spec() -> None:
    for ch in "\x1c\x1d\x1e\x1f":  # Python strips these (isspace), Unicode does not
        assert ch.strip() == ""
        assert not is_blank(ch)
    assert "\ufeff".strip() == "\ufeff"  # JavaScript trims U+FEFF; neither do we
    assert not is_blank("\ufeff")
    assert is_blank("\u3000\u2028 \t") and is_blank("")
    assert admit(AgentResult(agent_name="\x1f", hypotheses=[hyp()]), VALID).admitted
