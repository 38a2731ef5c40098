"""SPEC.md's worked por_root example is recomputed from the fixture with hashlib
alone (an independent RFC 9162 computation, not por.merkle)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from por.encoding import decode

ROOT = Path(__file__).resolve().parents[2]


def _mth(leaves: list[bytes]) -> bytes:
    """RFC 9162 §2.1.1 MTH, literally."""
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\x01" + _mth(leaves[:k]) + _mth(leaves[k:])).digest()


def _mth_of_hashes(hashes: list[bytes]) -> bytes:
    """MTH over leaves given by their leaf hashes (the ``forms`` component, §5.4)."""
    if len(hashes) == 1:
        return hashes[0]
    k = 1
    while k * 2 < len(hashes):
        k *= 2
    return hashlib.sha256(b"\x01" + _mth_of_hashes(hashes[:k])
                          + _mth_of_hashes(hashes[k:])).digest()


def test_spec_por_root_example_matches_the_fixture() -> None:
    spec = (ROOT / "SPEC.md").read_text(encoding="utf-8")
    rows = re.findall(r"^C(\d) (\w+)\s+([0-9a-f]{64}) ([0-9a-f]{16})$", spec, re.M)
    assert [int(r[0]) for r in rows] == list(range(7))
    stated_root = re.search(r"^por_root = MTH\(C0\.\.C6\) = ([0-9a-f]{64})$", spec, re.M)
    assert stated_root is not None
    bundle = decode((ROOT / "fixtures/bundles/valid/01-boolean-observed.cbor").read_bytes())
    lh = lambda data: hashlib.sha256(b"\x00" + data).digest()  # noqa: E731
    computed = [
        (lh(bundle["manifest"]), 1),
        (lh(bundle["prompt_spec"]), 1),
        (_mth(bundle["evidence"]), len(bundle["evidence"])),
        (lh(bundle["trace_header"]), 1),
        (_mth(bundle["steps"]), len(bundle["steps"])),
        (lh(bundle["verdict"]), 1),
        (_mth_of_hashes(bundle["forms"]), len(bundle["forms"])),
    ]
    for (_, _, root_hex, size_hex), (root, size) in zip(rows, computed, strict=True):
        assert root_hex == root.hex()
        assert int(size_hex, 16) == size
    leaves = [root + size.to_bytes(8, "big") for root, size in computed]
    assert stated_root.group(1) == _mth(leaves).hex()
    assert bundle["commitments"]["por_root"].hex() == stated_root.group(1)
