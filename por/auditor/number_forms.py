"""Numbers as sources print them, read by a declared ``NumberFormat`` (SPEC §12.1.5).

No locale and no float: the format says which separator, decimal mark, percent
reading, scale suffixes, currency text, accounting negatives and fractions a
source uses, and :func:`parse_number` reads exactly that grammar into the
canonical decimal string of SPEC §3.2, computed exactly with :mod:`decimal`.
A text outside the grammar is refused with a stable reason code
(``number.*``, :data:`NUMBER_REASONS`); the code is for reports, the committed
warning stays ``extract.field_kind``.

Leaves out: value maps and datetimes (:mod:`por.auditor.value_forms`).
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal
from typing import Any

from por.errors import SchemaError
from por.numbers import EXACT_CONTEXT, format_decimal

#: Longest text a declared number format reads (longer: ``number.too_long``).
MAX_NUMBER_TEXT = 128
#: The three signs (SPEC §12.1.5): U+002D hyphen-minus, U+2212 minus, U+002B plus.
SIGNS = {"-": True, "\u2212": True, "+": False}
#: Scale suffixes and their powers of ten (exact decimal scaling).
SCALES = {"K": 3, "k": 3, "M": 6, "B": 9}

NUMBER_REASONS = {
    "number.too_long": f"longer than {MAX_NUMBER_TEXT} characters",
    "number.syntax": "not a number in the declared format",
    "number.percent_undeclared": "'%' but the format declares no percent reading",
    "number.fraction_zero": "a fraction with denominator 0",
    "number.fraction_not_finite": "a fraction with no finite decimal expansion",
    "number.fraction_improper": "a mixed fraction whose numerator is not below its denominator",
    "number.out_of_range": "the exact value has more than 64 characters",
}

_MIXED = re.compile(r"([0-9]{1,18})[- ]([0-9]{1,18})/([0-9]{1,18})")
_FRACTION = re.compile(r"([0-9]{1,18})/([0-9]{1,18})")


class NumberRefused(ValueError):
    """A text the declared format does not read; ``code`` is a ``number.*`` reason."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def accepted_forms(fmt: Any) -> str:
    """One line naming what ``fmt`` accepts (for reports, never committed)."""
    sep = getattr(fmt, "group_separator", None)
    mark = getattr(fmt, "decimal_mark", None) or "."
    parts = [f"digits grouped by {sep!r} in threes" if sep else "digits",
             f"decimal mark {mark!r}", "sign - or \u2212 or +"]
    if getattr(fmt, "percent", None):
        parts.append(f"'%' read as {fmt.percent}")
    if getattr(fmt, "scale_suffixes", None):
        parts.append("suffix K/k, M, B")
    if getattr(fmt, "currency", None):
        parts.append(f"currency {fmt.currency!r} before or after")
    if getattr(fmt, "accounting_negative", None):
        parts.append("(n) for -n")
    if getattr(fmt, "fractions", None):
        parts.append("fractions 1/2, 3-1/2, 3 1/2")
    return ", ".join(parts)


@functools.lru_cache(maxsize=64)
def _magnitude_pattern(sep: str | None, decimal_mark: str | None) -> re.Pattern[str]:
    mark = re.escape(decimal_mark or ".")
    whole = "[0-9]+" if sep is None else f"[0-9]{{1,3}}(?:{re.escape(sep)}[0-9]{{3}})+|[0-9]+"
    return re.compile(f"(?P<whole>{whole})(?:{mark}(?P<frac>[0-9]+))?")


