"""Dense JSON (many objects per byte) is parsed in C and its names' uniqueness
checked by counting (issue 22); it must decide exactly what the per-object
checking hook decides, and give the same value and the same message.

The texts are generated from objects written as member lists, so a repeated name
is spelled as such; strings hold colons, brackets, ``{}``, ``[]`` and escapes
(``\\u003a`` is a colon) to mislead a count that does not skip them.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from por.jsontext import JsonTextError, _decoder, _strict_decimal, loads_strict

NAMES = st.sampled_from(["a", "b", ":", "{}", "[]", "a:b", "\\u003a"])
STRINGS = st.sampled_from(["", "x", ":", "{}", "[]", "{:}", '"', "\\", "[{:}]"])


def _text(value: Any) -> str:
    if isinstance(value, tuple):  # an object as its members, repeats allowed
        return "{" + ",".join(f"{_name(k)}:{_text(v)}" for k, v in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_text(v) for v in value) + "]"
    return json.dumps(value)


def _name(key: str) -> str:
    return f'"{key}"' if key == "\\u003a" else json.dumps(key)


VALUES = st.recursive(
    st.one_of(st.integers(-3, 3), STRINGS, st.none()),
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.lists(st.tuples(NAMES, inner), max_size=4).map(tuple)),
    max_leaves=30)


def _reference(text: str) -> tuple[bool, Any]:
    try:
        return True, _decoder(_strict_decimal, None).decode(text)
    except JsonTextError as exc:
        return False, str(exc)


@settings(max_examples=500)
@given(VALUES)
def test_dense_text_decides_as_the_checking_hook(value: Any) -> None:
    text = _text(value)
    accepted, expected = _reference(text)
    try:
        got = loads_strict(text)
    except JsonTextError as exc:
        assert not accepted, text
        assert str(exc) == expected, text  # the same message, as before
    else:
        assert accepted and got == expected, text
    try:
        loads_strict(text, exact_error=False)
    except JsonTextError:
        assert not accepted, text
    else:
        assert accepted, text


def test_repeated_name_among_many_empty_objects_is_refused() -> None:
    text = "[" + "{}," * 1000 + '{"a":1,"a":2}]'
    for exact in (True, False):
        try:
            loads_strict(text, exact_error=exact)
        except JsonTextError as exc:
            assert "duplicate object key" in str(exc)
        else:
            raise AssertionError("a repeated name was accepted")
    assert loads_strict("[" + "{}," * 1000 + '{"a":1,"b":":"}]')[-1] == {"a": 1, "b": ":"}
