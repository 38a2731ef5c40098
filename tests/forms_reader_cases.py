"""The chain forms readers' cases (``PorForms.sol`` and its Python twin
``por.forms.execute.read``), as data: ``tests/chain/test_forms_reader.py`` runs them on
the EVM probe, ``tests/unit/forms/test_execute_read.py`` on Python's readers. Each
malformation reverts ``ProofForm()`` there and raises ``FormFault`` here."""

from __future__ import annotations

from por.forms.words import W

FAULT = "proof.form"

DECIMALS = ["0", "1", "-1", "0.5", "-0.25", "100", "10.01", "9" * 64, "-" + "9" * 63,
            "0." + "0" * 61 + "1", "-0." + "0" * 60 + "1", "1" * 40 + "." + "2" * 23,
            "123456789012345678901234567890123", "0.000001"]


def _head(neg: int, scale: int, length: int) -> bytes:
    return (neg << 255 | scale << 232 | length).to_bytes(32, "big")


def _digits(s: bytes) -> bytes:
    return s + bytes(-len(s) % 32 or (32 if not s else 0))


BAD_DECIMALS = {
    "leading zero": _head(0, 0, 2) + _digits(b"05"),
    "trailing zero in a fraction": _head(0, 1, 2) + _digits(b"50"),
    "minus zero": _head(1, 0, 1) + _digits(b"0"),
    "not a digit": _head(0, 0, 2) + _digits(b"1a"),
    "a digit byte below 0": _head(0, 0, 1) + _digits(b"/"),
    "non-zero padding": _head(0, 0, 1) + b"1" + b"\x00" * 30 + b"\x01",
    "length 0": _head(0, 0, 0) + bytes(32),
    "length 65": _head(0, 0, 65) + b"1" * 65 + bytes(31),
    "scale 63": _head(0, 63, 1) + _digits(b"1"),
    "65 characters": _head(1, 0, 64) + b"1" * 64,
    "65 characters with a point": _head(0, 63 - 1, 64) + b"1" * 64,
    "bits between scale and len": (1 << 100 | 1).to_bytes(32, "big") + _digits(b"1"),
    "digits past the end": _head(0, 0, 33) + b"1" * 32,
    "no digits word": _head(0, 0, 1),
}

TEXTS = ["", "a", "ab", "x" * 31, "y" * 32, "z" * 33, "€uro"]

BAD_TEXTS = [
    W(3) + b"ab" + b"\x00" * 29 + b"\x01",  # padding not zero
    W(2) + b"ab" + b"\x00" * 29 + b"\x01",  # padding not zero, an even length (s39 fix)
    W(6) + b"abcdef" + b"\x00" * 25 + b"\x01",  # the same, checkform's 6-byte evidence id
    W(33) + b"a" * 32,  # bytes past the end
    (2**64).to_bytes(32, "big") + bytes(32),  # a length past any form
    W(1),  # no bytes word
    b"\x00" * 31,  # not even a word
]

_U64 = 2**64 - 1
#: (reader, form, extra argument or None, answer): the reader's results (``word``: the
#: word; ``read_o``: present, value, next; ``read_l``/``read_e``/``read_w``: value, next;
#: ``open_form``: next) or ``FAULT``.
WORD_CASES: list[tuple[str, bytes, int | None, tuple[object, ...] | str]] = [
    ("word", W(1) + W(2), 2, FAULT),
    ("word", W(1) + W(2), 1, (2,)),
    ("read_o", W(0) + W(0), _U64, (False, 0, 64)),
    ("read_o", W(1) + W(5), _U64, (True, 5, 64)),
    ("read_o", W(0) + W(1), _U64, FAULT),
    ("read_o", W(2) + W(0), _U64, FAULT),
    ("read_o", W(1), _U64, FAULT),
    ("read_o", W(1) + W(2), 1, FAULT),
    ("read_l", W(2) + W(0) + W(0), None, (2, 32)),
    ("read_l", W(3) + W(0) + W(0), None, FAULT),
    ("read_e", W(2), 3, (2, 32)),
    ("read_e", W(3), 3, FAULT),
    ("read_w", (2**64).to_bytes(32, "big"), None, FAULT),
    ("open_form", W(5) + W(0), 5, (32,)),
    ("open_form", W(4) + W(0), 5, FAULT),
    ("open_form", W(5)[:31], 5, FAULT),
    ("open_form", b"", 5, FAULT),
]
