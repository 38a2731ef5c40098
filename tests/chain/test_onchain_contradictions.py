"""The ``contradictions`` step re-executed on chain (SPEC §12.5.5, §14.8) agrees with
``por check-proof``.

``PorContradictionsExec.execute`` (the committed build, in revm) and the Python library
get the same ``por.OneStepProof/1`` bytes and must give the same WON/LOST and check id.
Cases: the contradictions step of every fixture market and of generated markets with
one to three requirements (honest: lost ``one_step.match``), and forged bundles (every
commitment recomputed) where the contradictions step's output is edited (conflicts
added, dropped, reordered, values and ids swapped, claim counts, the tolerance text,
the description), a cited chunk's state is edited (numeric groups at and around the
boundary max - min == tolerance, edge decimals, booleans with and without `other`,
malformed groups, sources and counts, another requirement), the citations are edited
(chunks in another order, an item cited), or a PromptSpec field the chain reads is
malformed or changed. About half the chunk edits also rewrite the contradictions step
by por's own ``recompute_step``, so consistent steps (lost) are compared as often as
lies (won). At least 2 500 proofs are compared (``test_contradictions_case_count``).
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal
from typing import Any

from bundle_edits import honest, recommit
from exec_support import (
    CODE_LIMIT,
    OUTCOMES,
    ExecChecker,
    assert_case_count,
    deployed_size,
    every_market,
    generated_cases,
    generated_market,
    recomputed,
)

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()
#: Forged bundles per fixture market.
FORGED = 45
_CHAIN = ExecChecker("PorContradictionsExec")

#: Canonical decimals a forger may put in a group (edges of §3.2 included).
DECIMALS = ["0", "1", "-1", "0.5", "10.5", "-0.25", "9" * 63, "-" + "9" * 63,
            "0." + "0" * 61 + "1", "-0." + "0" * 61 + "1", "100", "99.5", "100.05",
            "123456789012345678901234567890.12345678901234567890123456789012"]
#: Malformed values of a claim reference or a tolerance.
BAD_DECIMALS: list[Any] = ["1.50", "-0", "01", ".5", "", "1e3", 5, True]


def _kind(step: bytes) -> str:
    return str(decode(step).get("inputs", {}).get("kind"))


def _contradictions(bundle: Bundle) -> int:
    return next(i for i, s in enumerate(bundle.steps) if _kind(s) == "contradictions")


def _leaf(step_id: str) -> int:
    return int(step_id[5:]) - 1


def _ref(claim: str, evidence: str, value: Any) -> dict[str, Any]:
    return {"claim_id": claim, "evidence_id": evidence, "value": value}


def _tolerance(bundle: Bundle) -> Decimal:
    return Decimal(decode(bundle.prompt_spec)["conflict_policy"]["numeric_tolerance"])


def new_group(rng: random.Random, tolerance: Decimal, key: str) -> dict[str, Any]:
    """A numeric group at, just inside or just outside the boundary, or a boolean one."""
    if rng.random() < 0.3:
        group = {"kind": "boolean", "key": key, "claim_count": rng.randint(1, 5),
                 "first": _ref("c_b1", "e_b1", rng.random() < 0.5)}
        if rng.random() < 0.6:
            group["other"] = _ref("c_b2", "e_b2", not group["first"]["value"])
        return group
    low = Decimal(rng.choice([*DECIMALS[:6], "100", "99.5"]))
    step = rng.choice([Decimal(0), Decimal("1e-30"), Decimal("0.01"), Decimal(1)])
    high = low + tolerance + rng.choice([-step, Decimal(0), step])
    text = [format(v.normalize(), "f") if v != 0 else "0" for v in (low, high)]
    text = [t.rstrip("0").rstrip(".") if "." in t else t for t in text]
    return {"kind": "numeric", "key": key, "claim_count": rng.randint(1, 5),
            "min": _ref("c_lo", "e_lo", text[0]), "max": _ref("c_hi", "e_hi", text[1])}


def edit_groups(out: dict[str, Any], rng: random.Random, tolerance: Decimal) -> None:
    """One edit of a chunk state's groups or other state keys (some malformed)."""
    groups = out["groups"]
    edit = rng.randrange(12)
    numeric = [g for g in groups if g["kind"] == "numeric"]
    if edit <= 3 or not groups:
        groups.insert(rng.randrange(len(groups) + 1),
                      new_group(rng, tolerance, rng.choice(["price", "value", "q", "at"])))
    elif edit == 4 and numeric:
        group = rng.choice(numeric)
        group[rng.choice(["min", "max"])]["value"] = rng.choice(DECIMALS)
    elif edit == 5 and numeric:
        group = rng.choice(numeric)
        group["min"], group["max"] = group["max"], group["min"]
    elif edit == 6:
        groups.append(dict(rng.choice(groups)))  # a group named twice: malformed
    elif edit == 7:
        group = rng.choice(groups)
        ref = group.get("min") or group["first"]
        ref["value"] = rng.choice(BAD_DECIMALS)  # malformed reference
    elif edit == 8:
        group = rng.choice(groups)
        choice = rng.randrange(5)
        if choice == 0:
            group["claim_count"] = 0
        elif choice == 1:
            group["kind"] = "text"
        elif choice == 2:
            group.pop("key")
        elif choice == 3:
            group["extra"] = 1
        else:
            group["claim_count"] = rng.choice([2**63 - 1, 2**63, -1, "3"])
    elif edit == 9:
        key = rng.choice(["claim_count", "admitted_count", "item_count", "chunk", "covered",
                          "provenance_ok", "last_leaf", "sources", "requirement_id"])
        out[key] = rng.choice([None, 0, 1, 2**63, True, False, "r9", []])
        if out[key] is None:
            del out[key]
    elif edit == 10:
        out["claim_count"] = out["claim_count"] + rng.randint(1, 4)
    else:
        group = rng.choice(groups)
        group["claim_count"] += 1
    if edit == 9 and out.get("sources") == [] and rng.random() < 0.5:
        out["sources"] = [{"evidence_id": "e1", "source_id": "s", "step_id": "step_0001"}] * 2


