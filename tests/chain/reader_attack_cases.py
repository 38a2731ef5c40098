"""Documents for the attack on the on-chain §2 reader (``test_onchain_reader_attack.py``):
por-cbor/1 built byte by byte (so non-canonical, cut and hostile inputs can be spelt),
the Python decoder's answer as (check id, offset), and the case generators.

The offset convention is the chain's (ADR 0015, s35 reader addendum): the start of the
item a fault is in, the top item's end for ``codec.trailing_bytes``, 0 for an accepted or
empty input. Python's messages say the same offset, but for ``input ends inside a head``,
where they name the byte after the initial byte: one less is the item's start.

Every generator is deterministic (fixed lists, or ``random.Random`` with a fixed seed);
each yields ``(document, rest)``: ``rest`` is what followed a cut document, so a reader
placed in calldata before it would find a valid continuation if it read past its end.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from por.encoding import decode
from por.errors import EncodingError

Case = tuple[bytes, bytes]

#: Arguments at every head width's edges, and lengths that overflow or point past the end.
EDGE_ARGS = (0, 1, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63, 2**64 - 1)
#: Bytes that start a fault or a structure, put at boundaries.
STRUCTURAL = (0x00, 0x17, 0x18, 0x1C, 0x1F, 0x3F, 0x40, 0x58, 0x5F, 0x60, 0x77, 0x78,
              0x7F, 0x80, 0x98, 0x9F, 0xA0, 0xB8, 0xBF, 0xC0, 0xD8, 0xE0, 0xF4, 0xF5,
              0xF6, 0xF7, 0xF8, 0xF9, 0xFB, 0xFC, 0xFF, 0xC3, 0xED)
#: UTF-8 sequences: valid ones at each width's edges, and RFC 3629 §4's faults
#: (stray continuation, overlongs, surrogates, above U+10FFFF, cut leads, FF).
UTF8 = (b"\xc3\xa9", b"\xc2\x80", b"\xdf\xbf", b"\xe2\x82\xac", b"\xe0\xa0\x80",
        b"\xed\x9f\xbf", b"\xee\x80\x80", b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf",
        b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf",
        b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf",
        b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xff",
        b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3\x41", b"\xe2\x41\x82")
#: Key text lengths whose encodings are 22-26, 31-33, 63-65 bytes, and at the heads' edges.
KEY_LENGTHS = (21, 22, 23, 24, 25, 29, 30, 31, 32, 61, 62, 63, 255, 256)


def head(major: int, arg: int, ai: int | None = None) -> bytes:
    """A head; ``ai`` 24-27 forces that width (non-shortest when the argument is small)."""
    if ai is None:
        ai = arg if arg < 24 else 24 if arg < 256 else 25 if arg < 65536 else \
            26 if arg < 2**32 else 27
    if ai < 24:
        return bytes([major << 5 | ai])
    return bytes([major << 5 | ai]) + arg.to_bytes(1 << (ai - 24), "big")


def text(raw: bytes) -> bytes:
    return head(3, len(raw)) + raw


def array(items: list[bytes]) -> bytes:
    return head(4, len(items)) + b"".join(items)


def cmap(pairs: list[tuple[bytes, bytes]]) -> bytes:
    """A map of (encoded key, value) pairs in canonical order, one per key."""
    unique = dict(sorted(pairs))
    return head(5, len(unique)) + b"".join(k + v for k, v in unique.items())


def raw_map(pairs: list[tuple[bytes, bytes]]) -> bytes:
    """A map of the pairs as given (any order, repeats kept)."""
    return head(5, len(pairs)) + b"".join(k + v for k, v in pairs)


_OFFSET = re.compile(r"at offset (\d+)$")


def python_fault(data: bytes) -> tuple[str | None, int]:
    """por's decoder: (None, 0) accepted, else (check id, the faulty item's offset)."""
    try:
        decode(data)
    except EncodingError as exc:
        found = _OFFSET.search(exc.message)
        at = int(found.group(1)) if found else 0
        if exc.message.startswith("input ends inside a head"):
            at -= 1  # the message names the argument's first byte
        return exc.check_id, at
    return None, 0


def cuts(doc: bytes, where: list[int]) -> Iterator[Case]:
    """The document, and each cut of it at ``where`` with what followed it."""
    yield doc, b""
    for at in sorted({w for w in where if 0 <= w < len(doc)}):
        yield doc[:at], doc[at:]
    yield doc + b"\x00", b""


def every_cut(doc: bytes) -> Iterator[Case]:
    yield from cuts(doc, list(range(len(doc))))


# --- 1. heads, lengths and counts at every width ---------------------------------------


def _payload(major: int, arg: int, short: bool) -> bytes:
    """What follows a head of ``arg``: all of it, or one byte (one pair's byte) short;
    lengths past 65 536 get 8 bytes (a length pointing past the end)."""
    if arg > 65536:
        return b"a" * 8
    n = arg - short
    if major in (2, 3):
        return (b"ab" * n)[:n] if major == 3 else bytes(range(256)) * (n // 256) + bytes(n % 256)
    if major == 4:
        return b"\x00" * n
    if major == 5:
        return (b"\x60\x00" * arg)[: 2 * arg - short]  # repeated "" keys: duplicate 2nd
    return b""


def head_cases() -> Iterator[Case]:
    """Every major 0-5, argument in EDGE_ARGS, at its shortest width and every wider one,
    with its full payload or one byte short, at the top, as an element, a map value and
    a map key; cut at each head byte and the last byte, and extended by one byte."""
    for major in range(6):
        for arg in EDGE_ARGS:
            widths = [None] + [ai for ai in (24, 25, 26, 27) if arg < 1 << (8 << (ai - 24))]
            for ai in widths:
                for short in (False, True):
                    if short and (arg == 0 or major < 2):
                        continue
                    item = head(major, arg, ai) + _payload(major, arg, short)
                    small = len(item) < 600
                    places = [(b"", b""), (b"\xa1\x61a", b"")]
                    if small:
                        places += [(b"\x82", b"\x00"), (b"\x81\x81", b""),
                                   (b"\xa2", b"\x00\x61z\x00")]
                    for before, after in places:
                        doc = before + item + after
                        h = len(before) + len(head(major, arg, ai))
                        yield from cuts(doc, [*range(len(before), h + 2), len(doc) - 1])


# --- 2. map keys: long shared prefixes, the one-word boundary, UTF-8 inside ---------------


def key_pool() -> list[bytes]:
    """Encoded text keys of KEY_LENGTHS: all 'k', and one byte lower or higher at the
    text's last byte and at text positions 29-33 (encoded 31-35: keys equal in their
    first encoded word, differing only past byte 32); the empty key and 1-byte keys."""
    pool = {text(b""), text(b"k"), text(b"\x7f")}
    for n in KEY_LENGTHS:
        base = b"k" * n
        pool.add(text(base))
        for at in {n - 1, 29, 30, 31, 32, 33}:
            if at < n:
                for c in (b"j", b"l"):
                    pool.add(text(base[:at] + c + base[at + 1:]))
    return sorted(pool)


def key_pair_cases() -> Iterator[Case]:
    """Every ordered pair of pool keys as a two-key map (in order, out of order by one
    byte past the first word, repeated), nested and at the top."""
    pool = key_pool()
    for first in pool:
        for second in pool:
            yield raw_map([(first, b"\xf5"), (second, b"\x17")]), b""
    for first in pool[::7]:
        for second in pool[::5]:
            yield b"\x81" + raw_map([(first, b"\x80"), (second, b"\xa0")]), b""


def key_map_cases() -> Iterator[Case]:
    """The whole pool as one canonical map; each adjacent pair swapped, each key
    repeated, each dropped; keys and values cut at the key boundaries."""
    pool = key_pool()
    pairs = [(k, bytes([i % 24])) for i, k in enumerate(pool)]
    doc = raw_map(pairs)
    starts = []
    at = len(head(5, len(pairs)))
    for k, v in pairs:
        starts += [at, at + 1, at + len(k) - 1, at + len(k)]
        at += len(k) + len(v)
    yield from cuts(doc, starts)
    for i in range(len(pairs) - 1):
        swapped = [*pairs[:i], pairs[i + 1], pairs[i], *pairs[i + 2:]]
        yield raw_map(swapped), b""
        yield raw_map([*pairs[:i + 1], pairs[i], *pairs[i + 1:]]), b""
        yield raw_map(pairs[:i] + pairs[i + 1:]), b""
        yield head(5, len(pairs) - 1) + doc[len(head(5, len(pairs))):], b""


def utf8_key_cases() -> Iterator[Case]:
    """Each UTF8 sequence at text positions 0, 21-34 and at the end of keys of KEY_LENGTHS
    (30-33: at and across the one-word boundary): alone, after a smaller key, before a
    greater one, and out of order (order is decided before UTF-8), and as a value."""
    lower, upper = text(b"a"), text(b"\x7f" * 300)
    for n in (*KEY_LENGTHS, 33, 34, 64):
        for seq in UTF8:
            for at in sorted({0, *range(21, 35), n - len(seq)}):
                if 0 <= at <= n - len(seq):
                    raw = b"k" * at + seq + b"k" * (n - at - len(seq))
                    key = text(raw)
                    yield raw_map([(key, b"\x00")]), b""
                    yield raw_map([(lower, b"\x00"), (key, b"\x01"), (upper, b"\x02")]), b""
                    yield raw_map([(upper, b"\x00"), (key, b"\x01")]), b""
                    yield raw_map([(key, b"\x00"), (key, b"\x01")]), b""
                    yield b"\xa1\x61v" + key, b""


def sentinel_cases() -> Iterator[Case]:
    """Keys at the bottom of the order: the empty key (0x60, just above the reader's
    NO_KEY word 0x5fff..), repeated, after others, bytes 0x5f/0x5e/0x7f/0xff at a key
    position, and empty maps and arrays everywhere."""
    empty, one = text(b""), text(b"\x00")
    keys = [empty, one, text(b"\x00\x00"), text(b"\xff"), b"\x5f", b"\x5e", b"\x7f",
            b"\x7b" + bytes(8), b"\x78\x00", b"\x79\x00\x00", b"\x60\x60"]
    for a in keys:
        yield from every_cut(raw_map([(a, b"\x00")]))
        for b in keys:
            yield raw_map([(a, b"\xa0"), (b, b"\x80")]), b""
            yield raw_map([(empty, b"\xa1" + a + b"\x00"), (one, b"\xa1" + b + b"\x00")]), b""


def utf8_fuzz_cases(seed: int = 3629, count: int = 2500) -> Iterator[Case]:
    """Seeded texts of 1-300 bytes: ASCII runs and code points of every width (half of
    them with one fault from UTF8 somewhere, or cut mid-sequence at the end), as a key
    alone, as a key after a smaller one, and as a value: lead bytes land at every
    offset of the reader's 28- and 32-byte windows."""
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    points = (0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF)
    lower = text(b"")
    for _ in range(count):
        target = rng.choice((rng.randrange(1, 70), rng.randrange(1, 301)))
        raw = b""
        while len(raw) < target:
            pick = rng.randrange(3)
            raw += b"a" * rng.randrange(1, 40) if pick == 0 else \
                chr(rng.choice(points)).encode() * rng.randrange(1, 6)
        if rng.randrange(2):
            at = rng.randrange(len(raw) + 1)
            raw = raw[:at] + rng.choice(UTF8[9:]) + raw[at:]
        raw = raw[:target] if rng.randrange(4) == 0 else raw
        yield raw_map([(text(raw), b"\x00")]), b""
        yield raw_map([(lower, b"\x00"), (text(raw), text(raw))]), b""
        yield array([text(raw), b"\x00"]), b""


