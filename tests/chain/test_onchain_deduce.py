"""The ``deduce`` step re-executed on chain (SPEC §12.4.1, §12.5.6, §14.8) agrees with
``por check-proof``.

``PorDeduceExec.execute`` (the committed build, in revm) and the Python library get the
same ``por.OneStepProof/1`` bytes of a deduce step and must give the same WON/LOST and
check id. Cases: the deduce step of every fixture market (markets 52-54 and 60-70 cover
the predicates) and of generated markets, honest (lost ``one_step.match``), and forged
bundles (every commitment recomputed): the deduce output edited (each key changed,
dropped, added, ill-typed; the description, citations), a cited aggregate or the
contradictions step edited (edge decimals: 64 characters, 62 fractional digits, values
at the threshold and at a range's ends, sums past 64 characters; statuses, votes,
evidence, shapes), the PromptSpec's read fields changed (valid and malformed). About
half the forgeries rewrite the deduce step from its edited inputs with por's own
``deduce_step``, so consistent steps (lost) are compared as often as lies (won).
At least 2 500 proofs are compared (``test_deduce_case_count``, last).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bundle_edits import honest, recommit
from exec_support import (
    CODE_LIMIT,
    OUTCOMES,
    ExecChecker,
    assert_case_count,
    every_market,
    generated_cases,
    generated_market,
)
from proof_check_support import python_answer
from test_onchain_steps import edit_variables

from por.auditor.steps import deduce_step
from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode
from por.errors import PorError
from por.scenarios import list_scenarios
from por.schemas import PromptSpec, ReasoningStep

COUNTS: Counter[str] = Counter()
FORGED = 64
_CHAIN = ExecChecker("PorDeduceExec")

#: Values a forger may give a numeric field (and the bounds of the spec, added per case).
NUMBERS = ["0", "1", "-1", "5.5", "79.99", "80", "140", "150", "144.18", "210.5", "9" * 64,
           "-" + "9" * 63, "0." + "0" * 61 + "1", "-0." + "0" * 60 + "1", "1" + "0" * 63,
           "5" + "0" * 62 + ".5", "0.5", "-0.5", "1.50", "-0", "x", 7, True]
STATUSES = ["selected", "missing", "insufficient", "no_quorum", "conflict", "other", 3]
TEXTS = ["Maya Okafor", "HELD", "cut", "CERTIFIED", "FINISHED", "The Glass Orchard",
         "the glass orchard", "", 5]
STAMPS: list[Any] = [0, 1794091260, 1794268800, 1794700800, 1794787200, 2**63 - 1, 2**63,
                     -1, "1794091260", True]


def _kinds(bundle: Bundle) -> list[str | None]:
    return [decode(s).get("inputs", {}).get("kind") for s in bundle.steps]


def _deduce(bundle: Bundle) -> int:
    return max(i for i, k in enumerate(_kinds(bundle)) if k == "deduce")


def _value_for(kind: str, spec: dict[str, Any], rng: random.Random) -> Any:
    sem = spec["prediction_semantics"]
    if kind == "numeric":
        bounds = [sem[k] for k in ("threshold", "lower", "upper") if k in sem]
        return rng.choice(NUMBERS + bounds * 3)
    if kind == "timestamp":
        whole = str(sem.get("threshold", "")).isdigit()
        return rng.choice(STAMPS + ([int(sem["threshold"])] * 3 if whole else []))
    if kind == "text":
        extra = [sem.get("expected_text", "")] + [p["equals"] for p in sem.get("preconditions", [])]
        return rng.choice(TEXTS + extra * 2)
    return rng.choice([True, False, True, "true", 1])


def edit_field(field: dict[str, Any], spec: dict[str, Any], rng: random.Random,
               ids: list[str]) -> None:
    """One edit of an aggregate's field map."""
    edit = rng.randrange(9)
    kind = field.get("kind", "numeric")
    if edit <= 2:
        field["value"] = _value_for(str(kind), spec, rng)
        if rng.random() < 0.5:
            field["status"] = "selected"
    elif edit == 3:
        field["status"] = rng.choice(STATUSES)
    elif edit == 4:
        field["fallback_used"] = rng.choice([True, False, 1])
    elif edit == 5:
        field["evidence_ids"] = rng.choice([[], ids[:1], ids[-1:], ["e_new"], [1], "e1"])
    elif edit == 6:
        votes = field.get("votes")
        if isinstance(votes, list) and votes and rng.random() < 0.7:
            vote = rng.choice(votes)
            choice = rng.randrange(4)
            if choice == 0:
                vote["value"] = _value_for(str(kind), spec, rng)
            elif choice == 1:
                vote["evidence_id"] = rng.choice([*ids, "e_new", 3])
            elif choice == 2:
                votes.append(dict(vote))
            else:
                votes.pop()
        else:
            field["votes"] = rng.choice([[], "v", [1]])
    elif edit == 7:
        field["kind"] = rng.choice(["numeric", "text", "boolean", "timestamp", 4])
    else:
        field.pop(rng.choice(["key", "kind", "status", "fallback_used", "evidence_ids",
                              "value"]), None)


