"""The check-chunk executor's reads (Python's twin of ``PorCheckFormRead.sol``): words of a
form by byte offset with the form's end as the bound, over :mod:`por.forms.execute.read`.

Every read raises :class:`~por.forms.execute.FormFault` where the Solidity reverts
``ProofForm()``. What differs from ``read``: ``count`` bounds a list by the words from its
count word on (``(end - p) / 32 / stride``, as ``PorCheckFormRead.count``), ``code`` is a
word at most ``high``, and decimals compare by §3.2's exact order.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

from por.forms.execute.read import Dec, at, fault, read_d, read_t

MAX63 = (1 << 63) - 1


def w(f: bytes, p: int) -> int:
    """The word at ``p``."""
    return at(f, p)


def int64w(f: bytes, p: int) -> int:
    """A ``W`` word: an integer below 2^64."""
    v = at(f, p)
    if v >> 64:
        fault("an integer word at or above 2^64")
    return v


def code(f: bytes, p: int, high: int) -> int:
    """A word at most ``high`` (a boolean: 1; an enum: its last code)."""
    v = at(f, p)
    if v > high:
        fault(f"a word above {high}")
    return v


def count(f: bytes, p: int, stride: int) -> int:
    """A count of ``stride``-word elements at ``p`` whose elements fit before the end."""
    n = at(f, p)
    if n > (len(f) - p) // 32 // stride:
        fault("a list's count exceeds the form")
    return n


def opt(f: bytes, p: int) -> tuple[bool, int]:
    """An ``O(n)`` pair at ``p``: (present, value); absent must be ``W(0) W(0)``."""
    present = code(f, p, 1) == 1
    v = int64w(f, p + 32)
    if not present and v != 0:
        fault("an absent optional value with a value word")
    return present, v


def t_end(f: bytes, p: int) -> int:
    """The end of the ``T`` at ``p`` (bounds and zero padding checked)."""
    return read_t(f, p)[1]


def t_size(f: bytes, p: int) -> int:
    """The size of the (checked) ``T`` at ``p``: its length word and padded bytes."""
    return 32 + ((int.from_bytes(f[p:p + 32], "big") + 31) & ~31)


def text(f: bytes, p: int) -> bytes:
    """The (checked) ``T`` at ``p``'s bytes."""
    return f[p + 32:p + 32 + int.from_bytes(f[p:p + 32], "big")]


def hash_t(f: bytes, p: int) -> bytes:
    """SHA-256 of the (checked) ``T`` at ``p``'s bytes: ``H`` of the text."""
    return hashlib.sha256(text(f, p)).digest()


def d_end(f: bytes, p: int) -> int:
    """The end of the ``D`` at ``p`` (``PorForms.readD``)."""
    return read_d(f, p)[1]


def v_end(kind: int, f: bytes, p: int) -> int:
    """The end of the value ``V_kind`` at ``p`` (0 boolean, 1 numeric, 2 timestamp,
    else text: its ``H``, one word)."""
    if kind == 0:
        code(f, p, 1)
        return p + 32
    if kind == 1:
        return d_end(f, p)
    at(f, p)
    return p + 32


def value_of(dec: Dec) -> Fraction:
    """A decimal's exact value."""
    v = Fraction(dec.magnitude, 10 ** dec.scale)
    return -v if dec.negative else v


def decimal_at(f: bytes, p: int) -> Fraction:
    """The exact value of the (checked) ``D`` at ``p``."""
    return value_of(read_d(f, p)[0])


__all__ = ["MAX63", "code", "count", "d_end", "decimal_at", "hash_t", "int64w", "opt",
           "t_end", "t_size", "text", "v_end", "value_of", "w"]
