"""Benchmark: size and check time of a challenge proof for one evidence leaf among 10**5.

Builds a Bundle whose evidence tree holds N synthetic canonical EvidenceItem
records (default N = 100000; the other records come from the bundled scenario
``01-boolean-observed``, with the verdict's evidence root and count updated),
builds a real ``por.InclusionProof/1`` through ``por.challenge`` for the first,
middle and last leaf, and times, in the same run:

* ``check_proof(bytes, por_root=...)``: decode + schema + both levels + id
  + leaf-record description (what ``por check-proof`` does minus file I/O);
* ``verify_inclusion_proof(record, por_root=...)``: the two levels and the id
  on an already-decoded record;
* ``por.merkle.verify_inclusion`` alone on the same leaf hash and path: the
  bare RFC 9162 §2.1.3.2 verification.

Then the one-step line (issue 10, finding 5): the scenario's first
``check_requirement`` step is re-committed citing all N items, and
``build_one_step_proof`` is timed (one tree per component, every path read
from it: O(n + k log n)), with the proof's size against ``check-proof``'s
default cap (256 MiB) and the time ``check_proof`` takes on it (decode, N + 2
inclusion checks, re-execution of the step).

Usage: ``PYTHONPATH=. python bench/challenge.py [--items N] [--repeat R]
[--one-step-only]``.  Times are medians of R runs (perf_counter_ns); sizes are
exact; the one-step line is one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any


def synthetic_evidence(count: int) -> list[bytes]:
    """``count`` canonical EvidenceItem records (encode of the record's own dict)."""
    from por.encoding import encode
    from por.schemas import EvidenceItem, RetrievalReceipt, SourceRef

    template = EvidenceItem(
        evidence_id="ev_0000000", requirement_id="req_close",
        source=SourceRef(source_id="src-a", uri="https://a.example/close", provider="A"),
        content_type="application/json", content=b"",
        retrieval_receipt=RetrievalReceipt(retrieved_at=1_782_863_000, method="GET",
                                           status_code=200),
        provenance_tier=2, confidence_bps=9000,
    ).to_dict()
    leaves = []
    for n in range(count):
        value = dict(template)
        value["evidence_id"] = f"ev_{n:07d}"
        value["content"] = b'{"close":"%d.25","seq":%d}' % (100 + n % 50, n)
        leaves.append(encode(value))
    for sample in (leaves[0], leaves[-1]):  # the bytes are the records' canonical form
        assert EvidenceItem.from_cbor(sample).to_cbor() == sample
    return leaves


def big_bundle(count: int) -> Any:
    """A Bundle with ``count`` evidence leaves and consistent commitments."""
    from por.bundle import build
    from por.bundle.layout import Bundle, compute_commitments
    from por.challenge import bundle_from_bytes
    from por.merkle import root_hash
    from por.scenarios import load_scenario
    from por.schemas import DeterministicVerdict

    scenario = load_scenario("01-boolean-observed")
    base = bundle_from_bytes(build(scenario.prompt_spec, scenario.evidence).data)
    evidence = synthetic_evidence(count)
    verdict = DeterministicVerdict.from_cbor(base.verdict).model_copy(
        update={"evidence_root": root_hash(evidence), "evidence_count": count})
    records: dict[str, Any] = {
        "manifest": base.manifest, "prompt_spec": base.prompt_spec, "evidence": evidence,
        "trace_header": base.trace_header, "steps": list(base.steps),
        "verdict": verdict.to_cbor(), "forms": list(base.forms)}
    return Bundle(**records, commitments=compute_commitments(**records), signatures=[])


def median_ns(run: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``run()`` in nanoseconds over ``repeat`` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        run()
        samples.append(time.perf_counter_ns() - start)
    return float(statistics.median(samples))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--one-step-only", action="store_true")
    args = parser.parse_args()

    start = time.perf_counter()
    bundle = big_bundle(args.items)
    print(f"bundle with {args.items} evidence items built in "
          f"{time.perf_counter() - start:.2f} s")
    if not args.one_step_only:
        for index in (0, args.items // 2, args.items - 1):
            measure(bundle, index, args.repeat)
    measure_one_step(bundle)


#: ``por check-proof``'s default --max-size (por.cli.common.DEFAULT_MAX_SIZE).
CHECK_PROOF_CAP = 256 * 1024 * 1024


def citing_all(bundle: Any) -> tuple[Any, int]:
    """``bundle`` with its first check_requirement step citing every evidence item."""
    from por.bundle.layout import Bundle, compute_commitments, with_forms
    from por.encoding import decode
    from por.schemas import DeterministicVerdict, ReasoningStep

    steps = list(bundle.steps)
    index = next(i for i, s in enumerate(steps)
                 if ReasoningStep.from_cbor(s).inputs.get("kind") == "check_requirement")
    ids = [str(decode(leaf)["evidence_id"]) for leaf in bundle.evidence]
    step = ReasoningStep.from_cbor(steps[index]).model_copy(update={"evidence_ids": ids})
    steps[index] = step.to_cbor()
    records: dict[str, Any] = {
        "manifest": bundle.manifest, "prompt_spec": bundle.prompt_spec,
        "evidence": list(bundle.evidence), "trace_header": bundle.trace_header,
        "steps": steps, "verdict": bundle.verdict}
    partial = compute_commitments(**records)
    verdict = DeterministicVerdict.from_cbor(bundle.verdict).model_copy(
        update={"reasoning_root": partial.reasoning_root})
    records["verdict"] = verdict.to_cbor()
    records = with_forms(records)
    return Bundle(**records, commitments=compute_commitments(**records),
                  signatures=[]), index


def measure_one_step(bundle: Any) -> None:
    """Time a one-step proof for a step citing every evidence item (one run)."""
    from por.challenge import build_one_step_proof, check_proof

    big, index = citing_all(bundle)
    count = len(big.evidence)
    start, cpu = time.perf_counter(), time.process_time()
    proof = build_one_step_proof(big, index)
    built_s, built_cpu = time.perf_counter() - start, time.process_time() - cpu
    data = proof.to_cbor()
    start = time.perf_counter()
    report = check_proof(data, por_root=big.commitments.por_root, max_size=CHECK_PROOF_CAP)
    check_s = time.perf_counter() - start
    outcome = "-" if report.outcome is None else f"{report.outcome.outcome} " \
        f"({report.outcome.reason})"
    print(f"one-step proof for a step citing {count} items:")
    print(f"  build proof       {built_s:.2f} s wall, {built_cpu:.2f} s CPU (one tree per "
          f"component, {count} paths; target < 5 s)")
    print(f"  proof file        {len(data)} bytes = {len(data) / count:.0f} bytes per cited "
          f"item; {100 * len(data) / CHECK_PROOF_CAP:.0f}% of check-proof's default cap "
          f"({CHECK_PROOF_CAP} bytes)")
    print(f"  check_proof       {check_s:.2f} s: proof {report.status}, challenge {outcome}")


def measure(bundle: Any, index: int, repeat: int) -> None:
    """Build the proof of evidence leaf ``index``; print its size and the three timings."""
    from por.challenge import build_inclusion_proof, check_proof, verify_inclusion_proof
    from por.merkle import HASH_SIZE, leaf_hash, verify_inclusion

    root = bundle.commitments.por_root
    start = time.perf_counter()
    proof = build_inclusion_proof(bundle, "evidence_leaf", index)
    built_s = time.perf_counter() - start
    data = proof.to_cbor()
    hashed = leaf_hash(proof.leaf)
    path, size, evidence_root = proof.leaf_path, proof.tree_size, proof.component_root
    report = check_proof(data, por_root=root)
    assert report.status == "verified", report.check_id

    t_check = median_ns(lambda: check_proof(data, por_root=root), repeat)
    t_levels = median_ns(lambda: verify_inclusion_proof(proof, por_root=root), repeat)
    t_bare = median_ns(lambda: verify_inclusion(hashed, index, size, path, evidence_root),
                       repeat)
    t_bare_leaf = median_ns(
        lambda: verify_inclusion(leaf_hash(proof.leaf), index, size, path, evidence_root),
        repeat)
    leaf_bytes, path_bytes = len(proof.leaf), len(path) * HASH_SIZE
    component_bytes = len(proof.component_path) * HASH_SIZE
    overhead = len(data) - leaf_bytes - path_bytes - component_bytes - 3 * HASH_SIZE
    print(f"leaf {index} of {size}:")
    print(f"  proof file        {len(data)} bytes (leaf {leaf_bytes}, leaf path {len(path)} x 32"
          f" = {path_bytes}, component path {len(proof.component_path)} x 32 = "
          f"{component_bytes}, roots/id 3 x 32, CBOR keys and headers {overhead})")
    print(f"  bare RFC 9162     {path_bytes} bytes of path (+ {leaf_bytes} leaf + 32 root = "
          f"{path_bytes + leaf_bytes + 32})")
    print(f"  build proof       {built_s * 1e3:.1f} ms (hashes all {size} leaves)")
    print(f"  check_proof       {t_check / 1e3:.1f} us (decode, schema, 2 levels, id, "
          "leaf record)")
    print(f"  verify (2 levels) {t_levels / 1e3:.1f} us (decoded record, 2 levels + id)")
    print(f"  verify_inclusion  {t_bare / 1e3:.1f} us (bare RFC 9162, leaf hash given); "
          f"{t_bare_leaf / 1e3:.1f} us with the leaf hash")
    print(f"  ratio             check_proof / bare = {t_check / t_bare:.1f}x; "
          f"2 levels / bare = {t_levels / t_bare:.1f}x")

if __name__ == "__main__":
    main()
