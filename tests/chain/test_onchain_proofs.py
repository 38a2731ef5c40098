"""On-chain proof checking (SPEC §14.8) agrees with ``por check-proof``, case by case.

``PorProofCheck`` (the committed build, run in revm) and the Python library get the
same bytes and must give the same answer: for a proof, the same WON/LOST and the
same check id (or the same ``proof.*``/``merkle.*`` id when the proof is invalid);
for a document, the same ``codec.*`` id (SPEC §2) or both accept it.

Cases, all generated from por's own builders and bundles:

1. por-cbor/1: every vector of fixtures/vectors/encoding.json, seeded mutations
   (bit flips, truncations, inserted and deleted bytes, non-shortest heads) of real
   proof and record bytes, and generated values (their encodings, cut or extended)
   and arbitrary bytes.
2. CitationProof (SPEC §10.2.7, §12.5.1 O1 O2 R1 R2 S1-S4): honest bundles (every
   fixture market and generated markets) with a proof for every step carrying no
   item, each cited item, each adjacent pair of cited items and items the step does
   not cite; forged bundles (every commitment recomputed) whose steps break each
   rule, cite malformed ids, are no valid record or sit at the wrong position; and
   mutated proof bytes (bit flips, truncation, non-canonical heads) both must reject.

Proofs compared are counted and must reach 10 000 (``test_case_count``, last).
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import honest, recommit
from hypothesis import given, settings
from hypothesis import strategies as st
from proof_check_support import ProofChecker, citation_proof, python_answer

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.errors import EncodingError
from por.scenarios import list_scenarios

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "properties"))
from test_citation_properties import markets

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "fixtures" / "vectors" / "encoding.json"
#: Cases compared, by kind (test_case_count reads it after the others ran).
COUNTS: Counter[str] = Counter()
#: One EVM for the hypothesis tests (a fixture cannot be shared with @given).
_CHAIN = ProofChecker()


@pytest.fixture(scope="module")
def chain() -> ProofChecker:
    return _CHAIN


def python_codec(data: bytes) -> str | None:
    try:
        decode(data)
    except EncodingError as exc:
        return exc.check_id
    return None


# --- 1. por-cbor/1 ----------------------------------------------------------------------


def test_every_encoding_vector(chain: ProofChecker) -> None:
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))
    for case in vectors["valid"]:
        assert chain.cbor(bytes.fromhex(case["hex"])) is None, case["id"]
        COUNTS["cbor"] += 1
    for case in vectors["invalid"]:
        if case.get("options") or case["check_id"] == "codec.too_large":
            continue  # a caller's caps (max_size, max_depth): not the chain's reader
        data = bytes.fromhex(case["hex"])
        assert chain.cbor(data) == case["check_id"] == python_codec(data), case["id"]
        COUNTS["cbor"] += 1


def test_key_order_before_key_utf8_at_every_head_length(chain: ProofChecker) -> None:
    """SPEC §2 item order at a key: order, then UTF-8, for short and long heads alike
    (the Python decoder checked a long key's UTF-8 first until this test found it)."""
    for length in (2, 23, 24, 255, 256):
        first = encode("b" * length)
        second = encode("a" * length)[:-1] + b"\xff"
        data = b"\xa2" + first + b"\x00" + second + b"\x00"
        assert chain.cbor(data) == python_codec(data) == "codec.key_order", length
        COUNTS["cbor"] += 1



def test_key_order_at_the_one_word_boundary(chain: ProofChecker) -> None:
    """The reader orders keys of at most 32 encoded bytes in one zero-padded word
    (ADR 0013): every ordered pair of keys that are prefixes of each other, end in NUL
    bytes or differ in their last byte, with encodings of 30 to 35 bytes around that
    word, gives por's answer (accepted, key_order or duplicate_key)."""
    keys = []
    for length in (1, 2, 29, 30, 31, 32, 33):
        keys += ["k" * length, "k" * (length - 1) + "\x00", "k" * (length - 1) + "l",
                 "k" * (length - 1) + "j"]
    for first in keys:
        for second in keys:
            data = b"\xa2" + encode(first) + b"\x00" + encode(second) + b"\x00"
            assert chain.cbor(data) == python_codec(data), (first, second)
            COUNTS["cbor"] += 1

def mutations(data: bytes, rng: random.Random, count: int) -> list[bytes]:
    """Seeded edits of ``data``: the kinds of damage a transport or a forger makes."""
    out = []
    for _ in range(count):
        kind = rng.randrange(6)
        at = rng.randrange(len(data))
        if kind == 0:  # one bit flipped
            out.append(data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:])
        elif kind == 1:  # truncated
            out.append(data[:at])
        elif kind == 2:  # a byte inserted
            out.append(data[:at] + bytes([rng.randrange(256)]) + data[at:])
        elif kind == 3:  # a byte deleted
            out.append(data[:at] + data[at + 1:])
        elif kind == 4:  # a byte replaced by a structural one
            choice = rng.choice([0x18, 0x19, 0x1A, 0x1B, 0x1F, 0x5F, 0x7F, 0x9F, 0xBF, 0xC0,
                                 0xF4, 0xF5, 0xF6, 0xF7, 0xF9, 0xFF, 0x80, 0xC3, 0xED, 0xF0])
            out.append(data[:at] + bytes([choice]) + data[at + 1:])
        else:  # a one-byte head spelled non-shortest (0x00-0x17 -> 0x18 xx)
            heads = [i for i, b in enumerate(data) if b < 0x18]
            i = rng.choice(heads) if heads else at
            out.append(data[:i] + b"\x18" + bytes([data[i] & 0x1F]) + data[i + 1:])
    return out


