"""Strict JSON parsing, shared by every JSON reader in por (SPEC §4, §8.7, §12.1).

:func:`loads_strict` refuses duplicate keys and NaN/Infinity, and measures
nesting *before* parsing, for the reason below, in one linear pass.

``json.loads`` recurses in C once per nesting level and relies on the
interpreter's recursion limit to stop, which any imported library may raise
(py_ecc, pulled in by eth-account, sets it to 100 000); deep input then
overflows the C stack and kills the process.  So nesting is measured here,
with a regular-expression scan that skips strings, *before* parsing.

The scan is linear in the text (SPEC §17): a string token is matched
possessively and may be unterminated (it then runs to the end of the text,
which ``json.loads`` rejects anyway), so no position is ever scanned twice.
The older pattern, which required the closing quote, restarted at every
quote of an unterminated run of escaped quotes: quadratic (38 KB took 5 s).

Numbers with a fraction or exponent go through :func:`json_decimal`, which
never raises an arithmetic error: an exponent beyond the decimal module's
range (``1e1000000000000000000``) is decided by a stated rule, not by a
crash (SPEC §12.1).
"""

from __future__ import annotations

import functools
import json
import re
from array import array
from collections.abc import Callable, Iterable
from decimal import Decimal
from itertools import accumulate, chain
from typing import Any

#: Deepest JSON nesting por parses (inputs and evidence bodies).
MAX_JSON_DEPTH = 64

# Runs of brackets outside strings, and whole strings (skipped as one match:
# possessive, closing quote optional, so the scan never backtracks or rescans).
_JSON_NESTING = re.compile(r'[\[\]{}]++|"(?:[^"\\]++|\\[\s\S])*+"?')
#: Everything but the brackets outside strings (strings as _JSON_NESTING reads them).
_NOT_BRACKETS = re.compile(r'"(?:[^"\\]++|\\[\s\S])*+"?|[^\[\]{}"]++')
_NOT_BRACKET_BYTES = bytes(b for b in range(256) if b not in b"[]{}")
_BRACKET_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # signed: +1, -1
_CHUNK = 1 << 16
#: A JSON number's exponent part (``e-12``), read only from the number's text.
_EXPONENT = re.compile(r"[eE][+-]?0*([0-9]*)")
#: Largest exponent magnitude a JSON number may spell and still become a Decimal
#: (the auditor's decimal context has Emax = 999 999).
MAX_JSON_EXPONENT_DIGITS = 6


