"""Values as sources publish them: value maps, datetimes, declared number formats
(SPEC §12.1.5), and the one conversion hook extraction calls.

:func:`convert` turns one located raw value (a JSON value, or a text: a regex
capture or a CSV cell) into a claim value of the field's kind, or refuses it
with a stable reason code (:class:`Refused`).  Order:

1. ``value_map`` (text values only): normalise the text and every entry's text
   (``none``; ``trim``: strip U+0020 and U+0009 at both ends; ``trim_casefold``:
   trim, then A-Z to a-z, ASCII only), the first equal entry (code points)
   gives the value, spelt as the kind commits it (``true``/``false``, a
   canonical decimal, Unix-second digits, a text).  No entry: ``others``
   ``convert`` goes on, ``refuse`` refuses (``map.no_entry``).
2. ``number_format`` (numeric, text values): :func:`por.auditor.number_forms.parse_number`.
3. ``time_format`` (timestamp): ``unix_seconds`` (a JSON integer or a digit
   string), ``unix_millis`` (the same in milliseconds, floored to seconds),
   ``rfc3339`` (RFC 3339 §5.6 ``date-time``), ``rfc3339_or_date`` (also a bare
   ``full-date``, read as 00:00:00Z).  Fractions of a second are dropped
   (floor); seconds ``60`` (leap) and instants before 1970 are refused.
4. Otherwise the kind's default spelling (:mod:`por.auditor.values`).

Leaves out: locating the value (``claim_extraction``, ``json_path``, ``csv_body``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from por.auditor import values as v
from por.auditor.number_forms import NUMBER_REASONS, NumberRefused, accepted_forms, parse_number
from por.numbers import is_canonical_decimal

ClaimValue = str | int | bool

#: Longest datetime text read (longer: ``time.syntax``).
MAX_TIME_TEXT = 64

_DATE = r"(?P<y>[0-9]{4})-(?P<mo>[0-9]{2})-(?P<d>[0-9]{2})"
_DATE_TIME = re.compile(
    _DATE + r"[Tt ](?P<h>[0-9]{2}):(?P<mi>[0-9]{2}):(?P<s>[0-9]{2})(?:\.[0-9]{1,9})?"
    r"(?:(?P<z>[Zz])|(?P<osign>[+-])(?P<oh>[0-9]{2}):(?P<om>[0-9]{2}))")
_DATE_ONLY = re.compile(_DATE)
_DIGITS = re.compile(r"[0-9]{1,22}")

REASONS = {
    **NUMBER_REASONS,
    "map.no_entry": "no value_map entry matches and others is refuse",
    "map.bad_value": "the value_map entry's value is not spelt as the field's kind",
    "time.syntax": "not an RFC 3339 date-time (or date, if declared) / digit epoch",
    "time.range": "a month, day, hour, minute, second or offset out of range",
    "time.leap_second": "second 60 (leap seconds are refused)",
    "time.before_epoch": "before 1970-01-01T00:00:00Z or after 2**63-1 seconds",
    "kind": "not the kind's default spelling",
}


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a located value became no claim (a :data:`REASONS` key; reports only)."""

    code: str


#: A-Z to a-z, nothing else (``trim_casefold``).
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
#: Longest ``printed`` text of a value map entry (the schema's bound).
_MAX_PRINTED = 256


def _normalise(text: str, how: str) -> str:
    if how == "none":
        return text
    text = text.strip(" \t")
    # Folding keeps the length, so a text longer than every entry matches none
    # either way: it is left as is (bounded work for a hostile located text).
    if how == "trim_casefold" and len(text) <= _MAX_PRINTED:
        text = text.translate(_ASCII_LOWER)
    return text


def _mapped(kind: str, spelt: str) -> ClaimValue | Refused:
    if kind == "boolean":
        return {"true": True, "false": False}.get(spelt, Refused("map.bad_value"))
    if kind == "numeric":
        return spelt if is_canonical_decimal(spelt) else Refused("map.bad_value")
    if kind == "timestamp":
        value = v.timestamp_from_text(spelt)
        return Refused("map.bad_value") if value is None else value
    return spelt


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (exact integers)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _month_days(year: int, month: int) -> int:
    if month == 2:
        return 29 if (year % 4 == 0 and year % 100 != 0) or year % 400 == 0 else 28
    return 30 if month in (4, 6, 9, 11) else 31


def parse_rfc3339(text: str, *, date_only: bool) -> int | Refused:
    """Unix seconds of an RFC 3339 §5.6 ``date-time`` (``T``/``t``/space, ``Z``/``z``
    or ``±hh:mm``, fraction floored), or of a ``full-date`` if ``date_only``."""
    if len(text) > MAX_TIME_TEXT:
        return Refused("time.syntax")
    match = _DATE_TIME.fullmatch(text)
    if match is None and date_only:
        match = _DATE_ONLY.fullmatch(text)
    if match is None:
        return Refused("time.syntax")
    parts = match.groupdict()
    year, month, day = int(parts["y"]), int(parts["mo"]), int(parts["d"])
    hour, minute, second = (int(parts.get(k) or 0) for k in ("h", "mi", "s"))
    off_h, off_m = int(parts.get("oh") or 0), int(parts.get("om") or 0)
    if not (1 <= month <= 12 and 1 <= day <= _month_days(year, month) and hour <= 23
            and minute <= 59 and second <= 60 and off_h <= 23 and off_m <= 59):
        return Refused("time.range")
    if second == 60:
        return Refused("time.leap_second")
    offset = (off_h * 3600 + off_m * 60) * (-1 if parts.get("osign") == "-" else 1)
    seconds = (_days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60
               + second - offset)
    return seconds if 0 <= seconds <= v.MAX_UNIX_TIME else Refused("time.before_epoch")


