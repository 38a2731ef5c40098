"""AuditorAgent (seed M06 §7.1): PromptSpec + EvidenceBundle -> ReasoningTrace + report.

Pure and deterministic: no clock, no environment, no randomness, no LLM.  The
trace is built from the step functions of :mod:`por.auditor.steps` in this
order (SPEC §12.5)::

    extract_claims            one per evidence item, bundle order
    check_requirement r, c    \\  per requirement, prompt-spec order: chunks of
    aggregate r               /  10 items (bundle order), then the aggregate
    contradictions
    deduce
    map                       final: output["evaluation_variables"]

Step ids are ``step_0001``...; ``trace_id`` is ``"trace_" +`` the first 16
hex digits of::

    SHA-256(b"por.trace_id/2" || LH(prompt_spec.to_cbor())
            || MTH(item_1.to_cbor(), ..., item_n.to_cbor()) || uint64_be(n))

that is, of the bundle's own ``prompt_spec_hash``, ``evidence_root`` and
``evidence_count`` (SPEC §5.3), so a header proof needs no evidence leaf
(SPEC §10.2.6, ADR 0011).

Linear in the evidence (n log n where a quorum sorts values).

The ``VerificationResult`` gathers, in step order, every extraction warning,
admission rejection, coverage/provenance result, contradiction and the
``sanity.variables`` result (severity ``warn``/``info``: data facts the judge
acts on through the evaluation variables), then ``sanity.market_id``
(``error`` if the bundle names another market) and the trace policy checks
(``error``).  So ``ok`` is false only when the trace itself is unusable or
the inputs disagree about the market, never for mere insufficient evidence.

Lean core (issue 16): :func:`audit_core` runs the same steps on *duck-typed*
inputs -- a ``prompt_spec`` with ``PromptSpec``'s attribute names and plain
values (``market.market_id``, ``data_requirements[i].expected_fields[j]
.json_path``, ..., and ``to_cbor()``) and evidence items with
``EvidenceItem``'s (and ``to_cbor()``) -- and returns an :class:`AuditRun` of
lean :class:`~por.lean.trace.Step` records, its ``trace_id``, its lean
``policy`` and :meth:`AuditRun.header_cbor`.  Nothing on that path imports
pydantic or calls a pydantic method; :meth:`AuditorAgent.audit` wraps it and
converts at the boundary.

Leaves out: the verdict (``por.judge``), bundles and commitments.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from por.auditor import step_io as io
from por.auditor.chunk_state import leaf_of
from por.auditor.steps import (
    Built,
    aggregate_step,
    check_requirement_step,
    contradictions_step,
    deduce_step,
    extract_step,
    map_step,
)
from por.auditor.stream import StepWindow
from por.auditor.trace_policy import lean_policy_for, policy_checks, trace_policy_for
from por.errors import AuditError
from por.lean.trace import Policy, Step, header_cbor
from por.lean.writer_hooks import results_from
from por.lean.writers_gen import Check
from por.merkle import leaf_hash, root_from_leaf_hashes
from por.protocol.limits import CHECK_CHUNK_ITEMS, MAX_TRACE_STEPS, step_id
from por.protocol.manifest import AUDITOR_VERSION

if TYPE_CHECKING:
    from por.auditor.step_io import AggregateLike, ConflictsLike, ExtractLike
    from por.schemas import (
        EvidenceBundle,
        PromptSpec,
        ReasoningStep,
        ReasoningTrace,
        VerificationResult,
    )

CHECK_MARKET_ID = "sanity.market_id"


def trace_length(item_requirements: Iterable[str], requirements: Sequence[str]) -> int:
    """Steps of the trace of items with these ``requirement_id``s (bundle order)
    and a PromptSpec with these requirement ids (SPEC §12.5): one extract per
    item, per requirement max(1, ceil(m / 10)) check chunks for its m items and an
    aggregate, then contradictions, deduce and map."""
    counts: dict[str, int] = {}
    items = 0
    for rid in item_requirements:
        items += 1
        counts[rid] = counts.get(rid, 0) + 1
    chunks = sum(max(1, -(-counts.get(rid, 0) // CHECK_CHUNK_ITEMS)) for rid in requirements)
    return items + chunks + len(requirements) + 3


def requirement_ids(prompt_spec: Any) -> list[str]:
    """The PromptSpec's requirement ids, in order."""
    return [r.requirement_id for r in prompt_spec.data_requirements]


def trace_id_of(prompt_spec: Any, items: Sequence[Any]) -> str:
    """The deterministic trace id (see the module docstring) of duck-typed inputs."""
    return trace_id_for(leaf_hash(prompt_spec.to_cbor()),
                        root_from_leaf_hashes([leaf_hash(i.to_cbor()) for i in items]),
                        len(items))


def trace_id_for(prompt_spec_hash: bytes, evidence_root: bytes, evidence_count: int) -> str:
    """The trace id of the inputs these commitments (SPEC §5.3) name."""
    digest = hashlib.sha256(b"por.trace_id/2")
    digest.update(prompt_spec_hash)
    digest.update(evidence_root)
    digest.update(evidence_count.to_bytes(8, "big"))
    return "trace_" + digest.hexdigest()[:16]


