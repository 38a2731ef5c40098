"""The deduce executor on chain forms (``contracts/src/forms/PorDeduceForm.sol``, ADR 0017
stage 4) answers as Python's one-step check (``por.challenge.one_step``) on the CBOR
records, on at least 10 000 generated deduce steps (the sweep; the default run is a
sample of it).

Cases (``forms_deduce_cases``; forms by ``por.forms.forms_of``, ``por_root`` of seven
components by ``forms_harness``): every fixture market's honest deduce step (markets
52-54 and 60-70 cover the six predicates, terms, preconditions, k of n votes,
``absent_means_no``, ranges); ``test_onchain_deduce.forge``'s lies over ``FORGE_SEEDS``
seeds (the deduce output, a cited aggregate's fields, statuses, votes and evidence, the
contradictions step's conflicts, the PromptSpec's read fields; about half the deduce
steps rewritten consistently by por's ``deduce_step``); generated markets
(``test_citation_properties.markets``) honest and forged; edge decimals (64 characters,
62 fractional digits, the spec's thresholds and range ends, sums past 64 characters);
``bench/largest_shapes.py``'s markets at the caps (every UTF-8 fill width) honest and
forged; the citations (order, kinds, requirement, a later step, inputs); a step id off
its position; malformed forms (``proof.form``) and a carried form that is not the cited
one (``Citations``). Python's answer and the chain's must be equal (won, check id, cause
of ``one_step.unexecutable``) wherever the records have forms; the other classes (a
record with no form, an invalid record: ADR 0017 decision 3) are counted, not compared
(``test_case_count`` prints them). ``POR_FORMS_SWEEP=1`` runs the full sweep.
"""

from __future__ import annotations

import os
import random
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from bundle_edits import honest, recommit, steps_of
from exec_support import generated_cases
from forms_deduce_cases import NAME, agree, chain_answer, step_call_data
from forms_harness import Committed, compiled, forms_root_of, replaced, selector, sizes
from forms_python import chain_revert, forms_args, python_answer, reverts_agree
from scratch_harness import SOLC

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.forms.words import H, W
from por.scenarios import list_scenarios

pytestmark = SOLC
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

SWEEP = bool(os.environ.get("POR_FORMS_SWEEP"))
FORGE_SEEDS = range(30) if SWEEP else range(3)
PER_MARKET = 25
COUNTS: Counter[str] = Counter()
#: Deployed code and initcode limits with the 600 bytes of room the brief keeps.
CODE_LIMIT, INIT_LIMIT, ROOM = 24_576, 49_152, 600


def check(cases: Iterable[tuple[str, Bundle, int]], tag: str) -> Counter[str]:
    """Compare every case (``forms_deduce_cases.agree``); count it; fail on a difference."""
    seen: Counter[str] = Counter()
    failures = agree(cases, seen, tag)
    COUNTS.update(seen)
    assert not failures, failures[:10]
    return Counter({k.split("|", 1)[1]: v for k, v in seen.items()})


def deduce_leaf(bundle: Bundle) -> int:
    return steps_of(bundle, "deduce")[0]


def forged(bundle: Bundle, name: str, count: int, rng: random.Random
           ) -> Iterator[tuple[str, Bundle, int]]:
    from test_onchain_deduce import forge

    for k in range(count):
        lie, leaf = forge(bundle, rng)
        yield f"{name} lie {k}", lie, leaf


def test_every_fixture_deduce_matches() -> None:
    cases = [(name, b, deduce_leaf(b)) for name in list_scenarios() for b in [honest(name)]]
    seen = check(cases, "fixtures")
    assert seen == Counter({"compared:one_step.match:": len(cases)})
    assert len(cases) >= 40


@pytest.mark.parametrize("seed", list(FORGE_SEEDS))
def test_forged_lies(seed: int) -> None:
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    cases = (case for name in list_scenarios()
             for case in forged(honest(name), name, PER_MARKET, rng))
    seen = check(cases, "forged")
    assert seen["compared:one_step.mismatch:"] > 100 and seen["compared:one_step.match:"] > 100
    assert seen["compared:one_step.unexecutable:step.citation_mismatch"] > 10


