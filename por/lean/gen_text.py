"""Python source text for the generated lean modules (``por.lean.generate``).

Numbers, quoted texts, import blocks and wrapped tuples written the way ruff
and the codebase write them (double quotes, lines of at most :data:`LINE`
characters, isort's order by type), so the generated files pass ``ruff check``
as they are.  Leaves out: what is written (``generate``).
"""

from __future__ import annotations


class QuoteError(ValueError):
    """A text the generator will not quote (a quote, a backslash, a control character)."""


def number(value: int) -> str:
    """``value`` as a literal, grouped by thousands from 10 000 on (``4_194_304``)."""
    return f"{value:_}" if value >= 10_000 else str(value)


def args(lo: int | None, hi: int | None) -> str:
    """``lo, hi`` as call arguments, trailing defaults (0, None) left out."""
    if hi is None:
        return "" if not lo else number(lo)
    return f"{number(lo or 0)}, {number(hi)}"


def quoted(text: str) -> str:
    """``text`` as a double-quoted literal (ruff's and the codebase's quotes)."""
    if '"' in text or "\\" in text:
        raise QuoteError(f"cannot quote {text!r}")
    # Unprintable code points (U+2009 thin space) as \\uXXXX escapes.
    return '"' + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text) + '"'


def wrapped(head: str, items: list[str], tail: str, *, force: bool = False) -> list[str]:
    """``head item, item tail`` on one line if it fits, else one item a line."""
    one = head + ", ".join(items) + ("," if len(items) == 1 else "") + tail
    if not force and len(one) <= LINE:
        return [one]
    return [head, *(f"        {item}," for item in items), "    " + tail]


LINE = 100


def order(name: str) -> tuple[int, str]:
    """isort's order by type: CONSTANTS, then Classes, then functions."""
    kind = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return kind, name


def import_lines(module: str, names: set[str]) -> list[str]:
    """``from module import names``, parenthesized one a line when too long."""
    ordered = sorted(names, key=order)
    one = f"from {module} import {', '.join(ordered)}"
    if len(one) <= LINE:
        return [one]
    return [f"from {module} import (", *(f"    {n}," for n in ordered), ")"]


__all__ = ["LINE", "QuoteError", "args", "import_lines", "number", "order", "quoted", "wrapped"]
