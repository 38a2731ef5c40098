"""The FormProof on chain for the PromptSpec's family: COMMON (tag 1, form 0) and
REQUIREMENT (tag 2, form j >= 1) (``contracts/src/forms/PorFormProofPrompt.sol`` in
``PorFormFamilyPrompt``, through the envelope ``PorFormProof``; ADR 0017 s43 addendum
``psfamily``, ADR 0018).

The family decides ``F``, not the PromptSpec's validity (SPEC §10.2.8): ``valid`` is false
only when the leaf is not one por-cbor/1 map whose ``data_requirements`` is an array. So:

* on a PromptSpec Python finds valid, chain and Python answer alike (``F`` byte for byte;
  (won, check id) of the FormProof): every fixture PromptSpec, generated valid ones
  (requirement counts 1..8, field edge values), honest and lied form leaves;
* on any other leaf (edits Python finds invalid, byte mutations) the family never reverts,
  a leaf it calls invalid is invalid for Python too, and a leaf it calls valid gets ``F`` of
  its decoded value (Python's ``common_form`` / ``requirement_form``): the one stated
  disagreement, Python's won ``one_step.invalid_record`` against the chain's answer of ``F``.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import honest, recommit
from formproof_families import FAMILIES, byte_edit, check_call, no_family, prompt_form
from scratch_harness import SOLC
from test_chain_settle import market_of
from test_forms_formproof import python_check, resealed

from por.bundle.layout import Bundle
from por.chain import documents
from por.challenge.form_proof import build_form_proof
from por.cli import main
from por.encoding import decode, encode
from por.errors import PorError
from por.forms.spec import common_form, requirement_form
from por.scenarios import list_scenarios
from por.schemas import PromptSpec

pytestmark = SOLC

Form = tuple[bool, bool, bytes]
#: Markets the edits are made on (a quorum of three sources; a range; a boolean one).
BASES = ("08-quorum-agree", "01-boolean-observed", "03-threshold-gt-boundary")


def py_valid(leaf: bytes) -> bool:
    """Python's validity of a PromptSpec leaf (``PromptSpec.from_cbor``)."""
    try:
        PromptSpec.from_cbor(leaf)
    except (PorError, ValueError):
        return False
    return True


def py_form(leaf: bytes, j: int) -> Form | None:
    """``F`` of form ``j`` of the leaf's decoded value, as the chain reads it: None when
    the leaf is not a por-cbor/1 map with an array ``data_requirements`` (chain: invalid);
    (True, False) past the requirements or when ``F`` is undefined."""
    try:
        value = decode(leaf)
    except PorError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("data_requirements"), list):
        return None
    entries = value["data_requirements"]
    if j > len(entries):
        return True, False, b""
    try:
        return True, True, common_form(value) if j == 0 else requirement_form(entries[j - 1])
    except PorError as exc:
        assert exc.check_id == "form.none"
        return True, False, b""


def agree_form(leaf: bytes, j: int) -> str:
    """The family's answer on form ``j`` of ``leaf`` against Python's (see the module
    notice); the case met: ``form`` / ``none`` (both valid), ``invalid`` (both invalid),
    ``stated`` (Python invalid, chain valid: ``F`` of the decoded value)."""
    chain = prompt_form(leaf, j)
    want = py_form(leaf, j)
    if want is None:
        assert chain == (False, False, b""), j
        assert not py_valid(leaf)
        return "invalid"
    assert chain == want, j
    if not py_valid(leaf):
        return "stated"
    return "form" if chain[1] else "none"


def test_every_fixture_prompt_spec_form() -> None:
    """COMMON and every REQUIREMENT of every fixture market's PromptSpec, and the index
    past the last requirement (no form: the index rule's)."""
    seen: Counter[str] = Counter()
    for name in list_scenarios():
        leaf = honest(name).prompt_spec
        r = len(decode(leaf)["data_requirements"])
        for j in range(r + 2):
            seen[agree_form(leaf, j)] += 1
        assert prompt_form(leaf, 0) == (True, True, common_form(decode(leaf))), name
    assert seen["form"] >= 80 and seen["none"] >= 40, seen


Edit = Callable[[dict[str, Any]], None]


