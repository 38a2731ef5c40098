"""Canonical decimal strings and integer confidence arithmetic (SPEC §3).

No float ever enters a committed record.  Decimal quantities (prices,
thresholds, tolerances) travel as *canonical decimal strings* and all arithmetic
on them uses :mod:`decimal` under one fixed context, :data:`DECIMAL_CONTEXT`.
Confidence is an integer number of basis points (0..10000); scaling by a factor
in basis points rounds half-up once per multiplication (SPEC §3.3).

This module does not parse JSON; callers parse JSON with ``parse_float=Decimal``.
"""

from __future__ import annotations

import decimal
import re
from decimal import Decimal

from por.errors import SchemaError

#: The one decimal context: 50 significant digits, half-even, traps on every
#: signal that would silently lose information.
DECIMAL_CONTEXT = decimal.Context(
    prec=50,
    rounding=decimal.ROUND_HALF_EVEN,
    Emin=-999_999,
    Emax=999_999,
    traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow, decimal.Inexact],
)

#: Longest accepted decimal string; bounds the cost of arithmetic on hostile input.
MAX_DECIMAL_LENGTH = 64

#: Context for sums and differences of two accepted decimals (SPEC §3.2): each
#: has at most MAX_DECIMAL_LENGTH characters and no exponent, so an exact result
#: has at most 2 * MAX_DECIMAL_LENGTH + 1 significant digits.  With this
#: precision every such result is exact; ``Inexact`` stays trapped as a guard.
EXACT_CONTEXT = DECIMAL_CONTEXT.copy()
EXACT_CONTEXT.prec = 2 * MAX_DECIMAL_LENGTH + 2

BPS_MAX = 10_000

_CANONICAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?")


def is_canonical_decimal(text: str) -> bool:
    """True iff ``text`` is a canonical decimal string (SPEC §3.2).

    No exponent, no leading zeros, no trailing fractional zeros, no ``+``, no
    ``-0``, at most :data:`MAX_DECIMAL_LENGTH` characters.
    """
    if len(text) > MAX_DECIMAL_LENGTH or _CANONICAL.fullmatch(text) is None:
        return False
    return text != "-0"


def spelt_as_kind(kind: str, text: str) -> bool:
    """True iff ``text`` spells a value of field kind ``kind`` as a claim commits it
    (a ``value_map`` entry's value, SPEC §12.1.5): ``true``/``false``, a canonical
    decimal, ``[0-9]{1,19}`` Unix seconds up to 2^63 - 1, or any text."""
    if kind == "boolean":
        return text in ("true", "false")
    if kind == "numeric":
        return is_canonical_decimal(text)
    if kind == "timestamp":
        return re.fullmatch("[0-9]{1,19}", text) is not None and int(text) < 2**63
    return True


def parse_decimal(text: str) -> Decimal:
    """Parse a canonical decimal string; raise ``SchemaError`` otherwise."""
    if not is_canonical_decimal(text):
        raise SchemaError("schema.decimal", f"not a canonical decimal string: {text[:80]!r}")
    return Decimal(text)


def format_decimal(value: Decimal) -> str:
    """The canonical decimal string of a finite ``Decimal`` (exact, no rounding)."""
    text = str(value)  # exact, and never expanded (large exponents stay as "1E+9")
    if is_canonical_decimal(text):
        return text  # a value has one canonical string: this is it
    return _formatted(value)


def _formatted(value: Decimal) -> str:
    if not value.is_finite():
        raise SchemaError("schema.decimal", f"not a finite decimal: {value}")
    if value.is_zero():
        return "0"
    sign, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int):  # unreachable: finite was checked above
        raise SchemaError("schema.decimal", f"not a finite decimal: {value}")
    # Bound the text before building it: Decimal("1e999999999") would expand
    # to a gigabyte of zeros.  Integer digits + fraction digits > cap -> reject.
    width = len(digits) + max(exponent, 0) + max(-exponent - len(digits), 0)
    if width > MAX_DECIMAL_LENGTH:
        raise SchemaError("schema.decimal", "decimal has more digits than the canonical cap")
    text = "".join(map(str, digits))
    if exponent >= 0:
        text = text + "0" * exponent
    else:
        point = len(text) + exponent
        text = "0." + "0" * -point + text if point <= 0 else text[:point] + "." + text[point:]
        text = text.rstrip("0").rstrip(".")
    text = text.lstrip("0") or "0"
    if text.startswith("."):
        text = "0" + text
    out = ("-" if sign else "") + text
    if not is_canonical_decimal(out):
        raise SchemaError("schema.decimal", f"decimal out of the canonical range: {value}")
    return out


def canonical_decimal_from_json_number(value: object) -> str | None:
    """Canonical string for a JSON number parsed with ``parse_float=Decimal``.

    ``int`` and finite ``Decimal`` are accepted; ``bool`` and everything else
    give ``None``.  Strings are not numbers here: callers decide whether a
    numeric string counts.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return format_decimal(Decimal(value))
    if isinstance(value, Decimal) and value.is_finite():
        try:
            return format_decimal(value)
        except SchemaError:
            return None
    return None


def scale_bps(value_bps: int, factor_bps: int) -> int:
    """``value_bps * factor_bps / 10000`` rounded half-up, in integers (SPEC §3.3)."""
    if value_bps < 0 or factor_bps < 0:
        raise ValueError("basis points are non-negative")
    return (value_bps * factor_bps + BPS_MAX // 2) // BPS_MAX


def clamp_bps(value: int) -> int:
    """Clamp an integer into 0..10000."""
    return max(0, min(BPS_MAX, value))


__all__ = [
    "BPS_MAX",
    "DECIMAL_CONTEXT",
    "EXACT_CONTEXT",
    "MAX_DECIMAL_LENGTH",
    "canonical_decimal_from_json_number",
    "clamp_bps",
    "format_decimal",
    "is_canonical_decimal",
    "parse_decimal",
    "scale_bps",
    "spelt_as_kind",
]
