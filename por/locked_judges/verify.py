"""Offline verification of a judgement bundle (SPEC §15.6): no model, no network.

Steps (numbered as in SPEC §15.6):
  1. decode ``por.JudgementBundle/1`` and every record strictly;
  2. recompute the trees and ``judgement_root``;
  3. every record names the committed manifest's digest; the report holds the
     run's pre-registration, naming this lock and these subjects (§15.11);
  4. every subject follows from its committed PoR bundle, sorted and unique;
  5. calls: hashes of the wire bytes, request hashes rebuilt, prompts re-rendered,
     each attempt names the pre-registration, links to the one before it and
     claims its lock's level (§15.11), each attempt re-classified from its bytes
     (locked parameters on the wire,
     model not rewritten, answer parses), attempts gapless and within the retry
     policy, no attempt after a fail-closed error;
  6. votes equal the parse of their attempt's response; no vote is missing or extra;
  7. the batch report equals the one the calls imply;
  8. for ``por-judge/1`` the verdict is replayed and must be byte-identical.
The first failure raises ``JudgementError`` with its check id.
"""

from __future__ import annotations

from dataclasses import dataclass

from por.errors import UnsupportedError
from por.locked_judges.batch import SubjectResult, classify_attempt, messages_for, report_from
from por.locked_judges.calls import check_attempts, check_nothing
from por.locked_judges.chain import ChainCheck, check_preregistration, claim_for
from por.locked_judges.errors import JudgementError
from por.locked_judges.layout import JUDGEMENT
from por.locked_judges.manifest import DETERMINISTIC_JUDGE, JudgeManifest, parse_manifest
from por.locked_judges.outcome import Classified, Exchange, sha256
from por.locked_judges.profiles import profile_of
from por.locked_judges.records import (
    FailedSubject,
    JudgeBatchReport,
    JudgeCall,
    JudgementBundle,
    JudgePreregistration,
    JudgeSubject,
    LockedJudgeVote,
)
from por.locked_judges.subjects import SUBJECT_MAX_SIZE, check_subject, deterministic_response


@dataclass(frozen=True)
class JudgementSummary:
    """What a verified judgement bundle says."""

    manifest: JudgeManifest
    subjects: list[JudgeSubject]
    calls: list[JudgeCall]
    votes: list[LockedJudgeVote]
    report: JudgeBatchReport
    judgement_root: bytes

    @property
    def preregistration(self) -> JudgePreregistration:
        """The run's pre-registration (present in every verified judgement)."""
        return JudgePreregistration.from_cbor(self.report.preregistration or b"")


def fail(check_id: str, message: str, **kw: object) -> JudgementError:
    """A ``JudgementError`` to raise."""
    return JudgementError(check_id, message, **kw)


def decode_judgement(data: bytes, *, max_size: int = SUBJECT_MAX_SIZE) -> JudgementSummary:
    """Steps 1-2: decode everything and check the commitments (nothing replayed),
    in the one opening order of every committed bundle (SPEC §5.5)."""
    bundle, (manifest, subjects, calls, votes, report) = JUDGEMENT.open(
        data, max_size=max_size, decode_records=_decode_records)
    if bundle.signatures:
        # Reserved: no signature scheme over judgement_root is specified yet, and a
        # signature nobody checks must not look verified.
        raise UnsupportedError("judgement.signature_unsupported",
                               "judgement bundle signatures are not specified in this version")
    return JudgementSummary(manifest, subjects, calls, votes, report,
                            bundle.commitments.judgement_root)


def _decode_records(bundle: JudgementBundle) -> tuple[
        JudgeManifest, list[JudgeSubject], list[JudgeCall], list[LockedJudgeVote],
        JudgeBatchReport]:
    """Step 1's records, each strictly (``codec.*``, ``schema.*``, ``lock.manifest``)."""
    return (parse_manifest(bundle.manifest),
            [JudgeSubject.from_cbor(b, max_size=SUBJECT_MAX_SIZE) for b in bundle.subjects],
            [JudgeCall.from_cbor(b) for b in bundle.calls],
            [LockedJudgeVote.from_cbor(b) for b in bundle.votes],
            JudgeBatchReport.from_cbor(bundle.report))


