"""Attacks on the on-chain OmissionProof checker and the step item cap (issue 24).

Each case is a proof an attacker may send: ``PorOmissionExec.check`` (or
``PorProofCheck.checkProof`` for a one-step proof; revm, the committed build) and
``por check-proof`` must give the same WON/LOST and check id.  Families:

* parts swapped or duplicated: the evidence part is the step leaf itself, an extract
  step carried as the step, an item as the step, both parts one leaf;
* inclusion parts whose ``leaf_index``/``tree_size`` sit at and past the tree's edges
  (0, n-1, n, 2^63-1, 2^63, 2^64-1), resealed (a forged part must not verify);
* extract steps with extra, missing or mistyped output keys (keys ordered before,
  between and after the two the chain reads), ``from_leaf``/``last_leaf`` of every
  type and huge values, neighbouring keys of the same length;
* requirement ids of 128 and 129 code points, non-ASCII ones, a bytes id; unsorted and
  repeated ``evidence_ids``;
* step leaves of exactly ``MAX_STEP_ITEMS`` and one more item, the items in ``output``,
  in ``inputs``, in nested maps, as empty containers, in ``evidence_ids``; nesting 31-33
  deep; a 1024-item leaf padded to ~256 KB of text; each as the OmissionProof's step
  part, its extract part and a one-step proof's step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from bundle_edits import recommit
from exec_support import ExecChecker, judge_proof_carrying
from item_count import items
from proof_check_support import ProofChecker, citation_proof, python_answer
from test_onchain_omission import Prover
from test_onchain_step_cap import sent

from por.bundle.layout import Bundle
from por.challenge.batch import ComponentTree, one_step_bytes
from por.challenge.one_step import build_one_step_proof
from por.challenge.records import OmissionProof, challenge_id_from_body, proof_max_items
from por.encoding import decode, encode
from por.errors import PorError
from por.protocol.limits import MAX_CONTENT_BYTES, MAX_STEP_ITEMS

COUNTS: Counter[str] = Counter()
#: Scenario 08: extract leaves 0-2, check 3, aggregate 4, contradictions 5, deduce 6, map 7.
MARKET = "08-quorum-agree"
CHECK, AGGREGATE = 3, 4
Value = dict[str, Any]


@pytest.fixture(scope="module")
def chain() -> ExecChecker:
    return ExecChecker("PorOmissionExec", entry="check(bytes)")


def compare(chain: ExecChecker, name: str, proof: bytes) -> None:
    expected = python_answer(proof)
    won, check_id, _gas = chain.execute(proof)
    assert (won, check_id) == expected, (name, proof.hex()[:300])
    COUNTS[f"{'won' if won else 'lost'}:{check_id}"] += 1


def edited(bundle: Bundle, index: int, edit: Callable[[Value], None]) -> Bundle:
    """``bundle`` with step leaf ``index`` edited (any bytes a forger commits)."""
    value = decode(bundle.steps[index])
    edit(value)
    steps = list(bundle.steps)
    steps[index] = encode(value)
    return recommit(bundle, steps=steps)


def every_pair(chain: ExecChecker, name: str, bundle: Bundle, steps: list[int]) -> None:
    for case, proof in Prover(bundle).pairs(steps):
        compare(chain, f"{name} {case}", proof)


def resealed(body: Value) -> bytes:
    """An OmissionProof of any body (no validation), its challenge id recomputed."""
    return encode({**body, "challenge_id": challenge_id_from_body(body)})


def test_parts_swapped_and_duplicated(chain: ExecChecker, bundle: Bundle) -> None:
    """The evidence part is the step leaf itself; an extract step as the step with a
    check step as its evidence; one leaf as both parts; an item as the step."""
    prover = Prover(bundle)
    for step in range(len(bundle.steps)):
        compare(chain, f"self {step}", prover.proof(step, step, "reasoning_leaf"))
        for other in range(len(bundle.steps)):
            compare(chain, f"steps {step} {other}", prover.proof(step, other, "reasoning_leaf"))
    item = prover.evidence.proof(0).to_dict()
    for step in (0, CHECK):
        part = prover.steps.proof(step).to_dict()
        for first, second in ((item, part), (item, item), (part, part)):
            body = {"schema": OmissionProof.SCHEMA, "kind": "reasoning_leaf",
                    "por_root": prover.por_root, "step": first, "evidence": second}
            compare(chain, f"swap {step}", resealed(body))


#: Leaf indexes and tree sizes at and past a tree's edges (n: the tree's size).
def _edges(n: int) -> list[int]:
    return [0, 1, n - 1, n, n + 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1]


def test_leaf_index_edges(chain: ExecChecker, bundle: Bundle) -> None:
    """Each part's ``leaf_index`` and ``tree_size`` forged to an edge value: the chain
    and Python refuse (or accept) alike."""
    prover = Prover(bundle)
    for step, evidence, carried in ((CHECK, 2, "evidence_leaf"), (AGGREGATE, 1, "reasoning_leaf"),
                                    (0, 0, "evidence_leaf"), (7, 2, "reasoning_leaf")):
        tree = prover.steps if carried == "reasoning_leaf" else prover.evidence
        base = {"schema": OmissionProof.SCHEMA, "kind": "reasoning_leaf",
                "por_root": prover.por_root, "step": prover.steps.proof(step).to_dict(),
                "evidence": tree.proof(evidence).to_dict()}
        for part in ("step", "evidence"):
            n = base[part]["tree_size"]
            for field in ("leaf_index", "tree_size"):
                for value in _edges(n):
                    body = {**base, part: {**base[part], field: value}}
                    compare(chain, f"{part}.{field}={value}", resealed(body))


def _output(key: str, value: Any) -> Callable[[Value], None]:
    def edit(step: Value) -> None:
        if value is None:
            step["output"].pop(key, None)
        else:
            step["output"][key] = value
    return edit


#: Keys around the ones the chain reads: shorter, the same length either side, longer.
NEIGHBOURS = ["a", "evidence_ia", "evidence_iz", "from_leae", "from_leag", "last_leae",
              "last_leag", "requirement_ic", "requirement_ie", "z" * 30]
#: Values of the read keys: other types, huge, empty (None: the key dropped).
ODD = [None, True, False, -1, -(2**64), 0, 2**63, 2**64 - 1, "2", b"\x02", [2], {"a": 2}, [],
       "ev-exchange-alpha", "req_close", "ev-exchange-alpha\x00", "req_close ", "ev-\u00e9"]


def test_extract_output_keys(chain: ExecChecker, bundle: Bundle) -> None:
    """An extract step's output with extra, missing or mistyped ``evidence_id`` /
    ``requirement_id``, carried as the evidence part of the check and aggregate steps."""
    for key in ("evidence_id", "requirement_id"):
        for value in ODD:
            forged = edited(bundle, 1, _output(key, value))
            every_pair(chain, f"extract {key}={value!r}", forged, [1, CHECK, AGGREGATE])
    for key in NEIGHBOURS:
        forged = edited(bundle, 1, _output(key, "ev-exchange-beta"))
        every_pair(chain, f"extract +{key}", forged, [1, CHECK])


def test_span_keys(chain: ExecChecker, bundle: Bundle) -> None:
    """``from_leaf``/``last_leaf`` of every type, with same-length neighbours, on the
    check (citing fewer items, or ten) and the aggregate step."""
    few = ["ev-exchange-alpha"]
    ten = sorted(["ev-exchange-alpha", *(f"ev-pad-{k}" for k in range(9))])
    for index in (CHECK, AGGREGATE):
        for cited in (few, ten):
            for key in ("from_leaf", "last_leaf"):
                for value in ODD:
                    def edit(step: Value, key: str = key, value: Any = value,
                             cited: list[str] = cited) -> None:
                        _output(key, value)(step)
                        step["evidence_ids"] = cited
                    every_pair(chain, f"{index} {key}={value!r} {len(cited)}",
                               edited(bundle, index, edit), [index])
            for key in NEIGHBOURS:
                def near(step: Value, key: str = key, cited: list[str] = cited) -> None:
                    step["output"].pop("last_leaf", None)
                    step["output"][key] = 0
                    step["evidence_ids"] = cited
                every_pair(chain, f"{index} +{key}", edited(bundle, index, near), [index])


def _requirement(value: Any) -> Callable[[Value], None]:
    def edit(step: Value) -> None:
        if value is None:
            step["inputs"].pop("requirement_id", None)
        else:
            step["inputs"]["requirement_id"] = value
    return edit


def _with_items(bundle: Bundle, requirement: str) -> Bundle:
    """Every item and extract step of ``bundle`` moved to ``requirement``."""
    evidence = []
    for leaf in bundle.evidence:
        value = decode(leaf)
        value["requirement_id"] = requirement
        evidence.append(encode(value))
    steps = list(bundle.steps)
    for j in range(len(bundle.evidence)):
        value = decode(steps[j])
        value["output"]["requirement_id"] = requirement
        steps[j] = encode(value)
    return recommit(bundle, evidence=evidence, steps=steps)


IDS = ["r" * 127, "r" * 128, "r" * 129, "\u00e9" * 64, "\u00e9" * 128, "\u00e9" * 129,
       "req\u0301", "req close", "", "REQ_CLOSE"]


def test_requirement_ids(chain: ExecChecker, bundle: Bundle) -> None:
    """Items and steps of requirement ids at and past 128 code points, non-ASCII and
    empty ids, the step's id differing by one code point or of another type."""
    for rid in IDS:
        moved = _with_items(bundle, rid)
        for step_id in (rid, rid + "x", rid[:-1], rid.encode("utf-8"), 7, None):
            forged = edited(moved, CHECK, _requirement(step_id))
            forged = edited(forged, AGGREGATE, _requirement(step_id))
            every_pair(chain, f"rid {rid!r} {step_id!r}", forged, [CHECK, AGGREGATE])


