"""Guards for parsing JSON text safely (SPEC §4, §12.1).

``json.loads`` recurses in C once per nesting level and relies on the
interpreter's recursion limit to stop, which any imported library may raise
(py_ecc, pulled in by eth-account, sets it to 100 000); deep input then
overflows the C stack and kills the process.  So nesting is measured here,
with a regular-expression scan that skips strings, *before* parsing.
"""

from __future__ import annotations

import re

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


__all__ = ["MAX_JSON_DEPTH", "json_nesting_exceeds"]
