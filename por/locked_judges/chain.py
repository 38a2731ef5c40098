"""What a transcript proves (SPEC §15.11): claim levels, pre-registration, the attempt chain.

A run is *pre-registered* before its first call: a ``por.JudgePreregistration/1``
commits the panel's lock digests, the subjects (an RFC 9162 root over their
hashes) and the operator's run number; its hash is the *pre-registration
digest*.  Every attempt names it and carries the hash of the attempt before it
in the same call (the first: the digest itself), so the attempts of a call are
one hash chain rooted in the pre-registration: deleting, re-ordering or
rewriting an attempt breaks every link after it (``judgement.attempt_chain``).

Each call records its *claim level*, what its transcript proves: ``recorded``
(the operator's word: the bytes at our socket), ``transport-proven``
(reserved: a future proof of the TLS session attached; refused today,
``judgement.claim_unsupported``) or ``rerun`` (the answer can be re-executed
bit for bit: ``por-judge/1``, which verify always re-runs, or a ``bitwise``
local lock, re-run by ``judge verify --reexecute``).  The level follows from
the lock (:func:`claim_for`); a call claiming another is ``judgement.claim_level``.

Leaves out: signing the pre-registration (detached, like a judgement, SPEC §15.10)
and the retry loop (:mod:`por.locked_judges.attempts`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from por.errors import PorError, UnsupportedError
from por.locked_judges.manifest import DETERMINISTIC_JUDGE, JudgeManifest
from por.locked_judges.outcome import sha256
from por.locked_judges.records import ClaimLevel, JudgeCall, JudgePreregistration
from por.merkle import root_hash

#: ``fail(check_id, message, expected=..., actual=...)``: the family's error to raise.
Fail = Callable[..., PorError]


def claim_for(manifest: JudgeManifest) -> ClaimLevel:
    """The claim level a lock's calls make: ``rerun`` iff they can be re-executed bit
    for bit (``por-judge/1`` or a ``bitwise`` lock), else ``recorded``."""
    if manifest.parser == DETERMINISTIC_JUDGE or manifest.determinism == "bitwise":
        return "rerun"
    return "recorded"


def subjects_root(subject_hashes: Sequence[bytes]) -> bytes:
    """RFC 9162 root over the subjects' 32-byte hashes, in subject order."""
    return root_hash(list(subject_hashes))


def preregister(panel: Sequence[JudgeManifest], subject_hashes: Sequence[bytes],
                run: int = 1) -> JudgePreregistration:
    """The pre-registration of a run of ``panel`` (in seat order) over the subjects."""
    return JudgePreregistration(panel=[m.digest() for m in panel],
                                subjects_root=subjects_root(subject_hashes),
                                subjects_count=len(subject_hashes), run=run)


def preregistration_digest(record: JudgePreregistration) -> bytes:
    """SHA-256 of the pre-registration's canonical bytes: what every attempt names."""
    return sha256(record.to_cbor())


def chained(calls: Sequence[JudgeCall], digest: bytes, claim: ClaimLevel) -> list[JudgeCall]:
    """One call's attempts (in order) with their claim, pre-registration and links."""
    out: list[JudgeCall] = []
    previous = digest
    for call in calls:
        linked = JudgeCall.from_dict(call.to_dict() | {
            "claim": claim, "preregistration": digest, "previous": previous})
        out.append(linked)
        previous = sha256(linked.to_cbor())
    return out


def check_preregistration(record: JudgePreregistration, panel: Sequence[JudgeManifest],
                          subject_hashes: Sequence[bytes], fail: Fail) -> bytes:
    """The pre-registration names this panel and these subjects; return its digest."""
    digests = [m.digest() for m in panel]
    if record.panel != digests:
        raise fail("judgement.preregistration", "the pre-registration names another panel",
                   expected=",".join(d.hex()[:16] for d in digests),
                   actual=",".join(d.hex()[:16] for d in record.panel))
    root = subjects_root(subject_hashes)
    if (record.subjects_root, record.subjects_count) != (root, len(subject_hashes)):
        raise fail("judgement.preregistration", "the pre-registration names other subjects",
                   expected=root, actual=record.subjects_root)
    return preregistration_digest(record)


class ChainCheck:
    """Checks one call's attempts, in order, against its chain and claim level."""

    def __init__(self, digest: bytes, claim: ClaimLevel, who: str, fail: Fail) -> None:
        self.digest, self.claim, self.who, self.fail = digest, claim, who, fail
        self.previous = digest

    def __call__(self, call: JudgeCall) -> None:
        """Raise through ``fail`` unless ``call`` is the next link (then advance)."""
        if call.claim == "transport-proven":
            raise UnsupportedError("judgement.claim_unsupported", f"{self.who} attempt "
                                   f"{call.attempt} claims a transport proof, which this "
                                   "version does not specify")
        if call.claim != self.claim:
            raise self.fail("judgement.claim_level", f"{self.who} attempt {call.attempt} "
                            "claims another level than its lock allows",
                            expected=self.claim, actual=call.claim or "absent")
        if call.preregistration != self.digest:
            raise self.fail("judgement.preregistration", f"{self.who} attempt {call.attempt} "
                            "does not name the run's pre-registration",
                            expected=self.digest, actual=call.preregistration or b"")
        if call.previous != self.previous:
            raise self.fail("judgement.attempt_chain", f"{self.who} attempt {call.attempt} "
                            "does not link to the attempt before it (an attempt was "
                            "deleted, re-ordered or rewritten)",
                            expected=self.previous, actual=call.previous or b"")
        self.previous = sha256(call.to_cbor())


__all__ = [
    "ChainCheck",
    "chained",
    "check_preregistration",
    "claim_for",
    "preregister",
    "preregistration_digest",
    "subjects_root",
]