@generated_cases(max_examples=60 if SWEEP else 15)
def test_generated_markets(case: tuple[object, object], seed: int) -> None:
    spec, evidence = case
    bundle = bundle_from_bytes(build(spec, evidence).data)  # type: ignore[arg-type]
    if not steps_of(bundle, "deduce"):
        return
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    check([("generated", bundle, deduce_leaf(bundle)), *forged(bundle, "generated", 20, rng)],
          "generated")


def edge_cases() -> Iterator[tuple[str, Bundle, int]]:
    """``test_onchain_deduce``'s edge decimals: every numeric field read set to each edge
    value and the spec's bounds, the deduce step rewritten from them and left as it was."""
    from test_onchain_deduce import EDGE_MARKETS, EDGES, _set_numeric, rewritten

    rng = random.Random(64)  # noqa: S311 - seeded cases, not secrets
    for name in EDGE_MARKETS:
        bundle = honest(name)
        index = deduce_leaf(bundle)
        sem = decode(bundle.prompt_spec)["prediction_semantics"]
        keys = [sem["metric"], *(t["metric"] for t in sem.get("terms", [])),
                *([sem["other_metric"]] if "other_metric" in sem else [])]
        bounds = [sem[k] for k in ("threshold", "lower", "upper") if k in sem]
        cited = decode(bundle.steps[index])["prior_step_ids"]
        for value in EDGES + bounds:
            for others in (None, rng.choice(EDGES), rng.choice(EDGES)):
                steps = list(bundle.steps)
                _set_numeric(steps, cited, keys[0], value)
                for key in keys[1:]:
                    _set_numeric(steps, cited, key, others or "0")
                for rewrite in (True, False):
                    edited = list(steps)
                    if rewrite:
                        edited[index] = (rewritten(bundle.prompt_spec, edited, index)
                                         or edited[index])
                    yield f"{name} {value}", recommit(bundle, steps=edited), index


def test_edge_decimals() -> None:
    seen = check(edge_cases(), "edges")
    assert seen["compared:one_step.match:"] > 50 and seen["compared:one_step.mismatch:"] > 50


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
    cases = [(name, b, deduce_leaf(b)) for name, b in bundles]
    cases += [case for name, b in bundles for case in forged(b, name, 12 if SWEEP else 4, rng)]
    many = dict(bundles)["many"]  # 8 aggregates: two swapped cite another requirement's
    at = deduce_leaf(many)
    priors = decode(many.steps[at])["prior_step_ids"]
    cases.append(("swapped", _with(many, at, _cites([priors[1], priors[0], *priors[2:]])), at))
    seen = check(cases, "caps")
    assert seen["compared:one_step.match:"] >= len(bundles)
    assert seen["compared:one_step.unexecutable:step.citation_mismatch"] >= 1


def vote_cases() -> Iterator[tuple[str, Bundle, int]]:
    """k of n at every count: market 67 (k = 2 of 3 targets, ``close < 80``) with the
    metric's votes cut to 0-4 and each vote holding or not (``79`` / ``81``; a fourth vote
    repeats a source), the deduce step rewritten (lost) and left as it was."""
    from itertools import product

    from test_onchain_deduce import rewritten

    bundle = honest("67-two-of-three-below")
    leaf = deduce_leaf(bundle)
    at = steps_of(bundle, "aggregate")[0]
    for n in range(5):
        for pattern in product((True, False), repeat=n):
            step = decode(bundle.steps[at])
            field = step["output"]["fields"][0]
            votes = (field["votes"] * 2)[:n]
            field["votes"] = [{**v, "value": "79" if ok else "81"}
                              for v, ok in zip(votes, pattern, strict=True)]
            steps = list(bundle.steps)
            steps[at] = encode(step)
            yield f"votes {pattern} old", recommit(bundle, steps=steps), leaf
            steps[leaf] = rewritten(bundle.prompt_spec, steps, leaf) or steps[leaf]
            yield f"votes {pattern}", recommit(bundle, steps=steps), leaf


def test_votes_at_every_count() -> None:
    seen = check(vote_cases(), "votes")
    assert seen["compared:one_step.match:"] >= 31, seen


def _with(bundle: Bundle, leaf: int, edit: object) -> Bundle:
    step = decode(bundle.steps[leaf])
    edit(step)  # type: ignore[operator]
    steps = list(bundle.steps)
    steps[leaf] = encode(step)
    return recommit(bundle, steps=steps)


