"""The replay fast paths equal the slow forms they stand in for (issue 16).

``ReasoningStep._cbor_value`` must equal ``to_dict()`` and the encoder must
give the bytes cbor2's ``canonical=True`` mode gives, on every step of every
fixture bundle and on generated values with keys of every length class.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cbor2
import pytest
from hypothesis import given
from hypothesis import strategies as st

from por.encoding import decode, encode
from por.schemas import EvidenceItem, ReasoningStep

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "bundles" / "valid"


def test_step_fast_value_equals_to_dict() -> None:
    seen = 0
    for path in sorted(FIXTURES.glob("*.cbor")):
        for blob in decode(path.read_bytes())["steps"]:
            step = ReasoningStep.from_cbor(blob)
            assert step._cbor_value() == step.to_dict()
            fresh = step.model_copy()  # no cached bytes: encoded from the fields
            assert fresh.to_cbor() == blob
            seen += 1
    assert seen > 50


def test_evidence_item_fast_value_equals_to_dict() -> None:
    seen = 0
    for path in sorted(FIXTURES.glob("*.cbor")):
        for blob in decode(path.read_bytes())["evidence"]:
            item = EvidenceItem.from_cbor(blob)
            assert item._cbor_value() == item.to_dict()
            assert item.model_copy().to_cbor() == blob
            seen += 1
    assert seen > 15


_keys = st.text(min_size=0, max_size=30)  # crosses the 1-byte/2-byte head boundary
_scalars = st.one_of(st.integers(-(1 << 64), (1 << 64) - 1), st.booleans(),
                     st.binary(max_size=8), st.text(max_size=30))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(_keys, inner, max_size=6)), max_leaves=30)


@given(_values)
def test_encoder_matches_cbor2_canonical(value: Any) -> None:
    data = encode(value)
    assert data == cbor2.dumps(value, canonical=True)
    assert decode(data) == value


def test_extract_memo_is_keyed_and_not_copied() -> None:
    from por.auditor.step_io import read_extract
    from por.schemas import EvidenceItem

    bundle = decode((FIXTURES / "08-quorum-agree.cbor").read_bytes())
    item = EvidenceItem.from_cbor(bundle["evidence"][0])
    step = ReasoningStep.from_cbor(bundle["steps"][0])
    first = read_extract(step, item)
    assert read_extract(step, item) is first  # memoised
    other = item.model_copy(update={"confidence_bps": item.confidence_bps // 2})
    again = read_extract(step, other)  # another key: parsed afresh
    assert again is not first
    assert [c.confidence_bps for c in again] == [other.confidence_bps] * len(first)
    assert step.model_copy().__pydantic_private__ == {"_cbor": None, "_claims": None}


def _required_throughout(model: Any, top: bool) -> bool:
    from pydantic import BaseModel

    for name, info in model.model_fields.items():
        if top and name == "record_schema":
            continue  # from_dict checks ``schema`` before validation
        if not info.is_required():
            return False
        for arg in [info.annotation, *getattr(info.annotation, "__args__", ())]:
            if isinstance(arg, type) and issubclass(arg, BaseModel) and \
                    not _required_throughout(arg, False):
                return False
    return True


def test_all_required_flag_is_true_only_where_it_holds() -> None:
    import por.bundle.layout
    import por.bundle.manifest
    import por.schemas
    from por.schemas.base import Record

    records = {obj for mod in (por.schemas, por.bundle.layout, por.bundle.manifest)
               for obj in vars(mod).values()
               if isinstance(obj, type) and issubclass(obj, Record) and obj is not Record}
    flagged = {cls.__name__ for cls in records if cls.ALL_REQUIRED}
    assert flagged == {"EvidenceItem"}
    for cls in records:
        if cls.ALL_REQUIRED:
            assert _required_throughout(cls, True), cls.__name__
    assert not _required_throughout(por.schemas.PromptSpec, True)  # the helper can say no


def test_key_order_cache_stays_bounded() -> None:
    import por.encoding.encoder as enc

    before = len(enc._ORDERS)
    wide = {f"k{i}": i for i in range(100)}  # more keys than an entry may hold
    long = {"x" * 2000: 1, "a": 2}  # more characters than an entry may hold
    for value in (wide, long):
        assert encode(value) == cbor2.dumps(value, canonical=True)
    assert len(enc._ORDERS) == before
    assert len(enc._ORDERS) <= enc._ORDERS_MAX


def test_encoder_copies_only_what_is_out_of_order() -> None:
    from por.encoding.encoder import _ordered

    canonical = {"b": [{"k": 1, "kk": [b"x"]}], "aa": {"z": True}}
    assert _ordered(canonical, 0) is canonical  # already in RFC 8949 §4.2.1 order
    nested = {"b": [{"kk": 1, "k": 2}], "aa": 0}  # one inner map out of order
    rebuilt = _ordered(nested, 0)
    assert rebuilt is not nested
    assert list(rebuilt["b"][0]) == ["k", "kk"]
    assert encode(nested) == encode(rebuilt) == cbor2.dumps(nested, canonical=True)


def test_fragments_encode_in_place() -> None:
    from por.encoding.encoder import Fragment
    from por.errors import EncodingError

    items = [{"reasons": [], "evidence_id": f"e{i}", "admitted": i % 2 == 0} for i in range(5)]
    step = {"output": {"items": items, "n": 5}, "schema": "x"}
    parts = {"output": {"items": [Fragment.of(i, depth=3) for i in items], "n": 5},
             "schema": "x"}
    assert encode(parts) == encode(step) == cbor2.dumps(step, canonical=True)
    deep: Any = []
    for _ in range(29):
        deep = [deep]
    Fragment.of(deep, depth=2)  # 2 + 30 containers: at the decoder's limit
    with pytest.raises(EncodingError) as info:
        Fragment.of(deep, depth=3)  # one more would be refused by a verifier
    assert info.value.check_id == "codec.depth"
