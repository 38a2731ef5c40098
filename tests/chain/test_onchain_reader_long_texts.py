"""The §2 reader's path for texts of 24 to 255 bytes (head 0x78, ``PorCborScan``, ADR
0015 s35 reader2 addendum) agrees with por's decoder: the same ``codec.*`` id or both
accept.

The path reads the length byte as the 0x58 byte string's path does (missing or cut:
``codec.truncated``; below 24: ``codec.non_canonical``) and tests ASCII in two words for
up to 64 bytes (the first word's bytes past the text and the second word's past it
masked off), calling the word-parallel UTF-8 check only when a byte is not ASCII or the
text is longer. So texts of 24 to 255 bytes around the word edges (24, 31-33, 56, 63-66,
96, 255) carry a non-ASCII byte (a continuation 0x80, a lead 0xC3) at each position, a
valid two-byte code point at the last positions, and are followed by an item whose
bytes are not ASCII (the mask must hide them); each as an element, a map value and a map
key, with a byte appended, and the ASCII ones cut at every byte.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from proof_check_support import ProofChecker
from test_onchain_proofs import python_codec
from test_onchain_reader_paths import text

_CHAIN = ProofChecker()

#: Lengths around the path's edges: its least (24), one word (32), two words (64), its
#: largest (255).
LENGTHS = (24, 31, 32, 33, 56, 63, 64, 65, 66, 96, 255)


def _wrapped(item: bytes) -> Iterator[bytes]:
    yield item
    yield b"\x82" + item + b"\x01"
    yield b"\x82" + item + b"\x62\xc3\xa9"  # non-ASCII bytes right after the text
    yield b"\x81\xa2\x61a" + item + b"\x61b\xf5"
    yield b"\xa2" + item + b"\x00\x61z\x00"  # the item as a key (out of order)
    yield b"\xa2\x61z\x00" + item + b"\x00"  # the item as a key after a short one


def _items() -> Iterator[tuple[bytes, bool]]:
    """(item, whether to cut it at every byte)."""
    for n in LENGTHS:
        yield text(n), True
        for odd in range(n):
            for byte in (0x80, 0xC3, 0xFF):
                yield text(n, odd, byte), False
        raw = b"k" * (n - 2) + "é".encode()  # valid: a 2-byte code point at the end
        yield bytes([0x78, n]) + raw, True
        yield bytes([0x78, n]) + raw[:-1] + b"k", False  # a lead then ASCII
    for n in (0, 1, 23):  # non-shortest lengths, cut or whole
        yield bytes([0x78, n]) + b"k" * n, True


def cases() -> list[bytes]:
    out: list[bytes] = []
    for item, cut in _items():
        for doc in _wrapped(item):
            out += [doc, doc + b"\x00", doc + b"\x80"]
            if cut:
                out += [doc[:c] for c in range(1, len(doc))]
    return list(dict.fromkeys(out))


CASES = cases()


@pytest.mark.parametrize("part", range(3))
def test_long_text_path(part: int) -> None:
    """Each document gets the Python decoder's answer (in three parts)."""
    for data in CASES[part::3]:
        assert _CHAIN.cbor(data) == python_codec(data), data.hex()


def test_enough_long_text_cases() -> None:
    """The path's outcomes are all reached."""
    answers = {python_codec(data) for data in CASES}
    assert len(CASES) > 20_000
    assert answers >= {None, "codec.truncated", "codec.trailing_bytes", "codec.non_canonical",
                       "codec.invalid_utf8", "codec.key_order"}
