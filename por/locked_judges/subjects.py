"""Subjects: PoR bundles as the judge sees them, and the deterministic judge.

:func:`subject_from_bundle` commits a whole PoR bundle (decoded strictly) as a
``por.JudgeSubject/1``.  :func:`deterministic_response` is ``por-judge/1`` used as
a locked judge: it replays the auditor and the judge over the bundle's committed
prompt spec and evidence (SPEC §7), so an archive can be re-judged without an LLM.
"""

from __future__ import annotations

import hashlib

from por.auditor import AuditorAgent
from por.bundle import DEFAULT_BUNDLE_MAX_SIZE, Bundle, Manifest
from por.errors import PorError
from por.judge import JudgeAgent
from por.locked_judges.errors import JudgementError
from por.locked_judges.records import JudgeSubject
from por.protocol.limits import DOCUMENT_MAX_SIZE
from por.schemas import DeterministicVerdict, EvidenceBundle, EvidenceItem, PromptSpec

#: Largest ``por.JudgeSubject/1``: the bundle cap (a subject is any valid PoR bundle)
#: plus room for the record's other fields; every court and judge document's cap.
SUBJECT_MAX_SIZE = DOCUMENT_MAX_SIZE


def bundle_of(data: bytes) -> Bundle:
    """A subject's PoR bundle, decoded under the bundle cap (not the 64 MiB record cap)."""
    return Bundle.from_cbor(data, max_size=DEFAULT_BUNDLE_MAX_SIZE)


def subject_from_bundle(data: bytes) -> JudgeSubject:
    """A subject record for one ``bundle.cbor`` (``judgement.subject`` if malformed)."""
    try:
        bundle = bundle_of(data)
        manifest = Manifest.from_cbor(bundle.manifest)
        spec = PromptSpec.from_cbor(bundle.prompt_spec)
    except PorError as exc:
        raise JudgementError("judgement.subject", f"subject is not a PoR bundle: "
                             f"{exc.check_id}: {exc.message}") from None
    return JudgeSubject(subject_id=spec.market.market_id, spec_version=manifest.spec_version,
                        bundle_hash=hashlib.sha256(data).digest(),
                        por_root=bundle.commitments.por_root, bundle=data)


def check_subject(subject: JudgeSubject) -> None:
    """The subject's claims follow from its bundle bytes (SPEC §15.5 step 3)."""
    rebuilt = subject_from_bundle(subject.bundle)
    if rebuilt != subject:
        raise JudgementError("judgement.subject_mismatch",
                             "subject fields do not follow from its bundle",
                             expected=rebuilt.bundle_hash, actual=subject.bundle_hash)


def deterministic_response(subject: JudgeSubject) -> bytes:
    """The ``por.DeterministicVerdict/1`` bytes por-judge/1 gives the subject's inputs."""
    bundle = bundle_of(subject.bundle)
    spec = PromptSpec.from_cbor(bundle.prompt_spec)
    items = [EvidenceItem.from_cbor(raw) for raw in bundle.evidence]
    try:
        evidence = EvidenceBundle(bundle_id="committed", market_id=spec.market.market_id,
                                  items=items)
    except ValueError:
        raise JudgementError("judgement.subject", "subject evidence ids repeat") from None
    trace, _ = AuditorAgent().audit(spec, evidence)
    verdict, _ = JudgeAgent().judge(spec, evidence, trace)
    return verdict.to_cbor()


def vote_from_verdict(response: bytes) -> tuple[str, int]:
    """(outcome, confidence_bps) of a committed deterministic verdict."""
    try:
        verdict = DeterministicVerdict.from_cbor(response)
    except PorError:
        raise JudgementError("judgement.response_parse",
                             "response is not a por.DeterministicVerdict/1") from None
    return verdict.outcome, verdict.confidence_bps


def subject_digest(subject: JudgeSubject) -> bytes:
    """The subject hash calls and votes refer to: SHA-256 of the bundle bytes."""
    return subject.bundle_hash


__all__ = ["SUBJECT_MAX_SIZE", "bundle_of", "check_subject", "deterministic_response",
           "subject_digest", "subject_from_bundle", "vote_from_verdict"]
