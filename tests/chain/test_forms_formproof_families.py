"""The FormProof envelope over the families on chain (``PorFormProof`` and
``formproof_families.FAMILIES``, ADR 0017 s42 ``fpsplit``), generic over that list:

* every form of every fixture market (the PromptSpec's, each step's, the verdict's), its
  FormProof honest and with its form leaf lied: the envelope answers as Python's
  ``verify_form_proof`` when the record's family is on chain, else reverts
  ``NoFamily(tag)`` with the record's form tag (SPEC §5.6);
* the envelope answers on its own, without the family, what needs no family: an invalid
  step (``one_step.invalid_record``) and a valid step of an unknown kind (``form.none``),
  also with no family on chain at all; a valid step of a known kind then reverts
  ``NoFamily``.
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from bundle_edits import honest, recommit
from deployment import family_names
from formproof_families import FAMILIES, check_call, no_family
from scratch_harness import SOLC
from test_forms_formproof import edited, python_check

from por.bundle.layout import Bundle
from por.chain.documents import ON_CHAIN_FORM_TAGS
from por.challenge.form_proof import build_form_proof, form_record
from por.encoding import decode
from por.forms.component import STEP_FORMS
from por.scenarios import list_scenarios
from por.schemas import ReasoningStep

pytestmark = SOLC
ON_CHAIN = {tag for tag, _ in FAMILIES}
TAGS = {kind: 3 + i for i, kind in enumerate(STEP_FORMS)}  # extract_claims 3 .. map 8


def test_one_list_of_families() -> None:
    """deploy.json's families, this module's and ``por chain settle``'s are one list."""
    listed = tuple((tag, name) for tag, name in enumerate(family_names()) if name)
    assert listed == FAMILIES
    assert tuple(tag for tag, _ in FAMILIES) == ON_CHAIN_FORM_TAGS


def tag_of(bundle: Bundle, index: int) -> int:
    """The form tag of form ``index`` of ``bundle`` (SPEC §5.6), from its record."""
    kind, leaf = form_record(len(bundle.forms), len(bundle.steps), index)
    if kind == "prompt_spec":
        return 1 if index == 0 else 2
    if kind == "verdict":
        return 9
    return TAGS[decode(bundle.steps[leaf])["inputs"]["kind"]]


def answer(bundle: Bundle, index: int, families: tuple[tuple[int, str], ...] = FAMILIES,
           ) -> str:
    """The envelope's answer on form ``index``'s FormProof, checked against Python's (or
    ``NoFamily(tag)``'s tag when the family is not in ``families``); the check id or
    ``no family``."""
    proof = build_form_proof(bundle, index)
    tag = tag_of(bundle, index)
    if tag not in {t for t, _ in families}:
        assert no_family(proof.to_cbor(), families) == tag, index
        return "no family"
    got, _ = check_call(proof.to_cbor(), families)
    assert got == python_check(proof), index
    return str(got[1])


def test_every_form_of_every_fixture() -> None:
    """Honest and lied, every form index of every fixture market."""
    assert TAGS == {"extract_claims": 3, "check_requirement": 4, "aggregate": 5,
                    "contradictions": 6, "deduce": 7, "map": 8}
    seen: Counter[str] = Counter()
    tags: Counter[int] = Counter()
    for name in list_scenarios():
        bundle = honest(name)
        for index in range(len(bundle.forms)):
            tags[tag_of(bundle, index)] += 1
            seen[answer(bundle, index)] += 1
            if tag_of(bundle, index) not in ON_CHAIN:
                continue
            forms = list(bundle.forms)
            forms[index] = hashlib.sha256(forms[index]).digest()
            seen[answer(recommit(bundle, forms=forms), index)] += 1
    print(f"envelope cases: {dict(sorted(seen.items()))}; tags {dict(sorted(tags.items()))}")
    on = sum(n for t, n in tags.items() if t in ON_CHAIN)
    assert seen["form.match"] == on and seen["form.mismatch"] == on, seen
    assert seen["no family"] == sum(tags.values()) - on, seen


def _step(bundle: Bundle, kind: str) -> int:
    return next(i for i, s in enumerate(bundle.steps) if decode(s)["inputs"]["kind"] == kind)


def test_answers_without_the_family() -> None:
    """With only the verdict's family (or none): an invalid deduce step is won
    ``one_step.invalid_record``, a valid step of an unknown kind won ``form.none``, both
    as Python; an honest deduce step reverts ``NoFamily(7)``."""
    bundle = honest("08-quorum-agree")
    leaf = _step(bundle, "deduce")
    r = len(bundle.forms) - len(bundle.steps) - 2
    index = 1 + r + leaf

    def changed(edit: dict[str, object]) -> Bundle:
        steps = list(bundle.steps)
        steps[leaf] = edited(steps[leaf], lambda s: s.update(edit) if "inputs" not in edit
                             else s["inputs"].update(edit["inputs"]))  # type: ignore[arg-type]
        return recommit(bundle, steps=steps)

    invalid = changed({"extra": 1})
    unknown = changed({"inputs": {"kind": "nope"}})
    for families in (((9, "PorFormFamilyVerdict"),), ()):
        for case, want in ((invalid, "one_step.invalid_record"), (unknown, "form.none")):
            proof = build_form_proof(case, index)
            assert python_check(proof) == (True, want)
            assert check_call(proof.to_cbor(), families)[0] == (True, want), (families, want)
        assert no_family(build_form_proof(bundle, index).to_cbor(), families) == 7


@pytest.mark.parametrize("kind", ["extract_claims", "check_requirement", "aggregate",
                                  "contradictions", "deduce", "map"])
def test_a_key_before_inputs_kind_still_routes(kind: str) -> None:
    """A valid step whose ``inputs`` holds a key that sorts before ``kind`` (``a``, SPEC §2's
    length-first order) is not where the envelope's cheap routing looks: it must still reach
    its family after the validity (``fpcontra``'s case: it reverted ``NoFamily`` before),
    honest (``form.match``) and lied, as Python."""
    bundle = honest("09-conflict-invalid")
    leaf = _step(bundle, kind)
    steps = list(bundle.steps)
    steps[leaf] = edited(steps[leaf], lambda s: s["inputs"].update({"a": 1}))  # type: ignore[index]
    assert ReasoningStep.from_cbor(steps[leaf]) is not None
    case = recommit(bundle, steps=steps)
    index = len(case.forms) - len(case.steps) - 1 + leaf
    assert answer(case, index) == "form.match"
    forms = list(case.forms)
    forms[index] = hashlib.sha256(forms[index]).digest()
    assert answer(recommit(case, forms=forms), index) == "form.mismatch"