def test_mutated_documents(chain: ProofChecker) -> None:
    rng = random.Random(24)  # noqa: S311 - seeded cases, not secrets
    bundle = honest(list_scenarios()[0])
    samples = [bundle.steps[0], bundle.steps[-1], bundle.evidence[0], bundle.prompt_spec,
               bundle.verdict, citation_proof(bundle, 0, [0])]
    for sample in samples:
        for data in mutations(sample, rng, 400):
            assert chain.cbor(data) == python_codec(data), data.hex()
            COUNTS["cbor"] += 1


values = st.recursive(
    st.integers(-(2**64), 2**64 - 1) | st.booleans() | st.binary(max_size=40)
    | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=30), inner,
                                                                max_size=5),
    max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(values, st.binary(max_size=64))
def test_any_value_and_any_bytes(value: Any, noise: bytes) -> None:
    """Every por-cbor/1 value's encoding is accepted; arbitrary bytes, and the encoding
    with bytes appended, get the same answer as Python's decoder."""
    data = encode(value)
    assert _CHAIN.cbor(data) is None
    for other in (noise, data + noise[:1], data[: len(data) // 2]):
        if other:
            assert _CHAIN.cbor(other) == python_codec(other), other.hex()
    COUNTS["cbor"] += 4


# --- 2. CitationProof -------------------------------------------------------------------


def item_choices(bundle: Bundle, step: int, rng: random.Random) -> list[list[int]]:
    """No item, each cited item, adjacent pairs (both orders), one uncited item, one
    step leaf that is no extract step (their extract steps: step leaf i for item i)."""
    first: dict[Any, int] = {}
    for index, leaf in enumerate(bundle.evidence):
        value = decode(leaf)
        first.setdefault(value.get("evidence_id"), index)
    value = decode(bundle.steps[step])
    cited = value.get("evidence_ids")
    at = [first[e] for e in cited if e in first] if isinstance(cited, list) else []
    choices: list[list[int]] = [[]]
    choices += [[i] for i in at[:4]]
    choices += [[a, b] for a, b in itertools.pairwise(at)][:3]
    if len(at) >= 2:
        choices.append([at[1], at[0]])
    if bundle.evidence:
        choices.append([rng.randrange(len(bundle.evidence))])
    choices.append([rng.randrange(len(bundle.evidence), len(bundle.steps))])
    return choices


def compare(chain: ProofChecker, proof: bytes, kind: str) -> tuple[bool, str]:
    won, check_id, _gas = chain.citation(proof)
    want = python_answer(proof)
    assert (won, check_id) == want, (kind, proof.hex()[:400])
    COUNTS[kind] += 1
    COUNTS[f"id:{check_id}"] += 1
    return want


def forge(bundle: Bundle, rng: random.Random) -> tuple[Bundle, int] | None:
    """One step (or one item) of ``bundle`` edited to break a rule, recommitted."""
    steps = list(bundle.steps)
    index = rng.randrange(len(steps))
    step = decode(steps[index])
    number = index + 1
    evidence, prior = list(step["evidence_ids"]), list(step["prior_step_ids"])
    inputs = dict(step["inputs"])
    edit = rng.randrange(16)
    if edit == 0 and len(evidence) >= 2:
        rng.shuffle(evidence)
    elif edit == 1 and evidence:
        evidence.insert(rng.randrange(len(evidence) + 1), rng.choice(evidence))
    elif edit == 2 and len(prior) >= 2:
        rng.shuffle(prior)
    elif edit == 3 and prior:
        prior.insert(rng.randrange(len(prior) + 1), rng.choice(prior))
    elif edit == 4:
        prior.append(rng.choice([f"step_{number:04d}", f"step_{number + 3:04d}", "step_x",
                                 "step_00001", "step_0000", "Step_0001", f"step_{number}"]))
    elif edit == 5 and prior:
        prior.pop(rng.randrange(len(prior)))
    elif edit == 6 and evidence:
        evidence.pop(rng.randrange(len(evidence)))
    elif edit == 7:
        inputs["kind"] = rng.choice(["extract_claims", "check_requirement", "aggregate",
                                     "contradictions", "map", "deduce", "other", 7, True])
    elif edit == 8:
        inputs.pop("kind", None)
    elif edit == 9:
        inputs["requirement_id"] = rng.choice(["r0", "r1", "r2", "nope", 3, ["r0"]])
    elif edit == 10:
        inputs.pop("requirement_id", None)
    elif edit == 11:
        step["step_id"] = rng.choice([f"step_{number + 1:04d}", "step_x", f"step_{number}0"])
    elif edit == 12:  # no valid record: an empty id, a bad type, bytes in a value
        bad = rng.randrange(4)
        if bad == 0:
            evidence.append("")
        elif bad == 1:
            step["step_type"] = "guess"
        elif bad == 2:
            inputs["blob"] = b"\x00"
        else:
            step["extra"] = 1
    elif edit == 13 and bundle.evidence:  # an extract step of another requirement, or
        k = rng.randrange(len(bundle.evidence))  # no extract step, or invalid
        extract = decode(steps[k])
        output = dict(extract["output"])
        pick = rng.randrange(5)
        if pick < 2:
            output["requirement_id"] = rng.choice(["r0", "r1", "r2", "rX", 3])
        elif pick == 2:
            output["evidence_id"] = rng.choice(["e0", "nope", 7])
        elif pick == 3:
            extract["evidence_ids"] = rng.choice([[], ["e0"], ["e0", "e1"]])
        else:
            extract["step_type"] = rng.choice(["check", "guess"])
        extract["output"] = output
        steps[k] = encode(extract)
        return recommit(bundle, steps=steps), index
    elif edit == 14 and len(evidence) >= 2:  # two adjacent swapped
        k = rng.randrange(len(evidence) - 1)
        evidence[k], evidence[k + 1] = evidence[k + 1], evidence[k]
    elif edit == 15 and prior:
        prior[rng.randrange(len(prior))] = f"step_{rng.randrange(1, number + 1):04d}"
    else:
        return None
    step.update(evidence_ids=evidence, prior_step_ids=prior, inputs=inputs)
    steps[index] = encode(step)
    return recommit(bundle, steps=steps), index


def s5_choices(bundle: Bundle, step: int) -> list[list[int]]:
    """Rule S5's [A, X] (SPEC §10.2.7 rule 6): each aggregate with each step leaf the
    step cites as a prior step, and with one it does not cite; [] for another kind."""
    value = decode(bundle.steps[step])
    if not isinstance(value, dict) or not isinstance(value.get("inputs"), dict) or (
            value["inputs"].get("kind") != "contradictions"):
        return []
    kinds = [decode(leaf).get("inputs", {}).get("kind") for leaf in bundle.steps]
    aggregates = [k for k, kind in enumerate(kinds) if kind == "aggregate"]
    prior = value.get("prior_step_ids")
    cited = [int(p[5:]) - 1 for p in prior if isinstance(p, str) and p[5:].isdigit()
             and 0 < int(p[5:]) <= len(kinds)] if isinstance(prior, list) else []
    chunks = [k for k, kind in enumerate(kinds) if kind == "check_requirement"]
    return [[a, x] for a in aggregates for x in [*cited, *chunks[:1]]][:8]


def compare_s5(chain: ProofChecker, bundle: Bundle, step: int, kind: str) -> None:
    for priors in s5_choices(bundle, step):
        compare(chain, citation_proof(bundle, step, [], priors), kind)


def exercise(chain: ProofChecker, bundle: Bundle, rng: random.Random, *, forged: int,
             mutated: int) -> None:
    for step in range(len(bundle.steps)):
        for items in item_choices(bundle, step, rng):
            compare(chain, citation_proof(bundle, step, items), "citation.honest")
        compare_s5(chain, bundle, step, "citation.s5_honest")
    made = 0
    while made < forged:
        edited = forge(bundle, rng)
        if edited is None:
            continue
        made += 1
        forged_bundle, index = edited
        for items in item_choices(forged_bundle, index, rng):
            compare(chain, citation_proof(forged_bundle, index, items), "citation.forged")
        compare_s5(chain, forged_bundle, index, "citation.s5_forged")
    for _ in range(mutated):
        step = rng.randrange(len(bundle.steps))
        items = rng.choice(item_choices(bundle, step, rng))
        proof = citation_proof(bundle, step, items)
        for data in mutations(proof, rng, 6):
            compare(chain, data, "citation.mutated")


def test_citation_proofs_on_every_fixture_market(chain: ProofChecker) -> None:
    rng = random.Random(12)  # noqa: S311 - seeded cases, not secrets
    for name in list_scenarios():
        exercise(chain, honest(name), rng, forged=60, mutated=24)


@settings(max_examples=40, deadline=None)
@given(markets(), st.integers(0, 2**32 - 1))
def test_citation_proofs_on_generated_markets(case: Any, seed: int) -> None:
    spec, evidence = case
    bundle = bundle_from_bytes(build(spec, evidence).data)
    exercise(_CHAIN, bundle, random.Random(seed), forged=20, mutated=8)  # noqa: S311



def test_case_count() -> None:
    """At least 10 000 proofs compared (when run with the tests above), besides the
    por-cbor/1 documents, and every outcome of SPEC §10.2.7 among them."""
    proofs = sum(v for k, v in COUNTS.items() if k.startswith("citation."))
    if proofs == 0:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())), proofs)
    assert proofs >= 10_000, COUNTS
    reasons = {k[3:] for k in COUNTS if k.startswith("id:")}
    for needed in ("one_step.citation_repeat", "one_step.citation_order",
                   "one_step.citation_set", "one_step.prior_order", "one_step.id_position",
                   "one_step.invalid_record", "one_step.citations_canonical",
                   "proof.citations", "proof.malformed", "proof.schema"):
        assert needed in reasons, needed


