"""Text strings in por.encoding: strict UTF-8, opaque (never normalised) text.

Python's strict ``utf-8`` codec rejects overlong forms, encoded surrogates,
code points above U+10FFFF and truncated sequences (RFC 3629 §3); these tests
pin that behaviour for both text values and map keys, on the fast path
(length < 24) and the long path.
"""

from __future__ import annotations

import unicodedata

import pytest
from codec_helpers import generator

from por.encoding import decode, encode
from por.errors import EncodingError

INVALID = {
    "overlong-nul": "c080", "overlong-2": "c1bf", "overlong-3": "e0808f", "overlong-4": "f08fbfbf",
    "surrogate-d800": "eda080", "surrogate-dfff": "edbfbf", "cesu-pair": "eda0bdedb2a9",
    "above-10ffff": "f4908080", "f5-lead": "f5808080", "five-byte": "f888808080",
    "six-byte": "fc8480808080", "ff": "ff", "fe": "fe", "lone-continuation": "bf",
    "truncated-2": "c3", "truncated-3": "e282", "truncated-4": "f09f98",
    "truncated-mid-text": "61c362",
}  # fmt: skip
VALID = ["\x00", "\x7f", "\x80", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\ufeff", "\ufffd",
         "\uffff", "\U00010000", "\U0010ffff", "\u202e\u2066\u200f", "a\x00b"]  # fmt: skip


def _text(raw: bytes, *, long_head: bool) -> bytes:
    pad = b"x" * 24 if long_head else b""
    return generator().ref_head(3, len(pad + raw)) + pad + raw


@pytest.mark.parametrize("raw_hex", INVALID.values(), ids=INVALID.keys())
@pytest.mark.parametrize("long_head", [False, True], ids=["short", "long"])
def test_invalid_utf8_rejected_in_values_and_keys(raw_hex: str, long_head: bool) -> None:
    text = _text(bytes.fromhex(raw_hex), long_head=long_head)
    for data in (text, b"\x81" + text, b"\xa1" + text + b"\x00", b"\xa1\x61\x61" + text):
        with pytest.raises(EncodingError) as info:
            decode(data)
        assert info.value.check_id == "codec.invalid_utf8"


@pytest.mark.parametrize("text", VALID, ids=ascii)
def test_valid_code_points_round_trip_unchanged(text: str) -> None:
    data = encode(text)
    assert data[1:] == text.encode("utf-8")
    assert decode(data) == text
    assert decode(encode({text: text})) == {text: text}


def test_bom_is_kept_and_text_is_not_normalised() -> None:
    assert decode(bytes.fromhex("64efbbbf78")) == "\ufeffx"
    nfc = unicodedata.normalize("NFC", "Ame\u0301lie")
    nfd = unicodedata.normalize("NFD", nfc)
    assert nfc != nfd
    assert decode(encode(nfc)) == nfc
    assert decode(encode(nfd)) == nfd
    assert encode(nfc) != encode(nfd)
    # Both spellings may even be keys of one map: they are different keys.
    assert list(decode(encode({nfc: 1, nfd: 2}))) == [nfc, nfd]


@pytest.mark.parametrize("length", [2, 23, 24, 300])
def test_a_key_out_of_order_is_key_order_before_its_utf8(length: int) -> None:
    """SPEC §2: at a key, order and duplicates come before the key's UTF-8, whatever
    the key's head length (found by the on-chain reader's differential test: keys of
    24 bytes or more were decoded before they were compared)."""
    first = encode("b" * length)
    second = bytes.fromhex(encode("a" * length).hex())[:-1] + b"\xff"
    for data, want in ((b"\xa2" + first + b"\x00" + second + b"\x00", "codec.key_order"),
                       (b"\xa2" + first + b"\x00" + first + b"\x00", "codec.duplicate_key")):
        with pytest.raises(EncodingError) as caught:
            decode(data)
        assert caught.value.check_id == want
