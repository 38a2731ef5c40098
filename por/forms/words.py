"""The word encodings of chain forms (SPEC §5.6.1; ADR 0017).

Every encoder returns whole 32-byte words or raises :func:`none` (check id
``form.none``): ``F`` is partial, and a value of the wrong type, an enum text outside
its set or a non-canonical decimal has no form.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any, NoReturn, TypeVar

from por.encoding import encode
from por.encoding.encoder import Fragments
from por.errors import PorError
from por.numbers import is_canonical_decimal

X = TypeVar("X")

#: Tags (section 1.1).
COMMON, REQUIREMENT, EXTRACT, CHUNK, AGGREGATE = 1, 2, 3, 4, 5
CONTRADICTIONS, DEDUCE, MAP, VERDICT = 6, 7, 8, 9

KIND = {"boolean": 0, "numeric": 1, "timestamp": 2, "text": 3}
STRATEGY = {"single_best": 0, "multi_source_quorum": 1, "fallback_chain": 2}
TIE_BREAKER = {"source_order": 0, "highest_provenance": 1}
STATUS = {"selected": 0, "missing": 1, "insufficient": 2, "no_quorum": 3}
METRIC_STATUS = {**STATUS, "wrong_kind": 4, "absent": 5, "precondition_unmet": 6,
                 "value_out_of_range": 7, "votes_undecided": 8}
PREDICATE = {"event_observed": 0, "numeric_threshold": 1, "numeric_range": 2,
             "field_comparison": 3, "text_equals": 4, "timestamp_threshold": 5}
COMPARISON = {">": 0, ">=": 1, "<": 2, "<=": 3, "==": 4}
TERM_OP = {"+": 0, "-": 1}
OTHERWISE = {"INVALID": 0, "NO": 1}
ON_CONFLICT = {"invalid": 0, "continue": 1}
RULE = {"R_VALIDITY": 1, "R_CONFLICT": 2, "R_BINARY_DECISION": 3, "R_CONFIDENCE": 4,
        "R_INVALID_FALLBACK": 5}
REASON = {"sanity.allowed_source": 1, "sanity.source_target": 2, "sanity.time_window": 3,
          "sanity.provenance": 4, "sanity.confidence": 5, "sanity.http_status": 6,
          "gate.agent_name": 7}
OBSERVED_FROM = {"claim": 0, "receipt": 1}
CONFLICT_CHECK = {"contradiction.numeric": 0, "contradiction.boolean": 1}
OUTCOME = {"YES": 0, "NO": 1, "INVALID": 2}

ZERO = bytes(32)
_W_LIMIT = 1 << 64
#: §4's ranges: ``time`` and ``count`` 0..2^63-1, ``bps`` 0..10000.
TIME_MAX = (1 << 63) - 1
BPS_MAX = 10_000
#: The words of the small integers (counts, codes, flags): made once.
_WORDS = tuple(n.to_bytes(32, "big") for n in range(1024))


def none(message: str) -> NoReturn:
    """The record has no form: raise ``PorError('form.none', message)``."""
    raise PorError("form.none", message)


def W(n: object) -> bytes:
    """An integer 0 <= n < 2^64, one big-endian word (a boolean is not an integer)."""
    if type(n) is int and 0 <= n < 1024:  # the common case, the same word
        return _WORDS[n]
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < _W_LIMIT:
        none(f"not an integer 0..2^64-1: {n!r}"[:200])
    return n.to_bytes(32, "big")


def B(b: object) -> bytes:
    """A CBOR boolean: ``W(1)`` / ``W(0)``."""
    if not isinstance(b, bool):
        none(f"not a boolean: {b!r}"[:200])
    return W(int(b))


def E(codes: Mapping[str, int], x: object) -> bytes:
    """An enumerated text: its code."""
    if not isinstance(x, str) or x not in codes:
        none(f"not one of {sorted(codes)}: {x!r}"[:200])
    return W(codes[x])


def _text(t: object) -> str:
    if not isinstance(t, str):
        none(f"not a text: {t!r}"[:200])
    return t


@lru_cache(maxsize=256)  # keys, kinds, source and requirement ids repeat
def _sha256_text(t: str) -> bytes:
    return hashlib.sha256(t.encode()).digest()


def H(t: object) -> bytes:
    """A text compared for equality: SHA-256 of its UTF-8 bytes."""
    return _sha256_text(t if type(t) is str else str.__str__(_text(t)))


def _pad(data: bytes) -> bytes:
    return data + bytes(-len(data) % 32)


def T(t: object) -> bytes:
    """A text whose bytes are read: its byte length, then the bytes zero-padded."""
    data = _text(t).encode()
    return W(len(data)) + _pad(data)


def D(d: object) -> bytes:
    """A canonical decimal (§3.2): the decimal word, then its digits zero-padded."""
    text = _text(d)
    if not is_canonical_decimal(text):
        none(f"not a canonical decimal: {text!r}"[:200])
    negative = text.startswith("-")
    whole, _, frac = text[1:].partition(".") if negative else text.partition(".")
    digits = (whole + frac).lstrip("0") or "0"
    word = int(negative) << 255 | len(frac) << 232 | len(digits)
    return word.to_bytes(32, "big") + _pad(digits.encode())


def V(kind: str, v: object) -> bytes:
    """A claim value of kind ``kind`` (a text value is compared only: ``H``)."""
    if kind == "numeric":
        return D(v)
    if kind == "boolean":
        return B(v)
    if kind == "timestamp":
        return W(v)
    if kind == "text":
        return H(v)
    return none(f"not a kind: {kind!r}"[:200])


def B32(b: object) -> bytes:
    """A 32-byte byte string, one word."""
    if not isinstance(b, bytes) or len(b) != 32:
        none(f"not a 32-byte hash: {b!r}"[:200])
    return b


def L(enc: Callable[[Any], bytes], xs: object) -> bytes:
    """A list: its count, then each element's form."""
    items = array(xs)
    return W(len(items)) + b"".join(map(enc, items))


