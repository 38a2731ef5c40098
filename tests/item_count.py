"""Items of a decoded value's arrays and maps, as the strict decoder charges them
(SPEC §5.1, §17.1: an array's head charges its length, a map's head twice its
entries); the tests of every item cap count with this one function."""

from __future__ import annotations


def items(value: object) -> int:
    """Items of ``value``'s arrays and maps, nested ones included."""
    if isinstance(value, list):
        return len(value) + sum(items(v) for v in value)
    if isinstance(value, dict):
        return 2 * len(value) + sum(items(v) for v in value.values())
    return 0