def test_evidence_ids_order(chain: ExecChecker, bundle: Bundle) -> None:
    """The step's and the extract step's ``evidence_ids`` unsorted, repeated, of
    non-ids (one_step.invalid_record on both sides when not a valid record)."""
    lists = [["ev-exchange-gamma", "ev-exchange-alpha"], ["ev-exchange-alpha"] * 2,
             ["ev-exchange-beta", "ev-exchange-alpha", "ev-exchange-gamma"], ["a b"], [7],
             ["ev-exchange-alpha", "ev-exchange-beta", "ev-exchange-gamma", "ev-zzz"]]
    for index in (1, CHECK, AGGREGATE, 6):
        for cited in lists:
            def edit(step: Value, cited: list[Any] = cited) -> None:
                step["evidence_ids"] = cited
            every_pair(chain, f"cites {index} {cited}", edited(bundle, index, edit),
                       [index, CHECK] if index == 1 else [index])


def _pad(where: str, shape: str, total: int) -> Callable[[Value], None]:
    """Pad a step so that its arrays and maps hold ``total`` items together, the extra
    ones under ``where`` (``output``, ``inputs``, ``evidence_ids``) in ``shape``."""
    def edit(step: Value) -> None:
        if where == "evidence_ids":
            base = items(step)
            step["evidence_ids"] = sorted([*step["evidence_ids"],
                                           *(f"ev-pad-{k:05d}" for k in range(total - base))])
            return
        step[where]["pad"] = [] if shape != "map" else {}
        left = total - items(step)
        if shape == "list":
            step[where]["pad"] = [0] * left
        elif shape == "empty":
            step[where]["pad"] = [[] for _ in range(left)]
        elif shape == "nested":
            step[where]["pad"] = [[0] * (left - 1)]
        elif shape == "map":
            entries = {f"k{k:05d}": 0 for k in range(left // 2)}
            if left % 2:
                entries["k00000"] = [0]
            step[where]["pad"] = entries
        elif shape == "text":
            step[where]["pad"] = [0] * (left - 1) + ["x" * 256_000]
    return edit


SHAPES = [("output", "list"), ("output", "empty"), ("output", "nested"), ("output", "map"),
          ("inputs", "list"), ("inputs", "map"), ("inputs", "empty"), ("evidence_ids", ""),
          ("output", "text")]


def _one_step(router: ProofChecker, name: str, bundle: Bundle, index: int,
              priors: list[int] | None = None) -> None:
    """The one-step proof of step leaf ``index`` through the router: por's, else the one
    a challenger sends (test_onchain_step_cap.sent; with prior step leaves ``priors``
    when the forged leaf does not decode)."""
    try:
        proof = bytes(build_one_step_proof(bundle, index).to_cbor())
    except PorError:
        if priors is None:
            proof = sent(bundle, index)
        else:
            c = bundle.commitments
            steps = ComponentTree("reasoning_leaf", bundle.steps, c)
            spec = ComponentTree("prompt_spec", [bundle.prompt_spec], c).proof(0)
            proof = one_step_bytes(c.por_root, steps.proof(index).to_cbor(), spec.to_cbor(),
                                   [], [steps.proof(i).to_cbor() for i in priors])
    won, check_id, _gas = router.any_proof(proof)
    if check_id.startswith("court_path:"):
        COUNTS["court_path"] += 1
        return
    assert (won, check_id) == python_answer(proof), name
    COUNTS[f"step:{'won' if won else 'lost'}:{check_id}"] += 1


def test_item_cap(chain: ExecChecker, router: ProofChecker, bundle: Bundle) -> None:
    """Step leaves of exactly 1024 and 1025 items, the extra ones anywhere: as the
    OmissionProof's step part and extract part, and as a one-step proof's step."""
    for where, shape in SHAPES:
        for total in (MAX_STEP_ITEMS - 1, MAX_STEP_ITEMS, MAX_STEP_ITEMS + 1):
            for index in (1, CHECK, 7):
                forged = edited(bundle, index, _pad(where, shape, total))
                assert items(decode(forged.steps[index])) == total
                name = f"cap {where} {shape} {total} {index}"
                for case, proof in Prover(forged).pairs([index] if index != 1 else [1, CHECK]):
                    if index != 1 or case.startswith(("extract.3.1", "item.1.")):
                        compare(chain, f"{name} {case}", proof)
                if index != 1 and shape != "text":
                    _one_step(router, name, forged, index)


MARK = b"\xaa" * 16


def _deep(bundle: Bundle, index: int, depth: int) -> Bundle:
    """Step leaf ``index`` with ``output.pad`` arrays nested ``depth`` deep (raw bytes:
    por's encoder refuses past 32, a forger's does not)."""
    value = decode(bundle.steps[index])
    value["output"]["pad"] = MARK
    leaf = encode(value).replace(b"\x50" + MARK, b"\x81" * depth + b"\x00")
    steps = list(bundle.steps)
    steps[index] = leaf
    return recommit(bundle, steps=steps)


def test_depth(chain: ExecChecker, router: ProofChecker, bundle: Bundle) -> None:
    """A step leaf nesting 29-35 deep (``output.pad`` is at depth 2 of the leaf)."""
    for depth in range(28, 35):
        for index in (1, CHECK):
            forged = _deep(bundle, index, depth)
            for case, proof in Prover(forged).pairs([index] if index != 1 else [CHECK]):
                compare(chain, f"depth {depth} {case}", proof)
            if index != 1:
                _one_step(router, f"depth {depth}", forged, index, [0, 1, 2])


#: EvidenceItem fields at and past their bounds (SPEC §4.3), path -> values.
ITEM_FIELDS: dict[tuple[str, ...], list[Any]] = {
    ("confidence_bps",): [0, 10_000, 10_001, -1, True, "1"],
    ("provenance_tier",): [0, 3, 4, -1],
    ("retrieval_receipt", "status_code"): [99, 100, 599, 600],
    ("retrieval_receipt", "retrieved_at"): [0, 2**63 - 1, 2**63, 2**64 - 1, -1],
    ("retrieval_receipt", "method"): ["GET", "POST", "get", "PUT", ""],
    ("content_type",): ["text/csv", "text/csv ", "application/xml", 7],
    ("content",): [b"", "text", b"x" * MAX_CONTENT_BYTES, b"x" * (MAX_CONTENT_BYTES + 1)],
    ("source", "uri"): ["", "u" * 300, 5],
    ("source", "provider"): ["", "\u00e9", b"p"],
    ("source", "source_id"): ["", "s" * 128, "s" * 129],
    ("evidence_id",): ["", "e" * 128, "e" * 129, "\u00e9" * 129, 3],
    ("requirement_id",): ["", "req_closf", 3],
    ("schema",): ["por.EvidenceItem/2", "por.EvidenceItem/1 "],
    ("extra",): [1],
}


def test_item_fields(chain: ExecChecker, bundle: Bundle) -> None:
    """The carried item's fields at and past their bounds (one_step.invalid_record on
    both sides, or the rule's answer for a valid item), against check and aggregate."""
    for path, values in ITEM_FIELDS.items():
        for value in values:
            evidence = list(bundle.evidence)
            item = decode(evidence[1])
            target = item
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            evidence[1] = encode(item)
            prover = Prover(recommit(bundle, evidence=evidence))
            for step in (1, CHECK, AGGREGATE):
                compare(chain, f"item {path} {value!r}", prover.proof(step, 1, "evidence_leaf"))


def test_extract_step_ids(chain: ExecChecker, bundle: Bundle) -> None:
    """The carried extract step's id, type and kind near the ones ``extract_view``
    wants (``step_0002`` for leaf 1)."""
    variants: list[tuple[str, Any]] = [
        ("step_id", v) for v in ("step_0002", "step_00002", "step_2", "step_0001", "step_0003",
                                 "step_0002 ", "Step_0002", "step_10002")]
    variants += [("step_type", v) for v in ("extract", "map", "check")]
    for key, value in variants:
        def edit(step: Value, key: str = key, value: Any = value) -> None:
            step[key] = value
        every_pair(chain, f"extract {key}={value!r}", edited(bundle, 1, edit), [1, CHECK])


def test_item_cap_other_proofs(router: ProofChecker, bundle: Bundle) -> None:
    """A carried extract step of 1024 / 1025 items in a CitationProof and a JudgeProof,
    and the JudgeProof's final step padded: the router and Python agree."""
    for total in (MAX_STEP_ITEMS, MAX_STEP_ITEMS + 1):
        for where, shape in (("output", "list"), ("inputs", "map")):
            forged = edited(bundle, 1, _pad(where, shape, total))
            proofs = [citation_proof(forged, CHECK, [0, 1]), citation_proof(forged, 7, [1]),
                      judge_proof_carrying(forged, [0, 1, 2])]
            final = edited(bundle, 7, _pad(where, shape, total))
            proofs.append(judge_proof_carrying(final, [0, 1, 2]))
            for k, proof in enumerate(proofs):
                won, check_id, _gas = router.any_proof(proof)
                assert (won, check_id) == python_answer(proof), (total, where, k)
                COUNTS[f"other:{'won' if won else 'lost'}:{check_id}"] += 1


#: InclusionProof part fields forged (None: the field dropped).
PART_FIELDS: dict[str, list[Any]] = {
    "kind": ["evidence_leaf", "prompt_spec", "verdict", "reasoning", None],
    "component": ["evidence", "reasoning ", None],
    "leaf": [b"", "leaf", None],
    "leaf_index": [-1, "3", None],
    "tree_size": [0, -1, None],
    "leaf_path": [[], [b"\x00" * 31], [b"\x00" * 33], None, "x"],
    "component_path": [[], None],
    "component_root": [b"\x00" * 32, b"\x00" * 31, None],
    "por_root": [b"\x00" * 32, None],
    "schema": ["por.InclusionProof/2", None],
    "challenge_id": [b"\x00" * 32, None],
    "extra": [1],
}


def test_part_fields(chain: ExecChecker, router: ProofChecker, bundle: Bundle) -> None:
    """Each field of each part forged, the part's own id kept or recomputed; the
    proof's top-level fields forged (through the router, which reads the schema
    first): the chain's id is Python's."""
    prover = Prover(bundle)
    base = {"schema": OmissionProof.SCHEMA, "kind": "reasoning_leaf",
            "por_root": prover.por_root, "step": prover.steps.proof(CHECK).to_dict(),
            "evidence": prover.evidence.proof(2).to_dict()}
    for part in ("step", "evidence"):
        for field, values in PART_FIELDS.items():
            for value in values:
                forged = {k: v for k, v in base[part].items() if k != field}
                if value is not None:
                    forged[field] = value
                compare(chain, f"{part}.{field}={value!r}", resealed({**base, part: forged}))
                inner = {k: v for k, v in forged.items() if k != "challenge_id"}
                inner["challenge_id"] = challenge_id_from_body(inner)
                compare(chain, f"{part}.{field}={value!r} sealed",
                        resealed({**base, part: inner}))
    tops: list[bytes] = []
    for field, value in (("kind", "evidence_leaf"), ("schema", "por.OmissionProof/1"),
                         ("por_root", b"\x00" * 32), ("extra", 1), ("step", None)):
        body = {k: v for k, v in base.items() if k != field}
        if value is not None:
            body[field] = value
        tops.append(resealed(body))
    tops += [encode({**base, "challenge_id": b"\x00" * 32}), encode(base)]
    for proof in tops:
        assert router.any_proof(proof)[:2] == python_answer(proof), proof.hex()[:200]
        COUNTS["top"] += 1


def _near_cap(proof: bytes) -> Iterator[tuple[int, bytes]]:
    """``proof`` with an extra ``x`` list of one-byte items, at every length that puts
    its items within 2 of the proof item cap 16 + floor(n / 4) (SPEC §10.4 step 0):
    (items - cap, bytes)."""
    value = decode(proof)
    # items + k = 16 + (len + k) / 4, near enough: start a little before it
    start = (16 + len(proof) // 4 - items(value) - 2) * 4 // 3 - 12
    for k in range(max(0, start), 3 * len(proof)):
        data = encode({**value, "x": [0] * k})
        over = items(decode(data, max_items=10**9)) - proof_max_items(len(data))
        if abs(over) <= 2:
            yield over, data
        if over > 2:
            return


def test_proof_item_cap(router: ProofChecker, bundle: Bundle) -> None:
    """Proofs of every kind at and past the proof item cap: the router reads it as
    ``proof_from_cbor`` does (``proof.malformed`` past it; ``proof.schema`` for the
    extra field below it). Before the fix the chain said ``proof.schema`` past it."""
    prover = Prover(bundle)
    proofs = [prover.proof(CHECK, 2, "evidence_leaf"), citation_proof(bundle, CHECK, [0, 1]),
              judge_proof_carrying(bundle, [0, 1, 2]),
              bytes(build_one_step_proof(bundle, CHECK).to_cbor())]
    for proof in proofs:
        seen = set()
        for over, data in _near_cap(proof):
            expected = python_answer(data)
            assert router.any_proof(data)[:2] == expected, over
            assert expected[1] == ("proof.malformed" if over > 0 else "proof.schema"), over
            seen.add(over > 0)
            COUNTS[f"cap:{expected[1]}"] += 1
        assert seen == {False, True}
    data = next(d for over, d in _near_cap(proofs[1]) if over > 0)
    assert router.citation(data)[:2] == (False, "proof.malformed")


def test_attack_case_count() -> None:
    """Runs last: every family reached both sides with the outcomes it aims at."""
    if not COUNTS:
        pytest.skip("run with the whole module")
    print(f"\n{sum(COUNTS.values())} attacks compared: {dict(sorted(COUNTS.items()))}")
    for wanted in ("won:omission.uncited_item", "won:omission.extract_position",
                   "won:one_step.invalid_record", "lost:omission.cited",
                   "lost:omission.not_a_check", "lost:omission.other_requirement",
                   "lost:proof.citations", "lost:merkle.index_range"):
        assert COUNTS[wanted] > 0, (wanted, sorted(COUNTS))
