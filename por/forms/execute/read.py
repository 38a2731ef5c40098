"""Reading chain forms (SPEC §5.6.1's encodings): Python's twin of the readers of
``contracts/src/forms/PorForms.sol``.

A form ``f`` is bytes of 32-byte words (word 0 its tag). Offsets are byte offsets into
``f`` (multiples of 32, as in Solidity); each reader returns what it read and the offset
after it. Every read is bounds-checked and raises :class:`FormFault` exactly where
``PorForms`` reverts ``ProofForm()``: a word past the form's end, a length past it,
non-zero padding, a digit byte outside ``0``-``9``, a decimal word breaking §5.6.1's
rules, a presence, boolean or enum word out of range, an integer word at or above 2^64.
Nothing reads zeros past an end.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import NoReturn

from por.forms.execute import FormFault

#: Claim value kinds (``V_k``).
BOOLEAN, NUMERIC, TIMESTAMP, TEXT = 0, 1, 2, 3

_W_LIMIT = 1 << 64
_DIGITS = frozenset(b"0123456789")
#: The decimal word's bits that must be zero: between the scale (from bit 232) and len.
_D_GAP = ((1 << 232) - 1) ^ ((1 << 32) - 1)


def fault(message: str = "a carried form does not parse") -> NoReturn:
    """Raise :class:`FormFault` (``PorForms.fault``: ``ProofForm()``)."""
    raise FormFault(message)


def tag_of(f: bytes) -> int:
    """The form's tag after checking its shape: at least one word, whole words."""
    if not f or len(f) % 32:
        fault("a form is not a whole number of words")
    return int.from_bytes(f[:32], "big")


def open_form(f: bytes, tag: int) -> int:
    """``tag_of(f)`` must be ``tag``; the offset after the tag (32)."""
    if tag_of(f) != tag:
        fault(f"a form's tag is not {tag}")
    return 32


def at(f: bytes, o: int) -> int:
    """The word at byte offset ``o`` of ``f``."""
    if o + 32 > len(f):
        fault("a word past the form's end")
    return int.from_bytes(f[o:o + 32], "big")


def word(f: bytes, i: int) -> int:
    """Word ``i`` of ``f`` (word 0 is the tag)."""
    return at(f, i << 5)


def span(f: bytes, o: int, size: int) -> bytes:
    """``f[o : o + size]``, which must lie inside ``f``."""
    if size > len(f) or o + size > len(f):
        fault("a span past the form's end")
    return f[o:o + size]


def end(f: bytes, o: int) -> None:
    """``o`` must be the form's end: no bytes after the last word the layout reads."""
    if o != len(f):
        fault("bytes after the form's last word")


def read_w(f: bytes, o: int) -> tuple[int, int]:
    """``W(n)``: an integer 0 <= n < 2^64."""
    v = at(f, o)
    if v >= _W_LIMIT:
        fault("an integer word at or above 2^64")
    return v, o + 32


def read_h(f: bytes, o: int) -> tuple[bytes, int]:
    """``H(t)`` or ``B32(h)``: any word (its 32 bytes)."""
    at(f, o)
    return f[o:o + 32], o + 32


def read_e(f: bytes, o: int, count: int) -> tuple[int, int]:
    """``E(x)``: a code below ``count`` (the set's size)."""
    code = at(f, o)
    if code >= count:
        fault(f"an enum code not below {count}")
    return code, o + 32


def read_b(f: bytes, o: int) -> tuple[bool, int]:
    """``B(b)``: 0 or 1."""
    v, nxt = read_e(f, o, 2)
    return v == 1, nxt


def read_p(f: bytes, o: int) -> tuple[bool, int]:
    """The presence word of ``P[X]``: absent, or present (``X`` follows at ``next``)."""
    return read_b(f, o)


def read_z(f: bytes, o: int) -> tuple[int, int]:
    """``Z(n)``: ``W(n)``, 0 for absent."""
    return read_w(f, o)


def read_o(f: bytes, o: int, high: int) -> tuple[bool, int, int]:
    """``O(n)``: ``W(0) W(0)`` absent, ``W(1) W(n)`` present with n <= ``high``:
    (present, n, next)."""
    p = at(f, o)
    v = at(f, o + 32)
    if p > 1 or v > high or (p == 0 and v != 0):
        fault("an optional value's words are out of range")
    return p == 1, v, o + 64


