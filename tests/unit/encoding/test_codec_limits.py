"""Resource limits of por.encoding.decode (BAD_INPUTS groups 5 and 16, RFC 8949 §10).

Huge length prefixes fail before allocating; deep nesting fails fast with
codec.depth (never RecursionError); the size cap is checked before parsing;
8 MB of empty maps decodes in bounded time.
"""

from __future__ import annotations

import tracemalloc

import pytest
from codec_helpers import generator

from por.encoding import DEFAULT_MAX_DEPTH, DEFAULT_MAX_SIZE, decode
from por.errors import EncodingError

KINDS = {2: "bytes", 3: "text", 4: "array", 5: "map"}
HUGE = {"2p32m1": 2**32 - 1, "2p63": 2**63, "2p64m1": 2**64 - 1}


def _check_id(data: bytes, **options: int) -> str:
    with pytest.raises(EncodingError) as info:
        decode(data, **options)
    return info.value.check_id


def test_defaults() -> None:
    assert DEFAULT_MAX_SIZE == 64 * 1024 * 1024
    assert DEFAULT_MAX_DEPTH == 32


@pytest.mark.parametrize("major", KINDS, ids=KINDS.values())
@pytest.mark.parametrize("arg", HUGE.values(), ids=HUGE.keys())
def test_huge_length_prefix_fails_fast_without_allocating(major: int, arg: int) -> None:
    data = generator().ref_head(major, arg) + b"\x00" * 1000
    tracemalloc.start()
    try:
        assert _check_id(data) == "codec.truncated"
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak < 64 * 1024, f"allocated {peak} bytes for a {len(data)}-byte input"


@pytest.mark.parametrize(
    ("name", "opener", "levels"),
    [("arrays", b"\x81", 1), ("maps", b"\xa1\x61\x61", 1), ("mixed", b"\x81\xa1\x61\x61", 2)],
)
def test_nesting_limit_is_exact(name: str, opener: bytes, levels: int) -> None:
    at_limit = opener * (DEFAULT_MAX_DEPTH // levels) + b"\x00"
    assert decode(at_limit) is not None
    over = opener * (DEFAULT_MAX_DEPTH // levels) + b"\x81\x00"
    assert _check_id(over) == "codec.depth"
    assert _check_id(at_limit, max_depth=DEFAULT_MAX_DEPTH - 1) == "codec.depth"


@pytest.mark.parametrize(
    ("name", "opener"),
    [("arrays", b"\x81"), ("maps", b"\xa1\x61\x61"), ("mixed", b"\x81\xa1\x61\x61")],
)
def test_100000_deep_fails_fast_with_depth(name: str, opener: bytes) -> None:
    data = opener * 100_000 + b"\x00"
    # Fails at the first level past the limit: the error names that offset,
    # so nothing beyond it was parsed (fail fast, measured without a clock).
    with pytest.raises(EncodingError) as info:
        decode(data)
    assert info.value.check_id == "codec.depth"
    levels = 2 if name == "mixed" else 1
    assert info.value.message.endswith(f"at offset {DEFAULT_MAX_DEPTH * len(opener) // levels}")
    # Truncated too: the depth rule is met first, in input order.
    assert _check_id(opener * 100_000) == "codec.depth"


def test_100000_deep_with_a_raised_limit_decodes_without_recursion() -> None:
    # The parser keeps an explicit stack: no RecursionError even when a caller
    # lifts the limit far beyond the interpreter's recursion limit.
    value = decode(b"\x81" * 100_000 + b"\x00", max_depth=100_000)
    for _ in range(100_000):
        assert type(value) is list
        assert len(value) == 1
        value = value[0]
    assert value == 0
    assert _check_id(b"\x81" * 100_000, max_depth=100_000) == "codec.truncated"


def test_max_depth_zero_allows_only_scalars() -> None:
    assert decode(b"\x01", max_depth=0) == 1
    assert _check_id(b"\x80", max_depth=0) == "codec.depth"
    assert _check_id(b"\xa0", max_depth=0) == "codec.depth"


def test_size_cap_is_checked_before_parsing() -> None:
    assert decode(b"\x42\x00\x00", max_size=3) == b"\x00\x00"
    assert _check_id(b"\x42\x00\x00", max_size=2) == "codec.too_large"
    # Garbage over the cap is reported as too large, not as whatever it is.
    assert _check_id(b"\xff" * 10, max_size=9) == "codec.too_large"


def test_input_of_exactly_default_cap_is_allowed_and_one_more_is_not() -> None:
    header = b"\x5a" + (DEFAULT_MAX_SIZE - 5).to_bytes(4, "big")
    body = bytes(DEFAULT_MAX_SIZE - 5)
    assert len(decode(header + body)) == DEFAULT_MAX_SIZE - 5
    assert _check_id(header + body + b"\x00") == "codec.too_large"


def test_8_mb_of_empty_maps_is_capped_and_decodes_when_allowed() -> None:
    # BAD_INPUTS group 16 "8 MB of empty maps": within the 64 MiB size cap, but
    # 8 * 10^6 containers exceed DEFAULT_MAX_CONTAINERS (memory amplification
    # of ~72 bytes per input byte), so it fails with codec.too_large.  With the
    # cap raised it decodes to 8 * 10^6 distinct empty maps.
    count = 8 * 10**6
    data = b"\x9a" + count.to_bytes(4, "big") + b"\xa0" * count
    assert _check_id(data) == "codec.too_large"
    value = decode(data, max_containers=count + 1)
    assert len(value) == count
    assert value[0] == {} and value[-1] == {}
    assert value[0] is not value[1]
    del value
    # A header that claims one more map than the input holds fails the
    # count-versus-input check before any map is built.
    lying = b"\x9a" + (count + 1).to_bytes(4, "big") + b"\xa0" * count
    assert _check_id(lying) == "codec.truncated"


def test_container_cap_bounds_memory_amplification() -> None:
    """8 MB of 1-byte empty maps would cost ~0.6 GB as Python dicts: capped."""
    from por.encoding import DEFAULT_MAX_CONTAINERS
    from por.errors import EncodingError

    n = DEFAULT_MAX_CONTAINERS + 1
    data = b"\x9a" + (n).to_bytes(4, "big") + b"\xa0" * n
    with pytest.raises(EncodingError) as info:
        decode(data)
    assert info.value.check_id == "codec.too_large"
    # A smaller cap is honoured exactly: n containers pass, n + 1 do not.
    small = b"\x83\xa0\xa0\xa0"
    assert decode(small, max_containers=4) == [{}, {}, {}]
    with pytest.raises(EncodingError) as info:
        decode(small, max_containers=3)
    assert info.value.check_id == "codec.too_large"
