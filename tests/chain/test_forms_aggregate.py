"""The aggregate executor on chain forms (``contracts/src/forms/PorAggregateForm.sol``,
ADR 0017 stage 4) answers as Python's one-step check (``por.challenge.one_step``) on
the CBOR records, on at least 10 000 generated aggregate steps.

Cases (``forms_aggregate_cases``; forms by ``por.forms.forms_of``, ``por_root`` of seven
components by ``forms_harness``): every fixture market's honest aggregates;
``aggregate_lies.forge``'s lies over ``FORGE_SEEDS`` seeds (outputs, claims, cards, the
chunk's state and the PromptSpec edited, about half rewritten consistently); generated
markets (``test_citation_properties.markets``) honest and forged; edge decimals
(``forms_aggregate_edges``: the 2^254 border after alignment, scales 0/18/19/62, ties,
tolerance 0 and exact boundaries); ``bench/largest_shapes.py``'s markets at the caps
(every UTF-8 fill width) and ``bench/gas_aggregate.py``'s 10 x 8 with its lie; a step id
off its position; malformed forms committed (``proof.form``). Python's answer and the
chain's must be equal (won, check id, cause of ``one_step.unexecutable``) wherever the
records have forms and Python's answer is about what the forms hold; the other classes
(a record with no form, an invalid record, a malformation of a cited record its form does
not hold: ADR 0017 decision 3) are counted, not compared (``test_case_count`` prints
them). ``POR_FORMS_SWEEP=1`` runs the full sweep (40 forge seeds).
"""

from __future__ import annotations

import os
import random
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from aggregate_lies import forge
from bundle_edits import honest, recommit, steps_of
from exec_support import generated_cases
from forms_aggregate_cases import NAME, call_data, chain_answer, compare
from forms_aggregate_edges import edge_case, edge_cases
from forms_harness import compiled, forms_root_of, replaced, sizes
from forms_python import SEEN
from scratch_harness import SOLC

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.scenarios import list_scenarios

pytestmark = SOLC
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

FORGE_SEEDS = range(40) if os.environ.get("POR_FORMS_SWEEP") else range(9)
COUNTS: Counter[str] = Counter()
#: Deployed code and initcode limits with the 600 bytes of room the brief keeps.
CODE_LIMIT, INIT_LIMIT, ROOM = 24_576, 49_152, 600


def agree(cases: Iterable[tuple[str, Bundle, int]], tag: str) -> Counter[str]:
    """Compare every case; count its class and Python's answer under ``tag``; fail with
    the first cases where the chain answers otherwise."""
    seen: Counter[str] = Counter()
    failures = []
    for name, bundle, leaf in cases:
        kind, python, chain, _gas = compare(bundle, leaf)
        key = kind if python is None else f"{kind}:{python[1]}:{python[2]}"
        seen[key] += 1
        COUNTS[key] += 1
        COUNTS[f"source:{tag}"] += 1
        if kind == "compared" and chain != python:
            failures.append(f"{name} leaf {leaf}: python {python}, chain {chain}")
    assert not failures, failures[:10]
    return seen


def fixture_aggregates() -> Iterator[tuple[str, Bundle, int]]:
    for name in list_scenarios():
        bundle = honest(name)
        for leaf in steps_of(bundle, "aggregate"):
            yield name, bundle, leaf


def forged(bundle: Bundle, name: str, count: int, rng: random.Random
           ) -> Iterator[tuple[str, Bundle, int]]:
    for k in range(count):
        lie, leaf = forge(bundle, rng)
        yield f"{name} lie {k}", lie, leaf


def test_every_fixture_aggregate_matches() -> None:
    seen = agree(fixture_aggregates(), "fixtures")
    assert seen == Counter({"compared:one_step.match:": sum(seen.values())})
    assert sum(seen.values()) >= 40


@pytest.mark.parametrize("seed", list(FORGE_SEEDS))
def test_forged_lies(seed: int) -> None:
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    cases = (case for name in list_scenarios() for case in forged(honest(name), name, 25, rng))
    seen = agree(cases, "forged")
    assert seen["compared:one_step.mismatch:"] > 100 and seen["compared:one_step.match:"] > 100