def P(enc: Callable[[Any], bytes], m: Mapping[str, Any], key: str) -> bytes:
    """An optional entry: ``W(0)``, or ``W(1)`` then its form."""
    return W(1) + enc(m[key]) if key in m else ZERO


def O(m: Mapping[str, Any], key: str, enc: Callable[[Any], bytes] = W) -> bytes:  # noqa: E743
    """An optional value, fixed width: ``W(0) W(0)`` or ``W(1)`` then its word."""
    return W(1) + enc(m[key]) if key in m else ZERO + ZERO


def ranged(n: object, low: int, high: int) -> bytes:
    """``W(n)`` of an integer §4 bounds to ``low..high``; outside it, no form (SPEC §5.6:
    an implementation of ``F`` checks the range §4 fixes of every field it reads)."""
    word = W(n)
    if not low <= int.from_bytes(word, "big") <= high:
        none(f"{n!r} outside {low}..{high}"[:200])
    return word


def Z(m: Mapping[str, Any], key: str, high: int) -> bytes:
    """An optional integer of range ``1..high``: ``W(n)``, or ``W(0)`` when absent."""
    return ranged(m[key], 1, high) if key in m else ZERO


def R(m: Mapping[str, Any], names: Iterable[str]) -> bytes:
    """The rest word of an open map: 0, or SHA-256 of the entries not in ``names``."""
    named = frozenset(names)
    rest = {k: v for k, v in m.items() if k not in named}
    return hashlib.sha256(encode(rest)).digest() if rest else ZERO


def array(x: object) -> list[Any]:
    """``x`` as a list, or no form.  An array the auditor writes item by item
    (:class:`~por.encoding.encoder.Fragments`, the fast path's replayed steps) is
    the list of its items: the values its bytes encode."""
    if type(x) is not list and isinstance(x, Fragments):
        return list(x)
    if not isinstance(x, list):
        none(f"not an array: {type(x).__name__}")
    return x


def amap(x: object) -> Mapping[str, Any]:
    """``x`` as a map, or no form."""
    if not isinstance(x, dict):
        none(f"not a map: {type(x).__name__}")
    return x


def get(m: Mapping[str, Any], key: str) -> Any:
    """A required key of ``m``, or no form."""
    if key not in m:
        none(f"required key {key!r} is absent")
    return m[key]
