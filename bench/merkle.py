"""Benchmark por.merkle against a bare hashlib loop computing the same RFC 9162 hashes.

Usage (from the repository root):

    PYTHONPATH=. python bench/merkle.py            # 10**4, 10**5, 10**6 leaves
    PYTHONPATH=. python bench/merkle.py --quick    # 10**4, 10**5 and fewer repeats

Each row times one operation of ``por.merkle`` and, in the same run and
interleaved with it, a bare loop of ``hashlib.sha256`` calls that computes the
same hashes (leaf hashes, then node hashes level by level, odd node carried
up).  The best of N repeats is reported; ratio = ours / bare.  The target for
root building is a ratio <= 1.15.  Leaves are 64-byte records.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

from por.merkle import (
    inclusion_proof,
    leaf_hashes,
    root_from_leaf_hashes,
    root_hash,
    verify_inclusion,
)


def records(count: int) -> list[bytes]:
    """``count`` distinct 64-byte leaves."""
    return [index.to_bytes(8, "big") * 8 for index in range(count)]


def bare_levels(level: list[bytes], index: int | None = None) -> tuple[bytes, list[bytes]]:
    """Bare RFC 9162 root over leaf hashes; with ``index``, also the audit path."""
    sha256 = hashlib.sha256
    path: list[bytes] = []
    while len(level) > 1:
        if index is not None:
            if index ^ 1 < len(level):
                path.append(level[index ^ 1])
            index >>= 1
        upper = [
            sha256(b"\x01" + level[i] + level[i + 1]).digest() for i in range(0, len(level) - 1, 2)
        ]
        if len(level) & 1:
            upper.append(level[-1])
        level = upper
    return level[0], path


def bare_root(leaves: list[bytes]) -> bytes:
    sha256 = hashlib.sha256
    return bare_levels([sha256(b"\x00" + leaf).digest() for leaf in leaves])[0]


def bare_inclusion(leaves: list[bytes], index: int) -> list[bytes]:
    sha256 = hashlib.sha256
    return bare_levels([sha256(b"\x00" + leaf).digest() for leaf in leaves], index)[1]


def bare_verify(leaf: bytes, index: int, size: int, proof: list[bytes], root: bytes) -> bool:
    """RFC 9162 §2.1.3.2 verification, inline, without argument checks."""
    sha256 = hashlib.sha256
    fn, sn, running = index, size - 1, leaf
    for element in proof:
        if fn & 1 or fn == sn:
            running = sha256(b"\x01" + element + running).digest()
            while fn and not fn & 1:
                fn >>= 1
                sn >>= 1
        else:
            running = sha256(b"\x01" + running + element).digest()
        fn >>= 1
        sn >>= 1
    return sn == 0 and running == root


def best_of(
    repeats: int, calls: int, ours: Callable[[], Any], bare: Callable[[], Any]
) -> tuple[float, float]:
    """Best per-call seconds of each, the two measured alternately."""
    best_ours = best_bare = float("inf")
    for _ in range(repeats):
        for which in ("ours", "bare"):
            function = ours if which == "ours" else bare
            start = time.perf_counter()
            for _ in range(calls):
                function()
            elapsed = (time.perf_counter() - start) / calls
            if which == "ours":
                best_ours = min(best_ours, elapsed)
            else:
                best_bare = min(best_bare, elapsed)
    return best_ours, best_bare


def measure(size: int, repeats: int, *, with_proofs: bool) -> list[tuple[str, int, float, float]]:
    """Rows for one tree size; checks first that ours and bare compute the same bytes."""
    leaves = records(size)
    hashes = leaf_hashes(leaves)
    root = root_hash(leaves)
    assert root == bare_root(leaves) == root_from_leaf_hashes(hashes)
    rows = [
        (
            "root_hash (leaf data)",
            size,
            *best_of(repeats, 1, lambda: root_hash(leaves), lambda: bare_root(leaves)),
        ),
        (
            "root_from_leaf_hashes",
            size,
            *best_of(
                repeats, 1, lambda: root_from_leaf_hashes(hashes), lambda: bare_levels(list(hashes))
            ),
        ),
    ]
    if not with_proofs:
        return rows
    index = size * 3 // 4 + 1
    proof = inclusion_proof(leaves, index)
    assert proof == bare_inclusion(leaves, index)
    leaf = hashes[index]
    assert bare_verify(leaf, index, size, proof, root)
    rows.append(
        (
            f"inclusion_proof (leaf {index})",
            size,
            *best_of(
                repeats,
                1,
                lambda: inclusion_proof(leaves, index),
                lambda: bare_inclusion(leaves, index),
            ),
        )
    )
    rows.append(
        (
            f"verify_inclusion ({len(proof)} hashes)",
            size,
            *best_of(
                repeats,
                2000,
                lambda: verify_inclusion(leaf, index, size, proof, root),
                lambda: bare_verify(leaf, index, size, proof, root),
            ),
        )
    )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip 10**6 and repeat less")
    parser.add_argument("--repeats", type=int, default=None, help="best of N (default 5, quick 3)")
    args = parser.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 5)
    sizes = [10**4, 10**5] if args.quick else [10**4, 10**5, 10**6]

    print(f"python {platform.python_version()} on {platform.machine()}, best of {repeats}")
    print(f"{'operation':<28} {'leaves':>9} {'ours':>12} {'bare':>12} {'ratio':>7}")
    rows: list[tuple[str, int, float, float]] = []
    for size in sizes:
        for row in measure(size, repeats, with_proofs=size == sizes[-1]):
            _print(row)
            rows.append(row)
    worst = max(ours / bare for name, _, ours, bare in rows if name.startswith("root"))
    # Reports, never decides: a ratio of two noisy timings is not an exit code.
    print(f"worst root-building ratio: {worst:.3f} (target <= 1.15; "
          f"{'met' if worst <= 1.15 else 'not met in this run'})")
    return 0


def _print(row: tuple[str, int, float, float]) -> None:
    name, size, ours, bare = row
    print(f"{name:<28} {size:>9} {_show(ours):>12} {_show(bare):>12} {ours / bare:>7.3f}")
    sys.stdout.flush()


def _show(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:.1f} ms"


if __name__ == "__main__":
    raise SystemExit(main())