@generated_cases(max_examples=20)
def test_generated_markets(case: tuple[object, object], seed: int) -> None:
    spec, evidence = case
    bundle = bundle_from_bytes(build(spec, evidence).data)  # type: ignore[arg-type]
    if not steps_of(bundle, "aggregate"):
        return
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    honest_cases = [("generated", bundle, leaf) for leaf in steps_of(bundle, "aggregate")]
    agree([*honest_cases, *forged(bundle, "generated", 20, rng)], "generated")


def test_edge_decimals() -> None:
    seen = agree(edge_cases(1_000, 7), "edges")
    assert seen["compared:one_step.match:"] > 300 and seen["compared:one_step.mismatch:"] > 300


#: (values, tolerance, quorum, min_sources): the 2^254 border on both sides (aligned by
#: the tolerance's 13 decimals), scale 62 against 64 digits, ties, tolerance 0.
FIXED = [
    (["2894802230932904885589274625217197696331749616641014100986439600"] * 2 + ["0"],
     "0.0000000000001", 2, 3),
    (["2894802230932904885589274625217197696331749616641014100986439601"] * 2 + ["0"],
     "0.0000000000001", 2, 3),
    (["2894802230932904885589274625217197696331749616641014100986439601",
      "2894802230932904885589274625217197696331749616641014100986439600", "1"],
     "1", 2, 3),
    (["9" * 64, "-" + "9" * 63, "0." + "0" * 61 + "1"], "0." + "0" * 61 + "1", 1, 3),
    (["578960446186580977117854925043439539266349923328202820197287920",
      "-578960446186580977117854925043439539266349923328202820197287920", "0"],
     "80000.00000000000001", 2, 3),  # |a - b| past 2^255 aligned: exact, not a word
    (["1.5", "1.5", "1.5"], "0", 3, 3),
    (["1.5", "1.50000000000000000001", "1.5"], "0.00000000000000000001", 3, 3),
    (["1.5", "1.50000000000000000002", "1.5"], "0.00000000000000000001", 3, 3),
]


@pytest.mark.parametrize("lie", [False, True])
@pytest.mark.parametrize("fixed", range(len(FIXED)))
def test_fixed_edges(fixed: int, lie: bool) -> None:
    values, tolerance, quorum, min_sources = FIXED[fixed]
    case = edge_case(honest("08-quorum-agree"), random.Random(fixed), lie,  # noqa: S311
                     fixed=(values, tolerance, quorum, min_sources))
    assert case is not None
    seen = agree([(f"fixed {fixed}", *case)], "edges")
    if not lie:  # a lie may write an output value with no form (a FormProof's case)
        assert seen == Counter({"compared:one_step.match:": 1})


@pytest.mark.parametrize("fill", [1, 2, 3, 4])
def test_caps_markets(fill: int) -> None:
    from largest_gas import FILLS
    from largest_shapes import CAPS, SHAPES, market

    saved = CAPS["fill"]
    CAPS["fill"] = FILLS[fill]
    try:
        bundles = [(name, market(shape)) for name, shape in SHAPES.items()]
    finally:
        CAPS["fill"] = saved
    rng = random.Random(fill)  # noqa: S311 - seeded cases, not secrets
    cases = [(name, b, leaf) for name, b in bundles for leaf in steps_of(b, "aggregate")]
    cases += [case for name, b in bundles for case in forged(b, name, 6, rng)]
    seen = agree(cases, "caps")
    assert seen["compared:one_step.match:"] >= len(bundles)


def test_ten_by_eight_and_its_lie() -> None:
    from gas_aggregate import largest
    from proofs import output_with, with_step

    big = largest()
    at = steps_of(big, "aggregate")[0]
    lie = with_step(big, at, lambda s: output_with(s, ("fields", 7, "fallback_used"),
                                                   lambda v: not v))
    seen = agree([("10 x 8", big, at), ("10 x 8 lie", lie, at)], "caps")
    assert seen == Counter({"compared:one_step.match:": 1, "compared:one_step.mismatch:": 1})


