"""Strict decoder for the canonical encoding ``por-cbor/1`` (SPEC §2).

Accepts exactly the RFC 8949 §4.2.1 core deterministic encoding of the small
data model: integers (major types 0/1), byte strings, UTF-8 text strings,
definite-length arrays, definite-length maps with text keys, ``true`` and
``false``.  Every other input raises :class:`~por.errors.EncodingError` whose
``check_id`` names the rule broken (the ``codec.*`` ids listed in SPEC §9).

The parser is iterative (an explicit stack, no recursion), reads heads with
``int.from_bytes`` and slices strings out of the input, so it never loops per
byte in Python and cannot raise ``RecursionError``.  Length and count prefixes
are compared with the bytes that remain *before* anything is allocated
(RFC 8949 §10, resource exhaustion).  Rules are checked as they are met, so
the first rule broken in input order is the one reported.

Resources: time is linear in the input (about 0.3 us per item); memory is
the decoded objects, at worst about 72 bytes per input byte (a run of empty
maps, one Python dict each), bounded by ``max_containers`` (default 10^6).

Leaves out: encoding (see :mod:`por.encoding.encoder`), schema validation,
Unicode normalisation (text is opaque, SPEC §2) and streaming input.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from por.encoding.spans import Spans
from por.errors import EncodingError

DEFAULT_MAX_SIZE = 64 * 1024 * 1024
"""Largest input :func:`decode` accepts by default, in bytes (64 MiB)."""

DEFAULT_MAX_DEPTH = 32
"""Deepest container nesting :func:`decode` accepts by default.

A top-level array or map is at depth 1; an array inside it at depth 2, and so
on.  Scalars do not count.  Empty containers count like any other.
"""

DEFAULT_MAX_CONTAINERS = 1_000_000
"""Most arrays and maps one input may hold (``codec.too_large`` beyond).

