"""Attacks on the s33 wave's kinds through what they read from carried records (issue
24): the aggregate's one-word quorum and ``absDiffLe`` fallback, contradictions'
merge, deduce's spec reader (``PorDeduceSpec``), the claims walk (``PorAggregateRead``)
and the check's keys (``PorCheckKeys``). Helpers: ``test_onchain_attacks_s33.py``.

* consistent traces (por's recompute) and lies over claim values at the one-word edge
  of the quorum (2^254 aligned to 62 fractional digits), 63/64-digit values, distances
  at exactly the tolerance and one unit past it;
* the carried extract step's claims in every shape, as lies and consistent traces;
* the carried PromptSpec's tolerance, threshold, comparison, metric and quorum at their
  edges, extra keys of 23-33 bytes, fields dropped, on scenario 08 and (the prediction
  fields) on every fixture market. A field a kind does not read is the documented
  limit of SPEC §10.5 step 3 (won ``one_step.invalid_record`` off chain, lost
  ``one_step.match`` on chain: the court path), held to exactly that pair.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import recomputed
from proof_check_support import ProofChecker, python_answer
from test_onchain_attacks_s33 import (
    MARKET,  # noqa: F401 (the `bundle` fixture's market)
    STEPS,
    Value,
    _put,
    edited,
    every_step,
    step_proof,
)
from test_onchain_attacks_s33 import one_step as _one_step
from test_onchain_attacks_s33 import same as _same

from por.bundle.layout import Bundle
from por.encoding import decode, encode
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()


def one_step(router: ProofChecker, name: str, bundle: Bundle, index: int) -> None:
    _one_step(router, name, bundle, index, COUNTS)


def _consistent(bundle: Bundle, values: tuple[str, ...]) -> Bundle:
    """``bundle`` with extract leaf j's first claim (``close``) ``values[j]`` and the
    steps after them recomputed by por (a consistent trace, where it can be)."""
    steps = list(bundle.steps)
    for j, text in enumerate(values):
        value = decode(steps[j])
        value["output"]["claims"][0]["value"] = text
        steps[j] = encode(value)
    for index in range(3, len(steps)):
        redone = recomputed(bundle, steps, index)
        if redone is not None:
            steps[index] = redone
    return recommit(bundle, steps=steps)


#: 2^254 / 10^62 = 289480223093290.48...: an integer of 15 digits aligned to scale 62
#: fits the aggregate's one-word path up to 289480223093290, past it ``absDiffLe``.
EDGE = "289480223093290"
TINY = "0." + "0" * 61 + "1"
QUORUMS = [
    (EDGE, EDGE, TINY), ("289480223093291", "289480223093291", TINY),
    ("-" + EDGE, "-" + EDGE, TINY), ("-289480223093291", "289480223093291", TINY),
    (EDGE, "289480223093290.05", TINY), ("289480223093291", "289480223093291.05", TINY),
    ("289480223093291", "289480223093291.0500000000000000000000000000000000000000000001", "1"),
    ("9" * 64, "9" * 63 + "8", "1"), ("1" + "0" * 63, "9" * 63, "-" + "9" * 63),
    (TINY, "0.05", "0"), ("0.05", TINY, "-0." + "0" * 60 + "1"),
    ("-0.025", "0.025", "0.025" + "0" * 57 + "1"), ("251.4", "251.45", "251.45" + "0" * 57 + "1"),
    ("251.4", "251.35", "251.45"),
    ("-" + "9" * 60 + ".5", "-" + "9" * 59 + ".45", "-" + "9" * 60 + ".55"),
]


def test_decimal_quorum(router: ProofChecker, bundle: Bundle) -> None:
    """Consistent traces over claim values at the one-word edge of the aggregate's
    quorum (aligned to 62 fractional digits), 63/64-digit values, distances at exactly
    the tolerance and one unit past it, in the aggregate, contradictions and deduce;
    then each step's output flipped (a lie)."""
    for values in QUORUMS:
        forged = _consistent(bundle, values)
        for index in (3, 4, 5, 6, 7):
            one_step(router, f"quorum {values} {index}", forged, index)
        for index, key, flip in ((4, "fields", None), (5, "conflicts", []),
                                 (6, "conflict_detected", None)):
            def lie(step: Value, key: str = key, flip: Any = flip) -> None:
                out = step["output"]
                if key == "fields":
                    quorum = out["fields"][0]["quorum"]
                    quorum["met"] = not quorum["met"]
                elif key == "conflicts":
                    out["conflicts"] = [] if out["conflicts"] else flip
                    out["conflicts"] = out["conflicts"] or []
                    out["claim_count"] = out["claim_count"] + 1
                else:
                    out[key] = not out[key]
            one_step(router, f"quorum lie {values} {index}", edited(forged, index, lie), index)