def test_schema_names(chain: ProofChecker) -> None:
    """The top-level ``schema`` decides first (proof_from_cbor): another version of a
    proof record is ``proof.unsupported``, another text ``proof.schema``."""
    proof = citation_proof(honest(list_scenarios()[0]), 0, [])
    value = decode(proof)
    for name in ("por.CitationProof/2", "por.CitationProof/01", "por.JudgeProof/7",
                 "por.CitationProof/1234567890", "por.Citation/2", "por.CitationProof/",
                 "por.CitationProof/1x", "por.JudgeProof/1", "x", "por.CitationProof-1",
                 "por.OneStepProof-1", "por.CitationProof/1", "por.OmissionProof/1",
                 "por.OmissionProof/2", "por.OmissionProof/3", "por.FormProof/2",
                 "por.FormProof/1", "por.FormStepProof/1", "por.FormStepProof/02"):
        data = encode({**value, "schema": name})
        assert chain.citation(data)[:2] == python_answer(data), name
        COUNTS["citation.schema"] += 1
    data = encode({k: v for k, v in value.items() if k != "schema"})
    assert chain.citation(data)[:2] == python_answer(data) == (False, "proof.schema")


def test_s5_on_chain(chain: ProofChecker) -> None:
    """Rule S5: a contradictions step citing its requirement's first chunk (12 items,
    two chunks) is won on chain as off chain; the honest pair and mutated S5 proofs
    (wrong parts, bytes) get the same answer from both."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from citations import honest_bundle
    from proofs import contradictions_on_first_chunk

    honest_12 = honest_bundle(12)
    forged = contradictions_on_first_chunk(honest_12)
    won = citation_proof(forged, 15, [], [14, 12])
    assert compare(chain, won, "citation.s5_forged") == (True, "one_step.citation_set")
    assert compare(chain, citation_proof(honest_12, 15, [], [14, 13]), "citation.s5_honest") == (
        False, "one_step.citations_canonical")
    for step, items, priors in ((15, [], [13, 12]), (15, [], [14, 14]), (15, [], [14, 13]),
                                (15, [0], [14, 12]), (14, [], [14, 12]), (15, [], [0, 12])):
        assert compare(chain, citation_proof(forged, step, items, priors),
                       "citation.s5_mutated") == (False, "proof.citations")
    value = decode(won)
    for bad in ([], value["prior_steps"][:1], value["prior_steps"] * 2, 0, "x"):
        data = encode({**value, "prior_steps": bad})
        assert compare(chain, data, "citation.s5_mutated")[1] == "proof.schema"
    for data in mutations(won, random.Random(5), 40):  # noqa: S311 - seeded cases
        compare(chain, data, "citation.s5_mutated")
