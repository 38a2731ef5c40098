"""The aggregate's key walks by sorted encodings (ADR 0013 "Addendum (s37, agg7)") agree
with ``por check-proof``.

``PorAggregateEntries.seek`` reads the cited check chunk's output (chunk, groups; covered,
sources; last_leaf .. requirement_id) and each extract step's output (card, claims;
evidence_id, requirement_id), and ``PorAggregateSpec.keys`` the PromptSpec's
conflict_policy, data_requirements and prediction_semantics, comparing each map key with
the next key sought only: §2 keys ascend by their encodings, so a key above the one
sought means that one is absent. New ways to be wrong: a key sought missing (the next
ones must still be found), an extra key sorting just before, between or after the keys
sought (one byte off, the same length, a key of 23, 24 or 30 bytes: above every key
sought), values of every shape after it. Each edit is written into the cited steps
(and the PromptSpec), the aggregate recomputed from them (lost) or left: the chain and
Python must give the same answer every time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from aggregate_lies import aggregates, rewrite
from bundle_edits import honest, recommit
from exec_support import ExecChecker

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorAggregateExec")

#: The keys each walk seeks, in §2 order.
CHUNK_KEYS = ["chunk", "groups", "covered", "sources", "last_leaf", "item_count", "claim_count",
              "provenance_ok", "admitted_count", "requirement_id"]
EXTRACT_KEYS = ["card", "claims", "evidence_id", "requirement_id"]
SPEC_KEYS = ["conflict_policy", "data_requirements", "prediction_semantics"]

#: Values an extra key carries (skipped by the walk).
VALUES: list[Any] = [0, 2**40, "x", [], [1, [2, "y"]], {"a": 1, "b": [True, False]}, b"\x00" * 30]


def _near(keys: list[str]) -> list[str]:
    """Extra keys sorting just before, at the length of, between and after the keys sought:
    one byte off each, a key of 1 byte, 23, 24 and 30 bytes."""
    out = ["a", "z" * 23, "a" * 24, "z" * 30]
    for k in keys:
        out += [k[:-1] + chr(ord(k[-1]) - 1), k[:-1] + chr(ord(k[-1]) + 1), k + "_", k[:-1]]
    return sorted(set(out) - set(keys))


Edit = Callable[[dict[str, Any], int], None]


def _pop(key: str) -> Edit:
    def edit(out: dict[str, Any], n: int) -> None:
        out.pop(key, None)
    return edit


def _add(key: str, i: int) -> Edit:
    def edit(out: dict[str, Any], n: int) -> None:
        out[key] = VALUES[(i + n) % len(VALUES)]
    return edit


def _cases(keys: list[str]) -> list[tuple[str, Edit]]:
    cases = [(f"pop.{k}", _pop(k)) for k in keys]
    return cases + [(f"add.{x}", _add(x, i)) for i, x in enumerate(_near(keys))]


def _compare(bundle: Bundle, steps: list[dict[str, Any]], case: str) -> None:
    index = aggregates(bundle)[0]
    raw = [encode(s) for s in steps]
    _CHAIN.compare(recommit(bundle, steps=raw), index, case, COUNTS)
    again = rewrite(bundle.prompt_spec, raw, index)
    if again is not None:
        raw[index] = again
        _CHAIN.compare(recommit(bundle, steps=raw), index, case + ".rewritten", COUNTS)


@pytest.mark.parametrize("which", ["chunk", "extract"])
def test_outputs_sought_in_order(which: str) -> None:
    bundle = honest("08-quorum-agree")
    index = aggregates(bundle)[0]
    _CHAIN.compare(bundle, index, "honest", COUNTS)
    keys = CHUNK_KEYS if which == "chunk" else EXTRACT_KEYS
    for n, (name, edit) in enumerate(_cases(keys)):
        steps = [decode(s) for s in bundle.steps]
        kind = "check" if which == "chunk" else "extract"
        cited = [s for s in steps[:index] if s["step_type"] == kind]
        for j, s in enumerate(cited if which == "extract" else cited[-1:]):
            if which == "chunk" or j == n % len(cited):
                edit(s["output"], n)
        _compare(bundle, steps, f"{which}.{name}")
    assert COUNTS["id:one_step.match"] > 5 and COUNTS["id:one_step.unexecutable"] > 5, COUNTS


def test_spec_keys_sought_in_order() -> None:
    """The PromptSpec's keys, kept (at most 16 top-level entries) and walked (more): the
    executor gives the same answer both ways for every edit (extra top-level keys make
    the record invalid for Python's schema, which the checker's own pass answers first,
    so the two readings are compared with each other here), and a key sought removed is
    never read as present (the answer is not the honest one's)."""
    bundle = honest("08-quorum-agree")
    index = aggregates(bundle)[0]
    base = _CHAIN.execute(build_one_step_proof(bundle, index).to_cbor())[:2]
    for n, (name, edit) in enumerate(_cases(SPEC_KEYS)):
        answers = []
        for stem in ("a", "zz_after_every_key_"):
            for wide in (False, True):
                spec = decode(bundle.prompt_spec)
                edit(spec, n)
                if wide:  # 17+ entries: the §2 pass keeps no offsets, the map is walked
                    for i in range(18 - len(spec)):
                        spec[f"{stem}{i:02d}"] = VALUES[i % len(VALUES)]
                edited = recommit(bundle, prompt_spec=encode(spec))
                answers.append(_CHAIN.execute(build_one_step_proof(edited, index).to_cbor())[:2])
                COUNTS[f"spec.{name}"] += 1
        assert len(set(answers)) == 1, (name, answers)
        if name.startswith("pop."):
            assert answers[0] != base, (name, answers, base)
    assert COUNTS["spec.add.a"] == 4, COUNTS

