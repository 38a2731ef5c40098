"""Benchmark: build and verify bundles of 10, 1 000 and 100 000 evidence items.

Prints, for each size: build and verify time per item, verify time relative to a
bare strict decode + hashing of the same bytes (the floor any verifier pays),
peak memory of verification (tracemalloc), the growth ratio 100 000 vs 1 000
(linear means close to 100), and ``por verify`` wall time on one small bundle
relative to ``python -c pass``.  Ratios are measured in the same run; absolute
times on these machines are noisy and not the point.

Usage: python bench/verify.py [--quick]   (--quick: 10, 1 000 and 10 000 items)
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from por.bundle import DEFAULT_BUNDLE_MAX_SIZE, build_bundle
from por.encoding import decode
from por.gcpause import gc_paused
from por.schemas import (
    DataRequirement,
    DisputePolicy,
    EvidenceBundle,
    EvidenceItem,
    FieldSpec,
    MarketSpec,
    PredictionSemantics,
    PromptSpec,
    ResolutionRule,
    ResolutionRules,
    ResolutionWindow,
    RetrievalReceipt,
    SelectionPolicy,
    SourceRef,
    SourceTarget,
)
from verifier import check_bundle

START, END = 1_782_000_000, 1_782_864_000


def make_inputs(n: int) -> tuple[PromptSpec, EvidenceBundle]:
    """A numeric-threshold market with ``n`` agreeing JSON items from 50 sources
    (the schema caps a requirement at 64 source targets)."""
    sources = [f"src-{i:02d}" for i in range(min(n, 50))]
    spec = PromptSpec(
        market=MarketSpec(
            market_id="bench-market", question="Will ACME/USD close above 100?",
            event_definition="ACME/USD reference price above 100 at close",
            resolution_window=ResolutionWindow(start=START, end=END),
            resolution_rules=ResolutionRules(rules=[
                ResolutionRule(rule_id=r, description=r, priority=i)
                for i, r in enumerate(["R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION",
                                       "R_CONFIDENCE", "R_INVALID_FALLBACK"])]),
            allowed_sources=sorted(sources),
            dispute_policy=DisputePolicy(dispute_window_seconds=86_400)),
        prediction_semantics=PredictionSemantics(
            target_entity="ACME/USD", predicate="numeric_threshold", metric="price",
            comparison=">", threshold="100"),
        data_requirements=[DataRequirement(
            requirement_id="price", description="closing price",
            source_targets=[SourceTarget(source_id=s, uri=f"https://{s}.example/acme",
                                         expected_content_type="application/json")
                            for s in sources],
            selection_policy=SelectionPolicy(strategy="multi_source_quorum",
                                             min_sources=1, quorum=1),
            expected_fields=[FieldSpec(key="price", kind="numeric", json_path="$.price"),
                             FieldSpec(key="timestamp", kind="timestamp",
                                       json_path="$.timestamp")])],
    )
    items = [EvidenceItem(
        evidence_id=f"ev-{i:06d}", requirement_id="price",
        source=SourceRef(source_id=sources[i % len(sources)],
                         uri=f"https://{sources[i % len(sources)]}.example/acme",
                         provider=sources[i % len(sources)]),
        content_type="application/json",
        content=b'{"price": 101.25, "timestamp": %d}' % (START + 60 + i % 1000),
        retrieval_receipt=RetrievalReceipt(retrieved_at=START + 120, method="GET",
                                           status_code=200),
        provenance_tier=2, confidence_bps=9000) for i in range(n)]
    return spec, EvidenceBundle(bundle_id="bench", market_id="bench-market", items=items)


def bare_floor(data: bytes) -> None:
    """Strict decode of the bundle and of every record, plus one SHA-256 per record.

    Runs with the cyclic GC paused, as check_bundle does, so the ratio compares
    like with like.
    """
    with gc_paused():
        _bare_floor(data)


def _bare_floor(data: bytes) -> None:
    top = decode(data, max_size=DEFAULT_BUNDLE_MAX_SIZE)
    sha = hashlib.sha256
    for key in ("manifest", "prompt_spec", "trace_header", "verdict"):
        decode(top[key])
        sha(b"\x00" + top[key]).digest()
    for key in ("evidence", "steps"):
        for blob in top[key]:
            decode(blob)
            sha(b"\x00" + blob).digest()


def timed(fn, *args):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sizes = [10, 1_000, 10_000] if args.quick else [10, 1_000, 100_000]
    print(f"{'items':>8} {'build/item':>12} {'verify/item':>12} {'bundle':>10} "
          f"{'verify/floor':>13} {'peak MiB':>9}")
    verify_times: dict[int, float] = {}
    small: bytes = b""
    for n in sizes:
        spec, evidence = make_inputs(n)
        t_build, data = timed(build_bundle, spec, evidence)
        if n == sizes[0]:
            small = data
        t_floor = min(timed(bare_floor, data)[0] for _ in range(2 if n > 10_000 else 3))
        tracemalloc.start()
        t_verify, report = timed(check_bundle, data)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        # Second, untraced run for the time (tracemalloc slows allocation).
        t_verify = min(t_verify, timed(check_bundle, data)[0])
        assert report.status == "verified", report.first_failure
        verify_times[n] = t_verify
        print(f"{n:>8} {t_build / n * 1e6:>10.1f}us {t_verify / n * 1e6:>10.1f}us "
              f"{len(data):>10} {t_verify / t_floor:>12.2f}x {peak / 2**20:>9.1f}")
    a, b = sizes[1], sizes[2]
    print(f"growth {b} vs {a}: verify time x{verify_times[b] / verify_times[a]:.1f} "
          f"for x{b // a} items (linear = {b // a})")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "small.cbor"
        path.write_bytes(small)
        def run(cmd: list[str]) -> float:
            best = float("inf")
            for _ in range(5):
                t0 = time.perf_counter()
                subprocess.run(cmd, check=False, capture_output=True)
                best = min(best, time.perf_counter() - t0)
            return best
        t_pass = run([sys.executable, "-c", "pass"])
        t_cli = run([sys.executable, "-m", "por", "verify", "-q", str(path)])
        print(f"por verify (10 items) wall {t_cli * 1e3:.0f} ms = {t_cli / t_pass:.1f}x "
              f"python -c pass ({t_pass * 1e3:.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