def json_nesting_exceeds(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """True if brackets outside strings nest deeper than ``limit``."""
    return _json_shape(text, limit, None) is not None


def _bracket_figures(text: str, limit: int = MAX_JSON_DEPTH) -> tuple[int, int, int]:
    """The deepest nesting and the number of openers of the brackets outside
    strings (as _JSON_NESTING reads strings), and the length of a prefix that
    nests at most ``limit`` deep, computed in C: chunk by chunk, the text between
    quotes, then the brackets' running sum."""
    deepest = depth = containers = 0
    shallow = len(text)
    inside = False
    if "\\" in text:  # escaped quotes: strings as one regular expression finds them
        chunks = [_NOT_BRACKETS.sub("", text)]
    else:
        chunks = [text[k:k + _CHUNK] for k in range(0, len(text), _CHUNK)]
    for index, chunk in enumerate(chunks):
        pieces = chunk.split('"')
        outside = "".join(pieces[1 if inside else 0::2])
        inside ^= len(pieces) % 2 == 0
        brackets = outside.encode("ascii", "ignore").translate(None, _NOT_BRACKET_BYTES)
        steps = array("b", brackets.translate(_BRACKET_STEPS))
        highest = max(accumulate(steps, initial=depth))
        deepest = max(deepest, highest)
        if deepest > limit:
            shallow = min(shallow, index * _CHUNK if len(chunks) > 1 else 0)
        depth += sum(steps)
        containers += brackets.count(b"[") + brackets.count(b"{")
    return deepest, containers, shallow


def json_shallow_prefix(text: str, limit: int = MAX_JSON_DEPTH) -> int:
    """The length of a prefix of ``text`` whose brackets outside strings nest at
    most ``limit`` deep (the whole text if it does; perhaps shorter than the
    longest such prefix): a parser given only this prefix never recurses deeper."""
    if text.count("[") + text.count("{") <= limit:
        return len(text)
    return _bracket_figures(text, limit)[2]


def _json_shape(text: str, depth_limit: int, container_limit: int | None) -> str | None:
    """Why ``text`` is refused before parsing (too deep, too many containers), or None.

    One linear pass over brackets outside strings; the fast path counts every
    bracket (in C), which bounds both figures from above."""
    brackets = text.count("[") + text.count("{")
    if brackets <= depth_limit and (container_limit is None or brackets <= container_limit):
        return None
    deepest, containers, _ = _bracket_figures(text, depth_limit)
    too_deep = deepest > depth_limit
    too_many = container_limit is not None and containers > container_limit
    if not too_many:
        return f"JSON nested deeper than {depth_limit}" if too_deep else None
    if not too_deep:
        return f"JSON holds more than {container_limit} arrays and objects"
    # Both: the one reached first, as the scan below reports it.
    depth = containers = 0
    for match in _JSON_NESTING.finditer(text):
        lexeme = match.group()
        if lexeme[0] == '"':
            continue
        for char in lexeme:
            if char in "[{":
                depth += 1
                containers += 1
                if depth > depth_limit:
                    return f"JSON nested deeper than {depth_limit}"
            else:
                depth -= 1
        if container_limit is not None and containers > container_limit:
            return f"JSON holds more than {container_limit} arrays and objects"
    return None


class OutOfRangeNumber:
    """A JSON number whose exponent is too large to represent (no field accepts it)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def json_decimal(text: str) -> Decimal | OutOfRangeNumber:
    """``parse_float`` hook: the number as a ``Decimal``, or :class:`OutOfRangeNumber`
    when its exponent has more than :data:`MAX_JSON_EXPONENT_DIGITS` significant digits
    (``1e1000000000000000000``).  Never raises: the decision is a stated rule."""
    exponent = _EXPONENT.search(text)
    if exponent is not None and len(exponent.group(1)) > MAX_JSON_EXPONENT_DIGITS:
        return OutOfRangeNumber(text)
    return Decimal(text)


def _strict_decimal(text: str) -> Decimal:
    value = json_decimal(text)
    if isinstance(value, OutOfRangeNumber):
        raise JsonTextError(f"JSON number out of range: {text[:40]}")
    return value


class JsonTextError(ValueError):
    """JSON text por refuses; the message is stable and safe to show."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) == len(pairs):
        return result
    result = {}
    for key, item in pairs:
        if key in result:
            raise JsonTextError(f"duplicate object key {key[:40]!r}")
        result[key] = item
    return result


def _no_constant(name: str) -> Any:
    raise JsonTextError(f"JSON constant {name} is not allowed")


@functools.lru_cache(maxsize=64)
def _decoder(parse_float: Callable[[str], Any], parse_int: Callable[[str], Any] | None,
             checked: bool = True) -> json.JSONDecoder:
    """One decoder per pair of hooks (a decoder holds no state between calls); an
    unchecked one builds dicts in C, where a repeated name keeps its last value."""
    return json.JSONDecoder(parse_float=parse_float, parse_int=parse_int,
                            parse_constant=_no_constant,
                            object_pairs_hook=_unique_keys if checked else None)


#: Text with at most one ``{`` per this many characters is parsed with the checking
#: hook (one Python call per object is then cheap); denser text is parsed in C and
#: its names' uniqueness checked by counting (both decide the same, issue 22).
_SPARSE_OBJECT_BYTES = 32
# A whole string token, as _JSON_NESTING reads it (escapes included).
_STRING_TOKEN = re.compile(r'"(?:[^"\\]++|\\[\s\S])*+"?')


def _text_members(text: str, parsed: int) -> int:
    """The object members the JSON text spells: its colons outside strings (RFC 8259
    has no other), counted in C.  Every colon when that equals ``parsed`` (then no
    string holds one); else the text less its strings."""
    colons = text.count(":")
    if colons == parsed:
        return colons
    if "\\" in text:
        return _STRING_TOKEN.sub("", text).count(":")
    return "".join(text.split('"')[0::2]).count(":")


def _containers(items: Iterable[Any]) -> list[Any]:
    """The non-empty dicts and lists among ``items``."""
    return [x for x in items if x and (type(x) is dict or type(x) is list)]


def _parsed_members(value: Any, text: str) -> int:
    """The entries of every dict in a value parsed from ``text``: fewer than the
    text's members exactly when some object repeated a name.  Level by level (at
    most 64), a comprehension per level and no Python call per object (issue 22).
    It stops when it has met as many non-empty containers as the text has openers
    not followed by their closer (a bound on them, counted in C)."""
    openers = (text.count("{") - text.count("{}")) + (text.count("[") - text.count("[]"))
    total = 0
    level = _containers([value])
    met = len(level)
    while level:
        dicts = [n for n in level if type(n) is dict]
        total += sum(map(len, dicts))
        if met >= openers:
            break  # no container below this level
        lists = [n for n in level if type(n) is list]
        level = _containers(chain(chain.from_iterable(map(dict.values, dicts)),
                                  chain.from_iterable(lists)))
        met += len(level)
    return total



def loads_strict(
    text: str,
    *,
    parse_float: Callable[[str], Any] | None = None,
    parse_int: Callable[[str], Any] | None = None,
    max_depth: int = MAX_JSON_DEPTH,
    max_containers: int | None = None,
    exact_error: bool = True,
) -> Any:
    """``json.loads`` that never yields a float by default, refuses duplicate keys and
    NaN/Infinity, and refuses nesting deeper than ``max_depth`` before parsing.
    By default a number with a fraction is a ``Decimal`` and one with an exponent out of
    range is refused.  ``max_containers`` (default: no cap) bounds the arrays and
    objects outside strings, counted in the same pass (memory: one Python object
    each).  Raises :class:`JsonTextError` only (hooks may raise it too); with
    ``exact_error`` false a repeated name's message does not name it (the text is
    not parsed a second time to find which)."""
    refused = _json_shape(text, max_depth, max_containers)
    if refused is not None:
        raise JsonTextError(refused)
    try:
        if type(text) is not str or text.startswith("\ufeff"):
            # json.loads' own handling (bytes input; its "Unexpected UTF-8 BOM" error).
            return json.loads(text, parse_float=parse_float or _strict_decimal,
                              parse_int=parse_int, parse_constant=_no_constant,
                              object_pairs_hook=_unique_keys)
        return _decode(text, parse_float or _strict_decimal, parse_int, exact_error)
    except JsonTextError:
        raise
    except ValueError as exc:
        raise JsonTextError(f"not valid JSON: {str(exc)[:120]}") from None
    except ArithmeticError:  # defence in depth: a hook's decimal error is bad input
        raise JsonTextError("JSON number out of range") from None


def _decode(text: str, parse_float: Callable[[str], Any],
            parse_int: Callable[[str], Any] | None, exact_error: bool) -> Any:
    """What json.loads does for text, without building a decoder per call.  The
    objects are built in C (no Python call per object, issue 22); a repeated name
    (a dict with fewer entries than the text's members) is refused.  With
    ``exact_error`` any refusal comes from the checking decoder, so its message is
    the one a repeated name met first in the text would give."""
    if text.count("{") * _SPARSE_OBJECT_BYTES <= len(text):
        return _decoder(parse_float, parse_int).decode(text)  # few objects: the hook is cheap
    try:
        value = _decoder(parse_float, parse_int, False).decode(text)
    except (ValueError, ArithmeticError):
        if not exact_error:
            raise
        value = _decoder(parse_float, parse_int).decode(text)  # raises, as before
    parsed = _parsed_members(value, text)
    if parsed != _text_members(text, parsed):
        if not exact_error:
            raise JsonTextError("duplicate object key")
        value = _decoder(parse_float, parse_int).decode(text)  # raises, as before
    return value


__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_JSON_EXPONENT_DIGITS",
    "JsonTextError",
    "OutOfRangeNumber",
    "json_decimal",
    "json_nesting_exceeds",
    "json_shallow_prefix",
    "loads_strict",
]