def trace_id_from(prompt_spec: PromptSpec, evidence: EvidenceBundle) -> str:
    """The deterministic trace id (see the module docstring)."""
    return trace_id_of(prompt_spec, evidence.items)


class AuditRun:
    """What :func:`audit_core` made: lean steps, trace id, policy (and report data).

    ``market_id`` is the prompt spec's; ``steps`` are in trace order.  Read by
    attribute like a ``ReasoningTrace`` (``market_id``, ``steps``, ``policy``,
    ``trace_id``), so the judge's lean core takes it as its trace.  A streaming
    run (``retain=False``) has no ``built`` and its ``steps`` is a
    :class:`~por.auditor.stream.StepWindow`: the count, the reasoning root and
    the last step only."""

    __slots__ = ("built", "market_id", "policy", "steps", "trace_id")

    def __init__(self, trace_id: str, market_id: str, policy: Policy,
                 built: list[Built] | None, window: StepWindow | None = None) -> None:
        self.trace_id = trace_id
        self.market_id = market_id
        self.policy = policy
        self.built = built
        self.steps: list[Step] | StepWindow = (
            [b.step for b in built] if built is not None else
            window if window is not None else StepWindow())

    def header_cbor(self, market_id: str | None = None) -> bytes:
        """``TraceHeader(trace_id, market_id, policy, step_count).to_cbor()``;
        ``market_id`` defaults to the prompt spec's."""
        return header_cbor(self.trace_id, self.market_id if market_id is None else market_id,
                           self.policy, len(self.steps))

    def step_checks(self) -> list[Check]:
        """Every step's report checks, in step order (made now, lean); a streaming
        run kept none (``ValueError``)."""
        if self.built is None:
            raise ValueError("a streaming audit run keeps no step checks")
        return [c for b in self.built for c in b.lean_checks()]


def audit_core(prompt_spec: Any, items: Sequence[Any], *,
               on_step: Callable[[int, Step], None] | None = None,
               retain: bool = True, reasoning_root: bytes | None = None) -> AuditRun:
    """Build the trace of (``prompt_spec``, ``items``) as lean steps (seed M06 §7.1 steps 1-6).

    Inputs are duck-typed (module docstring).  ``on_step(index, step)`` sees each
    step as soon as it is made; a replaying verifier compares it there and stops
    at the first difference (it may raise), so a forged trace never costs a
    full audit (SPEC §17.3).  With ``retain=False`` (streaming, issue 16) the
    audit drops each step once ``on_step`` has returned, keeping for its later
    steps only what they read (the claims in an ``ExtractStore``,
    the last check chunk of each requirement, ``step_io.ReadMemo``, the deduce step until the map
    is made):
    every step is the same, byte for byte, and the run's ``steps`` is a
    ``StepWindow``.  ``reasoning_root`` (streaming only): the root of the steps'
    bytes, from a caller whose ``on_step`` compares every step with leaves whose
    root it has checked, so the window need not hash them again.  Raises
    ``AuditError`` (``audit.too_many_steps``)."""
    requirements = prompt_spec.data_requirements
    total = trace_length((i.requirement_id for i in items), requirement_ids(prompt_spec))
    if total > MAX_TRACE_STEPS:
        raise AuditError("audit.too_many_steps",
                         f"{len(items)} evidence items need more than "
                         f"{MAX_TRACE_STEPS} steps")
    # 1. Policy: strict and bounded by the input size.
    policy = lean_policy_for(len(items), len(requirements))
    built: list[Built] | None = [] if retain else None
    window = None if retain else StepWindow(reasoning_root)
    made = 0

    def add(step: Built) -> Step:
        nonlocal made
        index, made = made, made + 1
        if built is not None:
            built.append(step)
        if on_step is not None:
            on_step(index, step.step)
        if window is not None:  # after on_step: the bytes it accepted are the leaf
            window.append(step.step)
        return step.step

    def next_id() -> str:
        return step_id(made + 1)

    # 2-3. Extraction, one step per item in bundle order.
    retained: list[ExtractLike] = []
    store = io.ExtractStore(items, made + 1)
    for item in items:
        extract = add(extract_step(prompt_spec, next_id(), item))
        if retain:
            retained.append(extract)
        else:
            store.add(extract)
        del extract  # streaming: the store keeps what later steps read

    def extracts(chosen: Sequence[int]) -> Sequence[ExtractLike]:
        return [retained[n] for n in chosen] if retain else store.memos(chosen)

    positions: dict[str, array[int]] = {}
    for n, item in enumerate(items):
        mine = positions.get(item.requirement_id)
        if mine is None:
            mine = positions[item.requirement_id] = array("q")
        mine.append(n)
    # 4. Per requirement: admission in chunks of 10 (logic sanity + gate), then
    # selection on the first admitted item of each source.
    last_chunks: list[Step] = []
    aggregate_steps: list[AggregateLike] = []
    for requirement in requirements:
        rid = requirement.requirement_id
        mine = positions.get(rid, array("q"))
        chunk = add(check_requirement_step(
            prompt_spec, next_id(), rid, [items[n] for n in mine[:CHECK_CHUNK_ITEMS]],
            extracts(mine[:CHECK_CHUNK_ITEMS])))
        for start in range(CHECK_CHUNK_ITEMS, len(mine), CHECK_CHUNK_ITEMS):
            chosen = mine[start:start + CHECK_CHUNK_ITEMS]
            chunk = add(check_requirement_step(
                prompt_spec, next_id(), rid, [items[n] for n in chosen],
                extracts(chosen), prior=chunk))
        last_chunks.append(chunk)
        firsts = array("q", (leaf_of(s["step_id"]) for s in chunk.output["sources"]))
        aggregate = add(aggregate_step(
            prompt_spec, next_id(), rid, check_step=chunk,
            items=[items[n] for n in firsts], extract_steps=extracts(firsts)))
        aggregate_steps.append(aggregate if retain else io.ReadMemo(aggregate, rid))
        del aggregate  # streaming: its lists go before the next step is made
    for cited in retained:  # the aggregates were the last readers of their claims
        io.forget_claims(cited)
    store.release()
    # 5. Contradictions: the requirements' last chunks' groups, merged.
    made_conflicts = add(contradictions_step(prompt_spec, next_id(), last_chunks))
    contradictions: ConflictsLike = made_conflicts if retain else io.ReadMemo(made_conflicts)
    del made_conflicts, last_chunks
    # 6. Deduce and map: the evaluation variables.
    deduce = add(deduce_step(prompt_spec, next_id(), aggregate_steps, contradictions))
    add(map_step(prompt_spec, next_id(), deduce))
    return AuditRun(trace_id_of(prompt_spec, items), prompt_spec.market.market_id, policy,
                    built, window)


