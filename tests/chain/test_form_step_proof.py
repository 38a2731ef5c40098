"""FormStepProof against the executors on forms in revm (s40 ``formdoc``; SPEC §10.2.9).

* the document's call data (``forms_harness.proof_call_data``) is byte for byte the
  case builders' (``forms_*_cases``) on every fixture scenario's steps and verdict;
* with Python's executors on forms (``por check-proof``'s), an honest bundle's
  FormStepProofs are lost and a lying bundle's is what ``winning_proof`` returns, won.
"""

from __future__ import annotations

import random
from pathlib import Path

import forms_aggregate_cases
import forms_check_support
import forms_deduce_cases
import forms_harness
import forms_judge_cases
import forms_map_cases
import pytest
from bundle_edits import honest, steps_of
from forms_harness import proof_call_data
from forms_won import assert_won_on_forms
from scratch_harness import SOLC

from por.challenge import NoProof, bundle_from_bytes, check_proof, winning_proof
from por.challenge.form_step import build_form_step_proof
from por.challenge.records import FormStepProof
from por.errors import PorError
from por.scenarios import list_scenarios
from por.schemas.verification import ChallengeRef

pytestmark = SOLC
INVALID = Path(__file__).resolve().parents[2] / "fixtures" / "bundles" / "invalid"


def test_call_data_is_the_case_builders(monkeypatch: pytest.MonkeyPatch) -> None:
    """The case builders' own call data (``USE_PRODUCTION`` off) is byte for byte the
    document's, so they use the document's wherever it is a drop-in."""
    monkeypatch.setattr(forms_harness, "USE_PRODUCTION", False)
    compared = 0
    for name in list_scenarios():
        bundle = honest(name)
        for leaf in steps_of(bundle, "check_requirement"):
            want = forms_check_support.call_data(bundle, leaf).data
            assert proof_call_data(build_form_step_proof(bundle, "check", leaf)) == want
            compared += 1
        for leaf in steps_of(bundle, "aggregate"):
            want = forms_aggregate_cases.call_data(bundle, leaf)
            assert proof_call_data(build_form_step_proof(bundle, "aggregate", leaf)) == want
            compared += 1
        for leaf in steps_of(bundle, "deduce"):
            want = forms_deduce_cases.step_call_data(bundle, leaf)
            assert proof_call_data(build_form_step_proof(bundle, "deduce", leaf)) == want
            compared += 1
        for leaf in steps_of(bundle, "map"):
            want = forms_map_cases.call_data(bundle, leaf)
            assert proof_call_data(build_form_step_proof(bundle, "map", leaf)) == want
            compared += 1
        want = forms_judge_cases.call_data(bundle)
        assert proof_call_data(build_form_step_proof(bundle, "judge")) == want
        compared += 1
    assert compared > 150


def test_honest_bundles_lose_every_form_step_proof() -> None:
    bundle = honest("08-quorum-agree")
    kinds = {"check_requirement": "check", "aggregate": "aggregate", "deduce": "deduce",
             "map": "map"}
    for step_kind, kind in kinds.items():
        for leaf in steps_of(bundle, step_kind):
            report = check_proof(build_form_step_proof(bundle, kind, leaf).to_cbor(),
                                 por_root=bundle.commitments.por_root)
            assert report.status == "valid" and not report.won
            assert report.outcome is not None and report.outcome.reason == "one_step.match"
    report = check_proof(build_form_step_proof(bundle, "judge").to_cbor())
    assert report.outcome is not None and report.outcome.reason == "judge.match"


@pytest.mark.parametrize(("path", "ref", "kind", "reason"), [
    ("replay.verdict_mismatch/confidence-rehashed.cbor", ChallengeRef(kind="verdict"),
     "judge", "judge.mismatch"),
    ("replay.verdict_mismatch/flipped-outcome-rehashed.cbor", ChallengeRef(kind="verdict"),
     "judge", "judge.mismatch"),
])
def test_a_lie_is_won_on_forms(path: str, ref: ChallengeRef, kind: str, reason: str) -> None:
    bundle = bundle_from_bytes((INVALID / path).read_bytes())
    found = winning_proof(bundle, ref)
    assert not isinstance(found, NoProof), found
    proof, report = found
    assert isinstance(proof, FormStepProof) and proof.kind == kind
    assert report.won and report.outcome is not None and report.outcome.reason == reason


def test_a_forged_deduce_step_is_won_on_forms() -> None:
    """Forged deduce steps (``test_onchain_deduce.forge``): where the deduce FormStepProof
    is won, ``winning_proof`` writes it; where it is not, a CBOR proof (never a lost
    FormStepProof)."""
    from test_onchain_deduce import forge

    rng = random.Random(40)  # noqa: S311 - seeded cases, not secrets
    won = 0
    for _ in range(30):
        lie, leaf = forge(honest("08-quorum-agree"), rng)
        try:
            direct = check_proof(build_form_step_proof(lie, "deduce", leaf).to_cbor())
        except PorError:
            continue
        found = winning_proof(lie, ChallengeRef(kind="reasoning_leaf", leaf_index=leaf))
        written = None if isinstance(found, NoProof) else found[0]
        assert isinstance(written, FormStepProof) == direct.won
        if direct.won:
            assert direct.outcome is not None and direct.outcome.reason.startswith("one_step.")
            won += 1
    assert won >= 3


def test_a_forged_map_description_is_won_on_forms() -> None:
    """Scenario 08's map step with its description forged, records and forms rehashed:
    ``winning_proof`` (``por verify --challenges``'s) writes its FormStepProof of kind
    ``map``, won ``one_step.mismatch``."""
    lie = forms_map_cases.described(honest("08-quorum-agree"), "map to evaluation variablez")
    assert_won_on_forms(lie, forms_map_cases.map_leaf(lie), "map")


def test_the_fixtures_are_won() -> None:
    """``fixtures/proofs/form-step-*.cbor``: each answers what ``expected.json`` says
    under its ``por_root``."""
    import json

    here = INVALID.parents[1] / "proofs"
    expected = json.loads((here / "expected.json").read_text(encoding="utf-8"))
    assert len(expected) == 4
    for name, want in expected.items():
        report = check_proof((here / name).read_bytes(),
                             por_root=bytes.fromhex(want["por_root"]))
        assert report.status == "valid" and report.outcome is not None, name
        got = (report.outcome.outcome, report.outcome.reason, report.outcome.cause)
        assert got == (want["outcome"], want["reason"], want["cause"]), name
