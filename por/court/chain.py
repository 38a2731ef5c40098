"""A court run's pre-registration and its seats' attempt chains (SPEC §16.11).

The court adopts the locked judges' record (SPEC §15.11): before the first
call, ``por.JudgePreregistration/1`` commits the seat locks (``panel``, in
seat order, every seat of the rule), the case (``subjects_root`` the RFC 9162
root over the one case hash, ``subjects_count`` 1) and the rule's ``run``.
Nothing else is stored: the verifier rebuilds the record from the panel, the
case hash and ``CourtRule.run``, so its digest follows from committed bytes.
Each seat's calls are *one* chain across its phases, in the fixed phase order
(SPEC §16.9): its first call links to the digest, every later call to the
record hash of the call before it, whatever its phase.  Dropping, re-ordering
or re-rolling an attempt of any phase breaks the chain
(``judgement.attempt_chain``).  A rule without ``run`` is a ruling made
before pre-registration: its calls must carry none of the chain fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from por.court.errors import CourtError
from por.court.records import CourtRule
from por.locked_judges.calls import CallCheck
from por.locked_judges.chain import (
    ChainCheck,
    check_preregistration,
    claim_for,
    preregister,
    preregistration_digest,
)
from por.locked_judges.manifest import JudgeManifest
from por.locked_judges.records import JudgeCall, JudgePreregistration


def court_preregistration(rule: CourtRule, panel: Sequence[JudgeManifest],
                          case_hash: bytes) -> JudgePreregistration | None:
    """The run's pre-registration (``None`` for a rule without ``run``)."""
    return None if rule.run is None else preregister(panel, [case_hash], rule.run)


def court_digest(rule: CourtRule, panel: Sequence[JudgeManifest],
                 case_hash: bytes) -> bytes | None:
    """SHA-256 of the run's pre-registration bytes, what every call names."""
    record = court_preregistration(rule, panel, case_hash)
    return None if record is None else preregistration_digest(record)


def check_court_preregistration(record: JudgePreregistration, rule: CourtRule,
                                panel: Sequence[JudgeManifest], case_hash: bytes) -> bytes:
    """A given (published) pre-registration is this court's on this case: the same
    panel (every seat's lock, in seat order), the one case and the rule's run; its
    digest, else ``court.preregistration`` naming what differs (SPEC §16.11)."""
    def fail(check_id: str, message: str, **values: Any) -> CourtError:
        del check_id  # the locked judges' id: here the file is the court's input
        return CourtError("court.preregistration", message, **values)

    digest = check_preregistration(record, panel, [case_hash], fail)
    if record.run != rule.run:
        raise CourtError("court.preregistration", "the pre-registration names another run",
                         expected=rule.run, actual=record.run)
    return digest


def _unchained(who: str) -> CallCheck:
    def check(call: JudgeCall) -> None:
        if (call.claim, call.preregistration, call.previous) != (None, None, None):
            raise CourtError("court.preregistration", f"{who} attempt {call.attempt} is "
                             "chained but the rule names no pre-registered run")
    return check


def seat_chain(digest: bytes | None, lock: JudgeManifest, who: str) -> CallCheck:
    """The check every call of one seat passes, in order, across its phases."""
    if digest is None:
        return _unchained(who)
    return ChainCheck(digest, claim_for(lock), who, CourtError)


__all__ = ["check_court_preregistration", "court_digest", "court_preregistration",
           "seat_chain"]
