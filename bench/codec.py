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
from por.errors import EncodingError


def _best(fn: Callable[[bytes], Any], data: bytes, rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        fn(data)
        best = min(best, time.process_time() - started)
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
    # The decoder caps containers per input at 10**6 (SPEC §2, codec.too_large):
    # one array of 999 999 empty maps is the largest such input it accepts.
    count = 10**6 - 1
    return {
        "100k small maps": encode(records),
        "100k arrays of 8 ints": encode([list(range(8)) for _ in range(100_000)]),
        "1M containers (the cap)": b"\x9a" + count.to_bytes(4, "big") + b"\xa0" * count,
    }


def _rejected(data: bytes) -> None:
    try:
        decode(data)
    except EncodingError:
        return
    raise AssertionError("over-cap input was accepted")


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


    # An input over the container cap: rejected, and at what cost (cbor2 decodes it).
    count = 8 * 10**6
    data = b"\x9a" + count.to_bytes(4, "big") + b"\xa0" * count
    ours, theirs = _best(_rejected, data, 3), _best(cbor2.loads, data, 3)
    print(f"{'8M empty maps (rejected)':24s} {len(data) / 1e6:6.2f} MB  por {ours:6.3f} s  "
          f"cbor2 {theirs:6.3f} s  ratio {ours / theirs:4.1f}x  (por stops at the cap)")


if __name__ == "__main__":
    main()
