"""Attacks on the s33 wave's on-chain reading (issue 24): the reader's recorded top-level
offsets and byte-string flag (``PorCborTop``), the typed ``PorInclusion.parse``, the
kinds' one-word key compares. The PromptSpec, claims and decimal families are in
``test_onchain_attacks_s33_spec.py``, the registry's in ``test_registry_attacks_s33.py``.

Each proof case goes through ``PorProofCheck.checkProof`` (revm, the committed build)
and ``por check-proof``: the same WON/LOST and check id (a ``CourtPath`` revert, the
court's case, is counted and not compared). Families:

* step leaves whose top-level map has 15, 16 or 17 entries (extra keys sorting before
  and after the record's), byte strings nested deep in ``inputs``/``output`` or under
  a non-step key, an evidence item (a map with a byte-string value) carried as a step;
* keys of 23/24/25/31/32/33 bytes and keys sharing a 32-byte prefix in the step's and
  the carried claims' maps;
* InclusionProof parts at type edges: leaves of 0/23/24/255/256/65 535/65 536 bytes,
  paths of 0/64/65 siblings, tree_size/leaf_index at 2^63-1 and 2^63, component ids of
  128/129 code points and multi-byte UTF-8;
* claim values of 61-63 digits, groups, items and fields written as arrays; proofs of
  every schema with 15-40 top-level entries; committed step leaves that are no step
  map (empty, scalars, arrays, trailing bytes, 16/17-entry maps of other keys).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import recommit
from exec_support import judge_proof_carrying
from proof_check_support import ProofChecker, citation_proof, python_answer
from test_onchain_attacks import _one_step as with_priors
from test_onchain_attacks import edited
from test_onchain_omission import Prover
from test_onchain_step_cap import sent

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof
from por.challenge.records import challenge_id_from_body
from por.encoding import decode, encode
from por.errors import PorError

COUNTS: Counter[str] = Counter()
#: Scenario 08: extract leaves 0-2, check 3, aggregate 4, contradictions 5, deduce 6, map 7.
MARKET = "08-quorum-agree"
STEPS = (3, 4, 5, 6, 7)
Value = dict[str, Any]


def same(router: ProofChecker, name: str, proof: bytes, counts: Counter[str] = COUNTS) -> None:
    """The router's (won, id) is Python's; a CourtPath revert is counted."""
    won, check_id, _gas = router.any_proof(proof)
    if check_id.startswith("court_path:"):
        counts["court_path"] += 1
        return
    assert (won, check_id) == python_answer(proof), (name, proof.hex()[:300])
    counts[f"{'won' if won else 'lost'}:{check_id}"] += 1


def step_proof(bundle: Bundle, index: int) -> bytes:
    """Step leaf ``index``'s one-step proof (por's, else the one a challenger sends)."""
    try:
        return bytes(build_one_step_proof(bundle, index).to_cbor())
    except PorError:
        return sent(bundle, index)


def one_step(router: ProofChecker, name: str, bundle: Bundle, index: int,
             counts: Counter[str] = COUNTS) -> None:
    same(router, name, step_proof(bundle, index), counts)


def omissions(router: ProofChecker, name: str, bundle: Bundle, steps: list[int],
              counts: Counter[str] = COUNTS) -> None:
    for label, proof in Prover(bundle).pairs(steps):
        same(router, f"{name} {label}", proof, counts)


def every_step(router: ProofChecker, name: str, bundle: Bundle, index: int,
               edit: Callable[[Value], None], *, counts: Counter[str] = COUNTS) -> None:
    """Step leaf ``index`` edited: its own one-step proof, and (an extract leaf) the
    one-step proofs carrying it and the OmissionProofs carrying it."""
    forged = edited(bundle, index, edit)
    if index < 3:
        for later in STEPS:
            one_step(router, f"{name} via {later}", forged, later, counts)
        omissions(router, name, forged, [3, 4], counts)
    else:
        one_step(router, name, forged, index, counts)
        omissions(router, name, forged, [index], counts)


def _extra(count: int, where: str, value: Any) -> Callable[[Value], None]:
    """``count`` extra top-level keys sorting before (short) or after (long) the step's."""
    def edit(step: Value) -> None:
        for k in range(count):
            step[f"a{k}" if where == "before" else f"zzzzzzzzzzzzzzzz{k:02d}"] = value
    return edit


