"""A lying bundle whose ``map`` step is forged (issue 24 item 2): the trace's last
step reports ``event_observed`` flipped, the verdict is the judge's on the forged
trace, every commitment is recomputed. Full replay rejects it at the map step, so
``por verify --challenges`` writes that step's OneStepProof (won
``one_step.mismatch``), which the registry re-executes (SPEC §14.8)."""

from __future__ import annotations

from bundle_edits import honest, recommit

from por.bundle import build
from por.bundle.layout import Bundle
from por.judge import JudgeAgent
from por.scenarios import load_scenario
from por.schemas import DeterministicVerdict, ReasoningStep, ReasoningTrace

#: A fixture market decided by ``event_observed`` (the map step's flip changes it).
MARKET = "64-text-equals-award"


def lying_map(name: str = MARKET) -> tuple[Bundle, Bundle]:
    """(the honest bundle, the bundle with its map step's ``event_observed`` flipped
    and the judge's verdict on that trace)."""
    scenario = load_scenario(name)
    bundle = honest(name)
    steps = [ReasoningStep.from_cbor(s) for s in bundle.steps]
    last = steps[-1]
    variables = dict(last.output["evaluation_variables"])
    variables["event_observed"] = not variables["event_observed"]
    steps[-1] = last.model_copy(update={"output": {"evaluation_variables": variables}})
    trace = build(scenario.prompt_spec, scenario.evidence).trace
    forged = ReasoningTrace(trace_id=trace.trace_id, market_id=trace.market_id,
                            policy=trace.policy, steps=steps)
    verdict, _ = JudgeAgent().judge(scenario.prompt_spec, scenario.evidence, forged)
    honest_verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    assert verdict.outcome != honest_verdict.outcome, "the flip must change the verdict"
    return bundle, recommit(bundle, steps=[s.to_cbor() for s in steps],
                            verdict=verdict.to_cbor())
