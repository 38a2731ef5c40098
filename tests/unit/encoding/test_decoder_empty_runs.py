"""Empty arrays and maps join a one-byte run, counted before any is made (SPEC §17.1).

The run must give exactly what the item-by-item loop gives (the reference here:
the same decoder with empty containers kept out of runs): the same values, a new
container for each ``80``/``a0``, and the same check id and message at the same
offset for every cap (containers, depth, spans) and every damaged input.
"""

from __future__ import annotations

from typing import Any

import cbor2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from por.encoding import decode, decoder
from por.errors import EncodingError

_LEAF = st.one_of(st.integers(-24, 23), st.just([]), st.just({}), st.just([]), st.just({}),
                  st.integers(-30, 300), st.text(max_size=2), st.booleans(), st.just(b""))
_VALUES = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=8), max_leaves=40)


def _outcome(data: bytes, **caps: Any) -> tuple[str, Any]:
    try:
        return "ok", decode(data, **caps)
    except EncodingError as exc:
        return exc.check_id, exc.message


def _reference(data: bytes, monkeypatch: pytest.MonkeyPatch, **caps: Any) -> tuple[str, Any]:
    with monkeypatch.context() as patch:
        patch.setattr(decoder, "_FLAT_RUN", decoder._TINY_RUN)
        patch.setattr(decoder, "_EMPTY", {})
        return _outcome(data, **caps)


@settings(max_examples=400, derandomize=True)
@given(_VALUES, st.integers(0, 12), st.integers(1, 6), st.integers(-1, 4), st.data())
def test_runs_with_empty_containers_match_the_item_loop(
        value: Any, containers: int, depth: int, slices_at: int, cut: st.DataObject) -> None:
    data = cbor2.dumps(value)
    inputs = [data, data[:cut.draw(st.integers(1, len(data)))]]
    caps = {"max_containers": containers, "max_depth": depth, "slices_at": slices_at}
    with pytest.MonkeyPatch.context() as monkeypatch:
        for blob in inputs:
            for kw in ({}, caps):
                got, want = _outcome(blob, **kw), _reference(blob, monkeypatch, **kw)
                assert got == want
                assert repr(got) == repr(want)  # Spans and types alike, not only ==


def test_each_empty_container_is_a_new_object() -> None:
    got = decode(bytes([0x84, 0xA0, 0xA0, 0x80, 0x80]))
    assert got == [{}, {}, [], []]
    assert len({id(v) for v in got}) == 4


def test_the_container_cap_refuses_a_run_at_the_container_past_it() -> None:
    # 1 + 5 containers: the sixth (offset 1 + 5) passes a cap of 5.
    data = bytes([0x86, 0xA0, 1, 0xA0, 0x80, 0xA0, 0xA0])
    with pytest.raises(EncodingError) as caught:
        decode(data, max_containers=5)
    assert caught.value.check_id == "codec.too_large"
    assert caught.value.message == "more than 5 containers at offset 6"
    assert decode(data, max_containers=6) == [{}, 1, {}, [], {}, {}]


def test_a_million_empty_maps_are_refused_before_one_is_made() -> None:
    data = b"\x9a\x00\x0f\x42\x40" + b"\xa0" * 1_000_000
    with pytest.raises(EncodingError) as caught:
        decode(data)
    assert caught.value.message == "more than 1000000 containers at offset 1000004"
