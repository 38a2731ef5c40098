"""SPEC §18: rules the code applies that earlier sections left implicit (issue 12 §3).

One test (or vector table) per rule, each asserting the check id another
implementation must report, so it needs no guess.
"""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path
from typing import Any

import pytest

from por.bundle import Bundle
from por.challenge import build_inclusion_proof, check_proof
from por.encoding import decode, encode
from por.errors import PorError
from por.schemas import EvaluationVariables, PromptSpec, TraceHeader
from verifier import check_bundle

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.cbor"
RAW: dict[str, Any] = decode(VALID.read_bytes())  # type: ignore[assignment]
PROMPT: dict[str, Any] = decode(RAW["prompt_spec"])  # type: ignore[assignment]


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location(
        "fixture_generate", ROOT / "fixtures" / "bundles" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NOW = _generator().VERIFY_NOW


def _check_id(cls: Any, value: dict[str, Any]) -> str:
    try:
        cls.from_cbor(encode(value))
    except PorError as exc:
        return exc.check_id
    return "ok"


def _without(value: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any]:
    out = copy.deepcopy(value)
    node = out
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return out


def _first_failure(raw: dict[str, Any]) -> tuple[str, Any, list[str]]:
    report = check_bundle(encode(raw), now=NOW)
    failed = [c for c in report.checks if not c.ok and c.severity == "error"]
    passed = [c.check_id for c in report.checks if c.ok]
    return failed[0].check_id, failed[0].challenge, passed


# §18.1 Fields with a default are always written: deleting one is non-canonical.
DEFAULTED = [
    ("output_schema_ref",), ("strict_mode",), ("confidence_policy",),
    ("confidence_policy", "default_confidence_bps"),
    ("confidence_policy", "invalid_confidence_bps"),
    ("conflict_policy",), ("conflict_policy", "on_conflict"),
    ("conflict_policy", "numeric_tolerance"),
    ("timestamp_slack_seconds",), ("market", "dispute_policy", "challengers"),
    ("data_requirements", 0, "min_provenance_tier"),
    ("data_requirements", 0, "selection_policy", "min_sources"),
    ("data_requirements", 0, "selection_policy", "quorum"),
    ("data_requirements", 0, "selection_policy", "tie_breaker"),
    ("data_requirements", 0, "source_targets", 0, "method"),
]


@pytest.mark.parametrize("path", DEFAULTED, ids=lambda p: ".".join(map(str, p)))
def test_deleting_a_defaulted_field_is_non_canonical(path: tuple[Any, ...]) -> None:
    assert _check_id(PromptSpec, _without(PROMPT, path)) == "schema.non_canonical_record"


def test_the_json_form_fills_defaults() -> None:
    from por.schemas import PromptSpec as Spec

    spec = Spec.from_cbor(RAW["prompt_spec"])
    body = _without(spec.to_json_obj(), ("strict_mode",))
    assert Spec.from_json_obj(body).to_cbor() == RAW["prompt_spec"]


@pytest.mark.parametrize("path", [("market",), ("data_requirements",),
                                  ("data_requirements", 0, "expected_fields"),
                                  ("data_requirements", 0, "selection_policy", "strategy")])
def test_deleting_a_required_field_is_missing_field(path: tuple[Any, ...]) -> None:
    assert _check_id(PromptSpec, _without(PROMPT, path)) == "schema.missing_field"


@pytest.mark.parametrize("key", ["decoding_policy", "allow_external_facts"])
def test_trace_header_policy_defaults(key: str) -> None:
    header: dict[str, Any] = decode(RAW["trace_header"])  # type: ignore[assignment]
    assert _check_id(TraceHeader, _without(header, ("policy", key))) == (
        "schema.non_canonical_record")


# §18.2 Manifest fields are ids: a malformed one is exit 1, not unsupported.
@pytest.mark.parametrize(("value", "check_id"), [("", "schema.value"), (1, "schema.type"),
                                                 ("x" * 129, "schema.value")])
def test_malformed_manifest_version_is_rejected_not_unsupported(value: Any, check_id: str) -> None:
    raw = copy.deepcopy(RAW)
    manifest: dict[str, Any] = decode(raw["manifest"])  # type: ignore[assignment]
    manifest["spec_version"] = value
    raw["manifest"] = encode(manifest)
    report = check_bundle(encode(raw), now=NOW)
    assert report.status == "rejected"  # exit 1; "error" (exit 2) is for unsupported
    assert _first_failure(raw)[0] == check_id


# §18.3 PromptSpec cross-field rules.
@pytest.mark.parametrize(("strategy", "expected"), [("single_best", "ok"), ("fallback_chain", "ok"),
                                                    ("multi_source_quorum", "schema.value")])
def test_quorum_above_min_sources_only_matters_for_quorum(strategy: str, expected: str) -> None:
    spec = copy.deepcopy(PROMPT)
    spec["data_requirements"][0]["selection_policy"].update(
        {"strategy": strategy, "min_sources": 1, "quorum": 5})
    assert _check_id(PromptSpec, spec) == expected


@pytest.mark.parametrize(("count", "expected"), [(8, "ok"), (9, "schema.value")])
def test_expected_fields_at_most_8(count: int, expected: str) -> None:
    spec = copy.deepcopy(PROMPT)
    first = spec["data_requirements"][0]["expected_fields"][0]
    spec["data_requirements"][0]["expected_fields"] = [
        dict(first, key=f"k{i:02d}") for i in range(count)]
    assert _check_id(PromptSpec, spec) == expected


@pytest.mark.parametrize("changes", [{"threshold": "5"}, {"comparison": ">"},
                                     {"predicate": "numeric_threshold"},
                                     {"predicate": "numeric_threshold", "threshold": "5"}])
def test_numeric_predicate_pairing_is_schema_value(changes: dict[str, str]) -> None:
    spec = copy.deepcopy(PROMPT)
    spec["prediction_semantics"].update(changes)
    assert _check_id(PromptSpec, spec) == "schema.value"


@pytest.mark.parametrize(("sources", "expected"), [
    (["\uffff", "\U0001F600"], "ok"),            # code-point (= UTF-8 byte) order
    (["\U0001F600", "\uffff"], "schema.value"),  # UTF-16 order (JavaScript's <) would allow this
    (["a", "a"], "schema.value"),
])
def test_sorted_means_code_point_order(sources: list[str], expected: str) -> None:
    spec = copy.deepcopy(PROMPT)
    spec["market"]["allowed_sources"] = sources
    assert _check_id(PromptSpec, spec) == expected


# §18.4 Order in which a bundle's records are validated (§6.2 step 2, §17.3).
def test_manifest_is_validated_before_the_prompt_spec() -> None:
    raw = copy.deepcopy(RAW)
    manifest: dict[str, Any] = decode(raw["manifest"])  # type: ignore[assignment]
    manifest["spec_version"] = ""
    raw["manifest"] = encode(manifest)
    raw["prompt_spec"] = encode({})
    check_id, challenge, _ = _first_failure(raw)
    assert (check_id, challenge.kind) == ("schema.value", "por_bundle")


def test_evidence_is_validated_before_the_verdict() -> None:
    raw = copy.deepcopy(RAW)
    raw["evidence"] = [encode({})]
    raw["verdict"] = encode({})
    check_id, challenge, _ = _first_failure(raw)
    assert (check_id, challenge.kind) == ("schema.unknown_schema", "evidence_leaf")


def test_signature_records_are_validated_only_at_step_8() -> None:
    raw = copy.deepcopy(RAW)
    raw["signatures"] = [encode({"signer": b"\x01" * 20})]  # layout ok, record not
    check_id, _challenge, passed = _first_failure(raw)
    assert check_id == "schema.unknown_schema"
    assert {"schema.ok", "commit.ok", "manifest.ok", "replay.audit_ok", "trace.ok"} <= set(passed)


# §18.5 Decoder precedence and caps.
@pytest.mark.parametrize(("hex_input", "check_id"), [
    ("a2" "626262" "01" "61ff" "02", "codec.key_order"),   # out of order and not UTF-8
    ("a1" "61ff" "01", "codec.invalid_utf8"),
    ("a2" "6161" "01" "6161" "02", "codec.duplicate_key"),
])
def test_key_order_is_checked_before_utf8(hex_input: str, check_id: str) -> None:
    with pytest.raises(PorError) as caught:
        decode(bytes.fromhex(hex_input))
    assert caught.value.check_id == check_id


def test_container_cap_is_codec_too_large() -> None:
    count = 1_000_000
    data = b"\x9a" + count.to_bytes(4, "big") + b"\x80" * count
    with pytest.raises(PorError) as caught:
        decode(data)
    assert caught.value.check_id == "codec.too_large"


# §18.6 Derived values.
def test_derived_trace_policy() -> None:
    header: dict[str, Any] = decode(RAW["trace_header"])  # type: ignore[assignment]
    assert header["policy"]["allow_external_facts"] is False
    assert header["policy"]["decoding_policy"] == "deterministic"
    raw = copy.deepcopy(RAW)
    header["policy"]["allow_external_facts"] = True
    raw["trace_header"] = encode(header)
    # The header is committed: changing it breaks the commitment first.
    assert _first_failure(raw)[0] == "commit.trace_header_hash"


def test_signed_fixtures_verify_at_issued_at_plus_one() -> None:
    gen = _generator()
    assert (gen.SIGNED_AT, gen.VERIFY_NOW) == (1_767_225_600, 1_767_225_601)


# §18.7 Evaluation variables.
BASE_VARIABLES = {"conflict_detected": False, "insufficient_evidence": False,
                  "fallback_used": False, "provenance_ok": True, "source_summary": ["e1"]}


@pytest.mark.parametrize(("changes", "ok"), [
    ({}, True), ({"event_observed": True, "numeric_value": "1.5", "timestamp": 0}, True),
    ({"extra": 1}, False), ({"conflict_detected": 0}, False), ({"numeric_value": "1.50"}, False),
    ({"source_summary": ["e1", "e1"]}, False), ({"timestamp": -1}, False),
])
def test_valid_evaluation_variables(changes: dict[str, Any], ok: bool) -> None:
    values = {**BASE_VARIABLES, **changes}
    try:
        EvaluationVariables.model_validate(values, strict=True)
    except ValueError:
        assert not ok
    else:
        assert ok
    missing = dict(BASE_VARIABLES)
    del missing["provenance_ok"]
    with pytest.raises(ValueError):
        EvaluationVariables.model_validate(missing, strict=True)


# §18.8 Proof files.
BUNDLE = Bundle.from_cbor(VALID.read_bytes())
PROOF = build_inclusion_proof(BUNDLE, "evidence_leaf", 0).to_cbor()


@pytest.mark.parametrize(("schema", "check_id", "status"), [
    ("por.InclusionProof/2", "proof.unsupported", "error"),
    ("por.OmissionProof/999999999", "proof.unsupported", "error"),
    ("por.InclusionProof/1234567890", "proof.schema", "invalid"),
    ("por.InclusionProof/x", "proof.schema", "invalid"),
    ("por.Bundle/1", "proof.schema", "invalid"),
    ("por.inclusionproof/2", "proof.schema", "invalid"),
])
def test_unknown_proof_version_is_not_not_a_proof(schema: str, check_id: str,
                                                  status: str) -> None:
    body: dict[str, Any] = decode(PROOF)  # type: ignore[assignment]
    body["schema"] = schema
    report = check_proof(encode(body))
    assert (report.check_id, report.status) == (check_id, status)


def test_proof_size_cap() -> None:
    assert check_proof(PROOF, max_size=len(PROOF)).status == "valid"
    report = check_proof(PROOF, max_size=len(PROOF) - 1)
    assert report.check_id == "proof.malformed" and "codec.too_large" in report.message
