"""The fast path of SPEC §6.2: accept an exactly valid bundle without pydantic.

``fast_report(data, options)`` runs the numbered steps over lean records
(``por.lean``) and returns a :class:`LeanReport` only when **every** step
passes; at the first thing it does not accept it returns ``None``, and the
caller runs the full verifier (``verifier.steps``), which alone writes
failure reports with their check ids.  So a verified report is the same
whichever path made it (``tests/unit/verifier/test_fast_path.py`` compares
them on every example bundle and on corrupted ones), and the fast path needs
to be right only in one direction: it must never accept what the full path
rejects.  Each step below says why its acceptance implies the full step's:

1. decode: the same strict decoder under the same caps;
2. schema: lean records at least as strict as the pydantic models; the
   manifest, trace header, steps and verdict are accepted only as the exact
   bytes this implementation makes, which the full path accepts;
3. commitments: recomputed from the same bytes and compared; the header's and
   the verdict's market ids, step count and references are those of the
   replay, so they match whenever the bytes do;
4. manifest: the bytes equal :func:`manifest_bytes` (current versions);
5. replay audit: the same step budget, then every step byte for byte;
6. trace policy: the replayed trace, checked;
7. replay judge: the verdict's bytes;
8. signatures: only an unsigned bundle with no signature required (the
   signing stack is never loaded here).

Bundles with signatures, or with any option that step 8 would act on, go to
the full path.  Bytes in, report out; no I/O, no clock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from por.encoding import decode
from por.encoding.decoder import DEFAULT_MAX_SIZE
from por.encoding.spans import Spans
from por.errors import PorError
from por.forms.bundle import first_form_failure
from por.forms.component import step_form
from por.gcpause import gc_paused
from por.lean.base import Leaves, Reject, unique
from por.lean.bundle import Bundle, por_root_of
from por.lean.evidence import Evidence, EvidenceItem
from por.lean.prompt import PromptSpec
from por.lean.writers_gen import Check
from por.merkle import RootAccumulator, leaf_hash, root_from_leaf_hashes
from por.protocol.budget import MAX_BUNDLE_ITEMS, max_steps_for
from por.protocol.limits import MAX_PROMPT_SPEC_BYTES
from por.protocol.manifest import manifest_bytes
from verifier import passed
from verifier.options import DEFAULT_OPTIONS, VerifyOptions
from verifier.report_form import plain_check, report_document
from verifier.stages import Decoded, Handoff

if TYPE_CHECKING:
    from verifier.report import VerificationReport


class LeanReport:
    """A verified report, read like ``verifier.VerificationReport`` (a ``Report``)."""

    __slots__ = ("checks", "confidence_bps", "market_id", "outcome", "por_root",
                 "resolution_rule_id")
    status: ClassVar[Literal["verified"]] = "verified"
    exit_code = 0
    ok = True
    first_failure = None

    def __init__(self, checks: list[Check], verdict: dict[str, Any],
                 por_root: bytes) -> None:
        self.checks = checks
        self.market_id: str = verdict["market_id"]
        self.outcome: str = verdict["outcome"]
        self.confidence_bps: int = verdict["confidence_bps"]
        self.resolution_rule_id: str = verdict["resolution_rule_id"]
        self.por_root = por_root

    def to_document(self, input_name: str) -> dict[str, Any]:
        """The result of input ``input_name`` in the verify report (``por/verify-report/1``)."""
        return report_document(input_name, self)

    def to_report(self) -> VerificationReport:
        """The same report as a ``VerificationReport`` (imports pydantic)."""
        from por.schemas.verification import CheckResult  # noqa: PLC0415
        from verifier.report import VerificationReport  # noqa: PLC0415

        return VerificationReport(
            status="verified",
            checks=[CheckResult(check_id=c.check_id, ok=True, severity="info",
                                message=c.message) for c in self.checks],
            market_id=self.market_id, outcome=self.outcome,
            confidence_bps=self.confidence_bps, resolution_rule_id=self.resolution_rule_id,
            por_root=self.por_root)


def fast_report(data: bytes, options: VerifyOptions = DEFAULT_OPTIONS,
                handoff: Handoff | None = None) -> LeanReport | None:
    """A verified report, or ``None``: the full verifier must decide.

    ``handoff`` receives what the full verifier need not do again: the decoded
    bundle (``decoded``, leaf records as bytes) or the decoder's error
    (``decode_error``), so a hostile bundle is decoded once whichever path
    reports it (SPEC §17).  The fast path itself reads leaf records as spans of
    ``data`` (``decode(..., slices_at=2)``): the bundle's bytes are held once.
    Of the options it reads the size cap; step 8 acts on the others only for a
    signed bundle, which goes to the full path.
    """
    if options.trust.require_signature:
        return None
    handoff = Handoff() if handoff is None else handoff
    try:
        raw = decode(data, max_size=options.max_size, max_items=MAX_BUNDLE_ITEMS,
                     slices_at=2)
    except PorError as exc:
        handoff.decode_error = exc
        return None
    except Exception:  # the full path reports it (internal.error)
        return None
    try:
        with gc_paused():
            return _verify(data, raw, handoff)
    except Exception:  # anything unaccepted is the full path's to judge
        handoff.decoded = Decoded(_materialised(data, raw))
        return None


def _materialised(data: bytes, raw: Any) -> Any:
    """The decoded bundle as the plain decoder gives it: every :class:`Spans`
    (an array of the top-level map or array, ``slices_at=2``) becomes the list
    of its items, spans as their bytes again (whatever the key: a hostile
    bundle may put byte strings in any array, and the full path's messages
    must not depend on which path decoded it)."""
    if type(raw) is dict:
        return {key: value.materialise(data) if type(value) is Spans else value
                for key, value in raw.items()}
    if type(raw) is list:
        return [value.materialise(data) if type(value) is Spans else value for value in raw]
    return raw


def _root(data: bytes, spans: Spans) -> bytes:
    """RFC 9162 root of the leaves ``data[span]``, hashed in place (a leaf can be
    megabytes: one step holds every item's claims; a copy would double it)."""
    view = memoryview(data)
    stream = RootAccumulator()
    append = stream.append
    starts, stops = spans.bounds()  # Bundle.build checked bytes_only
    for start, stop in zip(starts, stops, strict=True):
        append(view[start:stop])
    return stream.root()


def _no_step(index: int) -> Any:
    raise AssertionError(index)  # first_form_failure(..., 0 steps, ...) asks for none


class _StepForms:
    """Step ``i``'s carried form hash (``forms[first + i]``) is ``LH(F)`` of the step
    the replay matched: ``F`` of the values the auditor holds (equal to the leaf's
    decode: their bytes are the leaf's), or of the leaf decoded where those values
    hold an array not yet made (:class:`~por.encoding.encoder.Fragments`)."""

    __slots__ = ("data", "first", "forms", "matched", "steps")

    def __init__(self, data: bytes, steps: Spans, forms: list[bytes], first: int) -> None:
        self.data, self.steps, self.forms, self.first = data, steps, forms, first
        self.matched = 0  # steps [0, matched) have their carried form hash (in order)

    def check(self, index: int, step: Any) -> None:
        try:
            form = step_form(step.record_value())
        except PorError:  # no form from the values: decide on the bytes
            form = step_form(decode(self.data[self.steps[index]]))
        if leaf_hash(form) != self.forms[self.first + index]:
            raise Reject("step form")
        if index == self.matched:
            self.matched = index + 1


def _verify(data: bytes, raw: Any, handoff: Handoff) -> LeanReport:
    from por.lean.replay import replay  # noqa: PLC0415  # loads the auditor

    # 1. decode (done by the caller; leaf records are spans of ``data``)
    bundle: Bundle = Bundle.build(raw)
    checks = [plain_check("codec.ok", passed.CODEC_OK, ok=True)]
    # 2. schema (and step 8's precondition: unsigned)
    if bundle.signatures or bundle.manifest != manifest_bytes():
        raise Reject("signed or another manifest")
    if len(bundle.prompt_spec) > MAX_PROMPT_SPEC_BYTES:  # the model's byte cap (§4.2)
        raise Reject("prompt spec bytes")
    spec_value = decode(bundle.prompt_spec)
    spec = PromptSpec.from_value(spec_value, bundle.prompt_spec)
    steps, evidence = bundle.steps, bundle.evidence
    forms = [data[s] for s in bundle.forms]
    if len(forms) != len(spec.data_requirements) + len(steps) + 2:
        raise Reject("forms count")
    if len(steps) > max_steps_for(len(evidence), len(spec.data_requirements)) or (
            steps.longest() > DEFAULT_MAX_SIZE):
        raise Reject("step budget")
    from_value = EvidenceItem.from_value
    items = [from_value(decode(data[s], map_slices_at=1), data, s) for s in evidence]
    unique([item.evidence_id for item in items])
    handoff.lean_items = items  # all valid: the full path need not read them again
    checks.append(plain_check("schema.ok", passed.schema_ok(len(items), len(steps)), ok=True))
    # 3. commitments
    c = bundle.commitments
    if (c.manifest_hash, c.prompt_spec_hash, c.evidence_root, c.evidence_count,
            c.trace_header_hash, c.reasoning_root, c.reasoning_count, c.verdict_hash,
            c.forms_root, c.forms_count) != (
            leaf_hash(bundle.manifest), leaf_hash(bundle.prompt_spec), _root(data, evidence),
            len(evidence), leaf_hash(bundle.trace_header), _root(data, steps), len(steps),
            leaf_hash(bundle.verdict), root_from_leaf_hashes(forms), len(forms)) or \
            c.por_root != por_root_of(c):
        raise Reject("commitments")
    checks.append(plain_check("commit.ok", passed.COMMIT_OK, ok=True))
    checks.append(plain_check("manifest.ok", passed.MANIFEST_OK, ok=True))
    # 5-7. replay the auditor and the judge; compare bytes
    found: dict[str, Any] = {}  # replay() leaves the first differing step here
    step_forms = _StepForms(data, steps, forms, 1 + len(spec.data_requirements))
    try:
        replay(spec, Evidence(spec.market.market_id, items, root=c.evidence_root),
               Leaves(data, steps),
               header=bundle.trace_header, verdict=bundle.verdict,
               reasoning_root=c.reasoning_root, handoff=found, matched=step_forms.check)
    finally:
        handoff.step_mismatch = found.get("step_mismatch")
        handoff.forms_ok = step_forms.matched
    # 5 (forms): every carried form leaf hash is LH(F) of its record (SPEC §6.2); the
    # steps' were checked as the replay matched them, the others are checked here
    verdict = decode(bundle.verdict)
    if first_form_failure(spec_value, 0, _no_step, verdict,
                          [*forms[:step_forms.first], forms[-1]]) is not None:
        raise Reject("forms")
    checks.append(plain_check("replay.audit_ok", passed.audit_ok(len(steps)), ok=True))
    checks.append(plain_check("trace.ok", passed.TRACE_OK, ok=True))
    checks.append(plain_check("replay.judge_ok", passed.JUDGE_OK, ok=True))
    return LeanReport(checks, verdict, c.por_root)


__all__ = ["LeanReport", "fast_report"]
