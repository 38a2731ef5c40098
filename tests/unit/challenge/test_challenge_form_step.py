"""FormStepProof (SPEC §10.2.9, §10.4.4): the document, its inclusion checks in their
order, and the executor's answer as the outcome. No node: the executor is a fake
registered with ``monkeypatch`` (the Solidity twins stand in, EVM-gated, in
``tests/chain/test_form_step_proof.py``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from bundle_edits import honest, recommit, steps_of

from por.bundle import Bundle
from por.challenge import NoProof, check_proof, proof_file_name, winning_proof
from por.challenge.form_step import build_form_step_proof, form_step_kind
from por.challenge.records import (
    MAX_FORMS,
    FormStepProof,
    body_of,
    challenge_id_from_body,
    proof_from_cbor,
)
from por.encoding import decode, encode
from por.errors import ProofError, UnsupportedError
from por.forms import execute as forms_execute
from por.forms import form_of
from por.forms.execute import Answer, CitationsFault, FormFault
from por.schemas.verification import ChallengeRef

SCENARIO = "08-quorum-agree"
Seen = list[tuple[str, list[bytes], list[int], int]]


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Seen:
    """Every kind's executor is a fake that records its call and answers ``won``
    ``one_step.mismatch`` (cause ``step.bad_inputs``) / ``judge.mismatch``."""
    from por.forms.execute import aggregate, check, deduce, judge  # noqa: F401 - registered

    calls: Seen = []

    def fake(kind: str) -> Any:
        def run(forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
            calls.append((kind, list(forms), list(index), size))
            if kind == "judge":
                return Answer(True, "judge.mismatch")
            return Answer(True, "one_step.mismatch", "step.bad_inputs")
        return run

    for kind in ("check", "aggregate", "deduce", "judge"):
        monkeypatch.setitem(forms_execute.EXECUTORS, kind, fake(kind))
    return calls


def _answer(monkeypatch: pytest.MonkeyPatch, kind: str, answer: Any) -> None:
    def run(forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
        if isinstance(answer, Exception):
            raise answer
        return answer  # type: ignore[no-any-return]
    monkeypatch.setitem(forms_execute.EXECUTORS, kind, run)


def _check(proof: FormStepProof, bundle: Bundle) -> Any:
    return check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)


def _forged(proof: FormStepProof, **changes: Any) -> bytes:
    """``proof`` with fields changed and its challenge_id recomputed, as CBOR (the
    record class is bypassed: a forger writes any map)."""
    body = {**body_of(proof), **changes}
    return encode({**body, "challenge_id": challenge_id_from_body(body)})


def test_the_carried_forms_are_in_the_executors_order(seen: Seen) -> None:
    bundle = honest(SCENARIO)
    spec = decode(bundle.prompt_spec)
    r = len(spec["data_requirements"])
    for kind, step_kind in (("check", "check_requirement"), ("aggregate", "aggregate"),
                            ("deduce", "deduce")):
        for leaf in steps_of(bundle, step_kind):
            proof = build_form_step_proof(bundle, kind, leaf)
            step = decode(bundle.steps[leaf])
            cited = [1 + r + int(p.split("_")[1]) - 1 for p in step["prior_step_ids"]]
            head = [1 + r + leaf, 0]
            if kind != "deduce":
                rids = [q["requirement_id"] for q in spec["data_requirements"]]
                head.append(1 + rids.index(step["inputs"]["requirement_id"]))
            assert proof.index == head + cited
            assert proof.forms[0] == form_of(step)
            assert proof.forms[1] == form_of(spec)
            assert proof.forms_size == len(bundle.forms)
            report = _check(proof, bundle)
            assert report.won and report.outcome.reason == "one_step.mismatch"
            assert report.outcome.cause == "step.bad_inputs"
            assert [c.role for c in report.inclusions] == [
                f"forms[{i}]" for i in range(len(proof.forms))]
            assert seen[-1] == (kind, proof.forms, proof.index, proof.forms_size)
            assert proof_file_name(proof).startswith(f"{kind}-")


def test_the_judges_forms(seen: Seen) -> None:
    bundle = honest(SCENARIO)
    proof = build_form_step_proof(bundle, "judge")
    size = len(bundle.forms)
    last = decode(bundle.steps[-1])
    summary = list(dict.fromkeys(last["output"]["evaluation_variables"]["source_summary"]))
    ids = [decode(e)["evidence_id"] for e in bundle.evidence]
    base = size - len(bundle.steps) - 1
    assert proof.index == [size - 1, 0, size - 2, *(base + ids.index(s) for s in summary)]
    assert proof.forms[0] == form_of(decode(bundle.verdict))
    report = _check(proof, bundle)
    assert report.won and report.outcome.reason == "judge.mismatch"
    assert report.outcome.cause is None
    assert seen[-1][0] == "judge"


def test_a_step_kind_without_an_executor_is_refused() -> None:
    bundle = honest(SCENARIO)
    for kind in ("extract_claims",):
        for leaf in steps_of(bundle, kind):
            with pytest.raises(ProofError) as caught:
                form_step_kind(bundle, leaf)
            assert caught.value.check_id == "proof.no_form_executor"
    assert form_step_kind(bundle, steps_of(bundle, "map")[0]) == "map"  # since s45
    assert form_step_kind(bundle, steps_of(bundle, "contradictions")[0]) == "contradictions"
    leaf = steps_of(bundle, "aggregate")[0]
    with pytest.raises(ProofError, match=r"proof\.kind"):
        build_form_step_proof(bundle, "deduce", leaf)
    with pytest.raises(ProofError, match=r"proof\.no_such_leaf"):
        form_step_kind(bundle, len(bundle.steps))
    steps = list(bundle.steps)
    steps[leaf] = encode({**decode(steps[leaf]), "extra": 1})  # not a valid record
    with pytest.raises(ProofError, match=r"proof\.step_record"):
        build_form_step_proof(recommit(bundle, steps=steps), "aggregate", leaf)


def test_a_form_lie_is_the_form_proofs() -> None:
    """The carried form's committed hash is not ``LH(F)``: ``form.mismatch``; a carried
    record without a form: ``form.none`` (a FormProof answers both)."""
    bundle = honest(SCENARIO)
    leaf = steps_of(bundle, "aggregate")[0]
    forms = list(bundle.forms)
    index = len(forms) - len(bundle.steps) - 1 + leaf
    forms[index] = bytes(32)
    lying = recommit(bundle, forms=forms)
    with pytest.raises(ProofError) as caught:
        build_form_step_proof(lying, "aggregate", leaf)
    assert caught.value.check_id == "form.mismatch"
    other = steps_of(bundle, "check_requirement")[0]
    assert build_form_step_proof(lying, "check", other).index[0] != index  # not carried


def test_stub_executor_is_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    from por.forms.execute import check  # noqa: F401 - registered

    _answer(monkeypatch, "check", UnsupportedError("proof.unsupported", "not written yet"))
    bundle = honest(SCENARIO)
    report = _check(build_form_step_proof(bundle, "check",
                                          steps_of(bundle, "check_requirement")[0]), bundle)
    assert (report.status, report.check_id, report.exit_code) == (
        "error", "proof.unsupported", 2)


@pytest.mark.parametrize(("fault", "check_id"), [
    (FormFault("a word read does not parse"), "proof.form"),
    (CitationsFault(2, "carried form 2 is not the step's"), "proof.citations"),
])
def test_executor_faults_make_the_proof_invalid(monkeypatch: pytest.MonkeyPatch,
                                                fault: Exception, check_id: str) -> None:
    from por.forms.execute import deduce  # noqa: F401 - registered

    _answer(monkeypatch, "deduce", fault)
    bundle = honest(SCENARIO)
    report = _check(build_form_step_proof(bundle, "deduce", steps_of(bundle, "deduce")[0]),
                    bundle)
    assert (report.status, report.check_id, report.exit_code) == ("invalid", check_id, 1)


def test_a_lost_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    from por.forms.execute import aggregate  # noqa: F401 - registered

    _answer(monkeypatch, "aggregate", Answer(False, "one_step.match"))
    bundle = honest(SCENARIO)
    report = _check(build_form_step_proof(bundle, "aggregate",
                                          steps_of(bundle, "aggregate")[0]), bundle)
    assert report.status == "valid" and not report.won and report.exit_code == 1
    assert (report.outcome.outcome, report.outcome.reason) == ("lost", "one_step.match")


def _aggregate(bundle: Bundle) -> FormStepProof:
    return build_form_step_proof(bundle, "aggregate", steps_of(bundle, "aggregate")[0])


def _invalid(bundle: Bundle, data: bytes) -> tuple[str, str]:
    report = check_proof(data, por_root=bundle.commitments.por_root)
    assert report.status == "invalid" and report.exit_code == 1
    return report.check_id, report.message


def test_inclusion_ids_in_their_order(seen: Seen) -> None:
    """SPEC §10.4.4: lengths (``proof.schema``), form 0's path (``merkle.*``), each
    other form's root (``proof.leaf_path``), the component path
    (``proof.component_path``), the id; each broken alone, then with every later one
    also broken (the earliest id wins); the executor is never called."""
    bundle = honest(SCENARIO)
    proof = _aggregate(bundle)
    paths = [list(p) for p in proof.paths]
    bad_path1 = [*paths[:1], [bytes(32)] * len(paths[1]), *paths[2:]]
    bad_top = [bytes(32)] * len(proof.forms_path)
    steps: list[tuple[str, dict[str, Any]]] = [
        ("proof.schema", {"index": proof.index[:-1]}),
        ("merkle.index_range", {"index": [proof.forms_size, *proof.index[1:]]}),
        ("merkle.proof_length", {"paths": [paths[0][:-1], *paths[1:]]}),
        ("proof.leaf_path", {"paths": bad_path1}),
        ("proof.leaf_path", {"forms": [*proof.forms[:2], proof.forms[2] + bytes(32),
                                       *proof.forms[3:]]}),
        ("proof.component_path", {"forms_path": bad_top}),
        ("proof.component_path", {"forms_size": proof.forms_size + 1,
                                  "paths": paths}),  # a size the root does not commit
    ]
    for check_id, change in steps:
        assert _invalid(bundle, _forged(proof, **change))[0] == check_id, change
    bad_form2 = [*proof.forms[:2], proof.forms[2] + bytes(32), *proof.forms[3:]]
    # Every later fault present too: the earliest id is reported.
    combined: list[tuple[str, dict[str, Any]]] = [
        ("proof.schema", {"index": proof.index[:-1], "forms": bad_form2,
                          "forms_path": bad_top}),
        ("merkle.proof_length", {"paths": [paths[0][:-1], *bad_path1[1:]],
                                 "forms_path": bad_top}),
        ("proof.leaf_path", {"forms": bad_form2, "forms_path": bad_top}),
    ]
    for check_id, change in combined:
        assert _invalid(bundle, _forged(proof, **change))[0] == check_id, change
    body = {**body_of(proof)}
    wrong_id = encode({**body, "challenge_id": bytes(32)})
    assert _invalid(bundle, wrong_id)[0] == "proof.challenge_id"
    assert seen == []
    other = check_proof(proof.to_cbor(), por_root=bytes(32))
    assert other.check_id == "proof.por_root"


def test_forms_index_paths_of_one_length_and_the_cap(seen: Seen) -> None:
    bundle = honest(SCENARIO)
    proof = _aggregate(bundle)
    for field in ("forms", "index", "paths"):
        value = getattr(proof, field)
        data = _forged(proof, **{field: [*value, value[-1]]})
        assert _invalid(bundle, data)[0] == "proof.schema"
    n = MAX_FORMS + 1
    data = _forged(proof, forms=[proof.forms[0]] * n, index=[proof.index[0]] * n,
                   paths=[list(proof.paths[0])] * n)
    assert _invalid(bundle, data)[0] == "proof.schema"
    empty = _forged(proof, forms=[], index=[], paths=[])
    assert _invalid(bundle, empty)[0] == "proof.schema"
    assert seen == []


def test_a_repeated_form_is_fine(seen: Seen) -> None:
    """The same form carried twice (a step citing one id twice) is one leaf twice."""
    bundle = honest(SCENARIO)
    proof = _aggregate(bundle)
    twice = _forged(proof, forms=[*proof.forms, proof.forms[-1]],
                    index=[*proof.index, proof.index[-1]],
                    paths=[*[list(p) for p in proof.paths], list(proof.paths[-1])])
    assert check_proof(twice, por_root=bundle.commitments.por_root).won
    assert len(seen[-1][1]) == len(proof.forms) + 1


def test_winning_proof_writes_the_form_step_proof_first(seen: Seen) -> None:
    bundle = honest(SCENARIO)
    leaf = steps_of(bundle, "aggregate")[0]
    found = winning_proof(bundle, ChallengeRef(kind="reasoning_leaf", leaf_index=leaf))
    assert not isinstance(found, NoProof)
    assert isinstance(found[0], FormStepProof) and found[0].kind == "aggregate"
    found = winning_proof(bundle, ChallengeRef(kind="verdict"))
    assert not isinstance(found, NoProof)
    assert isinstance(found[0], FormStepProof) and found[0].kind == "judge"


def test_lost_form_step_proofs_fall_through(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lost or unsupported on forms: the CBOR candidates are tried as before (an honest
    bundle: every one lost)."""
    from por.forms.execute import aggregate, judge  # noqa: F401 - registered

    _answer(monkeypatch, "aggregate", Answer(False, "one_step.match"))
    bundle = honest(SCENARIO)
    leaf = steps_of(bundle, "aggregate")[0]
    found = winning_proof(bundle, ChallengeRef(kind="reasoning_leaf", leaf_index=leaf))
    assert isinstance(found, NoProof) and found.reason == "no_proof.all_lost"
    assert "one_step.match" in found.message
    _answer(monkeypatch, "judge", UnsupportedError("proof.unsupported", "stub"))
    found = winning_proof(bundle, ChallengeRef(kind="verdict"))
    assert isinstance(found, NoProof) and "proof.unsupported" not in found.message