def _recomputed_after(bundle: Bundle, index: int, edit: Callable[[Value], None]) -> Bundle:
    """Extract leaf ``index`` edited, the steps after the extracts recomputed by por."""
    steps = list(edited(bundle, index, edit).steps)
    for later in range(3, len(steps)):
        redone = recomputed(bundle, steps, later)
        if redone is not None:
            steps[later] = redone
    return recommit(bundle, steps=steps)


def _claims(shape: str) -> Callable[[Value], None]:
    def edit(step: Value) -> None:
        out = step["output"]
        claims = out["claims"]
        first = dict(claims[0])
        if shape == "drop":
            out.pop("claims")
        elif shape in SHAPED:
            out["claims"] = SHAPED[shape]
        elif shape == "twice":
            out["claims"] = [first, {**first, "claim_id": "cl_000000000000"}]
        elif shape == "same id":
            out["claims"] = [first, {**claims[1], "claim_id": first["claim_id"]}]
        elif shape == "reversed":
            out["claims"] = claims[::-1]
        elif shape.startswith("value="):
            claims[0]["value"] = VALUES[shape[6:]]
        elif shape.startswith("no "):
            claims[0].pop(shape[3:])
        elif shape.startswith("key="):
            claims[0]["key"] = shape[4:]
            claims[1]["key"] = shape[4:]
        elif shape.startswith("kind="):
            claims[0]["kind"] = shape[5:]
    return edit


SHAPED: dict[str, Any] = {"empty": [], "ints": [1], "texts": ["x"], "arrays": [[]],
                          "map": {"a": 1}, "maps": [{}], "nested": [[{"key": "close"}]]}
VALUES: dict[str, Any] = {"int": 251, "neg": -251, "true": True, "noncanon": "251.50",
                          "exp": "2.5e2", "list": ["251.4"], "map": {"v": "251.4"},
                          "empty": "", "64": "1" * 64, "65": "1" * 65}
CLAIM_SHAPES = ["drop", *SHAPED, "twice", "same id", "reversed", *(f"value={v}" for v in VALUES),
                "no key", "no value", "no kind", "no claim_id", "no path", "key=" + "c" * 23,
                "key=" + "c" * 24, "key=" + "c" * 33, "key=", "key=\u00e9", "kind=text",
                "kind=timestamp", "kind=numeric "]


def test_claim_shapes(router: ProofChecker, bundle: Bundle) -> None:
    """The carried extract step's claims in every shape (not a list, lists of
    non-maps, repeated ids and keys, values of every type and length, keys of 23/24/33
    bytes), each as a lie (later steps kept) and in a consistent trace (recomputed)."""
    for shape in CLAIM_SHAPES:
        every_step(router, f"claims {shape}", bundle, 1, _claims(shape), counts=COUNTS)
        forged = _recomputed_after(bundle, 1, _claims(shape))
        for index in STEPS:
            one_step(router, f"claims {shape} consistent {index}", forged, index)

def _spec(path: tuple[Any, ...], value: Any) -> Callable[[Value], None]:
    def edit(spec: Value) -> None:
        target = spec
        for key in path[:-1]:
            target = target[key]
        if value is _DROP:
            target.pop(path[-1])
        else:
            target[path[-1]] = value
    return edit


