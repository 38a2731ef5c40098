"""Public API of por.encoding: names, types in and out, encoder rejections, errors."""

from __future__ import annotations

import enum
from collections import OrderedDict
from typing import Any

import pytest
from codec_helpers import typed

import por.encoding
from por.encoding import DEFAULT_MAX_DEPTH, decode, encode
from por.errors import EncodingError, PorError


def _encode_error(value: Any) -> str:
    with pytest.raises(EncodingError) as info:
        encode(value)
    return info.value.check_id


def test_public_names() -> None:
    assert por.encoding.__all__ == [
        "DEFAULT_MAX_CONTAINERS", "DEFAULT_MAX_DEPTH", "DEFAULT_MAX_SIZE", "decode", "encode",
    ]


def test_decode_returns_exact_types_in_canonical_key_order() -> None:
    value = decode(bytes.fromhex("a4616101616241ff6163826000626161f5"))
    assert typed(value) == (
        "map",
        [
            ("a", ("int", 1)),
            ("b", ("bytes", b"\xff")),
            ("c", ("array", [("str", ""), ("int", 0)])),
            ("aa", ("bool", True)),
        ],
    )
    assert encode({"aa": True, "c": ["", 0], "b": b"\xff", "a": 1}).hex() == (
        "a4616101616241ff6163826000626161f5"
    )


class _Color(enum.IntEnum):
    RED = 1


class _Label(str):
    pass


class _Record:
    pass


@pytest.mark.parametrize(
    "value",
    [1.0, float("nan"), None, (1, 2), {1}, frozenset(), bytearray(b"x"), memoryview(b"x"),
     _Color.RED, _Label("x"), OrderedDict(a=1), _Record(), [1, 2.5], {"a": None}, complex(1, 1)],
    ids=lambda v: type(v).__name__,
)  # fmt: skip
def test_encode_rejects_types_outside_the_model(value: Any) -> None:
    assert _encode_error(value) == "codec.unsupported_type"


@pytest.mark.parametrize("key", [1, b"a", True, None, ("a",), _Label("a")], ids=repr)
def test_encode_rejects_non_text_keys(key: Any) -> None:
    assert _encode_error({key: 1}) == "codec.key_type"
    assert _encode_error([{"a": {key: 1}}]) == "codec.key_type"


@pytest.mark.parametrize("value", [2**64, -(2**64) - 1, 2**200, -(2**200)])
def test_encode_rejects_integers_outside_64_bits(value: int) -> None:
    assert _encode_error(value) == "codec.int_range"
    assert _encode_error({"n": [value]}) == "codec.int_range"


def test_encode_accepts_the_64_bit_extremes() -> None:
    assert encode(2**64 - 1).hex() == "1bffffffffffffffff"
    assert encode(-(2**64)).hex() == "3bffffffffffffffff"


def test_bool_is_not_int() -> None:
    assert encode([True, 1, False, 0]).hex() == "84f501f400"
    assert typed(decode(bytes.fromhex("84f501f400"))) == typed([True, 1, False, 0])


@pytest.mark.parametrize("text", ["\ud800", "a\udfffb", "\udc80"], ids=ascii)
def test_encode_rejects_lone_surrogates(text: str) -> None:
    assert _encode_error(text) == "codec.invalid_utf8"
    assert _encode_error({text: 1}) == "codec.invalid_utf8"


def test_encode_enforces_the_default_depth_and_stops_cycles() -> None:
    value: Any = 0
    for _ in range(DEFAULT_MAX_DEPTH):
        value = [value]
    assert decode(encode(value)) == value
    assert _encode_error([value]) == "codec.depth"
    assert _encode_error({"a": value}) == "codec.depth"
    cycle: list[Any] = []
    cycle.append(cycle)
    assert _encode_error(cycle) == "codec.depth"


def test_decode_accepts_bytes_like_and_rejects_other_types() -> None:
    assert decode(bytearray(b"\x01")) == 1
    assert decode(memoryview(b"\x41\x00")) == b"\x00"
    assert type(decode(memoryview(b"\x41\x00"))) is bytes
    with pytest.raises(TypeError):
        decode("00")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        decode([0])  # type: ignore[arg-type]


def test_errors_carry_check_id_and_offset() -> None:
    with pytest.raises(EncodingError) as info:
        decode(bytes.fromhex("83010218"))
    error = info.value
    assert isinstance(error, PorError)
    assert error.check_id == "codec.truncated"
    assert "offset 4" in error.message
    assert error.diagnostics().startswith("codec.truncated: ")
    with pytest.raises(EncodingError) as info:
        decode(bytes.fromhex("a2616201616102"))
    assert info.value.check_id == "codec.key_order"
    assert "offset 4" in info.value.message


def test_too_large_reports_expected_and_actual() -> None:
    with pytest.raises(EncodingError) as info:
        decode(b"\x00\x00\x00", max_size=2)
    assert info.value.expected == "<= 2 bytes"
    assert info.value.actual == "3 bytes"


def test_decoded_containers_are_fresh_objects() -> None:
    value = decode(bytes.fromhex("82a0a0"))
    value[0]["x"] = 1
    assert value[1] == {}
    assert decode(bytes.fromhex("82a0a0")) == [{}, {}]
