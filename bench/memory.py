"""Benchmark: memory of one fast-path verification, per evidence item (issue 16).

Builds the bench market of ``bench/verify.py`` with N items (default 10 000),
verifies its bundle with ``verifier.fast.fast_report`` under ``tracemalloc``
and prints, per item: the peak of traced memory over the whole verification,
the memory held when ``judge_core`` starts (after decode, lean records, the
streaming audit and the trace policy), and the largest holders at that
moment by file, by line and by allocation traceback.  Issue 16 asks for at
most 1 KB per item.  tracemalloc counts Python allocations only (not RSS:
``bench/verify.py`` measures that) and slows the run; it reports and never
fails.

Usage (from the repo root): python bench/memory.py [N]
"""

from __future__ import annotations

import gc
import sys
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from verify import make_inputs

import por.judge
from por.bundle import build_bundle
from verifier.fast import fast_report
from verifier.options import VerifyOptions
from verifier.stages import Handoff


def main(n: int) -> None:
    """Verify an ``n``-item bundle and print the per-item memory report."""
    spec, evidence = make_inputs(n)
    data = build_bundle(spec, evidence)
    del spec, evidence
    gc.collect()
    snapshot: list[tracemalloc.Snapshot] = []
    judge_core = por.judge.judge_core

    def spy(*args: Any, **kwargs: Any) -> Any:
        snapshot.append(tracemalloc.take_snapshot())
        return judge_core(*args, **kwargs)

    por.judge.judge_core = spy  # replay imports it from por.judge at call time
    tracemalloc.start(8)
    try:
        report = fast_report(data, VerifyOptions(max_size=1 << 28), Handoff())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        por.judge.judge_core = judge_core
    print(f"{n} items, verified on the fast path: {report is not None}")
    print(f"peak {peak / n:8.0f} B/item")
    if not snapshot:
        return
    at_judge = snapshot[0]
    by_file = at_judge.statistics("filename")
    print(f"at judge_core {sum(s.size for s in by_file) / n:8.0f} B/item")
    for stat in by_file[:10]:
        print(f"{stat.size / n:8.0f} B/item  {stat.traceback}")
    print("-- by line")
    for stat in at_judge.statistics("lineno")[:12]:
        print(f"{stat.size / n:8.0f} B/item  {stat.traceback}")
    print("-- by traceback")
    for stat in at_judge.statistics("traceback")[:6]:
        print(f"{stat.size / n:8.0f} B/item")
        for line in stat.traceback.format()[-12:]:
            print("   ", line)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
