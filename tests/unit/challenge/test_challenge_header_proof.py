"""SPEC §10.2.6: a trace header that is not derived from the committed inputs is
disputable (``replay.trace_header``): honest headers lose, forged ones win."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bundle_edits import honest, recommit

from por.bundle.layout import Bundle
from por.challenge import (
    HeaderProof,
    NoProof,
    build_header_proof,
    check_proof,
    winning_proof,
)
from por.errors import SchemaError
from por.scenarios import list_scenarios
from por.schemas import ChallengeRef, TraceHeader, TracePolicy
from verifier import check_bundle


def with_header(bundle: Bundle, **changes: Any) -> Bundle:
    header = TraceHeader.from_cbor(bundle.trace_header).model_copy(update=changes)
    return recommit(bundle, trace_header=header.to_cbor())


@pytest.mark.parametrize("name", list_scenarios())
def test_honest_headers_lose(name: str) -> None:
    bundle = honest(name)
    report = check_proof(build_header_proof(bundle).to_cbor(),
                         por_root=bundle.commitments.por_root)
    assert (report.status, report.exit_code) == ("valid", 1), report.message
    assert report.outcome is not None and report.outcome.reason == "header.match"


@pytest.mark.parametrize(("changes", "field"), [
    ({"trace_id": "trace_forged"}, "trace_id"),
    ({"policy": TracePolicy(max_steps=4000)}, "policy.max_steps"),
])
def test_forged_headers_win(changes: dict[str, Any], field: str) -> None:
    bundle = with_header(honest("08-quorum-agree"), **changes)
    report = check_bundle(bundle.to_cbor())
    assert report.first_failure is not None
    assert report.first_failure.check_id == "replay.trace_header"
    result = check_proof(build_header_proof(bundle).to_cbor(),
                         por_root=bundle.commitments.por_root)
    assert (result.status, result.exit_code) == ("valid", 0), result.message
    assert result.outcome is not None and result.outcome.reason == "header.mismatch"
    assert field in {d.field for d in result.outcome.differences}
    found = winning_proof(bundle, report.first_failure.challenge or ChallengeRef(
        kind="por_bundle"))
    assert not isinstance(found, NoProof) and isinstance(found[0], HeaderProof)


def test_no_evidence_leaf_and_a_size_that_does_not_grow() -> None:
    """ADR 0011: trace_id is a function of the commitments (SPEC §12.5), so the proof
    carries no evidence leaf; an old-style ``evidence`` list is an extra field."""
    from file_modules import load_file

    from por.challenge.records import body_of, seal

    bench = load_file("bench_citations", Path(__file__).resolve().parents[3] / "bench"
                      / "citations.py")
    sizes = set()
    for count in (3, 300):
        bundle = with_header(bench.honest_bundle(count), trace_id="trace_" + "0" * 16)
        data = build_header_proof(bundle).to_cbor()
        report = check_proof(data, por_root=bundle.commitments.por_root)
        assert report.outcome is not None and report.outcome.reason == "header.mismatch"
        sizes.add(len(data))
    # Only the integers' widths (max_steps, step_count, tree sizes) differ.
    assert max(sizes) - min(sizes) < 16 and max(sizes) < 8 * 1024, sizes
    body = body_of(build_header_proof(honest("08-quorum-agree")))
    with pytest.raises(SchemaError):
        seal(HeaderProof, {**body, "evidence": []})
