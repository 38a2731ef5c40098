"""agg7's sorted key walks at the edges of their argument (review8, s38).

``PorAggregateEntries.seek`` compares each map key's encoding value (a short text's head
and bytes as one number; a longer key's first word, above every key sought) with the
*next* key sought only, and skips a value by an inline head loop; ``PorAggregateSpec.keys``
does the same over the §2 pass's kept top-level offsets (<= 16 entries). The argument is
sound for strictly ascending keys; its edges are keys equal to a sought one but for
length (one byte shorter / longer, the 23/24-byte head change), keys between two sought
constants, a sought key first or last in a map of 1, 23, 24 or 25+ entries, a walk
resumed mid-map with the entries left (the chunk's three runs), and values of every head
width (0/1/2/4/8-byte arguments, texts and byte strings up to 65 536 bytes, containers of
23/24/255/256 entries, nesting at the depth cap 32) right before a sought key.

Each document is run in a scratch harness (``seek`` as committed; ``keys`` made internal
by ``s38_patched``) and compared with a model of the walk computed from the encodings of
the parts (every value offset, the last one's offset and the entries after it). Then a
few real proofs: the aggregate's cited check chunk and extract steps with a sought key
last in a 25-entry map, or after a value of a 1-/2-byte length head: chain = Python.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from aggregate_lies import aggregates
from bundle_edits import honest
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from s38_patched import patched
from scratch_harness import SOLC, raw
from test_s37_aggregate_seek import CHUNK_KEYS, EXTRACT_KEYS, _compare
from test_s37_skip_edges import UINTS, _nested, _text
from test_skip_walks import _entries

from por.encoding import decode, encode
from por.signing.eip712 import keccak256

CONTRACT = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorAggregateEntries} from "./PorAggregateEntries.sol";
import {PorAggregateSpec} from "./PorAggregateSpec.sol";
import {PorCborTop} from "./PorCborTop.sol";
contract SeekHarness {
    function seek(bytes calldata d, uint256 p, uint256 count, uint256[6] memory want, uint256 n)
        external pure returns (uint256[6] memory, uint256, uint256)
    {
        return PorAggregateEntries.seek(d, p, count, want, n);
    }
    function specKeys(bytes calldata d, bool kept)
        external pure returns (uint256[6] memory, uint256)
    {
        (bytes32 err,, uint256[] memory top,) = PorCborTop.checkTop(d);
        require(err == 0, "not a checked document");
        if (!kept) top = new uint256[](0);
        return (PorAggregateSpec.keys(d, 0, top), top.length);
    }
}
"""
PATCH = (("PorAggregateSpec.sol", ((
    "function keys(bytes calldata d, uint256 leaf, uint256[] memory top) private",
    "function keys(bytes calldata d, uint256 leaf, uint256[] memory top) internal"),)),)

#: The runs the aggregate seeks (§2 order), as in PorAggregateChunk/Read/Spec.
RUNS = [["chunk", "groups"], ["covered", "sources"],
        ["last_leaf", "item_count", "claim_count", "provenance_ok", "admitted_count",
         "requirement_id"],
        ["card", "claims"], ["evidence_id", "requirement_id"]]
SPEC_KEYS = ["conflict_policy", "data_requirements", "prediction_semantics"]
COUNTS: Counter[str] = Counter()


def harness() -> tuple[Any, str]:
    return patched("SeekHarness", CONTRACT, PATCH)


def _value_of(key: str) -> int:
    """A key's encoding as a number (``seek``'s ``want``)."""
    return int.from_bytes(encode(key), "big")


def _seek(data: bytes, p: int, count: int, want: list[str]) -> tuple[list[int], int, int]:
    words = [_value_of(k) for k in want] + [0] * (6 - len(want))
    sel = keccak256(b"seek(bytes,uint256,uint256,uint256[6],uint256)")[:4]
    args = abi_encode(["bytes", "uint256", "uint256", "uint256[6]", "uint256"],
                      [data, p, count, words, len(want)])
    at, end, left = abi_decode(["uint256[6]", "uint256", "uint256"], raw(harness(), sel + args))
    return list(at), end, left


