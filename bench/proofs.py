"""Benchmark: the proof ``verify --challenges`` writes for each class of lie (issue 22 item 5).

For each fan-in N (items of scenario 08's one requirement, its three items
repeated under new ids, bundle order; default 10 and 1000; the maximum is the
bundle cap of 200 000 items, SPEC §5.1, ``--sizes 10 1000 200000``) it builds
the honest bundle, then one dishonest bundle per class below (every commitment
recomputed, the verdict's references too, so only replay or a proof tells),
and runs ``python -m por verify B`` and ``python -m por verify B --challenges
DIR`` in child processes, reading each child's CPU time (user + system) and
peak RSS from ``os.wait4``.  For the written proof it prints its size against
issue 22's targets (a non-extraction proof <= 64 KiB; an extraction proof <=
the item leaf it reads + the PromptSpec + 4 KiB, SPEC §10.7, with the rest
printed), the time ``check_proof`` takes on it in this process, WON/LOST with
the reason, and the cost of ``verify --challenges`` as a ratio to ``verify`` of
the same bundle in the same run (target <= 3x in CPU time and in peak memory).
It prints and never fails.

``--item-bytes B`` pads every item's JSON ``content`` with trailing spaces to B
bytes (at most 4 MiB, SPEC §5.1; the claims are unchanged), to show which proofs
grow with the item: since ``por.CitationProof/2`` and ``por.OmissionProof/2``
(ADR 0011 decision 2) only the extraction proof carries an item.

Classes: citations (reordered, repeated, swapped, missing, extra), forged steps
(extract, check, aggregate, contradictions, deduce, map), a contradictions step
citing its requirement's first chunk (rule S5; with 10 items or fewer there is
one chunk and the bundle stays honest), a forged verdict,
omitted evidence (an item the trace never read) and a forged trace header.

``--spec-bytes S`` pads the PromptSpec (its market's ``event_definition``) to S
canonical bytes (at most 8 192, SPEC §4.2): every one-step and extraction proof
carries it.

Usage: ``PYTHONPATH=. python bench/proofs.py [--sizes 10 1000] [--classes NAME ...]
[--item-bytes B] [--spec-bytes S]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from citations import honest_bundle

from por.bundle.layout import Bundle, compute_commitments, with_forms
from por.schemas import DeterministicVerdict, ReasoningStep, TraceHeader

KIB = 1024
NON_EXTRACT_TARGET = 64 * KIB
EXTRACT_SLACK = 4 * KIB


def recommitted(bundle: Bundle, **records: Any) -> Bundle:
    """``bundle`` with ``records`` replaced, every commitment recomputed and the
    verdict's references (§4.5) set to the new commitments."""
    merged: dict[str, Any] = {
        "manifest": bundle.manifest, "prompt_spec": bundle.prompt_spec,
        "evidence": list(bundle.evidence), "trace_header": bundle.trace_header,
        "steps": list(bundle.steps), "verdict": bundle.verdict, **records}
    partial = compute_commitments(**merged)
    verdict = DeterministicVerdict.from_cbor(merged["verdict"]).model_copy(update={
        "evidence_root": partial.evidence_root, "evidence_count": partial.evidence_count,
        "reasoning_root": partial.reasoning_root,
        "reasoning_count": partial.reasoning_count})
    merged["verdict"] = verdict.to_cbor()
    merged = with_forms({**merged, "forms": None})
    return Bundle(**merged, commitments=compute_commitments(**merged), signatures=[])


def with_step(bundle: Bundle, index: int, edit: Callable[[ReasoningStep], dict[str, Any]]
              ) -> Bundle:
    """``bundle`` with step ``index`` updated by the fields ``edit`` returns."""
    steps = list(bundle.steps)
    step = ReasoningStep.from_cbor(steps[index])
    steps[index] = step.model_copy(update=edit(step)).to_cbor()
    return recommitted(bundle, steps=steps)


def output_with(step: ReasoningStep, path: tuple[Any, ...], value: Callable[[Any], Any]
                ) -> dict[str, Any]:
    """``{"output": ...}`` with the value at ``path`` replaced by ``value(old)``."""
    output = _copy(step.output)
    holder = output
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value(holder[path[-1]])
    return {"output": output}


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def cites(bundle: Bundle, n: int, order: list[int]) -> Bundle:
    """``bundle`` whose first check chunk (leaf ``n``) cites the items at ``order``
    and is recomputed on them as if they were in bundle order (a chunk refuses
    items out of order since stage 3, SPEC §12.5.3: the forger writes it anyway)."""
    import itertools
    from unittest import mock

    from por.auditor import chunk_state
    from por.auditor.steps import check_requirement_step
    from por.schemas import EvidenceItem, PromptSpec

    spec = PromptSpec.from_cbor(bundle.prompt_spec)
    items = [EvidenceItem.from_cbor(bundle.evidence[k]) for k in order]
    extracts = [ReasoningStep.from_cbor(bundle.steps[k]) for k in order]
    with mock.patch.object(chunk_state, "leaf_of", side_effect=itertools.count()):
        step = check_requirement_step(spec, f"step_{n + 1:04d}", items[0].requirement_id,
                                      items, extracts).step
    steps = list(bundle.steps)
    steps[n] = step.to_record().to_cbor()
    return recommitted(bundle, steps=steps)


