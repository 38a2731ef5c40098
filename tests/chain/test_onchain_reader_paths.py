"""The §2 reader's fast paths (``PorCborScan``, ADR 0015 s35 addendum) agree with por's
decoder at every edge where an item leaves one: the same ``codec.*`` id or both accept.

``PorCborScan.scan`` reads the common items on paths of their own: a head that is a whole
item (one bit of a mask: 0x00-0x17, 0x20-0x37, 0xf4, 0xf5), a short text (heads
0x60-0x77, ASCII in one test), a byte string with a one-byte length (0x58), a map's short
text key (its encoding in one word, one compare with the previous key). So documents
put items exactly at those edges - heads 0x17/0x18/0x37/0x38/0xf3-0xf7, texts of 22 to
25 and 31 to 33 bytes with a non-ASCII byte at each position, byte strings of 23/24/32
bytes and non-shortest or cut 0x58 heads, keys of 23/24 and 31 to 33 encoded bytes out of
order by one byte or repeated, long keys after short ones and the reverse, nesting at
the depth cap - as values, elements and keys, and every prefix of each document (a cut
at every byte) and each with a byte appended, and compares them with the Python decoder.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from proof_check_support import ProofChecker
from test_onchain_proofs import python_codec

from por.encoding import encode

_CHAIN = ProofChecker()

#: Heads at the edges of the whole-item mask and of the one-byte argument.
HEADS = (0x00, 0x17, 0x18, 0x19, 0x1F, 0x20, 0x37, 0x38, 0x3F, 0x40, 0x57, 0x58, 0x5F,
         0x60, 0x77, 0x78, 0x7F, 0x80, 0x97, 0x98, 0xA0, 0xB7, 0xB8, 0xC0, 0xD8, 0xF3,
         0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFB, 0xFF)
#: Bytes after a head: a shortest and a non-shortest argument, ASCII, a lead, the end.
AFTER = (b"", b"\x00", b"\x17", b"\x18", b"\x20", b"a", b"\xc3\xa9", b"\x80", b"\xff" * 9)


def text(length: int, odd: int | None = None, byte: int = 0x80) -> bytes:
    """A text of ``length`` bytes, ASCII but ``byte`` at ``odd``, with its head."""
    raw = bytearray(b"k" * length)
    if odd is not None:
        raw[odd] = byte
    return _head(3, length) + bytes(raw)


def _head(major: int, arg: int) -> bytes:
    return encode("x" * arg)[: -arg or None] if major == 3 else \
        bytes([(major << 5) | arg]) if arg < 24 else bytes([(major << 5) | 24, arg]) \
        if arg < 256 else bytes([(major << 5) | 25]) + arg.to_bytes(2, "big")


def documents() -> Iterator[bytes]:
    """Every edge document, as an element, a map value and a map key."""
    items = [bytes([h]) + a for h in HEADS for a in AFTER]
    items += [text(n, odd, byte) for n in (0, 1, 22, 23, 24, 25, 31, 32, 33)
              for odd in [None, *range(n)] for byte in (0x80, 0xC3)]
    items += [_head(2, n) + bytes(range(n)) for n in (0, 23, 24, 31, 32, 33, 255)]
    items += [b"\x58\x17" + bytes(23), b"\x58\x20" + bytes(31), b"\x58", b"\x59\x00\x20"]
    for item in items:
        yield item
        yield b"\x82" + item + b"\x01"
        yield b"\x81\xa2\x61a" + item + b"\x61b\x00"
        yield b"\xa2" + item + b"\x00\x61z\x00"  # the item as a key
    # keys around one word (32 encoded bytes) and the short-key path (23/24 bytes)
    keys = [text(n - 1) for n in (23, 24, 25, 31, 32, 33, 34)]
    keys += [k[:-1] + bytes([k[-1] + d]) for k in keys for d in (-1, 1)]
    keys += [k + b"\x00" for k in keys[:7]]
    for first, second in itertools.product(keys, repeat=2):
        yield b"\xa2" + first + b"\xf5" + second + b"\x17"
    # nesting around the depth cap, of arrays and maps
    for depth in (31, 32, 33):
        yield b"\x81" * depth + b"\x00"
        yield b"\xa1\x61a" * depth + b"\x00"
        yield b"\x81\xa1\x61a" * (depth // 2) + b"\x80"


def cases() -> list[bytes]:
    out: list[bytes] = []
    for doc in documents():
        out += [doc[:cut] for cut in range(1, len(doc) + 1)] + [doc + b"\x00"]
    return list(dict.fromkeys(out))


CASES = cases()


@pytest.mark.parametrize("part", range(4))
def test_fast_path_edges(part: int) -> None:
    """Each edge document, cut at every byte and extended by one, gets the Python
    decoder's answer (43 445 documents, in four parts)."""
    for data in CASES[part::4]:
        assert _CHAIN.cbor(data) == python_codec(data), data.hex()


def test_enough_cases() -> None:
    """The edges are reached: accepted documents and each codec fault among the cases."""
    answers = {python_codec(data) for data in CASES}
    assert len(CASES) > 10_000
    assert answers >= {None, "codec.truncated", "codec.trailing_bytes", "codec.reserved",
                       "codec.indefinite", "codec.non_canonical", "codec.key_type",
                       "codec.key_order", "codec.duplicate_key", "codec.float",
                       "codec.simple", "codec.tag", "codec.invalid_utf8", "codec.depth"}
