"""s41 bounded-work review of the executors on chain forms (report of helper ``xjs``;
docs/adr/0017, addendum "(s41, xjs)").

A FormStepProof carries at most 67 forms (SPEC §10.2.9) but every count inside a carried
form is the signer's: bounded only by the form's bytes (a form lie is its FormProof's,
§5.6.15, but the executor still runs on it; s40's ``test_s40_attack`` fixed the
aggregate's pairwise source check on the same model). Each case here edits scenario
08's honest records (``forms_route_support.honest_market``: 23 items, one requirement),
recomputes every form with ``por.forms`` (so the case follows whatever layout §5.6 has),
commits them under a recomputed ``por_root`` and builds the FormStepProof of the kind's
step; :func:`gas` is the executor's execution gas in revm.

A loop whose work grows faster than the bytes that drive it lets a signer price an
honest challenger's proof out of a block. Each such case is marked
``xfail(strict=True)`` with what grows: once its executor is fixed the case passes,
which strict turns into a failure (XPASS): then the mark goes. The linear budget:
:data:`FACTOR`, the most gas may grow from 100 to 1 000 elements (10x the bytes) for the
loop to count as at most n log n, and :data:`PER_BYTE`, the most gas a byte of call data
may cost at 1 000.

Since s42 (``dedbound``) this file is the test of SPEC §10.7's normative bound ("Work of
an executor on forms"): no case is left unbounded, and the two constants above are the
ones §10.7 states.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from eth_abi.abi import decode as abi_decode
from forms_harness import EXECUTE, call, deploy, proof_call_data, selector
from forms_route_support import honest_market, leaf_of
from scratch_harness import SOLC

from por.bundle.layout import COMPONENT_INDEX, COMPONENTS
from por.challenge.form_step import build_form_step_proof, verify_form_step_proof
from por.challenge.records import FormStepProof, seal
from por.container.spec import component_leaf
from por.encoding import decode
from por.forms import forms_of
from por.merkle.hashing import leaf_hash
from por.merkle.tree import inclusion_proof_from_leaf_hashes, root_from_leaf_hashes
from por.signing.eip712 import keccak256

pytestmark = SOLC

#: The executor contract of each FormStepProof kind.
EXECUTOR = {"check": "PorCheckForm", "aggregate": "PorAggregateForm",
            "deduce": "PorDeduceForm", "judge": "PorJudgeForm"}
#: From 100 to 1 000 elements the bytes grow 10x: a linear loop's gas about 10x, n log n
#: about 15x; quadratic about 100x. 20 separates them.
FACTOR = 20
#: SPEC §10.7: at 1 000 elements at most this much execution gas per byte of call data
#: (s42: at most 109 measured, the deduce executor's evidence lookups; honest 10 to 17).
PER_BYTE = 128

Records = tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]
Edit = Callable[[Records, int], None]
#: When set (``test_s41_bounds_rebuilt``): the disputed form's replacement, from the
#: carried forms, their indexes and the forms count (recommitted by :func:`hostile`).
REPLACE: Callable[[list[bytes], list[int], int], bytes] | None = None


def hostile(kind: str, edit: Edit, n: int) -> FormStepProof:
    """``kind``'s FormStepProof over scenario 08's records after ``edit(records, n)``,
    every form recomputed and committed under a recomputed ``por_root`` (components
    0-5 the honest bundle's: the executors read component 6 only)."""
    bundle = honest_market()
    honest = build_form_step_proof(bundle, kind, None if kind == "judge" else leaf_of(kind))
    records: Records = (decode(bundle.prompt_spec), [decode(s) for s in bundle.steps],
                        decode(bundle.verdict))
    edit(records, n)
    forms = forms_of(*records)
    index = list(honest.index) if kind == "judge" else carried(records, leaf_of(kind))
    components = [leaf_hash(component_leaf(*bundle.commitments.component(name)))
                  for name in COMPONENTS[:COMPONENT_INDEX["forms"]]]
    components.append(leaf_hash(component_leaf(forms.root, forms.size)))
    leaves = [f.leaf for f in forms.forms]
    sent = [forms.forms[i].form for i in index]
    if REPLACE is not None:
        sent[0] = REPLACE(sent, index, forms.size)
        leaves[index[0]] = leaf_hash(sent[0])
        components[-1] = leaf_hash(component_leaf(root_from_leaf_hashes(leaves), forms.size))
    body = {"schema": FormStepProof.SCHEMA, "kind": kind,
            "por_root": root_from_leaf_hashes(components),
            "forms": sent, "index": index,
            "forms_size": forms.size,
            "paths": [inclusion_proof_from_leaf_hashes(leaves, i) for i in index],
            "forms_path": inclusion_proof_from_leaf_hashes(components, 6)}
    proof: FormStepProof = seal(FormStepProof, body)
    return proof


def carried(records: Records, leaf: int) -> list[int]:
    """The forms indexes a check, aggregate or deduce FormStepProof on reasoning leaf
    ``leaf`` carries (SPEC §10.2.9): the step, COMMON, R's REQUIREMENT (not for deduce),
    then the first leaf of each cited id."""
    spec, steps, _verdict = records
    base = 1 + len(spec["data_requirements"])
    step = steps[leaf]
    head = [base + leaf, 0]
    if step["inputs"]["kind"] != "deduce":
        ids = [q["requirement_id"] for q in spec["data_requirements"]]
        rid = step["inputs"]["requirement_id"]
        head.append(1 + (ids.index(rid) if rid in ids else 0))
    first = {}
    for j, s in enumerate(steps):
        first.setdefault(s["step_id"], j)
    return head + [base + first[i] for i in step["prior_step_ids"]]


def gas(kind: str, edit: Edit, n: int) -> tuple[int, int]:
    """(execution gas, call data bytes) of ``kind``'s executor on the hostile proof; the
    call must answer (a revert has no gas figure)."""
    data = proof_call_data(hostile(kind, edit, n))
    assert data[:4] == selector(EXECUTE)
    out, used = call(deploy(EXECUTOR[kind]), data)
    if not isinstance(out, bytes):  # not the xfail's AssertionError: the case is broken
        raise RuntimeError(f"{kind} executor reverted ({out}) at n = {n}")
    return used, len(data)


# ------------------------------------------------------------------ the edits

CHECK = leaf_of("check")  # the last chunk; it cites three extract steps, then P
P = CHECK - 1
AGGREGATE = leaf_of("aggregate")  # cites three extract steps (one per source), then C
DEDUCE = leaf_of("deduce")  # cites the aggregate, then the contradictions step


def prior_sources(records: Records, n: int) -> None:
    """P (the chunk the disputed chunk cites) lists ``n`` more distinct sources."""
    out = records[1][P]["output"]
    out["sources"] += [{"step_id": f"step_x{k}", "source_id": f"src-{k}",
                        "evidence_id": f"ev-x{k}"} for k in range(n)]


def prior_groups(records: Records, n: int) -> None:
    """P holds ``n`` more boolean groups of distinct keys."""
    out = records[1][P]["output"]
    out["groups"] += [{"kind": "boolean", "key": f"k{k}", "claim_count": 1,
                       "first": {"claim_id": f"c{k}", "evidence_id": "ev-000000", "value": True}}
                      for k in range(n)]


def item_claims(records: Records, n: int) -> None:
    """The disputed chunk's first cited item (admitted) holds ``n`` more boolean claims of
    distinct keys: each opens a group."""
    first = records[1][CHECK]["prior_step_ids"][0]
    step = next(s for s in records[1] if s["step_id"] == first)
    step["output"]["claims"] += [{"key": f"k{k}", "kind": "boolean", "path": f"$.k{k}",
                                  "value": True, "claim_id": f"c{k}"} for k in range(n)]


def fields_and_claims(records: Records, n: int) -> None:
    """The aggregate's REQUIREMENT declares ``n`` more numeric fields and its first cited
    item holds a claim for each, in the fields' order: every field's voters are found by
    walking that item's claims."""
    spec, steps, _verdict = records
    spec["data_requirements"][0]["expected_fields"] += [
        {"key": f"k{k}", "kind": "numeric", "json_path": f"$.k{k}"} for k in range(n)]
    first = steps[AGGREGATE]["prior_step_ids"][0]
    step = next(s for s in steps if s["step_id"] == first)
    step["output"]["claims"] += [{"key": f"k{k}", "kind": "numeric", "path": f"$.k{k}",
                                  "value": "1", "claim_id": f"c{k}"} for k in range(n)]


def fallback_targets(records: Records, n: int) -> None:
    """``fields_and_claims`` under ``fallback_chain`` with ``n`` more source targets
    (none a voter's source): each field ranks its voters against every target (s42
    ``dedbound``; ``PorAggregateFormVote._rank``, fields x voters x targets)."""
    fields_and_claims(records, n)
    q = records[0]["data_requirements"][0]
    q["selection_policy"]["strategy"] = "fallback_chain"
    q["source_targets"] += [{"uri": f"https://x{k}.example/", "method": "GET",
                             "source_id": f"x-{k}", "expected_content_type": "application/json"}
                            for k in range(n)]


def read_evidence(records: Records, n: int) -> None:
    """The cited aggregate cites ``n`` more evidence ids and its metric field (the one
    deduce reads) names them all: each is looked up among the aggregate's ids, then
    deduplicated into the summary."""
    steps = records[1]
    agg = steps[AGGREGATE]
    ids = [f"ev-x{k}" for k in range(n)]
    agg["evidence_ids"] += ids
    field = next(f for f in agg["output"]["fields"] if f["key"] == "close")
    field["evidence_ids"] += ids


def terms_and_fields(records: Records, n: int) -> None:
    """COMMON's predicate adds ``n`` terms and the cited aggregate ``n`` fields, no key
    shared: each term is looked for in every field."""
    spec, steps, _verdict = records
    spec["prediction_semantics"]["terms"] = [{"op": "+", "metric": f"t{k}"} for k in range(n)]
    steps[AGGREGATE]["output"]["fields"] += [
        {"key": f"f{k}", "kind": "numeric", "status": "missing", "candidates": 0,
         "fallback_used": False, "claim_ids": [], "evidence_ids": []} for k in range(n)]


def terms_and_conflicts(records: Records, n: int) -> None:
    """COMMON's predicate adds ``n`` terms, each a selected numeric field of the cited
    aggregate (so each term is read), and the contradictions step ``n`` numeric
    conflicts of other keys: each read term is looked for among the conflicts (s42
    ``dedbound``; ``_inConflicts``, needed fields x conflicts)."""
    spec, steps, _verdict = records
    spec["prediction_semantics"]["terms"] = [{"op": "+", "metric": f"t{k}"} for k in range(n)]
    agg = steps[AGGREGATE]
    close = next(f for f in agg["output"]["fields"] if f["key"] == "close")
    agg["output"]["fields"] += [
        {**close, "key": f"t{k}", "value": str(k)} for k in range(n)]
    contra = next(s for s in steps if s["step_id"] == steps[DEDUCE]["prior_step_ids"][-1])
    contra["output"]["conflicts"] = [
        {"check_id": "contradiction.numeric", "kind": "numeric", "key": f"c{k}",
         "claim_ids": [], "evidence_ids": [], "values": ["1", "2"], "claim_count": 2}
        for k in range(n)]


def chunk_sources(records: Records, n: int) -> None:
    """The aggregate's C lists ``n`` more distinct sources (s40's finding 2, fixed by a
    merge sort: the control case, bounded)."""
    out = records[1][AGGREGATE - 1]["output"]
    out["sources"] += [{"step_id": f"step_x{k}", "source_id": f"src-{k}",
                        "evidence_id": f"ev-x{k}"} for k in range(n)]


def quorum_voters(records: Records, n: int) -> None:
    """The aggregate cites ``n`` items (1..23) of distinct sources whose ``close`` values
    all disagree (64-character decimals at scales 0 and 62: their aligned words pass
    2^254, so every pair is compared exactly), tiers rising (the tie order's insertion
    sort moves every voter), quorum and min_sources ``n`` (no group is ever met: every
    pair is counted)."""
    spec, steps, _verdict = records
    q = spec["data_requirements"][0]
    q["selection_policy"].update(quorum=n, min_sources=n, tie_breaker="highest_provenance")
    chunk = steps[AGGREGATE - 1]
    extracts = [j for j, s in enumerate(steps) if s["step_type"] == "extract"][:n]
    for rank, j in enumerate(extracts):
        out = steps[j]["output"]
        out["card"]["source_id"] = f"src-{rank:02d}"
        out["card"]["provenance_tier"] = rank * 4 // n
        close = next(c for c in out["claims"] if c["key"] == "close")
        close["value"] = (str(rank + 1) + "7" * 62 if rank % 2 else
                          "0." + "0" * 60 + str(rank + 1).rjust(2, "1"))
    chunk["output"]["sources"] = [
        {"step_id": steps[j]["step_id"], "source_id": steps[j]["output"]["card"]["source_id"],
         "evidence_id": steps[j]["output"]["evidence_id"]} for j in extracts]
    agg = steps[AGGREGATE]
    agg["prior_step_ids"] = [steps[j]["step_id"] for j in extracts] + [chunk["step_id"]]
    agg["evidence_ids"] = [steps[j]["output"]["evidence_id"] for j in extracts]


#: name -> (kind, edit, reason it is not bounded, or None when it is).
CASES: dict[str, tuple[str, Edit, str | None]] = {
    "aggregate: C's sources (control)": ("aggregate", chunk_sources, None),
    # bounded at s41's integration (execa, a8fd662: PorFormsSort, a merge sort above 16)
    "check: P's sources": ("check", prior_sources, None),
    "check: P's groups": ("check", prior_groups, None),
    # bounded by boundsa (s41): a scan up to 16 groups, then PorCheckFormState.fold (a sort)
    "check: an item's claims": ("check", item_claims, None),
    # bounded by boundsa (s41): above 16 fields, the cited claims sorted once (_index)
    "aggregate: fields x claims": ("aggregate", fields_and_claims, None),
    # bounded by dedbound (s42): above 16 targets, one sort of them and a binary search
    "aggregate: fallback targets": ("aggregate", fallback_targets, None),
    # bounded at s41's integration (execb2, d8debd8: PorFormsIndex, sort + binary search)
    "deduce: read evidence": ("deduce", read_evidence, None),
    # bounded by dedbound (s42): past 16 needed fields and 16 fields, one sort of the
    # fields' keys (_findAll); past 16 conflicts, one sort of their (kind, key) words
    "deduce: terms x fields": ("deduce", terms_and_fields, None),
    "deduce: terms x conflicts": ("deduce", terms_and_conflicts, None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gas_grows_at_most_n_log_n(name: str, request: pytest.FixtureRequest) -> None:
    kind, edit, unbounded = CASES[name]
    if unbounded is not None:
        request.applymarker(pytest.mark.xfail(strict=True, raises=AssertionError,
                                              reason=unbounded))
    small, _ = gas(kind, edit, 100)
    big, size = gas(kind, edit, 1000)
    assert big < FACTOR * small, (name, small, big)
    assert big <= PER_BYTE * size, (name, big, size)


Answer = tuple[bool, bytes, bytes]


def answers(kind: str, edit: Edit, n: int) -> tuple[Answer, Answer]:
    """(chain, Python) answers (won, keccak of the check id, keccak of the cause or 0) on
    the hostile proof: the executor and its twin (``verify_form_step_proof``)."""
    proof = hostile(kind, edit, n)
    out, _gas = call(deploy(EXECUTOR[kind]), proof_call_data(proof))
    if not isinstance(out, bytes):
        raise RuntimeError(f"{kind} executor reverted ({out}) at n = {n}")
    won, check_id, cause = abi_decode(["bool", "bytes32", "bytes32"], out)
    outcome = verify_form_step_proof(proof)
    twin = (outcome.outcome == "won", keccak256(outcome.reason.encode()),
            keccak256(outcome.cause.encode()) if outcome.cause else bytes(32))
    return (bool(won), check_id, cause), twin


@pytest.mark.parametrize("name", sorted(CASES))
def test_chain_and_python_agree_on_each_case(name: str) -> None:
    kind, edit, _unbounded = CASES[name]
    chain, twin = answers(kind, edit, 100)
    assert chain == twin, name
    assert chain[0], name  # every case is a lie: a won proof


@pytest.mark.parametrize("n", [3, 10, 23])
def test_quorum_votes_chain_equals_python(n: int) -> None:
    """Bounded (the voters are cited items: at most 63 under MAX_FORMS, 10 when C is
    honest) but the most gas per byte: every pair compared exactly (ADR 0017 s41 xjs:
    about 2 460 gas a voter pair, about 10.9 M for one numeric field at 63 voters)."""
    chain, twin = answers("aggregate", quorum_voters, n)
    assert chain == twin
    assert chain[0]
