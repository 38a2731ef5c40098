"""Benchmark: the §2 reader's gas per item, by class of item (ADR 0015, s35 addendum).

``PorProofCheck.checkCbor`` (``PorCbor.scan``; the committed build, in revm) on
generated por-cbor/1 documents of 200 and of 400 items of one class; each figure is
(gas of 400 - gas of 200) / 200, the execution gas of one more item (a call's gas less
the 21 000 intrinsic and its EIP-2028 calldata cost: what the reader adds, not what the
bytes cost to carry). Classes:

* ``uint``: a small integer (head below 0x18) in an array;
* ``text 8``: an 8-byte ASCII text in an array; ``text 40``: a 40-byte one (a 2-byte head);
  ``text 64``: the longest whose ASCII test is one word pair (ADR 0015, s38 addendum);
* ``bytes 32``: a 32-byte byte string (a hash) in an array;
* ``map entry``: a key of 4 ASCII bytes and a small integer, in a map nested in an array;
* ``one-entry map``: ``{"a": 1}`` in an array;
* ``text key, text value``: a 6-byte key and a 12-byte ASCII text, in a nested map;
* ``uint 1-byte arg``: 200 (head 0x18 and one byte); ``uint 4-byte arg``: a timestamp
  (head 0x1a);
* ``Id (20 ASCII bytes)``, ``Id (100 ASCII bytes)``: texts the length of Ids;
* ``text 2-byte x16`` ... ``text 4-byte x16``: 16 code points of one UTF-8 width (a
  cut to the text path is judged in every width, ADR 0015's reader3 addendum);
* ``empty array``: ``[]`` in an array (a container's open with no unit);
* ``[hash, hash]``: two 32-byte byte strings in an array, in an array (open and close);
* ``record map``: a six-entry map of short keys (text, integer, true, hash, array), the
  shape of a record, in an array;
* ``map in map``: a map entry whose value is ``{"v": small integer}``.

Whole documents (a top-level map's keys take a path of their own: their offsets are
kept for ``PorCborTop.checkTop``, ADR 0015's s37 addendum), each figure the gas of the
document less that of ``0`` (one byte):

* ``top-level record``: the record map above as the whole document;
* ``top-level map of 16``: 16 entries (a 5-byte key, a small integer), the most whose
  offsets are kept; ``top-level map of 20``: 20 entries (its offsets written, none kept);
  ``top-level map of 30``: 30 entries (none kept: its keys take the common path).

Usage: ``PYTHONPATH=. python bench/reader_gas.py [--json]``.  Deterministic.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests")]

from proof_check_support import ProofChecker  # noqa: E402

from por.encoding import encode  # noqa: E402

#: A record's shape: six short keys (text, integer, true, hash, array).
RECORD = {"id": "s1", "kind": "check", "n": 3, "ok": True, "src": bytes(32), "tags": ["a", "b"]}

#: (class, n -> a document of n items of that class).
CLASSES: tuple[tuple[str, Callable[[int], Any]], ...] = (
    ("uint", lambda n: [1] * n),
    ("text 8", lambda n: ["abcdefgh"] * n),
    ("text 40", lambda n: ["a" * 40] * n),
    ("text 64", lambda n: ["a" * 64] * n),
    ("bytes 32", lambda n: [bytes(range(32))] * n),
    ("map entry", lambda n: [{f"k{i:03d}": 1 for i in range(n)}]),
    ("one-entry map", lambda n: [{"a": 1}] * n),
    ("text key, text value", lambda n: [{f"key{i:03d}": "value text12" for i in range(n)}]),
    ("uint 1-byte arg", lambda n: [200] * n),
    ("uint 4-byte arg", lambda n: [1_788_206_400] * n),
    ("Id (20 ASCII bytes)", lambda n: ["step-0012.check-0003"] * n),
    ("Id (100 ASCII bytes)", lambda n: ["i" * 100] * n),
    ("text 2-byte x16", lambda n: ["\u00e9" * 16] * n),
    ("text 3-byte x16", lambda n: ["\u4e2d" * 16] * n),
    ("text 4-byte x16", lambda n: ["\U0001f600" * 16] * n),
    ("empty array", lambda n: [[]] * n),
    ("[hash, hash]", lambda n: [[bytes(32), bytes(range(32))]] * n),
    ("record map", lambda n: [RECORD] * n),
    ("map in map", lambda n: [{f"k{i:03d}": {"v": i % 24} for i in range(n)}]),
)


#: (document, whole) measured as one document, less the one-byte document ``0``.
WHOLE: tuple[tuple[str, Any], ...] = (
    ("top-level record", RECORD),
    ("top-level map of 16", {f"key{i:02d}": i for i in range(16)}),
    ("top-level map of 20", {f"key{i:02d}": i for i in range(20)}),
    ("top-level map of 30", {f"key{i:02d}": i for i in range(30)}),
)


def whole(checker: ProofChecker, doc: Any) -> int:
    """Execution gas of ``doc`` less that of the document ``0``."""
    gas = []
    for data in (encode(doc), encode(0)):
        assert checker.cbor(data) is None
        gas.append(checker._call("checkCbor(bytes)", data)[1])
    return int(gas[0] - gas[1])


def per_item(checker: ProofChecker, make: Callable[[int], Any]) -> int:
    """Execution gas of one more item: (gas at 400 - gas at 200) / 200."""
    gas = []
    for n in (200, 400):
        data = encode(make(n))
        assert checker.cbor(data) is None
        gas.append(checker._call("checkCbor(bytes)", data)[1])
    return (gas[1] - gas[0]) // 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    checker = ProofChecker()
    rows = {name: per_item(checker, make) for name, make in CLASSES}
    rows.update({name: whole(checker, doc) for name, doc in WHOLE})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print("PorCbor.scan (checkCbor) execution gas per item (whole documents: per\n"
              "document), the committed build")
    for name, gas in rows.items():
        print(f"{name:24} {gas:6}")


if __name__ == "__main__":
    main()
