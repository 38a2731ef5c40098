"""On-chain re-execution of one step (SPEC §14.8, §10.5) agrees with ``por check-proof``.

``PorProofCheck.checkProof`` (the registry's call; the committed build, in revm) and
the Python library get the same ``por.OneStepProof/1`` bytes and must give the same
WON/LOST and the same check id (``one_step.match``, ``one_step.mismatch``,
``one_step.unexecutable``, ``one_step.invalid_record``, ``one_step.id_position``,
``one_step.prior_order``, or the ``proof.*``/``merkle.*`` id of an invalid proof).

Cases, from por's own builders: the map step of every fixture market and of generated
markets (honest: lost ``one_step.match``), and forged bundles (every commitment
recomputed) whose map or deduce step is edited: each evaluation variable changed,
dropped, added or ill-typed, edge decimals (``-0``, ``1.50``, 64 and 65 characters,
``-0.5``), timestamps at 0 and 2^63 - 1 and beyond, repeated or reordered ids, the
description, the output's shape, the inputs, the citations and the ids; about half the
forgeries also rewrite the map step from the forged deduce step by por's own
``recompute_step``, so consistent pairs (lost) are compared as often as lies (won).
Every other step of those bundles goes through ``checkProof``'s routing to its kind's
executor and must get Python's answer; an extract step must revert ``CourtPath(kind)``
on chain (the court decides it).
At least 10 000 proofs are compared (``test_step_case_count``, last).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import honest, recommit
from hypothesis import given, settings
from hypothesis import strategies as st
from proof_check_support import ProofChecker, python_answer

from por.auditor.steps import recompute_step
from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode
from por.errors import PorError
from por.scenarios import list_scenarios
from por.schemas import EvidenceItem, PromptSpec, ReasoningStep

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "properties"))
from test_citation_properties import markets

COUNTS: Counter[str] = Counter()
#: Forged bundles per fixture market.
FORGED = 176
_CHAIN = ProofChecker()

#: Edge values a forger may write for each evaluation variable.
DECIMALS = ["0", "-0", "1.50", "1.5", "-0.5", "01", ".5", "1e5", "+1", "", "9" * 64, "9" * 65,
            "-" + "9" * 63, "-" + "9" * 64, "0." + "0" * 61 + "1", "0." + "0" * 62 + "1",
            "144.18", "210.5", "80", "79.99", "-", "1.", "\uff11"]
STAMPS: list[Any] = [0, 1, 1794091260, 2**63 - 1, 2**63, 2**64 - 1, -1, "1794091260", True]
BOOLS: list[Any] = [True, False, 0, 1, "true"]
FLAGS = ("conflict_detected", "insufficient_evidence", "fallback_used", "provenance_ok")


def _last(bundle: Bundle, kind: str) -> int:
    for index in range(len(bundle.steps) - 1, -1, -1):
        if decode(bundle.steps[index]).get("inputs", {}).get("kind") == kind:
            return index
    raise AssertionError(kind)


def edit_variables(variables: dict[str, Any], rng: random.Random, ids: list[str]) -> None:
    """One edit of a variables map (a deduce output or a map's evaluation_variables)."""
    edit = rng.randrange(10)
    if edit == 9:  # a byte string: no valid step record (one_step.invalid_record)
        variables["blob"] = b"\x00"
    elif edit == 0:
        name = rng.choice((*FLAGS, "event_observed"))
        variables[name] = rng.choice(BOOLS)
    elif edit == 1:
        variables["numeric_value"] = rng.choice(DECIMALS)
    elif edit == 2:
        variables["timestamp"] = rng.choice(STAMPS)
    elif edit == 3:
        variables.pop(rng.choice([*FLAGS, "event_observed", "numeric_value", "timestamp",
                                  "source_summary"]), None)
    elif edit == 4:
        summary = list(variables.get("source_summary") or [])
        choice = rng.randrange(5)
        if choice == 0 and summary:
            summary.append(rng.choice(summary))
        elif choice == 1 and len(summary) >= 2:
            summary.reverse()
        elif choice == 2 and summary:
            summary.pop()
        elif choice == 3:
            summary.append(rng.choice([*ids, "", "x" * 129, "é" * 128, "e_new"]))
        else:
            variables["source_summary"] = rng.choice([[], "e1", [1], None])
            if variables["source_summary"] is None:
                del variables["source_summary"]
            return
        variables["source_summary"] = summary
    elif edit == 5:
        variables[rng.choice(["predicate", "other", "zz", "a"])] = rng.choice(["x", 1, True])
    elif edit == 6:
        variables["event_observed"] = not variables.get("event_observed", False)
    elif edit == 7:
        variables["numeric_value"] = rng.choice(["100", "100.5", "-3", "150", "140"])
        variables.setdefault("event_observed", True)
    else:
        for name in FLAGS:
            if rng.random() < 0.3:
                variables[name] = not variables.get(name, False)


def forge(bundle: Bundle, rng: random.Random) -> tuple[Bundle, int]:
    """The bundle with its map or deduce step edited (and, half the time, the map step
    rewritten from the edited deduce step by ``recompute_step``), recommitted."""
    steps = list(bundle.steps)
    mapped, deduced = _last(bundle, "map"), _last(bundle, "deduce")
    ids = [decode(e)["evidence_id"] for e in bundle.evidence]
    target = rng.choice([mapped, deduced, deduced])
    step = decode(steps[target])
    if target == deduced or rng.random() < 0.8:
        output = step["output"]
        edit_variables(output if target == deduced else output["evaluation_variables"], rng, ids)
    else:
        edit = rng.randrange(8)
        if edit == 0:
            step["description"] = rng.choice(["map to evaluation variable", "", "MAP"])
        elif edit == 1:
            step["output"] = rng.choice([{}, {"evaluation_variables": {}},
                                         {"evaluation_variable": step["output"]
                                          ["evaluation_variables"]},
                                         {**step["output"], "more": 1}])
        elif edit == 2:
            step["inputs"] = rng.choice([{"kind": "map", "x": 1}, {"kind": "deduce"},
                                         {"kind": 5}, {}, {"kind": "maps"}])
        elif edit == 3:
            step["step_type"] = rng.choice(["deduce", "check", "extract"])
        elif edit == 4:
            step["evidence_ids"] = list(reversed(step["evidence_ids"])) or ids[:1]
        elif edit == 5:
            step["prior_step_ids"] = rng.choice([[], [f"step_{deduced:04d}"],
                                                 [f"step_{deduced + 1:04d}"] * 2,
                                                 [f"step_{target + 1:04d}"]])
        elif edit == 6:
            step["step_id"] = f"step_{target + 2:04d}"
        else:
            step["evidence_ids"] = step["evidence_ids"] + ids[-1:]
    steps[target] = encode(step)
    if target == deduced and rng.random() < 0.5:
        steps[mapped] = _rewritten_map(bundle, steps, mapped) or steps[mapped]
    return recommit(bundle, steps=steps), mapped


def _rewritten_map(bundle: Bundle, steps: list[bytes], mapped: int) -> bytes | None:
    """The map step recomputed from the (edited) deduce step it cites, if it can be."""
    try:
        spec = PromptSpec.from_cbor(bundle.prompt_spec)
        step = ReasoningStep.from_cbor(steps[mapped])
        prior = {s.step_id: s for s in (ReasoningStep.from_cbor(steps[i])
                                        for i in range(mapped))}
        items = {i.evidence_id: i for i in (EvidenceItem.from_cbor(e) for e in bundle.evidence)}
        deduce = prior[step.prior_step_ids[0]]
        body = decode(steps[mapped])
        body["evidence_ids"] = list(deduce.output.get("source_summary") or [])
        step = ReasoningStep.from_cbor(encode(body))
        return bytes(recompute_step(spec, step, items, prior).to_cbor())
    except (PorError, KeyError, IndexError, TypeError):
        return None


def compare(chain: ProofChecker, bundle: Bundle, index: int, kind: str) -> None:
    try:
        proof = build_one_step_proof(bundle, index).to_cbor()
    except PorError:
        COUNTS["unbuildable"] += 1  # a step citing an id no leaf carries (SPEC §10.7)
        return
    won, check_id, _gas = chain.any_proof(proof)
    assert (won, check_id) == python_answer(proof), (kind, proof.hex()[:600])
    COUNTS[kind] += 1
    COUNTS[f"id:{check_id}"] += 1


def exercise(chain: ProofChecker, bundle: Bundle, rng: random.Random, forged: int) -> None:
    compare(chain, bundle, _last(bundle, "map"), "step.honest")
    for index in range(len(bundle.steps) - 1):
        kind = ReasoningStep.from_cbor(bundle.steps[index]).inputs.get("kind")
        if kind != "extract_claims":  # routed to its executor (SPEC §14.8): Python's answer
            compare(chain, bundle, index, f"routed.{kind}")
            continue
        won, check_id, _gas = chain.any_proof(build_one_step_proof(bundle, index).to_cbor())
        assert not won and check_id.startswith("court_path:"), (index, check_id)
        COUNTS["court_path"] += 1
    for _ in range(forged):
        forged_bundle, mapped = forge(bundle, rng)
        compare(chain, forged_bundle, mapped, "step.forged")


def test_map_steps_on_every_fixture_market() -> None:
    rng = random.Random(24)  # noqa: S311 - seeded cases, not secrets
    for name in list_scenarios():
        exercise(_CHAIN, honest(name), rng, forged=FORGED)


@settings(max_examples=25, deadline=None)
@given(markets(), st.integers(0, 2**32 - 1))
def test_map_steps_on_generated_markets(case: Any, seed: int) -> None:
    spec, evidence = case
    bundle = bundle_from_bytes(build(spec, evidence).data)
    exercise(_CHAIN, bundle, random.Random(seed), forged=40)  # noqa: S311


def test_mutated_map_proofs() -> None:
    """Damaged proof bytes: both sides name the same failure."""
    rng = random.Random(7)  # noqa: S311 - seeded cases, not secrets
    for name in list_scenarios()[:13]:
        bundle = honest(name)
        proof = build_one_step_proof(bundle, _last(bundle, "map")).to_cbor()
        for _ in range(200):
            at = rng.randrange(len(proof))
            data = proof[:at] + bytes([proof[at] ^ (1 << rng.randrange(8))]) + proof[at + 1:]
            won, check_id, _gas = _CHAIN.any_proof(data)
            assert (won, check_id) == python_answer(data), (name, at)
            COUNTS["step.mutated"] += 1


def test_prompt_spec_is_only_hashed_on_chain() -> None:
    """SPEC §14.8 OneStepProof step 3's Limit, pinned: the contract reads no byte of
    the carried PromptSpec (it only hashes the leaf), so a committed PromptSpec that is
    not a record (not CBOR, another schema, a trailing byte) is won off chain and not on
    chain, where the map step it carries decides (the court path settles the rest)."""
    bundle = honest(list_scenarios()[0])
    index = _last(bundle, "map")
    for spec in (b"\xff", encode({"schema": "por.Verdict/1"}), bundle.prompt_spec + b"\x00"):
        proof = build_one_step_proof(recommit(bundle, prompt_spec=spec), index).to_cbor()
        assert python_answer(proof) == (True, "one_step.invalid_record")
        won, check_id, _gas = _CHAIN.any_proof(proof)
        assert (won, check_id) == (False, "one_step.match"), spec


def test_step_case_count() -> None:
    """At least 10 000 one-step proofs compared, and every outcome among them."""
    proofs = sum(v for k, v in COUNTS.items() if k.startswith("step."))
    if proofs == 0:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())), proofs)
    assert proofs >= 10_000, COUNTS
    reasons = {k[3:] for k in COUNTS if k.startswith("id:")}
    for needed in ("one_step.match", "one_step.mismatch", "one_step.unexecutable",
                   "one_step.invalid_record"):
        assert needed in reasons, needed
