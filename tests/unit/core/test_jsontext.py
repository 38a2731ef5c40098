"""The one strict JSON loader (por.jsontext) and its users."""

from __future__ import annotations

import sys
from decimal import Decimal

import pytest

from por.errors import KeyFileError
from por.jsontext import MAX_JSON_DEPTH, JsonTextError, json_nesting_exceeds, loads_strict
from por.signing.keys import private_key_from_json


@pytest.mark.parametrize(("text", "message"), [
    ('{"a": 1, "a": 2}', "duplicate object key 'a'"),
    ('{"a": NaN}', "JSON constant NaN is not allowed"),
    ('[-Infinity]', "JSON constant -Infinity is not allowed"),
    ('{"a": 1', "not valid JSON"),
    ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "JSON nested deeper than 64"),
])
def test_refused(text: str, message: str) -> None:
    with pytest.raises(JsonTextError) as info:
        loads_strict(text)
    assert str(info.value).startswith(message)


def test_fractions_are_decimals_and_depth_limit_is_inclusive() -> None:
    assert loads_strict('{"p": 101.25}') == {"p": Decimal("101.25")}
    deep = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert loads_strict(deep) is not None


def test_brackets_inside_strings_do_not_count() -> None:
    assert not json_nesting_exceeds('["' + "[" * 500 + '"]')
    assert json_nesting_exceeds("[" * 65 + "]" * 65)
    assert not json_nesting_exceeds('["\\"' + "[" * 500 + '"]')


def test_deep_key_file_is_a_format_error_even_with_a_raised_recursion_limit() -> None:
    """Key files went straight to json.loads: with py_ecc's raised recursion limit a
    deeply nested file would have overflowed the C stack."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)
    try:
        with pytest.raises(KeyFileError) as info:
            private_key_from_json(b"[" * 2000 + b"]" * 2000)
    finally:
        sys.setrecursionlimit(old)
    assert info.value.check_id == "key.format"