def _model(entries: list[tuple[str, int, int]], start: int,
           want: list[str]) -> tuple[list[int], int, int]:
    """What the walk from entry ``start`` answers: each key's value offset (0: absent),
    then the last key's value offset and the entries after it (0, 0 when absent)."""
    rest = entries[start:]
    found = {k: (p, len(rest) - 1 - i) for i, (k, p, _) in enumerate(rest)}
    at = [found[k][0] if k in found else 0 for k in want] + [0] * (6 - len(want))
    end, left = found.get(want[-1], (0, 0))
    return at, end, left


def near(keys: list[str]) -> list[str]:
    """Keys at the walk's edges around ``keys``: one byte shorter and longer, the last
    byte one lower and higher, padded to 23 and 24 bytes (the head's change), an empty
    key, a key just above and below the whole run, a 2-byte UTF-8 key."""
    out = ["", "a", "\u00e9", "z" * 22, "z" * 23, "a" * 24]
    for k in keys:
        out += [k[:-1], k + "\x00", k + "~", k[:-1] + chr(ord(k[-1]) - 1),
                k[:-1] + chr(ord(k[-1]) + 1), k.ljust(23, "_"), k.ljust(24, "_"), k.ljust(25, "a")]
    return sorted(set(out) - set(keys), key=encode)


#: Values of every head width and shape (the skip's cases), one after another.
VALUES: list[Any] = [
    *UINTS, *[-1 - u for u in UINTS], False, True,
    *[_text(n) for n in (0, 23, 24, 255, 256, 65535, 65536)], _text(24, 4), _text(256, 3),
    *[b"\x78" * n for n in (0, 23, 24, 255, 256, 65536)],
    [], {}, [7] * 23, [7] * 24, ["t" * 24] * 255, [0] * 256,
    {f"k{i:03}": i for i in range(24)}, {f"k{i:03}": [i] for i in range(256)},
    _nested(30, "x" * 24, as_map=False), {"a": _nested(29, -2**64, as_map=True)},
]