def read_l(f: bytes, o: int) -> tuple[int, int]:
    """``L[X]``'s count word: each element takes at least one word, so a count larger
    than the words left is a fault (the elements are read by the caller)."""
    nxt = o + 32
    if nxt > len(f):
        fault("a list's count word past the form's end")
    count = int.from_bytes(f[o:nxt], "big")
    if count > (len(f) - nxt) >> 5:
        fault("a list's count exceeds the words left")
    return count, nxt


def read_t(f: bytes, o: int) -> tuple[bytes, int]:
    """``T(t)``: the text's bytes (inside ``f``, the last word's padding zero) and the
    offset after it."""
    p = o + 32
    flen = len(f)
    if p > flen:
        fault("a text's length word past the form's end")
    n = int.from_bytes(f[o:p], "big")
    nxt = p + ((n + 31) & ~31)
    if n > flen or nxt > flen or (n & 31 and any(f[p + n:nxt])):
        fault("a text's bytes past the form's end or non-zero padding")
    return f[p:p + n], nxt


def skip_t(f: bytes, o: int) -> int:
    """The offset after the ``T`` at ``o`` (checked as :func:`read_t`)."""
    return read_t(f, o)[1]


@dataclass(frozen=True)
class Dec:
    """A decimal read from a ``D`` word: sign, scale (digits after the point) and its
    digits (ASCII, no leading zero unless the number is 0)."""

    negative: bool
    scale: int
    digits: bytes

    @property
    def magnitude(self) -> int:
        """The digits as an integer (``PorForms.magnitude``)."""
        return int(self.digits)


def _digit_word(w: bytes, k: int) -> bool:
    """The first ``k`` bytes of the word ``w`` are ``0``-``9``, the others zero."""
    return all(b in _DIGITS for b in w[:k]) and not any(w[k:])


def read_d(f: bytes, o: int) -> tuple[Dec, int]:
    """``D(d)``: the decimal and the offset after it. Checks §5.6.1's decimal word: len
    1..64, scale 0..62, no other bits, digits ``0``-``9`` and zero padding, no leading
    ``0`` unless len = 1, no trailing ``0`` when scale > 0, no ``-0``, and at most 64
    characters for the canonical text."""
    flen = len(f)
    head = int.from_bytes(f[o:o + 32], "big") if o + 32 <= flen else 0
    neg = head >> 255
    scale = (head >> 232) & 0x7FFFFF
    n = head & 0xFFFFFFFF
    words = 2 if n > 32 else 1
    nxt = o + 32 + 32 * words
    chars = n
    if scale:
        chars = max(n, scale + 1) + 1
    chars += neg
    if nxt > flen or n == 0 or n > 64 or scale > 62 or chars > 64 or head & _D_GAP:
        fault("a decimal word out of range")
    p = o + 32
    ok = _digit_word(f[p:p + 32], min(n, 32))
    if n > 32:
        ok = ok and _digit_word(f[p + 32:p + 64], n - 32)
    first, last = f[p], f[p + n - 1]
    zero = 0x30
    if (not ok or (first == zero and n > 1) or (last == zero and scale > 0)
            or (neg and first == zero and n == 1)):
        fault("a decimal's digits are not canonical")
    return Dec(bool(neg), scale, f[p:p + n]), nxt


def skip_v(f: bytes, o: int, kind: int) -> int:
    """``V_kind(v)``, checked: the offset after it (boolean ``B``, numeric ``D``,
    timestamp ``W``, text ``T``; another kind is a fault)."""
    if kind == NUMERIC:
        return read_d(f, o)[1]
    if kind == TEXT:
        return read_t(f, o)[1]
    if kind == BOOLEAN:
        return read_b(f, o)[1]
    if kind == TIMESTAMP:
        return read_w(f, o)[1]
    return fault(f"not a value kind: {kind}")


def step_index(r: int, leaf: int) -> int:
    """The forms-tree index of reasoning leaf ``leaf``'s form (``1 + r + leaf``), ``r``
    the PromptSpec's requirement count."""
    return 1 + r + leaf


def step_id_hash(n: int) -> bytes:
    """``H(step_id(n))``: SHA-256 of ``"step_"`` and ``n`` in decimal, four digits at
    least (``PorForms.stepIdHash``)."""
    return hashlib.sha256(b"step_%04d" % n).digest()


__all__ = [
    "BOOLEAN", "NUMERIC", "TEXT", "TIMESTAMP", "Dec", "at", "end", "fault", "open_form",
    "read_b", "read_d", "read_e", "read_h", "read_l", "read_o", "read_p", "read_t",
    "read_w", "read_z", "skip_t", "skip_v", "span", "step_id_hash", "step_index",
    "tag_of", "word",
]
