"""Maps read from one walk (``PorKeyIndex``, ADR 0013 s35 addendum) agree with Python.

The judge (``PorJudgeRules``) and deduce (``PorDeduceSpec``, ``PorDeduceRead``) read
``prediction_semantics``, ``confidence_policy``, each data requirement and each aggregate
field map from one walk of the map (``PorKeyIndex.index``: every entry's key word and
value offset), and step from one data requirement to the next by the offset that walk
ended at (``PorKeyIndex.indexTo``) instead of skipping the map again. Every fixture market
has one data requirement, so that step is never taken by the other tests: here each
PromptSpec gets a second requirement (a copy of the first under another id, with nested
values of other sizes: more source targets, ``accepted_status_codes``, its own
``min_provenance_tier``), before or after the real one, and the real one's tier kept,
lowered or raised (the schema requires a tier). A wrong end offset reads the real
requirement from inside the copy; a wrong index reads another entry's value. Each
PromptSpec the schema accepts is recommitted; the JudgeProof (the old verdict and the
judge's verdict on the edited bundle) and the deduce step's one-step proof must get the
same (won, check id) on chain as in Python. (A deduce step cites one aggregate step per
requirement, so with the second requirement it is unexecutable in Python; the chain reads
every requirement of the PromptSpec before it counts the citations, so a misread one would
answer ``one_step.invalid_record`` instead.)
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import ExecChecker, judge_proof, rejudged
from proof_check_support import python_answer
from test_onchain_deduce import _deduce
from test_onchain_judge import _set, _with_map, _with_spec

from por.bundle.layout import Bundle
from por.encoding import decode, encode
from por.errors import PorError
from por.scenarios import list_scenarios
from por.schemas import PromptSpec

COUNTS: Counter[str] = Counter()
#: Scenarios with every predicate, optional semantics keys present and absent, a
#: precondition, terms, quorum and fallback strategies.
MARKETS = ("01-boolean-observed", "08-quorum-agree", "11-fallback-chain",
           "53-economics-csv-release-absent", "54-sports-over-under-dotted-names",
           "61-range-settle", "62-field-comparison-home-win", "64-text-equals-award",
           "66-deadline-launch", "67-two-of-three-below", "68-precondition-no")


def _extra(real: dict[str, Any], tier: int, wide: bool) -> dict[str, Any]:
    """A copy of requirement ``real`` under another id with tier ``tier`` (``wide``:
    larger nested values, so its walk ends elsewhere than the real one's)."""
    extra = copy.deepcopy(real)
    extra["requirement_id"] = "req_index_extra"
    extra["min_provenance_tier"] = tier
    if wide:
        targets = extra["source_targets"]
        extra["source_targets"] = [*targets, *copy.deepcopy(targets)][:10]
        for i, target in enumerate(extra["source_targets"]):
            target["source_id"] = f"src_index_{i}"
        extra["accepted_status_codes"] = [200, 203, 404]
    return extra


def variants(spec_bytes: bytes) -> Iterator[tuple[str, bytes]]:
    """(name, PromptSpec bytes) with a second data requirement, each the schema accepts."""
    for place in ("first", "last"):
        for extra_tier in (0, 3):
            for wide in (False, True):
                for real_tier in ("kept", 0, 3):
                    spec = decode(spec_bytes)
                    real = spec["data_requirements"][0]
                    if real_tier != "kept":
                        real["min_provenance_tier"] = real_tier
                    extra = _extra(real, extra_tier, wide)
                    reqs = [extra, real] if place == "first" else [real, extra]
                    spec["data_requirements"] = reqs
                    data = encode(spec)
                    try:
                        PromptSpec.from_cbor(data)
                    except PorError:
                        continue
                    yield f"{place}.extra_tier={extra_tier}.wide={wide}.real_tier={real_tier}", data


def _judge_cases(bundle: Bundle) -> Iterator[tuple[str, bytes]]:
    for name, data in variants(bundle.prompt_spec):
        edited = recommit(bundle, prompt_spec=data)
        yield name, judge_proof(edited)
        again = rejudged(edited)
        if again is not None:
            yield f"{name}.rejudged", judge_proof(again)


@pytest.mark.parametrize("market", MARKETS)
def test_judge_reads_two_requirements(judge: ExecChecker, market: str) -> None:
    """The JudgeProof of each variant: the chain's (won, id) is Python's."""
    assert market in list_scenarios()
    for name, proof in _judge_cases(honest(market)):
        won, check_id, _gas = judge.execute(proof)
        assert (won, check_id) == python_answer(proof), f"{market} {name}"
        COUNTS[f"judge:{'won' if won else 'lost'}:{check_id}"] += 1


@pytest.mark.parametrize("market", MARKETS)
def test_deduce_reads_two_requirements(deduce: ExecChecker, market: str) -> None:
    """The deduce step's one-step proof of each variant."""
    bundle = honest(market)
    index = _deduce(bundle)
    for name, data in variants(bundle.prompt_spec):
        deduce.compare(recommit(bundle, prompt_spec=data), index, f"deduce.{name}", COUNTS)


def _long(text: str, size: int) -> str:
    """``text`` padded to ``size`` bytes (a two-byte text head from 24 on; from 32 on no
    key word), or cut to it."""
    return (text + "_" * size)[:size]


def _near_names(bundle: Bundle) -> Iterator[tuple[str, Bundle | None]]:
    """Texts the judge compares as key words (``PorJudgeRules.pick``, ``textIs``, the
    evaluation variables' keys) replaced by texts sharing their first bytes: cut, padded
    to 24..31 bytes (a two-byte head) or to 32 and more (no key word). (A rule id so
    replaced: ``test_judge_noncanonical_rule_id``.)"""
    sem = decode(bundle.prompt_spec)["prediction_semantics"]
    for size in (5, 23, 24, 31, 32, 40):
        yield f"predicate.{size}", _with_spec(
            _set(("prediction_semantics", "predicate"), _long(sem["predicate"], size)),
            valid=False)(bundle)
        yield f"on_conflict.{size}", _with_spec(
            _set(("conflict_policy", "on_conflict"), _long("continue", size)), valid=False)(bundle)
        key = _long("insufficient_evidence", size)
        yield f"variable.{size}", _with_map(_set((key,), True))(bundle)
        yield f"variable.drop.{size}", _with_map(lambda v, n=size: v.__setitem__(
            _long("conflict_detected", n), v.pop("conflict_detected")))(bundle)
    # each evaluation variable's key renamed to its text cut or padded by one byte, its
    # value kept (s36, judge4: `PorJudgeCheck.nameOf` compares each key word)
    for name in VARIABLE_KEYS:
        for size in (len(name) - 1, len(name) + 1):
            yield f"variable.rename.{name}.{size}", _with_map(
                lambda v, k=name, n=size: _rename(v, k, _long(k, n)))(bundle)


#: The evaluation variables' keys (SPEC §4.4) the judge reads.
VARIABLE_KEYS = ("conflict_detected", "insufficient_evidence", "fallback_used",
                 "provenance_ok", "event_observed", "source_summary", "numeric_value",
                 "timestamp")


def _rename(variables: dict[str, Any], key: str, to: str) -> None:
    if key in variables:
        variables[to] = variables.pop(key)


@pytest.mark.parametrize("market", MARKETS)
def test_judge_near_names(judge: ExecChecker, market: str) -> None:
    """Texts that share a compared text's first bytes: the chain's (won, id) is Python's."""
    for name, edited in _near_names(honest(market)):
        if edited is None:
            continue
        proof = judge_proof(edited)
        won, check_id, _gas = judge.execute(proof)
        assert (won, check_id) == python_answer(proof), f"{market} {name}"
        COUNTS[f"near:{'won' if won else 'lost'}:{check_id}"] += 1


def test_judge_noncanonical_rule_id(judge: ExecChecker) -> None:
    """A rule_id sharing R_VALIDITY's first bytes, unique: the schema lock fails on both
    sides (§7.2), so both say won ``judge.mismatch``."""
    def edit(spec: dict[str, Any]) -> None:
        spec["market"]["resolution_rules"]["rules"][0]["rule_id"] = _long("R_VALIDITY", 24)
    edited = _with_spec(edit, valid=True)(honest(MARKETS[0]))
    assert edited is not None
    proof = judge_proof(edited)
    assert judge.execute(proof)[:2] == python_answer(proof) == (True, "judge.mismatch")


def test_judge_duplicate_rule_ids_limit(judge: ExecChecker) -> None:
    """SPEC §14.8, the JudgeProof's **Limit**: rule ids' uniqueness is a rule the chain
    does not read. Every rule named alike is an invalid PromptSpec off chain
    (``one_step.invalid_record``, the court path settles it); on chain the judge runs on
    the rules as they are and the schema lock fails (``judge.mismatch``). Both say won."""
    edit = _set(("market", "resolution_rules", "rules", "*", "rule_id"), _long("R_VALIDITY", 24))
    edited = _with_spec(edit, valid=False)(honest(MARKETS[0]))
    assert edited is not None
    proof = judge_proof(edited)
    assert python_answer(proof) == (True, "one_step.invalid_record")
    assert judge.execute(proof)[:2] == (True, "judge.mismatch")


def test_key_index_case_count() -> None:
    """Runs last: enough cases, the judge's both ways, deduce's on its citation count."""
    if not COUNTS:
        pytest.skip("run with the whole module")
    print(f"\n{sum(COUNTS.values())} key-index cases: {dict(sorted(COUNTS.items()))}")
    for wanted in ("judge:lost:judge.match", "judge:won:judge.mismatch",
                   "id:one_step.unexecutable"):
        assert COUNTS[wanted] > 0, COUNTS
    assert sum(COUNTS.values()) >= 300, COUNTS