def contradictions_on_first_chunk(bundle: Bundle) -> Bundle:
    """``bundle`` (one requirement of more than 10 items, so 2+ check chunks) whose
    ``contradictions`` step cites the requirement's FIRST chunk instead of its last,
    recomputed on it (so one-step re-execution reproduces it), ``deduce`` and ``map``
    recomputed after it (rule S5, SPEC §10.2.7)."""
    from por.auditor.steps import contradictions_step, deduce_step, map_step
    from por.schemas import PromptSpec

    spec = PromptSpec.from_cbor(bundle.prompt_spec)
    steps = [ReasoningStep.from_cbor(s) for s in bundle.steps]
    kinds = [s.inputs.get("kind") for s in steps]
    first, at = kinds.index("check_requirement"), kinds.index("contradictions")
    aggregates = [s for s in steps if s.inputs.get("kind") == "aggregate"]
    conflicts = contradictions_step(spec, steps[at].step_id, [steps[first]]).step
    deduce = deduce_step(spec, steps[at + 1].step_id, aggregates, conflicts).step
    final = map_step(spec, steps[at + 2].step_id, deduce).step
    forged = [*steps[:at], *(s.to_record() for s in (conflicts, deduce, final)),
              *steps[at + 3:]]
    return recommitted(bundle, steps=[s.to_cbor() for s in forged])


#: Content size of every item (``--item-bytes``); None: scenario 08's own.
ITEM_BYTES: list[int | None] = [None]
#: Canonical size of the PromptSpec (``--spec-bytes``); None: scenario 08's own.
SPEC_BYTES: list[int | None] = [None]


def padded_spec(spec: Any, size: int | None) -> Any:
    """``spec`` with its market's ``event_definition`` (read by people only, never by
    replay) padded with spaces until its canonical bytes are ``size`` long."""
    if size is None:
        return spec
    for _ in range(3):  # the text's CBOR head may grow by a byte or two
        delta = size - len(spec.to_cbor())
        text = spec.market.event_definition
        text = text + " " * delta if delta >= 0 else text[:delta]
        spec = spec.model_copy(update={"market": spec.market.model_copy(
            update={"event_definition": text})})
    assert len(spec.to_cbor()) == size, len(spec.to_cbor())
    return type(spec).model_validate(spec.model_dump(by_alias=True))  # §4.2's byte cap


def market(count: int) -> Bundle:
    """Scenario 08's honest bundle over ``count`` items, their content padded to
    ``ITEM_BYTES`` with trailing JSON whitespace (the claims are unchanged)."""
    size = ITEM_BYTES[0]
    if size is None and SPEC_BYTES[0] is None:
        bundle: Bundle = honest_bundle(count)
        return bundle
    from por.bundle import build
    from por.challenge import bundle_from_bytes
    from por.scenarios import load_scenario
    from por.schemas import EvidenceBundle

    scenario = load_scenario("08-quorum-agree")
    base = list(scenario.evidence.items)
    items = []
    for k in range(count):
        item = base[k % len(base)]
        pad = b" " * max(0, (size or 0) - len(item.content))
        items.append(item.model_copy(update={"evidence_id": f"ev-{k:06d}",
                                             "content": item.content + pad}))
    evidence = EvidenceBundle(bundle_id=scenario.evidence.bundle_id,
                              market_id=scenario.evidence.market_id, items=items)
    spec = padded_spec(scenario.prompt_spec, SPEC_BYTES[0])
    return bundle_from_bytes(build(spec, evidence).data)


def omitted(bundle: Bundle, count: int) -> Bundle:
    """The honest trace of the first ``count - 1`` items, committed with all
    ``count`` items (an item the trace never read)."""
    partial = market(count - 1)
    return recommitted(partial, evidence=list(bundle.evidence))


def forged_header(bundle: Bundle) -> Bundle:
    header = TraceHeader.from_cbor(bundle.trace_header)
    forged = header.model_copy(update={"trace_id": "trace_" + "0" * 16})
    return recommitted(bundle, trace_header=forged.to_cbor())


def forged_verdict(bundle: Bundle) -> Bundle:
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    flipped = "NO" if verdict.outcome == "YES" else "YES"
    return recommitted(bundle, verdict=verdict.model_copy(update={"outcome": flipped}).to_cbor())


