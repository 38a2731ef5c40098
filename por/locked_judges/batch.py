"""Batch judgement (seed 002 "Batch Processing", SPEC §15.5): subjects -> judgement bundle.

:func:`judge_batch` runs one locked judge over sorted, de-duplicated subjects
with at most ``max_parallel`` subjects in flight (``asyncio.Semaphore``).  Each
subject is tried until a vote, a fail-closed error, or the retry budget runs
out; every attempt becomes a ``por.JudgeCall/1``.  The seed's
``JudgeErrorHandler``: kinds in ``retry_on`` are retried after
``base_ms * 2**(attempt-1)`` ms (the sleep is injected, so tests never sleep),
every other kind fails closed.  ``strict`` aborts the batch on the first failed
subject and returns nothing; ``partial_save`` commits what was judged and
names the failures in the report.

The transport is a parameter: the deterministic judge, litellm through the
transcript server, or a test double; the bytes it returns are all that count.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from por.errors import PorError
from por.locked_judges.attempts import Sleep, Tried, run_attempts
from por.locked_judges.chain import (
    chained,
    check_preregistration,
    claim_for,
    preregister,
    preregistration_digest,
)
from por.locked_judges.errors import BatchJudgementFailedError, JudgementError
from por.locked_judges.layout import assemble
from por.locked_judges.manifest import (
    COURT_PARSER,
    DETERMINISTIC_JUDGE,
    VOTE_PARSER,
    JudgeManifest,
    require_compatible,
)
from por.locked_judges.outcome import Classified, Exchange, classify, deterministic_request, sha256
from por.locked_judges.records import (
    MAX_SUBJECTS,
    FailedSubject,
    JudgeBatchReport,
    JudgeCall,
    JudgePreregistration,
    JudgeSubject,
    LockedJudgeVote,
)
from por.locked_judges.render import messages_hash, render_messages
from por.locked_judges.subjects import deterministic_response, vote_from_verdict
from por.locked_judges.wire import request_hash

#: (manifest, subject index, subject, messages, attempt) -> what crossed the wire.
Transport = Callable[[JudgeManifest, int, JudgeSubject, list[dict[str, str]], int],
                     Awaitable[Exchange]]
Progress = Callable[[str], None]


@dataclass(frozen=True)
class SubjectResult:
    """Every attempt of one subject and its vote, if any."""

    calls: list[JudgeCall]
    vote: LockedJudgeVote | None
    failure: FailedSubject | None


def order_subjects(subjects: list[JudgeSubject]) -> list[JudgeSubject]:
    """Subjects sorted by bundle hash; a repeated bundle is ``judgement.subject_duplicate``."""
    if len(subjects) > MAX_SUBJECTS:
        raise JudgementError("judgement.too_many_subjects", "too many subjects",
                             expected=MAX_SUBJECTS, actual=len(subjects))
    ordered = sorted(subjects, key=lambda s: s.bundle_hash)
    for left, right in itertools.pairwise(ordered):
        if left.bundle_hash == right.bundle_hash:
            raise JudgementError("judgement.subject_duplicate", "a subject appears twice",
                                 actual=left.bundle_hash)
    return ordered


async def deterministic_transport(manifest: JudgeManifest, index: int, subject: JudgeSubject,
                                  messages: list[dict[str, str]], attempt: int) -> Exchange:
    """por-judge/1 as a transport: the request names the subject, the response is the
    replayed verdict."""
    del manifest, index, messages, attempt
    return Exchange(deterministic_request(subject.bundle_hash), 200,
                    deterministic_response(subject))


def classify_attempt(manifest: JudgeManifest, messages: list[dict[str, str]],
                     exchange: Exchange) -> Classified:
    """The judge-kind-aware classification of one attempt."""
    if manifest.parser == DETERMINISTIC_JUDGE:
        try:
            return Classified(None, "ok", vote_from_verdict(exchange.response))
        except PorError as exc:
            return Classified("invalid_response", exc.check_id, None)
    return classify(manifest, messages, exchange)


def messages_for(manifest: JudgeManifest, subject: JudgeSubject) -> list[dict[str, str]]:
    """Rendered messages (none for the deterministic judge)."""
    if manifest.parser == DETERMINISTIC_JUDGE:
        return []
    return render_messages(manifest, subject)


def call_record(manifest: JudgeManifest, index: int, subject: JudgeSubject, attempt: int,
                *, messages: list[dict[str, str]], exchange: Exchange,
                result: Classified) -> JudgeCall:
    """The ``por.JudgeCall/1`` of one attempt."""
    return JudgeCall(
        manifest_digest=manifest.digest(), subject_index=index, subject_hash=subject.bundle_hash,
        attempt=attempt, messages_hash=messages_hash(messages),
        request_hash=request_hash(exchange.wire_request),
        wire_request=exchange.wire_request, wire_request_hash=sha256(exchange.wire_request),
        status=exchange.status, response=exchange.response,
        response_hash=sha256(exchange.response),
        result="vote" if result.vote is not None else "error",
        error_kind=None if result.vote is not None else result.kind,  # type: ignore[arg-type]
        credential=exchange.credential,
    )


async def judge_subject(manifest: JudgeManifest, index: int, subject: JudgeSubject,
                        transport: Transport, sleep: Sleep, *,
                        preregistration: bytes) -> SubjectResult:
    """Attempts for one subject until a vote or a fail-closed error, chained from the
    run's ``preregistration`` digest (SPEC §15.11)."""
    messages = messages_for(manifest, subject)
    tried: list[Tried] = []

    def call(attempt: int) -> Awaitable[Exchange]:
        return transport(manifest, index, subject, messages, attempt)

    def classify_one(exchange: Exchange) -> Classified:
        return classify_attempt(manifest, messages, exchange)

    last = await run_attempts(manifest.retry_policy, call, classify_one, sleep, tried)
    calls = chained([call_record(manifest, index, subject, t.attempt, messages=messages,
                                 exchange=t.exchange, result=t.result) for t in tried],
                    preregistration, claim_for(manifest))
    if last.result.vote is not None:
        vote = LockedJudgeVote(manifest_digest=manifest.digest(), subject_index=index,
                         subject_hash=subject.bundle_hash, attempt=last.attempt,
                         outcome=last.result.vote[0],  # type: ignore[arg-type]
                         confidence_bps=last.result.vote[1])
        return SubjectResult(calls, vote, None)
    failure = FailedSubject(subject_index=index, error_kind=last.result.kind,  # type: ignore[arg-type]
                            check_id=last.result.check_id)
    return SubjectResult(calls, None, failure)


