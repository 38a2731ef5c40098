"""``Spans``: the arrays ``decode(..., slices_at=d)`` returns in place of lists of
slices (issue 16).  A ``Spans`` must read exactly as the list of ``slice`` objects
the decoder used to return (checked against a reference that computes every
offset from the reference encoder), give back the plain decode with
``materialise``, fail like the plain decoder, and hold no object per leaf."""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest
from codec_helpers import generator, ref_encode, typed, values
from hypothesis import given
from hypothesis import strategies as st

from por.encoding import decode, encode
from por.encoding.spans import Spans
from por.errors import EncodingError


def _reference(value: Any, depth: int, at: int, offset: int, in_array: bool) -> tuple[Any, int]:
    """The old ``slices_at=at`` result for ``value`` encoded at ``offset`` (depth
    ``depth``): lists, with each byte string that is an array item at depth
    ``at`` as ``slice(start, stop)`` of the encoding; and the offset after it."""
    end = offset + len(ref_encode(value))
    if type(value) is bytes and in_array and depth == at:
        return slice(end - len(value), end), end
    if type(value) is list:
        pos = offset + len(generator().ref_head(4, len(value), None))
        items = []
        for item in value:
            got, pos = _reference(item, depth + 1, at, pos, True)
            items.append(got)
        return items, end
    if type(value) is dict:
        pos = offset + len(generator().ref_head(5, len(value), None))
        out = {}
        for key in sorted(value, key=ref_encode):
            pos += len(ref_encode(key))
            out[key], pos = _reference(value[key], depth + 1, at, pos, False)
        return out, end
    return value, end


def _lists(value: Any, at: int, depth: int = 0) -> Any:
    """``value`` with each ``Spans`` read as a list (through len, [i] and iteration,
    which must agree); a ``Spans`` exactly for the arrays whose items are at ``at``."""
    if isinstance(value, Spans | list):
        assert (type(value) is Spans) == (depth + 1 == at), (depth, at, value)
        items = list(value)
        assert [value[i] for i in range(len(value))] == items
        assert [value[i - len(value)] for i in range(len(value))] == items
        return [_lists(v, at, depth + 1) for v in items]
    if isinstance(value, dict):
        return {k: _lists(v, at, depth + 1) for k, v in value.items()}
    return value


@given(values, st.sampled_from([1, 2, 3]))
def test_spans_read_as_the_list_of_slices_they_replace(value: Any, at: int) -> None:
    data = encode(value)
    got = decode(data, slices_at=at)
    want, _ = _reference(value, 0, at, 0, False)
    assert typed(_lists(got, at)) == typed(want)


@given(values)
def test_materialise_gives_the_plain_decode(value: Any) -> None:
    from verifier.fast import _materialised

    data = encode(value)
    plain = _materialised(data, decode(data, slices_at=2))
    assert typed(plain) == typed(decode(data))
    assert encode(plain) == data


def _outcome(data: bytes, **options: Any) -> Any:
    try:
        value = decode(data, **options)
    except EncodingError as exc:
        return ("error", exc.check_id, str(exc))
    from verifier.fast import _materialised

    return ("ok", typed(_materialised(data, value)))


@given(values, st.data())
def test_damaged_input_fails_alike(value: Any, data: st.DataObject) -> None:
    raw = bytearray(encode({"a": value, "b": [value, b"leaf"]}))
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(raw) - 1))
        raw[index] = data.draw(st.integers(0, 255))
    cut = bytes(raw[: data.draw(st.integers(1, len(raw)))])
    for damaged in (bytes(raw), cut):
        for cap in (None, 7):
            assert _outcome(damaged, slices_at=2, max_items=cap) == _outcome(
                damaged, max_items=cap)


@pytest.mark.parametrize("value", [
    {"e": []}, {"e": [b""]}, {"e": [b"a", 1]}, {"e": [1, b"a"]}, {"e": [[b"x"], b"y"]},
    {"e": [b"y", {"k": b"x"}]}, [[b"a"], [], 5], {"a": [b"a"], "b": [b"b"], "c": 1},
    {"e": [b"a" * 300, b"b" * 70000]}])
def test_hostile_mixes(value: Any) -> None:
    from verifier.fast import _materialised

    data = encode(value)
    got = decode(data, slices_at=2)
    assert _materialised(data, got) == value
    pairs = (zip(got.values(), value.values(), strict=True) if isinstance(got, dict)
             else zip(got, value, strict=True))
    for child, plain in pairs:
        assert (type(child) is Spans) == (type(plain) is list)
        if type(child) is Spans:
            assert child.bytes_only == all(type(v) is bytes for v in plain)
            assert child.materialise(data) == plain


def test_exact_offsets_and_equality() -> None:
    data = encode({"a": [b"one", b"", b"xy"]})  # a1 61 61 83 43 'one' 40 42 'xy'
    spans = decode(data, slices_at=2)["a"]
    assert spans == [slice(5, 8), slice(9, 9), slice(10, 12)]
    assert [slice(5, 8), slice(9, 9), slice(10, 12)] == spans
    assert spans != [slice(5, 8)] and spans != (slice(5, 8), slice(9, 9), slice(10, 12))
    assert spans == decode(data, slices_at=2)["a"]
    assert spans[-1] == slice(10, 12) and len(spans) == 3
    assert spans.longest() == 3 and decode(encode({"a": []}), slices_at=2)["a"].longest() == 0
    assert [list(b) for b in spans.bounds()] == [[5, 9, 10], [8, 9, 12]]
    with pytest.raises(IndexError):
        spans[3]
    with pytest.raises(TypeError):
        hash(spans)
    assert repr(spans).startswith("Spans([slice(5, 8")


@pytest.mark.parametrize("head", [b"\x9a\xff\xff\xff\xff", b"\x9b" + b"\xff" * 8])
def test_a_huge_count_fails_before_allocating(head: bytes) -> None:
    data = b"\xa1\x61e" + head + b"\x41x"
    with pytest.raises(EncodingError) as sliced:
        decode(data, slices_at=2)
    with pytest.raises(EncodingError) as plain:
        decode(data)
    assert (sliced.value.check_id, str(sliced.value)) == (
        "codec.truncated", str(plain.value))


def test_a_leaf_costs_no_object() -> None:
    """Fails if leaves regress to ``slice`` objects (about 120 bytes each with
    their ints): 20 000 leaves must cost at most ~20 bytes each."""
    leaves = [b"x" * 200] * 20_000
    data = encode({"evidence": leaves, "steps": leaves})
    tracemalloc.start()
    try:
        got = decode(data, slices_at=2)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert type(got["evidence"]) is Spans and got["evidence"].bytes_only
    assert got["evidence"].materialise(data) == leaves
    assert held / 40_000 < 20 and peak / 40_000 < 25
