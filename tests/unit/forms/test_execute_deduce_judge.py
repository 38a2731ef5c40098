"""Python's deduce executor and JudgeProof on chain forms (``por.forms.execute.deduce``,
``.judge``; s40 ``pyexecb``) answer as Python's checks on the CBOR records
(``verify_one_step_proof``, ``verify_judge_proof``), with no EVM and no node: every
fixture market honest and under seeded lies (a cited aggregate's fields, coverage and
evidence, the contradictions step's conflicts, the deduce output, the PromptSpec's
prediction, the map step's variables, the verdict; about half the deduce lies rewritten
consistently by por's ``deduce_step``, the judge lies rejudged), plus carried forms that
are not the cited ones (``proof.citations``) and a last leaf that is not a map step.
The chain's side is ``tests/chain/test_forms_{deduce,judge}.py``.

Cases Python's records check cannot compare (no proof built, ``one_step.invalid_record``,
a record with no form: ``form.none``) are counted, not compared, as there.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from bundle_edits import honest, recommit, steps_of

from por.auditor.steps import deduce_step
from por.bundle.layout import Bundle
from por.challenge.judge_proof import build_judge_proof, verify_judge_proof
from por.challenge.one_step import build_one_step_proof, positions_of, verify_one_step_proof
from por.encoding import decode, encode
from por.errors import PorError
from por.forms import Forms, forms_of
from por.forms.execute import Answer, CitationsFault, execute
from por.forms.execute.judge import FinalStepFault
from por.scenarios import list_scenarios
from por.schemas import DeterministicVerdict, PromptSpec, ReasoningStep

LIES = 6
NUMBERS = ["0", "1", "79", "80", "81", "144.18", "-3", "100.5", "1.50", 5]


def _forms(bundle: Bundle) -> Forms | None:
    try:
        return forms_of(decode(bundle.prompt_spec), [decode(s) for s in bundle.steps],
                        decode(bundle.verdict))
    except PorError as exc:
        assert exc.check_id == "form.none"
        return None


def _deduce_carried(bundle: Bundle, forms: Forms, leaf: int) -> list[int]:
    """The deduce proof's forms: its DEDUCE, COMMON, the first leaf with each cited id."""
    r = forms.size - len(bundle.steps) - 2
    by_id: dict[Any, int] = {}
    for i, raw in enumerate(bundle.steps):
        by_id.setdefault(decode(raw).get("step_id"), i)
    priors = decode(bundle.steps[leaf])["prior_step_ids"]
    return [1 + r + leaf, 0, *(1 + r + by_id[p] for p in priors)]


def _judge_carried(bundle: Bundle, forms: Forms) -> list[int]:
    """The JudgeProof's forms: VERDICT, COMMON, the last leaf's, the summary's extracts."""
    r = forms.size - len(bundle.steps) - 2
    variables = decode(bundle.steps[-1]).get("output", {}).get("evaluation_variables")
    summary = variables.get("source_summary") if isinstance(variables, dict) else None
    wanted = list(dict.fromkeys(s for s in summary if isinstance(s, str))) if isinstance(
        summary, list) else []
    found = positions_of(bundle.evidence, "evidence_id", set(wanted))
    return [forms.size - 1, 0, forms.size - 2, *(1 + r + found[w] for w in wanted if w in found)]


def _on_forms(kind: str, forms: Forms, index: list[int]) -> Answer | str:
    try:
        return execute(kind, [forms.forms[i].form for i in index], index, forms.size)
    except PorError as exc:
        return exc.check_id


def deduce_case(bundle: Bundle, leaf: int) -> tuple[str, object, object]:
    """(class, Python's records answer, Python's answer on forms)."""
    try:
        outcome = verify_one_step_proof(build_one_step_proof(bundle, leaf))
    except PorError:
        return "proof", None, None
    if outcome.reason == "one_step.invalid_record":
        return "invalid_record", None, None
    records = Answer(outcome.won, outcome.reason, outcome.cause or "")
    forms = _forms(bundle)
    if forms is None:
        return "form.none", records, None
    return "compared", records, _on_forms("deduce", forms, _deduce_carried(bundle, forms, leaf))


def judge_case(bundle: Bundle) -> tuple[str, object, object]:
    """(class, Python's records answer, Python's answer on forms)."""
    try:
        outcome = verify_judge_proof(build_judge_proof(bundle))
    except PorError:
        return "proof", None, None
    if outcome.reason == "one_step.invalid_record":
        return "invalid_record", None, None
    records = Answer(outcome.won, outcome.reason)
    forms = _forms(bundle)
    if forms is None:
        return "form.none", records, None
    return "compared", records, _on_forms("judge", forms, _judge_carried(bundle, forms))


