"""The check chunk's source targets hashed in the walk that finds their end, and the
step's requirement id read once (ADR 0013 "s36, check5").

``PorCheckSpec.targetsEnd`` hashes each of R's targets' ``source_id`` where its walk
finds it (``Spec.tags``); the compute admits an item when its source's hash is among
them. ``Spec.rid`` is the step's ``requirement_id`` as the executor read it, used to
find R. The fixture markets' source ids differ early (``exchange-alpha``, ``-beta``) and
each has one requirement. Here the three-source markets are rebuilt by por with source
ids (in ``allowed_sources``, R's targets and the evidence) and requirement ids of ``L``
bytes (23/24, 31-33, 63-65, 127/128) apart in one byte at each word edge, and with a
second requirement whose id is R's but for that byte (its items the same evidence,
renamed); then R's targets edited one at a time: a target's source_id swapped for its
sibling (apart only at that byte), one byte longer or shorter, not a text, absent, the
targets reversed, cut to one: chain and Python must give the same answer on every check
chunk. R's targets repeated to 23 and 24 entries (the list's head one byte, then two) or
with a key before or after source_id break §4.2 rules the chain does not read (SPEC
§14.8): Python's answer is one_step.invalid_record, the chain's the honest chunk's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import recommit
from exec_support import ExecChecker, assert_case_count
from proof_check_support import python_answer
from test_onchain_check import chunks_of
from test_s37_deduce_word_edges import sibling

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode
from por.scenarios import load_scenario

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorCheckExec")
MARKETS = ("08-quorum-agree", "67-two-of-three-below")
EDGES = [(L, sorted({k for k in (0, 23, 31, 32, 63, 64, L - 1) if k < L}))
         for L in (23, 24, 31, 32, 33, 63, 64, 65, 127, 128)]


def rebuilt(name: str, names: Callable[[int], str], rid: str, second: str | None) -> Bundle:
    """Market ``name`` by por, its sources renamed ``names(0)``, ``names(1)``... (in
    ``allowed_sources`` order), its requirement ``rid``, and a copy of it ``second``
    (its items copied) when given."""
    scenario = load_scenario(name)
    spec = scenario.prompt_spec
    rename = {s: names(i) for i, s in enumerate(spec.market.allowed_sources)}
    market = spec.market.model_copy(update={"allowed_sources": sorted(rename.values())})
    req = spec.data_requirements[0]
    targets = [t.model_copy(update={"source_id": rename[t.source_id]}) for t in req.source_targets]
    reqs = [req.model_copy(update={"requirement_id": rid, "source_targets": targets})]
    if second is not None:
        reqs.append(reqs[0].model_copy(update={"requirement_id": second}))
    spec = spec.model_copy(update={"market": market, "data_requirements": reqs})
    items = []
    for j, r in enumerate(reqs):
        for i, item in enumerate(scenario.evidence.items):
            source = item.source.model_copy(update={"source_id": rename[item.source.source_id]})
            items.append(item.model_copy(update={
                "evidence_id": f"ev-{j}-{i}", "requirement_id": r.requirement_id,
                "source": source}))
    evidence = scenario.evidence.model_copy(update={"items": items})
    return bundle_from_bytes(build(spec, evidence).data)


Edit = Callable[[list[dict[str, Any]], Callable[[int], str]], None]


def _swap(ts: list[dict[str, Any]], names: Callable[[int], str]) -> None:
    ts[0]["source_id"] = names(7)


EDITS: dict[str, Edit] = {
    "swap_first": _swap,
    "swap_last": lambda ts, names: ts[-1].update(source_id=names(8)),
    "longer": lambda ts, _: ts[0].update(source_id=ts[0]["source_id"] + "z"),
    "shorter": lambda ts, _: ts[-1].update(source_id=ts[-1]["source_id"][:-1]),
    "reversed": lambda ts, _: ts.reverse(),
    "one": lambda ts, _: ts.__delitem__(slice(1, None)),
    "not_text": lambda ts, _: ts[1].update(source_id=b"\x00"),
    "absent": lambda ts, _: ts[1].pop("source_id"),
}
#: Edits breaking a §4.2 rule the check chunk does not read (SPEC §14.8's row: R's
#: targets are read as maps with an Id source_id; their count, uniqueness and other
#: keys are not): off chain one_step.invalid_record, on chain the honest chunk's answer.
UNREAD: dict[str, Edit] = {
    "23": lambda ts, _: ts.extend([dict(ts[0]) for _ in range(23 - len(ts))]),
    "24": lambda ts, _: ts.extend([dict(ts[-1]) for _ in range(24 - len(ts))]),
    "key_before": lambda ts, _: ts[0].update(a="x"),
    "key_after": lambda ts, _: ts[-1].update(zzzzzzzzzzzzzzzzzzzzzzzzz=1),
}


def _exercise(bundle: Bundle, names: Callable[[int], str], case: str) -> None:
    for index in chunks_of(bundle):
        answer = _CHAIN.compare(bundle, index, f"{case}.honest", COUNTS)
        assert answer is not None and answer[:2] == (False, "one_step.match"), case
    for index in sorted({chunks_of(bundle)[0], chunks_of(bundle)[-1]}):
        _edited(bundle, index, names, case)


def _edited(bundle: Bundle, index: int, names: Callable[[int], str], case: str) -> None:
    """R's (the chunk's requirement's) targets edited one way at a time."""
    rid = decode(bundle.steps[index])["inputs"]["requirement_id"]
    for name, edit in {**EDITS, **UNREAD}.items():
        spec = decode(bundle.prompt_spec)
        r = next(r for r in spec["data_requirements"] if r["requirement_id"] == rid)
        edit(r["source_targets"], names)
        edited = recommit(bundle, prompt_spec=encode(spec))
        if name in EDITS:
            _CHAIN.compare(edited, index, f"{case}.{name}", COUNTS)
            continue
        proof = build_one_step_proof(edited, index).to_cbor()
        assert _CHAIN.execute(proof)[:2] == (False, "one_step.match"), (case, name)
        assert python_answer(proof) == (True, "one_step.invalid_record"), (case, name)
        COUNTS[f"{case}.unread"] += 1


@pytest.mark.parametrize(("length", "ks"), EDGES, ids=[str(L) for L, _ in EDGES])
def test_sources_and_requirements_apart_at_word_edges(length: int, ks: list[int]) -> None:
    for name in MARKETS:
        for k in ks:
            def names(i: int, k: int = k) -> str:
                return sibling(length, k, i)
            rid, second = sibling(length, k, 10), sibling(length, k, 11)
            _exercise(rebuilt(name, names, rid, second if k % 2 else None), names, "edge")


def test_wide_source_ids() -> None:
    """Source ids of 128 four-byte code points (512 bytes) apart in their last byte."""
    def names(i: int) -> str:
        return "\U0001f600" * 127 + chr(0x1F600 + i)
    for name in MARKETS:
        _exercise(rebuilt(name, names, "req-" + "\u00e9" * 62, "req-" + "\u00e9" * 61 + "e"),
                  names, "wide")


def test_check_targets_case_count() -> None:
    assert_case_count(COUNTS, "edge.", ("one_step.match", "one_step.mismatch"), minimum=600)
    assert COUNTS["wide.honest"] >= 2 * len(MARKETS), COUNTS
