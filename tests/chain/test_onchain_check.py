"""On-chain re-execution of a ``check_requirement`` chunk (SPEC §12.5.3, §14.8) agrees
with ``por check-proof``.

``PorCheckExec.execute`` (the committed build, in revm) and the Python library get the
same ``por.OneStepProof/1`` bytes and must give the same WON/LOST and check id. Cases:
every check chunk of every fixture market and of generated markets (honest: lost
``one_step.match``), and forged bundles (every commitment recomputed, por's
``recommit``) whose check chunk, a cited extract step or chunk c-1 is edited: each
state key changed, reasons reordered or dropped, admitted flipped, observed_at changed,
groups' min/max swapped, a source added or dropped, the chunk number off, malformed
cards and claims, edge card values (status 100/599, confidence 0/10000, provenance
0..3); about half the forgeries rewrite the check chunk from the edited citations with
por's own ``recompute_step`` (consistent: lost). Any other kind reverts
``CourtPath(kind)``. At least 2 500 proofs are compared (``test_check_case_count``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from check_lies import chunks_of, forge, many_items
from exec_support import (
    CODE_LIMIT,
    ExecChecker,
    assert_case_count,
    deployed_size,
    every_market,
    generated_cases,
    generated_market,
)
from proof_check_support import python_answer

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()
FORGED = 60
_CHAIN = ExecChecker("PorCheckExec")


def compare(bundle: Bundle, index: int, kind: str) -> None:
    answer = _CHAIN.compare(bundle, index, kind, COUNTS)
    if answer is not None:
        COUNTS["max_gas"] = max(COUNTS["max_gas"], answer[2])


def exercise(bundle: Bundle, rng: random.Random, forged: int) -> None:
    indices = chunks_of(bundle)
    for index in indices:
        compare(bundle, index, "check.honest")
    won, check_id, _gas = _CHAIN.execute(build_one_step_proof(bundle, len(bundle.steps) - 1)
                                         .to_cbor())
    assert (won, check_id) == (False, "court_path:map")
    for _ in range(forged):
        index = rng.choice(indices)
        compare(forge(bundle, index, rng), index, "check.forged")


def test_check_chunks_on_every_fixture_market() -> None:
    every_market(exercise, 24, FORGED)


@generated_cases(max_examples=12)
def test_check_chunks_on_generated_markets(case: Any, seed: int) -> None:
    generated_market(exercise, case, seed, forged=15)


@pytest.mark.parametrize("name", ["67-two-of-three-below", "50-commodities-per-source-quorum",
                                  "60-http-500-primary", "62-field-comparison-home-win"])
def test_multi_chunk_requirements(name: str) -> None:
    """23 items of one requirement: three chunks (10, 10, 3), honest and forged; the gas
    of a full 10-item chunk is recorded."""
    bundle = many_items(name, 23)
    indices = chunks_of(bundle)
    assert len(indices) >= 3
    full = build_one_step_proof(bundle, indices[1]).to_cbor()
    won, check_id, gas = _CHAIN.execute(full)
    assert (won, check_id) == (False, "one_step.match")
    COUNTS["full_chunk_gas"] = max(COUNTS["full_chunk_gas"], gas)
    exercise(bundle, random.Random(len(name)), forged=FORGED)  # noqa: S311


#: Malformed values of the PromptSpec fields the chain reads (SPEC §14.8).
BAD_SPEC_FIELDS: list[tuple[tuple[str, ...], Any]] = [
    (("market", "allowed_sources"), [5]), (("market", "allowed_sources"), "src"),
    (("market", "resolution_window", "start"), "1"), (("market", "resolution_window", "end"), -1),
    (("timestamp_slack_seconds",), True), (("prediction_semantics", "metric"), 7),
    (("prediction_semantics", "predicate"), 1), (("req", "min_provenance_tier"), 4),
    (("req", "accepted_status_codes"), [99]), (("req", "accepted_status_codes"), [600]),
    (("req", "source_targets"), [{"source_id": ""}]),
]
#: Valid values of the same fields (the chunk recomputed under another PromptSpec).
GOOD_SPEC_FIELDS: list[tuple[tuple[str, ...], Any]] = [
    (("req", "min_provenance_tier"), 0), (("req", "min_provenance_tier"), 3),
    (("req", "accepted_status_codes"), [100, 200, 599]), (("req", "accepted_status_codes"), [404]),
    (("timestamp_slack_seconds",), 0), (("timestamp_slack_seconds",), 2**62),
    (("market", "resolution_window", "start"), 0),
]


def _set(spec: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    node: Any = spec["data_requirements"][0] if path[0] == "req" else spec
    for key in path[1:-1] if path[0] == "req" else path[:-1]:
        node = node[key]
    node[path[-1]] = value


@pytest.mark.parametrize("name", list_scenarios()[::3])
def test_prompt_spec_fields_read(name: str) -> None:
    """A malformed field the chain reads is won one_step.invalid_record on both sides;
    valid edge values give the same answer on both sides."""
    bundle = honest(name)
    index = chunks_of(bundle)[0]
    for path, value in BAD_SPEC_FIELDS + GOOD_SPEC_FIELDS:
        spec = decode(bundle.prompt_spec)
        _set(spec, path, value)
        proof = build_one_step_proof(recommit(bundle, prompt_spec=encode(spec)), index).to_cbor()
        won, check_id, _gas = _CHAIN.execute(proof)
        assert (won, check_id) == python_answer(proof), (path, value)
        if (path, value) in BAD_SPEC_FIELDS:
            assert (won, check_id) == (True, "one_step.invalid_record"), (path, value)
        COUNTS["check.spec"] += 1


def _targets_edited(spec: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    for target in spec["data_requirements"][0]["source_targets"]:
        edit(target)
    return spec


#: Edits of every source target of the first requirement (`PorCheckSpec.target` reads a
#: target of short text keys and text values by their heads, any other is walked), each
#: with whether the chain reads it: only source_id and the map's end are (SPEC §14.8),
#: so keys and values §4.2 refuses elsewhere in a target are the court path's (the
#: chain's answer is the honest chunk's, Python's one_step.invalid_record).
TARGET_EDITS: dict[str, tuple[Callable[[dict[str, Any]], None], bool]] = {
    "value_long": (lambda t: t.update(uri="u" * 300), True),
    "source_long": (lambda t: t.update(source_id=t.get("source_id", "s") + "-" + "x" * 30), True),
    "source_int": (lambda t: t.update(source_id=5), True),
    "source_renamed": (lambda t: t.update(source_ie=t.pop("source_id", "s")), True),
    "empty": (lambda t: t.clear(), True),
    "value_int": (lambda t: t.update(method=5), False),
    "value_map": (lambda t: t.update(method={"a": "b"}), False),
    "key_long": (lambda t: t.update({"k" * 24: "v"}), False),
    "key_first": (lambda t: t.update(a="v"), False),
    "keys_24": (lambda t: t.update({f"k{i:02d}": "v" for i in range(21)}), False),
    "source_only": (lambda t: [t.pop(k) for k in list(t) if k != "source_id"], False),
}


@pytest.mark.parametrize("name", list_scenarios()[::6])
def test_source_target_shapes(name: str) -> None:
    """R's source targets read in place or walked: an edit the chain reads gets Python's
    answer, one it does not read the honest chunk's."""
    bundle = honest(name)
    index = chunks_of(bundle)[0]
    for edit, read in TARGET_EDITS.values():
        spec = _targets_edited(decode(bundle.prompt_spec), edit)
        proof = build_one_step_proof(recommit(bundle, prompt_spec=encode(spec)), index).to_cbor()
        won, check_id, _gas = _CHAIN.execute(proof)
        if read:
            assert (won, check_id) == python_answer(proof), spec["data_requirements"][0]
        else:
            assert (won, check_id) == (False, "one_step.match"), spec["data_requirements"][0]
            assert python_answer(proof) == (True, "one_step.invalid_record")
        COUNTS["check.spec"] += 1


