"""Python's check-chunk and aggregate executors on chain forms (``por.forms.execute``, what
``por check-proof`` runs on a ``por.FormStepProof/1``) answer as Python's one-step check
on the CBOR records (``build_one_step_proof`` + ``verify_one_step_proof``), without an
EVM or node: every fixture market's check chunks and aggregates, honest; lies forged by
``check_lies.forge`` and ``aggregate_lies.forge`` (outputs, cited extract steps, cited
chunks, citations, about half rewritten consistently); multi-chunk requirements (P and
``from_leaf``); and malformed carried forms (``proof.form``, ``proof.citations``).

Compared wherever both one-step answers are the executors' (``one_step.match``,
``mismatch``, ``unexecutable``, ``id_position``, ``prior_order``) and every carried
record has a form. Apart, as in the chain differentials (ADR 0017 decision 3): a record
with no form, Python's other answers (a FormProof's), and a cited record's own lie no
form the step reads holds (a claim's ``path``, a chunk's groups for the aggregate, an
extract step's own ``evidence_ids``). ``tests/chain/test_forms_{check,aggregate}.py``
hold the same executors equal to the Solidity on thousands of cases.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from bundle_edits import honest, steps_of
from forms_carried import carried

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof, verify_one_step_proof
from por.errors import PorError
from por.forms.execute import CitationsFault, FormFault, execute
from por.scenarios import list_scenarios

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "chain"))
from aggregate_lies import forge as forge_aggregate
from check_lies import chunks_of, many_items
from check_lies import forge as forge_check

COMPARED = ("one_step.match", "one_step.mismatch", "one_step.unexecutable",
            "one_step.id_position", "one_step.prior_order")
#: Python's messages about parts of a cited record no form the executor reads holds.
NOT_IN_FORMS = {"check": ("'path'", "is not about"),
                "aggregate": ("group", "claim reference", "'path'", "is not about")}
KIND = {"check": "check_requirement", "aggregate": "aggregate"}
COUNTS: Counter[str] = Counter()


def compare(kind: str, bundle: Bundle, leaf: int) -> None:
    """Python on forms against Python on records for the step at ``leaf``: equal, or
    counted apart."""
    try:
        outcome = verify_one_step_proof(build_one_step_proof(bundle, leaf))
    except PorError as exc:
        COUNTS[f"{kind} apart:{exc.check_id}"] += 1
        return
    want = (outcome.outcome == "won", outcome.reason, outcome.cause or "")
    case = carried(bundle, leaf) if want[1] in COMPARED else None
    if case is None:
        COUNTS[f"{kind} apart:{'form.none' if want[1] in COMPARED else want[1]}"] += 1
        return
    answer = execute(kind, case.forms, case.index, case.size)
    got = (answer.won, answer.check_id, answer.cause)
    if got != want and want[1] == "one_step.unexecutable" and any(
            s in outcome.message for s in NOT_IN_FORMS[kind]):
        COUNTS[f"{kind} apart:own_record"] += 1
        return
    assert got == want, (kind, leaf, got, want, outcome.message[:300])
    COUNTS[f"{kind} {want[1]} {want[2]}".strip()] += 1


@pytest.mark.parametrize("name", list_scenarios())
def test_fixture_markets(name: str) -> None:
    """Each market's check chunks and aggregates, honest, then 15 forged lies of each."""
    bundle = honest(name)
    rng = random.Random(name)  # noqa: S311 - seeded cases, not secrets
    for kind in ("check", "aggregate"):
        for leaf in steps_of(bundle, KIND[kind]):
            compare(kind, bundle, leaf)
    chunks = chunks_of(bundle)
    for _ in range(15 if chunks else 0):
        leaf = rng.choice(chunks)
        compare("check", forge_check(bundle, leaf, rng), leaf)
    for _ in range(15 if steps_of(bundle, "aggregate") else 0):
        lie, leaf = forge_aggregate(bundle, rng)
        compare("aggregate", lie, leaf)


@pytest.mark.parametrize("name", ["67-two-of-three-below", "08-quorum-agree"])
def test_multi_chunk_requirements(name: str) -> None:
    """23 items of one requirement: chunks of 10, 10, 3 (P, ``from_leaf``) and the
    aggregate over them, honest and forged."""
    bundle = many_items(name, 23)
    rng = random.Random(len(name))  # noqa: S311 - seeded cases, not secrets
    chunks = chunks_of(bundle)
    assert len(chunks) >= 3
    for leaf in chunks:
        compare("check", bundle, leaf)
    for _ in range(30):
        leaf = rng.choice(chunks[1:])
        compare("check", forge_check(bundle, leaf, rng), leaf)
    for leaf in steps_of(bundle, "aggregate"):
        compare("aggregate", bundle, leaf)


def _malformed(forms: list[bytes], at: int, form: bytes) -> list[bytes]:
    return [*forms[:at], form, *forms[at + 1:]]


@pytest.mark.parametrize("kind", ["check", "aggregate"])
def test_malformed_carried_forms(kind: str) -> None:
    """A cited form not of whole words, COMMON's tolerance with a digit byte that is not
    a digit, the REQUIREMENT cut, a word appended to or cut from an EXTRACT the check
    reads whole: ``proof.form``; the cited forms in another order: ``proof.citations``."""
    bundle = honest("08-quorum-agree")
    leaf = steps_of(bundle, KIND[kind])[0]
    case = carried(bundle, leaf)
    assert case is not None
    forms, index, size = case.forms, case.index, case.size
    assert execute(kind, forms, index, size).check_id == "one_step.match"
    common = forms[1]
    bad = [_malformed(forms, 3, forms[3][:-1]),  # not whole words
           _malformed(forms, 1, common[:128] + b"x" + common[129:]),  # tolerance digit
           _malformed(forms, 2, forms[2][:96])]  # the REQUIREMENT cut
    if kind == "check":  # it reads the EXTRACTs to their ends (the aggregate to the claims)
        bad += [_malformed(forms, 3, forms[3] + bytes(32)), _malformed(forms, 3, forms[3][:-32])]
    for edited in bad:
        with pytest.raises(FormFault):
            execute(kind, edited, index, size)
    swapped = [*forms[:3], forms[4], forms[3], *forms[5:]]
    with pytest.raises(CitationsFault):
        execute(kind, swapped, [*index[:3], index[4], index[3], *index[5:]], size)


def test_case_count() -> None:
    """Enough cases compared, every answer among them (with the tests above)."""
    compared = sum(v for k, v in COUNTS.items() if "apart" not in k)
    if compared == 0:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())), compared)
    assert compared >= 1_000, COUNTS
    for kind in ("check", "aggregate"):
        for answer in ("one_step.match", "one_step.mismatch", "one_step.unexecutable"):
            assert any(k.startswith(f"{kind} {answer}") for k in COUNTS), (kind, answer)