def _timestamp(raw: Any, time_format: str) -> int | Refused:
    if time_format in ("unix_seconds", "unix_millis"):
        if isinstance(raw, str) and _DIGITS.fullmatch(raw):
            number: Any = int(raw)
        elif isinstance(raw, int) and not isinstance(raw, bool):
            number = raw
        else:
            return Refused("time.syntax")
        if time_format == "unix_millis":
            number = number // 1000 if number >= 0 else -1
        return number if 0 <= number <= v.MAX_UNIX_TIME else Refused("time.before_epoch")
    if not isinstance(raw, str):
        return Refused("time.syntax")
    return parse_rfc3339(raw, date_only=time_format == "rfc3339_or_date")


def _default(kind: str, raw: Any, from_text: bool) -> ClaimValue | Refused:
    if from_text:
        value: ClaimValue | None = (v.decimal_from_text(raw) if kind == "numeric" else
                                    v.boolean_from_text(raw) if kind == "boolean" else
                                    v.timestamp_from_text(raw) if kind == "timestamp" else raw)
    elif kind == "numeric":
        value = v.decimal_from_json(raw)
    elif kind == "boolean":
        value = raw if isinstance(raw, bool) else None
    elif kind == "timestamp":
        value = v.timestamp_from_json(raw)
    else:
        value = raw if isinstance(raw, str) and v.is_unicode_text(raw) else None
    return Refused("kind") if value is None else value


def convert(field: Any, raw: Any, *, from_text: bool) -> ClaimValue | Refused:
    """The claim value of ``raw`` for ``field`` (see the module docstring for the order)."""
    kind = field.kind
    value_map = getattr(field, "value_map", None)
    if value_map is not None and isinstance(raw, str):
        key = _normalise(raw, value_map.normalise)
        for entry in value_map.entries:
            if _normalise(entry.printed, value_map.normalise) == key:
                return _mapped(kind, entry.value)
        if value_map.others == "refuse":
            return Refused("map.no_entry")
    number_format = getattr(field, "number_format", None)
    if number_format is not None and kind == "numeric" and isinstance(raw, str):
        try:
            return parse_number(raw, number_format)
        except NumberRefused as refused:
            return Refused(refused.code)
    time_format = getattr(field, "time_format", None)
    if time_format is not None and kind == "timestamp":
        return _timestamp(raw, time_format)
    return _default(kind, raw, from_text)


def accepted(field: Any) -> str:
    """What ``field`` accepts, in one line (for reports; never committed)."""
    forms: list[str] = []
    value_map = getattr(field, "value_map", None)
    if value_map is not None:
        texts = ", ".join(json.dumps(e.printed, ensure_ascii=False)
                          for e in value_map.entries[:8])
        forms.append(f"value_map ({value_map.normalise}): {texts}")
    if getattr(field, "number_format", None) is not None:
        forms.append(accepted_forms(field.number_format))
    elif getattr(field, "time_format", None) is not None:
        forms.append({"unix_seconds": "Unix seconds (integer or digits)",
                      "unix_millis": "Unix milliseconds (integer or digits)",
                      "rfc3339": "RFC 3339 date-time, e.g. 2026-11-03T20:00:00-05:00",
                      "rfc3339_or_date": "RFC 3339 date-time or full-date (2026-11-03)",
                      }[field.time_format])
    else:
        forms.append({"numeric": "JSON number or -?[0-9]+(.[0-9]+)?",
                      "boolean": "JSON true/false; in text true/yes/false/no",
                      "timestamp": "Unix seconds: JSON integer or [0-9]{1,19}",
                      "text": "a JSON string or any captured text"}[field.kind])
    return "; ".join(forms)


def _shown(raw: Any) -> str:
    # A located value that is not text: JSON's spelling, or its kind (never a repr,
    # which for a CSV table holds a memory address).
    if raw is None or isinstance(raw, (bool, int)):
        return json.dumps(raw)
    if isinstance(raw, (Decimal, v.LongNumber)):
        return "a JSON number"
    if isinstance(raw, list):
        return "a JSON array"
    return "a JSON object" if isinstance(raw, dict) else "a CSV table"


def teach(field: Any, raw: Any, *, from_text: bool) -> str | None:
    """A report line for a value that became no claim: the captured text
    (truncated to 80 characters, escaped), the reason and the accepted forms;
    ``None`` if ``raw`` converts.  Reports only: never committed."""
    result = convert(field, raw, from_text=from_text)
    if not isinstance(result, Refused):
        return None
    shown = raw if isinstance(raw, str) else _shown(raw)
    shown = shown[:80].encode("unicode_escape").decode("ascii") + (
        "..." if len(shown) > 80 else "")
    return (f"captured \"{shown}\": {REASONS.get(result.code, result.code)} "
            f"({result.code}); accepted: {accepted(field)}")


__all__ = [
    "MAX_TIME_TEXT",
    "REASONS",
    "Refused",
    "accepted",
    "convert",
    "parse_rfc3339",
    "teach",
]
