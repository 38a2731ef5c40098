"""Records of a judgement (SPEC §15.2): subjects, calls, votes, the batch report.

One ``por.JudgeCall/1`` per *attempt*, failed attempts included, with the exact
wire request and response bytes and their hashes, so a verifier can rebuild
every check offline.  A ``por.JudgeVote/1`` names the attempt that produced it.
The report is recomputed from the calls by the verifier (SPEC §15.5 step 8).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from por.locked_judges.manifest import ErrorKind
from por.schemas.base import Blob, Bps, Count, Hash32, Id, Model, Record
from por.schemas.verdict import Outcome

#: Most subjects in one judgement bundle (bounded work, SPEC §15.6).
MAX_SUBJECTS = 10_000
#: Attempts per subject are bounded by the retry policy (at most 11).
MAX_CALLS = MAX_SUBJECTS * 11
#: Largest wire request or response kept in a call record: the response cap
#: (``render.MAX_RESPONSE``) plus one byte, the prefix that proves an answer was longer.
MAX_WIRE_BYTES = 1 << 20

Attempt = Annotated[int, Field(ge=1, le=11)]
#: The recorded form of a credential sent upstream: its header and variable name.
CREDENTIAL_PATTERN = r"^(authorization|x-api-key): <redacted:[A-Za-z_][A-Za-z0-9_]{0,63}>$"
#: What a call's transcript proves (SPEC §15.11): the operator's recorded bytes, a
#: transport proof (reserved), or a bit-for-bit re-execution of a pinned build.
ClaimLevel = Literal["recorded", "transport-proven", "rerun"]
#: Most judges one pre-registration names (a court's largest panel and appeal).
MAX_PANEL = 15
#: Largest run number of a pre-registration.
MAX_RUN = 2**32 - 1


class JudgePreregistration(Record):
    """A run committed before its first call (SPEC §15.11): the locks of its panel,
    its subjects and the operator's run number; every attempt names its hash."""

    SCHEMA: ClassVar[str] = "por.JudgePreregistration/1"

    record_schema: Literal["por.JudgePreregistration/1"] = Field(
        "por.JudgePreregistration/1", alias="schema")
    panel: Annotated[list[Hash32], Field(min_length=1, max_length=MAX_PANEL)]
    subjects_root: Hash32
    subjects_count: Count
    run: Annotated[int, Field(ge=1, le=MAX_RUN)]


class JudgeSubject(Record):
    """A judged PoR bundle, committed whole so prompts can be re-rendered."""

    SCHEMA: ClassVar[str] = "por.JudgeSubject/1"

    record_schema: Literal["por.JudgeSubject/1"] = Field("por.JudgeSubject/1", alias="schema")
    subject_id: Id
    spec_version: Id
    bundle_hash: Hash32
    por_root: Hash32
    bundle: Blob


class JudgeCall(Record):
    """One attempt at judging one subject (SPEC §15.2.2)."""

    SCHEMA: ClassVar[str] = "por.JudgeCall/1"

    record_schema: Literal["por.JudgeCall/1"] = Field("por.JudgeCall/1", alias="schema")
    manifest_digest: Hash32
    subject_index: Count
    subject_hash: Hash32
    attempt: Attempt
    messages_hash: Hash32
    request_hash: Hash32
    wire_request: Annotated[bytes, Field(max_length=MAX_WIRE_BYTES)]
    wire_request_hash: Hash32
    status: Annotated[int, Field(ge=0, le=999)]
    response: Annotated[bytes, Field(max_length=MAX_WIRE_BYTES)]
    response_hash: Hash32
    result: Literal["vote", "error"]
    error_kind: ErrorKind | None = None
    #: That a credential went upstream, never its value: ``<header>: <redacted:NAME>``
    #: (SPEC §15.4); absent when none did.
    credential: Annotated[str, Field(pattern=CREDENTIAL_PATTERN)] | None = None
    #: What this call's transcript proves (SPEC §15.11); REQUIRED in a judgement bundle.
    claim: ClaimLevel | None = None
    #: SHA-256 of the run's ``por.JudgePreregistration/1`` bytes (SPEC §15.11).
    preregistration: Hash32 | None = None
    #: The attempt chain: SHA-256 of the previous attempt's record bytes of the same
    #: call, or ``preregistration`` for attempt 1 (SPEC §15.11).
    previous: Hash32 | None = None


class LockedJudgeVote(Record):
    """The vote a subject received: the parsed answer of its last attempt."""

    SCHEMA: ClassVar[str] = "por.JudgeVote/1"

    record_schema: Literal["por.JudgeVote/1"] = Field("por.JudgeVote/1", alias="schema")
    manifest_digest: Hash32
    subject_index: Count
    subject_hash: Hash32
    attempt: Attempt
    outcome: Outcome
    confidence_bps: Bps


class FailedSubject(Model):
    """A subject that got no vote, and why (the kind of its last attempt)."""

    subject_index: Count
    error_kind: ErrorKind
    check_id: Id


class JudgeBatchReport(Record):
    """What the batch did (seed 002 "Batch complete" / "partial_success")."""

    SCHEMA: ClassVar[str] = "por.JudgeBatchReport/1"

    record_schema: Literal["por.JudgeBatchReport/1"] = Field(
        "por.JudgeBatchReport/1", alias="schema")
    manifest_digest: Hash32
    mode: Literal["strict", "partial_save"]
    status: Literal["complete", "partial_success"]
    subjects_count: Count
    judged_count: Count
    calls_count: Count
    failed: list[FailedSubject]
    #: The run's ``por.JudgePreregistration/1`` bytes (SPEC §15.11); REQUIRED in a
    #: judgement bundle.
    preregistration: Blob | None = None


class JudgementCommitments(Model):
    """Hashes and sizes of the five components and their root (SPEC §15.2.5)."""

    manifest_hash: Hash32
    subjects_root: Hash32
    subjects_count: Count
    calls_root: Hash32
    calls_count: Count
    votes_root: Hash32
    votes_count: Count
    report_hash: Hash32
    judgement_root: Hash32


class JudgementBundle(Record):
    """``judgement.cbor``: records as canonical bytes, commitments, signatures."""

    SCHEMA: ClassVar[str] = "por.JudgementBundle/1"

    record_schema: Literal["por.JudgementBundle/1"] = Field(
        "por.JudgementBundle/1", alias="schema")
    manifest: Blob
    subjects: Annotated[list[Blob], Field(max_length=MAX_SUBJECTS)]
    calls: Annotated[list[Blob], Field(max_length=MAX_CALLS)]
    votes: Annotated[list[Blob], Field(max_length=MAX_SUBJECTS)]
    report: Blob
    commitments: JudgementCommitments
    signatures: list[Blob]


__all__ = [
    "MAX_CALLS",
    "MAX_PANEL",
    "MAX_RUN",
    "MAX_SUBJECTS",
    "MAX_WIRE_BYTES",
    "ClaimLevel",
    "FailedSubject",
    "JudgeBatchReport",
    "JudgeCall",
    "JudgePreregistration",
    "JudgeSubject",
    "JudgementBundle",
    "JudgementCommitments",
    "LockedJudgeVote",
]
