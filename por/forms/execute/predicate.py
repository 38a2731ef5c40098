"""Exact decimals and the prediction's predicate on chain forms: Python's twin of
``PorDecimal.sol`` (``cmp``, ``add``, ``sub``, ``toText``) and of ``PorFormsCommon.sol``'s
``read`` (COMMON's prediction semantics) and ``holds``, which both the deduce executor and
the JudgeProof use.

A decimal is a :class:`fractions.Fraction` (exact, as ``PorDecimal``'s two-word
magnitudes are for canonical inputs); its canonical SPEC §3.2 text has no trailing
fractional zeros and at most 64 characters (``toText``'s ``fits``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from por.forms.execute import read as rd

#: Predicate codes (SPEC §5.6's ``E`` of ``prediction_semantics.predicate``).
EVENT, THRESHOLD, RANGE, FIELD, TEXT_EQUALS, TIME = range(6)
#: Longest canonical decimal text (SPEC §3.2).
MAX_LENGTH = 64
ZERO = Fraction(0)


def decimal(negative: bool, scale: int, digits: int | str | bytes) -> Fraction:
    """The value of a ``D`` word: (-1)^negative * digits / 10^scale."""
    magnitude = Fraction(int(digits), 10 ** scale)
    return -magnitude if negative else magnitude


def to_text(x: Fraction) -> str | None:
    """``PorDecimal.toText``: the canonical text of ``x``, None when it has more than 64
    characters (or ``x`` is not a finite decimal)."""
    scale = 0
    while (x * 10 ** scale).denominator != 1:
        scale += 1
        if scale > MAX_LENGTH:
            return None
    magnitude = abs(x.numerator * 10 ** scale // x.denominator)
    digits = str(magnitude)
    if scale:
        digits = digits.rjust(scale + 1, "0")
        digits = f"{digits[:-scale]}.{digits[-scale:]}"
    text = f"-{digits}" if x < 0 else digits
    return text if len(text) <= MAX_LENGTH else None


def d_words(text: str) -> bytes:
    """``PorDeduceForm._d``: the ``D`` of a canonical decimal text (its word: sign, scale,
    digit count; its digits without the sign, the point and leading zeros, zero-padded
    to one word for up to 32 digits, two above)."""
    negative = text.startswith("-")
    body = text[1:] if negative else text
    scale = len(body) - body.index(".") - 1 if "." in body else 0
    digits = body.replace(".", "").lstrip("0") or "0"
    head = (int(negative) << 255) | (scale << 232) | len(digits)
    size = 32 if len(digits) <= 32 else 64
    return head.to_bytes(32, "big") + digits.encode().ljust(size, b"\0")


@dataclass
class Bounds:
    """What ``_holds`` reads of ``prediction_semantics`` (absent decimals are zero, an
    absent comparison is code 0 ``>``; ``lower_incl`` absent is inclusive,
    ``upper_incl`` absent exclusive)."""

    predicate: int = 0
    comparison: int = 0
    threshold: Fraction = ZERO
    lower: Fraction = ZERO
    upper: Fraction = ZERO
    lower_incl: bool = True
    upper_incl: bool = False


def holds(b: Bounds, x: Fraction) -> bool:
    """``_holds``: the range's ends for ``numeric_range``; else the comparison against
    zero (``field_comparison``) or the threshold."""
    if b.predicate == RANGE:
        low_ok = x >= b.lower if b.lower_incl else x > b.lower
        high_ok = x <= b.upper if b.upper_incl else x < b.upper
        return low_ok and high_ok
    bound = ZERO if b.predicate == FIELD else b.threshold
    if b.comparison == 0:
        return x > bound
    if b.comparison == 1:
        return x >= bound
    if b.comparison == 2:
        return x < bound
    if b.comparison == 3:
        return x <= bound
    return x == bound


__all__ = ["EVENT", "FIELD", "RANGE", "TEXT_EQUALS", "THRESHOLD", "TIME", "Bounds",
           "d_words", "decimal", "holds", "to_text"]


@dataclass
class Semantics:
    """What :func:`read_semantics` reads besides the :class:`Bounds`: the metric's text,
    the terms (minus, H(metric)), ``H(other_metric)``, ``H(expected_text)``,
    ``absent_means_no`` and the preconditions (H(field), H(equals), otherwise ``no``)."""

    metric: bytes = b""
    terms: list[tuple[bool, bytes]] = field(default_factory=list)
    other: bytes | None = None
    expected: bytes | None = None
    absent_no: bool = False
    preconditions: list[tuple[bytes, bytes, bool]] = field(default_factory=list)


def _dec(f: bytes, o: int) -> tuple[Fraction, int]:
    d, nxt = rd.read_d(f, o)
    return decimal(d.negative, d.scale, d.digits), nxt


def read_semantics(f: bytes, o: int, b: Bounds) -> tuple[Semantics, int]:
    """``PorFormsCommon.read``: COMMON's prediction semantics at offset ``o`` of ``f``,
    every word checked (``FormFault``), the bounds into ``b`` (in place); the rest and the
    offset after them."""
    s = Semantics()
    b.predicate, o = rd.read_e(f, o, 6)
    s.metric, o = rd.read_t(f, o)
    present, o = rd.read_p(f, o)
    if present:
        b.comparison, o = rd.read_e(f, o, 5)
    present, o = rd.read_p(f, o)
    if present:
        b.threshold, o = _dec(f, o)
    present, o = rd.read_p(f, o)
    if present:
        n, o = rd.read_l(f, o)
        for _ in range(n):
            minus, o = rd.read_e(f, o, 2)
            key, o = rd.read_h(f, o)
            s.terms.append((minus == 1, key))
    present, o = rd.read_p(f, o)
    if present:
        b.lower, o = _dec(f, o)
    present, o = rd.read_p(f, o)
    if present:
        b.upper, o = _dec(f, o)
    present, v, o = rd.read_o(f, o, 1)
    b.lower_incl = not present or v == 1
    present, v, o = rd.read_o(f, o, 1)
    b.upper_incl = present and v == 1
    present, o = rd.read_p(f, o)
    if present:
        s.other, o = rd.read_h(f, o)
    present, o = rd.read_p(f, o)
    if present:
        s.expected, o = rd.read_h(f, o)
    s.absent_no, o = rd.read_b(f, o)
    present, o = rd.read_p(f, o)
    if present:
        n, o = rd.read_l(f, o)
        for _ in range(n):
            key, o = rd.read_h(f, o)
            equals, o = rd.read_h(f, o)
            otherwise, o = rd.read_e(f, o, 2)
            s.preconditions.append((key, equals, otherwise == 1))
    return s, o