def _rewritten(bundle: Bundle, steps: list[bytes], spec: bytes, index: int) -> bytes | None:
    """The deduce step recomputed by por from its (edited) cited steps."""
    try:
        prompt = PromptSpec.from_cbor(spec)
        step = ReasoningStep.from_cbor(steps[index])
        prior = {s.step_id: s for s in (ReasoningStep.from_cbor(steps[i]) for i in range(index))}
        cited = [prior[i] for i in step.prior_step_ids]
        built = deduce_step(prompt, step.step_id, cited[:-1], cited[-1])
        return bytes(built.step.to_record().to_cbor())
    except (PorError, KeyError, IndexError, TypeError, ValueError):
        return None


def _edit_aggregate(step: dict[str, Any], rng: random.Random) -> None:
    out = step["output"]
    fields = out.get("fields") or []
    choice = rng.randrange(6)
    if choice == 0:
        out[rng.choice(["covered", "provenance_ok"])] = rng.choice([True, False])
    elif choice == 1 and len(step["evidence_ids"]) > 1:
        step["evidence_ids"] = step["evidence_ids"][::-1]
    elif fields:
        f = rng.choice(fields)
        which = rng.randrange(4)
        if which == 0 and f.get("kind") == "numeric":
            f["value"] = rng.choice(NUMBERS)
            f["status"] = "selected"
        elif which == 1:
            f["status"] = rng.choice(["selected", "missing", "insufficient", "no_quorum"])
        elif which == 2:
            f["fallback_used"] = not f.get("fallback_used")
        elif isinstance(f.get("votes"), list) and f["votes"]:
            f["votes"] = f["votes"][:-1]
        else:
            f["evidence_ids"] = f.get("evidence_ids", [])[::-1][:1]


def deduce_lie(bundle: Bundle, leaf: int, rng: random.Random) -> Bundle:
    """``bundle`` with a cited step, the deduce step or the prediction edited; half the
    time the deduce step rewritten from it."""
    steps, spec_bytes = list(bundle.steps), bundle.prompt_spec
    step = decode(steps[leaf])
    where = rng.randrange(8)
    if where <= 3:
        target = int(rng.choice(step["prior_step_ids"])[5:]) - 1
        cited = decode(steps[target])
        if cited["inputs"]["kind"] == "aggregate":
            _edit_aggregate(cited, rng)
        else:
            metric = decode(spec_bytes)["prediction_semantics"]["metric"]
            cited["output"]["conflicts"] = [] if cited["output"].get("conflicts") else [
                {"check_id": "contradiction.numeric", "kind": "numeric", "key": metric}]
        steps[target] = encode(cited)
    elif where <= 5:
        out = step["output"]
        choice = rng.randrange(4)
        if choice == 0:
            flag = rng.choice(["conflict_detected", "fallback_used", "insufficient_evidence",
                               "provenance_ok"])
            out[flag] = not out.get(flag)
        elif choice == 1:
            out["numeric_value"] = rng.choice(NUMBERS[:-2])
        elif choice == 2 and len(step["evidence_ids"]) > 1:
            step["evidence_ids"] = step["evidence_ids"][::-1]
        else:
            step["prior_step_ids"] = step["prior_step_ids"][::-1]
        steps[leaf] = encode(step)
    else:
        spec = decode(spec_bytes)
        sem = spec["prediction_semantics"]
        name = rng.choice([k for k in ("threshold", "comparison", "lower", "upper",
                                       "absent_means_no") if k in sem] or ["absent_means_no"])
        sem[name] = {"comparison": rng.choice(["<", ">=", "=="]),
                     "absent_means_no": rng.random() < 0.5}.get(name, rng.choice(NUMBERS[:-2]))
        spec_bytes = encode(spec)
    if rng.random() < 0.5:
        steps[leaf] = _rewritten(bundle, steps, spec_bytes, leaf) or steps[leaf]
    return recommit(bundle, steps=steps, prompt_spec=spec_bytes)


def _rejudged(bundle: Bundle) -> Bundle | None:
    try:
        outcome = verify_judge_proof(build_judge_proof(bundle))
    except PorError:
        return None
    if outcome.recomputed is None:
        return None
    decided = {k: outcome.recomputed.get(k) for k in (
        "market_id", "outcome", "confidence_bps", "resolution_rule_id", "resolution_time")}
    verdict = DeterministicVerdict.from_cbor(bundle.verdict).model_copy(update=decided)
    return recommit(bundle, verdict=verdict.to_cbor())


