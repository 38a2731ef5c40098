"""The check chunk re-executed on chain forms (``contracts/src/forms/PorCheckForm*.sol``,
ADR 0017 stage 4) answers as ``por.challenge``'s one-step check on the CBOR records.

Cases (each a check-chunk step and its forms, ``forms_check_support.call_data``): every
fixture market's chunks, honest; ``test_onchain_check.forge``'s lies (each state key,
reasons, admitted, observed_at, groups, sources, window, requirement, extra keys, P of
another requirement, edge cards: status 100/599, confidence 0/10000, tiers,
``retrieved_at`` extremes, blank and white-space source ids), about half rewritten
consistently; value edits of the cited extract steps here (numeric values with equal and
extreme decimals, scales 0..62 and 64 digits; booleans flipped, so groups get ``other``;
timestamps at the window's ends with the slack, one second in and out), rewritten
consistently or not; ``many_items``' multi-chunk requirements (10-item chunks, P and
``from_leaf``); PromptSpec fields the chunk reads (``accepted_status_codes``, tiers,
slack, window start); generated markets; and ``bench/largest_shapes.py``'s caps.

Python's answer (won/lost, the check id, and for ``one_step.unexecutable`` the cause) is
compared wherever it is one the executor gives (match, mismatch, unexecutable,
id_position, prior_order) and every carried record has a form. Counted
apart, not compared (ADR 0017 decision 3): a carried record with no form (``form.none``,
a FormProof's case), Python's other answers (``one_step.invalid_record``: a FormProof's
too), and a cited record's own lie the forms do not hold (an extract step's claim
``path``, which no form reads: ``step.bad_prior_output``). Also: the gate's blank source
ids, malformed carried forms (``proof.form``), citations out of order, positions. The
default run compares about 6 000 steps (under a minute); ``POR_FORMS_CHECK_FULL=1`` runs
the sweep of more than 10 000 (about 28 000, four minutes).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import every_market, generated_cases, generated_market, recomputed
from forms_check_support import COMPARED, KIND, Executor, call_data, python_answer
from forms_python import SEEN
from scratch_harness import SOLC
from test_onchain_check import GOOD_SPEC_FIELDS, _set, chunks_of, forge, many_items

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.schemas import EvidenceBundle, PromptSpec

pytestmark = SOLC
ROOT = Path(__file__).resolve().parents[2]

FULL = os.environ.get("POR_FORMS_CHECK_FULL") == "1"
FORGED = 400 if FULL else 100
VALUES = 200 if FULL else 50
COUNTS: Counter[str] = Counter()
_EXEC: list[Executor] = []

#: Numeric values: equal, signed, extreme scales (0..62) and lengths (64 digits).
DECIMALS = ["0", "1", "-1", "0.5", "-0.5", "100", "100.25", "99.75", "1" * 64, "-" + "9" * 63,
            "0." + "0" * 61 + "1", "-0." + "0" * 60 + "1", "9" * 32 + "." + "9" * 30,
            "12345678901234567890123456789012", "1234567890123456789012345678901.2",
            "0.000000000000000000000000000000001", "3", "3", "-3", "1e5", "01"]


def executor() -> Executor:
    if not _EXEC:
        _EXEC.append(Executor())
    return _EXEC[0]


def own_case(cause: str, why: str) -> bool:
    """A cited record's lie the forms do not hold: its own proof's case (a claim's
    ``path``; an extract step's own ``evidence_ids``)."""
    return (cause == "step.bad_prior_output" and "'path'" in why) or "is not about" in why


def compare(bundle: Bundle, index: int, label: str) -> tuple[str, int] | None:
    """Python's and the chain's answers on chunk ``index`` (and the unexecutable's cause):
    equal, or counted apart."""
    won, check_id, cause, why = python_answer(bundle, index)
    if check_id not in COMPARED:
        COUNTS[f"apart:{check_id}"] += 1
        return None
    case = call_data(bundle, index)
    if case.data is None:
        COUNTS["apart:form.none"] += 1
        return None
    got_won, got, got_cause, gas = executor().answer(case.data)
    if (got_won, got, got_cause) != (won, check_id, cause) and own_case(cause, why):
        COUNTS["apart:own_record"] += 1
        return None
    assert (got_won, got, got_cause) == (won, check_id, cause), (label, index, got_cause, why[:300])
    COUNTS[f"{label}"] += 1
    COUNTS[f"id:{check_id}"] += 1
    if cause:
        COUNTS[f"cause:{cause}"] += 1
    return got, gas


def _extract_of(bundle: Bundle, index: int, rng: random.Random) -> int | None:
    step = decode(bundle.steps[index])
    extracts = [p for p in step["prior_step_ids"]
                if decode(bundle.steps[int(p[5:]) - 1])["inputs"].get("kind") != KIND]
    return int(rng.choice(extracts)[5:]) - 1 if extracts else None


def edit_values(bundle: Bundle, index: int, rng: random.Random) -> Bundle:
    """A cited extract step's claim values or card time edited (numbers, booleans,
    timestamps at the window's ends with the slack); the chunk rewritten consistently
    with probability 0.6."""
    target = _extract_of(bundle, index, rng)
    if target is None:
        return bundle
    spec = decode(bundle.prompt_spec)
    window = spec["market"]["resolution_window"]
    if rng.random() < 0.4:  # a slack, up to past the window's start (max(0, ...))
        spec["timestamp_slack_seconds"] = rng.choice([1, 60, 86_400, window["start"] + 7])
        bundle = recommit(bundle, prompt_spec=encode(spec))
    slack = spec.get("timestamp_slack_seconds", 0)
    ends = [max(0, window["start"] - slack), window["end"] + slack]
    times = [t + d for t in ends for d in (-1, 0, 1) if t + d >= 0]
    steps = list(bundle.steps)
    extract = decode(steps[target])
    out = extract["output"]
    for claim in out.get("claims", []):
        if claim["kind"] == "numeric" and rng.random() < 0.7:
            claim["value"] = rng.choice(DECIMALS)
        elif claim["kind"] == "boolean" and rng.random() < 0.5:
            claim["value"] = not claim["value"]
        elif claim["kind"] == "timestamp" and rng.random() < 0.7:
            claim["value"] = rng.choice(times)
    if rng.random() < 0.5:
        out["card"]["retrieved_at"] = rng.choice(times)
        for claim in out.get("claims", []):
            if claim["kind"] == "timestamp" and rng.random() < 0.5:
                claim["kind"], claim["value"] = "text", str(claim["value"])
    if rng.random() < 0.2:
        out["claims"] = [*out.get("claims", []), {
            "claim_id": f"c-{rng.randrange(99)}", "kind": rng.choice(["numeric", "boolean"]),
            "key": rng.choice(["value", "price", "result", "close"]), "path": "$.x",
            "value": rng.choice([*DECIMALS[:12], True, False])}]
    steps[target] = encode(extract)
    if rng.random() < 0.6:
        steps[index] = recomputed(bundle, steps, index) or steps[index]
    return recommit(bundle, steps=steps)


def exercise(bundle: Bundle, rng: random.Random, forged: int) -> None:
    indices = chunks_of(bundle)
    for index in indices:
        compare(bundle, index, "check.honest")
    for _ in range(forged):
        index = rng.choice(indices)
        compare(forge(bundle, index, rng), index, "check.forged")
    for _ in range(forged * VALUES // FORGED):
        index = rng.choice(indices)
        compare(edit_values(bundle, index, rng), index, "check.values")


def test_every_fixture_market() -> None:
    every_market(exercise, 39, FORGED)


@generated_cases(max_examples=40 if FULL else 12)
def test_generated_markets(case: Any, seed: int) -> None:
    generated_market(exercise, case, seed, forged=FORGED // 4)


@pytest.mark.parametrize("name", ["67-two-of-three-below", "50-commodities-per-source-quorum",
                                  "60-http-500-primary", "62-field-comparison-home-win",
                                  "08-quorum-agree", "13-outside-window", "09-conflict-invalid",
                                  "01-boolean-observed", "02-boolean-not-observed"])
def test_multi_chunk_requirements(name: str) -> None:
    """23 items of one requirement: chunks of 10, 10, 3 (P, ``from_leaf``), honest and
    forged."""
    bundle = many_items(name, 23)
    assert len(chunks_of(bundle)) >= 3
    exercise(bundle, random.Random(len(name)), FORGED)  # noqa: S311


@pytest.mark.parametrize("name", ["08-quorum-agree", "60-http-500-primary", "66-deadline-launch",
                                  "01-boolean-observed"])
def test_prompt_spec_fields(name: str) -> None:
    """Valid edge values of the PromptSpec fields the chunk reads (the chunk recomputed
    under the edited PromptSpec or left as it was)."""
    bundle = honest(name)
    for path, value in GOOD_SPEC_FIELDS:
        spec = decode(bundle.prompt_spec)
        _set(spec, path, value)
        edited = recommit(bundle, prompt_spec=encode(spec))
        for index in chunks_of(edited):
            compare(edited, index, "check.spec")
            steps = list(edited.steps)
            steps[index] = recomputed(edited, steps, index) or steps[index]
            compare(recommit(edited, steps=steps), index, "check.spec")


#: Source ids made only of §12.4's white space (the gate refuses them) and two that are
#: not white space there (admitted).
BLANKS = [" \t\u00a0\u3000", "\u2028", "\u205f\u200a", "\ufeff", "\u001c"]


@pytest.mark.parametrize("blank", BLANKS)
def test_gate_blank_source(blank: str) -> None:
    """An allowed target source whose id is (or is not) blank: the gate's reason through
    EXTRACT's derived word (market 08, as ``edit-08-gate-agent-name``), honest and forged."""
    market = ROOT / "fixtures" / "markets" / "08-quorum-agree"
    spec = json.loads((market / "prompt_spec.json").read_text(encoding="utf-8"))
    evidence = json.loads((market / "evidence.json").read_text(encoding="utf-8"))
    spec["market"]["allowed_sources"] = sorted([*spec["market"]["allowed_sources"], blank])
    spec["data_requirements"][0]["source_targets"][2]["source_id"] = blank
    evidence["items"][2]["source"]["source_id"] = blank
    bundle = bundle_from_bytes(build(PromptSpec.from_json_obj(spec),
                                     EvidenceBundle.from_json_obj(evidence)).data)
    exercise(bundle, random.Random(len(blank)), FORGED // 4)  # noqa: S311


def test_largest_shapes() -> None:
    """``bench/largest_shapes.py``'s markets at the caps (4-byte filler; every width in the
    full sweep): each chunk, honest and with one forged lie."""
    from largest_shapes import CAPS, SHAPES, market

    rng = random.Random(5)  # noqa: S311
    fill = CAPS["fill"]
    try:
        for width in ("x", "\u00e9", "\u4e2d", "\U0001f600") if FULL else ("\U0001f600",):
            CAPS["fill"] = width
            for shape in SHAPES.values():
                bundle = market(shape)
                for index in chunks_of(bundle):
                    compare(bundle, index, "check.caps")
                    compare(forge(bundle, index, rng), index, "check.caps")
    finally:
        CAPS["fill"] = fill


def _word(n: int) -> bytes:
    return n.to_bytes(32, "big")


#: Malformed forms (draft §4 ``proof.form``), as edits of a carried form's bytes: the
#: EXTRACT's blank word 2, a word appended, the last word cut, COMMON's tolerance
#: decimal with a digit byte that is not a digit, P's ``covered`` word 2, P's
#: ``item_count`` word 2^64 (``W`` is below 2^64), a padding byte of the EXTRACT's
#: ``T(evidence_id)``, COMMON's tolerance word with scale 63 (at most 62).
MALFORMED = {
    "extract blank 2": ("extract", lambda f: f[:-32] + _word(2)),
    "extract extra word": ("extract", lambda f: f + bytes(32)),
    "extract cut": ("extract", lambda f: f[:-32]),
    "common digit": ("common", lambda f: f[:4 * 32] + b"x" + f[4 * 32 + 1:]),
    "requirement cut": ("requirement", lambda f: f[:-32]),
    "prior covered 2": ("prior", lambda f: f[:3 * 32] + _word(2) + f[4 * 32:]),
    "prior item_count 2^64": ("prior", lambda f: f[:5 * 32] + _word(2**64) + f[6 * 32:]),
    "extract T padding": ("extract", lambda f: f[:7 * 32 - 1] + b"x" + f[7 * 32:]),
    "common scale 63": ("common", lambda f: f[:3 * 32] + _word(63 << 232 | 1) + f[4 * 32:]),
}


@pytest.mark.parametrize("name", ["08-quorum-agree", "60-http-500-primary"])
def test_invalid_proofs_and_positions(name: str) -> None:
    """Malformed carried forms revert ``ProofForm()`` (``proof.form``); carried forms in
    another order revert ``Citations``; a step id not its position and a cited later step
    are Python's ``one_step.id_position`` and ``one_step.prior_order``."""
    bundle = many_items(name, 13)
    first, second = chunks_of(bundle)[:2]
    for what, edit in MALFORMED.values():
        index = second if what == "prior" else first
        case = call_data(bundle, index)
        assert case.carried is not None and case.forms is not None
        at = {"common": 1, "requirement": 2, "extract": 3, "prior": len(case.carried) - 1}[what]
        j = case.carried[at]
        edited = call_data(bundle, index, replace={j: edit(case.forms[j])})
        assert edited.data is not None
        assert executor().answer(edited.data)[:2] == (False, "proof.form"), what
        COUNTS["invalid.proof_form"] += 1
    swapped = call_data(bundle, first, order=[0, 1, 2, 4, 3])
    assert swapped.data is not None
    assert executor().answer(swapped.data)[1].startswith("revert:"), "citations"
    steps = list(bundle.steps)
    step = decode(steps[first])
    step["step_id"] = "step_0999"
    moved = recommit(bundle, steps=[*steps[:first], encode(step), *steps[first + 1:]])
    assert compare(moved, first, "check.position") is not None
    step = decode(bundle.steps[first])
    step["prior_step_ids"] = [*step["prior_step_ids"], decode(bundle.steps[first + 1])["step_id"]]
    later = recommit(bundle, steps=[*steps[:first], encode(step), *steps[first + 1:]])
    assert compare(later, first, "check.position") is not None
    assert COUNTS["id:one_step.id_position"] and COUNTS["id:one_step.prior_order"]


def test_wrong_kind_cited() -> None:
    """A well-formed form of another kind where the chunk cites P (requirement 0's
    aggregate) is not ``proof.form``: Python's ``step.citation_mismatch`` on both sides
    (draft §4); so is requirement 0's chunk cited as P (another requirement's)."""
    from largest_shapes import SHAPES, market

    bundle = market(SHAPES["many"])
    kinds = [decode(s)["inputs"]["kind"] for s in bundle.steps]
    aggregate = kinds.index("aggregate")
    chunk = kinds.index(KIND, aggregate)
    steps = list(bundle.steps)
    for cited in ([aggregate], [aggregate - 1]):
        step = decode(steps[chunk])
        step["prior_step_ids"] = sorted([*step["prior_step_ids"],
                                         *(decode(steps[i])["step_id"] for i in cited)])
        lie = recommit(bundle, steps=[*steps[:chunk], encode(step), *steps[chunk + 1:]])
        assert compare(lie, chunk, "check.kind") is not None, cited
        assert python_answer(lie, chunk)[1:3] == ("one_step.unexecutable",
                                                  "step.citation_mismatch"), cited


def test_case_count() -> None:
    """Enough steps compared, every answer among them; the counts apart are reported."""
    compared = sum(v for k, v in COUNTS.items() if k.startswith("check."))
    if compared == 0:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())), compared)
    assert compared >= (10_000 if FULL else 4_000), COUNTS
    python = {k: v for k, v in SEEN.items() if k.startswith("check:")}
    print("python on forms:", python)  # every chain call, Python's executor on its data
    assert sum(python.values()) >= compared + COUNTS["invalid.proof_form"], python
    for answer in ("one_step.match", "one_step.mismatch", "one_step.unexecutable"):
        assert f"id:{answer}" in COUNTS, answer


def test_code_size() -> None:
    """EIP-170 and EIP-3860 with at least 600 bytes free (the executor deploys no core)."""
    from forms_harness import compiled

    assert executor().size <= 24_576 - 600
    assert len(compiled("PorCheckForm", part="bytecode")) // 2 <= 49_152 - 600
