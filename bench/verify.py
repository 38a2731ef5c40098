"""Benchmark: build and verify bundles of 10, 1 000 and 100 000 evidence items.

Prints, for each size: build and verify CPU time per item (min/median of the
repeats), items per second, verify time relative to a bare strict decode +
hashing of the same bytes (the floor any verifier pays) and relative to
the same loop with cbor2's C decoder (the floor issue 16 states), peak RSS per item of
one verification in a fresh process above the bundle's own bytes, the growth
ratio 100 000 vs 1 000 from medians (linear means close to 100), ``por verify``
wall time on one small bundle relative to ``python -c pass``, and archive
throughput (small bundles per second, serial vs ``--jobs 2``).  Ratios are
measured in the same run; it reports and never fails on a ratio.

Usage: python bench/verify.py [--quick] [--repeats N]
       (--quick: 10, 1 000 and 10 000 items)
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cbor2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from por.bundle import DEFAULT_BUNDLE_MAX_SIZE, build_bundle
from por.encoding import decode
from por.gcpause import gc_paused
from por.protocol.limits import MAX_SOURCE_TARGETS
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
    """A numeric-threshold market with ``n`` agreeing JSON items from up to
    ``MAX_SOURCE_TARGETS`` sources (the schema's cap on a requirement's targets)."""
    sources = [f"src-{i:02d}" for i in range(min(n, MAX_SOURCE_TARGETS))]
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


def cbor2_floor(data: bytes) -> None:
    """The issue's floor: the same loop with cbor2's C decoder (no strictness)."""
    with gc_paused():
        top = cbor2.loads(data)
        sha = hashlib.sha256
        for key in ("manifest", "prompt_spec", "trace_header", "verdict"):
            cbor2.loads(top[key])
            sha(b"\x00" + top[key]).digest()
        for key in ("evidence", "steps"):
            for blob in top[key]:
                cbor2.loads(blob)
                sha(b"\x00" + blob).digest()


def cpu_times(fn: Callable[..., Any], *args: Any, repeats: int) -> tuple[list[float], Any]:
    """CPU seconds of ``repeats`` calls (the machine is shared: CPU, not wall)."""
    times, out = [], None
    for _ in range(repeats):
        t0 = time.process_time()
        out = fn(*args)
        times.append(time.process_time() - t0)
    return times, out


# VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the (large) parent.
_RSS_CHILD = """
import sys
from verifier import check_bundle
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
# Warm up on the small bundle: modules and caches load once per process, not per item.
assert check_bundle(open(sys.argv[2], "rb").read()).status == "verified"
data = open(sys.argv[1], "rb").read()
before = hwm()
report = check_bundle(data)
after = hwm()
assert report.status == "verified"
print(after - before)
"""


def peak_rss_above_input(path: Path, warm: Path) -> int:
    """Peak RSS growth (bytes) of one verification in a fresh process, measured
    after the bundle's bytes are loaded and after one verification of the small
    bundle ``warm`` (so imports are not counted): the memory verification itself needs."""
    done = subprocess.run([sys.executable, "-c", _RSS_CHILD, str(path), str(warm)],
                          check=True, capture_output=True, text=True)
    return int(done.stdout.strip())


def wall(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=False, capture_output=True)
    return time.perf_counter() - t0


def _bytecode_note() -> str:
    """Whether por's modules run from compiled bytecode (a normal ``pip install``
    compiles them; an editable install under PYTHONDONTWRITEBYTECODE does not)."""
    import importlib.util

    root = Path(__file__).resolve().parents[1]
    sources = [*root.glob("por/**/*.py"), *root.glob("verifier/*.py")]
    def stale(source: Path) -> bool:
        cached = Path(importlib.util.cache_from_source(str(source)))
        return not cached.is_file() or cached.stat().st_mtime < source.stat().st_mtime

    missing = [p for p in sources if stale(p)]
    if not missing:
        return "bytecode present"
    return (f"NO current bytecode for {len(missing)} of {len(sources)} modules: run "
            "`python -m compileall por verifier` to measure an installed start-up")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per size (default 3)")
    args = parser.parse_args()
    sizes = [10, 1_000, 10_000] if args.quick else [10, 1_000, 10_000, 100_000]
    print("CPU seconds; min and median of the repeats; floors, same run: strict = por's "
          "strict decode + SHA-256 of every record, C = the same with cbor2's C decoder")
    print(f"{'items':>8} {'build/item':>11} {'verify/item':>12} {'items/s':>9} "
          f"{'/strict':>8} {'/C floor':>9} {'bundle MB':>10} {'RSS/item':>10}")
    medians: dict[int, float] = {}
    small: bytes = b""
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            spec, evidence = make_inputs(n)
            repeats = max(1, args.repeats if n <= 10_000 else args.repeats - 1)
            t_build, data = cpu_times(build_bundle, spec, evidence, repeats=1)
            if n == sizes[0]:
                small = data
                (Path(tmp) / "small.cbor").write_bytes(small)
            t_floor, _ = cpu_times(bare_floor, data, repeats=repeats)
            t_cfloor, _ = cpu_times(cbor2_floor, data, repeats=repeats)
            t_verify, report = cpu_times(check_bundle, data, repeats=repeats)
            assert report.status == "verified", report.first_failure
            path = Path(tmp) / f"b{n}.cbor"
            path.write_bytes(data)
            rss = peak_rss_above_input(path, Path(tmp) / "small.cbor")
            medians[n] = statistics.median(t_verify)
            best = min(t_verify)
            print(f"{n:>8} {t_build[0] / n * 1e6:>9.1f}us "
                  f"{best / n * 1e6:>7.1f}/{medians[n] / n * 1e6:.0f}us "
                  f"{n / best:>9.0f} {best / min(t_floor):>7.2f}x "
                  f"{best / min(t_cfloor):>8.2f}x "
                  f"{len(data) / 1e6:>10.2f} {rss / n / 1024:>8.1f}KB")
        a, b = sizes[1], sizes[-1]
        print(f"growth {b} vs {a} (medians): verify CPU x{medians[b] / medians[a]:.1f} "
              f"for x{b // a} items (linear = {b // a})")
        path = Path(tmp) / "small.cbor"
        # Start-up: interleaved wall-clock runs (a process's start is wall time).
        t_pass, t_cli = [], []
        for _ in range(7):
            t_pass.append(wall([sys.executable, "-c", "pass"]))
            t_cli.append(wall([sys.executable, "-m", "por", "verify", "-q", str(path)]))
        print(f"por verify (10 items) wall min {min(t_cli) * 1e3:.0f} ms, median "
              f"{statistics.median(t_cli) * 1e3:.0f} ms = {min(t_cli) / min(t_pass):.1f}x "
              f"python -c pass (min {min(t_pass) * 1e3:.0f} ms); {_bytecode_note()}")
        # Archives: many small bundles, serial vs a pool of 2 (wall, one run each).
        count = 1000
        paths = []
        for i in range(count):
            copy = Path(tmp) / f"small-{i:04d}.cbor"
            copy.write_bytes(small)
            paths.append(str(copy))
        base = [sys.executable, "-m", "por", "verify", "-q"]
        serial = wall([*base, *paths])
        pooled = wall([*base, "--jobs", "2", *paths])
        print(f"archive of {count} small bundles: serial {count / serial:.0f}/s, "
              f"--jobs 2 {count / pooled:.0f}/s (x{serial / pooled:.2f}; wall, pool start "
              "included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