def report_from(manifest: JudgeManifest, subjects_count: int,
                results: list[SubjectResult], preregistration: bytes | None) -> JudgeBatchReport:
    """The batch report a set of results implies under the run's pre-registration
    bytes (the verifier recomputes it)."""
    failed = [r.failure for r in results if r.failure is not None]
    return JudgeBatchReport(
        manifest_digest=manifest.digest(), mode=manifest.fail_closed_mode,
        status="partial_success" if failed else "complete", subjects_count=subjects_count,
        judged_count=sum(1 for r in results if r.vote is not None),
        calls_count=sum(len(r.calls) for r in results), failed=failed,
        preregistration=preregistration)


async def judge_batch(manifest: JudgeManifest, subjects: list[JudgeSubject],
                      transport: Transport, *, max_parallel: int = 1,
                      sleep: Sleep = asyncio.sleep, progress: Progress | None = None,
                      run: int = 1,
                      preregistration: JudgePreregistration | None = None) -> bytes:
    """Judge every subject; return ``judgement.cbor`` bytes (SPEC §15.5).

    The run is pre-registered (``run`` is the operator's run number, SPEC §15.11)
    before the first call, or runs under ``preregistration`` made (and published)
    beforehand, which must name this lock and these subjects
    (``judgement.preregistration``, before any call); every attempt is chained from it.

    Raises ``BatchJudgementFailedError`` (strict mode, first failure) and the
    ``lock.*`` errors of the pre-flight (compatibility of every subject).
    """
    if manifest.parser == COURT_PARSER:
        raise JudgementError("judgement.parser", "a court judge rules on dispute cases "
                             "(por court rule), not on markets", expected=VOTE_PARSER,
                             actual=manifest.parser)
    ordered = order_subjects(subjects)
    for subject in ordered:  # pre-flight: fail before any call
        require_compatible(manifest, subject.spec_version)
    hashes = [s.bundle_hash for s in ordered]
    record = preregister([manifest], hashes, run) if preregistration is None \
        else preregistration
    check_preregistration(record, [manifest], hashes, JudgementError)
    prereg, digest = record.to_cbor(), preregistration_digest(record)
    semaphore = asyncio.Semaphore(max_parallel)
    total = len(ordered)
    done = 0

    async def bounded(index: int, subject: JudgeSubject) -> SubjectResult:
        nonlocal done
        async with semaphore:
            result = await judge_subject(manifest, index, subject, transport, sleep,
                                         preregistration=digest)
        done += 1
        if progress is not None:
            shown = (f"{result.vote.outcome} ({result.vote.confidence_bps} bps)"
                     if result.vote else f"FAILED {result.failure.check_id}"  # type: ignore[union-attr]
                     )
            progress(f"[{done}/{total}] {subject.subject_id}: {shown}")
        if result.failure is not None and manifest.fail_closed_mode == "strict":
            raise BatchJudgementFailedError(
                "judgement.batch_failed",
                f"judgement failed for {subject.subject_id}: {result.failure.check_id}; "
                f"fail-closed strict: batch aborted, nothing written "
                f"({done - 1}/{total} judged before)",
                expected="a vote", actual=result.failure.error_kind)
        return result

    tasks = [asyncio.ensure_future(bounded(i, s)) for i, s in enumerate(ordered)]
    try:
        results = list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    finally:
        close = getattr(transport, "aclose", None)
        if close is not None:
            await close()
    return assemble(
        manifest=manifest.to_cbor(),
        subjects=[s.to_cbor() for s in ordered],
        calls=[c.to_cbor() for r in results for c in r.calls],
        votes=[r.vote.to_cbor() for r in results if r.vote is not None],
        report=report_from(manifest, total, results, prereg).to_cbor(),
    )


def judgement_id(data: bytes) -> str:
    """A stable id for a judgement: hex SHA-256 of its bytes (no clock, no UUID)."""
    return hashlib.sha256(data).hexdigest()


__all__ = ["Transport", "classify_attempt", "deterministic_transport",
           "judge_batch", "judge_subject", "judgement_id", "messages_for", "order_subjects",
           "report_from"]
