"""Mutation test: every single-byte change and many truncations of a valid bundle
are rejected (exit 1): never verified, never "no verdict", never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier import check_bundle

VALID = Path(__file__).resolve().parents[3] / "fixtures" / "bundles" / "valid"


def _smallest() -> bytes:
    paths = sorted(VALID.glob("*.cbor"), key=lambda p: (p.stat().st_size, p.name))
    assert paths, "no valid fixture bundles"
    return paths[0].read_bytes()


@pytest.mark.parametrize("delta", [0x01, 0x80, 0xFF])
def test_every_single_byte_change_is_rejected(delta: int) -> None:
    data = _smallest()
    assert check_bundle(data).status == "verified"
    buf = bytearray(data)
    bad: list[tuple[int, str, str]] = []
    for offset in range(len(buf)):
        original = buf[offset]
        buf[offset] = original ^ delta
        report = check_bundle(bytes(buf))
        buf[offset] = original
        if report.status != "rejected":
            failure = report.first_failure
            bad.append((offset, report.status, failure.check_id if failure else "-"))
    assert not bad, f"{len(bad)} mutations not rejected, first: {bad[:5]}"


def test_truncations_are_rejected() -> None:
    data = _smallest()
    step = max(1, len(data) // 400)
    for cut in [*range(0, len(data), step), len(data) - 1]:
        report = check_bundle(data[:cut])
        assert report.status == "rejected", cut
        failure = report.first_failure
        assert failure is not None
        assert failure.check_id in {"codec.truncated", "codec.empty"}, (cut, failure.check_id)
