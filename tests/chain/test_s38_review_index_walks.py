"""dj7's index walks at the edges of their argument (review8, s38).

``PorKeyIndex.indexTo``/``three`` skip a value by an inline loop that now exits right
after each decrement of the units left (a short text: its head and bytes; any other head:
its argument from 0-8 bytes and a nibble per major); ``PorDeduceRead.fieldEntries`` ends a
short text (0x60-0x77) or a one-byte item (an integer 0..23, false, true) by its head
alone and calls ``PorCbor.skip`` for anything else, and reads each entry's key word
inline. The edges: the item right before a sought key (and a map's last item) a 23- or
24-byte text, an integer 23 or 24, -1/-24/-25, false/true, an empty text, byte string,
map or array, a container whose last item is such an edge, a map of 1 entry or of 24+
(a two-byte head); keys equal to a sought one but for the last byte or the length.

``indexTo``/``three`` run in the shared skip harness (``test_skip_walks.harness``),
``fieldEntries`` in a scratch harness (made internal by ``s38_patched``); both against
offsets computed from the encodings of the parts. Then real proofs: each cited
aggregate's field maps of deduce with a key right before each field key (and after the
last) holding each edge value, the step kept and rewritten (chain = Python); and the
JudgeProof with the extract steps' outputs carrying such a key before card,
evidence_id and requirement_id (``three``'s keys), rejudged: chain = Python.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from bundle_edits import honest, recommit
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from exec_support import ExecChecker, judge_proof, rejudged
from proof_check_support import python_answer
from s38_patched import patched
from scratch_harness import SOLC, raw
from test_onchain_deduce import _deduce, rewritten
from test_s37_deduce_long_field_keys import MARKETS, _with_key
from test_skip_walks import _call, _entries, _word

from por.encoding import decode, encode
from por.errors import PorError
from por.signing.eip712 import keccak256

CONTRACT = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorDeduceRead} from "./PorDeduceRead.sol";
contract FieldHarness {
    function fieldEntries(bytes calldata d, uint256 p) external pure returns (uint256[7] memory) {
        return PorDeduceRead.fieldEntries(d, p);
    }
}
"""
PATCH = (("PorDeduceRead.sol", ((
    "function fieldEntries(bytes calldata d, uint256 p) private",
    "function fieldEntries(bytes calldata d, uint256 p) internal"),)),)
FIELD_KEYS = ["key", "kind", "value", "status", "evidence_ids", "fallback_used"]
COUNTS: Counter[str] = Counter()

#: The values at the fast paths' edges (and past them).
EDGES: list[Any] = ["t" * 23, "t" * 24, "", 0, 23, 24, 255, -1, -24, -25, False, True, b"",
                    b"b" * 23, {}, [], ["t" * 23], [["t" * 24]], {"a": 23},
                    {"a": {"b": "t" * 23}}, [True, 24], "\u00e9" * 11 + "e", "\u00e9" * 12,
                    -2**64, 2**64 - 1]


def _before(key: str) -> list[str]:
    """Keys sorting right before ``key``: its last byte one lower; one byte shorter (and
    every key of the shorter length sorts before it: ``z`` * (len - 1))."""
    return [key[:-1] + chr(ord(key[-1]) - 1), key[:-1], "z" * (len(key) - 1)]


def _near(keys: list[str]) -> list[str]:
    out = ["", "a", "z" * 23, "z" * 24]
    for k in keys:
        out += [*_before(k), k[:-1] + chr(ord(k[-1]) + 1), k + "_"]
    return sorted(set(out) - set(keys), key=encode)


def _maps(keys: list[str]) -> list[dict[str, Any]]:
    """Maps of the sought ``keys`` (some absent), each near key holding an edge value;
    maps of one entry and of 24+; the edge values also as the sought keys' own values."""
    near = _near(keys)
    maps: list[dict[str, Any]] = [{k: e} for k in keys for e in EDGES[:6]]
    for i, e in enumerate(EDGES):
        m = {k: EDGES[(i + j + 1) % len(EDGES)] for j, k in enumerate(keys) if (i + j) % 5}
        m.update(dict.fromkeys(near, e))
        maps.append(m)
        maps.append(dict.fromkeys(near[i % 3::3], e) | {keys[i % len(keys)]: e})
    maps.append({f"a{j:02}": EDGES[j % len(EDGES)] for j in range(24)} | {keys[-1]: 1})
    maps.append(dict.fromkeys(keys, "t" * 24) | {"z" * 25 + f"{j:02}": EDGES[j] for j in range(20)})
    return maps


@SOLC
@pytest.mark.parametrize("which", ["field", "judge"])
def test_index_walks_at_value_edges(which: str) -> None:
    """``indexTo`` (every key word and value offset, the end) and ``three`` (the three
    sought keys' value offsets) of each map, at the start of a list and after a prefix."""
    keys = ["card", "evidence_id", "requirement_id"] if which == "judge" else FIELD_KEYS[:3]
    for m in _maps(keys):
        for prefix in ([], ["t" * 24, 24]):
            doc = [*prefix, m, "after"]
            data = encode(doc)
            at = len(encode([*prefix, m])) - len(encode(m))
            entries = _entries(m, at)
            ix, end = _call("indexTo(bytes,uint256)", ["bytes", "uint256"], [data, at],
                            ["uint256[]", "uint256"])
            assert end == at + len(encode(m)), m
            assert list(ix) == [x for k, p, _ in entries for x in (_word(k), p)], m
            offsets = {k: p for k, p, _ in entries}
            got = _call("three(bytes,uint256,uint256,uint256,uint256)",
                        ["bytes", "uint256", "uint256", "uint256", "uint256"],
                        [data, at, *[_word(k) for k in keys]], ["uint256", "uint256", "uint256"])
            assert list(got) == [offsets.get(k, 0) for k in keys], m
            COUNTS["walks"] += 1
    assert COUNTS["walks"] > 100


