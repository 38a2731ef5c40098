"""Arrays opening with items of one byte each are read in one step (SPEC §17.8).

The shortcut must give exactly what the item-by-item loop gives: the same values,
the same caps, the same check id at the same offset for every damaged input.
"""

from __future__ import annotations

from typing import Any

import cbor2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from por.encoding import decode
from por.errors import EncodingError

_LEAF = st.one_of(st.integers(-24, 23), st.integers(-24, 23), st.integers(-30, 300),
                  st.text(max_size=2), st.booleans(), st.just(b""), st.binary(max_size=2))
_VALUES = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=8), max_leaves=40)


@settings(max_examples=500, derandomize=True)
@given(_VALUES)
def test_tiny_runs_decode_as_cbor2_reads_them(value: Any) -> None:
    data = cbor2.dumps(value)
    assert decode(data) == value


@settings(max_examples=300, derandomize=True)
@given(st.lists(st.integers(0, 23), min_size=1, max_size=40), st.data())
def test_a_cut_tiny_array_is_truncated(items: list[int], data: st.DataObject) -> None:
    encoded = cbor2.dumps([items, 1])
    cut = data.draw(st.integers(1, len(encoded) - 1))
    with pytest.raises(EncodingError) as caught:
        decode(encoded[:cut])
    assert caught.value.check_id == "codec.truncated"


def test_the_item_cap_counts_a_tiny_run() -> None:
    data = cbor2.dumps([[1] * 50, [2] * 50])
    assert decode(data, max_items=102) == [[1] * 50, [2] * 50]
    with pytest.raises(EncodingError) as caught:
        decode(data, max_items=101)
    assert caught.value.check_id == "codec.too_large"


def test_a_run_stops_at_the_first_other_item() -> None:
    assert decode(bytes([0x85, 1, 2, 0x18, 24, 3, 0x61, 0x61])) == [1, 2, 24, 3, "a"]
    got = decode(bytes([0x87, 0x37, 0x40, 0x60, 0xF4, 0xF5, 0x80, 0x20]))
    assert got == [-24, b"", "", False, True, [], -1]
    assert [type(v) for v in got[:5]] == [int, bytes, str, bool, bool]
    with pytest.raises(EncodingError) as caught:  # the container cap still counts [] after a run
        decode(bytes([0x83, 1, 0x80, 0x80]), max_containers=2)
    assert caught.value.check_id == "codec.too_large"
    with pytest.raises(EncodingError) as caught:  # 0x18 0x05: non-shortest 5 after a run
        decode(bytes([0x83, 1, 0x18, 5, 2]))
    assert caught.value.check_id == "codec.non_canonical"
    with pytest.raises(EncodingError) as caught:  # a float after a run
        decode(bytes([0x82, 1, 0xF9, 0, 0]))
    assert caught.value.check_id == "codec.float"
