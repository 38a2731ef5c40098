"""Strict JSON parsing, shared by every JSON reader in por (SPEC §4, §8.7, §12.1).

:func:`loads_strict` refuses duplicate keys and NaN/Infinity, and measures
nesting *before* parsing, for the reason below.

``json.loads`` recurses in C once per nesting level and relies on the
interpreter's recursion limit to stop, which any imported library may raise
(py_ecc, pulled in by eth-account, sets it to 100 000); deep input then
overflows the C stack and kills the process.  So nesting is measured here,
with a regular-expression scan that skips strings, *before* parsing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

#: Deepest JSON nesting por parses (inputs and evidence bodies).
MAX_JSON_DEPTH = 64

# Brackets outside strings, and whole strings (skipped as one match).
_JSON_NESTING = re.compile(r'[\[\]{}]|"(?:[^"\\]|\\.)*"')


def json_nesting_exceeds(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """True if brackets outside strings nest deeper than ``limit``."""
    depth = 0
    for match in _JSON_NESTING.finditer(text):
        lexeme = match.group()
        if lexeme in "[{":
            depth += 1
            if depth > limit:
                return True
        elif lexeme in "]}":
            depth -= 1
    return False


class JsonTextError(ValueError):
    """JSON text por refuses; the message is stable and safe to show."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, item in pairs:
        if key in result:
            raise JsonTextError(f"duplicate object key {key[:40]!r}")
        result[key] = item
    return result


def _no_constant(name: str) -> Any:
    raise JsonTextError(f"JSON constant {name} is not allowed")


def loads_strict(
    text: str,
    *,
    parse_float: Callable[[str], Any] = Decimal,
    parse_int: Callable[[str], Any] | None = None,
    max_depth: int = MAX_JSON_DEPTH,
) -> Any:
    """``json.loads`` that never yields a float by default, refuses duplicate keys and
    NaN/Infinity, and refuses nesting deeper than ``max_depth`` before parsing.
    Raises :class:`JsonTextError` only (hooks may raise it too)."""
    if json_nesting_exceeds(text, max_depth):
        raise JsonTextError(f"JSON nested deeper than {max_depth}")
    try:
        return json.loads(text, parse_float=parse_float, parse_int=parse_int,
                          parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except JsonTextError:
        raise
    except ValueError as exc:
        raise JsonTextError(f"not valid JSON: {str(exc)[:120]}") from None


__all__ = ["MAX_JSON_DEPTH", "JsonTextError", "json_nesting_exceeds", "loads_strict"]