def test_step_id_off_its_position() -> None:
    """A step id that is not its leaf's: won ``one_step.id_position`` on both sides."""
    bundle = honest("08-quorum-agree")
    leaf = steps_of(bundle, "aggregate")[0]
    step = decode(bundle.steps[leaf])
    step["step_id"] = "step_0099"
    steps = list(bundle.steps)
    steps[leaf] = encode(step)
    seen = agree([("renamed", recommit(bundle, steps=steps), leaf)], "edges")
    assert seen == Counter({"compared:one_step.id_position:": 1})


def _cites(bundle: Bundle, leaf: int, priors: list[str]) -> Bundle:
    step = decode(bundle.steps[leaf])
    step["prior_step_ids"] = priors
    steps = list(bundle.steps)
    steps[leaf] = encode(step)
    return recommit(bundle, steps=steps)


def test_citation_order() -> None:
    """The chunk cited before an extract step (Python's last check: the recomputed step's
    ``prior_step_ids``), a later step cited (``one_step.prior_order``), two chunks, a
    chunk whose ``inputs`` or ``output`` names another requirement."""
    bundle = honest("08-quorum-agree")
    leaf = steps_of(bundle, "aggregate")[0]
    priors = decode(bundle.steps[leaf])["prior_step_ids"]
    later = decode(bundle.steps[leaf + 1])["step_id"]
    cases = [("chunk first", _cites(bundle, leaf, priors[-1:] + priors[:-1]), leaf),
             ("chunk second", _cites(bundle, leaf, [priors[0], priors[-1], *priors[1:-1]]), leaf),
             ("later", _cites(bundle, leaf, [*priors, later]), leaf),
             ("two chunks", _cites(bundle, leaf, [*priors, priors[-1]]), leaf)]
    chunk = decode(bundle.steps[leaf - 1])
    for where in ("inputs", "output"):  # a chunk of another requirement
        edited = decode(bundle.steps[leaf - 1])
        edited[where]["requirement_id"] = chunk[where]["requirement_id"] + "_other"
        steps = list(bundle.steps)
        steps[leaf - 1] = encode(edited)
        cases.append((f"chunk {where} of another R", recommit(bundle, steps=steps), leaf))
    seen = agree(cases, "edges")
    assert seen == Counter({"compared:one_step.unexecutable:step.citation_mismatch": 5,
                            "compared:one_step.prior_order:": 1}), seen


def test_earlier_chunk_is_not_a_one_step_rule() -> None:
    """Rule S5 ("C is R's last chunk") is not one of Python's one-step rules: an aggregate
    citing an earlier chunk of R is a mismatch when its output keeps the last chunk's
    copies and a match when rewritten on the earlier one (its lie is the citation set's,
    SPEC §12.5.1: a CitationProof's), on both sides."""
    from aggregate_lies import rewrite
    from test_onchain_check import many_items

    bundle = many_items("67-two-of-three-below", 23)
    leaf = steps_of(bundle, "aggregate")[0]
    chunks = steps_of(bundle, "check_requirement")
    step = decode(bundle.steps[leaf])
    step["prior_step_ids"] = [*step["prior_step_ids"][:-1],
                              decode(bundle.steps[chunks[-2]])["step_id"]]
    steps = list(bundle.steps)
    steps[leaf] = encode(step)
    kept = recommit(bundle, steps=steps)
    steps[leaf] = rewrite(bundle.prompt_spec, steps, leaf) or steps[leaf]
    seen = agree([("honest", bundle, leaf), ("earlier chunk", kept, leaf),
                  ("earlier chunk, rewritten", recommit(bundle, steps=steps), leaf)], "edges")
    assert seen == Counter({"compared:one_step.match:": 2, "compared:one_step.mismatch:": 1})


def test_a_cited_step_of_another_kind() -> None:
    """A well-formed step form of another kind where the aggregate cites one (another
    requirement's aggregate): not ``proof.form`` but Python's ``step.citation_mismatch``
    (draft §4)."""
    from largest_gas import FILLS
    from largest_shapes import CAPS, SHAPES, market

    saved = CAPS["fill"]
    CAPS["fill"] = FILLS[1]
    try:
        bundle = market(SHAPES["many"])
    finally:
        CAPS["fill"] = saved
    first, second = steps_of(bundle, "aggregate")[:2]
    priors = decode(bundle.steps[second])["prior_step_ids"]
    other = decode(bundle.steps[first])["step_id"]
    cases = [("aggregate cited", _cites(bundle, second, [*priors[:-1], other, priors[-1]]), second),
             ("aggregate for the chunk", _cites(bundle, second, [*priors[:-1], other]), second)]
    seen = agree(cases, "edges")
    assert seen == Counter({"compared:one_step.unexecutable:step.citation_mismatch": 2}), seen


