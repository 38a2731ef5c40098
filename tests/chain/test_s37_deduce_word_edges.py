"""Deduce's ``evidence_ids`` compared as produced (ADR 0013 "s36, dj5", cut 1), with ids
that differ in one byte at every word edge.

``PorDeduceStep.summaryAt`` compares each read id's encoded item (head and bytes,
``PorDeduceRead.sameAt``: both spans copied to memory and hashed) with the next bytes of
the committed list, and tells ids apart by ``PorDeduceSpec.textHash``.
``test_deduce_summary_ids.py`` renames the evidence ``ev-same-N`` (one length, the last
byte apart). Here the multi-source markets' ids are ``L`` bytes long, ``L`` at the head
edges (23/24) and the word edges (31/32/33, 63/64/65, 127/128; 128 four-byte code points,
512 bytes, the longest Id), and differ from each other in the one byte ``k``, ``k`` at
every word edge they have (0, 22-24, 30-33, 62-65, L-1). Each honest bundle (built by
por) is compared, then the deduce step's list reversed, each id swapped for a sibling
that differs from it only at ``k`` (absent from the bundle), one id one byte longer or
shorter (a prefix of another's encoding), one dropped, repeated, and every cited
aggregate's list reversed with the deduce step rewritten by por (consistent): chain and
Python must agree on each.
"""

from __future__ import annotations

from collections import Counter

import pytest
from bundle_edits import recommit
from exec_support import ExecChecker, assert_case_count
from test_deduce_summary_ids import MARKETS, with_list
from test_onchain_deduce import _deduce, rewritten

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.scenarios import load_scenario

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorDeduceExec")
#: (id length in bytes, the byte positions where siblings differ).
EDGES = [(L, sorted({k for k in (0, 22, 23, 24, 30, 31, 32, 33, 62, 63, 64, 65, L - 1) if k < L}))
         for L in (23, 24, 31, 32, 33, 63, 64, 65, 127, 128)]


def sibling(length: int, k: int, n: int) -> str:
    """The ``n``-th id of ``length`` ASCII bytes: ``z`` everywhere but ``k``."""
    return "z" * k + "abcdefghijklmnop"[n] + "z" * (length - k - 1)


def wide_sibling(n: int) -> str:
    """The ``n``-th of 128 four-byte code points (512 bytes), siblings apart in byte 511
    (U+1F600 + n), or in byte 256 for ``n`` >= 8 (the 65th code point's last byte)."""
    if n < 8:
        return "\U0001f600" * 127 + chr(0x1F600 + n)
    return "\U0001f600" * 64 + chr(0x1F600 + n) + "\U0001f600" * 63


def renamed_to(name: str, ids: list[str]) -> Bundle:
    """Market ``name`` built by por with its evidence ids ``ids`` (in item order)."""
    scenario = load_scenario(name)
    items = [item.model_copy(update={"evidence_id": ids[i]})
             for i, item in enumerate(scenario.evidence.items)]
    evidence = scenario.evidence.model_copy(update={"items": items})
    return bundle_from_bytes(build(scenario.prompt_spec, evidence).data)


def _lists(ids: list[str], others: list[str], longer: str, shorter: str) -> list[list[str]]:
    return [
        ids[::-1],
        *[[*ids[:j], o, *ids[j + 1:]] for j in range(len(ids)) for o in others[:1]],
        [*ids[:-1], longer], [shorter, *ids[1:]],
        ids[:-1], ids + ids[-1:], ids + others[:1], [ids[0], ids[0], *ids[2:]],
    ]


def _exercise(name: str, ids_of: list[str], others: list[str], case: str) -> None:
    bundle = renamed_to(name, ids_of)
    index = _deduce(bundle)
    ids = decode(bundle.steps[index])["evidence_ids"]
    answer = _CHAIN.compare(bundle, index, f"{case}.honest", COUNTS)
    assert answer is not None and answer[:2] == (False, "one_step.match"), (name, ids)
    assert len(ids) >= 2, ids
    longer, shorter = ids[-1] + "z", ids[0][:-1]
    for edited in _lists(ids, others, longer, shorter):
        _CHAIN.compare(with_list(bundle, index, edited), index, f"{case}.edited", COUNTS)
    for sid in decode(bundle.steps[index])["prior_step_ids"][:-1]:
        at = int(sid[5:]) - 1
        step = decode(bundle.steps[at])
        steps = list(bundle.steps)
        steps[at] = encode({**step, "evidence_ids": step["evidence_ids"][::-1]})
        steps[index] = rewritten(bundle.prompt_spec, steps, index) or steps[index]
        _CHAIN.compare(recommit(bundle, steps=steps), index, f"{case}.aggregate", COUNTS)


@pytest.mark.parametrize(("length", "ks"), EDGES, ids=[str(L) for L, _ in EDGES])
def test_ids_apart_at_word_edges(length: int, ks: list[int]) -> None:
    for name in MARKETS:
        for k in ks:
            n = len(load_scenario(name).evidence.items)
            ids = [sibling(length, k, i) for i in range(n)]
            others = [sibling(length, k, i) for i in range(n, n + 2)]
            _exercise(name, ids, others, "edge")


def test_widest_ids() -> None:
    """128 four-byte code points (a 2-byte head, 512 bytes), apart in one byte."""
    for name in MARKETS:
        n = len(load_scenario(name).evidence.items)
        for first in (0, 8):
            ids = [wide_sibling(first + i) for i in range(n)]
            others = [wide_sibling(first + i) for i in range(n, n + 2)]
            _exercise(name, ids, others, "wide")


def test_word_edge_case_count() -> None:
    assert_case_count(COUNTS, "edge.", ("one_step.match", "one_step.unexecutable"),
                      minimum=1500)
    assert COUNTS["wide.honest"] == 2 * len(MARKETS), COUNTS
