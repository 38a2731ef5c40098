"""``shape._check_value`` walks a step value without copying its arrays (SPEC §17.8).

It must find the same first bad node as the whole-array stack it replaced, so the
message (which names the bad node's type) is unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from por.errors import SchemaError
from por.schemas.shape import _check_value


def _stack_walk(value: Any, where: str) -> None:
    """The walk before issue 16's second session: a stack that pushes whole arrays."""
    stack = [value]
    while stack:
        node = stack.pop()
        if type(node) not in (int, str, list, dict) and not isinstance(node, bool):
            raise SchemaError("schema.type", f"{where}: {type(node).__name__} is not a "
                                             "step value (int, bool, text, array, map)")
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            for key in node:
                if not isinstance(key, str):
                    raise SchemaError("schema.type", f"{where}: map key is not text")
            stack.extend(node.values())


def _outcome(walk: Any, value: Any) -> str | None:
    try:
        walk(value, "ReasoningStep.output")
    except SchemaError as exc:
        return str(exc)
    return None


_LEAF = st.one_of(st.integers(-3, 3), st.booleans(), st.text(max_size=2), st.just(b""),
                  st.floats(allow_nan=False), st.none())
_VALUE = st.recursive(_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=5),
    st.dictionaries(st.one_of(st.text(max_size=2), st.integers(0, 2)), inner, max_size=4)),
    max_leaves=30)


@settings(max_examples=600, derandomize=True)
@given(_VALUE)
def test_walk_finds_the_same_first_bad_node(value: Any) -> None:
    assert _outcome(_check_value, value) == _outcome(_stack_walk, value)


def test_walk_reports_each_kind() -> None:
    with pytest.raises(SchemaError, match="bytes is not a step value"):
        _check_value({"a": [1, [2, b""]]}, "x")
    with pytest.raises(SchemaError, match="map key is not text"):
        _check_value([{1: 2}], "x")
    _check_value({"a": [1, True, "t", {"b": []}]}, "x")