def _docs(run: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Maps of the run's keys (some dropped) and near keys, every value before each key."""
    extra = near(run)
    docs: list[tuple[str, dict[str, Any]]] = [
        ("one." + k, {k: 1}) for k in run] + [("one.near", {extra[0]: 1})]
    for i, v in enumerate(VALUES):  # the value right before each sought key: its neighbour's
        m: dict[str, Any] = {k: VALUES[(i + j) % len(VALUES)] for j, k in enumerate(run)}
        for j, x in enumerate(extra):
            if (i + j) % 3 == 0:
                m[x] = v
        if i % 4 == 1:
            m.pop(run[i % len(run)])
        docs.append((f"values.{i}", m))
    # a sought key first / last in maps of 23-26 entries; every sought key alone absent
    for n in (23, 24, 25, 26):
        docs.append((f"last.{n}", {**{f"a{j:02}": j for j in range(n - 1)}, run[-1]: "v"}))
        after = {"z" * 24 + f"{j:02}": [j] for j in range(n - 1)}
        docs.append((f"first.{n}", {run[0]: "v", **after}))
    for k in run:
        docs.append((f"absent.{k}", {x: 5 for x in [*run, *extra] if x != k}))
    return docs


def _check_map(name: str, m: dict[str, Any], run: list[str], prefix: Any) -> None:
    """Every resumed walk over ``m`` (encoded after ``prefix`` in an array) = the model."""
    doc = [prefix, m]
    data = encode(doc)
    at = len(encode(doc)) - len(encode(m))
    entries = _entries(m, at)
    body = at + len(encode(m)) - sum(len(encode(k)) + len(encode(v)) for k, v in m.items())
    starts = {0, 1, len(entries) // 2, max(len(entries) - 1, 0)} & set(range(len(entries) + 1))
    for s in sorted(starts):
        p = entries[s][1] - len(encode(entries[s][0])) if s < len(entries) else body
        for w in {len(run), 1} if len(run) > 1 else {1}:
            want = run[len(run) - w:]
            got = _seek(data, p, len(entries) - s, want)
            assert got == _model(entries, s, want), (name, s, want)
            COUNTS["seek"] += 1


@SOLC
@pytest.mark.parametrize("run", range(len(RUNS)), ids=["+".join(r[:2]) for r in RUNS])
def test_seek_at_edges(run: int) -> None:
    keys = RUNS[run]
    for name, m in _docs(keys):
        _check_map(name, m, keys, b"\xff" * (len(name) % 3))
    assert COUNTS["seek"] > 100, COUNTS


@SOLC
def test_seek_keys_between_sought() -> None:
    """Keys sought with keys between them only: each found or not, one map at a time;
    sought keys of lengths 1, 22, 23 (and a 24-byte one never found: above them all)."""
    want = sorted(["b", "cc", "c" * 22, "d" * 22, "e" * 23], key=encode)
    between = near(want)
    for i in range(len(between) + 1):
        m = dict.fromkeys(want[i % 5:], i) | {x: [i] * (j % 3) for j, x in enumerate(between[:i])}
        _check_map(f"between.{i}", m, want, 0)


def _spec_keys(data: bytes, kept: bool) -> tuple[list[int], int]:
    sel = keccak256(b"specKeys(bytes,bool)")[:4]
    out = raw(harness(), sel + abi_encode(["bytes", "bool"], [data, kept]))
    v, n = abi_decode(["uint256[6]", "uint256"], out)
    return list(v), n


@SOLC
@pytest.mark.parametrize("size", [1, 3, 8, 16, 17, 24, 25])
def test_spec_keys_kept_and_walked(size: int) -> None:
    """The PromptSpec's three keys, from the kept offsets (<= 16 entries) and by ``seek``
    (more): both readings = the model, the near keys and values of every width around."""
    extra = near(SPEC_KEYS)
    for i in range(len(VALUES)):
        present = [k for j, k in enumerate(SPEC_KEYS) if (i >> j) & 1 or i % 8 == 7]
        fill = [x for j, x in enumerate(extra) if (i + j) % 4 == 0]
        fill += [f"x{j:02}" for j in range(30)]
        m = {k: VALUES[(i + j) % len(VALUES)] for j, k in enumerate(present)}
        for j, x in enumerate(fill[: max(size - len(m), 0)]):
            m[x] = VALUES[i] if j < 2 else j  # every width once or twice, the rest small
        data = encode(m)
        entries = {k: p for k, p, _ in _entries(m, 0)}
        expect = [entries.get(k, 0) for k in SPEC_KEYS] + [0, 0, 0]
        for kept in (True, False):
            v, n = _spec_keys(data, kept)
            assert (n == 2 * len(m)) == (kept and len(m) <= 16), (size, i, n)
            assert v == expect, (size, i, kept, sorted(m, key=encode))
            COUNTS["spec"] += 1


#: Values of a 1-, 2-, 4- and 8-byte head argument and containers (24 entries, nested to
#: the depth cap inside a step's output) for the proofs.
WIDE: list[Any] = ["t" * 24, "t" * 256, 24, 256, 65536, 2**32, -25, -2**64, [0] * 24,
                   {f"k{j:02}": j for j in range(24)}, _nested(30, "x", as_map=False),
                   "\u00e9" * 12, True]


@pytest.mark.parametrize("which", ["chunk", "extract"])
def test_aggregate_proofs_at_seek_edges(which: str) -> None:
    """The cited check chunk's (or every extract step's) output with a key right before
    each key sought holding a value of each head width, and grown to 26 entries by keys
    before them all (the last key sought last in a map of a two-byte head): the
    aggregate left and recomputed, chain = Python."""
    bundle = honest("08-quorum-agree")
    index = aggregates(bundle)[0]
    keys = CHUNK_KEYS if which == "chunk" else EXTRACT_KEYS
    kind = "check" if which == "chunk" else "extract"
    edits: list[tuple[str, dict[str, Any]]] = [
        (f"{which}.before.{k}.{i}", {k[:-1] + chr(ord(k[-1]) - 1): v})
        for k in keys for i, v in enumerate(WIDE)]
    edits.append((f"{which}.wide", {f"a{j:02}": WIDE[j % len(WIDE)] for j in range(16)}))
    for case, extra in edits:
        steps = [decode(s) for s in bundle.steps]
        cited = [s for s in steps[:index] if s["step_type"] == kind]
        for s in cited if which == "extract" else cited[-1:]:
            s["output"].update(extra)
        _compare(bundle, steps, case)
