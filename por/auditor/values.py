"""Exact value parsing and comparison for the auditor (SPEC §3.2, §12.1).

Numbers are canonical decimal strings; sums and differences run in
:data:`por.numbers.EXACT_CONTEXT`, whose precision makes every sum or
difference of two accepted decimals exact (SPEC §3.2):

* :func:`within_tolerance` -- two values agree iff their exact distance is at
  most the tolerance.
* :func:`tolerance_bounds` -- the exact interval ``[c - tol, c + tol]``.

Accepted spellings (evidence is hostile, so every rule is bounded):

* JSON numbers: ``int`` (at most :data:`MAX_JSON_INT_CHARS` characters; longer
  integers become :class:`LongNumber`, which no field kind accepts, so the
  outcome never depends on ``sys.int_max_str_digits``) and ``Decimal`` from
  ``parse_float`` (an exponent is fine: ``1.5e3`` is ``"1500"``) whose
  canonical form fits :data:`por.numbers.MAX_DECIMAL_LENGTH`.
* Numeric *strings* (JSON strings and regex captures): ``-?[0-9]+(.[0-9]+)?``
  only, at most ``MAX_DECIMAL_LENGTH`` characters, normalised with
  :func:`por.numbers.format_decimal` (``"007.50"`` is ``"7.5"``, ``"-0"`` is
  ``"0"``).  Exponents, ``+``, whitespace, ``NaN``/``Infinity`` and thousands
  separators are refused.
* Timestamps: non-negative integers up to ``2**63 - 1`` (JSON ints, or
  ``[0-9]{1,19}`` in text).
* Booleans in text: ``true``/``yes`` and ``false``/``no``, ASCII
  case-insensitive.  JSON booleans are ``true``/``false`` only.

Leaves out: JSON parsing itself and field lookup (``claim_extraction``).
"""

from __future__ import annotations

import re
from decimal import Decimal

from por import predicates
from por.errors import SchemaError
from por.numbers import EXACT_CONTEXT, MAX_DECIMAL_LENGTH, format_decimal, parse_decimal

#: Longest JSON integer literal kept as an ``int``.
MAX_JSON_INT_CHARS = 40
#: Largest Unix time (the ``UnixTime`` field type).
MAX_UNIX_TIME = 2**63 - 1

_DECIMAL_TEXT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_TIMESTAMP_TEXT = re.compile(r"[0-9]{1,19}")
_TRUE_WORDS = ("true", "yes")
_FALSE_WORDS = ("false", "no")


class LongNumber:
    """A JSON integer literal too long to keep; no field kind accepts it."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def json_int(text: str) -> int | LongNumber:
    """``parse_int`` hook for ``json.loads``: bounded, independent of int digit limits."""
    if len(text) > MAX_JSON_INT_CHARS:
        return LongNumber(text)
    return int(text)


def decimal_from_text(text: str) -> str | None:
    """Canonical decimal string of a plain numeric string, else ``None``."""
    if len(text) > MAX_DECIMAL_LENGTH or _DECIMAL_TEXT.fullmatch(text) is None:
        return None
    try:
        return format_decimal(Decimal(text))
    except SchemaError:
        return None


def decimal_from_json(value: object) -> str | None:
    """Canonical decimal string of a JSON value for a ``numeric`` field, else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        text = str(value)
        return text if len(text) <= MAX_DECIMAL_LENGTH else None
    if isinstance(value, Decimal):
        if not value.is_finite():
            return None
        _, digits, exponent = value.as_tuple()
        # Guard before formatting: "1e999999999" would otherwise expand to a
        # billion zeros.  Anything past this bound is longer than the
        # canonical maximum anyway.
        if not isinstance(exponent, int) or len(digits) + abs(exponent) > 2 * MAX_DECIMAL_LENGTH:
            return None
        try:
            return format_decimal(value)
        except SchemaError:
            return None
    if isinstance(value, str):
        return decimal_from_text(value)
    return None


def timestamp_from_json(value: object) -> int | None:
    """Unix seconds from a JSON integer, else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value <= MAX_UNIX_TIME else None


def timestamp_from_text(text: str) -> int | None:
    """Unix seconds from ``[0-9]{1,19}`` text, else ``None``."""
    if _TIMESTAMP_TEXT.fullmatch(text) is None:
        return None
    value = int(text)
    return value if value <= MAX_UNIX_TIME else None


def boolean_from_text(text: str) -> bool | None:
    """``true``/``yes`` or ``false``/``no`` (ASCII, any case), else ``None``."""
    if not text.isascii():
        return None
    word = text.lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    return None


def is_unicode_text(text: str) -> bool:
    """True iff ``text`` has a UTF-8 form (no lone surrogates from JSON escapes)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def within_tolerance(a: Decimal, b: Decimal, tolerance: Decimal) -> bool:
    """``|a - b| <= tolerance``, exactly."""
    return EXACT_CONTEXT.abs(EXACT_CONTEXT.subtract(a, b)) <= tolerance


def tolerance_bounds(center: Decimal, tolerance: Decimal) -> tuple[Decimal, Decimal]:
    """``(center - tolerance, center + tolerance)``, exactly."""
    return EXACT_CONTEXT.subtract(center, tolerance), EXACT_CONTEXT.add(center, tolerance)


def compare(value: Decimal, comparison: str, threshold: Decimal) -> bool:
    """``value <comparison> threshold`` compared exactly (:func:`por.predicates.compare`)."""
    return predicates.compare(value, comparison, threshold)


__all__ = [
    "MAX_JSON_INT_CHARS",
    "MAX_UNIX_TIME",
    "LongNumber",
    "boolean_from_text",
    "compare",
    "decimal_from_json",
    "decimal_from_text",
    "is_unicode_text",
    "json_int",
    "parse_decimal",
    "timestamp_from_json",
    "timestamp_from_text",
    "tolerance_bounds",
    "within_tolerance",
]
