"""``decode(..., slices_at=d)``: byte strings in arrays at depth ``d`` come back as
slices into the input, after the same checks; nothing else changes."""

from __future__ import annotations

import pytest

from por.encoding import decode, encode
from por.errors import EncodingError

VALUE = {"a": [b"one", b"", b"x" * 300], "b": b"top", "c": {"h": b"in-map"},
         "d": [[b"deeper"]], "e": [1, "t", b"z"]}


def test_slices_only_for_array_items_at_the_depth() -> None:
    data = encode(VALUE)
    plain = decode(data)
    sliced = decode(data, slices_at=2)
    for key in ("a", "e"):
        for got, want in zip(sliced[key], plain[key], strict=True):
            if isinstance(want, bytes):
                assert isinstance(got, slice)
                assert data[got] == want
            else:
                assert got == want
    assert sliced["b"] == b"top"  # depth 1: a copy
    assert sliced["c"] == {"h": b"in-map"}  # a map at depth 2: copies
    assert sliced["d"] == [[b"deeper"]]  # depth 3: copies


@pytest.mark.parametrize("cut", [1, 5, 12])
def test_same_errors(cut: int) -> None:
    data = encode(VALUE)[:-cut]
    with pytest.raises(EncodingError) as plain:
        decode(data)
    with pytest.raises(EncodingError) as sliced:
        decode(data, slices_at=2)
    assert sliced.value.check_id == plain.value.check_id


def test_map_values_at_the_depth() -> None:
    data = encode(VALUE)
    sliced = decode(data, map_slices_at=1)
    assert isinstance(sliced["b"], slice) and data[sliced["b"]] == b"top"
    assert sliced["a"] == [b"one", b"", b"x" * 300]  # array items: copies
    assert sliced["c"] == {"h": b"in-map"}  # a map at depth 2: copies
    both = decode(data, slices_at=2, map_slices_at=2)
    assert isinstance(both["c"]["h"], slice) and data[both["c"]["h"]] == b"in-map"
    assert both["b"] == b"top"