def _at(path: str, value: object = None, *, drop: bool = False) -> Edit:
    def edit(spec: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        m: Any = spec
        for p in parents:
            m = m[int(p)] if isinstance(m, list) else m[p]
        if drop:
            m.pop(last, None)
        elif isinstance(m, list):
            m[int(last)] = value
        else:
            m[last] = value
    return edit


def _requirements(n: int) -> Edit:
    """``n`` copies of the first requirement (ids ``r0``, ``r1`` ... in order)."""
    def edit(spec: dict[str, Any]) -> None:
        first = spec["data_requirements"][0]
        spec["data_requirements"] = [{**copy.deepcopy(first), "requirement_id": f"r{k}"}
                                     for k in range(n)]
    return edit


PS, Q, POL = "prediction_semantics", "data_requirements.0", "data_requirements.0.selection_policy"
#: Edits of a PromptSpec: (name, edit); validity and ``F`` are Python's, compared.
EDITS: list[tuple[str, Edit]] = [
    *((f"{n} requirements", _requirements(n)) for n in range(1, 10)),
    *((f"sources_required {v!r}", _at(f"{PS}.sources_required", v))
      for v in (1, 3, 64, 65, 0, -1, "3", True)),
    ("drop sources_required", _at(f"{PS}.sources_required", drop=True)),
    *((f"tolerance {v!r}", _at("conflict_policy.numeric_tolerance", v))
      for v in ("0", "0.5", "12.125", "-0.5", "1e5", "0.50", "", 1)),
    *((f"on_conflict {v!r}", _at("conflict_policy.on_conflict", v))
      for v in ("invalid", "continue", "bogus", 0)),
    ("drop on_conflict", _at("conflict_policy.on_conflict", drop=True)),
    *((f"window.{k} {v!r}", _at(f"market.resolution_window.{k}", v))
      for k in ("start", "end") for v in (0, 1, 2**63 - 1, 2**63, -1, "1")),
    *((f"slack {v!r}", _at("timestamp_slack_seconds", v)) for v in (0, 600, 2**63 - 1, 2**63)),
    ("drop slack", _at("timestamp_slack_seconds", drop=True)),
    *((f"strict_mode {v!r}", _at("strict_mode", v)) for v in (True, False, 1)),
    ("drop strict_mode", _at("strict_mode", drop=True)),
    *((f"confidence {k} {v!r}", _at(f"confidence_policy.{k}", v))
      for k in ("default_confidence_bps", "min_confidence_for_yesno_bps", "invalid_confidence_bps")
      for v in (0, 10_000, 10_001, "1")),
    ("drop confidence_policy", _at("confidence_policy", drop=True)),
    ("confidence_policy empty", _at("confidence_policy", {})),
    ("confidence_policy not a map", _at("confidence_policy", [])),
    *((f"predicate {v!r}", _at(f"{PS}.predicate", v))
      for v in ("event_observed", "numeric_threshold", "numeric_range", "field_comparison",
                "text_equals", "timestamp_threshold", "bogus", 1)),
    *((f"comparison {v!r}", _at(f"{PS}.comparison", v))
      for v in (">", ">=", "<", "<=", "==", "!=")),
    ("drop comparison", _at(f"{PS}.comparison", drop=True)),
    *((f"threshold {v!r}", _at(f"{PS}.threshold", v)) for v in ("0", "-12.5", "250.0", 250)),
    *((f"{k} {v!r}", _at(f"{PS}.{k}", v)) for k in ("lower", "upper") for v in ("1", "1.")),
    *((f"{k} {v!r}", _at(f"{PS}.{k}", v))
      for k in ("lower_inclusive", "upper_inclusive", "absent_means_no") for v in (True, False, 0)),
    *((f"{k} {v!r}", _at(f"{PS}.{k}", v)) for k in ("other_metric", "expected_text")
      for v in ("close", "", 5)),
    *((f"terms {v!r}", _at(f"{PS}.terms", v))
      for v in ([], [{"op": "+", "metric": "a"}, {"op": "-", "metric": "b"}],
                [{"op": "*", "metric": "a"}], [{"op": "+"}], ["x"])),
    *((f"preconditions {v!r}", _at(f"{PS}.preconditions", v))
      for v in ([{"key": "k", "equals": "v"}], [{"key": "k", "equals": "v", "otherwise": "NO"}],
                [{"key": "k", "equals": "v", "otherwise": "YES"}], [{"key": "k"}])),
    *((f"metric {v!r}", _at(f"{PS}.metric", v)) for v in ("close", "é€😀" * 5, "", 3)),
    ("prediction_semantics not a map", _at(PS, [])),
    *((f"rule_id {v!r}", _at("market.resolution_rules.rules.0.rule_id", v))
      for v in ("R_CONFLICT", "R_OTHER", 5)),
    *((f"allowed_sources {v!r}", _at("market.allowed_sources", v)) for v in ([], ["a"], [1])),
    *((f"strategy {v!r}", _at(f"{POL}.strategy", v))
      for v in ("single_best", "multi_source_quorum", "fallback_chain", "best")),
    *((f"tie_breaker {v!r}", _at(f"{POL}.tie_breaker", v))
      for v in ("source_order", "highest_provenance", "random")),
    *((f"{k} {v!r}", _at(f"{POL}.{k}", v)) for k in ("min_sources", "quorum")
      for v in (1, 2, 64, 65, 0)),
    *((f"drop {k}", _at(f"{POL}.{k}", drop=True))
      for k in ("tie_breaker", "min_sources", "quorum")),
    *((f"min_provenance_tier {v!r}", _at(f"{Q}.min_provenance_tier", v)) for v in (0, 3, 4)),
    *((f"expected_fields {v!r}", _at(f"{Q}.expected_fields", v))
      for v in ([], [{"key": "v", "kind": "text", "json_path": "$.v"}],
                [{"key": "v", "kind": "blob", "json_path": "$.v"}])),
    ("drop expected_fields", _at(f"{Q}.expected_fields", drop=True)),
    *((f"accepted_status_codes {v!r}", _at(f"{Q}.accepted_status_codes", v))
      for v in ([200], [100, 599], [99], [600], ["200"])),
    ("source_targets empty", _at(f"{Q}.source_targets", [])),
    ("requirement not a map", _at(Q, 5)),
    ("selection_policy not a map", _at(f"{Q}.selection_policy", 5)),
    ("data_requirements not an array", _at("data_requirements", {})),
    ("drop data_requirements", _at("data_requirements", drop=True)),
    ("an extra key", _at("zzz", 1)),
    ("another schema", _at("schema", "por.PromptSpec/2")),
]


def edited(raw: bytes, edit: Edit) -> bytes:
    spec: dict[str, Any] = decode(raw)
    try:
        edit(spec)
    except (KeyError, IndexError, TypeError):  # the path is not in this market's spec
        return raw
    return encode(spec)


def test_edited_prompt_spec_forms() -> None:
    """Every edit on three markets' PromptSpecs, every form index 0..r+1."""
    seen: Counter[str] = Counter()
    for name in BASES:
        raw = honest(name).prompt_spec
        for _, edit in EDITS:
            leaf = edited(raw, edit)
            value = decode(leaf)
            r = len(value["data_requirements"]) if isinstance(value.get("data_requirements"),
                                                             list) else 0
            for j in range(r + 2):
                seen[agree_form(leaf, j)] += 1
    print(f"prompt spec edits: {dict(sorted(seen.items()))}")
    assert seen["form"] >= 300 and seen["none"] >= 100, seen
    assert seen["stated"] >= 50 and seen["invalid"] >= 2, seen


def test_byte_mutations() -> None:
    """600 leaves a byte changed, dropped or added (seeded) from scenario 08's PromptSpec:
    the family answers, never reverts; invalid only when Python is, else ``F`` of the
    decoded value (:func:`agree_form`), at forms 0, 1 and 2."""
    raw = honest("08-quorum-agree").prompt_spec
    rng = random.Random(43)  # noqa: S311 (test data, seeded)
    seen: Counter[str] = Counter()
    for _ in range(600):
        leaf = byte_edit(raw, rng)
        for j in (0, 1, 2):
            seen[agree_form(leaf, j)] += 1
    print(f"byte mutations: {dict(sorted(seen.items()))}")
    assert seen["invalid"] >= 900 and seen["stated"] + seen["form"] + seen["none"] >= 30, seen


def prompt_proof(bundle: Bundle, j: int) -> bytes:
    return build_form_proof(bundle, j).to_cbor()


def agree_check(bundle: Bundle, j: int, tag: str) -> str:
    """The envelope's (won, check id) of the FormProof of form ``j`` equals Python's
    ``verify_form_proof``, but on an invalid PromptSpec the chain valid reads: there Python
    is won ``one_step.invalid_record`` and the chain answers ``F`` (``stated:<id>``; the
    index rule's ``proof.form_index`` past its r)."""
    proof = build_form_proof(bundle, j)
    py = python_check(proof)
    got, _ = check_call(proof.to_cbor())
    assert not isinstance(got, str), (tag, got)
    if got != py:
        assert py == (True, "one_step.invalid_record"), tag
        assert not py_valid(bundle.prompt_spec) and py_form(bundle.prompt_spec, j) is not None
        assert got[1] in ("form.match", "form.mismatch", "form.none", "proof.form_index"), tag
        return "stated:" + got[1]
    return py[1]


def test_form_proofs_of_every_fixture_prompt_spec() -> None:
    """Every form of every fixture PromptSpec: honest (lost ``form.match``) and lied
    (``form.mismatch``), chain and Python alike."""
    seen: Counter[str] = Counter()
    for name in list_scenarios():
        bundle = honest(name)
        r = len(bundle.forms) - len(bundle.steps) - 2
        for j in range(r + 1):
            seen[agree_check(bundle, j, f"{name} {j}")] += 1
            forms = list(bundle.forms)
            forms[j] = hashlib.sha256(forms[j]).digest()
            seen[agree_check(recommit(bundle, forms=forms), j, f"{name} {j} lied")] += 1
    print(f"prompt spec formproofs: {dict(sorted(seen.items()))}")
    assert seen["form.match"] >= 80 and seen["form.mismatch"] >= 80, seen
    assert set(seen) == {"form.match", "form.mismatch"}, seen


def test_form_proofs_of_edited_prompt_specs() -> None:
    """FormProofs on scenario 08 with its PromptSpec edited (the forms recomputed by
    ``recommit``): valid edits agree, invalid ones are the stated case (the chain answers
    ``F``: ``form.match``, or ``form.none`` where ``F`` is undefined)."""
    bundle = honest("08-quorum-agree")
    seen: Counter[str] = Counter()
    for what, edit in EDITS[::3]:
        leaf = edited(bundle.prompt_spec, edit)
        value = decode(leaf)
        if not isinstance(value.get("data_requirements"), list) or \
                len(value["data_requirements"]) != 1:
            continue
        changed = recommit(bundle, prompt_spec=leaf)
        for j in (0, 1):
            seen[agree_check(changed, j, what)] += 1
    print(f"edited prompt spec formproofs: {dict(sorted(seen.items()))}")
    assert seen["form.match"] >= 20 and seen["stated:form.match"] >= 20, seen
    assert seen["stated:form.none"] >= 5, seen


def test_tampered_prompt_spec_proofs() -> None:
    """The index rule and the proof's own faults: form 2 of a one-requirement PromptSpec is
    ``proof.form_index`` on both sides (the inclusion holds: the forms tree is a step's
    form there), as are the other faults."""
    bundle = honest("08-quorum-agree")
    proof = build_form_proof(bundle, 0)
    step = build_form_proof(bundle, 2)  # the first step's form
    flip = bytes(x ^ 1 for x in proof.form_leaf)
    cases = {
        "form_leaf": resealed(proof, form_leaf=flip),
        "a step's form": resealed(proof, form_index=step.form_index, form_leaf=step.form_leaf,
                                  form_path=step.form_path),
        "por_root": resealed(proof, por_root=flip),
    }
    ids = {}
    for what, p in cases.items():
        got, _ = check_call(p.to_cbor())
        assert got == python_check(p), what
        ids[what] = python_check(p)[1]
    assert ids["a step's form"] == "proof.form_index"
    assert ids["form_leaf"] == "proof.leaf_path"


def test_no_prompt_family_reverts_no_family() -> None:
    """An envelope without slot 1 (the PromptSpec's family): COMMON reverts ``NoFamily(1)``,
    a REQUIREMENT ``NoFamily(2)``; the other families still answer."""
    bundle = honest("08-quorum-agree")
    others = tuple(f for f in FAMILIES if f[0] > 2)
    assert no_family(prompt_proof(bundle, 0), others) == 1
    assert no_family(prompt_proof(bundle, 1), others) == 2
    got, _ = check_call(build_form_proof(bundle, len(bundle.forms) - 1).to_cbor(), others)
    assert got == (False, "form.match")


def test_settle_refuses_a_family_off_chain(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``por chain settle`` with a deployment lacking the PromptSpec's family (its
    ``ON_CHAIN_FORM_TAGS`` without 1 and 2): a REQUIREMENT's FormProof is
    ``chain.proof_kind`` (exit 2, naming ``NoFamily(2)``); with every family (the
    deployment of s43) a won one is a settle call (exit 0)."""
    bundle = honest("08-quorum-agree")
    forms = list(bundle.forms)
    forms[1] = hashlib.sha256(forms[1]).digest()
    bundle = recommit(bundle, forms=forms)  # its REQUIREMENT 0 lies: won form.mismatch
    proof = tmp_path / "requirement.cbor"
    proof.write_bytes(prompt_proof(bundle, 1))
    args = ["chain", "settle", str(proof), *market_of(bundle), "--json"]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(args) == 0
    monkeypatch.setattr(documents, "ON_CHAIN_FORM_TAGS", (3, 4, 5, 6, 7, 8, 9))
    with contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()) as err:
        code = main(args)
    assert code == 2 and "chain.proof_kind" in err.getvalue(), err.getvalue()
    assert "NoFamily(2)" in err.getvalue() and "Traceback" not in err.getvalue()
