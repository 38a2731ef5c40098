"""The on-chain reader's UTF-8 check and the Id code-point count agree with Python (SPEC
§2, §4; §14.8: ``PorCbor.utf8Bad``, ``PorRecords.isId``), byte sequence by byte sequence.

``utf8Bad`` checks a text a word at a time: a 32-byte window of ASCII is skipped, any
other window of up to 28 bytes is classified lane by lane, and what a lead byte near a
window's end requires is carried into the next window. So every class of byte (each
lead of 0x80..0xff, with each class of next byte) is put at every offset that meets a
window's edge, after ASCII and after multi-byte text (the carry), and at the text's end
(truncated); and generated texts of valid and broken code points are compared as whole
documents. ``isId`` counts code points a word at a time: field keys (an Id) of 127-129
code points mixing 1-, 2-, 3- and 4-byte characters are carried through the kinds that
read them, as consistent traces and as lies.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from proof_check_support import ProofChecker
from test_onchain_attacks_s33 import (
    MARKET,  # noqa: F401 (the `bundle` fixture's market)
    STEPS,
    edited,
)
from test_onchain_attacks_s33_spec import _lie, _renamed, spec_case
from test_onchain_proofs import python_codec

from por.bundle.layout import Bundle

#: One EVM for the hypothesis test (a fixture cannot be shared with @given).
_CHAIN = ProofChecker()
#: Bytes that may follow a lead: ASCII, the edges of the continuation ranges of
#: RFC 3629 §4 (80, 8F, 90, 9F, A0, BF) and a lead.
SECONDS = (0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC3)
#: Offsets of the sequence in its text: both sides of the 28- and 32-byte windows.
OFFSETS = (0, 1, 2, 3, 25, 26, 27, 28, 29, 30, 31, 32, 33, 55, 56, 57)


def document(raw: bytes) -> bytes:
    """``{"t": <text of these bytes>}`` in por-cbor/1, whatever the bytes are."""
    n = len(raw)
    head = bytes([0x60 + n]) if n < 24 else bytes([0x78, n]) if n < 256 else \
        bytes([0x79]) + n.to_bytes(2, "big")
    return b"\xa1\x61t" + head + raw


def same(chain: ProofChecker, raw: bytes) -> None:
    data = document(raw)
    assert chain.cbor(data) == python_codec(data), raw.hex()


@pytest.fixture(scope="module")
def chain() -> ProofChecker:
    return _CHAIN


@pytest.mark.parametrize("prefix", ["a", "\u00e9", "\u20ac", "\U0001f600"])
def test_every_lead_at_every_window_edge(chain: ProofChecker, prefix: str) -> None:
    """Each byte 0x80..0xff, then each class of next byte, then two continuations, at
    offsets on both sides of the windows, after ASCII or multi-byte text; also the
    same sequence cut at the text's end."""
    for lead in range(0x80, 0x100):
        for second in SECONDS:
            sequence = bytes([lead, second, 0x80, 0x80])
            for offset in OFFSETS:
                before = (prefix * offset).encode()[:offset]
                before = before.decode("utf-8", "ignore").encode()
                before += b"a" * (offset - len(before))
                same(chain, before + sequence + b"a" * (60 - offset))
                same(chain, before + sequence[:2])


def test_valid_code_points_at_every_width(chain: ProofChecker) -> None:
    """The boundaries of each width (U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF,
    U+10000, U+10FFFF) are accepted at every offset; the surrogates are not."""
    for point in (0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xD7FF, 0xE000, 0xFFFF, 0x10000,
                  0x3FFFF, 0x40000, 0x10FFFF):
        for offset in range(40):
            raw = b"a" * offset + chr(point).encode() * 9
            assert chain.cbor(document(raw)) is None, (hex(point), offset)
    for offset in range(33):
        same(chain, b"a" * offset + b"\xed\xa0\x80" + b"a" * 30)


pieces = st.one_of(
    st.characters(codec="utf-8").map(lambda c: c.encode()),
    st.sampled_from([b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x9f\x80",
                     b"\xed\xa0\x80", b"\xf0\x8f\x80\x80", b"\xf4\x90\x80\x80", b"\xf5",
                     b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98"]),
    st.binary(min_size=1, max_size=3))


@settings(max_examples=400, deadline=None)
@given(st.lists(pieces, max_size=80), st.integers(0, 40))
def test_generated_texts(parts: list[bytes], pad: int) -> None:
    """Texts of valid characters of every width and broken sequences, after ``pad``
    ASCII bytes, up to about 300 bytes: the chain's answer is Python's."""
    raw = b"a" * pad + b"".join(parts)
    same(_CHAIN, raw[:300])


#: The step leaves (scenario 08) whose kind reads the metric or the field key.
READS = {3, 4, 6}
#: Field keys at the Id limit (128 code points) in each width and mixed: a word of
#: the count's loop holds 32 bytes, so the mixes put the 128th code point on both sides
#: of a word's edge.
KEYS = ("c" * 127 + "\U0001f600", "\U0001f600" * 128, "\U0001f600" * 129,
        "\u00e9" * 100 + "c" * 28, "\u00e9" * 100 + "c" * 29, "\u20ac" * 64 + "c" * 65,
        "c" * 31 + "\u20ac" * 97, "c" * 32 + "\u20ac" * 97)


@pytest.mark.parametrize("key", KEYS, ids=lambda k: f"{len(k)}cp-{len(k.encode())}B")
def test_id_code_points(router: ProofChecker, bundle: Bundle, key: str) -> None:
    """The expected field, the metric and every claim renamed ``key``: every step of
    the trace consistent with it, and a lie in each kind that reads it. A kind that
    does not read the key (contradictions) may meet the documented limit of SPEC §10.5
    step 3 when the key is no Id (``spec_case``)."""
    renamed = _renamed(bundle, key)
    for index in STEPS:
        spec_case(router, f"id {len(key)} {index}", renamed, index, index in READS)
    for index in (3, 4, 6):
        spec_case(router, f"id lie {len(key)} {index}", edited(renamed, index, _lie), index,
                  True)
