"""``PorCborScan.utf8Bad``'s windows of 29 bytes (s42, utf8gas) agree with Python (SPEC §2).

s42 cut the classification's window from 28 bytes to 29 (the needs of a lead in lanes
26..28 carried in lanes 29..31) and took the ASCII skip only for a whole word (a tail of
30 or 31 ASCII bytes is classified). So each class of lead byte, with each class of next
byte, is put at every offset 0..95 of a text (three windows of 29 after ASCII, three
32-byte skips, and windows that start mid-character after multi-byte text), whole and
cut at the text's end; an ASCII run ends at every offset before a multi-byte character;
and seeded texts of 24..2 000 bytes (the 0x78 path and the general path of a 2-byte
length) mix characters of every width with overlongs, surrogates, code points above
U+10FFFF, stray continuations and cut sequences. The chain's answer (``checkCbor``, the
committed build) is Python's decoder's on every one. The Id code-point count
(``PorRecords.isId``, 127/128/129 code points of 1-4 bytes) is unchanged and stays
covered by ``test_onchain_utf8.py``. s44 (agggas) made the windows 32 bytes (lanes 32..34
carried, the next byte of lane 31 from a second load): offsets 0..95 are three of them.
"""

from __future__ import annotations

import random

import pytest
from proof_check_support import ProofChecker
from test_onchain_proofs import python_codec
from test_onchain_utf8 import SECONDS, document

#: Leads of every class: stray continuations, C0/C1, the 2-byte leads' edges, E0, ED
#: and the other 3-byte leads, F0, F4 and the other 4-byte leads, F5..FF.
LEADS = (0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0,
         0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFF)
#: Prefixes whose windows start on a character's edge (ASCII) or in its middle.
PREFIXES = ("a", "\u00e9", "\U0001f600")
#: Broken pieces a generated text may hold.
BROKEN = (b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x9f\x80", b"\xed\xa0\x80",
          b"\xed\xbf\xbf", b"\xf0\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
          b"\xf8", b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3\xc3")
#: Valid characters of every width and at each width's edges.
VALID = ("a", "\x7f", "\x80", "\u00e9", "\u07ff", "\u0800", "\u20ac", "\ud7ff", "\ue000",
         "\uffff", "\U00010000", "\U0001f600", "\U0010ffff")

_CHAIN = ProofChecker()


@pytest.fixture(scope="module")
def chain() -> ProofChecker:
    return _CHAIN


def same(chain: ProofChecker, raw: bytes) -> str | None:
    data = document(raw)
    want = python_codec(data)
    assert chain.cbor(data) == want, raw.hex()
    return want


def before(prefix: str, offset: int) -> bytes:
    """``offset`` bytes of ``prefix`` repeated, cut to whole characters, ASCII after."""
    head = (prefix * offset).encode()[:offset].decode("utf-8", "ignore").encode()
    return head + b"a" * (offset - len(head))


@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_lead_at_every_offset(chain: ProofChecker, prefix: str) -> None:
    answers = {None: 0, "codec.invalid_utf8": 0}
    for offset in range(96):
        head = before(prefix, offset)
        for lead in LEADS:
            for second in SECONDS:
                sequence = bytes([lead, second, 0x80, 0x80])
                answers[same(chain, head + sequence + b"a" * (100 - offset))] += 1
                for cut in (1, 2, 3):
                    same(chain, head + sequence[:cut])
    assert min(answers.values()) > 1_500, answers


@pytest.mark.parametrize("char", ["\u00e9", "\u20ac", "\U0001f600", "\udfff"])
def test_ascii_runs_ending_everywhere(chain: ProofChecker, char: str) -> None:
    """An ASCII run of 0..95 bytes, then a character (or a surrogate's bytes), then ASCII
    of 0..40 bytes: the whole-word skip, the classified tail of 30/31 bytes, the carry."""
    raw = char.encode("utf-8", "surrogatepass")
    for run in range(96):
        for after in (0, 1, 2, 27, 28, 29, 30, 31, 32, 40):
            want = same(chain, b"a" * run + raw + b"a" * after)
            assert (want is None) == (char != "\udfff")


def test_seeded_long_texts(chain: ProofChecker) -> None:
    """Texts of 24..2 000 bytes of valid characters, each with at most one broken piece."""
    rng = random.Random(4242)  # noqa: S311 (seeded test data)
    answers = {None: 0, "codec.invalid_utf8": 0}
    for _ in range(1_500):
        parts = [rng.choice(VALID).encode() * rng.randint(1, 40)
                 for _ in range(rng.randint(1, 30))]
        if rng.random() < 0.6:
            parts.insert(rng.randint(0, len(parts)), rng.choice(BROKEN))
        raw = b"".join(parts)[: rng.randint(24, 2_000)]
        if len(raw) >= 24:
            answers[same(chain, raw)] += 1
    assert min(answers.values()) > 300, answers
