"""The contradictions executor on chain forms (FormStepProof kind ``contradictions``,
SPEC §10.4.4, §12.5.5; s45 ``contraform``) against Python's one-step check on the
records (the CBOR OneStepProof's answer).

Cases: the contradictions step of every fixture market (honest: lost ``one_step.match``)
and of generated markets, and forged bundles (``test_onchain_contradictions.forge``:
the step's output, description and citations edited; a cited chunk's groups edited at
and around ``max - min == tolerance``, edge decimals, booleans with and without
``other``, malformed groups, another requirement; the PromptSpec's tolerance), every
commitment recomputed. Where Python's proof is valid and every record has a form, the
FormStepProof's answer (won, check id, cause) must be the OneStepProof's. At least
2 000 are compared (``test_case_count``). Python only: the on-chain executor's
differential is left (ADR 0017, s45 contraform).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from bundle_edits import honest, steps_of
from exec_support import generated_cases
from forms_deduce_cases import classify, python_outcome
from forms_won import assert_won_on_forms

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes, check_proof
from por.challenge.form_step import build_form_step_proof
from por.challenge.records import FormStepProof
from por.encoding import decode
from por.errors import PorError
from por.forms.execute import execute
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()
#: Forged bundles per fixture market and seed.
PER_MARKET = 25
SEEDS = (45, 46)


def leaf_of(bundle: Bundle) -> int:
    return steps_of(bundle, "contradictions")[0]


#: The chain's side (``test_forms_contradictions_chain`` sets it): the executor's answer
#: on the FormStepProof's call data, or None to compare Python's sides only.
CHAIN: list[Callable[[FormStepProof], Any]] = []


def answers(bundle: Bundle, leaf: int) -> tuple[str, Any, Any]:
    """(class, Python's one-step answer, the FormStepProof's answer: Python's executor on
    forms, and the on-chain executor's when ``CHAIN`` holds it, which must agree)."""
    outcome = python_outcome(bundle, leaf)
    kind = classify(outcome, ())
    if kind != "compared":
        return kind, None, None
    python = (outcome.won, outcome.reason, outcome.cause or "")
    try:
        proof = build_form_step_proof(bundle, "contradictions", leaf)
    except PorError as exc:
        if exc.check_id not in ("form.none", "form.mismatch"):
            raise
        return "form.none", python, None
    a = execute("contradictions", proof.forms, proof.index, proof.forms_size)
    forms = (a.won, a.check_id, a.cause)
    for chain in CHAIN:
        on_chain = chain(proof)
        if on_chain != forms:
            return "compared", python, ("chain", on_chain, "forms", forms)
    return "compared", python, forms


def check(cases: Iterable[tuple[str, Bundle]]) -> Counter[str]:
    seen: Counter[str] = Counter()
    failures = []
    for name, bundle in cases:
        kind, python, forms = answers(bundle, leaf_of(bundle))
        seen[kind if python is None else f"{kind}:{python[1]}:{python[2]}"] += 1
        if kind == "compared" and forms != python:
            failures.append(f"{name}: one-step {python}, forms {forms}")
    COUNTS.update(seen)
    assert not failures, failures[:10]
    return seen


def forged(bundle: Bundle, name: str, count: int, rng: random.Random
           ) -> Iterable[tuple[str, Bundle]]:
    from test_onchain_contradictions import forge

    for k in range(count):
        yield f"{name} lie {k}", forge(bundle, rng)


def test_every_fixture_contradictions_matches() -> None:
    seen = check((name, honest(name)) for name in list_scenarios())
    assert seen == Counter({"compared:one_step.match:": len(list_scenarios())})


@pytest.mark.parametrize("seed", SEEDS)
def test_forged_lies(seed: int) -> None:
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    seen = check(case for name in list_scenarios()
                 for case in forged(honest(name), name, PER_MARKET, rng))
    assert seen["compared:one_step.mismatch:"] > 100
    assert seen["compared:one_step.match:"] > 100
    assert seen["compared:one_step.unexecutable:step.citation_mismatch"] > 50
    assert seen["compared:one_step.unexecutable:step.bad_prior_output"] > 10


@generated_cases(max_examples=25)
def test_generated_markets(case: tuple[object, object], seed: int) -> None:
    spec, evidence = case
    bundle = bundle_from_bytes(build(spec, evidence).data)  # type: ignore[arg-type]
    if not steps_of(bundle, "contradictions"):
        return
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    check([("generated", bundle), *forged(bundle, "generated", 20, rng)])


def tie_market() -> Bundle:
    """Two requirements sharing the numeric key ``price``, each holding a 5 and a 1
    (tolerance 0: one conflict): the merged ``max`` and ``min`` tie across the chunks, and
    §12.5.5 replaces a reference only when strictly above (below), so the conflict names
    requirement 0's claims. (s45 ``contraform``'s break 7: a chain that replaced on a tie
    was seen by no case.)"""
    from test_auditor_properties import f

    sources = ["src_a", "src_b", "src_c", "src_d"]
    reqs = [f.requirement(f"r{k}", sources=sources) for k in range(2)]
    spec = f.prompt_spec(requirements=reqs, allowed_sources=sources[:3], tolerance="0")
    items = [f.item(f"e{n}", f.price_body(price), requirement_id=rid, source_id=src)
             for n, (rid, src, price) in enumerate((
                 ("r0", "src_a", "5"), ("r0", "src_b", "1"),
                 ("r1", "src_c", "5"), ("r1", "src_a", "1")))]
    return bundle_from_bytes(build(spec, f.bundle(items)).data)


def test_ties_across_chunks_keep_the_first_reference() -> None:
    bundle = tie_market()
    steps = [decode(s) for s in bundle.steps]
    (step,) = [s for s in steps if s["inputs"].get("kind") == "contradictions"]
    (conflict,) = step["output"]["conflicts"]
    assert conflict["evidence_ids"] == ["e1", "e0"]  # min then max, both requirement 0's
    assert check([("tie", bundle)]) == Counter({"compared:one_step.match:": 1})
    check(forged(bundle, "tie", 20, random.Random(45)))  # noqa: S311 - a seeded case


def forged_description(name: str = "08-quorum-agree") -> tuple[Bundle, int]:
    """The market with its contradictions step's description edited, rehashed (records,
    forms, trace and commitments honest to the lie: ``bench/proofs.with_step``)."""
    from proofs import with_step

    bundle = honest(name)
    leaf = leaf_of(bundle)
    return with_step(bundle, leaf, lambda s: {
        "description": s.description.replace("conflict(s)", "conflicts")}), leaf


def test_honest_form_step_proof_is_lost() -> None:
    bundle = honest("08-quorum-agree")
    proof = build_form_step_proof(bundle, "contradictions", leaf_of(bundle))
    assert proof.kind == "contradictions" and len(proof.forms) == 2 + len(
        decode(bundle.prompt_spec)["data_requirements"])
    report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    assert report.status == "valid" and not report.won
    assert report.outcome is not None and report.outcome.reason == "one_step.match"


def test_a_forged_description_is_won_on_forms() -> None:
    """``winning_proof`` (``por verify --challenges``) writes the contradictions
    FormStepProof first, won ``one_step.mismatch``."""
    lie, leaf = forged_description()
    assert_won_on_forms(lie, leaf, "contradictions")


def test_case_count() -> None:
    """At least 2 000 compared, every answer the executor gives among them."""
    compared = sum(v for k, v in COUNTS.items() if k.startswith("compared:"))
    if compared == 0:
        pytest.skip("run with the other tests of this file")
    assert compared >= 2_000, COUNTS
    for want in ("one_step.match:", "one_step.mismatch:",
                 "one_step.unexecutable:step.citation_mismatch",
                 "one_step.unexecutable:step.bad_prior_output"):
        assert COUNTS[f"compared:{want}"] > 0, want
    print(f"contradictions on forms: {compared} compared; {dict(COUNTS)}")


def _ref(n: int, value: bytes) -> Any:
    from por.forms.execute.check_state import Ref

    return Ref(n.to_bytes(32, "big"), (100 + n).to_bytes(32, "big"), value)


def test_merge_rules() -> None:
    """§12.5.5's merge on the words: a boolean ``other`` found in a later group's
    ``other`` (its ``first`` agreeing), numeric ties keep the earlier reference,
    first-appearance order, counts add."""
    from por.forms.execute.check_state import Group
    from por.forms.execute.contradictions import merge
    from por.forms.execute.predicate import d_words

    yes, no = (1).to_bytes(32, "big"), bytes(32)
    one, two = d_words("1"), d_words("2")
    a = [Group(0, 7, 1, _ref(1, yes))]
    b = [Group(1, 9, 2, _ref(2, one), _ref(3, two)), Group(0, 7, 2, _ref(4, yes), _ref(5, no))]
    c = [Group(1, 9, 2, _ref(6, one), _ref(7, two))]
    out = merge([a, b, c])
    assert [(g.kind, g.key, g.count) for g in out] == [(0, 7, 3), (1, 9, 4)]
    assert out[0].first == _ref(1, yes) and out[0].second == _ref(5, no)
    assert out[1].first == _ref(2, one) and out[1].second == _ref(3, two)