def market_check(prompt_spec: Any, evidence_market_id: str) -> Check:
    """``sanity.market_id``: the evidence is for the prompt spec's market."""
    market = prompt_spec.market.market_id
    ok = evidence_market_id == market
    return Check(CHECK_MARKET_ID, ok, "info" if ok else "error",
                 "evidence bundle is for this market" if ok
                 else "evidence bundle is for another market",
                 expected=None if ok else market,
                 actual=None if ok else evidence_market_id)


def audit_checks(run: AuditRun, prompt_spec: Any, evidence: Any) -> list[Check]:
    """The audit report's checks (module docstring order) for a run on ``evidence``
    (an object with ``.items`` and ``.market_id``), as lean checks."""
    checks = run.step_checks()
    checks.append(market_check(prompt_spec, evidence.market_id))
    if not isinstance(run.steps, list):
        raise ValueError("audit checks need a retained run (audit_core(retain=True))")
    checks.extend(policy_checks(run.steps, prompt_spec, evidence.items,
                                trace_market_id=run.market_id, policy=run.policy))
    return checks


class AuditorAgent:
    """Deterministic auditor: builds the reasoning trace the judge maps to a verdict."""

    #: Version the bundle manifest locks (SPEC §5.2): any change to a step's
    #: computation, layout or order needs a new version.
    VERSION: ClassVar[str] = AUDITOR_VERSION
    role: ClassVar[str] = "auditor"

    def __init__(self, name: str | None = None) -> None:
        self.name = name if name is not None else "auditor"

    def audit(self, prompt_spec: PromptSpec,
              evidence: EvidenceBundle, *,
              on_step: Callable[[int, ReasoningStep], None] | None = None,
              ) -> tuple[ReasoningTrace, VerificationResult]:
        """The trace and the audit report (seed M06 §7.1 steps 1-8).

        ``on_step(index, step)`` sees each step as soon as it is made; a replaying
        verifier compares it there and stops at the first difference (it may raise),
        so a forged trace never costs a full audit (SPEC §17.3)."""
        from por.schemas import ReasoningTrace, VerificationResult  # noqa: PLC0415

        records: list[ReasoningStep] = []

        def convert(index: int, step: Step) -> None:
            record = step.to_record()
            records.append(record)
            if on_step is not None:
                on_step(index, record)

        run = audit_core(prompt_spec, evidence.items, on_step=convert)
        trace = ReasoningTrace(trace_id=run.trace_id, market_id=run.market_id,
                               policy=trace_policy_for(prompt_spec, evidence), steps=records)
        # 7. Structure and grounding.  8.
        checks = audit_checks(run, prompt_spec, evidence)
        return trace, VerificationResult.from_checks(results_from(checks))


__all__ = [
    "CHECK_MARKET_ID",
    "AuditRun",
    "AuditorAgent",
    "audit_checks",
    "audit_core",
    "market_check",
    "requirement_ids",
    "trace_id_for",
    "trace_id_from",
    "trace_id_of",
    "trace_length",
]
