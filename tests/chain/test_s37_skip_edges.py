"""The s36 skips at their edges (ADR 0015 "s36, scan5"; ADR 0013 "s36, contra5").

``PorCbor.skip``, ``PorKeyIndex.indexTo`` and ``PorCborKeys.pick`` step over an item by
its head: a short text (0x60-0x77) by its head alone, any other by a nibble of 0x421100
per major, the argument read from 0-8 bytes. ``test_skip_walks.py`` draws random
documents; here each item sits exactly at an edge of that argument: texts and byte
strings of 23/24, 255/256 and 65535/65536 bytes (a 0-, 1-, 2- and 4-byte length), in
every UTF-8 width; integers and negative integers at every head width's first and
last value; arrays and maps of 23/24 and 255/256 entries; containers nested to the
depth limit (32) inside a skipped item; false/true. Each document is also handed over
at every calldata offset modulo 32 (``bytes calldata`` placed at an odd offset, the
bytes around it 0xff, not the ABI's zeros), as a proof's leaves are.

``PorContradictionsItems.end`` reads a cited state's ``items`` list in place when each
item is an admission map as written, else answers 0 (the caller skips the list): here
its answer on lists at the same edges (23/24 items, 23/24 reasons, every text field at
every length edge, observed_at at every width, keys one byte off, types swapped) must be
``PorCbor.skip``'s, or 0, and must not be 0 for the shapes ``ItemAdmission.to_value``
writes (else the fast path is dead code and the gas it claimed is gone).
"""

from __future__ import annotations

from typing import Any

import pytest
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from scratch_harness import SOLC, raw
from test_skip_walks import _call, _entries, _items, _word, harness

from por.encoding import encode
from por.signing.eip712 import keccak256

LENGTHS = (0, 1, 22, 23, 24, 25, 31, 32, 33, 255, 256, 257, 65535, 65536)
UINTS = (0, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**64 - 1)