def judge_lie(bundle: Bundle, rng: random.Random) -> Bundle | None:
    """The map step's variables, the verdict or the confidence policy edited; map and
    policy edits rejudged half the time."""
    where = rng.randrange(3)
    if where == 0:
        verdict = decode(bundle.verdict)
        name = rng.choice(["outcome", "confidence_bps"])
        verdict[name] = rng.choice(["YES", "NO", "INVALID"]) if name == "outcome" else (
            rng.choice([0, 5000, 9000, 10_000]))
        return recommit(bundle, verdict=encode(verdict))
    if where == 1:
        step = decode(bundle.steps[-1])
        v = step["output"]["evaluation_variables"]
        choice = rng.randrange(4)
        if choice == 0:
            flag = rng.choice(["conflict_detected", "fallback_used", "insufficient_evidence",
                               "provenance_ok"])
            v[flag] = not v.get(flag)
        elif choice == 1:
            v["numeric_value"] = rng.choice(NUMBERS[:-2])
        elif choice == 2:
            v["event_observed"] = not v.get("event_observed")
        elif len(v.get("source_summary", [])) > 1:
            v["source_summary"] = v["source_summary"][::-1]
        edited = recommit(bundle, steps=[*bundle.steps[:-1], encode(step)])
    else:
        spec = decode(bundle.prompt_spec)
        policy = spec["confidence_policy"]
        policy[rng.choice(sorted(policy))] = rng.choice([0, 3, 5000, 9999, 10_000])
        spec["conflict_policy"]["on_conflict"] = rng.choice(["invalid", "continue"])
        edited = recommit(bundle, prompt_spec=encode(spec))
    return (_rejudged(edited) or edited) if rng.random() < 0.5 else edited


def _agree(cases: list[tuple[str, tuple[str, object, object]]]) -> Counter[str]:
    seen: Counter[str] = Counter()
    bad = []
    for name, (kind, records, on_forms) in cases:
        seen[kind if records is None else f"{kind}:{records}"] += 1
        if kind == "compared" and records != on_forms:
            bad.append(f"{name}: records {records}, forms {on_forms}")
    assert not bad, bad[:10]
    return seen


@pytest.mark.parametrize("seed", range(2))
def test_deduce_on_forms_answers_as_the_records(seed: int) -> None:
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    cases = []
    for name in list_scenarios():
        bundle = honest(name)
        leaf = steps_of(bundle, "deduce")[0]
        cases.append((name, deduce_case(bundle, leaf)))
        cases += [(f"{name} lie {k}", deduce_case(deduce_lie(bundle, leaf, rng), leaf))
                  for k in range(LIES)]
    seen = _agree(cases)
    compared = {k: n for k, n in seen.items() if k.startswith("compared")}
    assert sum(compared.values()) >= 200, seen
    for answer in ("one_step.match", "one_step.mismatch", "step.citation_mismatch"):
        assert any(answer in k for k in compared), (answer, seen)


@pytest.mark.parametrize("seed", range(2))
def test_judge_on_forms_answers_as_the_records(seed: int) -> None:
    rng = random.Random(100 + seed)  # noqa: S311 - seeded cases, not secrets
    cases = []
    for name in list_scenarios():
        bundle = honest(name)
        cases.append((name, judge_case(bundle)))
        for k in range(LIES):
            lie = judge_lie(bundle, rng)
            if lie is not None:
                cases.append((f"{name} lie {k}", judge_case(lie)))
    seen = _agree(cases)
    compared = {k: n for k, n in seen.items() if k.startswith("compared")}
    assert sum(compared.values()) >= 200, seen
    for answer in ("judge.match", "judge.mismatch"):
        assert any(answer in k for k in compared), (answer, seen)


def test_last_leaf_not_a_map_is_final_step() -> None:
    bundle = honest("63-arithmetic-total-over")
    cut = recommit(bundle, steps=list(bundle.steps[:-1]))
    kind, records, on_forms = judge_case(cut)
    assert (kind, records, on_forms) == ("compared", Answer(True, "judge.final_step"),
                                         Answer(True, "judge.final_step"))


def test_carried_forms_not_the_cited_ones() -> None:
    """A deduce step's carried prior swapped for an uncited step's form, one too few or
    too many: ``Citations(i)``; the judge's extract forms reordered or one missing:
    ``Citations(i)``; form 2 not the last leaf's: ``FinalStep()``."""
    bundle = honest("67-two-of-three-below")
    forms = _forms(bundle)
    assert forms is not None
    leaf = steps_of(bundle, "deduce")[0]
    index = _deduce_carried(bundle, forms, leaf)
    extract = forms.size - len(bundle.steps) - 1  # the first reasoning leaf: an extract
    for position in range(2, len(index)):
        carried = [*index[:position], extract, *index[position + 1:]]
        _citations("deduce", forms, carried, position)
    _citations("deduce", forms, index[:-1], len(index) - 1)
    _citations("deduce", forms, [*index, index[-1]], len(index) + 1)
    judged = _judge_carried(bundle, forms)
    assert len(judged) > 4
    _citations("judge", forms, [*judged[:3], judged[4], judged[3], *judged[5:]], 3)
    _citations("judge", forms, judged[:-1], len(judged) - 1)
    moved = [judged[0], 0, forms.size - 3, *judged[3:]]
    with pytest.raises(FinalStepFault):
        execute("judge", [forms.forms[i].form for i in moved], moved, forms.size)


def _citations(kind: str, forms: Forms, index: list[int], position: int) -> None:
    with pytest.raises(CitationsFault) as caught:
        execute(kind, [forms.forms[i].form for i in index], index, forms.size)
    assert caught.value.position == position, (kind, index)