# --- 3. nesting near the depth cap (seeded trees) --------------------------------------


def _scalar(rng: random.Random, pool: list[bytes]) -> bytes:
    pick = rng.randrange(8)
    if pick == 0:
        return rng.choice(pool)  # a text value shaped like a key
    if pick == 1:
        return head(2, 32) + rng.randbytes(32)
    if pick == 2:
        return text(rng.choice(UTF8[:9]) * rng.randrange(1, 12))
    if pick == 3:
        return head(rng.randrange(2), rng.choice(EDGE_ARGS))
    return bytes([rng.choice([0x00, 0x17, 0x20, 0x37, 0x40, 0x60, 0x80, 0xA0, 0xF4, 0xF5])])


def nested(rng: random.Random, depth: int, pool: list[bytes]) -> bytes:
    """A container at depth 1 whose deepest container is at ``depth``, with random
    siblings (scalars, pool keys, small containers) at every level."""
    inner = b"\x80" if rng.randrange(2) else b"\xa0"
    for _ in range(depth - 1):
        siblings = [_scalar(rng, pool) for _ in range(rng.randrange(3))]
        if rng.randrange(4) == 0:
            siblings.append(array([_scalar(rng, pool)]))
        if rng.randrange(2):
            keys = rng.sample(pool, len(siblings) + 1)
            inner = cmap(list(zip(keys, [inner, *siblings], strict=True)))
        else:
            spot = rng.randrange(len(siblings) + 1)
            inner = array([*siblings[:spot], inner, *siblings[spot:]])
    return inner


