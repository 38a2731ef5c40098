"""Court records and the court bundle (SPEC §16.5): votes, rulings, commitments.

``ruling.cbor`` (``por.CourtBundle/1``) sits beside ``judgement.cbor`` and is
built the same way: the case, the court's rule (``por.CourtRule/1``), one
``por.JudgeManifest/1`` per seat, every attempt as a ``por.JudgeCall/1`` (the
seat is its ``subject_index``, the case hash its ``subject_hash``), the votes
and one ruling per round, each component an RFC 9162 tree and ``court_root``
the root over the six component leaves ``root || uint64_be(size)``.  A vote is
thus a two-level inclusion proof against ``court_root`` (``COURT.component_proof``).
Commitments, assembly, opening and proofs derive from the one component spec
(:data:`por.container.COURT_BUNDLE`, SPEC §5.5) through :data:`COURT`.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from por.container import COURT_BUNDLE
from por.container.models import Container
from por.court.case import MAX_TEXT
from por.court.errors import CourtError
from por.locked_judges.records import MAX_RUN, Attempt
from por.schemas.base import Blob, Count, Hash32, Id, Model, Record

#: Most seats in a court (an appeal panel of 2N+1 with N <= 7).
MAX_SEATS = 15
#: Most phases of a seat (SPEC §16.9, §16.10): first answer, case, three canaries.
MAX_PHASES = 5
#: Component order in the court_root tree, declared once in
#: :data:`por.container.COURT_BUNDLE`.  Never reorder.
COURT_COMPONENTS: tuple[str, ...] = COURT_BUNDLE.names
Pct = Annotated[int, Field(ge=0, le=100)]
Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
#: Most canary flips a seat may have and still count (SPEC §16.10): a seat is asked
#: three canaries, so 0..2 (3 would discount no seat).
MAX_KEPT_FLIPS = 2


class CanaryPolicy(Model):
    """What the court does with a seat that flipped canaries (SPEC §16.10): a seat
    with more than ``max_flips`` flipped canaries has its vote discounted."""

    max_flips: Annotated[int, Field(ge=0, le=MAX_KEPT_FLIPS)]


IsoTime = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")]


class CourtRule(Record):
    """The court's configuration as committed: panel size, quorums, time."""

    SCHEMA: ClassVar[str] = "por.CourtRule/1"

    record_schema: Literal["por.CourtRule/1"] = Field("por.CourtRule/1", alias="schema")
    rule: Literal["upper-median/1"]
    panel: Annotated[int, Field(ge=1, le=7)]
    quorum: Annotated[int, Field(ge=1, le=7)]
    appeal_quorum: Annotated[int, Field(ge=1, le=MAX_SEATS)]
    seats: Annotated[int, Field(ge=1, le=MAX_SEATS)]
    ruled_at: IsoTime
    #: Commit-first mode (SPEC §16.9); absent: off.
    commit_first: Literal["por-court-blind/1"] | None = None
    #: Canary cases with each seat (SPEC §16.10); absent: none.
    canaries: Literal["por-court-canary/1"] | None = None
    #: The run number of the court's pre-registration (SPEC §16.11); absent: a
    #: ruling made before pre-registration (read as such, its calls unchained).
    run: Annotated[int, Field(ge=1, le=MAX_RUN)] | None = None
    #: The canary policy (SPEC §16.10; only with ``canaries``); absent: canaries
    #: are reported and change nothing.
    canary_policy: CanaryPolicy | None = None


class CourtVote(Record):
    """One seat's vote (the seed's ``JudgeVote`` plus what binds it)."""

    SCHEMA: ClassVar[str] = "por.CourtVote/1"

    record_schema: Literal["por.CourtVote/1"] = Field("por.CourtVote/1", alias="schema")
    seat: Seat
    judge_id: Id
    manifest_digest: Hash32
    case_hash: Hash32
    attempt: Attempt
    worker_pct: Pct
    reasoning: Annotated[str, Field(max_length=MAX_TEXT)]
    voted_at: IsoTime
    #: Commit-first (SPEC §16.9): the first answer's YES percentage, the SHA-256 of
    #: its response bytes, and whether the vote's decision differs from the one it implies.
    first_pct: Pct | None = None
    first_answer_hash: Hash32 | None = None
    changed_mind: bool | None = None


class SeatVote(Model):
    """A seat's vote in a ruling, and whether it dissents (and changed its mind)."""

    seat: Seat
    judge_id: Id
    worker_pct: Pct
    dissent: bool
    first_pct: Pct | None = None
    changed_mind: bool | None = None


