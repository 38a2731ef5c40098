"""The §2 reader's s38 cuts (ADR 0015, s38 scan7 addendum) against por's decoder.

Two paths changed in ``PorCborScan.scan``, both compiled here from the committed sources
(``test_onchain_reader_top``'s ``checkTop`` harness) and run in revm:

* a text of 24 to 255 bytes (head 0x78) is taken as ASCII when one ``HIGH`` test over two
  words finds no byte at or above 0x80: the word ending at the text's end and the word at
  its start, each shifted to hold only the text's bytes below 32; above 64 bytes it goes to
  ``utf8Bad``. A wrong shift or bound lets a non-ASCII byte through unchecked (an invalid
  text accepted), so texts of 24-70, 100 and 255 bytes carry one foreign byte (0xff, a lone
  continuation 0x80, a cut two-byte lead 0xc3, or a valid "é") at every position, alone or
  between items whose bytes are all at or above 0x80;
* a top-level map's previous key lives in frame 1's previous-key word (addressed from the
  stack pointer) and its items' offsets are kept for every entry, their count in bytes:
  top-level keys out of order, repeated or equal right after a nested map or array value
  (whose own keys sort above or below them), in maps of 1-23 entries (more than 16 keep
  none), must give Python's id and offset, and accepted ones its offsets and item count.
"""

from __future__ import annotations

from typing import Any

import pytest
from reader_attack_cases import python_fault
from scratch_harness import SOLC
from test_onchain_reader_top import chain, python

from por.encoding import encode

#: Text lengths on the 0x78 path's two-word test and either side of its 64-byte bound.
LENGTHS = (*range(24, 71), 100, 255)

#: Foreign bytes put into an ASCII text: invalid alone (0xff, a lone continuation, a lead
#: with its continuation cut) and a valid two-byte code point.
FOREIGN = (b"\xff", b"\x80", b"\xc3", "\u00e9".encode())

#: Bytes at or above 0x80 before and after the text: a hash of 0xff and a map's head.
BEFORE = encode(b"\xff" * 32)
AFTER = encode({"\u00e9": b"\xfe" * 32})


def _text(n: int, at: int, foreign: bytes) -> bytes:
    """The encoding of a text of ``n`` bytes, ASCII but ``foreign`` at ``at``."""
    body = (b"abcdefghijklmnopqrstuvwxyz0123456789" * 8)[: n - len(foreign)]
    body = body[:at] + foreign + body[at:]
    assert len(body) == n
    return bytes([0x78, n]) + body


def _cases(n: int) -> list[bytes]:
    out = []
    for foreign in FOREIGN:
        for at in range(n - len(foreign) + 1):
            t = _text(n, at, foreign)
            out += [t, b"\x83" + BEFORE + t + AFTER]
    return out


def _same(data: bytes) -> None:
    want = python_fault(data)
    got = chain(data)
    if want[0] is None:
        assert got[0] is None, data.hex()
    else:
        assert got[:2] == want, data.hex()


@SOLC
@pytest.mark.parametrize("n", LENGTHS)
def test_text_words(n: int) -> None:
    for data in _cases(n):
        _same(data)


def _top_cases() -> list[dict[str, Any]]:
    nested: list[Any] = [{"zz": 1, "zzz": [1, {"y": 2}]}, {"a": 1}, [{"zzzz": 0}], {}, []]
    docs: list[dict[str, Any]] = []
    for value in nested:
        docs.append({"b": value, "c": 1})
        docs.append({"a": 0, "b": value, "c": {"d": value}})
    for n in (16, 17, 23):
        docs.append({f"k{i:02d}": ({"x": i} if i % 2 else [i]) for i in range(n)})
    return docs


def _mutated(doc: dict[str, Any]) -> list[bytes]:
    """``doc``'s encoding with each key after the first replaced by the previous key, by a
    key just below it (out of order) and by the first key."""
    keys = sorted(doc, key=encode)
    parts = [(encode(k), encode(doc[k])) for k in keys]
    data = encode(doc)
    head = data[: len(data) - sum(len(k) + len(v) for k, v in parts)]
    out = []
    for i in range(1, len(parts)):
        for key in (parts[i - 1][0], parts[0][0], encode(keys[i - 1][:-1] or "\x00")):
            body = [*parts[:i], (key, parts[i][1]), *parts[i + 1:]]
            out.append(head + b"".join(k + v for k, v in body))
    return out


@SOLC
def test_top_level_keys_after_nested_values() -> None:
    faults = set()
    for doc in _top_cases():
        assert chain(encode(doc)) == python(doc), encode(doc).hex()
        for data in _mutated(doc):
            want = python_fault(data)
            faults.add(want[0])
            _same(data)
    assert {"codec.key_order", "codec.duplicate_key"} <= faults