def test_bytes_round_trip_and_seal() -> None:
    bundle = honest(SCENARIO)
    proof = _aggregate(bundle)
    data = proof.to_cbor()
    assert decode(data)["schema"] == "por.FormStepProof/1"
    assert proof.challenge_id == challenge_id_from_body(body_of(proof))
    assert build_form_step_proof(bundle, "aggregate", proof.index[0] - (
        len(bundle.forms) - len(bundle.steps) - 1)).to_cbor() == data


def test_the_fixtures_are_what_their_generator_makes() -> None:
    """``fixtures/proofs/form-step-*.cbor`` (SPEC §10.2.9): the generator's bytes, each
    a valid FormStepProof of its kind under its ``por_root`` (the answers are
    ``tests/chain/test_form_step_proof.py``'s)."""
    from pathlib import Path

    from file_modules import load_file

    here = Path(__file__).resolve().parents[3] / "fixtures" / "proofs"
    made = load_file("form_step_fixtures", here / "generate.py").files()
    assert sorted(made) == sorted(p.name for p in here.iterdir() if p.name != "generate.py")
    for name, data in made.items():
        assert (here / name).read_bytes() == data, name
    expected = json.loads(made["expected.json"])
    for name, want in expected.items():
        proof = proof_from_cbor(made[name])
        assert isinstance(proof, FormStepProof) and proof.kind == want["kind"]
        assert proof.por_root.hex() == want["por_root"]