def _cites(priors: list[str]) -> object:
    return lambda s: s.__setitem__("prior_step_ids", priors)


def test_citations_and_position() -> None:
    """The contradictions step cited first, a later step, an extract
    step, the contradictions step twice; an extra ``inputs`` key; a step id off its
    leaf; the summary reordered."""
    bundle = honest("67-two-of-three-below")
    leaf = deduce_leaf(bundle)
    step = decode(bundle.steps[leaf])
    priors = step["prior_step_ids"]
    later = decode(bundle.steps[leaf + 1])["step_id"]
    extract = decode(bundle.steps[steps_of(bundle, "extract_claims")[0]])["step_id"]
    aggs = priors[:-1]
    assert len(step["evidence_ids"]) > 1
    cases = [
        ("contra first", _with(bundle, leaf, _cites(priors[-1:] + aggs)), leaf),
        ("later", _with(bundle, leaf, _cites([*priors, later])), leaf),
        ("extract", _with(bundle, leaf, _cites([extract, *priors])), leaf),
        ("contra twice", _with(bundle, leaf, _cites([*priors, priors[-1]])), leaf),
        ("inputs", _with(bundle, leaf, lambda s: s["inputs"].__setitem__("x", 1)), leaf),
        ("renamed", _with(bundle, leaf, lambda s: s.__setitem__("step_id", "step_0099")), leaf),
        ("summary", _with(bundle, leaf, lambda s: s.__setitem__(
            "evidence_ids", s["evidence_ids"][::-1])), leaf),
    ]
    seen = check(cases, "citations")
    assert seen["compared:one_step.unexecutable:step.citation_mismatch"] >= 4, seen
    assert seen["compared:one_step.prior_order:"] == 1, seen
    assert seen["compared:one_step.id_position:"] == 1, seen
    assert seen["compared:one_step.unexecutable:step.bad_inputs"] == 1, seen


def _set(form: bytes, i: int, value: int) -> bytes:
    return form[:32 * i] + value.to_bytes(32, "big") + form[32 * i + 32:]


def test_malformed_forms_are_proof_form() -> None:
    """A carried COMMON, AGGREGATE, CONTRADICTIONS or DEDUCE head that does not parse, or
    a tag its index does not take: ``proof.form``; a cited form that is another step:
    ``Citations``."""
    bundle = honest("63-arithmetic-total-over")
    leaf = deduce_leaf(bundle)
    c = forms_root_of(bundle)
    assert chain_answer(step_call_data(bundle, leaf, c))[0] == (False, "one_step.match", "")
    step = decode(bundle.steps[leaf])
    by_id = {decode(s)["step_id"]: i for i, s in enumerate(bundle.steps)}
    agg, contra = (c.index_of_step(by_id[p]) for p in step["prior_step_ids"][-2:])
    me = c.index_of_step(leaf)
    bad = {
        0: [c.forms.forms[0].form + bytes(32), _set(c.forms.forms[0].form, 2, 1 << 65)],
        agg: [c.forms.forms[agg].form[:96], _set(c.forms.forms[agg].form, 2, 10**6)],
        contra: [c.forms.forms[contra].form[:96], c.forms.forms[contra].form[:-1]],
        me: [_set(c.forms.forms[me].form, 0, 5), _set(c.forms.forms[me].form, 3, 10**6)],
    }
    for index, forms in bad.items():
        for k, form in enumerate(forms):
            data = step_call_data(bundle, leaf, replaced(bundle, c, index, form))
            assert chain_answer(data) == ("proof.form", 0), (index, k)
            assert python_answer("deduce", data) == "proof.form", (index, k)
    # COMMON carried at another index, the step's own form at COMMON's
    moved = step_call_data(bundle, leaf, c, index_of={0: 1})
    assert chain_answer(moved)[0] != (False, "one_step.match", "")
    # carried forms that are not the cited steps': Citations(i), i the same on both sides
    honest_data = step_call_data(bundle, leaf, c)
    forms, index, _size = forms_args(honest_data)
    other = c.index_of_step(0)  # the first extract step: cited by no deduce step
    for position in range(2, len(forms)):
        swapped = _carrying(c, [*index[:position], other, *index[position + 1:]])
        assert chain_revert(NAME, swapped)[:4] == selector("Citations(uint256)"), position
        assert reverts_agree("deduce", NAME, swapped), position
    for carried in (index[:-1], [*index, index[-1]]):
        data = _carrying(c, carried)
        assert chain_revert(NAME, data) == selector("Citations(uint256)") + len(
            carried).to_bytes(32, "big"), carried
        assert reverts_agree("deduce", NAME, data), carried