def edit_aggregate(step: dict[str, Any], spec: dict[str, Any], rng: random.Random,
                   ids: list[str]) -> None:
    output = step["output"]
    fields = output.get("fields")
    edit = rng.randrange(10)
    if edit <= 5 and isinstance(fields, list) and fields:
        edit_field(rng.choice(fields), spec, rng, ids)
    elif edit == 6:
        output[rng.choice(["covered", "provenance_ok"])] = rng.choice([True, False, False, 0])
    elif edit == 7 and isinstance(fields, list) and len(fields) >= 2:
        fields.reverse()
    elif edit == 8:
        output.pop(rng.choice(["covered", "provenance_ok", "fields"]), None)
    else:
        step["evidence_ids"] = rng.choice([ids[:1], list(reversed(step["evidence_ids"])),
                                           step["evidence_ids"] + step["evidence_ids"][:1]])


def edit_conflicts(step: dict[str, Any], spec: dict[str, Any], rng: random.Random) -> None:
    sem = spec["prediction_semantics"]
    conflicts = step["output"].get("conflicts")
    keys = [sem["metric"], *(t["metric"] for t in sem.get("terms", [])),
            *(p["key"] for p in sem.get("preconditions", []))]
    edit = rng.randrange(4)
    if edit <= 1 and isinstance(conflicts, list):
        conflicts.append({"check_id": "contradiction.numeric", "kind": rng.choice(
            ["numeric", "boolean", "text", "timestamp"]), "key": rng.choice(keys)})
    elif edit == 2:
        step["output"]["conflicts"] = rng.choice([[], [{"kind": 1, "key": "x"}], ["c"], 0])
    else:
        step["output"].pop("conflicts", None)


#: Edits of the PromptSpec fields deduce reads: (path, values), valid and malformed.
SPEC_EDITS: dict[str, list[Any]] = {
    "threshold": ["80", "79.99", "5.5", "0", "-1", "1794268800", "1.50", "-0", "x", 5],
    "comparison": [">", ">=", "<", "<=", "==", "=>", 1],
    "lower": ["140", "144.18", "0", "01"], "upper": ["150", "144.18", "1e3"],
    "lower_inclusive": [True, False, 1], "upper_inclusive": [True, False, "no"],
    "expected_text": ["cut", "Maya Okafor", "", 3],
    "absent_means_no": [True, False],
    "sources_required": [1, 2, 3, 4, 0, 65],
    "metric": ["", "x" * 129, 5],
    "predicate": ["numeric_guess", 1],
}


def edit_spec(spec: dict[str, Any], rng: random.Random) -> None:
    sem = spec["prediction_semantics"]
    present = [k for k in SPEC_EDITS if k in sem]
    if rng.random() < 0.15:
        requirement = rng.choice(spec["data_requirements"])
        choice = rng.randrange(3)
        if choice == 0:
            requirement["selection_policy"]["strategy"] = rng.choice(
                ["single_best", "fallback_chain", "multi_source_quorum", "best"])
        elif choice == 1:
            requirement["requirement_id"] = rng.choice(["r_other", ""])
        else:
            requirement["source_targets"] = requirement["source_targets"][:1]
        return
    name = rng.choice(present)
    sem[name] = rng.choice(SPEC_EDITS[name])


