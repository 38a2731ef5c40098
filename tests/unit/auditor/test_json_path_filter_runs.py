"""A filter over an array of objects only reads its member in C (SPEC §17.8,
`hostile 64 filters`); it must find what the element loop finds: the same
element, the same ambiguity, the same absence, whatever the members' types."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from por.auditor.json_path import Ambiguous, Filter, lookup

_MEMBER = st.one_of(st.sampled_from(["T1", "T2", "t1", ""]), st.integers(0, 2),
                    st.booleans(), st.just(Decimal("1")), st.lists(st.just("T1"), max_size=1))
_OBJECT = st.dictionaries(st.sampled_from(["ticker", "open", "x"]), _MEMBER, max_size=3)
_ELEMENT = st.one_of(_OBJECT, _OBJECT, _OBJECT, st.just("T1"), st.integers(0, 2), st.just([]))


def _loop(node: list[Any], token: Filter) -> tuple[str, Any]:
    hits = [e for e in node if isinstance(e, dict) and isinstance(e.get(token.member), str)
            and e[token.member] == token.value]
    if len(hits) > 1:
        return "ambiguous", None
    return ("found", hits[0]) if hits else ("absent", None)


def _fast(node: list[Any], token: Filter) -> tuple[str, Any]:
    try:
        found, value = lookup(node, [token])
    except Ambiguous:
        return "ambiguous", None
    return ("found", value) if found else ("absent", None)


@settings(max_examples=400, derandomize=True)
@given(st.lists(_ELEMENT, max_size=8), st.sampled_from(["ticker", "open"]),
       st.sampled_from(["T1", "T2", "", "1"]))
def test_filter_finds_what_the_element_loop_finds(node: list[Any], member: str,
                                                  text: str) -> None:
    token = Filter(member, text)
    got, want = _fast(node, token), _loop(node, token)
    assert got == want
    if got[0] == "found":
        assert got[1] is want[1]


@pytest.mark.parametrize("node", [[{"t": "a"}, {"t": "b"}], [{"t": "a"}, "a", {"t": "b"}]])
def test_one_match_among_objects_and_others(node: list[Any]) -> None:
    assert lookup(node, [Filter("t", "b")]) == (True, {"t": "b"})
    assert lookup(node, [Filter("t", "c")]) == (False, None)
    with pytest.raises(Ambiguous):
        lookup([*node, {"t": "b"}], [Filter("t", "b")])


def test_filters_sharing_a_memo_find_what_each_finds_alone() -> None:
    rows = [{"t": f"T{i}", "v": str(i)} for i in range(50)] + [{"t": "T3", "v": "x"}]
    document = {"rows": rows, "other": [dict(r) for r in rows[:5]]}
    members: dict[Any, Any] = {}
    budget = [10_000]
    for member, text in [("t", "T7"), ("t", "T3"), ("v", "7"), ("t", "T9"), ("t", "none")]:
        for key in ("rows", "other"):
            tokens = [key, Filter(member, text)]
            try:
                alone: Any = lookup(document, tokens)
            except Ambiguous:
                alone = "ambiguous"
            try:
                shared: Any = lookup(document, tokens, budget, members)
            except Ambiguous:
                shared = "ambiguous"
            assert shared == alone
    assert budget == [10_000 - 5 * (51 + 5)]  # charged per filter, memo or not
