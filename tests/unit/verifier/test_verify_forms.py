"""SPEC §5.1, §5.3, §6.2 steps 2, 3 and 5: the carried chain form leaf hashes.

Every carried hash must be ``LH(F)`` of its record (``form.none``,
``form.mismatch``, lowest forms index first, before any ``replay.*`` verdict);
their tree must rebuild (``commit.forms_root``, ``commit.forms_count``); their
number is ``r + s + 2`` (``schema.forms_count``); a ``por.Bundle/1`` is
unsupported.  Both paths agree on every case (``paths_agree``).
"""

from __future__ import annotations

import pytest
from bundle_edits import honest, paths_agree, recommit

from por.bundle import Bundle
from por.encoding import decode, encode
from por.merkle import leaf_hash, root_hash
from por.schemas import ChallengeRef, DeterministicVerdict, ReasoningStep
from verifier import check_bundle
from verifier.fast import fast_report

SCENARIO = "08-quorum-agree"


def _bundle() -> Bundle:
    return honest(SCENARIO)


def _with_form(bundle: Bundle, index: int, leaf: bytes) -> bytes:
    forms = list(bundle.forms)
    forms[index] = leaf
    return recommit(bundle, forms=forms).to_cbor()


def _rebuilt(bundle: Bundle, steps: list[bytes], forms: list[bytes] | None = None) -> Bundle:
    """``bundle`` with ``steps``, the verdict's reasoning references updated and every
    commitment recomputed; ``forms`` None: the honest ones."""
    verdict = DeterministicVerdict.from_cbor(bundle.verdict).model_copy(update={
        "reasoning_root": root_hash(steps), "reasoning_count": len(steps)}).to_cbor()
    return recommit(bundle, steps=steps, verdict=verdict, forms=forms)


def _r(bundle: Bundle) -> int:
    return len(bundle.forms) - len(bundle.steps) - 2


def test_every_carried_hash_is_checked_at_its_index() -> None:
    """Changing any one carried hash (commitments recomputed) is form.mismatch at that
    index, with the record's ChallengeRef, the expected LH(F) and the carried hash."""
    bundle = _bundle()
    r, s = _r(bundle), len(bundle.steps)
    for index, honest_leaf in enumerate(bundle.forms):
        lie = bytes([honest_leaf[0] ^ 1]) + honest_leaf[1:]
        data = _with_form(bundle, index, lie)
        report = check_bundle(data)
        failure = report.first_failure
        assert failure is not None and report.status == "rejected" and report.exit_code == 1
        assert (failure.check_id, failure.details) == ("form.mismatch", {"form_index": index})
        assert (failure.expected, failure.actual) == (honest_leaf.hex(), lie.hex())
        ref = failure.challenge
        assert ref is not None and ref.reason == "form.mismatch"
        if index <= r:
            assert ref == ChallengeRef(kind="prompt_spec", reason="form.mismatch")
        elif index <= r + s:
            step = decode(bundle.steps[index - 1 - r])
            assert (ref.kind, ref.leaf_index, ref.step_id) == (
                "reasoning_leaf", index - 1 - r, step["step_id"])
        else:
            assert ref == ChallengeRef(kind="verdict", reason="form.mismatch")
        assert fast_report(data) is None
        assert paths_agree(data) == "rejected"


def test_a_valid_record_with_no_form_is_form_none_before_its_replay() -> None:
    """A step that is a valid record but has no chain form (a map flag written as an
    integer): form.none at its index, before replay.step_mismatch."""
    bundle = _bundle()
    last = decode(bundle.steps[-1])
    variables = dict(last["output"]["evaluation_variables"])
    variables["provenance_ok"] = int(variables["provenance_ok"])
    edited = ReasoningStep.from_dict({**last, "output": {
        **last["output"], "evaluation_variables": variables}}).to_cbor()
    data = _rebuilt(bundle, [*bundle.steps[:-1], edited], list(bundle.forms)).to_cbor()
    failure = check_bundle(data).first_failure
    assert failure is not None
    index = len(bundle.forms) - 2
    assert (failure.check_id, failure.details, failure.expected) == (
        "form.none", {"form_index": index}, None)
    assert failure.actual == bundle.forms[index].hex()
    assert "not a boolean" in failure.message
    assert paths_agree(data) == "rejected"


def test_a_forged_step_with_honest_forms_is_still_the_replays() -> None:
    """Forms recomputed for a forged step (consistent): the forms pass, the step is
    replay.step_mismatch (ADR 0017 §4 case 3)."""
    bundle = _bundle()
    forged = ReasoningStep.from_cbor(bundle.steps[-1]).model_copy(
        update={"description": "forged"}).to_cbor()
    data = _rebuilt(bundle, [*bundle.steps[:-1], forged]).to_cbor()
    failure = check_bundle(data).first_failure
    assert failure is not None and failure.check_id == "replay.step_mismatch"
    assert paths_agree(data) == "rejected"