def test_top_level_entries(router: ProofChecker, bundle: Bundle) -> None:
    """Step leaves of 8 + 7/8/9 = 15/16/17 top-level entries and an evidence item of
    9 + 6/7/8: the reader keeps the offsets of 16 entries at most."""
    for index in (1, *STEPS):
        for count in (7, 8, 9):
            for where in ("before", "after"):
                for value in (0, b"", "x"):
                    every_step(router, f"top {index} {count} {where} {value!r}", bundle,
                               index, _extra(count, where, value))
    for count in (6, 7, 8):
        evidence = list(bundle.evidence)
        item = decode(evidence[1])
        for k in range(count):
            item[f"zzzzzzzzzzzzzzzzzz{k}"] = 1
        evidence[1] = encode(item)
        forged = recommit(bundle, evidence=evidence)
        omissions(router, f"item top {count}", forged, [3, 4])
        for later in STEPS:
            one_step(router, f"item top {count} {later}", forged, later)


def _nest(value: Any, depth: int, shape: str) -> Any:
    for k in range(depth):
        value = [value] if shape == "array" or k % 2 else {"k": value}
    return value


def _put(where: str, key: str, value: Any) -> Callable[[Value], None]:
    def edit(step: Value) -> None:
        if where in ("inputs", "output"):
            step[where][key] = value
        elif where == "claims":
            step["output"]["claims"][0][key] = value
        elif where == "card":
            step["output"]["card"][key] = value
        else:
            step[key] = value
    return edit


def test_byte_strings_anywhere(router: ProofChecker, bundle: Bundle) -> None:
    """A byte string nested 0-25 deep in ``inputs``/``output``, in a claim, under a
    non-step top-level key, as a step's field value: the leaf is no step either way."""
    for index in (1, *STEPS):
        for where in ("inputs", "output", "top"):
            for depth in (0, 1, 2, 7, 25):
                for shape in ("array", "map"):
                    every_step(router, f"bytes {index} {where} {depth} {shape}", bundle,
                               index, _put(where, "pad", _nest(b"\x01", depth, shape)))
        for field in ("description", "step_id", "schema"):
            every_step(router, f"bytes field {index} {field}", bundle, index,
                       _put("top", field, b"x"))
    for where in ("claims", "card"):
        for key in ("value", "key", "claim_id", "source_id", "zz"):
            every_step(router, f"bytes extract {where} {key}", bundle, 1,
                       _put(where, key, b"251.42"))
    # an evidence item (a map holding bytes under `content`) carried as a step leaf
    prover = Prover(bundle)
    for step in (3, 4):
        for index in range(3):
            evidence = prover.evidence.proof(index).to_dict()
            body = {"schema": "por.OmissionProof/1", "kind": "reasoning_leaf",
                    "por_root": prover.por_root, "step": prover.steps.proof(step).to_dict(),
                    "evidence": {**evidence, "kind": "reasoning_leaf"}}
            same(router, "item as step", encode(
                {**body, "challenge_id": challenge_id_from_body(body)}))


#: Keys around the word and head limits, and pairs sharing a 32-byte prefix.
KEYS = ["k" * 23, "k" * 24, "k" * 25, "k" * 31, "k" * 32, "k" * 33,
        "value" + "x" * 18, "value" + "x" * 19, "claim_id" + "\x00" * 15, "key" + "\x00" * 21,
        "k" * 32 + "a", "k" * 32 + "b", "\u00e9" * 12, "\u00e9" * 16 + "x"]


def test_key_lengths(router: ProofChecker, bundle: Bundle) -> None:
    """An extra key of each length (and two sharing 32 bytes) in the step's maps and in
    the carried extract step's claim and card maps."""
    for key in KEYS:
        for index in (1, *STEPS):
            for where in ("inputs", "output"):
                every_step(router, f"key {index} {where} {key!r}", bundle, index,
                           _put(where, key, 1))
        for where in ("claims", "card"):
            every_step(router, f"key extract {where} {key!r}", bundle, 1, _put(where, key, "1"))
    pair = ["k" * 32 + "a", "k" * 32 + "b"]
    for index in (1, 3, 4):
        def both(step: Value) -> None:
            for key in pair:
                step["output"][key] = key
        every_step(router, f"prefix pair {index}", bundle, index, both)


def _leaf_of(bundle: Bundle, size: int) -> Bundle:
    """Step leaf 7 (map) padded through its description to exactly ``size`` bytes."""
    value = decode(bundle.steps[7])
    value["description"] = ""
    base = len(encode(value))
    for pad in range(max(0, size - base - 8), size - base + 1):
        value["description"] = "d" * pad
        if len(encode(value)) == size:
            break
    leaf = encode(value)
    assert len(leaf) == size, (size, len(leaf))
    steps = list(bundle.steps)
    steps[7] = leaf
    return recommit(bundle, steps=steps)


