"""The s37 reader's top-level record at its edges (ADR 0015, s37 scan6 addendum), chain
against Python on the check id and the offset.

scan6 opens a top-level map of 1 to 23 entries before the loop (a head 0xa1-0xb7 whose
items fit the bytes left), with ``prevKey`` all ones and the real previous key at
``TOP_PREV``; every other map (24 entries or more, non-shortest heads, counts past the
bytes left, nested maps) is opened by the loop. No head is tested against the end of the
data before it is read. The documents here sit on those edges:

* top-level maps of 1, 2, 22, 23, 24 and 25 entries (keys of 1-33 encoded bytes, so
  short, 0x78 and long keys; values of every head width, nested maps whose keys sort
  above, equal to and below the next top-level key, arrays of maps, empty containers);
* each cut at every byte (what followed it placed after it in calldata, so a reader
  that read a head past the end would find a valid one), with a trailing byte, the
  first and last pair swapped, the first and last key repeated, the count one more and
  one less at the shortest head and at 0xb8 (23 -> 24 changes the head's width), and
  the count at 0xb8 0x17 (non-shortest: not a record);
* a record's value nested to the depth cap (32) and one past it;
* the count of a record and of a container inside it exceeding the bytes left by one.

Every document is read by the committed ``PorProofCheck.checkCbor`` (plain and at a
hostile calldata place, as test_onchain_reader_attack does) and by ``PorCborTop.checkTop``
compiled from the committed sources (its offsets of an accepted record's items too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache

import pytest
from eth_abi import decode as abi_decode
from proof_check_support import BY_HASH
from reader_attack_cases import Case, every_cut, head, python_fault, raw_map, text
from scratch_harness import SOLC, raw
from test_onchain_reader_attack import JUNK, Reader
from test_onchain_reader_top import chain, harness, python

from por.encoding import decode
from por.signing.eip712 import keccak256

Pairs = list[tuple[bytes, bytes]]

#: Keys of 1-33 encoded bytes: short heads, 0x78 heads (24-32 bytes: RARE_KEY), long.
KEY_LENGTHS = (0, 1, 5, 21, 22, 23, 24, 30, 31, 32)
#: Values at every head width and container shape (each before a key: a cut inside it
#: leaves the next key as what a reader past the end would read).
VALUES = (b"\x00", b"\x17", head(0, 24), head(0, 256), head(0, 2**16), head(0, 2**32),
          text(b"v"), text(b"w" * 23), text(b"x" * 24), text(b"y" * 40),
          head(2, 32) + bytes(range(32)), b"\xa0", b"\x80", b"\xf5", b"\xf4",
          text("\u00e9t\u00e9".encode()))


def _keys(n: int, stem: str) -> list[bytes]:
    """``n`` distinct keys of mixed lengths, sorted by encoding (the canonical order)."""
    keys = set()
    for i in range(n):
        raw = (chr(0x61 + i % 26) + chr(0x61 + i // 26) + stem + "k" * 40).encode()
        cut = max(2, KEY_LENGTHS[i % len(KEY_LENGTHS)])
        keys.add(text(raw[:cut].decode(errors="ignore").encode()))
    assert len(keys) == n
    return sorted(keys)


def _value(i: int, keys: list[bytes]) -> bytes:
    """The ``i``-th value: a scalar, or a map whose keys sit around the next top-level
    key (above it, equal to it, below it), or an array of such maps."""
    nxt = keys[i + 1] if i + 1 < len(keys) else text(b"~")
    nested = [raw_map([(text(b"\x7e" * 3), b"\x01")]), raw_map([(nxt, b"\x02")]),
              raw_map([(text(b""), b"\x00"), (keys[0], b"\x03")])]
    if i % 4 == 1:
        return nested[(i // 4) % 3]
    if i % 4 == 3:
        return head(4, 2) + nested[(i // 4) % 3] + b"\xa0"
    return VALUES[i % len(VALUES)]


def record(n: int, stem: str = "") -> Pairs:
    keys = _keys(n, stem)
    return [(k, _value(i, keys)) for i, k in enumerate(keys)]


def join(count: bytes, pairs: Pairs) -> bytes:
    return count + b"".join(k + v for k, v in pairs)


def record_cases(n: int) -> Iterator[Case]:
    """A record of ``n`` entries: its cuts and its edits at the first and last key."""
    for stem in ("", "\u00e9"):
        pairs = record(n, stem)
        doc = join(head(5, n), pairs)
        yield from every_cut(doc)
        yield join(head(5, n, 24), pairs), b""  # 0xb8 (non-shortest below 24)
        yield join(head(5, n + 1), pairs), b"\x60\x00"
        yield join(head(5, n + 1, 24), pairs), b""
        yield join(head(5, n - 1), pairs), b""
        yield join(head(5, n - 1), pairs[:-1]), pairs[-1][0] + pairs[-1][1]
        if n > 1:
            for i in (0, n - 2):
                a, b = pairs[i], pairs[i + 1]
                yield join(head(5, n), [*pairs[:i], b, a, *pairs[i + 2:]]), b""
                yield join(head(5, n), [*pairs[:i], a, (a[0], b[1]), *pairs[i + 2:]]), b""
                yield join(head(5, n), [*pairs[:i + 1], (a[0], b[1]), *pairs[i + 2:]]), b""
        # the first key below / equal to nothing kept: the empty key first, then repeated
        yield join(head(5, n + 1), [(text(b""), b"\x00"), *pairs]), b""
        yield join(head(5, n + 1), [*pairs[:1], (text(b""), b"\x00"), *pairs[1:]]), b""


def depth_cases() -> Iterator[Case]:
    """A record's value nested to depth 32 (the cap, counting the record) and 33."""
    for levels in (30, 31, 32):
        for shape in (b"\x81", b"\xa1\x61q"):
            inner = b"\x00"
            for _ in range(levels):
                inner = shape + inner
            for n in (1, 23):
                pairs = record(n)
                pairs[n // 2] = (pairs[n // 2][0], inner)
                yield from every_cut(join(head(5, n), pairs))
            yield inner, b""


def count_cases() -> Iterator[Case]:
    """A record's count, and a container's inside it, past the bytes left by one (and
    exactly at them): the peel's bound and the loop's."""
    for n in (1, 2, 22, 23):
        pairs = [(text(b""), b"\x00")] if n == 1 else record(n)
        body = join(b"", pairs)
        yield head(5, n) + body, b""
        yield head(5, n) + body[:-1], body[-1:]
        yield head(5, n + 1) + body + b"\x60", b"\x00"
    for major, filler in ((4, b"\x00"), (5, b"")):
        for m in (1, 2, 23, 24):
            items = bytes(m if major == 4 else 0)
            if major == 5:
                items = b"".join(text(bytes([0x61 + i // 26, 0x61 + i % 26])) + b"\x00"
                                 for i in range(m))
            inner = head(major, m) + items
            for n in (1, 23):
                pairs = record(n)
                last = (pairs[-1][0], inner)
                yield join(head(5, n), [*pairs[:-1], last]), filler
                cut = join(head(5, n), [*pairs[:-1], last])[:-1]
                yield cut, b"\x00\x00"


def _top_hostile(data: bytes, pad: int, after: bytes) -> tuple[str | None, int]:
    """checkTop's (check id, offset) for ``data`` at calldata offset 68 + ``pad``."""
    body = ((0x20 + pad).to_bytes(32, "big") + b"\xa5" * pad
            + len(data).to_bytes(32, "big") + data + after + b"\x00" * 64)
    call = keccak256(b"checkTop(bytes)")[:4] + body
    out = raw(harness(), call)
    err, items, _top, _bytes = abi_decode(["bytes32", "uint256", "uint256[]", "bool"], out)
    return (None if err == bytes(32) else BY_HASH[err]), (0 if err == bytes(32) else items)


@cache
def _reader() -> Reader:
    return Reader()


def run(cases: Iterator[Case], least: int, ids: set[str | None]) -> None:
    """Every case: checkCbor plain and hostile, and checkTop hostile, against Python;
    an accepted document's checkTop answer (offsets, items) against Python's too."""
    reader = _reader()
    answers: Counter[str | None] = Counter()
    seen = list(cases)
    bad = reader.disagreements(seen, answers)
    for i, (data, rest) in enumerate(seen):
        want = python_fault(data)
        got = _top_hostile(data, i % 32, rest + JUNK[i % len(JUNK)])
        if got != want:
            bad.append(f"checkTop {data.hex()}: python {want}, chain {got}")
        elif want[0] is None and chain(data) != python(decode(data)):
            bad.append(f"checkTop offsets {data.hex()}: {chain(data)}")
    assert not bad, "\n".join(bad[:20])
    assert sum(answers.values()) >= least, answers
    assert ids <= set(answers), answers


@SOLC
@pytest.mark.parametrize("n", [1, 2, 22, 23, 24, 25])
def test_records_cut_and_edited(n: int) -> None:
    ids = {None, "codec.truncated", "codec.trailing_bytes", "codec.key_order"}
    if n > 1:
        ids.add("codec.duplicate_key")
    if n < 24:
        ids.add("codec.non_canonical")
    run(record_cases(n), 20 * n, ids)


@SOLC
def test_record_values_at_the_depth_cap() -> None:
    run(depth_cases(), 300, {None, "codec.depth", "codec.truncated"})


@SOLC
def test_counts_past_the_bytes_left() -> None:
    run(count_cases(), 40, {None, "codec.truncated"})