_DROP = object()
SEMANTICS = ("prediction_semantics",)
QUORUM = ("data_requirements", 0, "selection_policy")
SPEC_EDITS: list[tuple[tuple[Any, ...], Any]] = [
    *((("conflict_policy", "numeric_tolerance"), v) for v in (
        TINY, "0", "9" * 64, "1" * 63, "0.5", "289480223093290", "289480223093291", "0.050", 5)),
    *(((*SEMANTICS, "threshold"), v) for v in (
        "251.4", "-" + "9" * 63, "9" * 64, "251." + "3" * 60, "251.40", TINY, 250)),
    *(((*SEMANTICS, "comparison"), v) for v in (">=", "<", "<=", "==", "!=", ">", " >")),
    *(((*SEMANTICS, "metric"), v) for v in ("as_of", "closed", "", "c" * 24)),
    *(((*SEMANTICS, key), 1) for key in ("k" * 23, "k" * 24, "k" * 25, "k" * 32, "k" * 33, "a")),
    *(((*SEMANTICS, key), _DROP) for key in ("metric", "threshold", "comparison", "predicate")),
    *(((*QUORUM, "quorum"), v) for v in (0, 1, 3, 4, 2**63, "2")),
    *(((*QUORUM, "min_sources"), v) for v in (0, 2, 4)),
    *(((*QUORUM, key), 1) for key in ("k" * 23, "k" * 24, "quorumm", "z" * 33)),
    ((*QUORUM, "tie_breaker"), "first"), ((*QUORUM, "strategy"), "single_best_source"),
    (("data_requirements", 0, "expected_fields", 0, "kind"), "text"),
    (("data_requirements", 0, "expected_fields", 0, "key"), "c" * 24),
]


#: The kinds (step leaves of scenario 08) whose SPEC §10.5 step 6 row reads a PromptSpec
#: field: a malformed field read there is won ``one_step.invalid_record`` on chain too.
READS: dict[Any, set[int]] = {
    "numeric_tolerance": {4, 5}, "threshold": {6}, "comparison": {6}, "metric": {3, 4, 6},
    "predicate": {3, 6}, "quorum": {4}, "min_sources": {4}, "tie_breaker": {4},
    "strategy": {4, 6}, "kind": {4}, "key": {4}}


def spec_case(router: ProofChecker, name: str, bundle: Bundle, index: int, read: bool) -> None:
    """``one_step``, where a PromptSpec malformed in a field the kind does not read may
    be lost ``one_step.match`` on chain (SPEC §10.5 step 3 **Limit**: the court path)."""
    proof = step_proof(bundle, index)
    expected = python_answer(proof)
    got = router.any_proof(proof)[:2]
    if got != expected and not read:
        assert (got, expected) == ((False, "one_step.match"), (True, "one_step.invalid_record"))
        COUNTS["limit:prompt_spec"] += 1
        return
    _same(router, name, proof, COUNTS)


def test_prompt_spec_edges(router: ProofChecker, bundle: Bundle) -> None:
    """The carried PromptSpec's tolerance, threshold, comparison, metric and quorum at
    their edges (62 fractional digits, 63/64 digits, the one-word edge), extra keys of
    23-33 bytes, fields dropped: each as a lie (the trace kept) and consistent (the
    trace recomputed under the edited spec). A field a kind reads gets Python's answer;
    one it does not read may be the documented limit (``spec_case``)."""
    for path, value in SPEC_EDITS:
        spec = decode(bundle.prompt_spec)
        _spec(path, value)(spec)
        lying = recommit(bundle, prompt_spec=encode(spec))
        steps = list(lying.steps)
        for later in range(3, len(steps)):
            redone = recomputed(lying, steps, later)
            if redone is not None:
                steps[later] = redone
        consistent = recommit(lying, steps=steps)
        for index in STEPS:
            read = index in READS.get(path[-1], set())
            spec_case(router, f"spec {path} {value!r} {index}", lying, index, read)
            spec_case(router, f"spec {path} {value!r} consistent {index}", consistent, index,
                      read)

#: The ``prediction_semantics`` fields deduce reads (SPEC §10.5 step 6, its row).
DEDUCE_READS = {"predicate", "metric", "comparison", "threshold", "lower", "upper",
                "lower_inclusive", "upper_inclusive", "terms", "other_metric", "expected_text",
                "absent_means_no", "sources_required", "preconditions"}


