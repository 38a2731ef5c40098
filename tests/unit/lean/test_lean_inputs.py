"""What lean records keep of their inputs (issue 16: memory per evidence item).

Shared values and interned records must change nothing but identity: each
check gives what the plain check gives (or refuses what it refuses), whatever
its cache holds, and the caches stay bounded.  Items read from a bundle's
spans keep two packed ints, and read back the same bytes as items read alone.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from por.encoding import decode
from por.lean.base import (
    Check,
    Reject,
    Struct,
    integer,
    interned,
    packed,
    shared_integer,
    shared_text,
    text,
    unpacked,
)
from por.lean.evidence import EvidenceItem, RetrievalReceipt, SourceRef
from por.scenarios import list_scenarios, load_scenario


def _cache(check: Check) -> dict[Any, Any]:
    """The cache a sharing check closes over."""
    cells = [c.cell_contents for c in check.__closure__ or () if type(c.cell_contents) is dict]
    assert len(cells) == 1
    return cells[0]


def _fields(value: Any) -> Any:
    """A record as its public attributes with their types, recursively."""
    if isinstance(value, Struct):
        return (type(value), tuple((a, _fields(getattr(value, a.removeprefix("_"))))
                                   for _, a, _, _ in value.FIELDS))
    return (type(value), value)


def _outcome(check: Check, value: Any) -> Any:
    try:
        return _fields(check(value))
    except Reject:
        return "reject"


SCALARS = st.one_of(st.sampled_from([True, False, 0, 1, 99, 100, 200, 599, 600, -1, 2**63,
                                     "", "GET", "POST", "x", "x" * 129, b"GET"]),
                    st.integers(0, 3), st.text(max_size=3))
RECEIPTS = st.fixed_dictionaries(
    {}, optional={"retrieved_at": SCALARS, "method": SCALARS, "status_code": SCALARS,
                  "extra": SCALARS})
SOURCES = st.fixed_dictionaries(
    {}, optional={"source_id": SCALARS, "uri": SCALARS, "provider": SCALARS})


@given(st.lists(st.one_of(RECEIPTS, SOURCES), min_size=1, max_size=40))
def test_interned_records_are_the_records_build_makes(values: list[dict[str, Any]]) -> None:
    """Whatever came before (True after 1, too long after short...), an interned
    record has exactly the attributes build gives, or is refused as build refuses."""
    checks = {cls: interned(cls, max_entries=4) for cls in (RetrievalReceipt, SourceRef)}
    for value in values:
        for cls, check in checks.items():
            assert _outcome(check, value) == _outcome(cls.build, value)
            assert len(_cache(check)) <= 4


@given(st.lists(SCALARS, min_size=1, max_size=40))
def test_shared_values_are_the_values_the_check_gives(values: list[Any]) -> None:
    pairs: list[tuple[Check, Check]] = [
        (shared_text(1, 3), text(1, 3)), (shared_text(), text()),
        (shared_integer(0, 599), integer(0, 599))]
    for value in values:
        for shared, plain in pairs:
            assert _outcome(shared, value) == _outcome(plain, value)


def test_equal_records_are_one_object() -> None:
    check = interned(SourceRef)
    a = check({"source_id": "s", "uri": "u", "provider": "p"})
    b = check({"provider": "p", "uri": "u", "source_id": "s"})
    c = check({"source_id": "s", "uri": "u", "provider": "q"})
    assert a is b and a is not c and c.provider == "q"
    receipts = interned(RetrievalReceipt)
    one = receipts({"retrieved_at": 1, "method": "GET", "status_code": 200})
    with pytest.raises(Reject):
        receipts({"retrieved_at": True, "method": "GET", "status_code": 200})
    assert receipts({"retrieved_at": 1, "method": "GET", "status_code": 200}) is one


def test_caches_are_bounded() -> None:
    sources = interned(SourceRef, max_entries=8)
    ids = shared_text(1, 128)
    numbers = shared_integer(0, 10_000)
    for i in range(1000):
        record = sources({"source_id": f"s{i}", "uri": "u", "provider": "p"})
        assert record.source_id == f"s{i}"
        assert ids(f"id-{i}") == f"id-{i}" and numbers(i) == i
    assert len(_cache(sources)) <= 8 and len(_cache(numbers)) <= 64
    assert len(_cache(ids)) <= 1 << 12


@pytest.mark.parametrize(("start", "stop"), [(0, 0), (0, 1), (5, 300), (2**28, 2**28 + 2**22)])
def test_packed_spans(start: int, stop: int) -> None:
    data = bytes(range(256)) * ((stop >> 8) + 1)
    span = packed(start, stop)
    assert unpacked(data, span) == data[start:stop]
    assert type(span) is int


@pytest.mark.parametrize(("start", "stop"), [(-1, 3), (5, 4), (0, 2**32)])
def test_bad_spans_are_refused(start: int, stop: int) -> None:
    with pytest.raises(Reject):
        packed(start, stop)


def test_items_read_from_spans_equal_items_read_alone() -> None:
    """An item read in place (record and body as packed spans of the bundle's
    bytes) gives back the bytes and attributes of the same item read alone."""
    from por.bundle import build

    seen = 0
    for name in list_scenarios():
        scenario = load_scenario(name)
        data = build(scenario.prompt_spec, scenario.evidence).data
        for span in decode(data, slices_at=2)["evidence"]:
            alone = data[span]
            inside = EvidenceItem.from_value(decode(alone, map_slices_at=1), data, span)
            plain = EvidenceItem.from_value(decode(alone), alone)
            assert type(inside._span) is int and type(inside._content) is int
            assert inside.to_cbor() == plain.to_cbor() == alone
            assert inside.content == plain.content
            assert _fields(inside) == _fields(plain)
            seen += 1
    assert seen > 15
