"""Tolerance distances and quorum bounds are exact (SPEC §3.2).

Before: a 50-digit context with ``Inexact`` trapped made an unrepresentable
distance count as a conflict, and an unrepresentable bound shrink the quorum
interval to one point.  Two canonical decimals of at most 64 characters always
have an exact sum and difference in ``EXACT_CONTEXT``.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from por.auditor.values import tolerance_bounds, within_tolerance
from por.numbers import MAX_DECIMAL_LENGTH, format_decimal, parse_decimal

LONG = Decimal("1999." + "1" * 48)  # 53 characters, 52 significant digits


def test_long_close_value_within_tolerance() -> None:
    assert len(format_decimal(LONG)) == 53
    assert within_tolerance(LONG, Decimal(0), Decimal(2000))
    assert within_tolerance(Decimal(0), LONG, Decimal(2000))
    assert not within_tolerance(LONG, Decimal(0), Decimal(1999))


def test_bounds_are_exact() -> None:
    low, high = tolerance_bounds(LONG, Decimal("0.5"))
    assert high - LONG == Decimal("0.5")
    assert format_decimal(low) == "1998.6" + "1" * 47
    assert format_decimal(high) == "1999.6" + "1" * 47


_digits = st.text("0123456789", min_size=1, max_size=30)


@st.composite
def decimals(draw: st.DrawFn) -> Decimal:
    sign = draw(st.sampled_from(["", "-"]))
    whole = draw(_digits).lstrip("0") or "0"
    frac = draw(st.one_of(st.just(""), _digits.map(lambda d: d.rstrip("0"))))
    text = sign + whole + ("." + frac if frac else "")
    text = text[:MAX_DECIMAL_LENGTH].rstrip(".")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", "-"):
        text = "0"
    return Decimal(parse_decimal(text))


@given(decimals(), decimals(), decimals().map(abs))
def test_distance_matches_exact_fraction_arithmetic(a: Decimal, b: Decimal,
                                                    tol: Decimal) -> None:
    from fractions import Fraction

    exact = abs(Fraction(a) - Fraction(b)) <= Fraction(tol)
    assert within_tolerance(a, b, tol) == exact
    low, high = tolerance_bounds(a, tol)
    assert (Fraction(low), Fraction(high)) == (Fraction(a) - Fraction(tol),
                                               Fraction(a) + Fraction(tol))
