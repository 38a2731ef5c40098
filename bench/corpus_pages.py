"""Benchmark: the market corpus on full-size pages against its trimmed bodies.

Builds and verifies (``por.bundle.build`` then ``verifier.check_bundle``, what
``por demo`` does per scenario, without writing files) every bundled scenario
twice: on the committed, trimmed bodies (the baseline, what ``por demo`` uses)
and on the full-size pages of ``fixtures/markets/pages.py`` (50-200 KB each).
Wall time, best of ``--repeat``; page generation is timed apart.  Prints the
ratio to the baseline measured in the same run; never fails.

Usage: python bench/corpus_pages.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from por.bundle import build  # noqa: E402
from por.scenarios import list_scenarios, load_scenario  # noqa: E402
from por.schemas import EvidenceBundle, PromptSpec  # noqa: E402
from verifier import check_bundle  # noqa: E402


def _pages() -> object:
    spec = importlib.util.spec_from_file_location("market_pages", ROOT / "fixtures" / "markets"
                                                  / "pages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _full(pages: object, spec: PromptSpec, evidence: EvidenceBundle) -> EvidenceBundle:
    items = [item.model_copy(update={"content": pages.full_body(  # type: ignore[attr-defined]
        spec.market.market_id, item.evidence_id, item.content_type, item.content)})
        if 200 <= item.retrieval_receipt.status_code <= 299 else item
        for item in evidence.items]
    return evidence.model_copy(update={"items": items})


def _run(pairs: list[tuple[PromptSpec, EvidenceBundle]], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for spec, evidence in pairs:
            if not check_bundle(build(spec, evidence).data).ok:
                print("a bundle did not verify")
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    pages = _pages()
    scenarios = [load_scenario(name) for name in list_scenarios()]
    trimmed = [(s.prompt_spec, s.evidence) for s in scenarios]
    start = time.perf_counter()
    full = [(spec, _full(pages, spec, evidence)) for spec, evidence in trimmed]
    generation = time.perf_counter() - start
    size = {name: sum(len(i.content) for _, e in pairs for i in e.items)
            for name, pairs in (("trimmed", trimmed), ("full", full))}
    base = _run(trimmed, args.repeat)
    print(f"{len(trimmed)} scenarios, build + verify, best of {args.repeat}")
    print(f"trimmed bodies  {size['trimmed']:>9} B  {base:7.3f} s  1.00x (baseline)")
    took = _run(full, args.repeat)
    print(f"full-size pages {size['full']:>9} B  {took:7.3f} s  {took / base:5.2f}x")
    print(f"page generation                {generation:7.3f} s  {generation / base:5.2f}x")


if __name__ == "__main__":
    main()
