"""Rule ids and confidence_policy's factors read by a switch (ADR 0013 "Addendum (s38,
judge8)", cut 2) against ``por check-proof``.

``PorJudgeNames.ruleCode`` tells the five canonical rule ids (and `isId` is asked only
for another text), ``PorJudgeNames.factors`` finds confidence_policy's five factors in
one walk, each key compared as a short constant (its bytes, then its length). The edges:
rule ids near the canonical ones (one byte off, a byte more or less, a NUL before or
after, another case, empty, too long, not a text, absent) at each place, the ids out of
stage order; each factor at and past its bounds. Each
PromptSpec edit is recommitted, judged as it stands and rejudged (Python's verdict,
when the judge gives one); the chain's (won, check id) must be Python's every time.
Factor keys with such near twins next to them are keys the chain does not read (SPEC
§14.8 JudgeProof, Limit): its answer must be the one without the twin.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import judge_proof, rejudged
from proof_check_support import ProofChecker, python_answer

from por.bundle.layout import Bundle
from por.encoding import decode, encode
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()
Spec = dict[str, Any]
MARKETS = (0, 7, 21)
DROP = object()

RULE_IDS = ("R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE",
            "R_INVALID_FALLBACK")
#: Values a rule_id is given (DROP: the key removed).
NEAR_IDS: tuple[Any, ...] = (
    "R_VALIDITX", "R_VALIDIT", "R_VALIDITYY", "\x00R_VALIDITY", "R_VALIDITY\x00",
    "r_validity", "R_CONFIDENCF", "R_INVALID_FALLBACKS", "R_OTHER", "", "R" * 128,
    "R" * 129, 5, b"R_VALIDITY", DROP)
FACTORS = {"default_confidence_bps": 7000, "min_confidence_for_yesno_bps": 5500,
           "conflict_factor_bps": 8000, "fallback_factor_bps": 9000,
           "invalid_confidence_bps": 0}


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    return ProofChecker()


def _put(node: dict[str, Any], key: str, value: Any) -> None:
    if value is DROP:
        node.pop(key, None)
    else:
        node[key] = value


def _rule_id(place: int, value: Any) -> Callable[[Spec], None]:
    def edit(spec: Spec) -> None:
        rules = spec["market"]["resolution_rules"]["rules"]
        if place < len(rules):
            _put(rules[place], "rule_id", value)
    return edit


def _swap(i: int, j: int) -> Callable[[Spec], None]:
    def edit(spec: Spec) -> None:
        rules = spec["market"]["resolution_rules"]["rules"]
        if max(i, j) < len(rules):
            rules[i]["rule_id"], rules[j]["rule_id"] = rules[j]["rule_id"], rules[i]["rule_id"]
    return edit


def _policy(key: str, value: Any) -> Callable[[Spec], None]:
    def edit(spec: Spec) -> None:
        policy = spec.setdefault("confidence_policy", {})
        if isinstance(policy, dict):
            _put(policy, key, value)
    return edit


def _edits() -> dict[str, Callable[[Spec], None]]:
    out: dict[str, Callable[[Spec], None]] = {}
    for place in range(5):
        for value in NEAR_IDS:
            out[f"rule.{place}={value!r}"] = _rule_id(place, value)
    for i, j in ((0, 1), (2, 3), (3, 4), (0, 4)):
        out[f"rule.swap.{i}.{j}"] = _swap(i, j)
    for key, default in FACTORS.items():
        for value in (0, 1, default, 9999, 10_000, 10_001, -1, "1"):
            out[f"policy.{key}={value!r}"] = _policy(key, value)
    return out


def _twins() -> dict[str, Callable[[Spec], None]]:
    """Keys near a factor's, valued 10 001 (no factor's range holds it): read as the
    factor, the answer would be ``one_step.invalid_record``."""
    out: dict[str, Callable[[Spec], None]] = {}
    for key in FACTORS:
        for twin in ("\x00" + key, key + "\x00", key[:-1], key[:-1] + "t", key.upper()):
            out[f"policy.twin.{twin!r}"] = _policy(twin, 10_001)
    return out


def _with(bundle: Bundle, edit: Callable[[Spec], None]) -> Bundle:
    spec = decode(bundle.prompt_spec)
    edit(spec)
    out: Bundle = recommit(bundle, prompt_spec=encode(spec))
    return out


@pytest.mark.parametrize("market", MARKETS)
def test_rule_ids_and_factors(router: ProofChecker, market: int) -> None:
    """Each edit, as committed and rejudged: the chain's answer is Python's."""
    bundle = honest(list_scenarios()[market])
    for name, edit in _edits().items():
        edited = _with(bundle, edit)
        router.same_as_python(judge_proof(edited), f"{market} {name}", COUNTS)
        again = rejudged(edited)
        if again is not None:
            router.same_as_python(judge_proof(again), f"{market} {name} rejudged", COUNTS)
    for variant in (bundle, rejudged(_with(bundle, _policy("conflict_factor_bps", 1)))):
        assert variant is not None
        want = python_answer(judge_proof(variant))
        for name, edit in _twins().items():
            proof = judge_proof(_with(variant, edit))
            # a key the chain does not read (SPEC §14.8 JudgeProof, Limit): Python refuses
            # the PromptSpec, the chain answers as without the key
            assert python_answer(proof) == (True, "one_step.invalid_record"), name
            won, check_id, _gas = router.any_proof(proof)
            assert (won, check_id) == want, f"{market} {name}"
            COUNTS["twin"] += 1


def test_rules_outcomes_seen() -> None:
    """Runs last: the edits reached refusals, matches and mismatches."""
    if not COUNTS:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())))
    for wanted in ("won:one_step.invalid_record", "won:judge.mismatch", "lost:judge.match"):
        assert COUNTS[wanted] > 0, COUNTS
    assert COUNTS["twin"] >= 2 * len(MARKETS) * 5 * len(FACTORS), COUNTS