def edit_deduce(step: dict[str, Any], rng: random.Random, ids: list[str]) -> None:
    edit = rng.randrange(12)
    output = step["output"]
    if edit <= 5:
        edit_variables(output, rng, ids)
    elif edit == 6:
        output[rng.choice(["predicate", "metric", "metric_status"])] = rng.choice(
            ["numeric_threshold", "close", "selected", "missing", "votes_undecided", 1])
    elif edit == 7:
        output["uncovered_requirements"] = rng.choice([[], ["r0"], "r0", [1]])
    elif edit == 8:
        step["description"] = rng.choice([step["description"] + " ", "deduce", ""])
    elif edit == 9:
        step["evidence_ids"] = rng.choice([[], list(reversed(step["evidence_ids"])),
                                           step["evidence_ids"] + ids[:1]])
    elif edit == 10:
        priors = step["prior_step_ids"]
        step["prior_step_ids"] = rng.choice([priors[:-1], list(reversed(priors)),
                                             priors + priors[-1:], priors[-1:]])
    else:
        output.pop(rng.choice(["predicate", "metric", "metric_status",
                               "uncovered_requirements"]), None)


def rewritten(spec_bytes: bytes, steps: list[bytes], index: int) -> bytes | None:
    """The deduce step at ``index`` recomputed from the (edited) steps it cites."""
    try:
        spec = PromptSpec.from_cbor(spec_bytes)
        step = ReasoningStep.from_cbor(steps[index])
        prior = {s.step_id: s for s in (ReasoningStep.from_cbor(steps[i]) for i in range(index))}
        cited = [prior[i] for i in step.prior_step_ids]
        built = deduce_step(spec, step.step_id, cited[:-1], cited[-1])
        return bytes(built.step.to_record().to_cbor())
    except (PorError, KeyError, IndexError, TypeError, ValueError):
        return None


def forge(bundle: Bundle, rng: random.Random) -> tuple[Bundle, int]:
    """The bundle with its deduce step, a step it cites or the PromptSpec edited (half
    the time the deduce step recomputed from its edited inputs), recommitted."""
    steps = list(bundle.steps)
    index = _deduce(bundle)
    spec = decode(bundle.prompt_spec)
    spec_bytes = bundle.prompt_spec
    ids = [decode(e)["evidence_id"] for e in bundle.evidence]
    cited = decode(steps[index])["prior_step_ids"]
    where = rng.randrange(10)
    if where <= 2:
        step = decode(steps[index])
        edit_deduce(step, rng, ids)
        steps[index] = encode(step)
    elif where <= 7:
        target = int(rng.choice(cited)[5:]) - 1
        step = decode(steps[target])
        if step["inputs"]["kind"] == "aggregate":
            edit_aggregate(step, spec, rng, ids)
        else:
            edit_conflicts(step, spec, rng)
        steps[target] = encode(step)
    else:
        edit_spec(spec, rng)
        spec_bytes = encode(spec)
    if where > 2 and rng.random() < 0.5:
        steps[index] = rewritten(spec_bytes, steps, index) or steps[index]
    return recommit(bundle, steps=steps, prompt_spec=spec_bytes), index


def compare(bundle: Bundle, index: int, case: str) -> None:
    answer = _CHAIN.compare(bundle, index, case, COUNTS)
    # which rule of §12.4.1 decided the consistent step
    if answer is not None and answer[1] == "one_step.match":
        output = decode(bundle.steps[index])["output"]
        COUNTS[f"status:{output['metric_status']}"] += 1
        COUNTS[f"numeric:{len(output.get('numeric_value', ''))}"] += 1


def exercise(bundle: Bundle, rng: random.Random, forged: int) -> None:
    compare(bundle, _deduce(bundle), "deduce.honest")
    for _ in range(forged):
        forged_bundle, index = forge(bundle, rng)
        compare(forged_bundle, index, "deduce.forged")


def test_deduce_on_every_fixture_market() -> None:
    every_market(exercise, 2024, FORGED)


@generated_cases(max_examples=20)
def test_deduce_on_generated_markets(case: Any, seed: int) -> None:
    generated_market(exercise, case, seed, forged=15)


