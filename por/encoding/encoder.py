"""Encoder for the canonical encoding ``por-cbor/1`` (SPEC §2).

:func:`encode` first checks that a value lies in the profile's data model
(``int`` in [-2^64, 2^64-1], ``bytes``, ``str``, ``list``, ``dict`` with ``str``
keys, ``True``, ``False``; exact types, no subclasses; nesting at most
:data:`~por.encoding.decoder.DEFAULT_MAX_DEPTH`), then serialises it with
``cbor2.dumps(value, canonical=True)``.  For this subset cbor2's canonical
form is the RFC 8949 §4.2.1 core deterministic encoding: shortest heads,
definite lengths, and map keys sorted bytewise by their encodings (with text
keys only, RFC 7049's length-first order is the same order).  The test suite
pins this against an independent reference encoder and known-answer vectors.

Exact types keep the encoding a function of the value alone: a subclass (an
``IntEnum``, a ``str`` subclass with its own ``__eq__``) could encode one way
and compare another, so it is rejected rather than guessed at.

Leaves out: decoding (see :mod:`por.encoding.decoder`) and any schema.
"""

from __future__ import annotations

from typing import Any

import cbor2

from por.encoding.decoder import DEFAULT_MAX_DEPTH
from por.errors import EncodingError

_INT_MIN = -(1 << 64)  # major type 1 with argument 2^64-1 (RFC 8949 §3.1)
_INT_MAX = (1 << 64) - 1  # major type 0 with argument 2^64-1


def encode(value: Any) -> bytes:
    """Return the ``por-cbor/1`` encoding of ``value``; raise ``EncodingError`` if outside it.

    Check ids: ``codec.unsupported_type`` (a type outside the data model),
    ``codec.int_range``, ``codec.key_type`` (a non-``str`` map key),
    ``codec.invalid_utf8`` (a ``str`` with lone surrogates has no UTF-8 form)
    and ``codec.depth`` (deeper than ``DEFAULT_MAX_DEPTH``, so whatever encodes
    also decodes with the default limits; this also stops reference cycles).
    """
    _check(value, 0)
    return cbor2.dumps(value, canonical=True)


def _check(value: Any, depth: int) -> None:
    """Raise unless ``value`` is in the data model.

    Iterative, with scalars checked inline (no call per scalar): this runs on
    every record a bundle commits.  ``depth`` is the depth of ``value`` itself.
    """
    stack: list[tuple[Any, int]] = [(value, depth)]
    pop, push = stack.pop, stack.append
    while stack:
        node, level = pop()
        kind = type(node)
        if kind is str:
            if not node.isascii():
                _check_text(node)
        elif kind is int:
            if not _INT_MIN <= node <= _INT_MAX:
                raise EncodingError(
                    "codec.int_range",
                    "integer outside [-2^64, 2^64-1]",
                    expected="-2^64 <= n <= 2^64-1",
                    actual=node,
                )
        elif kind is bytes or kind is bool:
            continue
        elif kind is list or kind is dict:
            if level >= DEFAULT_MAX_DEPTH:
                raise EncodingError("codec.depth", f"nesting deeper than {DEFAULT_MAX_DEPTH}")
            if kind is dict:
                for key in node:
                    if type(key) is not str:
                        raise EncodingError(
                            "codec.key_type", f"map key of type {type(key).__name__}, not str"
                        )
                    if not key.isascii():
                        _check_text(key)
                items = node.values()
            else:
                items = node
            for item in items:
                item_kind = type(item)
                if item_kind is bytes or item_kind is bool:
                    continue
                if item_kind is str and item.isascii():
                    continue
                if item_kind is int and _INT_MIN <= item <= _INT_MAX:
                    continue
                push((item, level + 1))
        else:
            raise EncodingError(
                "codec.unsupported_type", f"type {kind.__name__} is outside the por-cbor/1 model"
            )


def _check_text(text: str) -> None:
    # Lone surrogates are valid in a Python str but have no UTF-8 encoding.
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise EncodingError(
                "codec.invalid_utf8", "text contains a lone surrogate (no UTF-8 form)"
            ) from None