def nesting_cases(seed: int = 35, count: int = 100) -> Iterator[Case]:
    """Seeded trees of depth 30-34 (the cap is 32), whole, extended, and cut at both
    sides of every item's start and end (of the first of each depth: at every byte)."""
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    pool = key_pool()[:40]
    for i in range(count):
        doc = nested(rng, 30 + i % 5, pool)
        if i < 5:
            yield from every_cut(doc)
            continue
        yield from cuts(doc, [p + d for s, e, _ in walk(doc) for p in (s, e) for d in (-1, 0, 1)])


# --- 4. mutations at container and key boundaries --------------------------------------


def _head_len(data: bytes, pos: int) -> tuple[int, int, int]:
    b = data[pos]
    ai = b & 31
    if ai < 24:
        return b >> 5, ai, pos + 1
    width = 1 << (ai - 24)
    return b >> 5, int.from_bytes(data[pos + 1: pos + 1 + width], "big"), pos + 1 + width


def walk(data: bytes) -> list[tuple[int, int, str]]:
    """(start, end, role) of every item of an accepted document; role: top, element,
    key or value (a container's entry comes after its items')."""
    out: list[tuple[int, int, str]] = []

    def item(pos: int, role: str) -> int:
        major, arg, p = _head_len(data, pos)
        if major in (2, 3):
            p += arg
        elif major == 4:
            for _ in range(arg):
                p = item(p, "element")
        elif major == 5:
            for _ in range(arg):
                p = item(item(p, "key"), "value")
        out.append((pos, p, role))
        return p

    item(0, "top")
    return out