A run of 1-byte empty maps costs about 72 bytes of memory per input byte; this
cap bounds that amplification (about 100 MB) whatever ``max_size`` is.  No
por record or bundle comes near it: records are decoded one by one.
"""

# Smallest argument that needs each head width; a smaller one is non-shortest
# (RFC 8949 §4.2.1: "preferred serialization" of integers and lengths).
_MIN_1 = 24
_MIN_BY_AI = {25: 1 << 8, 26: 1 << 16, 27: 1 << 32}

# Additional-information values with a meaning of their own (RFC 8949 §3).
_AI_RESERVED_FIRST = 28  # 28-30 are reserved for every major type
#: A run of items complete in their one byte (RFC 8949 §3): integers -24..23,
#: empty byte and text strings, false and true.  Nothing in such a run can fail.
_TINY_RUN = re.compile(rb"[\x00-\x17\x20-\x37\x40\x60\xf4\xf5]*")
#: The value of each such byte (the others are never looked up).
_ONE_BYTE: list[Any] = [
    b if b < 0x18 else -1 - (b - 0x20) if 0x20 <= b < 0x38 else
    {0x40: b"", 0x60: "", 0xF4: False, 0xF5: True}.get(b) for b in range(256)]
#: The same, with empty arrays and maps (80, a0): one fresh container each,
#: counted against ``max_containers`` before any is made.  Used where such an
#: item can break no other rule (depth, spans).
_FLAT_RUN = re.compile(rb"[\x00-\x17\x20-\x37\x40\x60\x80\xa0\xf4\xf5]*")
_EMPTY = {0x80: list, 0xA0: dict}
_AI_INDEFINITE = 31  # indefinite length (majors 2-5) or break (major 7)

_SIMPLE_NAMES = {22: "null", 23: "undefined"}


def _fail(check_id: str, message: str, pos: int) -> EncodingError:
    return EncodingError(check_id, f"{message} at offset {pos}")


def decode(
    data: bytes,
    *,
    max_size: int = DEFAULT_MAX_SIZE,
    max_depth: int = DEFAULT_MAX_DEPTH,
    max_containers: int = DEFAULT_MAX_CONTAINERS,
    max_items: int | None = None,
    slices_at: int = -1,
    map_slices_at: int = -1,
) -> Any:
    """Decode one complete ``por-cbor/1`` item from ``data``; raise on any deviation.

    Returns ``int``, ``bytes``, ``str``, ``bool``, ``list`` or ``dict`` (keys in
    canonical order).  ``bytearray`` and ``memoryview`` input are copied to
    ``bytes`` first; any other type is a programming error (``TypeError``).

    ``max_items`` (default: no cap) bounds the items all arrays and maps hold
    together (a map entry counts as two); it is charged when a container's head
    is read, before any of its items is parsed (``codec.too_large``).  A caller
    whose format bounds its counts (a bundle, SPEC §17) passes that bound.

    ``slices_at`` (default -1: never): an *array* whose items are at nesting
    depth ``slices_at`` is returned as a :class:`~por.encoding.spans.Spans`, read
    like a list whose byte strings are ``slice(start, stop)`` into ``data``
    (kept as two machine ints each, after the same checks; its other items, if
    any, as decoded).  A verifier passes 2 for a bundle, whose leaf records are
    such items (SPEC §5.1), and hashes and decodes each leaf in place, so the
    bundle's bytes are held once and a leaf costs 16 bytes until it is read.
    ``map_slices_at`` likewise for a byte string that is a *map value* at that
    depth (1 for a record's own fields: an evidence body is read in place).
    """
    if not isinstance(data, bytes):
        if isinstance(data, bytearray | memoryview):
            data = bytes(data)
        else:
            raise TypeError(f"decode() takes bytes, not {type(data).__name__}")
    size = len(data)
    if size == 0:
        raise EncodingError("codec.empty", "no input")
    if size > max_size:
        raise EncodingError(
            "codec.too_large",
            "input is larger than the size cap",
            expected=f"<= {max_size} bytes",
            actual=f"{size} bytes",
        )
    value, pos = _parse(data, max_depth, max_containers,
                        sys.maxsize if max_items is None else max_items,
                        slices_at=slices_at, map_slices_at=map_slices_at)
    if pos != size:
        raise EncodingError(
            "codec.trailing_bytes",
            f"{size - pos} bytes after the top-level item at offset {pos}",
        )
    return value


def _parse(data: bytes, max_depth: int, max_containers: int,
           max_items: int, *, slices_at: int, map_slices_at: int) -> tuple[Any, int]:
    """Parse the item at offset 0; return it and the offset just after it.

    State of the innermost open container: ``c`` (the list or dict being
    filled), ``rem`` (items or pairs still to read), ``is_map``, ``need_key``
    (the next item is a map key), ``key`` (the key whose value is being read)
    and ``prev`` (the encoding of the previous key, for the order check).
    Enclosing containers' states wait on ``stack``, so ``len(stack)`` is the
    current depth.  The top-level item is read into a one-slot list ``root``.
    """
    end = len(data)
    pos = 0
    stack: list[tuple[Any, int, bool, str, bytes]] = []
    root: list[Any] = []
    c: Any = root
    rem = 1
    is_map = False
    need_key = False
    key = ""
    prev = b""
    keys: dict[bytes, str] = {}
    containers = 0
    value: Any
    while True:
        if pos >= end:
            raise _fail("codec.truncated", "input ends where an item should start", pos)
        start = pos
        ib = data[pos]
        pos += 1
        if need_key:
            if 0x60 <= ib <= 0x77:
                # Fast path: a text key shorter than 24 bytes (one-byte head).
                pos += ib - 0x60
                if pos > end:
                    raise _fail("codec.truncated", "text string exceeds input", start)
                # RFC 8949 §4.2.1: keys sorted bytewise by their encodings.
                # Encodings are self-delimiting: none is a prefix of another.
                enc = data[start:pos]
                if enc <= prev:
                    raise _key_error(enc, prev, start)
                # Records repeat their keys: decode each distinct key once.
                cached = keys.get(enc)
                if cached is None:
                    try:
                        cached = keys[enc] = data[start + 1 : pos].decode("utf-8")
                    except UnicodeDecodeError as exc:
                        raise _fail(
                            "codec.invalid_utf8", f"invalid UTF-8 ({exc.reason})", start
                        ) from None
                key = cached
                prev = enc
                need_key = False
                continue
            if ib >> 5 != 3 and ib & 0x1F < _AI_RESERVED_FIRST:
                raise _fail("codec.key_type", f"map key of major type {ib >> 5}, not text", start)
        if ib < 0x18:
            value = ib  # fast path: unsigned integer 0..23
        elif 0x60 <= ib <= 0x77:
            pos += ib - 0x60  # fast path: text shorter than 24 bytes
            if pos > end:
                raise _fail("codec.truncated", "text string exceeds input", start)
            try:
                value = data[start + 1 : pos].decode("utf-8")
            except UnicodeDecodeError as exc:
                raise _fail("codec.invalid_utf8", f"invalid UTF-8 ({exc.reason})", start) from None
        elif ib == 0xF5 or ib == 0xF4:  # noqa: PLR1714 (fast path: true, false)
            value = ib == 0xF5
        else:
            # -- 1. Read the head (RFC 8949 §3): initial byte, then argument.
            major = ib >> 5
            ai = ib & 0x1F
            if ai < 24:
                arg = ai
            elif ai == 24:
                if major == 7:
                    # f8 xx: a simple value in the extension byte (RFC 8949 §3.3);
                    # the profile's only simple values, false/true, are f4/f5.
                    raise _fail("codec.simple", "one-byte simple value (f8 xx)", start)
                if major == 6:
                    raise _fail("codec.tag", "tag", start)
                if pos >= end:
                    raise _fail("codec.truncated", "input ends inside a head", pos)
                arg = data[pos]
                pos += 1
                if arg < _MIN_1:
                    raise _fail("codec.non_canonical", "non-shortest head (1-byte argument)", start)
            elif ai < _AI_RESERVED_FIRST:
                if major == 7:
                    raise _fail("codec.float", "floating-point value", start)
                if major == 6:
                    raise _fail("codec.tag", "tag", start)
                width = 1 << (ai - 24)  # 25 -> 2, 26 -> 4, 27 -> 8
                if width > end - pos:
                    raise _fail("codec.truncated", "input ends inside a head", pos)
                arg = int.from_bytes(data[pos : pos + width], "big")
                pos += width
                if arg < _MIN_BY_AI[ai]:
                    raise _fail(
                        "codec.non_canonical", f"non-shortest head ({width}-byte argument)", start
                    )
            elif ai == _AI_INDEFINITE:
                if 2 <= major <= 5:
                    raise _fail("codec.indefinite", "indefinite-length item", start)
                if major == 7:
                    raise _fail("codec.reserved", "break (ff) outside an indefinite item", start)
                raise _fail("codec.reserved", f"additional info 31 with major type {major}", start)
            else:
                raise _fail("codec.reserved", f"reserved additional info {ai}", start)

            # -- 2. Build the value, or open a container and read its first item.
            if major == 3:
                if arg > end - pos:
                    raise _fail("codec.truncated", f"text of {arg} bytes exceeds input", start)
                if is_map and need_key and data[start : pos + arg] <= prev:
                    # SPEC §2: a key's order and duplicates before its UTF-8 (as the
                    # one-byte-head keys above), so a long key gives the same id.
                    raise _key_error(data[start : pos + arg], prev, start)
                try:
                    value = data[pos : pos + arg].decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise _fail(
                        "codec.invalid_utf8", f"invalid UTF-8 ({exc.reason})", start
                    ) from None
                pos += arg
            elif major == 0:
                value = arg
            elif major == 2:
                if arg > end - pos:
                    raise _fail("codec.truncated", f"bytes of {arg} bytes exceed input", start)
                if len(stack) != (map_slices_at if is_map else slices_at):
                    value = data[pos : pos + arg]
                    pos += arg
                elif type(c) is Spans:
                    # A leaf of a Spans array: two ints, no object (issue 16).
                    # It is attached here; when it completes the array, the
                    # array is closed here too and attached to its parent by
                    # step 3 below, as the closing loop would (need_key is False:
                    # it was an array's state).
                    c.add(pos, pos + arg)
                    pos += arg
                    rem -= 1
                    if rem:
                        continue
                    value = c
                    c, rem, is_map, key, prev = stack.pop()
                else:  # a map value at map_slices_at (or the top level, at 0)
                    value = slice(pos, pos + arg)
                    pos += arg
            elif major == 5 or major == 4:  # noqa: PLR1714 (two named majors read clearer)
                if len(stack) >= max_depth:
                    raise _fail("codec.depth", f"nesting deeper than {max_depth}", start)
                # Containers are what a small input can multiply in memory
                # (one Python object per 1-byte empty map): bound their number.
                containers += 1
                if containers > max_containers:
                    raise _fail("codec.too_large", f"more than {max_containers} containers",
                                start)
                # Every item takes at least one byte: a count larger than the
                # bytes left cannot be honest; fail before allocating anything.
                if (arg << 1 if major == 5 else arg) > end - pos:
                    raise _fail("codec.truncated", f"count {arg} exceeds the input left", start)
                max_items -= arg << 1 if major == 5 else arg
                if max_items < 0:
                    raise _fail("codec.too_large", "more items than the format allows", start)
                # An array opening with items of one byte each (nothing in them
                # can fail: _TINY_RUN) takes them in one step (SPEC §17.8: a
                # hostile array of millions costs what its bytes cost).  Not at
                # slices_at, where byte strings are spans.
                # Empty containers join the run where their own checks cannot
                # fail (depth; no Spans at slices_at): their number is charged
                # first, and refused at the container that passes the cap.
                run = made = 0
                if major == 4 and arg and len(stack) + 1 != slices_at:
                    flat = len(stack) + 1 < max_depth and len(stack) + 2 != slices_at
                    if _ONE_BYTE[data[pos]] is not None or (flat and data[pos] in _EMPTY):
                        run = ((_FLAT_RUN if flat else _TINY_RUN).match(data, pos, pos + arg)
                               .end() - pos)  # type: ignore[union-attr]
                        if flat:
                            made = data.count(0x80, pos, pos + run) + data.count(
                                0xA0, pos, pos + run)
                            if containers + made > max_containers:
                                at = _nth_container(data, pos, pos + run,
                                                    max_containers - containers + 1)
                                raise _fail("codec.too_large",
                                            f"more than {max_containers} containers", at)
                            containers += made
                if run and run == arg:
                    value = _run_items(data, pos, pos + arg, made)
                    pos += arg
                elif arg:
                    stack.append((c, rem, is_map, key, prev))
                    rem = arg - run
                    prev = b""
                    if major == 5:
                        c = {}
                        is_map = need_key = True
                    else:
                        c = Spans() if len(stack) == slices_at else _run_items(
                            data, pos, pos + run, made)
                        pos += run
                        is_map = need_key = False
                    continue
                else:  # An empty array whose items would be at slices_at: an empty Spans.
                    value = {} if major == 5 else Spans() if len(stack) + 1 == slices_at else []
            elif major == 1:
                value = -1 - arg
            elif major == 6:
                raise _fail("codec.tag", "tag", start)
            else:
                # Major 7 with ai < 24: false/true (f4/f5) took the fast path
                # above, so this is null, undefined or an unassigned simple value.
                name = _SIMPLE_NAMES.get(ai, f"simple({ai})")
                raise _fail("codec.simple", f"simple value {name}", start)

        # -- 3. Attach the value; close every container it completes.
        if is_map:
            if need_key:  # a key with a head longer than one byte
                enc = data[start:pos]
                if enc <= prev:
                    raise _key_error(enc, prev, start)
                prev = enc
                key = value
                need_key = False
                continue
            c[key] = value
            need_key = True
        else:
            c.append(value)
        rem -= 1
        while not rem:
            if not stack:
                return root[0], pos
            value = c
            c, rem, is_map, key, prev = stack.pop()
            if is_map:
                c[key] = value
            else:
                c.append(value)
            need_key = is_map
            rem -= 1


def _run_items(data: bytes, start: int, stop: int, made: int) -> list[Any]:
    """The items of a run of one-byte items (``_TINY_RUN``, or ``_FLAT_RUN``
    holding ``made`` empty containers, each a new list or dict)."""
    if not made:
        return list(map(_ONE_BYTE.__getitem__, data[start:stop]))
    one, empty = _ONE_BYTE, _EMPTY
    return [empty[b]() if b in empty else one[b] for b in data[start:stop]]


def _nth_container(data: bytes, start: int, stop: int, n: int) -> int:
    """Offset of the ``n``-th (from 1) empty container (80, a0) in a run that
    holds at least ``n``: a binary search on counts, O(run x log run) in C."""

    def count(upto: int) -> int:
        return data.count(0x80, start, upto) + data.count(0xA0, start, upto)

    lo, hi = start, stop  # count(lo) < n <= count(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if count(mid) >= n:
            hi = mid
        else:
            lo = mid
    return hi - 1


def _key_error(enc: bytes, prev: bytes, pos: int) -> EncodingError:
    if enc == prev:
        return _fail("codec.duplicate_key", f"duplicate map key {_show(enc)}", pos)
    return _fail("codec.key_order", f"map key {_show(enc)} not after {_show(prev)}", pos)


def _show(encoded_key: bytes) -> str:
    """An encoded key as hex, cut short: keys can be megabytes long."""
    if len(encoded_key) > 40:
        return encoded_key[:40].hex() + "..."
    return encoded_key.hex()