def classes(honest: Bundle, n: int) -> dict[str, tuple[Callable[[], Bundle], bool]]:
    """Each class: how to make its bundle, and whether its proof is an extraction proof.

    Scenario 08's steps for n items (one requirement, m = ceil(n / 10) check
    chunks, SPEC §12.5): extract 0..n-1, check chunks n..n+m-1, aggregate n+m,
    contradictions n+m+1, deduce n+m+2, map n+m+3.  ``forged.check`` forges the
    last chunk's running state."""
    m = max(1, -(-n // 10))
    first = min(n, 10)
    check, aggregate, contra, deduce, final = n + m - 1, n + m, n + m + 1, n + m + 2, n + m + 3

    def flip(value: Any) -> Any:
        return not value

    last = ReasoningStep.from_cbor(honest.steps[n - 1]).evidence_ids[0]
    return {
        "citations.reordered": (lambda: cites(honest, n, [1, 0, *range(2, first)]), False),
        "citations.repeated": (lambda: cites(honest, n, [0, *range(first - 1)]), False),
        "citations.swapped": (lambda: with_step(honest, n, lambda s: {"evidence_ids": [
            s.evidence_ids[1], s.evidence_ids[0], *s.evidence_ids[2:]]}), False),
        "citations.missing": (lambda: cites(honest, n, list(range(first - 1))), False),
        "citations.extra": (lambda: with_step(honest, deduce, lambda s: {
            "evidence_ids": [*s.evidence_ids, last]}), False),
        "forged.extract": (lambda: with_step(honest, 0, lambda s: output_with(
            s, ("claims", 0, "value"), lambda v: "999.99")), True),
        "forged.check": (lambda: with_step(honest, check, lambda s: output_with(
            s, ("admitted_count",), lambda v: v + 1)), False),
        "forged.aggregate": (lambda: with_step(honest, aggregate, lambda s: output_with(
            s, ("fields", 0, "value"), lambda v: "999.99")), False),
        "forged.contradictions": (lambda: with_step(honest, contra, lambda s: output_with(
            s, ("claim_count",), lambda v: v + 1)), False),
        "forged.deduce": (lambda: with_step(honest, deduce, lambda s: output_with(
            s, ("conflict_detected",), flip)), False),
        "forged.map": (lambda: with_step(honest, final, lambda s: output_with(
            s, ("evaluation_variables", "fallback_used"), flip)), False),
        "forged.contradictions_chunk": (lambda: contradictions_on_first_chunk(honest), False),
        "forged.verdict": (lambda: forged_verdict(honest), False),
        "omitted_evidence": (lambda: omitted(honest, n), False),
        "forged.header": (lambda: forged_header(honest), False),
    }


def child(args: list[str]) -> tuple[int, float, int]:
    """Run ``python -m por ARGS``; its exit code, CPU seconds and peak RSS (bytes)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen([sys.executable, "-m", "por", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return (os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss * 1024)


def measure(name: str, bundle: Bundle, extraction: bool, n: int, work: Path) -> None:
    from por.challenge import check_proof

    path = work / f"{name}-{n}.cbor"
    path.write_bytes(bundle.to_cbor())
    _, verify_cpu, verify_rss = child(["verify", str(path)])
    out_dir = work / f"{name}-{n}.proofs"
    _, build_cpu, build_rss = child(["verify", str(path), "--challenges", str(out_dir)])
    written = sorted(out_dir.iterdir()) if out_dir.exists() else []
    ratio = f"cpu {build_cpu / verify_cpu:4.2f}x rss {build_rss / verify_rss:4.2f}x"
    if not written:
        print(f"N={n:>6} {name:<22} no proof written                          {ratio}")
        return
    data = written[0].read_bytes()
    start = time.perf_counter()
    report = check_proof(data, por_root=bundle.commitments.por_root)
    check_ms = (time.perf_counter() - start) * 1000
    # SPEC §10.7: an extraction proof is at most its item's leaf + the PromptSpec + 4 KiB.
    carried = len(bundle.evidence[0]) + len(bundle.prompt_spec)
    target = carried + EXTRACT_SLACK if extraction else NON_EXTRACT_TARGET
    rest = f" rest {len(data) - carried:>5} B" if extraction else ""
    reason = report.check_id if report.outcome is None else report.outcome.reason
    print(f"N={n:>6} {name:<22} {report.schema or '-':<22} {len(data):>10} B "
          f"({'ok  ' if len(data) <= target else 'OVER'} target {target:>6} B{rest}) check "
          f"{check_ms:8.1f} ms {'WON ' if report.won else 'LOST'} {reason:<28} {ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 1000])
    parser.add_argument("--classes", nargs="*", default=None)
    parser.add_argument("--item-bytes", type=int, default=None)
    parser.add_argument("--spec-bytes", type=int, default=None,
                        help="pad the PromptSpec to this many canonical bytes (cap 8192)")
    args = parser.parse_args()
    ITEM_BYTES[0] = args.item_bytes
    SPEC_BYTES[0] = args.spec_bytes
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            honest = market(n)
            for name, (make, extraction) in classes(honest, n).items():
                if args.classes and name not in args.classes:
                    continue
                measure(name, make(), extraction, n, Path(tmp))


if __name__ == "__main__":
    main()
