"""The numbered verification steps (SPEC §6.2).  Step numbers match SPEC.md.

1. decode        strict por-cbor/1 decode of the whole bundle
2. schema        the bundle map and every record it carries
3. commitments   recompute every hash, root, size and por_root; cross-record refs
4. manifest      version lock: unknown auditor/judge/profile is *unsupported*
5. replay audit  re-run the auditor; compare header and steps one by one
6. trace policy  the committed trace obeys its policy
7. replay judge  re-run the judge on the committed inputs; compare the verdict
8. signatures    (verifier/signatures.py)

Each step takes what earlier steps established as typed values and returns
its own (``verifier.stages``); :func:`run_steps` threads them in order.

Commitments are checked before the version lock on purpose: a bundle altered
after it was committed is *rejected* (exit 1) even when the alteration names
an unknown version; only a consistent bundle can be *unsupported* (exit 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from por.auditor import AuditorAgent, TracePolicyVerifier
from por.auditor.agent import requirement_ids, trace_length
from por.bundle.layout import Bundle, Commitments, compute_commitments
from por.bundle.manifest import Manifest, current_manifest
from por.errors import PorError
from por.judge import JudgeAgent
from por.merkle import leaf_hash
from por.protocol.budget import (
    check_signature_layout,
    check_step_budget,
    check_step_sizes,
    decode_bundle,
)
from por.protocol.limits import MAX_EXTRACT_STEP_ITEMS
from por.schemas import (
    ChallengeRef,
    DeterministicVerdict,
    EvidenceBundle,
    EvidenceItem,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
    TraceHeader,
    step_id,
)
from por.schemas.base import Value
from por.schemas.verification import ChallengeKind
from verifier import passed
from verifier.context import Context
from verifier.forms import check_forms
from verifier.signatures import step8_signatures
from verifier.stages import CommittedEvidence, Decoded, Handoff, Records

if TYPE_CHECKING:
    from por.lean.trace import Step as LeanStep

_COMMITTED_FIELDS: tuple[tuple[str, ChallengeKind], ...] = (
    ("manifest_hash", "por_bundle"),
    ("prompt_spec_hash", "prompt_spec"),
    ("evidence_root", "evidence_leaf"),
    ("evidence_count", "evidence_leaf"),
    ("trace_header_hash", "por_bundle"),
    ("reasoning_root", "reasoning_leaf"),
    ("reasoning_count", "reasoning_leaf"),
    ("verdict_hash", "verdict"),
    ("forms_root", "por_bundle"),
    ("forms_count", "por_bundle"),
    ("por_root", "por_bundle"),
)

#: The bundle schema this verifier no longer verifies (SPEC §5.1): rebuild it.
_OLD_BUNDLE = "por.Bundle/1"


def step1_decode(ctx: Context, handoff: Handoff) -> Decoded:
    """Step 1: strict decode (codec.*)."""
    decoded, handoff.decoded = handoff.decoded, None
    if decoded is None:  # not already decoded by the fast path
        try:
            decoded = Decoded(decode_bundle(ctx.data, max_size=ctx.options.max_size))
        except PorError as exc:
            ctx.from_error(exc, challenge=ChallengeRef(kind="por_bundle"))
    ctx.passed("codec.ok", passed.CODEC_OK)
    return decoded


def step2_schema(ctx: Context, decoded: Decoded, handoff: Handoff) -> Records:
    """Step 2: the bundle map, its work budget and every record but the steps
    (schema.*, codec.* per leaf, bundle.* budget).

    Counts are checked before records are parsed (SPEC §17): signatures, then
    the number of steps against the evidence and requirement counts.  Step
    records are not parsed here: replay (step 5) compares their bytes with the
    replayed steps, so an honest trace is never parsed and a forged one costs a
    byte comparison, whatever it holds.
    """
    bundle_ref = ChallengeRef(kind="por_bundle")
    if type(decoded.value) is dict and decoded.value.get("schema") == _OLD_BUNDLE:
        ctx.failed("schema.unsupported_bundle",
                   f"{_OLD_BUNDLE} is no longer verified: rebuild it with `por build` "
                   f"(it becomes a {Bundle.SCHEMA})", expected=Bundle.SCHEMA,
                   actual=_OLD_BUNDLE, status="error")
    try:
        bundle = ctx.bundle = Bundle.from_dict(decoded.value)
    except PorError as exc:
        ctx.from_error(exc, challenge=bundle_ref)
    try:
        check_signature_layout(bundle.signatures)
    except PorError as exc:  # signatures are over the verdict, as in step 8
        ctx.from_error(exc, challenge=ChallengeRef(kind="verdict"))
    try:
        manifest = Manifest.from_cbor(bundle.manifest)
        header = TraceHeader.from_cbor(bundle.trace_header)
    except PorError as exc:
        ctx.from_error(exc, challenge=bundle_ref)
    try:
        spec = PromptSpec.from_cbor(bundle.prompt_spec)
    except PorError as exc:
        ctx.from_error(exc, challenge=ChallengeRef(kind="prompt_spec"))
    try:
        check_step_budget(len(bundle.steps), len(bundle.evidence),
                          len(spec.data_requirements))
        check_step_sizes(bundle.steps)
    except PorError as exc:
        ctx.from_error(exc, challenge=ChallengeRef(kind="reasoning_leaf"))
    want_forms = len(spec.data_requirements) + len(bundle.steps) + 2
    if len(bundle.forms) != want_forms:
        ctx.failed("schema.forms_count", "the bundle carries a form leaf hash per chain "
                   "form: r + s + 2 (SPEC §5.4)", expected=want_forms,
                   actual=len(bundle.forms), challenge=bundle_ref)
    lean, handoff.lean_items = handoff.lean_items, None
    fast = lean is not None and len(lean) == len(bundle.evidence)
    items = []
    for index, blob in enumerate(() if fast else bundle.evidence):
        try:
            items.append(EvidenceItem.from_cbor(blob))
        except PorError as exc:
            ctx.from_error(exc, challenge=ChallengeRef(kind="evidence_leaf",
                                                       leaf_index=index))
    try:
        verdict = ctx.verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    except PorError as exc:
        ctx.from_error(exc, challenge=ChallengeRef(kind="verdict"))
    market_id = spec.market.market_id
    if fast:
        # Every item passed the fast path's lean checks, ids unique: no second
        # decode (SPEC §17), and the models are made only if a later step reads
        # them (a forged step is reported without them: CommittedEvidence).
        evidence = CommittedEvidence(market_id, lean=lean)
        ctx.passed("schema.ok", passed.schema_ok(len(bundle.evidence), len(bundle.steps)))
        return Records(bundle=bundle, manifest=manifest, header=header, prompt_spec=spec,
                   verdict=verdict, evidence=evidence)
    try:
        evidence = CommittedEvidence(market_id, models=EvidenceBundle(
            bundle_id="committed", market_id=market_id, items=items))
    except ValueError:
        seen: set[str] = set()
        for index, item in enumerate(items):
            if item.evidence_id in seen:
                ctx.failed("schema.duplicate_evidence_id",
                           f"evidence id {item.evidence_id!r} appears twice",
                           challenge=ChallengeRef(kind="evidence_leaf", leaf_index=index,
                                                  evidence_id=item.evidence_id))
            seen.add(item.evidence_id)
        raise  # unreachable: ids are the one rule EvidenceBundle adds (Bundle caps the count)
    ctx.passed("schema.ok", passed.schema_ok(len(items), len(bundle.steps)))
    return Records(bundle=bundle, manifest=manifest, header=header, prompt_spec=spec,
                   verdict=verdict, evidence=evidence)


def step3_commitments(ctx: Context, records: Records) -> Commitments:
    """Step 3: recompute every commitment and compare (commit.*)."""
    bundle = records.bundle
    computed = compute_commitments(
        manifest=bundle.manifest, prompt_spec=bundle.prompt_spec, evidence=bundle.evidence,
        trace_header=bundle.trace_header, steps=bundle.steps, verdict=bundle.verdict,
        forms=bundle.forms,
    )
    committed = bundle.commitments
    for name, kind in _COMMITTED_FIELDS:
        want, got = getattr(computed, name), getattr(committed, name)
        if want != got:
            ctx.failed(f"commit.{name}", f"committed {name} does not match the records",
                       expected=want, actual=got, challenge=ChallengeRef(kind=kind))
    header, verdict = records.header, records.verdict
    market_id = records.prompt_spec.market.market_id
    for where, value in (("trace_header", header.market_id), ("verdict", verdict.market_id)):
        if value != market_id:
            ctx.failed("bundle.market_id", f"{where} names another market",
                       expected=market_id, actual=value,
                       challenge=ChallengeRef(kind="verdict" if where == "verdict"
                                              else "por_bundle"))
    if header.step_count != len(bundle.steps):
        ctx.failed("bundle.step_count", "trace header step_count differs from the steps",
                   expected=len(bundle.steps), actual=header.step_count,
                   challenge=ChallengeRef(kind="por_bundle"))
    for name in ("prompt_spec_hash", "evidence_root", "evidence_count", "reasoning_root",
                 "reasoning_count"):
        if getattr(verdict, name) != getattr(computed, name):
            ctx.failed("commit.verdict_refs", f"verdict.{name} differs from the bundle",
                       expected=getattr(computed, name), actual=getattr(verdict, name),
                       challenge=ChallengeRef(kind="verdict"))
    ctx.passed("commit.ok", passed.COMMIT_OK)
    return computed


def step4_manifest(ctx: Context, manifest: Manifest) -> None:
    """Step 4: version lock (manifest.*); unknown versions are unsupported (exit 2)."""
    ours = current_manifest()
    for name in ("spec_version", "profile", "hash_alg", "tree_alg", "auditor_version",
                 "judge_version"):
        if getattr(manifest, name) != getattr(ours, name):
            ctx.failed(f"manifest.unsupported_{name}",
                       f"this verifier replays only {name} {getattr(ours, name)!r}",
                       expected=getattr(ours, name), actual=getattr(manifest, name),
                       status="error")
    if manifest.rule_set_hash != ours.rule_set_hash:
        ctx.failed("manifest.rule_set_hash", "rule set hash differs for this judge version",
                   expected=ours.rule_set_hash, actual=manifest.rule_set_hash,
                   challenge=ChallengeRef(kind="por_bundle"))
    ctx.passed("manifest.ok", passed.MANIFEST_OK)


def step5_replay_audit(ctx: Context, records: Records, handoff: Handoff) -> ReasoningTrace:
    """Step 5: re-run the auditor and compare its trace, step by step (replay.*),
    and check the carried form leaf hashes (form.*) before any step's verdict.

    The step count is fixed by the counts alone (SPEC §12.5), so it is checked
    before the auditor runs; each step is then compared as soon as the auditor
    makes it, so a forged trace costs the audit up to its first wrong step.
    The forms come first (ADR 0017 §4: invalid records, forms, steps):
    :func:`verifier.forms.check_forms` runs before a step mismatch, a wrong step
    count or the header is reported.
    """
    spec, header = records.prompt_spec, records.header
    committed_steps: list[bytes] = records.bundle.steps
    extracts = len(records.bundle.evidence)  # the trace's first n steps (SPEC §12.5)
    matched, handoff.forms_ok = handoff.forms_ok, 0  # the fast path's checked step forms

    def unreached(index: int) -> Any:
        return _step_record_ok(ctx, committed_steps[index], index,
                               extract=index < extracts).to_dict()

    want_count = trace_length(records.evidence.requirement_ids(), requirement_ids(spec))
    if len(committed_steps) != want_count:
        check_forms(ctx, records, 0, unreached)
        at = min(len(committed_steps), want_count)
        ended = len(committed_steps) < want_count
        ctx.failed("replay.step_count", "the committed trace ends early" if ended
                   else "the committed trace has extra steps",
                   expected=want_count, actual=len(committed_steps),
                   challenge=ChallengeRef(kind="reasoning_leaf", leaf_index=at,
                                          step_id=step_id(at + 1) if ended
                                          else _step_id(committed_steps[at])))

    def differs(index: int, step: ReasoningStep | LeanStep, want: bytes) -> None:
        # The committed step is decoded once (a step citing 10^4 items costs
        # about what its audit costs); the replayed one is the model in hand.
        committed = _step_record_ok(ctx, committed_steps[index], index,
                                    extract=step.step_type == "extract")
        check_forms(ctx, records, index + 1, unreached, matched)
        field, details = _first_difference(
            ReasoningStep, committed_steps[index], want, models=(
                committed, step if isinstance(step, ReasoningStep) else None))
        ctx.failed("replay.step_mismatch",
                   f"step {step.step_id} differs from the replayed auditor's{field}",
                   expected=leaf_hash(want), actual=leaf_hash(committed_steps[index]),
                   challenge=ChallengeRef(kind="reasoning_leaf", step_id=step.step_id,
                                          leaf_index=index,
                                          reason="replay.step_mismatch"),
                   details=details)

    def compare(index: int, step: ReasoningStep) -> None:
        want = step.to_cbor()
        if committed_steps[index] == want:
            # Equal bytes: the replayed step keeps the committed copy, not a second one.
            step.__pydantic_private__["_cbor"] = committed_steps[index]  # type: ignore[index]
        else:
            differs(index, step, want)

    mismatch, handoff.step_mismatch = handoff.step_mismatch, None
    if mismatch is not None:  # the fast path's replay found it: no second audit
        index, lean_step = mismatch
        differs(index, lean_step, lean_step.to_cbor())
    replayed, _ = AuditorAgent().audit(spec, records.evidence.models(), on_step=compare)
    check_forms(ctx, records, len(committed_steps), unreached, matched)
    want_header = replayed.header()
    if want_header != header:
        field, details = _first_difference(TraceHeader, records.bundle.trace_header,
                                           want_header.to_cbor())
        ctx.failed("replay.trace_header",
                   f"trace header differs from the replayed auditor's{field}",
                   expected=leaf_hash(want_header.to_cbor()),
                   actual=leaf_hash(records.bundle.trace_header),
                   challenge=ChallengeRef(kind="por_bundle"), details=details)
    # Every committed step equals its replay byte for byte: use the replayed records.
    trace = ReasoningTrace.from_parts(header, replayed.steps)
    ctx.passed("replay.audit_ok", passed.audit_ok(len(committed_steps)))
    return trace


def _first_difference(record: type[ReasoningStep] | type[TraceHeader] |
                      type[DeterministicVerdict], committed: bytes,
                      recomputed: bytes, *, models: tuple[Any, Any] = (None, None),
                      ) -> tuple[str, dict[str, Value] | None]:
    """The first field in which a committed record differs from its replay
    (``por.challenge.diffs``, the field diff ``check-proof`` shows): a message
    suffix ``: first differing field F: committed X, recomputed Y`` and the
    check's ``details`` (``field``, ``committed``, ``recomputed``, values as
    JSON text).  Nothing when the committed record does not decode (its own
    check says why) or the two differ only in encoding.  ``models``: the two
    records already decoded (either may be None), so neither is decoded twice."""
    # Imported here: only a rejected bundle needs it, and the por.challenge
    # package would add to every verification's start-up (issue 16).
    from por.challenge.diffs import field_diffs  # noqa: PLC0415  # see above

    try:
        mine, theirs = models
        diffs = field_diffs((mine or record.from_cbor(committed)).to_json_obj(),
                            (theirs or record.from_cbor(recomputed)).to_json_obj(), limit=1)
    except PorError:
        return "", None
    if not diffs:
        return "", None
    first = diffs[0]
    return (f": first differing field {first.line()}",
            {"field": first.field, "committed": first.committed,
             "recomputed": first.recomputed})


def _step_record_ok(ctx: Context, blob: bytes, index: int, *, extract: bool) -> ReasoningStep:
    """A committed step that differs from its replay is decoded on its own: a
    malformed record is reported as such (codec.*, schema.*), one record at most;
    under the step item cap, at an extract step's place the extract step's (SPEC §17.1)."""
    try:
        return ReasoningStep.from_cbor(
            blob, max_items=MAX_EXTRACT_STEP_ITEMS if extract else None)
    except PorError as exc:
        ctx.from_error(exc, challenge=ChallengeRef(kind="reasoning_leaf", leaf_index=index))


def _step_id(blob: bytes) -> str | None:
    """The id of a committed step that replay did not produce, if it has one."""
    try:
        return ReasoningStep.from_cbor(blob).step_id
    except PorError:
        return None


def step6_trace_policy(ctx: Context, records: Records, trace: ReasoningTrace) -> None:
    """Step 6: the committed trace obeys its policy (trace.*)."""
    result = TracePolicyVerifier().verify(trace, records.prompt_spec,
                                          records.evidence.models())
    for check in result.checks:
        if not check.ok and check.severity == "error":
            ctx.failed(check.check_id, check.message, expected=check.expected,
                       actual=check.actual, challenge=check.challenge)
    ctx.passed("trace.ok", passed.TRACE_OK)


def step7_replay_judge(ctx: Context, records: Records, trace: ReasoningTrace) -> None:
    """Step 7: re-run the judge and compare the verdict (replay.verdict_mismatch)."""
    verdict, _ = JudgeAgent().judge(records.prompt_spec, records.evidence.models(), trace)
    want = verdict.to_cbor()
    got = records.bundle.verdict
    if want != got:
        committed = records.verdict
        field, details = _first_difference(DeterministicVerdict, got, want)
        ctx.failed("replay.verdict_mismatch",
                   f"replayed verdict is {verdict.outcome}/{verdict.confidence_bps}bps/"
                   f"{verdict.resolution_rule_id}, committed "
                   f"{committed.outcome}/{committed.confidence_bps}bps/"
                   f"{committed.resolution_rule_id}{field}",
                   expected=leaf_hash(want), actual=leaf_hash(got),
                   challenge=ChallengeRef(kind="verdict", reason="replay.verdict_mismatch"),
                   details=details)
    ctx.passed("replay.judge_ok", passed.JUDGE_OK)


def run_steps(ctx: Context, handoff: Handoff) -> None:
    """Steps 1-8 in order, each given what the earlier ones established; the
    first failing step raises ``StepFailed`` (``verifier.context``)."""
    decoded = step1_decode(ctx, handoff)  # 1. decode
    records = step2_schema(ctx, decoded, handoff)  # 2. schema
    del decoded  # the records hold the bundle's leaves; the plain decode is not needed
    commitments = step3_commitments(ctx, records)  # 3. commitments
    step4_manifest(ctx, records.manifest)  # 4. manifest
    trace = step5_replay_audit(ctx, records, handoff)  # 5. replay audit
    step6_trace_policy(ctx, records, trace)  # 6. trace policy
    step7_replay_judge(ctx, records, trace)  # 7. replay judge
    step8_signatures(ctx, records, commitments)  # 8. signatures


__all__ = ["run_steps", "step1_decode", "step2_schema", "step3_commitments", "step4_manifest",
           "step5_replay_audit", "step6_trace_policy", "step7_replay_judge"]
