"""The §2 reader's s36 paths (ADR 0015, s36 scan4 addendum) agree with por's decoder on
the check id *and* the offset, each document read at two places in calldata (the
attack bed's ``Reader``: plainly, and moved by 0-31 bytes with junk around it).

The paths and the edges they add:

* an integer with a 1, 2, 4 or 8-byte argument (heads 0x18-0x1b, 0x38-0x3b) on a path
  of its own, "non-shortest" being below 24 or the argument's upper half zero: at each
  width the least shortest value, the one below it and the largest, as an element, a
  map value, a key (a key type fault) and alone, cut at every byte;
* a map key kept as its encoding's value (a right-aligned word, one shift) and compared
  with the previous key's, 0 before the first: keys of 0-2, 22-25 and 29-32 text bytes
  (encodings of 1-3, 23-27 and 31-34 bytes: the short head's edge, the 0x78 head, one
  word and past it), the last byte one less or one more, every ordered pair and each
  key repeated, in a nested map and in the top-level map (whose keys take the rare
  branch to be recorded), cut inside the second key and after it;
* the close loop ending on frame 0: several containers closing at once, then nothing,
  a trailing byte, or another element, at depths 1-4 and around the cap (31-33).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from reader_attack_cases import Case, array, cuts, every_cut, head, raw_map, text
from test_onchain_reader_attack import _READER

WIDTHS = ((24, 1), (25, 2), (26, 4), (27, 8))


def integers() -> Iterator[bytes]:
    """At each width of both majors: the least shortest value, one below, the largest."""
    for major in (0, 1):
        for ai, width in WIDTHS:
            least = 24 if width == 1 else 1 << (4 * width)
            for value in (least, least - 1, (1 << (8 * width)) - 1):
                yield head(major, value, ai)


def integer_cases() -> Iterator[Case]:
    for item in integers():
        for doc in (item, array([item, b"\x01"]), raw_map([(text(b"a"), item)]),
                    raw_map([(item, b"\x00")])):
            yield from every_cut(doc)


def keys() -> list[bytes]:
    out = []
    for n in (0, 1, 2, 22, 23, 24, 25, 29, 30, 31, 32):
        raw = b"k" * n
        out.append(text(raw))
        if n:
            out += [text(raw[:-1] + b"j"), text(raw[:-1] + b"l")]
    return out


def key_cases() -> Iterator[Case]:
    pool = keys()
    for first in pool:
        for second in pool:
            pair = [(first, b"\xf5"), (second, b"\x17")]
            for doc, at in ((raw_map(pair), 1), (array([raw_map(pair)]), 2)):
                start = at + len(first) + 1  # the second key's first byte
                yield from cuts(doc, [start + 1, start + len(second) - 1, start + len(second)])


def close_cases() -> Iterator[Case]:
    for depth in (1, 2, 3, 4, 31, 32, 33):
        for inner in (b"\x80", b"\xa0", b"\x00", raw_map([(text(b"a"), b"\x01")])):
            nested = inner
            for level in range(depth):
                nested = array([nested]) if level % 2 else raw_map([(text(b"k"), nested)])
            yield from every_cut(nested)
            yield from every_cut(array([nested, b"\x01"]))
            yield nested + b"\x01", b""


def test_integers_at_every_width() -> None:
    answers: Counter[str | None] = Counter()
    assert _READER.disagreements(integer_cases(), answers) == []
    assert answers[None] and answers["codec.non_canonical"] and answers["codec.truncated"]
    assert answers["codec.key_type"]


def test_keys_around_the_short_head_and_one_word() -> None:
    answers: Counter[str | None] = Counter()
    assert _READER.disagreements(key_cases(), answers) == []
    assert answers[None] and answers["codec.key_order"] and answers["codec.duplicate_key"]
    assert answers["codec.truncated"]


def test_containers_closing_together() -> None:
    answers: Counter[str | None] = Counter()
    assert _READER.disagreements(close_cases(), answers) == []
    assert answers[None] and answers["codec.depth"] and answers["codec.truncated"]
    assert answers["codec.trailing_bytes"]
