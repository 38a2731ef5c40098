"""``PorCborScan.utf8Bad``'s 32-byte windows (s44, agggas) agree with Python (SPEC §2).

The check classifies a whole word a window: lead and continuation lanes by the top bits,
the needs of a lead in lanes 29..31 carried into the next window, and the faults a lead
and its next byte make (C0/C1, E0 below A0, ED above 9F, F0 below 90, F4 above 8F,
F5..FF) by adding a constant to a 7-bit value of each lane (its bits 4..0 and the next
byte's bits 5, 4; the next byte of lane 31 from a second load). The text's last window is
the word with zeros past the end. Random byte strings (edge leads and the bytes after
them often) and random valid text of every width (any code point, range edges often, cut
anywhere), at every length and offset up to two windows and past 256 bytes (the 0x79
head): the chain's answer is Python's decoder's (valid, or ``codec.invalid_utf8``). The
reader counts no code points in a text (only ``PorRecords.isId`` does, unchanged,
``test_onchain_utf8.py``).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from proof_check_support import ProofChecker
from test_onchain_proofs import python_codec
from test_onchain_utf8_windows import BROKEN

#: One EVM for the hypothesis tests (a fixture cannot be shared with @given).
_CHAIN = ProofChecker()

#: Leads at the edges of RFC 3629 §4's ranges and past them, and the bytes that may follow.
LEADS = (0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4,
         0xF5, 0xF7, 0xF8, 0xFF)
NEXT = st.one_of(st.sampled_from((0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC3)),
                 st.integers(0, 0xFF))
#: Pieces of a broken text: any byte, or an edge lead and 1..3 bytes after it.
PIECES = st.one_of(st.integers(0, 0xFF).map(lambda b: bytes([b])),
                   st.tuples(st.sampled_from(LEADS), st.lists(NEXT, min_size=1, max_size=3))
                   .map(lambda t: bytes([t[0], *t[1]])))
#: Code points at the edges of each width's range and of the surrogates.
EDGES = ("\x00", "\x7f", "\x80", "\u07ff", "\u0800", "\u0fff", "\u1000", "\ucfff", "\ud000",
         "\ud7ff", "\ue000", "\uffff", "\U00010000", "\U0003ffff", "\U00040000", "\U000fffff",
         "\U00100000", "\U0010ffff")
#: Valid text of every width (no surrogates: they have no UTF-8), edges often.
TEXT = st.lists(st.one_of(st.characters(codec="utf-8"), st.sampled_from(EDGES)),
                max_size=160).map("".join)


def same(raw: bytes) -> str | None:
    """``[<text of these bytes>, [], {}]``: the bytes after the text look like
    continuations (0x80, 0xa0), so a window that reads past the text's end shows."""
    n = len(raw)
    head = bytes([0x60 + n]) if n < 24 else bytes([0x78, n]) if n < 256 else \
        bytes([0x79]) + n.to_bytes(2, "big")
    data = b"\x83" + head + raw + b"\x80\xa0"
    want = python_codec(data)
    assert _CHAIN.cbor(data) == want, raw.hex()
    return want


@settings(max_examples=600, deadline=None)
@given(st.lists(PIECES, max_size=160), st.integers(0, 40))
def test_random_bytes(pieces: list[bytes], pad: int) -> None:
    """Any bytes, edge leads often, after ``pad`` ASCII bytes (every window offset)."""
    same((b"a" * pad + b"".join(pieces))[:600])


@settings(max_examples=1000, deadline=None)
@given(TEXT, st.integers(0, 40), st.integers(0, 700), st.integers(0, 2),
       st.none() | st.tuples(st.sampled_from(BROKEN), st.integers(0, 700)))
def test_random_valid_text(text: str, pad: int, cut: int, times: int,
                           fault: tuple[bytes, int] | None) -> None:
    """Valid mixed text, repeated up to 3 times (past 256 bytes), whole and cut anywhere,
    and with one broken sequence put anywhere (each of RFC 3629 §4's faults alone)."""
    raw = b"a" * pad + text.encode() * (times + 1)
    if fault is None:
        assert same(raw) is None
    else:
        at = min(fault[1], len(raw))
        same(raw[:at] + fault[0] + raw[at:])
    same(raw[:cut])