def test_unchecked_hashes_are_proof_form() -> None:
    """Two forms ``F`` never writes, which ran the executor out of gas before s40's
    integration (a hash of unchecked call data): a ``text_equals`` COMMON without
    ``expected_text`` (deduce read call data position 0 as the expected text) and, since
    lever (a)+v (ids as ``L[H]``: no length word to hash past), an AGGREGATE whose
    evidence ids' count passes the form's end. Both are ``proof.form`` on chain and in
    Python."""
    bundle = honest("52-politics-election-winner-page")
    leaf = deduce_leaf(bundle)
    c = forms_root_of(bundle)
    assert chain_answer(step_call_data(bundle, leaf, c))[0] == (False, "one_step.match", "")
    common = c.forms.forms[0].form
    present = W(1) + H("Maya Okafor")
    assert common.count(present) == 1
    data = step_call_data(bundle, leaf, replaced(bundle, c, 0, common.replace(present, W(0))))
    assert chain_answer(data) == ("proof.form", 0)
    assert python_answer("deduce", data) == "proof.form"
    agg_leaf = steps_of(bundle, "aggregate")[0]
    agg = c.index_of_step(agg_leaf)
    form = c.forms.forms[agg].form
    ids = decode(bundle.steps[agg_leaf])["evidence_ids"]
    listed = W(len(ids)) + b"".join(H(i) for i in ids)
    assert listed in form  # its first place: the step's evidence_ids (each field repeats it)
    at = form.index(listed)
    huge = form[:at] + (2**64 - 1).to_bytes(32, "big") + form[at + 32:]
    data = step_call_data(bundle, leaf, replaced(bundle, c, agg, huge))
    assert chain_answer(data) == ("proof.form", 0)
    assert python_answer("deduce", data) == "proof.form"


def _carrying(c: Committed, index: list[int]) -> bytes:
    """``execute``'s call data carrying the forms at ``index`` (each with its path)."""
    from eth_abi.abi import encode as abi_encode
    from forms_deduce_cases import INCLUSION, SIGNATURE

    forms = [c.forms.forms[i].form for i in index]
    inc = (c.por_root, c.forms.size, index, [c.path(i) for i in index], c.component_path)
    return selector(SIGNATURE) + abi_encode(["bytes[]", INCLUSION], [forms, inc])


#: Since s42 `dedbound` the form's writer and the summary are `PorDeduceFormWrite`,
#: which the executor deploys (24 039 bytes with the bounded field and conflict lookups;
#: s41 `execb2` had left 40): 500 bytes of EIP-170 room, not ROOM.
DEDUCE_ROOM = 500


def test_deployed_size() -> None:
    assert sizes(NAME) <= CODE_LIMIT - DEDUCE_ROOM
    assert sizes("PorDeduceFormWrite") <= CODE_LIMIT - ROOM
    assert len(compiled(NAME, part="bytecode")) // 2 <= INIT_LIMIT - ROOM


def test_case_count() -> None:
    """At least 3 000 deduce cases by default (1 500 compared), 10 000 in the sweep
    (5 000 compared); every answer among them; the classes printed."""
    total = sum(COUNTS.values())
    if total == 0:
        pytest.skip("run with the other tests of this file")
    by_class: Counter[str] = Counter()
    for key, n in COUNTS.items():
        by_class[key.split("|", 1)[1]] += n
    print(dict(sorted(by_class.items())), total)
    compared = sum(n for k, n in by_class.items() if k.startswith("compared:"))
    assert total >= (10_000 if SWEEP else 3_000), total
    assert compared >= (5_000 if SWEEP else 1_500), compared
    for answer in ("one_step.match:", "one_step.mismatch:", "one_step.id_position:",
                   "one_step.prior_order:", "one_step.unexecutable:step.citation_mismatch",
                   "one_step.unexecutable:step.bad_prior_output",
                   "one_step.unexecutable:step.bad_inputs"):
        assert f"compared:{answer}" in by_class, answer
