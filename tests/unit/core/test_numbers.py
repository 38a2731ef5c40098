"""Canonical decimal strings and integer confidence arithmetic (SPEC §3.2-3.3)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from por.errors import SchemaError
from por.numbers import (
    canonical_decimal_from_json_number,
    format_decimal,
    is_canonical_decimal,
    parse_decimal,
    scale_bps,
)


@pytest.mark.parametrize("text", ["0", "1", "-1", "101.5", "-0.25", "100", "0.001"])
def test_canonical_accepted(text: str) -> None:
    assert is_canonical_decimal(text)
    assert format_decimal(parse_decimal(text)) == text


@pytest.mark.parametrize("text", ["1e5", "01", "1.50", "-0", "+1", ".5", "1.", "0.0", "",
                                  " 1", "1 ", "NaN", "Infinity", "1" * 65,
                                  "\u0661"])  # ARABIC-INDIC DIGIT ONE is not an ASCII digit
def test_non_canonical_rejected(text: str) -> None:
    assert not is_canonical_decimal(text)
    with pytest.raises(SchemaError) as info:
        parse_decimal(text)
    assert info.value.check_id == "schema.decimal"


@pytest.mark.parametrize(("value", "text"), [
    ("1.50", "1.5"), ("1E+3", "1000"), ("-0.000", "0"), ("0.0012", "0.0012"),
    ("12.3400", "12.34"), ("-5", "-5"), ("100.00", "100"),
])
def test_format_normalises(value: str, text: str) -> None:
    assert format_decimal(Decimal(value)) == text


@pytest.mark.parametrize("value", ["1e999999999", "1e-999999999", "NaN", "Infinity"])
def test_format_rejects_huge_or_non_finite_without_expanding(value: str) -> None:
    with pytest.raises(SchemaError):
        format_decimal(Decimal(value))


def test_json_numbers() -> None:
    assert canonical_decimal_from_json_number(True) is None
    assert canonical_decimal_from_json_number(7) == "7"
    assert canonical_decimal_from_json_number(Decimal("101.250")) == "101.25"
    assert canonical_decimal_from_json_number(Decimal("1e999999999")) is None
    assert canonical_decimal_from_json_number("1") is None


@pytest.mark.parametrize(("c", "f", "want"), [
    (7000, 8000, 5600), (7000, 9000, 6300), (1, 5000, 1), (1, 4999, 0), (3, 5000, 2),
    (10_000, 10_000, 10_000), (0, 10_000, 0), (5555, 9000, 5000),
])
def test_scale_bps_half_up(c: int, f: int, want: int) -> None:
    assert scale_bps(c, f) == want


@given(st.decimals(allow_nan=False, allow_infinity=False, places=6,
                   min_value=Decimal("-1e12"), max_value=Decimal("1e12")))
def test_format_round_trip(value: Decimal) -> None:
    text = format_decimal(value)
    assert is_canonical_decimal(text)
    assert Decimal(text) == value


@given(st.decimals(allow_nan=False, allow_infinity=False, places=None)
       | st.builds(Decimal, st.from_regex(r"-?[0-9]{1,5}(\.[0-9]{0,5})?(E[-+]?[0-9]{1,2})?",
                                          fullmatch=True)))
def test_format_decimal_shortcut_is_the_full_formatting(value: Decimal) -> None:
    """``format_decimal`` returns ``str(value)`` when that is already canonical: the
    same string the digit-by-digit formatting gives (or the same refusal)."""
    from por.numbers import _formatted

    try:
        want: str | None = _formatted(value)
    except SchemaError:
        want = None
    try:
        got: str | None = format_decimal(value)
    except SchemaError:
        got = None
    assert got == want
