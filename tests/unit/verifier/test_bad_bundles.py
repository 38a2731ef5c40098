"""Hostile records inside a bundle (BAD_INPUTS groups 17-21) through ``check_bundle``.

Each schema case replaces one record of a valid bundle (scenario
``08-quorum-agree``: 3 evidence items, 8 steps) and re-encodes it with
``rebuild()`` from ``fixtures/bundles/generate.py``, which recomputes every
commitment, so the only thing wrong is the record.  The report must be
``rejected`` at SPEC §6.2 step 2 with the exact check id and the ChallengeRef of
that leaf: ``evidence_leaf``/``reasoning_leaf`` with the leaf index,
``prompt_spec``, ``verdict``, or ``por_bundle`` for the manifest and the trace
header.  Group 21 (records changed after commitment, commitments to records
that are not there) is checked at step 3 with ``commit.*`` / ``bundle.*`` ids.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import pytest

from por.bundle import (
    Bundle,
    Manifest,
    build_bundle,
    compute_commitments,
    por_root_from_components,
)
from por.encoding import decode, encode
from por.scenarios import load_scenario
from por.schemas import (
    ChallengeRef,
    DeterministicVerdict,
    EvidenceItem,
    PromptSpec,
    ReasoningStep,
    TraceHeader,
)
from verifier import check_bundle

GENERATE = Path(__file__).resolve().parents[3] / "fixtures" / "bundles" / "generate.py"
SCENARIO = "08-quorum-agree"
SLOTS = ("manifest", "prompt_spec", "evidence", "trace_header", "steps", "verdict")
DELETE = object()


def _generator() -> ModuleType:
    name = "por_fixture_gen_bundles"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, GENERATE)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@cache
def valid_bundle() -> bytes:
    scenario = load_scenario(SCENARIO)
    return build_bundle(scenario.prompt_spec, scenario.evidence)


def bundle() -> Bundle:
    return Bundle.from_cbor(valid_bundle())


def record_of(b: Bundle, slot: str, index: int | None) -> bytes:
    value = getattr(b, slot)
    return bytes(value[index] if index is not None else value)


# --- record edits: original bytes -> replacement bytes ----------------------------

Make = Callable[[bytes], bytes]


def edit(path: str, value: Any) -> Make:
    """Decode, set (or delete) one dotted path, re-encode canonically."""
    def make(blob: bytes) -> bytes:
        root = decode(blob)
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        node = root
        for part in parents:
            node = node[part]
        if value is DELETE:
            del node[last]
        else:
            node[last] = value
        return encode(root)
    return make


def other(slot: str, index: int | None = None) -> Make:
    """Another record of the same bundle (a record of the wrong schema for the slot)."""
    return lambda _blob: record_of(bundle(), slot, index)


def raw(data: bytes) -> Make:
    return lambda _blob: data


class Bad(NamedTuple):
    case_id: str
    slot: str
    index: int | None
    make: Make
    check_id: str


def expected_ref(slot: str, index: int | None) -> ChallengeRef:
    """The ChallengeRef the verifier must give for a bad record in ``slot``."""
    if slot == "evidence":
        return ChallengeRef(kind="evidence_leaf", leaf_index=index)
    if slot == "steps":
        return ChallengeRef(kind="reasoning_leaf", leaf_index=index)
    if slot in ("prompt_spec", "verdict"):
        return ChallengeRef(kind=slot)
    return ChallengeRef(kind="por_bundle")


PSEM = "prediction_semantics"
BAD: list[Bad] = [
    # 17: missing field, extra field, wrong schema in the slot
    Bad("evidence2-missing-content", "evidence", 2, edit("content", DELETE),
        "schema.missing_field"),
    Bad("evidence1-extra-field", "evidence", 1, edit("zzz", 1), "schema.extra_field"),
    Bad("evidence1-is-a-step", "evidence", 1, other("steps", 0), "schema.unknown_schema"),
    Bad("evidence0-is-a-verdict", "evidence", 0, other("verdict"), "schema.unknown_schema"),
    Bad("step4-missing-description", "steps", 4, edit("description", DELETE),
        "schema.missing_field"),
    Bad("step7-extra-field", "steps", 7, edit("confidence", 1), "schema.extra_field"),
    Bad("step3-is-an-evidence-item", "steps", 3, other("evidence", 0), "schema.unknown_schema"),
    Bad("step7-is-the-verdict", "steps", 7, other("verdict"), "schema.unknown_schema"),
    Bad("prompt-spec-missing-market", "prompt_spec", None, edit("market", DELETE),
        "schema.missing_field"),
    Bad("prompt-spec-extra-field", "prompt_spec", None, edit("extra", {}), "schema.extra_field"),
    Bad("prompt-spec-is-an-evidence-item", "prompt_spec", None, other("evidence", 1),
        "schema.unknown_schema"),
    Bad("verdict-missing-reasoning-root", "verdict", None, edit("reasoning_root", DELETE),
        "schema.missing_field"),
    Bad("verdict-is-a-step", "verdict", None, other("steps", 7), "schema.unknown_schema"),
    Bad("verdict-schema-v2", "verdict", None, edit("schema", "por.DeterministicVerdict/2"),
        "schema.unknown_schema"),
    Bad("manifest-missing-rule-set-hash", "manifest", None, edit("rule_set_hash", DELETE),
        "schema.missing_field"),
    Bad("manifest-extra-field", "manifest", None, edit("build_date", 1), "schema.extra_field"),
    Bad("manifest-is-the-trace-header", "manifest", None, other("trace_header"),
        "schema.unknown_schema"),
    Bad("trace-header-extra-field", "trace_header", None, edit("policy.extra", True),
        "schema.extra_field"),
    Bad("trace-header-is-the-manifest", "trace_header", None, other("manifest"),
        "schema.unknown_schema"),
    # 18: wrong types
    Bad("evidence0-confidence-as-text", "evidence", 0, edit("confidence_bps", "9000"),
        "schema.type"),
    Bad("evidence2-content-as-text", "evidence", 2, edit("content", "{}"), "schema.type"),
    Bad("step4-prior-steps-as-text", "steps", 4, edit("prior_step_ids", "step_0001"),
        "schema.type"),
    Bad("step0-bytes-in-output", "steps", 0, edit("output.evidence_id", b"ev"), "schema.type"),
    Bad("prompt-spec-market-id-as-int", "prompt_spec", None, edit("market.market_id", 1),
        "schema.type"),
    Bad("verdict-confidence-true", "verdict", None, edit("confidence_bps", True), "schema.type"),
    Bad("verdict-hash-as-hex-text", "verdict", None, edit("evidence_root", "00" * 32),
        "schema.type"),
    Bad("manifest-rule-set-hash-as-text", "manifest", None, edit("rule_set_hash", "00" * 32),
        "schema.type"),
    Bad("trace-header-step-count-as-text", "trace_header", None, edit("step_count", "8"),
        "schema.type"),
    Bad("evidence2-not-a-map", "evidence", 2, raw(encode([])), "schema.type"),
    Bad("verdict-not-a-map", "verdict", None, raw(encode("YES")), "schema.type"),
    # 19: enums, ranges, hash lengths, decimal strings
    Bad("evidence1-content-type-image", "evidence", 1, edit("content_type", "image/png"),
        "schema.enum"),
    Bad("step0-type-guess", "steps", 0, edit("step_type", "guess"), "schema.enum"),
    Bad("verdict-outcome-maybe", "verdict", None, edit("outcome", "MAYBE"), "schema.enum"),
    Bad("prompt-spec-predicate-guess", "prompt_spec", None, edit(f"{PSEM}.predicate", "guess"),
        "schema.enum"),
    Bad("trace-header-decoding-sampled", "trace_header", None,
        edit("policy.decoding_policy", "sampled"), "schema.enum"),
    Bad("evidence0-confidence-minus-1", "evidence", 0, edit("confidence_bps", -1),
        "schema.value"),
    Bad("evidence2-confidence-10001", "evidence", 2, edit("confidence_bps", 10_001),
        "schema.value"),
    Bad("verdict-confidence-10001", "verdict", None, edit("confidence_bps", 10_001),
        "schema.value"),
    Bad("verdict-confidence-minus-1", "verdict", None, edit("confidence_bps", -1),
        "schema.value"),
    Bad("verdict-hash-31-bytes", "verdict", None, edit("evidence_root", bytes(31)),
        "schema.value"),
    Bad("verdict-hash-33-bytes", "verdict", None, edit("prompt_spec_hash", bytes(33)),
        "schema.value"),
    Bad("prompt-spec-confidence-policy-10001", "prompt_spec", None,
        edit("confidence_policy.default_confidence_bps", 10_001), "schema.value"),
    *(Bad(f"prompt-spec-threshold-{v}", "prompt_spec", None, edit(f"{PSEM}.threshold", v),
          "schema.value") for v in ("1e5", "01", "1.50", "-0")),
    Bad("prompt-spec-tolerance-1.50", "prompt_spec", None,
        edit("conflict_policy.numeric_tolerance", "1.50"), "schema.value"),
    # 20: sorted / unique lists
    Bad("prompt-spec-sources-unsorted", "prompt_spec", None,
        edit("market.allowed_sources", ["exchange-gamma", "exchange-alpha", "exchange-beta"]),
        "schema.value"),
    Bad("prompt-spec-rules-unsorted", "prompt_spec", None,
        edit("market.resolution_rules.rules.0.priority", 99), "schema.value"),
    # SPEC §4: defaulted fields are always written
    Bad("prompt-spec-without-strict-mode", "prompt_spec", None, edit("strict_mode", DELETE),
        "schema.non_canonical_record"),
    Bad("trace-header-without-decoding-policy", "trace_header", None,
        edit("policy.decoding_policy", DELETE), "schema.non_canonical_record"),
    # codec errors inside one leaf carry that leaf's ChallengeRef too
    Bad("evidence1-trailing-byte", "evidence", 1, lambda blob: blob + b"\x00",
        "codec.trailing_bytes"),
    Bad("step5-float", "steps", 5, raw(b"\xa1\x61a\xf9\x3c\x00"), "codec.float"),
]


def rebuilt(case: Bad) -> bytes:
    b = bundle()
    replacement = case.make(record_of(b, case.slot, case.index))
    if case.index is None:
        new: Any = replacement
    else:
        new = list(getattr(b, case.slot))
        new[case.index] = replacement
    # The generator's verdict fix-up parses the verdict: skip it when the verdict
    # itself is the bad record (its references are already right).
    return _generator().rebuild(b, fix_verdict=case.slot != "verdict", **{case.slot: new})


def test_base_bundle_verifies() -> None:
    b = bundle()
    assert (len(b.evidence), len(b.steps)) == (3, 8)
    assert check_bundle(valid_bundle()).status == "verified"
    # rebuild() with nothing replaced gives the same bytes: it adds no change of its own.
    assert _generator().rebuild(b) == valid_bundle()


@pytest.mark.parametrize("case", BAD, ids=[c.case_id for c in BAD])
def test_bad_record_in_a_bundle(case: Bad) -> None:
    data = rebuilt(case)
    parts = Bundle.from_cbor(data)
    # Every commitment matches the record bytes: only the record is wrong.
    recomputed = compute_commitments(**{s: getattr(parts, s) for s in SLOTS})
    assert recomputed == parts.commitments
    assert record_of(parts, case.slot, case.index) != record_of(bundle(), case.slot, case.index)
    report = check_bundle(data)
    assert report.status == "rejected"
    failure = report.first_failure
    assert failure is not None
    assert (failure.check_id, failure.challenge) == (case.check_id,
                                                     expected_ref(case.slot, case.index))
    # Rejected at step 2 (schema), right after a successful decode (SPEC §6.2);
    # a step record is decoded only where it differs from its replay (step 5, SPEC §17).
    if case.slot == "steps":
        assert [c.check_id for c in report.checks] == [
            "codec.ok", "schema.ok", "commit.ok", "manifest.ok", case.check_id]
    else:
        assert [c.check_id for c in report.checks] == ["codec.ok", case.check_id]


def test_schema_is_checked_before_commitments() -> None:
    # A step's bytes in the verdict slot with the old commitments: step 2 reports
    # the wrong schema before step 3 could report the verdict hash.
    b = bundle()
    data = b.model_copy(update={"verdict": b.steps[7]}).to_cbor()
    failure = check_bundle(data).first_failure
    assert failure is not None
    assert (failure.check_id, failure.challenge) == ("schema.unknown_schema",
                                                     ChallengeRef(kind="verdict"))


# --- group 21: records changed after commitment; commitments to absent records ------

CLASSES: dict[str, Any] = {"manifest": Manifest, "prompt_spec": PromptSpec,
                           "evidence": EvidenceItem, "trace_header": TraceHeader,
                           "steps": ReasoningStep, "verdict": DeterministicVerdict}


def _changed(slot: str, index: int | None, **changes: Any) -> bytes:
    record = CLASSES[slot].from_cbor(record_of(bundle(), slot, index))
    return bytes(record.model_copy(update=changes).to_cbor())


CHANGED_AFTER_COMMIT = [
    ("manifest", None, {"judge_version": "por-judge/9"}, "commit.manifest_hash", "por_bundle"),
    ("prompt_spec", None, {"timestamp_slack_seconds": 60}, "commit.prompt_spec_hash",
     "prompt_spec"),
    ("evidence", 1, {"confidence_bps": 10_000}, "commit.evidence_root", "evidence_leaf"),
    ("trace_header", None, {"trace_id": "trace_other"}, "commit.trace_header_hash",
     "por_bundle"),
    ("steps", 5, {"description": "forged"}, "commit.reasoning_root", "reasoning_leaf"),
    ("verdict", None, {"outcome": "NO"}, "commit.verdict_hash", "verdict"),
]


@pytest.mark.parametrize(("slot", "index", "changes", "check_id", "kind"), CHANGED_AFTER_COMMIT,
                         ids=[row[3] for row in CHANGED_AFTER_COMMIT])
def test_record_changed_after_commitment(slot: str, index: int | None,
                                         changes: dict[str, Any], check_id: str,
                                         kind: str) -> None:
    b = bundle()
    new = _changed(slot, index, **changes)
    value: Any = new if index is None else [new if i == index else x
                                            for i, x in enumerate(getattr(b, slot))]
    data = b.model_copy(update={slot: value}).to_cbor()  # commitments left as they were
    report = check_bundle(data)
    failure = report.first_failure
    assert report.status == "rejected" and failure is not None
    assert (failure.check_id, failure.challenge) == (check_id, ChallengeRef(kind=kind))
    name = check_id.removeprefix("commit.")
    recomputed = compute_commitments(**{s: getattr(b, s) for s in SLOTS if s != slot},
                                     **{slot: value})
    # expected = what the records hash to now, actual = what was committed.
    assert failure.expected == getattr(recomputed, name).hex()
    assert failure.actual == getattr(b.commitments, name).hex()


def _without_last(slot: str) -> dict[str, Any]:
    b = bundle()
    return {s: getattr(b, s) for s in SLOTS} | {slot: list(getattr(b, slot))[:-1]}


def test_last_evidence_removed_commitments_kept_is_evidence_root() -> None:
    # evidence_root is compared before evidence_count (SPEC §5.3/§6.2 order).
    b = bundle()
    data = b.model_copy(update={"evidence": b.evidence[:-1]}).to_cbor()
    failure = check_bundle(data).first_failure
    assert failure is not None
    assert (failure.check_id, failure.challenge) == ("commit.evidence_root",
                                                     ChallengeRef(kind="evidence_leaf"))


def test_count_claims_an_item_that_is_not_there_is_evidence_count() -> None:
    # Root, verdict references and por_root all agree with the two items that are
    # there, but evidence_count (and its component leaf) claims three.
    b = bundle()
    parts = _without_last("evidence")
    honest = compute_commitments(**parts)
    verdict = DeterministicVerdict.from_cbor(b.verdict).model_copy(update={
        "evidence_root": honest.evidence_root, "evidence_count": 3})
    parts["verdict"] = verdict.to_cbor()
    lying = compute_commitments(**parts).model_copy(update={"evidence_count": 3})
    lying = lying.model_copy(update={"por_root": por_root_from_components(
        lying.component_leaves())})
    data = b.model_copy(update={**parts, "commitments": lying}).to_cbor()
    failure = check_bundle(data).first_failure
    assert failure is not None
    assert (failure.check_id, failure.expected, failure.actual) == (
        "commit.evidence_count", "2", "3")
    assert failure.challenge == ChallengeRef(kind="evidence_leaf")


def test_verdict_refers_to_a_removed_item_is_verdict_refs() -> None:
    # Bundle commitments are honest for two items; the verdict still commits to three.
    data = _generator().rebuild(bundle(), fix_verdict=False, evidence=bundle().evidence[:-1])
    failure = check_bundle(data).first_failure
    assert failure is not None
    assert (failure.check_id, failure.challenge) == ("commit.verdict_refs",
                                                     ChallengeRef(kind="verdict"))


def test_last_step_removed_commitments_kept_is_reasoning_root() -> None:
    b = bundle()
    data = b.model_copy(update={"steps": b.steps[:-1], "forms": b.forms[:-1]}).to_cbor()
    failure = check_bundle(data).first_failure
    assert failure is not None
    assert (failure.check_id, failure.challenge) == ("commit.reasoning_root",
                                                     ChallengeRef(kind="reasoning_leaf"))
    # Without a form hash dropped too, the count of form hashes is wrong first (step 2).
    data = b.model_copy(update={"steps": b.steps[:-1]}).to_cbor()
    failure = check_bundle(data).first_failure
    assert failure is not None
    assert (failure.check_id, failure.expected, failure.actual) == (
        "schema.forms_count", str(len(b.forms) - 1), str(len(b.forms)))


def test_header_counts_a_step_that_is_not_there_is_step_count() -> None:
    # Every hash recomputed over seven steps; the trace header still says eight.
    data = _generator().rebuild(bundle(), steps=bundle().steps[:-1])
    failure = check_bundle(data).first_failure
    assert failure is not None
    assert (failure.check_id, failure.expected, failure.actual, failure.challenge) == (
        "bundle.step_count", "7", "8", ChallengeRef(kind="por_bundle"))


def test_evidence_item_cap_is_a_schema_failure() -> None:
    """SPEC §5.1: at most 200 000 evidence items per bundle (memory bound)."""
    from por.encoding import encode
    from por.schemas.evidence import MAX_EVIDENCE_ITEMS

    raw = {"schema": "por.Bundle/2", "manifest": b"", "prompt_spec": b"",
           "evidence": [b""] * (MAX_EVIDENCE_ITEMS + 1), "trace_header": b"", "steps": [],
           "verdict": b"", "forms": [], "commitments": {}, "signatures": []}
    report = check_bundle(encode(raw))
    assert report.status == "rejected"
    assert report.first_failure is not None
    assert report.first_failure.check_id == "schema.value"
    assert "evidence" in report.first_failure.message