def _word(form: bytes, i: int) -> int:
    return int.from_bytes(form[32 * i:32 * i + 32], "big")


def _set(form: bytes, i: int, value: int) -> bytes:
    return form[:32 * i] + value.to_bytes(32, "big") + form[32 * i + 32:]


def _bad_forms(which: str, form: bytes) -> list[bytes]:
    """Malformations in the words the executor reads (draft §4's ``proof.form``)."""
    if which == "extract":  # claims after T(evidence_id) at word 5
        claims = 6 + (_word(form, 5) + 31) // 32
        padded = bytearray(form)
        padded[32 * 7 - 1] |= 1  # T(evidence_id)'s padding (its text is under 32 bytes)
        return [form[:-1], _set(form, claims + 2, 4),  # a claim's kind out of range
                form[:32 * (claims + 3)], bytes(padded), _set(form, claims, 10**6)]
    if which == "requirement":  # targets at word 6, then the fields
        fields = 7 + _word(form, 6)
        return [_set(form, fields, 10**6), _set(form, fields + 1, 4), _set(form, 2, 3),
                _set(form, 4, 2**64)]
    if which == "aggregate":  # T(R) at word 2
        padded = bytearray(form)
        padded[32 * 4 - 1] |= 1
        return [_set(form, 2, 10**6), bytes(padded), form[:32 * 3]]
    tolerance = _word(form, 3)  # COMMON: D at word 3, the table after it
    table = 4 + ((tolerance & 0xFFFFFFFF) + 31) // 32
    digits = bytearray(form)
    digits[32 * 4] = ord("x")
    return [_set(form, table, 10**6), bytes(digits), _set(form, 3, tolerance | 1 << 100),
            _set(form, table + 2, 3)]


@pytest.mark.parametrize("which", ["extract", "requirement", "aggregate", "common"])
def test_malformed_forms_are_proof_form(which: str) -> None:
    bundle = honest("08-quorum-agree")
    leaf = steps_of(bundle, "aggregate")[0]
    committed = forms_root_of(bundle)
    index = {"extract": committed.index_of_step(0), "requirement": 1,
             "aggregate": committed.index_of_step(leaf), "common": 0}[which]
    form = committed.forms.forms[index].form
    assert chain_answer(call_data(bundle, leaf))[0] == (False, "one_step.match", "")
    for k, bad in enumerate(_bad_forms(which, form)):
        data = call_data(bundle, leaf, replaced(bundle, committed, index, bad))
        assert chain_answer(data) == ("proof.form", 0), (which, k)


def test_carried_out_of_order() -> None:
    """The cited forms carried in another order than the step's ``prior_step_ids``:
    ``Citations(i)`` on chain, ``proof.citations`` in Python (``forms_python.agrees``)."""
    bundle = honest("08-quorum-agree")
    leaf = steps_of(bundle, "aggregate")[0]
    for order in ([0, 1, 2, 4, 3, 5, 6], [0, 1, 2, 3, 4, 5]):
        answer = chain_answer(call_data(bundle, leaf, order=order))[0]
        assert isinstance(answer, str) and answer.startswith("revert:"), order


def test_deployed_size() -> None:
    assert sizes(NAME) <= CODE_LIMIT - ROOM
    assert len(compiled(NAME, part="bytecode")) // 2 <= INIT_LIMIT - ROOM


def test_case_count() -> None:
    """At least 10 000 aggregate steps compared or classified (with the other tests)."""
    total = sum(v for k, v in COUNTS.items() if not k.startswith("source:"))
    if total == 0:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())), total)
    assert total >= 10_000, COUNTS
    compared = sum(v for k, v in COUNTS.items() if k.startswith("compared"))
    assert compared >= 7_000, COUNTS
    python = {k: v for k, v in SEEN.items() if k.startswith("aggregate:")}
    print("python on forms:", python)  # every chain call, Python's executor on its data
    assert sum(python.values()) >= compared, python
