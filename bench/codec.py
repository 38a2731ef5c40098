"""Decode throughput of por.encoding.decode versus cbor2.loads on the same bytes.

Run from the project root:  PYTHONPATH=. python bench/codec.py
Prints seconds (best of 5) for each workload and the ratio por / cbor2.
cbor2 6 decodes in C and checks less (no canonical-form, key-order or
duplicate checks by default); the ratio is the price of a strict pure-Python
decoder.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import cbor2

from por.encoding import decode, encode


def _best(fn: Callable[[bytes], Any], data: bytes, rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        fn(data)
        best = min(best, time.perf_counter() - started)
    return best


def _workloads() -> dict[str, bytes]:
    records = [
        {
            "schema": "por.EvidenceItem/1",
            "evidence_id": f"ev-{i:06d}",
            "content_hash": bytes(32),
            "retrieved_at": 1_700_000_000 + i,
            "ok": i % 2 == 0,
        }
        for i in range(100_000)
    ]
    count = 8 * 10**6
    return {
        "100k small maps": encode(records),
        "100k arrays of 8 ints": encode([list(range(8)) for _ in range(100_000)]),
        "8 MB of empty maps": b"\x9a" + count.to_bytes(4, "big") + b"\xa0" * count,
    }


def main() -> None:
    for name, data in _workloads().items():
        assert decode(data) == cbor2.loads(data)
        ours = _best(decode, data, 3 if len(data) > 5_000_000 else 5)
        theirs = _best(cbor2.loads, data, 3 if len(data) > 5_000_000 else 5)
        print(
            f"{name:24s} {len(data) / 1e6:6.2f} MB  por {ours:6.3f} s  "
            f"cbor2 {theirs:6.3f} s  ratio {ours / theirs:4.1f}x  "
            f"({len(data) / ours / 1e6:5.1f} MB/s)"
        )


if __name__ == "__main__":
    main()
