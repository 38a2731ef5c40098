"""bench/largest_forms.py: the call data price it reports is EIP-2028's and EIP-7623's
floor, and each class's proof at the caps is built, won by Python and carries its
class's forms (no node: the anvil settle is the bench's ``--anvil``)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

import largest_forms as bench  # noqa: E402


def test_calldata_prices() -> None:
    # 3 non-zero bytes and 2 zero bytes: 3 x 16 + 2 x 4; tokens 2 + 4 x 3 = 14
    assert bench.calldata_gas(b"\x01\x00\x02\x00\x03") == (56, 140)
    assert bench.calldata_gas(b"") == (0, 0)


def test_every_class_is_under_64_kib_at_the_caps() -> None:
    """SPEC §10.7 "FormStepProof size": every class's FormStepProof at the caps (4-byte
    fill, the widest) is won by Python and at most 64 KiB; all but its disputed form at
    most 51 257 bytes (the measured maximum over every width: contradictions, since s45)."""
    rows = bench.proofs(bench.ROWS)
    assert {r["kind"] for r in rows} == {"check", "aggregate", "contradictions", "deduce", "judge"}
    for row in rows:
        assert row["won"].startswith(("one_step.", "judge.")), row["won"]
        assert 2 <= row["forms"] <= 67
        assert row["file_bytes"] <= 64 * 1024, (row["kind"], row["shape"], row["file_bytes"])
        assert row["file_bytes"] - row["disputed_bytes"] <= 51_257