class CanaryResult(Model):
    """One canary of one seat (SPEC §16.10): what it demanded, what the seat said."""

    seat: Seat
    kind: Literal["evidence", "claim", "rebuttal"]
    demand: Literal["upheld", "rejected"]
    #: The seat's own decision on the case: the known right ruling.
    expected: Literal["upheld", "rejected"]
    #: Absent when the canary call failed (no vote: not a flip).
    worker_pct: Pct | None = None
    flipped: bool


class CourtRuling(Record):
    """What one round decided (SPEC §16.4)."""

    SCHEMA: ClassVar[str] = "por.CourtRuling/1"

    record_schema: Literal["por.CourtRuling/1"] = Field("por.CourtRuling/1", alias="schema")
    case_hash: Hash32
    round: Annotated[int, Field(ge=1, le=2)]
    seats: Annotated[int, Field(ge=1, le=MAX_SEATS)]
    quorum: Annotated[int, Field(ge=1, le=MAX_SEATS)]
    votes_cast: Count
    status: Literal["ruled", "no_quorum", "split"]
    worker_pct: Pct | None = None
    decision: Literal["upheld", "rejected"] | None = None
    split: bool
    votes: list[SeatVote]
    absent: list[Seat]
    ruled_at: IsoTime
    #: With canaries (SPEC §16.10): every canary of the round's voting seats, the
    #: flips over the canaries answered, and the seats that flipped.
    canaries: list[CanaryResult] | None = None
    canary_flips: Count | None = None
    canary_answered: Count | None = None
    flipped_seats: list[Seat] | None = None
    #: With a canary policy (SPEC §16.10): the seats whose vote the policy discounted
    #: (sorted; neither in ``votes`` nor counted in ``votes_cast``).
    discounted: list[Seat] | None = None


class CourtCommitments(Model):
    """Roots and sizes of the six components and ``court_root``."""

    case_hash: Hash32
    rule_hash: Hash32
    panel_root: Hash32
    panel_count: Count
    calls_root: Hash32
    calls_count: Count
    votes_root: Hash32
    votes_count: Count
    rulings_root: Hash32
    rulings_count: Count
    court_root: Hash32


class CourtBundle(Record):
    """``ruling.cbor``: the records as canonical bytes and their commitments."""

    SCHEMA: ClassVar[str] = "por.CourtBundle/1"

    record_schema: Literal["por.CourtBundle/1"] = Field("por.CourtBundle/1", alias="schema")
    case: Blob
    rule: Blob
    panel: Annotated[list[Blob], Field(min_length=1, max_length=MAX_SEATS)]
    calls: Annotated[list[Blob], Field(max_length=MAX_SEATS * 11 * MAX_PHASES)]
    votes: Annotated[list[Blob], Field(max_length=MAX_SEATS)]
    rulings: Annotated[list[Blob], Field(min_length=1, max_length=2)]
    commitments: CourtCommitments


#: The court bundle's container (SPEC §5.5, §16.6 step 1).
COURT: Container[CourtBundle, CourtCommitments] = Container(
    COURT_BUNDLE, CourtBundle, CourtCommitments, noun="court bundle", error=CourtError,
    mismatch_id="court.commit_mismatch")


def component_leaves(c: CourtCommitments) -> list[bytes]:
    """The six component leaves in :data:`COURT_COMPONENTS` order."""
    return COURT.component_leaves(c)


def compute_commitments(*, case: bytes, rule: bytes, panel: list[bytes], calls: list[bytes],
                        votes: list[bytes], rulings: list[bytes]) -> CourtCommitments:
    """Every commitment from the canonical record bytes."""
    return COURT.commit({"case": case, "rule": rule, "panel": panel, "calls": calls,
                         "votes": votes, "rulings": rulings})


def assemble(*, case: bytes, rule: bytes, panel: list[bytes], calls: list[bytes],
             votes: list[bytes], rulings: list[bytes]) -> bytes:
    """``ruling.cbor`` bytes."""
    return COURT.assemble({"case": case, "rule": rule, "panel": panel, "calls": calls,
                           "votes": votes, "rulings": rulings}).to_cbor()


__all__ = ["COURT", "COURT_COMPONENTS", "MAX_KEPT_FLIPS", "MAX_PHASES", "MAX_SEATS",
           "CanaryPolicy", "CanaryResult",
           "CourtBundle", "CourtCommitments", "CourtRule", "CourtRuling", "CourtVote",
           "SeatVote", "assemble", "component_leaves", "compute_commitments"]