def verify_judgement(data: bytes, *, max_size: int = SUBJECT_MAX_SIZE) -> JudgementSummary:
    """Steps 1-8; raise ``JudgementError`` (or a codec/schema error) on the first failure."""
    summary = decode_judgement(data, max_size=max_size)
    manifest, digest = summary.manifest, summary.manifest.digest()
    # Step 3: one manifest for every record.
    named = [(c.SCHEMA, c.manifest_digest) for c in summary.calls]
    named += [(v.SCHEMA, v.manifest_digest) for v in summary.votes]
    named.append((summary.report.SCHEMA, summary.report.manifest_digest))
    for schema, claimed in named:
        if claimed != digest:
            raise fail("judgement.manifest_digest", f"a {schema} names another manifest",
                       expected=digest, actual=claimed)
    # Step 4: subjects.
    for index, subject in enumerate(summary.subjects):
        check_subject(subject)
        if index and summary.subjects[index - 1].bundle_hash >= subject.bundle_hash:
            raise fail("judgement.subject_order", "subjects are not sorted and unique")
    # Step 3 (§15.11): the run's pre-registration (needs the subjects' order).
    if summary.report.preregistration is None:
        raise fail("judgement.preregistration", "the judgement holds no pre-registration")
    prereg = check_preregistration(
        JudgePreregistration.from_cbor(summary.report.preregistration), [manifest],
        [s.bundle_hash for s in summary.subjects], fail)
    # Step 5: calls, grouped per subject.
    per_subject: list[list[JudgeCall]] = [[] for _ in summary.subjects]
    previous: tuple[int, int] = (-1, 0)
    for call in summary.calls:
        key = (call.subject_index, call.attempt)
        if key <= previous:
            raise fail("judgement.call_order", "calls are not sorted by subject and attempt")
        previous = key
        if call.subject_index >= len(summary.subjects):
            raise fail("judgement.subject_index", "a call names no subject",
                       expected=len(summary.subjects) - 1, actual=call.subject_index)
        per_subject[call.subject_index].append(call)
    results = [_check_subject_calls(manifest, summary.subjects[i], i, calls, prereg)
               for i, calls in enumerate(per_subject)]
    # Step 6: votes.
    expected_votes = [r.vote for r in results if r.vote is not None]
    if len(summary.votes) != len(expected_votes):
        raise fail("judgement.vote_count", "votes do not match the calls' results",
                   expected=len(expected_votes), actual=len(summary.votes))
    for got, want in zip(summary.votes, expected_votes, strict=True):
        if got != want:
            raise fail("judgement.vote_mismatch",
                       f"vote for subject {want.subject_index} is not its attempt's answer",
                       expected=f"{want.outcome}/{want.confidence_bps}",
                       actual=f"{got.outcome}/{got.confidence_bps}")
    # Step 7: the report.
    report = report_from(manifest, len(summary.subjects), results,
                         summary.report.preregistration)
    if report != summary.report:
        raise fail("judgement.report_mismatch", "batch report does not match the calls",
                   expected=f"{report.status} {report.judged_count}/{report.subjects_count}",
                   actual=f"{summary.report.status} {summary.report.judged_count}/"
                          f"{summary.report.subjects_count}")
    if manifest.fail_closed_mode == "strict" and report.failed:
        raise fail("judgement.strict_partial", "a strict batch cannot commit a failed subject")
    return summary


def _check_subject_calls(manifest: JudgeManifest, subject: JudgeSubject, index: int,
                         calls: list[JudgeCall], preregistration: bytes) -> SubjectResult:
    if not calls:
        raise fail("judgement.attempt_missing", f"subject {index} has no recorded attempt")
    messages = messages_for(manifest, subject)

    def names_subject(call: JudgeCall) -> None:
        if call.subject_hash != subject.bundle_hash:
            raise fail("judgement.subject_hash", "a call names another subject",
                       expected=subject.bundle_hash, actual=call.subject_hash)

    def replays(call: JudgeCall) -> None:
        replayed = deterministic_response(subject)
        if replayed != call.response:
            raise fail("judgement.replay_diverged",
                       "por-judge/1 gives another verdict for this subject",
                       expected=sha256(replayed), actual=call.response_hash)

    def classify(exchange: Exchange) -> Classified:
        return classify_attempt(manifest, messages, exchange)

    last = check_attempts(calls, who=f"subject {index}", messages=messages,
                          policy=manifest.retry_policy, classify=classify, fail=fail,
                          identity=names_subject,
                          response=replays if manifest.parser == DETERMINISTIC_JUDGE
                          else check_nothing,
                          credential_header=profile_of(manifest.model.profile).credential_header,
                          chain=ChainCheck(preregistration, claim_for(manifest),
                                           f"subject {index}", fail))
    if last.result.vote is not None:
        vote = LockedJudgeVote(manifest_digest=manifest.digest(), subject_index=index,
                         subject_hash=subject.bundle_hash, attempt=last.attempt,
                         outcome=last.result.vote[0],  # type: ignore[arg-type]
                         confidence_bps=last.result.vote[1])
        return SubjectResult(list(calls), vote, None)
    failure = FailedSubject(subject_index=index,
                            error_kind=last.result.kind,  # type: ignore[arg-type]
                            check_id=last.result.check_id)
    return SubjectResult(list(calls), None, failure)


__all__ = ["JudgementSummary", "decode_judgement", "verify_judgement"]
