"""Hypothesis properties of por.encoding (SPEC §2, §5).

Round trip over the whole data model against an independent reference
encoder; determinism across dict insertion orders; every re-ordering,
duplication or widened head of a valid encoding is rejected with its check id;
every proper prefix is truncated; arbitrary bytes raise only EncodingError or
decode to something that re-encodes to the same bytes.
"""

from __future__ import annotations

import random
from typing import Any

from codec_helpers import maps, ref_encode, render, shortest_width, tokens, typed, values
from hypothesis import assume, given
from hypothesis import strategies as st

from por.encoding import decode, encode
from por.errors import EncodingError

# Valid prefixes that put the item under test at top level, in an array, as a
# map value, and as the second array element.
WRAPPERS = [b"", b"\x81", b"\xa1\x61\x61", b"\x82\x00"]


def _reordered(value: Any, rnd: random.Random) -> Any:
    """The same value with every dict rebuilt in a shuffled insertion order."""
    if isinstance(value, list):
        return [_reordered(v, rnd) for v in value]
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: _reordered(v, rnd) for k, v in items}
    return value


@given(values)
def test_round_trip_matches_reference_encoder(value: Any) -> None:
    data = encode(value)
    assert data == ref_encode(value)
    decoded = decode(data)
    assert typed(decoded) == typed(_canonical_order(value))


def _canonical_order(value: Any) -> Any:
    if isinstance(value, list):
        return [_canonical_order(v) for v in value]
    if isinstance(value, dict):
        return {k: _canonical_order(value[k]) for k in sorted(value, key=ref_encode)}
    return value


@given(values, st.randoms(use_true_random=False))
def test_encode_ignores_dict_insertion_order(value: Any, rnd: random.Random) -> None:
    assert encode(_reordered(value, rnd)) == encode(value)


@given(maps, st.data(), st.sampled_from(WRAPPERS))
def test_any_key_reordering_is_rejected(value: dict[str, Any], data: Any, wrap: bytes) -> None:
    pairs = sorted((ref_encode(k), ref_encode(v)) for k, v in value.items())
    order = data.draw(st.permutations(range(len(pairs))))
    assume(list(order) != sorted(order))
    body = b"".join(pairs[i][0] + pairs[i][1] for i in order)
    item = bytes([0xA0 + len(pairs)]) + body
    try:
        decode(wrap + item)
    except EncodingError as exc:
        assert exc.check_id == "codec.key_order"
    else:
        raise AssertionError("out-of-order map accepted")


@given(maps, st.data(), st.sampled_from(WRAPPERS))
def test_any_duplicated_key_is_rejected(value: dict[str, Any], data: Any, wrap: bytes) -> None:
    pairs = sorted((ref_encode(k), ref_encode(v)) for k, v in value.items())
    index = data.draw(st.integers(0, len(pairs) - 1))
    other_value = ref_encode(data.draw(values))
    pairs.insert(index + 1, (pairs[index][0], other_value))
    item = bytes([0xA0 + len(pairs)]) + b"".join(k + v for k, v in pairs)
    try:
        decode(wrap + item)
    except EncodingError as exc:
        assert exc.check_id == "codec.duplicate_key"
    else:
        raise AssertionError("duplicate key accepted")


@given(values, st.data())
def test_any_widened_head_is_rejected(value: Any, data: Any) -> None:
    toks = list(tokens(value))
    heads = [t for t in toks if isinstance(t, tuple)]
    widenable = [i for i, (_, arg) in enumerate(heads) if shortest_width(arg) < 8]
    assume(widenable)
    index = data.draw(st.sampled_from(widenable))
    shortest = shortest_width(heads[index][1])
    width = data.draw(st.sampled_from([w for w in (1, 2, 4, 8) if w > shortest]))
    bad = render(toks, index, width)
    assert render(toks) == encode(value)
    try:
        decode(bad)
    except EncodingError as exc:
        assert exc.check_id == "codec.non_canonical"
    else:
        raise AssertionError("non-shortest head accepted")


@given(values, st.data())
def test_every_proper_prefix_is_truncated(value: Any, data: Any) -> None:
    encoded = encode(value)
    assume(len(encoded) > 1)
    cut = data.draw(st.integers(1, len(encoded) - 1))
    try:
        decode(encoded[:cut])
    except EncodingError as exc:
        assert exc.check_id == "codec.truncated"
    else:
        raise AssertionError("prefix accepted")


@given(values, st.binary(min_size=1, max_size=4))
def test_any_suffix_is_trailing_bytes(value: Any, tail: bytes) -> None:
    try:
        decode(encode(value) + tail)
    except EncodingError as exc:
        assert exc.check_id == "codec.trailing_bytes"
    else:
        raise AssertionError("trailing bytes accepted")


def _check_strict(data: bytes) -> None:
    """Only EncodingError escapes; whatever is accepted is exactly canonical."""
    try:
        value = decode(data)
    except EncodingError as exc:
        assert exc.check_id.startswith("codec.")
        return
    assert ref_encode(value) == data
    assert encode(value) == data


@given(st.binary(max_size=64))
def test_arbitrary_bytes_raise_only_encoding_error(data: bytes) -> None:
    _check_strict(data)


@given(values, st.data())
def test_mutated_encodings_raise_only_encoding_error(value: Any, data: Any) -> None:
    encoded = bytearray(encode(value))
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(0, len(encoded)))
        action = data.draw(st.sampled_from(["set", "insert", "delete"]))
        byte = data.draw(st.integers(0, 255))
        if action == "insert":
            encoded.insert(pos, byte)
        elif pos < len(encoded):
            if action == "set":
                encoded[pos] = byte
            else:
                del encoded[pos]
    _check_strict(bytes(encoded))