def _text(n: int, width: int = 1) -> str:
    """A text of exactly ``n`` UTF-8 bytes, of ``width``-byte characters where it fits."""
    ch = {1: "a", 2: "\u00e9", 3: "\u4e2d", 4: "\U0001f600"}[width]
    return ch * (n // width) + "b" * (n % width)


def _nested(depth: int, leaf: Any, as_map: bool) -> Any:
    v = leaf
    for i in range(depth):
        v = {f"k{i}": v} if as_map and i % 2 else [v]
    return v


DOCS: dict[str, Any] = {
    **{f"text{n}w{w}": ["k", _text(n, w), 1] for n in LENGTHS for w in (1, 2, 3, 4)
       if w == 1 or n in (23, 24, 255, 256, 65535, 65536)},
    **{f"bytes{n}": [b"\x60" * n, "after"] for n in LENGTHS},
    "uints": [list(UINTS), {"u": list(UINTS)}],
    "nints": [[-1 - u for u in UINTS], "tail"],
    "bools": [[True, False] * 12, False, True],
    **{f"array{n}": [[7] * n, ["t" * 23] * n, "end"] for n in (23, 24, 255, 256)},
    **{f"map{n}": [{f"k{i:03}": _text(23 + i % 2) for i in range(n)}, "end"]
       for n in (23, 24, 255, 256)},
    "map_keys_24": [{"k" * 23: 1, "k" * 24: [2], "k" * 255: {"a": 3}, "k" * 256: "v"}, 0],
    "depth32_array": [_nested(31, "x" * 24, as_map=False), "end"],
    "depth32_map": [{"a": _nested(30, -2**64, as_map=True), "b": "y"}],
    "depth32_map_keys": {"a": _nested(30, {"z": 1}, as_map=True)},
    "mixed_edges": {"a": [b"", "", [], {}], "b": ["w" * 24, b"w" * 24, -24, -25, 24],
                    "c": {"x" * 24: "y" * 256, "y": [True] * 24}},
}


def _skips_at(data: bytes, ps: list[int], pad: int) -> list[int]:
    """``skips(data, ps)`` with ``data`` placed ``pad`` bytes past where the ABI puts it
    (0xff around it): ``data.offset`` at any residue modulo 32."""
    sel = keccak256(b"skips(bytes,uint256[])")[:4]
    arr = abi_encode(["uint256[]"], [ps])[32:]  # length and words
    d_at = 64 + len(arr) + pad
    body = (d_at.to_bytes(32, "big") + (64).to_bytes(32, "big") + arr + b"\xff" * pad
            + len(data).to_bytes(32, "big") + data + b"\xff" * 64)
    (out,) = abi_decode(["uint256[]"], raw(harness(), sel + body))
    return list(out)


@SOLC
@pytest.mark.parametrize("name", sorted(DOCS))
def test_skip_at_edges(name: str) -> None:
    doc = DOCS[name]
    data = encode(doc)
    items: list[tuple[int, int, Any]] = []
    _items(doc, 0, items)
    if len(items) > 600:
        items = items[:300] + items[-300:]
    ps, ends = [a for a, _, _ in items], [e for _, e, _ in items]
    for pad in (0, 1, 7, 31) if len(data) < 70000 else (0, 3):
        assert _skips_at(data, ps, pad) == ends, (name, pad)


@SOLC
@pytest.mark.parametrize("name", sorted(DOCS))
def test_map_walks_at_edges(name: str) -> None:
    doc = DOCS[name]
    data = encode(doc)
    items: list[tuple[int, int, Any]] = []
    _items(doc, 0, items)
    for at, end, m in [(a, e, v) for a, e, v in items if isinstance(v, dict)][:40]:
        entries = _entries(m, at)
        ix, got_end = _call("indexTo(bytes,uint256)", ["bytes", "uint256"], [data, at],
                            ["uint256[]", "uint256"])
        assert got_end == end, (name, at)
        assert list(ix) == [x for k, p, _ in entries for x in (_word(k), p)], (name, at)
        short = [(k, p) for k, p, _ in entries if len(k.encode()) < 24]
        wanted = [*dict([*short[-2:], *short[:1]]).items(), ("absent", 0)]
        packed = b"".join(bytes([len(k.encode())]) + k.encode() for k, _ in wanted)
        (got,) = _call("pick(bytes,uint256,bytes)", ["bytes", "uint256", "bytes"],
                       [data, at, packed], ["uint256[]"])
        assert list(got) == [p for _, p in wanted], (name, at)


def _item(**edit: Any) -> dict[str, Any]:
    """An admission map as ``ItemAdmission.to_value`` writes it, ``edit`` applied (a
    value None drops the key)."""
    item: dict[str, Any] = {"reasons": [], "admitted": True, "source_id": "src_a",
                            "evidence_id": "ev-1", "observed_at": 1_767_225_600,
                            "observed_from": "https://example.test/a"}
    item.update(edit)
    return {k: v for k, v in item.items() if v is not None}


#: (name, items, written): ``written`` when every item has the shape the fast path reads.
ITEM_LISTS: list[tuple[str, Any, bool]] = [
    *[(f"count{n}", [_item(evidence_id=f"ev-{i}") for i in range(n)], n <= 23)
      for n in (0, 1, 22, 23, 24, 25)],
    *[(f"reasons{n}", [_item(reasons=["r"] * n, admitted=False)], n <= 23)
      for n in (1, 22, 23, 24)],
    *[(f"{field}{n}w{w}", [_item(), _item(**{field: _text(n, w)})], True)
      for field in ("source_id", "evidence_id", "observed_from", "gate_reason")
      for n in (0, 23, 24, 255, 256, 65535, 65536) for w in ((1, 4) if n in (24, 256) else (1,))],
    *[(f"reason_text{n}", [_item(reasons=[_text(n), "s"], admitted=False)], True)
      for n in (23, 24, 255, 256, 65535, 65536)],
    *[(f"observed_at{u}", [_item(observed_at=u), _item()], True) for u in UINTS],
    *[(f"observed_at_neg{u}", [_item(observed_at=-1 - u)], False) for u in (0, 24, 2**32)],
    ("observed_at_bool", [_item(observed_at=False)], False),
    ("admitted_false", [_item(admitted=False)], True),
    ("admitted_int", [_item(admitted=1)], False),
    ("admitted_text", [_item(admitted="t")], False),
    ("source_id_bytes", [_item(source_id=b"src_a")], False),
    ("observed_from_bytes", [_item(), _item(observed_from=b"x" * 24)], False),
    ("reasons_bytes", [_item(reasons=[b"r"])], False),
    ("reasons_int", [_item(reasons=[1])], False),
    ("reasons_text", [_item(reasons="r")], False),
    ("reasons_map", [_item(reasons={})], False),
    ("no_reasons", [_item(reasons=None)], False),
    ("no_observed_at", [_item(observed_at=None)], False),
    ("gate_reason_empty", [_item(gate_reason="")], True),
    ("gate_reason_int", [_item(gate_reason=3)], False),
    ("gate_reasoN", [_item(gate_reasoN="g")], False),
    ("gate_reasom", [_item(gate_reasom="g")], False),
    ("observed_atx", [_item(observed_at=None, observed_atx=5)], False),
    ("eight_keys", [_item(gate_reason="g", zz=1)], False),
    ("extra_short_key", [_item(a=1)], False),
    ("evidence_iD", [_item(evidence_id=None, evidence_iD="e")], False),
    ("not_a_map", [_item(), "item"], False),
    ("a_list", [_item(), [1, 2, 3, 4, 5, 6]], False),
    ("empty_map", [{}], False),
    ("items_a_map", {"a": _item()}, False),
    ("items_a_text", "items", False),
    ("items_an_int", 7, False),
    ("items_bytes", b"\xa6" * 30, False),
    ("last_bad", [*[_item() for _ in range(22)], _item(admitted=0)], False),
    ("first_bad", [_item(admitted=0), *[_item() for _ in range(22)]], False),
]


@SOLC
@pytest.mark.parametrize("case", range(len(ITEM_LISTS)), ids=[n for n, _, _ in ITEM_LISTS])
def test_items_end_at_edges(case: int) -> None:
    name, items, written = ITEM_LISTS[case]
    afters: tuple[Any, ...] = ("fgroups", {"groups": []}, b"\xa6")
    for after in afters:
        data = encode([items, after, 1])
        got, skipped = _call("items(bytes,uint256)", ["bytes", "uint256"], [data, 1],
                             ["uint256", "uint256"])
        assert skipped == len(encode(items)) + 1, name
        assert got in (0, skipped), (name, got, skipped)
        assert (got != 0) == written, (name, got, "fast path taken" if got else "fallback")