def _fraction(numerator: int, denominator: int) -> Decimal:
    if denominator == 0:
        raise NumberRefused("number.fraction_zero")
    twos = fives = 0
    rest = denominator
    while rest % 2 == 0:
        rest //= 2
        twos += 1
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    if rest != 1:
        raise NumberRefused("number.fraction_not_finite")
    places = max(twos, fives)
    return Decimal(numerator * 10**places // denominator).scaleb(-places, EXACT_CONTEXT)


def _strip_sign(text: str) -> tuple[bool | None, str]:
    if text[:1] in SIGNS:
        return SIGNS[text[:1]], text[1:]
    return None, text


def parse_number(text: str, fmt: Any) -> str:
    """The canonical decimal string of ``text`` read by ``fmt``; else :class:`NumberRefused`.

    Order (SPEC §12.1.5): trim U+0020; ``(..)`` if accounting negatives; one
    sign; the currency text (then one optional space) and a sign after it if
    none came before; from the end: the currency text (after an optional
    space), ``%``, one scale suffix; then the magnitude."""
    if len(text) > MAX_NUMBER_TEXT:
        raise NumberRefused("number.too_long")
    body = text.strip(" ")
    negative = False
    if getattr(fmt, "accounting_negative", None) and body[:1] == "(" and body[-1:] == ")":
        body, negative = body[1:-1], True
    sign, body = _strip_sign(body)
    currency = getattr(fmt, "currency", None)
    if currency and body.startswith(currency):
        body = body[len(currency):]
        body = body[1:] if body[:1] == " " else body
        if sign is None:
            sign, body = _strip_sign(body)
    elif currency and body.endswith(currency):
        body = body[:-len(currency)]
        body = body[:-1] if body[-1:] == " " else body
    if negative and sign is not None:
        raise NumberRefused("number.syntax")
    negative = negative or bool(sign)
    power = 0
    if body.endswith("%"):
        reading = getattr(fmt, "percent", None)
        if reading is None:
            raise NumberRefused("number.percent_undeclared")
        body, power = body[:-1], (-2 if reading == "fraction" else 0)
    if getattr(fmt, "scale_suffixes", None) and body[-1:] in SCALES:
        power += SCALES[body[-1]]
        body = body[:-1]
    value = _magnitude(body, fmt)
    value = value.scaleb(power, EXACT_CONTEXT)
    try:
        return format_decimal(EXACT_CONTEXT.minus(value) if negative else value)
    except SchemaError:
        raise NumberRefused("number.out_of_range") from None


def _magnitude(body: str, fmt: Any) -> Decimal:
    if getattr(fmt, "fractions", None):
        mixed = _MIXED.fullmatch(body)
        if mixed is not None:
            whole, num, den = (int(g) for g in mixed.groups())
            if num >= den:
                raise NumberRefused("number.fraction_improper")
            return EXACT_CONTEXT.add(Decimal(whole), _fraction(num, den))
        plain = _FRACTION.fullmatch(body)
        if plain is not None:
            return _fraction(int(plain.group(1)), int(plain.group(2)))
    match = _magnitude_pattern(getattr(fmt, "group_separator", None),
                               getattr(fmt, "decimal_mark", None)).fullmatch(body)
    if match is None:
        raise NumberRefused("number.syntax")
    digits = re.sub("[^0-9]", "", match.group("whole"))
    frac = match.group("frac") or ""
    return Decimal(f"{digits}.{frac}" if frac else digits)


def format_number(value: str, fmt: Any) -> str:
    """``value`` (a canonical decimal) printed in ``fmt``'s separators and mark: the
    inverse the property tests use (no percent, scale or currency)."""
    negative = value.startswith("-")
    whole, _, frac = value.lstrip("-").partition(".")
    sep = getattr(fmt, "group_separator", None)
    if sep is not None:
        head = len(whole) % 3 or 3
        whole = sep.join([whole[:head]] + [whole[i:i + 3] for i in range(head, len(whole), 3)])
    mark = getattr(fmt, "decimal_mark", None) or "."
    return ("\u2212" if negative else "") + whole + (mark + frac if frac else "")


__all__ = [
    "MAX_NUMBER_TEXT",
    "NUMBER_REASONS",
    "NumberRefused",
    "accepted_forms",
    "format_number",
    "parse_number",
]