#: Markets of the numeric predicates, and edge values for every numeric field they read.
EDGE_MARKETS = ("03-threshold-gt-boundary", "06-threshold-lte-boundary",
                "54-sports-over-under-dotted-names", "61-range-settle",
                "62-field-comparison-home-win", "63-arithmetic-total-over")
EDGES = ["9" * 64, "-" + "9" * 63, "1" + "0" * 63, "0." + "0" * 61 + "1",
         "-0." + "0" * 60 + "1", "0." + "9" * 62, "99." + "9" * 61, "0"]


def _set_numeric(steps: list[bytes], cited: list[str], key: str, value: str) -> None:
    for sid in cited[:-1]:
        at = int(sid[5:]) - 1
        step = decode(steps[at])
        for field in step["output"]["fields"]:
            if field["key"] == key and field["kind"] == "numeric" and field["status"] == "selected":
                field["value"] = value
                steps[at] = encode(step)
                return


def test_edge_decimals() -> None:
    """Every numeric field read set to each edge value (and to the spec's bounds): the
    deduce step rewritten from them (lost) and left as it was (won or lost alike)."""
    rng = random.Random(64)  # noqa: S311 - seeded cases, not secrets
    for name in EDGE_MARKETS:
        bundle = honest(name)
        index = _deduce(bundle)
        sem = decode(bundle.prompt_spec)["prediction_semantics"]
        keys = [sem["metric"], *(t["metric"] for t in sem.get("terms", [])),
                *([sem["other_metric"]] if "other_metric" in sem else [])]
        bounds = [sem[k] for k in ("threshold", "lower", "upper") if k in sem]
        cited = decode(bundle.steps[index])["prior_step_ids"]
        for value in EDGES + bounds:
            for others in (None, rng.choice(EDGES)):
                steps = list(bundle.steps)
                _set_numeric(steps, cited, keys[0], value)
                for key in keys[1:]:
                    _set_numeric(steps, cited, key, others or "0")
                for rewrite in (True, False):
                    edited = list(steps)
                    if rewrite:
                        edited[index] = (rewritten(bundle.prompt_spec, edited, index)
                                         or edited[index])
                    compare(recommit(bundle, steps=edited), index, "deduce.edge")


def test_prompt_spec_not_a_record() -> None:
    """A committed PromptSpec that is not §2 or lacks the fields deduce reads is won
    ``one_step.invalid_record`` on both sides (SPEC §14.8, the deduce row)."""
    bundle = honest("61-range-settle")
    index = _deduce(bundle)
    for spec in (b"\xff", encode({"schema": "por.Verdict/1"}), bundle.prompt_spec + b"\x00",
                 bundle.prompt_spec[:-1]):
        forged = recommit(bundle, prompt_spec=spec)
        proof = build_one_step_proof(forged, index).to_cbor()
        assert python_answer(proof) == (True, "one_step.invalid_record")
        compare(forged, index, "deduce.spec")


def test_other_kinds_take_the_court_path() -> None:
    """Every step kind but deduce reverts ``CourtPath(kind)`` on this executor."""
    bundle = honest(list_scenarios()[0])
    for index, kind in enumerate(_kinds(bundle)):
        if kind == "deduce":
            continue
        won, check_id, _gas = _CHAIN.execute(build_one_step_proof(bundle, index).to_cbor())
        assert (won, check_id) == (False, f"court_path:{kind}"), index


def test_code_size_under_the_limit() -> None:
    """The executor and the core it deploys each fit EIP-170's 24 576 bytes."""
    core = "0x" + _CHAIN.call(bytes.fromhex("f2f4eb26"))[-20:].hex()  # core()
    assert 0 < _CHAIN.code_size() <= CODE_LIMIT
    assert 0 < _CHAIN.code_size(core) <= CODE_LIMIT


def test_deduce_case_count() -> None:
    """At least 2 500 deduce proofs compared, and every outcome among them."""
    assert_case_count(COUNTS, "deduce.", OUTCOMES, minimum=2_500)
    # consistent steps decided by each rule: rules 2, 3 and 5's cap, and a 64-character value
    for needed in ("status:precondition_unmet", "status:votes_undecided",
                   "status:value_out_of_range", "status:missing", "numeric:64"):
        assert COUNTS[needed] > 0, needed