def test_inclusion_type_edges(router: ProofChecker, bundle: Bundle) -> None:
    """A one-step proof whose step part is at each type edge, resealed: leaf lengths,
    forged leaves of 0/23/24/255/256 bytes, path lengths, counts at 2^63-1 / 2^63,
    component ids of 128/129 code points."""
    for size in (511, 512, 65_535, 65_536):
        one_step(router, f"leaf {size}", _leaf_of(bundle, size), 7)
    proof = decode(build_one_step_proof(bundle, 7).to_cbor())
    part = proof["step"]
    forged: list[tuple[str, Value]] = []
    for n in (0, 1, 23, 24, 64, 65):
        for field in ("leaf_path", "component_path"):
            forged.append((f"{field} {n}", {**part, field: [b"\x07" * 32] * n}))
    for field in ("tree_size", "leaf_index"):
        for value in (2**63 - 2, 2**63 - 1, 2**63, 2**64 - 1, 23, 24, 255, 256, 65_535, 65_536):
            forged.append((f"{field} {value}", {**part, field: value}))
    for component in ("r" * 128, "r" * 129, "\u00e9" * 128, "\u00e9" * 129, "\u20ac" * 129,
                      "\U0001f600" * 128, "\U0001f600" * 129, "reasoning\u00e9", "reasonin"):
        forged.append((f"component {len(component)}", {**part, "component": component}))
    for leaf in (b"", b"\x00" * 23, b"\x00" * 24, b"\x00" * 255, b"\x00" * 256, b"\xa0"):
        forged.append((f"leaf {len(leaf)}", {**part, "leaf": leaf}))
    for name, value in forged:
        for sealed in (False, True):
            inner = dict(value)
            if sealed:
                inner.pop("challenge_id")
                inner["challenge_id"] = challenge_id_from_body(inner)
            body = {k: v for k, v in proof.items() if k != "challenge_id"}
            body["step"] = inner
            same(router, name, encode({**body, "challenge_id": challenge_id_from_body(body)}))


DECIMALS = ["251." + "4" * 61, "251." + "4" * 62, "2" * 62, "2" * 63, "0." + "0" * 61 + "1",
            "0." + "0" * 62 + "1", "251.4" + "0" * 57, "9" * 63, "-" + "9" * 62 + ".5",
            "1" + "0" * 62, "251.40", "251.4000000001"]


def test_decimals(router: ProofChecker, bundle: Bundle) -> None:
    """Claim values with 61-63 digits and 62 fractional digits in one or every extract
    step: the aggregate's quorum, the check's groups, the contradictions' tolerance."""
    for text in DECIMALS:
        for leaves in ((1,), (0, 1, 2)):
            steps = list(bundle.steps)
            for j in leaves:
                value = decode(steps[j])
                value["output"]["claims"][0]["value"] = text
                steps[j] = encode(value)
            forged = recommit(bundle, steps=steps)
            for index in (3, 4, 5, 6):
                one_step(router, f"decimal {text} {leaves} {index}", forged, index)


def _pairs(maps: list[Value]) -> list[list[list[Any]]]:
    """Each map written as an array of its [key, value] pairs."""
    return [[list(kv) for kv in sorted(m.items())] for m in maps]


def _arrays(step: Value) -> None:
    step["output"]["groups"] = _pairs(step["output"]["groups"])


def test_groups_as_arrays(router: ProofChecker, bundle: Bundle) -> None:
    """The check step's groups (and its items) written as arrays of pairs, and the
    contradictions' conflicts as arrays."""
    every_step(router, "groups arrays", bundle, 3, _arrays)

    def items(step: Value) -> None:
        step["output"]["items"] = _pairs(step["output"]["items"])
    every_step(router, "items arrays", bundle, 3, items)

    def conflicts(step: Value) -> None:
        step["output"]["conflicts"] = [["a", "b"]]
    every_step(router, "conflicts arrays", bundle, 5, conflicts)

    def fields(step: Value) -> None:
        step["output"]["fields"] = _pairs(step["output"]["fields"])
    every_step(router, "fields arrays", bundle, 4, fields)

