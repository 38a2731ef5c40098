"""Robustness of ``check_bundle`` (SPEC §6) and ``check_proof`` (SPEC §10.4-10.5) on garbage.

Bundles: the Bundle map with wrong types or nesting, random values or other
records in each slot (commitments recomputed), garbage commitments, no evidence
or steps, records of another market, mutated signatures: ``rejected`` (``error``
only for ``manifest.unsupported_*``, ``signature.no_time``), never an exception.
Proofs: random bytes, valid proofs with one field replaced (``challenge_id``
recomputed or not): never ``verified`` nor ``internal.error``.  One-step proofs
over altered committed steps verify with an outcome (SPEC §10.5), never crash.
The findings of the review that wrote these tests (a crash in one-step re-execution,
unbounded regex and json_path work) are fixed; their tests stay as regressions.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from file_modules import load_file
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from por.bundle import Bundle, build_bundle
from por.challenge import (
    build_bundle_proof,
    build_inclusion_proof,
    build_one_step_proof,
    challenge_id_from_body,
    check_proof,
)
from por.encoding import decode, encode
from por.scenarios import list_scenarios, load_scenario
from por.schemas import ReasoningStep
from verifier import check_bundle

GENERATOR_PATH = Path(__file__).resolve().parents[2] / "fixtures" / "bundles" / "generate.py"
SCENARIOS = list_scenarios()
EXAMPLES = settings().max_examples * 3
#: The only checks that may end a consistent-looking bundle in "error" (SPEC §6.2).
ALLOWED_ERRORS = ("manifest.unsupported_", "signature.no_time")


GEN: Any = load_file("gen_bundles_robust", GENERATOR_PATH)
NOW: int = GEN.VERIFY_NOW


@cache
def base_bundle(name: str) -> bytes:
    scenario = load_scenario(name)
    return build_bundle(scenario.prompt_spec, scenario.evidence)


@cache
def signed_bundle(scheme: str) -> bytes:
    return GEN.signed(base_bundle(SCENARIOS[0]), scheme)  # type: ignore[no-any-return]


cbor_scalars = st.one_of(
    st.integers(-2**64, 2**64 - 1), st.booleans(), st.text(max_size=12),
    st.binary(max_size=48), st.sampled_from([0, 1, 2**63 - 1, 2**63, 2**64 - 1, -1, b"\0" * 32,
                                             b"\0" * 40, "por.Bundle/1", ""]))
cbor_values = st.recursive(
    cbor_scalars, lambda c: st.one_of(
        st.lists(c, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(
            ["schema", "step_id", "market_id", "evidence_id", "kind", "output"])), c,
            max_size=4)),
    max_leaves=10)


def assert_not_verified(report: Any) -> None:
    """``rejected``, or ``error`` only for the allowed checks; never internal.error."""
    failure = report.first_failure
    assert failure is not None, "a non-verified report names its failure"
    shown = (report.status, failure.check_id, failure.message)
    if report.status == "error":
        assert failure.check_id.startswith(ALLOWED_ERRORS), shown
    else:
        assert report.status == "rejected", shown


def perturb(data: st.DataObject, value: Any,
            fallback: st.SearchStrategy[Any] | None = None) -> Any:
    """A value of the same shape (bit flip, +-k, one list element dropped or
    repeated), or one drawn from ``fallback`` (any por-cbor value)."""
    if isinstance(value, bytes) and value and data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(value) - 1))
        return value[:at] + bytes([value[at] ^ data.draw(st.integers(1, 255))]) \
            + value[at + 1:]
    if isinstance(value, int) and not isinstance(value, bool) and data.draw(st.booleans()):
        shifted = value + data.draw(st.sampled_from([-1, 1, -value - 1, 2**63]))
        return shifted if -2**64 <= shifted < 2**64 else -1
    if isinstance(value, list) and value and data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(value) - 1))
        return value[:at] + value[at + 1:] if data.draw(st.booleans()) \
            else value[:at + 1] + value[at:]
    return data.draw(cbor_values if fallback is None else fallback)


def first(report: Any) -> tuple[str, str | None]:
    failure = report.first_failure
    return report.status, None if failure is None else failure.check_id


# --- bundles ---------------------------------------------------------------------------

VERSIONS = st.sampled_from(["por-judge/2", "por-auditor/2", "1.1", "sha-512", "rfc6962",
                           "por-cbor/2", "por.Manifest/2"])
SLOTS = ("manifest", "prompt_spec", "evidence", "trace_header", "steps", "verdict")


@settings(max_examples=EXAMPLES)
@given(st.sampled_from(SCENARIOS), st.sampled_from(SLOTS), st.data())
def test_random_values_in_record_slots(name: str, slot: str, data: st.DataObject) -> None:
    bundle = Bundle.from_cbor(base_bundle(name))
    other = Bundle.from_cbor(base_bundle(data.draw(st.sampled_from(SCENARIOS))))
    records = [other.manifest, other.prompt_spec, other.trace_header, other.verdict,
               *other.evidence, *other.steps]
    own = getattr(bundle, slot)  # the slot's record, one field scrambled
    record = decode(own[0] if isinstance(own, list) else own)
    scramble(data, record, st.one_of(cbor_values, VERSIONS))
    blob = data.draw(st.one_of(cbor_values.map(encode), st.binary(max_size=64),
                               st.sampled_from(records), st.just(encode(record))))
    if slot in ("evidence", "steps"):
        current = list(getattr(bundle, slot))
        at = data.draw(st.integers(0, len(current)))
        replace = at < len(current) and data.draw(st.booleans())
        current[at:at + int(replace)] = [blob]
        value: Any = current
    else:
        value = blob
    assume(value != getattr(bundle, slot))
    rebuilt = GEN.rebuild(bundle, fix_verdict=slot != "verdict", **{slot: value})
    assert_not_verified(check_bundle(rebuilt))


COMMITMENT_VALUES = st.one_of(
    st.sampled_from([0, 1, 2**63 - 1, 2**63, 2**64 - 1, -1, -2**64, b"", b"\0" * 31,
                     b"\0" * 33, b"\xff" * 32, "00" * 32, True]),
    st.binary(min_size=32, max_size=32), cbor_values)
_GONE = object()


def scramble(data: st.DataObject, node: dict[str, Any], values: st.SearchStrategy[Any]) -> None:
    """Replace, drop, nest or wrap one to three entries of ``node``; maybe add a key."""
    for key in data.draw(st.lists(st.sampled_from(sorted(node)), min_size=1, max_size=3,
                                  unique=True)):
        new = data.draw(st.one_of(values, st.sampled_from([_GONE, {key: node[key]},
                                                           [node[key]]])))
        if new is _GONE:
            del node[key]
        else:
            node[key] = new
    if data.draw(st.booleans()):
        node[data.draw(st.sampled_from(["zzz", "a", "por_root2", ""]))] = data.draw(values)


@settings(max_examples=EXAMPLES * 2)
@given(st.sampled_from(SCENARIOS), st.booleans(), st.data())
def test_bundle_map_and_commitments_with_wrong_types(name: str, inner: bool,
                                                     data: st.DataObject) -> None:
    top = decode(base_bundle(name))
    scramble(data, top["commitments"] if inner else top,
             COMMITMENT_VALUES if inner else cbor_values)
    blob = encode(top)
    assume(blob != base_bundle(name))
    assert_not_verified(check_bundle(blob, now=NOW))


@settings(max_examples=EXAMPLES)
@given(st.sampled_from(SCENARIOS), st.binary(max_size=200), st.integers(0, 2000))
def test_random_bytes_and_truncations(name: str, noise: bytes, cut: int) -> None:
    base = base_bundle(name)
    for blob in (noise, base[:cut], base[:cut] + noise, noise + base[cut:]):
        if blob != base:
            assert_not_verified(check_bundle(blob))
    assert_not_verified(check_bundle(base, max_size=max(1, min(cut, len(base) - 1))))


def _cross(name: str, donor: str, slot: str) -> bytes:
    bundle = Bundle.from_cbor(base_bundle(name))
    other = Bundle.from_cbor(base_bundle(donor))
    return GEN.rebuild(bundle, **{slot: getattr(other, slot)})  # type: ignore[no-any-return]


@pytest.mark.parametrize(("slot", "donor", "check_id"), [
    ("prompt_spec", "02-boolean-not-observed", "bundle.market_id"),
    ("prompt_spec", "08-quorum-agree", "bundle.market_id"),
    ("verdict", "02-boolean-not-observed", "bundle.market_id"),
    ("trace_header", "02-boolean-not-observed", "bundle.market_id"),
    ("steps", "02-boolean-not-observed", "replay.step_mismatch"),
    ("steps", "08-quorum-agree", "bundle.step_count"),
    ("evidence", "02-boolean-not-observed", "replay.step_mismatch"),
])
def test_records_of_another_market(slot: str, donor: str, check_id: str) -> None:
    assert first(check_bundle(_cross("01-boolean-observed", donor, slot))) == (
        "rejected", check_id)


@pytest.mark.parametrize("name", SCENARIOS)
def test_empty_evidence_and_empty_steps(name: str) -> None:
    bundle = Bundle.from_cbor(base_bundle(name))
    header = decode(bundle.trace_header)
    # The trace length follows from the counts (n + 2r + 3), checked before replay.
    assert first(check_bundle(GEN.rebuild(bundle, evidence=[]))) == (
        "rejected", "replay.step_count")
    assert first(check_bundle(GEN.rebuild(bundle, steps=[]))) == (
        "rejected", "bundle.step_count")
    header["step_count"] = 0
    assert first(check_bundle(GEN.rebuild(bundle, steps=[], trace_header=encode(header)))) == (
        "rejected", "replay.step_count")


@settings(max_examples=EXAMPLES)
@given(st.sampled_from(["secp256k1", "ed25519"]), st.data())
def test_mutated_signatures(scheme: str, data: st.DataObject) -> None:
    bundle = Bundle.from_cbor(signed_bundle(scheme))
    record = decode(bundle.signatures[0])
    key = data.draw(st.sampled_from(sorted(record)))
    original = record[key]
    record[key] = perturb(data, original)
    assume(record[key] != original)
    signatures = [encode(record)]
    if data.draw(st.booleans()):
        signatures.insert(data.draw(st.integers(0, 1)), bundle.signatures[0])
    blob = bundle.model_copy(update={"signatures": signatures}).to_cbor()
    assert_not_verified(check_bundle(blob, now=NOW))
    # The signature layout (count, one per signer, signer order: SPEC §17) is checked
    # at step 2, before any time is needed; otherwise no time is "no verdict".
    status, check_id = first(check_bundle(blob))
    assert (status, check_id) == ("error", "signature.no_time") or (
        status == "rejected" and check_id.startswith(("bundle.signature_", "schema.", "codec."))
    ), (status, check_id)


# --- proofs ------------------------------------------------------------------------------

def assert_proof_invalid(data: bytes) -> None:
    """Not verified, and not "no verdict" unless the schema is an unknown proof version."""
    report = check_proof(data)  # must not raise
    shown = (report.status, report.check_id, report.message)
    assert report.status != "valid", shown
    if report.status == "error":
        assert report.check_id == "proof.unsupported", shown


@cache
def valid_proofs(name: str) -> tuple[bytes, ...]:
    """Every proof one scenario bundle supports: inclusion of each leaf, bundle, one-step."""
    bundle = Bundle.from_cbor(base_bundle(name))
    proofs = [build_inclusion_proof(bundle, "prompt_spec"),
              build_inclusion_proof(bundle, "verdict"), build_bundle_proof(bundle),
              *(build_inclusion_proof(bundle, "evidence_leaf", i)
                for i in range(len(bundle.evidence))),
              *(build_inclusion_proof(bundle, "reasoning_leaf", i)
                for i in range(len(bundle.steps))),
              *(build_one_step_proof(bundle, i) for i in range(len(bundle.steps)))]
    return tuple(p.to_cbor() for p in proofs)


def reseal(proof: dict[str, Any]) -> None:
    """Recompute ``challenge_id`` of a proof map in place (SPEC §10.3)."""
    body = {k: v for k, v in proof.items() if k != "challenge_id"}
    proof["challenge_id"] = challenge_id_from_body(body)


PROOF_SCHEMAS = st.sampled_from(["por.InclusionProof/1", "por.BundleProof/1",
                                  "por.OneStepProof/1", "por.InclusionProof/2", "por.Bundle/1"])
PROOF_KEYS = st.sampled_from(["kind", "leaf", "por_root", "challenge_id", "step",
                              "component_leaves", "leaf_path", "tree_size", "evidence"])


@settings(max_examples=EXAMPLES * 2)
@given(st.one_of(st.binary(max_size=300), cbor_values.map(encode), st.builds(
    lambda schema, fields: encode({**fields, "schema": schema}), PROOF_SCHEMAS,
    st.dictionaries(PROOF_KEYS, cbor_values, max_size=6))))
def test_random_proof_bytes(data: bytes) -> None:
    assert_proof_invalid(data)


@settings(max_examples=EXAMPLES * 2)
@given(st.sampled_from(SCENARIOS), st.data())
def test_valid_proofs_with_one_field_replaced(name: str, data: st.DataObject) -> None:
    original = data.draw(st.sampled_from(valid_proofs(name)))
    assert check_proof(original).status == "valid"
    proof = decode(original)
    target = proof
    nested = [k for k in ("step", "prompt_spec") if k in proof] + [
        (k, i) for k in ("evidence", "prior_steps") for i in range(len(proof.get(k, [])))]
    if data.draw(st.booleans()) and nested:
        where = data.draw(st.sampled_from(nested))
        target = proof[where] if isinstance(where, str) else proof[where[0]][where[1]]
    key = data.draw(st.sampled_from(sorted(target)))
    target[key] = perturb(data, target[key])
    if key != "challenge_id" and data.draw(st.booleans()):
        if target is not proof and isinstance(target, dict):
            reseal(target)
        reseal(proof)
    blob = encode(proof)
    assume(blob != original)
    assert_proof_invalid(blob)


def _with_step(name: str, index: int, output: dict[str, Any], **fields: Any) -> Bundle:
    bundle = Bundle.from_cbor(base_bundle(name))
    step = ReasoningStep.from_cbor(bundle.steps[index])
    steps = list(bundle.steps)
    steps[index] = step.model_copy(update={"output": output, **fields}).to_cbor()
    return Bundle.from_cbor(GEN.rebuild(bundle, steps=steps))


def _citations(data: st.DataObject, ids: list[str], pool: list[str]) -> list[str]:
    """``ids`` as they are, reversed, with a repeat, cut, or drawn from ``pool``."""
    drawn = st.lists(st.sampled_from(pool), max_size=4) if pool else st.nothing()
    return data.draw(st.one_of(st.sampled_from([ids, ids[::-1], ids + ids[:1], ids[1:]]),
                               drawn))


step_values = st.recursive(
    st.one_of(st.integers(-2**64, 2**64 - 1), st.booleans(), st.text(max_size=10),
              st.sampled_from([-1, 2**63, 2**64 - 1, 0, "", "-0", "1.50", "x" * 200]),
              st.sampled_from(["selected", "missing", "251.4", "timestamp", "numeric",
                               "boolean", "ev-exchange-alpha", "step_0001", "1e3"])),
    lambda c: st.one_of(st.lists(c, max_size=3),
                        st.dictionaries(st.sampled_from(
                            ["key", "kind", "value", "status", "evidence_ids", "claim_ids",
                             "admitted", "evidence_id", "fallback_used", "x"]), c,
                            max_size=4)),
    max_leaves=8)


def _edit_leaf(data: st.DataObject, node: Any) -> None:
    """Replace one value somewhere inside a step output (in place)."""
    while True:
        keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and data.draw(st.integers(0, 3)) > 0:
            node = child
            continue
        node[key] = perturb(data, child, step_values)
        return


@settings(max_examples=EXAMPLES * 2)
@given(st.sampled_from(SCENARIOS), st.data())
def test_one_step_proofs_over_altered_steps_never_crash(name: str, data: st.DataObject) -> None:
    # A committed step altered (its output edited deep inside), commitments
    # recomputed; the one-step proof of that step and of every step citing it
    # verifies as a proof with an outcome, or is invalid -- never internal.error.
    base = Bundle.from_cbor(base_bundle(name))
    count = len(base.steps)
    index = data.draw(st.integers(0, count - 1))
    step = ReasoningStep.from_cbor(base.steps[index])
    output = decode(encode(step.output))
    for _ in range(data.draw(st.integers(1, 3))):
        _edit_leaf(data, output)
    inputs = decode(encode(step.inputs))
    if data.draw(st.integers(0, 3)) == 0:
        _edit_leaf(data, inputs)
    evidence_pool = [str(decode(e)["evidence_id"]) for e in base.evidence]
    bundle = _with_step(name, index, output, inputs=inputs, evidence_ids=_citations(
        data, step.evidence_ids, evidence_pool), prior_step_ids=_citations(
        data, step.prior_step_ids, [f"step_{i + 1:04d}" for i in range(index)]))
    for later in range(index, count):
        cited = ReasoningStep.from_cbor(bundle.steps[later]).prior_step_ids
        if later != index and f"step_{index + 1:04d}" not in cited:
            continue
        report = check_proof(build_one_step_proof(bundle, later).to_cbor())
        assert report.status == "valid", (later, report.check_id, report.message)
        assert report.outcome is not None


# --- findings of this review (all fixed; kept as regression tests) ---------------------

@pytest.mark.parametrize("value", [-1, 2**63])
def test_deduce_with_an_out_of_range_timestamp_is_won(value: int) -> None:
    # 08-quorum-agree: step_0005 aggregates req_close; its as_of field is made
    # "selected" with an out-of-range int; step_0007 (deduce) cites step_0005.
    original = ReasoningStep.from_cbor(Bundle.from_cbor(base_bundle("08-quorum-agree")).steps[4])
    output = decode(encode(original.output))
    output["fields"][1].update(status="selected", value=value)
    bundle = _with_step("08-quorum-agree", 4, output)
    report = check_proof(build_one_step_proof(bundle, 6).to_cbor())
    assert (report.status, report.check_id) == ("valid", "proof.ok"), report.message
    # Was internal.error: EvaluationVariables(timestamp=-1) raised a ValidationError.
    assert report.outcome is not None
    assert (report.outcome.outcome, report.outcome.cause) == ("won", "step.bad_prior_output")
