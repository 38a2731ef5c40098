"""Encoder for the canonical encoding ``por-cbor/1`` (SPEC §2).

:func:`encode` first checks that a value lies in the profile's data model
(``int`` in [-2^64, 2^64-1], ``bytes``, ``str``, ``list``, ``dict`` with ``str``
keys, ``True``, ``False``; exact types, no subclasses; nesting at most
:data:`~por.encoding.decoder.DEFAULT_MAX_DEPTH`), while rebuilding every map with
its keys in canonical order, then serialises the result with plain
``cbor2.dumps`` (its ``canonical=True`` mode sorts by re-encoding each key and is
about 4x slower).  For this subset cbor2 writes shortest heads and definite
lengths in either mode, so the output is the RFC 8949 §4.2.1 core
deterministic encoding: map keys sorted bytewise by their encodings, which for
text keys is by UTF-8 length, then bytewise (RFC 7049's length-first order).  The test suite
pins this against an independent reference encoder and known-answer vectors.

Exact types keep the encoding a function of the value alone: a subclass (an
``IntEnum``, a ``str`` subclass with its own ``__eq__``) could encode one way
and compare another, so it is rejected rather than guessed at.

Leaves out: decoding (see :mod:`por.encoding.decoder`) and any schema.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
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
    return _encode_at(value, 0)


def _encode_at(value: Any, level: int) -> bytes:
    kind = type(value)
    if kind is dict or kind is list:
        seen = _FRAGMENTS_SEEN[0]
        ordered = _ordered(value, level)
        if _FRAGMENTS_SEEN[0] == seen:
            return cbor2.dumps(ordered)
        # It holds Fragments: written here.  cbor2 must never meet one: on any
        # type it does not know it loads its whole encoder registry (datetime,
        # uuid, email, ...: milliseconds of start-up).
        out = bytearray()
        _assemble(ordered, out)
        return bytes(out)
    if kind is Fragment:
        return value.data  # type: ignore[no-any-return]
    if isinstance(value, Fragments):  # or a subclass (e.g. step ids)
        out = bytearray()
        _assemble(value, out)
        return bytes(out)
    _scalar(value)  # a lone scalar (claim ids hash one per claim): nothing to order
    return cbor2.dumps(value)


class Fragment:
    """The canonical encoding of one value, written by :func:`encode` as it is.

    A large record can then be built from parts encoded one at a time, so its
    parts are never all held as Python values at once (issue 16: a
    ``check_requirement`` step holds one map per evidence item).  Made only by
    :meth:`of`, which encodes the value at the depth it will sit at, so the
    whole stays within ``DEFAULT_MAX_DEPTH`` and is exactly the encoding of the
    same record with the value in place (canonical encoding is compositional:
    RFC 8949 §4.2.1 orders a map by its keys' encodings alone)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    @classmethod
    def of(cls, value: Any, *, depth: int) -> Fragment:
        """``value`` encoded for a place ``depth`` containers deep (0: top level)."""
        return cls(_encode_at(value, depth))


class Fragments:
    """An array written by :func:`encode` one encoded item at a time: ``make()``
    gives the items' values afresh each time (so the record can be encoded
    again, e.g. for a report), each is encoded at ``depth`` (the depth of the
    items) and dropped.  A record holding one is never held as a whole: not as
    Python values, and with :func:`matches` not even as bytes (issue 16: a
    ``check_requirement`` step has one map per evidence item).  ``count`` is
    the number of items ``make()`` gives (the array's head is written first).
    Its items are checked when they are written, after the rest of the value: a
    value with faults both inside and outside it may name the outside one's
    check id first (the auditor puts only valid values in one)."""

    __slots__ = ("count", "depth", "encoded", "make")

    def __init__(self, make: Callable[[], Iterable[Any]], count: int, *, depth: int,
                 encoded: Callable[[], bytes | bytearray] | None = None) -> None:
        self.make = make
        self.count = count
        self.depth = depth
        # ``encoded()``, if given: the items' encodings one after the other, all at
        # once (a caller that can write them quicker than item by item, for items
        # small enough to hold); it must equal encoding each item of ``make()``.
        self.encoded = encoded

    def __iter__(self) -> Iterator[Any]:
        """The items' values, made afresh (a reader such as the trace policy
        walks them one at a time)."""
        return iter(self.make())

    def __len__(self) -> int:
        return self.count

    def __eq__(self, other: object) -> bool:
        """Equal to a list (or Fragments) of equal values, as the list it stands for."""
        if isinstance(other, Fragments | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # stands for a list: not hashable


#: How many Fragments ``_scalar`` has met, ever: :func:`_encode_at` compares it
#: before and after ordering a value.  Another thread's count can only send a
#: value down the (equally exact) assembling path, never hide a Fragment.
_FRAGMENTS_SEEN = [0]


def _assemble(node: Any, out: bytearray) -> None:
    """Write an ordered tree (``_ordered``'s output) that holds Fragments."""
    kind = type(node)
    if kind is dict:
        out += _head(5, len(node))
        for key, item in node.items():
            out += cbor2.dumps(key)
            _assemble(item, out)
    elif kind is list:
        out += _head(4, len(node))
        for item in node:
            _assemble(item, out)
    elif kind is Fragment:
        out += node.data
    elif isinstance(node, Fragments):
        out += _head(4, node.count)
        if node.encoded is not None:
            out += node.encoded()
            return
        written = 0
        depth = node.depth
        for value in node.make():
            out += _encode_at(value, depth)
            written += 1
        if written != node.count:
            raise EncodingError("codec.fragments",
                                f"{written} items written for an array of {node.count}")
    else:
        out += cbor2.dumps(node)


class _Matcher:
    """An ``out`` for :func:`_assemble` that compares what is written with
    ``data[start:stop]`` as it comes, keeping nothing (``bytes.startswith`` at
    an offset: no copy, and not a memoryview's item-by-item comparison)."""

    __slots__ = ("data", "ok", "pos", "stop")

    def __init__(self, data: bytes, start: int, stop: int) -> None:
        self.data = data
        self.pos = start
        self.stop = stop
        self.ok = True

    def __iadd__(self, chunk: bytes) -> _Matcher:
        end = self.pos + len(chunk)
        if self.ok and (end > self.stop or not self.data.startswith(chunk, self.pos)):
            self.ok = False
        self.pos = end
        return self


def matches(value: Any, data: bytes, start: int = 0, stop: int | None = None) -> bool:
    """``encode(value) == data[start:stop]``, without copying ``data`` and, when
    ``value`` holds :class:`Fragments`, without holding the encoding (it is
    compared as it is written)."""
    stop = len(data) if stop is None else stop
    seen = _FRAGMENTS_SEEN[0]
    ordered = _ordered(value, 0)
    if _FRAGMENTS_SEEN[0] == seen:
        encoded = cbor2.dumps(ordered)
        return len(encoded) == stop - start and data.startswith(encoded, start)
    sink = _Matcher(data, start, stop)
    _assemble(ordered, sink)  # type: ignore[arg-type]
    return sink.ok and sink.pos == stop


#: A byte string longer than this is fed to a digest in place by :func:`hash_encoded`.
_FEED_BYTES = 4096


def hash_encoded(value: Any, digest: Any, *, depth: int = 3) -> None:
    """Feed ``encode(value)`` to ``digest`` (a hashlib object) without building it
    whole: maps and lists ``depth`` levels down are written head by head, and a long
    byte string is fed in place, so a proof carrying a forged leaf of tens of MB is
    hashed without a copy of it (SPEC §10.3, §17.8).  The same bytes as ``encode``
    (``tests/unit/encoding/test_hash_encoded.py``)."""
    kind = type(value)
    if depth > 0 and kind is dict:
        order = _key_order(tuple(value))
        digest.update(_head(5, len(order)))
        for key in order:
            digest.update(cbor2.dumps(key))
            hash_encoded(value[key], digest, depth=depth - 1)
    elif depth > 0 and kind is list:
        digest.update(_head(4, len(value)))
        for item in value:
            hash_encoded(item, digest, depth=depth - 1)
    elif kind is bytes and len(value) > _FEED_BYTES:
        digest.update(_head(2, len(value)))
        digest.update(value)
    else:
        digest.update(encode(value))


def _head(major: int, count: int) -> bytes:
    """The shortest head for a container of ``count`` items (RFC 8949 §4.2.1)."""
    if count < 24:
        return bytes([major << 5 | count])
    for ai, width in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if count < 1 << (8 * width):
            return bytes([major << 5 | ai]) + count.to_bytes(width, "big")
    raise EncodingError("codec.int_range", "container too large")


def _ordered(node: Any, level: int) -> Any:
    """``node`` checked against the data model, with every map in canonical key
    order (RFC 8949 §4.2.1), so that cbor2's plain -- and much faster -- mode
    writes the deterministic encoding.  A map whose keys are already in that
    order, and a list, are returned as they are unless something inside them had
    to be rebuilt: an already canonical value is encoded without a copy (issue 16:
    a replayed step's output is not held twice).  ``level`` is the depth of
    ``node``; recursion is bounded by ``DEFAULT_MAX_DEPTH``.
    """
    kind = type(node)
    if kind is dict:
        if level >= DEFAULT_MAX_DEPTH:
            raise EncodingError("codec.depth", f"nesting deeper than {DEFAULT_MAX_DEPTH}")
        level += 1
        keys = tuple(node)
        order = _key_order(keys)
        out: dict[str, Any] | None = None if order == keys else {}
        for index, key in enumerate(order):
            item = node[key]
            item_kind = type(item)
            if item_kind is dict or item_kind is list:
                new = _ordered(item, level)
                if new is not item and out is None:
                    out = {k: node[k] for k in order[:index]}
                item = new
            elif not (item_kind is bytes or item_kind is bool
                      or (item_kind is str and item.isascii())
                      or (item_kind is int and _INT_MIN <= item <= _INT_MAX)):
                _scalar(item)
            if out is not None:
                out[key] = item
        return node if out is None else out
    if kind is list:
        if level >= DEFAULT_MAX_DEPTH:
            raise EncodingError("codec.depth", f"nesting deeper than {DEFAULT_MAX_DEPTH}")
        level += 1
        items: list[Any] | None = None
        for index, entry in enumerate(node):
            item = entry
            item_kind = type(item)
            if item_kind is dict or item_kind is list:
                item = _ordered(item, level)
                if item is not entry and items is None:
                    items = node[:index]
            elif not (item_kind is bytes or item_kind is bool
                      or (item_kind is str and item.isascii())
                      or (item_kind is int and _INT_MIN <= item <= _INT_MAX)):
                _scalar(item)
            if items is not None:
                items.append(item)
        return node if items is None else items
    _scalar(node)
    return node


# Key orders already worked out, by the tuple of a map's keys: records repeat
# their key sets.  Bounded in entries, in keys and in characters per entry (a
# large map is sorted each time): under 2 MB at worst.  An entry is a pure
# function of its key.
_ORDERS: dict[tuple[str, ...], tuple[str, ...]] = {}
_ORDERS_MAX = 1024
_ORDER_KEYS_MAX = 32
_ORDER_CHARS_MAX = 1024


def _key_order(keys: tuple[Any, ...]) -> tuple[str, ...]:
    """The keys of a map (exactly ``str``) in canonical order: by the length
    of their UTF-8 form, then bytewise (UTF-8 preserves code-point order)."""
    for key in keys:
        if type(key) is not str:
            raise EncodingError(
                "codec.key_type", f"map key of type {type(key).__name__}, not str"
            )
    order = _ORDERS.get(keys)
    if order is None:
        order = tuple(sorted(keys, key=_key_rank))
        if (len(_ORDERS) < _ORDERS_MAX and len(keys) <= _ORDER_KEYS_MAX
                and sum(map(len, keys)) <= _ORDER_CHARS_MAX):
            _ORDERS[keys] = order
    return order


def _key_rank(key: str) -> tuple[int, str]:
    if key.isascii():
        return len(key), key
    _check_text(key)
    return len(key.encode("utf-8")), key


def _scalar(node: Any) -> None:
    """Raise unless ``node`` is a scalar of the data model (or a :class:`Fragment`)."""
    kind = type(node)
    if kind is Fragment or isinstance(node, Fragments):
        _FRAGMENTS_SEEN[0] += 1
        return
    if kind is str:
        _check_text(node)
    elif kind is int:
        if not _INT_MIN <= node <= _INT_MAX:
            raise EncodingError(
                "codec.int_range",
                "integer outside [-2^64, 2^64-1]",
                expected="-2^64 <= n <= 2^64-1",
                actual=node,
            )
    elif not (kind is bytes or kind is bool):
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
