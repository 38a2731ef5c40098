"""Batch judgement and offline verification, with por-judge/1 and a wire double (SPEC §15.5-6)."""

from __future__ import annotations

import pytest
from judges_support import (
    Sleeps,
    WireDouble,
    deterministic_manifest,
    llm_manifest,
    run,
    subjects,
    vote_body,
)

from por.locked_judges import (
    BatchJudgementFailedError,
    JudgeCall,
    JudgeLockError,
    JudgementBundle,
    deterministic_transport,
    verify_judgement,
)
from por.locked_judges.errors import JudgementError


def test_deterministic_judge_rejudges_every_example_market() -> None:
    data = run(deterministic_manifest(), subjects(), deterministic_transport, max_parallel=3)
    summary = verify_judgement(data)
    assert summary.report.status == "complete"
    assert summary.report.judged_count == 15
    outcomes = sorted(v.outcome for v in summary.votes)
    assert outcomes.count("INVALID") == 4 and outcomes.count("YES") == 9


def test_same_inputs_same_bytes_whatever_the_parallelism_and_order() -> None:
    subs = subjects()
    one = run(deterministic_manifest(), subs, deterministic_transport, max_parallel=1)
    many = run(deterministic_manifest(), list(reversed(subs)), deterministic_transport,
               max_parallel=8)
    assert one == many


def test_duplicate_subject_is_refused() -> None:
    subs = subjects(2)
    with pytest.raises(JudgementError) as info:
        run(deterministic_manifest(), [*subs, subs[0]], deterministic_transport)
    assert info.value.check_id == "judgement.subject_duplicate"


def test_incompatible_subject_fails_preflight_before_any_call() -> None:
    manifest = llm_manifest(compatible_spec_versions=["2.0"])
    double = WireDouble(lambda i, a: (200, vote_body()))
    with pytest.raises(JudgeLockError) as info:
        run(manifest, subjects(2), double)
    assert info.value.check_id == "lock.incompatible"
    assert double.seen == []


def test_transient_errors_are_retried_with_exponential_backoff() -> None:
    script = {1: (503, b'{"error":"busy"}'), 2: (429, b'{"error":"slow down"}'),
              3: (0, b""), 4: (200, vote_body("NO", 40))}
    sleeps = Sleeps()
    data = run(llm_manifest(), subjects(1), WireDouble(lambda i, a: script[a]), sleep=sleeps)
    summary = verify_judgement(data)
    assert sleeps.delays == [1.0, 2.0, 4.0]
    assert [c.attempt for c in summary.calls] == [1, 2, 3, 4]
    assert [c.error_kind for c in summary.calls] == ["server_error", "rate_limit", "timeout",
                                                     None]
    assert (summary.votes[0].outcome, summary.votes[0].confidence_bps) == ("NO", 4000)


def test_retry_budget_runs_out_then_the_subject_fails() -> None:
    data = run(llm_manifest(), subjects(1), WireDouble(lambda i, a: (503, b"{}")))
    summary = verify_judgement(data)
    assert len(summary.calls) == 4  # max_retries 3
    assert summary.report.status == "partial_success"
    assert summary.report.failed[0].error_kind == "server_error"


@pytest.mark.parametrize(("status", "body", "kind", "check_id"), [
    (404, b"{}", "model_unavailable", "judgement.unavailable"),
    (599, b"{}", "model_unavailable", "judgement.unavailable"),
    (401, b"{}", "auth", "judgement.auth"),
    (200, vote_body("YES", 500), "invalid_response", "judgement.vote_range"),
    (200, vote_body("MAYBE", 50), "invalid_response", "judgement.vote_parse"),
    (200, b"not json", "invalid_response", "judgement.response_parse"),
])
def test_permanent_errors_fail_closed_without_retry(status: int, body: bytes, kind: str,
                                                    check_id: str) -> None:
    double = WireDouble(lambda i, a: (status, body))
    summary = verify_judgement(run(llm_manifest(), subjects(1), double))
    assert double.seen == [(0, 1)]
    assert summary.report.failed[0].error_kind == kind
    assert summary.report.failed[0].check_id == check_id
    assert summary.votes == []


def test_strict_mode_aborts_and_writes_nothing() -> None:
    manifest = llm_manifest(fail_closed_mode="strict")
    double = WireDouble(lambda i, a: (200, vote_body()) if i != 1 else (404, b"{}"))
    with pytest.raises(BatchJudgementFailedError) as info:
        run(manifest, subjects(3), double)
    assert info.value.check_id == "judgement.batch_failed"


def test_partial_save_commits_the_judged_subjects() -> None:
    double = WireDouble(lambda i, a: (200, vote_body()) if i != 1 else (404, b"{}"))
    summary = verify_judgement(run(llm_manifest(), subjects(3), double))
    assert summary.report.status == "partial_success"
    assert [v.subject_index for v in summary.votes] == [0, 2]
    assert [f.subject_index for f in summary.report.failed] == [1]


def test_lock_violations_on_the_wire_fail_closed() -> None:
    dropped = verify_judgement(run(llm_manifest(), subjects(1),
                                   WireDouble(lambda i, a: (200, vote_body()), drop="top_k")))
    assert dropped.report.failed[0].check_id == "judgement.param_missing"
    aliased = verify_judgement(run(llm_manifest(), subjects(1),
                                   WireDouble(lambda i, a: (200, vote_body()), model="gpt-4o")))
    assert aliased.report.failed[0].check_id == "judgement.model_rewritten"


def test_a_call_records_the_wire_and_the_hashes() -> None:
    data = run(llm_manifest(), subjects(1), WireDouble(lambda i, a: (200, vote_body())))
    call = JudgeCall.from_cbor(JudgementBundle.from_cbor(data).calls[0])
    assert b'"top_k": 1' in call.wire_request
    assert call.result == "vote" and call.status == 200


def test_a_hosted_answer_from_another_snapshot_is_a_lock_violation() -> None:
    from judges_support import completion, config, lock_from_config_for, prompt_files

    cfg = config("smollm2-135m.yaml")
    cfg["model_lock"] = {"kind": "hosted", "provider": "test-only", "model": "m",
                         "version_lock": "m-2026-01-01", "fallback": None}
    cfg["determinism"] = "none"
    del cfg["runtime"]
    manifest = lock_from_config_for(cfg, prompt_files())
    answer = '{"outcome": "YES", "confidence": 90}'
    good = run(manifest, subjects(1),
               WireDouble(lambda i, a: (200, completion(answer, model="m-2026-01-01"))))
    assert verify_judgement(good).report.status == "complete"
    swapped = run(manifest, subjects(1),
                  WireDouble(lambda i, a: (200, completion(answer, model="m-2026-03-01"))))
    failed = verify_judgement(swapped).report.failed
    assert [(f.error_kind, f.check_id) for f in failed] == [
        ("lock_violation", "judgement.version_mismatch")]
