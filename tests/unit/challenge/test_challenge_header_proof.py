"""SPEC §10.2.6: a trace header that is not derived from the committed inputs is
disputable (``replay.trace_header``): honest headers lose, forged ones win."""

from __future__ import annotations

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


def test_incomplete_evidence_is_an_invalid_proof() -> None:
    from por.challenge.records import body_of, seal

    bundle = honest("08-quorum-agree")
    body = body_of(build_header_proof(bundle))
    body["evidence"] = body["evidence"][:-1]
    short: HeaderProof = seal(HeaderProof, body)
    report = check_proof(short.to_cbor())
    assert (report.status, report.check_id) == ("invalid", "proof.citations")