def test_the_command_line(seen: Seen, tmp_path: Any, capsys: pytest.CaptureFixture[str]
                          ) -> None:
    """``por challenge --step ID --forms`` / ``--judge --forms`` write a FormStepProof;
    a step kind without an executor is exit 1 with one line; ``por check-proof`` shows
    the kind, the answer's id and its cause (text, ``-v``, ``--json``)."""
    from por.cli import main

    bundle = honest(SCENARIO)
    path = tmp_path / "b.cbor"
    path.write_bytes(bundle.to_cbor())
    leaf = steps_of(bundle, "deduce")[0]
    step_id = decode(bundle.steps[leaf])["step_id"]
    out = tmp_path / "deduce.cbor"
    assert main(["challenge", str(path), "--step", step_id, "--forms", "-o", str(out)]) == 0
    assert "deduce proof (por.FormStepProof/1)" in capsys.readouterr().out
    assert main(["check-proof", str(out), "-v"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"WON {out}: proof valid: ")
    assert "the deduce executor on forms answers one_step.mismatch (step.bad_inputs)" in text
    assert "  cause step.bad_inputs" in text and "  forms[0]: form " in text
    assert main(["check-proof", str(out), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["kind"], document["outcome"]["reason"], document["outcome"]["cause"]) \
        == ("deduce", "one_step.mismatch", "step.bad_inputs")
    assert document["inclusions"][0]["kind"] == "form"
    judge = tmp_path / "judge.cbor"
    assert main(["challenge", str(path), "--judge", "--forms", "-o", str(judge)]) == 0
    capsys.readouterr()
    assert proof_from_cbor(judge.read_bytes()).kind == "judge"
    extract = decode(bundle.steps[steps_of(bundle, "extract_claims")[0]])["step_id"]
    assert main(["challenge", str(path), "--step", extract, "--forms",
                 "-o", str(tmp_path / "x.cbor")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "proof.no_form_executor" in err
    assert main(["challenge", str(path), "--verdict", "--forms"]) == 2
    assert "usage.forms" in capsys.readouterr().err