def test_proof_top_entries(router: ProofChecker, bundle: Bundle) -> None:
    """Every proof schema with extra top-level entries (the reader keeps 16 at most; the
    router reads ``schema`` from them, else walks): keys sorting before and after
    ``schema``, totals of 15/16/17 entries and more, resealed or not; the proof as an
    array, a text, and a map with ``schema`` of another type."""
    prover = Prover(bundle)
    proofs = [bytes(build_one_step_proof(bundle, 3).to_cbor()), prover.proof(3, 2, "evidence_leaf"),
              citation_proof(bundle, 3, [0, 1]), judge_proof_carrying(bundle, [0, 1, 2])]
    for proof in proofs:
        value = decode(proof)
        for total in (15, 16, 17, 18, 40):
            for where in ("a", "zzzzzzzzzzzzzzzzz"):
                body = {k: v for k, v in value.items() if k != "challenge_id"}
                for k in range(total - len(value)):
                    body[f"{where}{k:02d}"] = k
                same(router, f"top {total} {where}", encode(
                    {**body, "challenge_id": challenge_id_from_body(body)}))
                same(router, f"top {total} {where} unsealed", encode(
                    {**body, "challenge_id": value["challenge_id"]}))
        for schema in (1, b"por.OneStepProof/1", ["por.OneStepProof/1"], "por.", "por.x/1", ""):
            same(router, f"schema {schema!r}", encode({**value, "schema": schema}))
        same(router, "array", encode(list(value.values())))
        same(router, "text", encode(value["schema"]))

def _raw(bundle: Bundle, index: int, leaf: bytes) -> Bundle:
    steps = list(bundle.steps)
    steps[index] = leaf
    return recommit(bundle, steps=steps)


def test_raw_leaves(router: ProofChecker, bundle: Bundle) -> None:
    """Committed step leaves that are no step map: empty, a scalar, an empty map or
    array, the step with a trailing byte, as an array of its values, a map of 16 or 17
    entries none of the step's keys, the step's map nested one level down."""
    step = decode(bundle.steps[1])
    encoded = encode(step)
    leaves = [b"", b"\x00", b"\xa0", b"\x80", b"\x40", encoded + b"\x00", encoded[:-1],
              encode(list(step.values())), encode({"step": step}),
              encode({f"k{i:02d}": i for i in range(16)}),
              encode({f"k{i:02d}": i for i in range(17)}),
              encode({f"k{i:02d}": b"" for i in range(16)}), b"\xa8" + encoded[1:]]
    for k, leaf in enumerate(leaves):
        for index in (1, 3, 7):
            forged = _raw(bundle, index, leaf)
            if index == 1:
                for later in (3, 4):
                    one_step(router, f"raw {k} via {later}", forged, later)
                omissions(router, f"raw {k}", forged, [3])
            else:  # the one-step proof a challenger sends, with the leaf's usual priors
                with_priors(router, f"raw {k}", forged, index, [0, 1, 2] if index == 3 else [6])
                omissions(router, f"raw {k}", forged, [index])


def test_judge_proof_top_entries(router: ProofChecker, bundle: Bundle) -> None:
    """The JudgeProof (``PorJudgeExec``) over a verdict of 11 + 4/5/6 = 15/16/17 entries
    (extra keys before and after its own, a byte string among them), and over a final
    step with 15-17 entries or a byte string deep in its output."""
    for count in (4, 5, 6):
        for where in ("a", "zzzzzzzzzzzzzzzzzzzz"):
            for value in (0, b""):
                verdict = decode(bundle.verdict)
                for k in range(count):
                    verdict[f"{where}{k}"] = value
                forged = recommit(bundle, verdict=encode(verdict))
                same(router, f"verdict {count} {where}", judge_proof_carrying(forged, [0, 1, 2]))
    for count in (7, 8, 9):
        forged = edited(bundle, 7, _extra(count, "after", 0))
        same(router, f"final {count}", judge_proof_carrying(forged, [0, 1, 2]))
    for depth in (0, 3, 20):
        forged = edited(bundle, 7, _put("output", "pad", _nest(b"", depth, "map")))
        same(router, f"final bytes {depth}", judge_proof_carrying(forged, [0, 1, 2]))


def test_attack_case_count() -> None:
    """Runs last: the proof families reached both sides with several outcomes."""
    if not COUNTS:
        pytest.skip("run with the whole module")
    print(f"\n{sum(COUNTS.values())} attacks compared: {dict(sorted(COUNTS.items()))}")
    for wanted in ("won:one_step.invalid_record", "won:one_step.mismatch",
                   "won:one_step.unexecutable", "lost:one_step.match", "lost:proof.schema",
                   "lost:omission.cited"):
        assert COUNTS[wanted] > 0, (wanted, sorted(COUNTS))