def edit_output(step: dict[str, Any], rng: random.Random) -> None:
    """One edit of the contradictions step's own record."""
    out = step["output"]
    conflicts = out["conflicts"]
    edit = rng.randrange(10)
    if edit == 0 and conflicts:
        conflicts.pop(rng.randrange(len(conflicts)))
    elif edit == 1 and conflicts:
        conflicts.append(dict(rng.choice(conflicts)))
    elif edit == 2 and len(conflicts) >= 2:
        conflicts.reverse()
    elif edit == 3 and conflicts:
        conflict = rng.choice(conflicts)
        field = rng.choice(["values", "claim_ids", "evidence_ids"])
        conflict[field] = list(reversed(conflict[field]))
    elif edit == 4 and conflicts:
        rng.choice(conflicts)["claim_count"] += rng.choice([-1, 1])
    elif edit == 5:
        out["claim_count"] += rng.choice([-1, 1]) if out["claim_count"] else 1
    elif edit == 6:
        out["numeric_tolerance"] = rng.choice(["0.50", "1", out["numeric_tolerance"] + "1", "0"])
    elif edit == 7:
        step["description"] = step["description"].replace("conflict(s)", "conflicts")
    elif edit == 8:
        conflicts.append({"check_id": "contradiction.numeric", "kind": "numeric", "key": "price",
                          "claim_ids": ["c1", "c2"], "evidence_ids": ["e1", "e2"],
                          "values": ["1", "2"], "claim_count": 2})
    else:
        step["evidence_ids"] = ["e0"] if rng.random() < 0.5 else step["evidence_ids"]
        step["prior_step_ids"] = list(reversed(step["prior_step_ids"]))


def edit_spec(spec: dict[str, Any], rng: random.Random) -> None:
    """A PromptSpec field the chain reads, malformed (invalid record) or changed."""
    edit = rng.randrange(5)
    policy = spec["conflict_policy"]
    if edit == 0:
        policy["numeric_tolerance"] = rng.choice([*BAD_DECIMALS, "-1", "-0.5"])
    elif edit == 1:
        policy["numeric_tolerance"] = rng.choice(["0", "0.5", "3", "1000000"])
    elif edit == 2:
        requirements = spec["data_requirements"]
        requirements.append(dict(requirements[0]))  # an id twice
    elif edit == 3:
        rng.choice(spec["data_requirements"])["requirement_id"] = rng.choice(["", 5, "x" * 129])
    else:
        spec["conflict_policy"] = rng.choice([[], "0", {"on_conflict": "invalid"}])


def forge(bundle: Bundle, rng: random.Random) -> Bundle:
    """The bundle with its contradictions step, a chunk it cites, its citations or the
    PromptSpec edited, recommitted."""
    steps = list(bundle.steps)
    index = _contradictions(bundle)
    step = decode(steps[index])
    target = rng.randrange(10)
    if target <= 4:
        chunk = _leaf(rng.choice(step["prior_step_ids"]))
        body = decode(steps[chunk])
        edit_groups(body["output"], rng, _tolerance(bundle))
        if rng.random() < 0.1:
            body["inputs"]["requirement_id"] = "r_other"
        steps[chunk] = encode(body)
        if rng.random() < 0.5:
            steps[index] = recomputed(bundle, steps, index) or steps[index]
        return recommit(bundle, steps=steps)
    if target <= 8:
        edit_output(step, rng)
        steps[index] = encode(step)
        return recommit(bundle, steps=steps)
    spec = decode(bundle.prompt_spec)
    edit_spec(spec, rng)
    return recommit(bundle, prompt_spec=encode(spec))


def compare(bundle: Bundle, kind: str) -> None:
    answer = _CHAIN.compare(bundle, _contradictions(bundle), kind, COUNTS)
    if answer is not None:
        COUNTS["gas_max"] = max(COUNTS["gas_max"], answer[2])


def exercise(bundle: Bundle, rng: random.Random, forged: int) -> None:
    compare(bundle, "step.honest")
    for _ in range(forged):
        compare(forge(bundle, rng), "step.forged")


def test_contradictions_on_every_fixture_market() -> None:
    every_market(exercise, 245, FORGED)


@generated_cases(max_examples=30)
def test_contradictions_on_generated_markets(case: Any, seed: int) -> None:
    generated_market(exercise, case, seed, forged=25)


def test_other_kinds_take_the_court_path() -> None:
    """Every other step kind reverts CourtPath(kind): its own executor decides it."""
    bundle = honest(list_scenarios()[8])
    index = _contradictions(bundle)
    for other in (0, index - 1, index + 1, len(bundle.steps) - 1):
        won, check_id, _gas = _CHAIN.execute(build_one_step_proof(bundle, other).to_cbor())
        assert not won and check_id.startswith("court_path:")
        assert check_id != "court_path:contradictions"


def test_contradictions_case_count() -> None:
    """At least 2 500 proofs compared, every outcome among them; both contracts of the
    executor fit the code-size limit."""
    assert_case_count(COUNTS, "step.", OUTCOMES, minimum=2_500)
    print("code size", _CHAIN.code_size())
    for name in ("PorContradictionsExec", "PorContradictionsMerge"):
        assert deployed_size(name) <= CODE_LIMIT, (name, deployed_size(name))