def test_every_market_prediction_fields(router: ProofChecker) -> None:
    """On every fixture market, each ``prediction_semantics`` field dropped or made a
    byte string, a 23/24-byte key added there, and each non-extract step's output given
    a 23/24-byte key: deduce's spec reader (``PorDeduceSpec``) and every kind agree
    with Python, or give the documented limit for a field they do not read."""
    for name in list_scenarios():
        market = honest(name)
        kinds = [decode(s)["inputs"].get("kind") for s in market.steps]
        later = [i for i, k in enumerate(kinds) if k != "extract_claims"]
        semantics = decode(market.prompt_spec)["market"].get("prediction_semantics") or \
            decode(market.prompt_spec).get("prediction_semantics", {})
        edits: list[tuple[str, Any]] = [(key, _DROP) for key in semantics]
        edits += [(key, b"\x01") for key in semantics]
        edits += [("k" * 23, 1), ("k" * 24, 1)]
        for key, value in edits:
            spec = decode(market.prompt_spec)
            _spec((*SEMANTICS, key), value)(spec)
            forged = recommit(market, prompt_spec=encode(spec))
            for index in (i for i in later if kinds[i] in ("deduce", "map")):
                read = (kinds[index] == "deduce" and key in DEDUCE_READS) or (
                    kinds[index] == "check_requirement" and key in ("metric", "predicate"))
                spec_case(router, f"{name} {key} {index}", forged, index, read)
        for index in later:
            for key in ("k" * 23, "k" * 24):
                one_step(router, f"{name} output {key} {index}",
                         edited(market, index, _put("output", key, 1)), index)

def _renamed(bundle: Bundle, key: str) -> Bundle:
    """The ``close`` field renamed ``key`` everywhere (the requirement's expected field,
    the metric, every extract step's claim), the later steps recomputed by por."""
    spec = decode(bundle.prompt_spec)
    spec["data_requirements"][0]["expected_fields"][0]["key"] = key
    spec["prediction_semantics"]["metric"] = key
    steps = list(bundle.steps)
    for j in range(3):
        value = decode(steps[j])
        value["output"]["claims"][0]["key"] = key
        value["output"]["claims"].sort(key=lambda claim: claim["key"])
        steps[j] = encode(value)
    renamed = recommit(bundle, prompt_spec=encode(spec), steps=steps)
    for later in range(3, len(steps)):
        redone = recomputed(renamed, steps, later)
        if redone is not None:
            steps[later] = redone
    return recommit(renamed, steps=steps)


def _lie(step: Value) -> None:
    out = step["output"]
    if "fields" in out:
        out["fields"][0]["value"] = "251.41"
    if "numeric_value" in out:
        out["numeric_value"] = "251.41"
    if "groups" in out:
        out["groups"][0]["claim_count"] += 1


def test_long_field_keys(router: ProofChecker, bundle: Bundle) -> None:
    """A field key (expected field, metric, claims) of 22-40 bytes and multi-byte UTF-8,
    on both sides of the one-byte text head (24) and the one-word key (32): the
    consistent trace is lost ``one_step.match`` on both sides, each lie won."""
    for key in ("c" * 22, "c" * 23, "c" * 24, "c" * 25, "c" * 31, "c" * 32, "c" * 33, "c" * 40,
                "\u00e9" * 12):
        renamed = _renamed(bundle, key)
        for index in STEPS:
            one_step(router, f"field key {len(key)} {index}", renamed, index)
        for index in (3, 4, 6):
            one_step(router, f"field key lie {len(key)} {index}", edited(renamed, index, _lie),
                     index)


def test_attack_case_count() -> None:
    """Runs last: the families reached both sides with the outcomes they aim at."""
    if not COUNTS:
        pytest.skip("run with the whole module")
    print(f"\n{sum(COUNTS.values())} attacks compared: {dict(sorted(COUNTS.items()))}")
    for wanted in ("won:one_step.invalid_record", "won:one_step.mismatch",
                   "won:one_step.unexecutable", "lost:one_step.match", "limit:prompt_spec"):
        assert COUNTS[wanted] > 0, (wanted, sorted(COUNTS))