def _spec_shapes(spec: dict[str, Any], rid: str) -> list[tuple[dict[str, Any], bool]]:
    """PromptSpecs the chain reads from the §2 pass's top-level offsets (ADR 0013, s35
    checkcontra: `PorCheckSpec.readSpecAt`), each with whether the chain reads the edit:
    each top-level key read absent; a malformed entry before R (read); R absent; R's
    source_targets or min_provenance_tier absent; entries after R (not read: a
    malformed id, not a map, an entry missing §4.2's fields)."""
    reqs = spec["data_requirements"]
    others = [r for r in reqs if r["requirement_id"] != rid]
    others = others or [{**reqs[0], "requirement_id": "req_other"}]
    shapes = [({k: v for k, v in spec.items() if k != key}, True) for key in
              ("market", "data_requirements", "prediction_semantics", "timestamp_slack_seconds")]
    shapes += [({**spec, "data_requirements": [{"requirement_id": 7}, *reqs]}, True),
               ({**spec, "data_requirements": others}, True)]
    # R's entry walked once (`PorCheckSpec.entry`): source_targets or the tier absent,
    # source_targets its last key
    for drop in (("source_targets",), ("min_provenance_tier",),
                 ("min_provenance_tier", "selection_policy", "expected_fields")):
        edited = [{k: v for k, v in r.items() if r["requirement_id"] != rid or k not in drop}
                  for r in reqs]
        shapes.append(({**spec, "data_requirements": edited}, True))
    shapes += [({**spec, "data_requirements": [*reqs, extra]}, False)
               for extra in ({"requirement_id": 7}, 5, {"requirement_id": "req_zz_later"})]
    return shapes


@pytest.mark.parametrize("name", list_scenarios()[::6])
def test_prompt_spec_shapes(name: str) -> None:
    """A PromptSpec top-level key read absent is won one_step.invalid_record, R absent
    step.bad_inputs (unexecutable), a malformed entry before R invalid: the same answer
    on both sides. Entries after R are not read (SPEC §14.8: `requirement_id` an Id up
    to R; the rest of §4.2 is off chain's, the court path settles it): the chain's
    answer is the honest chunk's, Python's one_step.invalid_record."""
    bundle = honest(name)
    index = chunks_of(bundle)[0]
    spec = decode(bundle.prompt_spec)
    rid = decode(bundle.steps[index])["inputs"]["requirement_id"]
    for shape, read in _spec_shapes(spec, rid):
        proof = build_one_step_proof(recommit(bundle, prompt_spec=encode(shape)), index).to_cbor()
        won, check_id, _gas = _CHAIN.execute(proof)
        if read:
            assert (won, check_id) == python_answer(proof), sorted(shape)
            assert won, sorted(shape)
        else:
            assert (won, check_id) == (False, "one_step.match"), shape["data_requirements"][-1]
            assert python_answer(proof) == (True, "one_step.invalid_record")
        COUNTS["check.spec"] += 1


def test_deployed_sizes() -> None:
    """Both contracts are under EIP-170's limit (the executor deploys the computation)."""
    for name in ("PorCheckExec", "PorCheckCompute"):
        assert deployed_size(name) <= CODE_LIMIT, name


def test_check_case_count() -> None:
    """At least 2 500 one-step proofs compared, and every outcome among them."""
    assert_case_count(COUNTS, "check.", ("one_step.match", "one_step.mismatch",
                                         "one_step.unexecutable"), minimum=2_500)