def boundary_mutations(doc: bytes, rng: random.Random, per_doc: int) -> Iterator[Case]:
    """``per_doc`` mutations at item boundaries (a key's, an element's, a container's
    start and end): the head replaced by a structural byte, a byte inserted, the head
    or the byte before deleted, a bit flipped, a key pair repeated or swapped with the
    next, a count one more or less, the head spelt wider, a cut with its rest."""
    items = walk(doc)
    pairs = {}  # key start -> (key start, value end)
    ends = {s: e for s, e, _ in items}
    for s, _, role in items:
        if role == "key":
            pairs[s] = (s, ends[ends[s]])
    for _ in range(per_doc):
        start, end, role = rng.choice(items)
        at = rng.choice([start, end]) if end < len(doc) else start
        pick = rng.randrange(10)
        if pick == 0:
            yield doc[:at] + bytes([rng.choice(STRUCTURAL)]) + doc[at + 1:], b""
        elif pick == 1:
            yield doc[:at] + bytes([rng.choice(STRUCTURAL)]) + doc[at:], b""
        elif pick == 2:
            yield doc[:at] + doc[at + 1:], b""
        elif pick == 3 and at:
            yield doc[: at - 1] + doc[at:], b""
        elif pick == 4:
            bit = rng.randrange(8 * max(1, min(3, end - start)))
            i = start + bit // 8
            yield doc[:i] + bytes([doc[i] ^ (0x80 >> bit % 8)]) + doc[i + 1:], b""
        elif pick == 5 and role == "key":
            s, e = pairs[start]
            yield doc[:e] + doc[s:e] + doc[e:], b""
            nxt = pairs.get(e)
            if nxt:
                yield doc[:s] + doc[e: nxt[1]] + doc[s:e] + doc[nxt[1]:], b""
        elif pick == 6:
            major, arg, p = _head_len(doc, start)
            for delta in (-1, 1):
                if major in (4, 5) and arg + delta >= 0:
                    yield doc[:start] + head(major, arg + delta) + doc[p:], b""
        elif pick == 7:
            major, arg, p = _head_len(doc, start)
            if major < 6:
                ai = rng.choice([ai for ai in (24, 25, 26, 27) if arg < 1 << (8 << (ai - 24))])
                yield doc[:start] + head(major, arg, ai) + doc[p:], b""
        else:
            yield doc[:at], doc[at:]
