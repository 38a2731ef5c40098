"""``check_buildable(..., encoded=True)``: what the encoder makes is decoded only
where a cap could still refuse it (records over DEFAULT_MAX_CONTAINERS bytes)."""

from __future__ import annotations

import pytest

from por.encoding import decode, encode
from por.encoding.decoder import DEFAULT_MAX_CONTAINERS
from por.errors import PorError
from por.protocol.budget import check_buildable

SMALL = {"trace_header": b"\xa0", "verdict": b"\xa0", "steps": [b"\xa0"]}


def test_size_cap_still_applies() -> None:
    with pytest.raises(PorError) as info:
        check_buildable(SMALL, 11, max_size=10, encoded=True)
    assert info.value.check_id == "codec.too_large"


def test_large_records_are_still_decoded() -> None:
    # Over the container cap: 10^6 + 1 empty maps in one array, made by the encoder.
    blob = encode([{}] * (DEFAULT_MAX_CONTAINERS + 1))
    assert len(blob) > DEFAULT_MAX_CONTAINERS
    with pytest.raises(PorError) as info:
        check_buildable({**SMALL, "steps": [blob]}, 10, max_size=1 << 30, encoded=True)
    assert info.value.check_id == "codec.too_large"
    with pytest.raises(PorError):
        decode(blob)  # what a verifier would say


def test_small_encoder_output_is_not_decoded_again() -> None:
    # Not encoder output (non-canonical): skipped only because the caller said
    # encoded=True; without it, refused.  So the flag is what makes the difference.
    odd = b"\xb8\x00"  # a map with a 1-byte count of 0: non-shortest head
    check_buildable({**SMALL, "steps": [odd]}, 10, max_size=10, encoded=True)
    with pytest.raises(PorError):
        check_buildable({**SMALL, "steps": [odd]}, 10, max_size=10)