def _fields(data: bytes, p: int) -> list[int]:
    sel = keccak256(b"fieldEntries(bytes,uint256)")[:4]
    harness = patched("FieldHarness", CONTRACT, PATCH)
    out = raw(harness, sel + abi_encode(["bytes", "uint256"], [data, p]))
    (at,) = abi_decode(["uint256[7]"], out)
    return list(at)


@SOLC
def test_field_entries_at_value_edges() -> None:
    """``fieldEntries`` of each map (a field list's element, after a prefix): the six
    field keys' value offsets (0: absent) and the map's end."""
    for m in _maps(FIELD_KEYS):
        for prefix in ([], [{"a": "t" * 24}], ["x" * 300]):
            doc = [*prefix, m, {"key": "after"}]
            data = encode(doc)
            at = len(encode([*prefix, m])) - len(encode(m))
            offsets = {k: p for k, p, _ in _entries(m, at)}
            want = [offsets.get(k, 0) for k in FIELD_KEYS] + [at + len(encode(m))]
            assert _fields(data, at) == want, (prefix, m)
            COUNTS["fields"] += 1
    assert COUNTS["fields"] > 100


#: Keys right before each field key (and after the last), for the proofs.
PROOF_KEYS = ["kex", "zzz", "kinc", "zzzz", "valud", "zzzzz", "statur", "evidence_idr",
              "z" * 11, "fallback_usec", "z" * 12, "fallback_usee"]
PROOF_VALUES = ["t" * 23, "t" * 24, 23, 24, -25, False, True, {}, [], b""]


@pytest.mark.parametrize("value", PROOF_VALUES, ids=[repr(v)[:8] for v in PROOF_VALUES])
def test_deduce_field_neighbours(value: Any) -> None:
    """Each cited aggregate's field maps with one key right before a field key holding
    ``value``; deduce kept and rewritten by por: chain = Python."""
    chain = ExecChecker("PorDeduceExec")
    for n, name in enumerate(MARKETS):
        bundle = honest(name)
        index = _deduce(bundle)
        cited = decode(bundle.steps[index])["prior_step_ids"]
        for key in PROOF_KEYS[n::len(MARKETS)]:
            steps = _with_key(list(bundle.steps), cited, key, value)
            chain.compare(recommit(bundle, steps=steps), index, "deduce.kept", COUNTS)
            steps[index] = rewritten(bundle.prompt_spec, steps, index) or steps[index]
            answer = chain.compare(recommit(bundle, steps=steps), index, "deduce.rewritten", COUNTS)
            assert answer is not None


@pytest.mark.parametrize("extra", [17, 18, 250])
def test_deduce_wide_field_maps(extra: int) -> None:
    """Each cited aggregate's field maps grown to 23, 24 (a map head of two bytes) or
    256 entries by keys before and after the field keys: chain = Python."""
    chain = ExecChecker("PorDeduceExec")
    for name in MARKETS:
        bundle = honest(name)
        index = _deduce(bundle)
        cited = decode(bundle.steps[index])["prior_step_ids"]
        steps = list(bundle.steps)
        for j in range(extra):
            key = ("a" if j % 2 else "z" * 14) + f"{j:03}"
            steps = _with_key(steps, cited, key, PROOF_VALUES[j % 9])  # no bytes
        chain.compare(recommit(bundle, steps=steps), index, "wide.kept", COUNTS)
        steps[index] = rewritten(bundle.prompt_spec, steps, index) or steps[index]
        answer = chain.compare(recommit(bundle, steps=steps), index, "wide.rewritten", COUNTS)
        assert answer is not None


JUDGE_MARKETS = ("08-quorum-agree", "03-threshold-gt-boundary")
JUDGE_KEYS = ["caq", "zzz", "evidence_ic", "z" * 10, "requirement_ic", "z" * 13, "requirement_ie"]


def _extract_with(bundle: Any, key: str, value: Any) -> Any:
    steps = list(bundle.steps)
    for i, raw_step in enumerate(steps):
        step = decode(raw_step)
        if step.get("inputs", {}).get("kind") == "extract_claims":
            step["output"][key] = value
            steps[i] = encode(step)
    return recommit(bundle, steps=steps)


@pytest.mark.parametrize("value", PROOF_VALUES, ids=[repr(v)[:8] for v in PROOF_VALUES])
def test_judge_extract_neighbours(value: Any) -> None:
    """Each extract output with one key right before card, evidence_id or
    requirement_id (or after them) holding ``value``, the verdict rejudged where the
    judge is reached: the JudgeProof's answer on chain = Python's."""
    chain = ExecChecker("PorJudgeExec", "check(bytes)")
    for name in JUDGE_MARKETS:
        for key in JUDGE_KEYS:
            edited = _extract_with(honest(name), key, value)
            for bundle in (edited, rejudged(edited)):
                if bundle is None:
                    continue
                try:
                    proof = judge_proof(bundle)
                except PorError:
                    COUNTS["judge.unbuildable"] += 1
                    continue
                won, check_id, _gas = chain.execute(proof)
                assert (won, check_id) == python_answer(proof), (name, key, value)
                COUNTS[f"judge:{check_id}"] += 1


def test_case_count() -> None:
    assert COUNTS["deduce.rewritten"] == len(PROOF_VALUES) * len(PROOF_KEYS), COUNTS
    judged = sum(v for k, v in COUNTS.items() if k.startswith("judge:"))
    assert judged >= len(PROOF_VALUES) * 14, COUNTS