def test_a_form_lie_after_the_first_wrong_step_comes_first() -> None:
    """Forms before steps (ADR 0017 §4): a forged step 0 and a wrong form hash of the
    last step report the form, although the replay stopped at step 0."""
    bundle = _bundle()
    forged = ReasoningStep.from_cbor(bundle.steps[0]).model_copy(
        update={"description": "forged"}).to_cbor()
    steps = [forged, *bundle.steps[1:]]
    forms = list(_rebuilt(bundle, steps).forms)
    forms[-2] = bytes(32)
    data = _rebuilt(bundle, steps, forms).to_cbor()
    failure = check_bundle(data).first_failure
    assert failure is not None
    assert (failure.check_id, failure.details) == ("form.mismatch",
                                                  {"form_index": len(forms) - 2})
    assert paths_agree(data) == "rejected"


def test_commitments_of_the_forms() -> None:
    bundle = _bundle()
    c = bundle.commitments
    root_changed = bundle.model_copy(update={"forms": [bytes(32), *bundle.forms[1:]]})
    count_changed = bundle.model_copy(update={"commitments": c.model_copy(
        update={"forms_count": c.forms_count + 1})})
    for edited, check_id in ((root_changed, "commit.forms_root"),
                             (count_changed, "commit.forms_count")):
        failure = check_bundle(edited.to_cbor()).first_failure
        assert failure is not None and failure.check_id == check_id
        assert failure.challenge == ChallengeRef(kind="por_bundle")
        assert paths_agree(edited.to_cbor()) == "rejected"


@pytest.mark.parametrize("change", ["short", "long", "item31", "item33", "text"])
def test_the_hash_list_shape(change: str) -> None:
    value = decode(_bundle().to_cbor())
    forms = value["forms"]
    value["forms"] = {"short": forms[:-1], "long": [*forms, forms[0]],
                      "item31": [forms[0][:31], *forms[1:]],
                      "item33": [forms[0] + b"\0", *forms[1:]],
                      "text": ["x" * 32, *forms[1:]]}[change]
    data = encode(value)
    failure = check_bundle(data).first_failure
    assert failure is not None
    want = {"short": "schema.forms_count", "long": "schema.forms_count",
            "item31": "schema.value", "item33": "schema.value", "text": "schema.type"}
    assert failure.check_id == want[change]
    assert paths_agree(data) == "rejected"


def test_a_bundle_1_is_unsupported_with_one_line() -> None:
    value = decode(_bundle().to_cbor())
    value["schema"] = "por.Bundle/1"
    del value["forms"]
    report = check_bundle(encode(value))
    failure = report.first_failure
    assert failure is not None
    assert (report.status, report.exit_code, failure.check_id) == (
        "error", 2, "schema.unsupported_bundle")
    assert "rebuild it with `por build`" in failure.message and "\n" not in failure.message


def test_forms_are_leaf_hashes_of_each_record() -> None:
    """The carried hashes are LH(F) in component order (SPEC §5.4's forms order)."""
    from por.forms import forms_of

    bundle = _bundle()
    forms = forms_of(decode(bundle.prompt_spec), [decode(s) for s in bundle.steps],
                     decode(bundle.verdict))
    assert [f.leaf for f in forms.forms] == list(bundle.forms)
    assert [leaf_hash(f.form) for f in forms.forms] == list(bundle.forms)
    assert forms.root == bundle.commitments.forms_root


def test_a_form_lie_before_the_first_wrong_step_is_found_after_the_fast_path() -> None:
    """The full path skips only the step forms the fast path matched (Handoff.forms_ok):
    a lying form of step 1 and a forged step 3 report the form at step 1."""
    bundle = _bundle()
    forged = ReasoningStep.from_cbor(bundle.steps[3]).model_copy(
        update={"description": "forged"}).to_cbor()
    steps = [*bundle.steps[:3], forged, *bundle.steps[4:]]
    forms = list(_rebuilt(bundle, steps).forms)
    at = 1 + _r(bundle) + 1
    forms[at] = bytes(32)
    data = _rebuilt(bundle, steps, forms).to_cbor()
    failure = check_bundle(data).first_failure
    assert failure is not None
    assert (failure.check_id, failure.details) == ("form.mismatch", {"form_index": at})
    assert paths_agree(data) == "rejected"
