"""The JudgeProof on chain forms (``contracts/src/forms/PorJudgeForm.sol``, ADR 0017 stage
4) answers as Python's ``verify_judge_proof`` on the CBOR records, on at least 10 000
generated bundles (the sweep; the default run is a sample of it).

Cases (``forms_judge_cases``; forms by ``por.forms.forms_of``): every valid fixture
bundle honest and under ``test_onchain_judge.edits`` (forged verdicts: outcome x rule,
confidence, market, resolution time; the map step's variables: flags, event, numeric
values at and around the bounds, timestamps at and beyond the slack-widened window,
the summary reordered or cut; the PromptSpec where the judge reads it: on_conflict,
every confidence factor, comparison, threshold, range ends and inclusivity, tiers,
slack, window, rules, strict mode, schema ref; malformed specs and cards; a last leaf
that is not a map step), each map or spec edit also rejudged (a consistent verdict:
lost); two edits at once; generated markets; ``bench/largest_shapes.py``'s markets at
the caps; the judge lock's cases (``LOCK``: which stay the JudgeProof's and which have no
form under forms); a last step that is a deduce step (``judge.final_step``); malformed
forms (``proof.form``) and carried extract forms that are not the summary's
(``Citations``). Python's answer and the chain's must be equal wherever the records
have forms; the other classes are counted (``test_case_count`` prints them).
``POR_FORMS_SWEEP=1`` runs the full sweep (every edit of every market).
"""

from __future__ import annotations

import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import honest, recommit
from eth_abi.abi import encode as abi_encode
from exec_support import generated_cases
from forms_harness import compiled, forms_root_of, replaced, selector, sizes
from forms_judge_cases import NAME, call_data, chain_answer, compare
from forms_python import INCLUSION, chain_revert, forms_args, python_answer, reverts_agree
from scratch_harness import SOLC

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.scenarios import list_scenarios

pytestmark = SOLC
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

SWEEP = bool(os.environ.get("POR_FORMS_SWEEP"))
PER_MARKET = 10_000 if SWEEP else 25
DOUBLE = 30 if SWEEP else 4
COUNTS: Counter[str] = Counter()
CODE_LIMIT, INIT_LIMIT, ROOM = 24_576, 49_152, 600


def check(cases: Iterable[tuple[str, Bundle]], code: str | None = None) -> Counter[str]:
    """Compare every case; count its class and Python's answer; fail on a difference
    (Python's records check, the chain, Python's executor on the same call data's
    forms)."""
    seen: Counter[str] = Counter()
    failures = []
    for name, bundle in cases:
        sent: list[bytes] = []
        kind, python, chain, _gas = compare(bundle, code, sent)
        seen[kind if python is None else f"{kind}:{python[1]}"] += 1
        if kind == "compared" and chain != python:
            failures.append(f"{name}: python {python}, chain {chain}")
        # the third side: Python's executor on the same call data's forms (s40 pyexecb)
        if kind == "compared" and code is None and python_answer("judge", sent[0]) != chain:
            failures.append(f"{name}: python on forms {python_answer('judge', sent[0])}, "
                            f"chain {chain}")
    COUNTS.update(seen)
    assert not failures, failures[:10]
    return seen


def edited_cases(bundle: Bundle, label: str, rng: random.Random, per: int, double: int
                 ) -> Iterator[tuple[str, Bundle]]:
    """``bundle`` honest, a sample of its edits (map and spec edits also rejudged), and
    ``double`` pairs of edits."""
    from test_onchain_judge import CONSISTENT, edits, rejudged

    yield f"{label} honest", bundle
    table = edits(bundle)
    names = sorted(table)
    picked: list[tuple[str, Callable[[Bundle], Bundle | None]]] = [
        (n, table[n]) for n in rng.sample(names, min(per, len(names)))]
    for _ in range(double):
        a, b = rng.sample(names, 2)
        picked.append((f"{a}+{b}", lambda x, a=a, b=b: _both(table[a], table[b], x)))
    for name, edit in picked:
        edited = edit(bundle)
        if edited is None:
            continue
        yield f"{label} {name}", edited
        if name.startswith(CONSISTENT):
            again = rejudged(edited)
            if again is not None:
                yield f"{label} {name}.rejudged", again


def _both(first: Callable[[Bundle], Bundle | None], second: Callable[[Bundle], Bundle | None],
          bundle: Bundle) -> Bundle | None:
    once = first(bundle)
    return None if once is None else second(once)


def _markets() -> list[Path]:
    from test_onchain_judge import MARKETS

    return list(MARKETS)


@pytest.mark.parametrize("path", _markets(), ids=[p.stem for p in _markets()])
def test_fixture_bundles_and_edits(path: Path) -> None:
    bundle = bundle_from_bytes(path.read_bytes())
    rng = random.Random(path.name)  # noqa: S311 - seeded cases, not secrets
    seen = check(edited_cases(bundle, path.stem, rng, PER_MARKET, DOUBLE))
    assert seen["compared:judge.match"] >= 1


def test_every_scenario_matches() -> None:
    seen = check((name, honest(name)) for name in list_scenarios())
    assert seen == Counter({"compared:judge.match": len(list_scenarios())})


@generated_cases(max_examples=40 if SWEEP else 10)
def test_generated_markets(case: tuple[object, object], seed: int) -> None:
    spec, evidence = case
    bundle = bundle_from_bytes(build(spec, evidence).data)  # type: ignore[arg-type]
    check(edited_cases(bundle, "generated", random.Random(seed), 15, 2))  # noqa: S311


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
    seen = check(case for name, b in bundles
                 for case in edited_cases(b, name, rng, 30 if SWEEP else 6, 1))
    assert seen["compared:judge.match"] >= len(bundles)


def _variables(bundle: Bundle, edit: Callable[[dict[str, Any]], None]) -> Bundle:
    step = decode(bundle.steps[-1])
    edit(step["output"]["evaluation_variables"])
    return recommit(bundle, steps=[*bundle.steps[:-1], encode(step)])


def _put(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    return lambda v: v.__setitem__(key, value)


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda v: v.pop(key, None)


#: The judge lock's variables cases (``schema_lock.read_variables``/``variables_from``)
#: and where each lands under forms: ``stays`` (the MAP form exists; the JudgeProof
#: answers INVALID by R_VALIDITY), ``moves`` (the MAP step has no form: ``form.none``) or
#: ``builder`` (an id no evidence leaf carries: ``build_judge_proof`` refuses,
#: ``proof.citation_missing``; a hand-made proof whose extract step carries it fails the
#: lock on both sides).
LOCK: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "extra key": ("stays", _put("note", "x")),
    "repeated summary id": ("stays", lambda v: v["source_summary"].append(v["source_summary"][0])),
    "summary id of 129 code points": ("builder", _put("source_summary", ["e" * 129])),
    "empty summary id": ("builder", _put("source_summary", [""])),
    "timestamp 2^63": ("stays", _put("timestamp", 2**63)),
    "timestamp 2^64 - 1": ("stays", _put("timestamp", 2**64 - 1)),
    "flag absent": ("moves", _drop("provenance_ok")),
    "flag not a boolean": ("moves", _put("conflict_detected", 1)),
    "event not a boolean": ("moves", _put("event_observed", "true")),
    "numeric not canonical": ("moves", _put("numeric_value", "1.50")),
    "numeric not a text": ("moves", _put("numeric_value", 5)),
    "timestamp negative": ("moves", _put("timestamp", -1)),
    "summary not a list": ("moves", _put("source_summary", "e1")),
    "summary id not a text": ("moves", _put("source_summary", [7])),
}


@pytest.mark.parametrize("case", sorted(LOCK))
def test_lock_cases(case: str) -> None:
    """Each lock case of the variables on a YES market: the class the table names."""
    where, edit = LOCK[case]
    bundle = _variables(honest("01-boolean-observed"), edit)
    seen = check([(case, bundle)])
    want = {"stays": "compared:judge.mismatch", "moves": "form.none:judge.mismatch",
            "builder": "proof"}[where]
    assert seen == Counter({want: 1}), seen


def test_variables_missing_or_not_a_map() -> None:
    """``evaluation_variables`` absent or not a map: the MAP step has no form (moves)."""
    bundle = honest("01-boolean-observed")
    for value in (None, [1], "x"):
        step = decode(bundle.steps[-1])
        if value is None:
            del step["output"]["evaluation_variables"]
        else:
            step["output"]["evaluation_variables"] = value
        seen = check([(f"variables {value}", recommit(bundle, steps=[*bundle.steps[:-1],
                                                                     encode(step)]))])
        assert seen == Counter({"form.none:judge.mismatch": 1}), seen


def test_last_step_not_a_map() -> None:
    """The map step dropped: the last leaf is the deduce step (``judge.final_step``)."""
    bundle = honest("63-arithmetic-total-over")
    seen = check([("no map", recommit(bundle, steps=list(bundle.steps[:-1])))])
    assert seen == Counter({"compared:judge.final_step": 1}), seen


def test_confidence_rounds_half_up() -> None:
    """§7.4's ``scale_bps`` at exact halves: a conflict (policy ``continue``) and a
    fallback with factors whose products end in 5 000, the verdict rejudged (lost)."""
    from test_onchain_judge import _with_map, _with_spec, rejudged

    cases = []
    for default, conflict, fallback in ((1000, 5, 5000), (1000, 15, 5000), (3, 5000, 5000),
                                        (7000, 5, 10_000), (9999, 5000, 9999)):
        def spec(s: dict[str, Any], d: int = default, c: int = conflict, f: int = fallback
                 ) -> None:
            s["conflict_policy"]["on_conflict"] = "continue"
            s["confidence_policy"] = {"default_confidence_bps": d,
                                      "min_confidence_for_yesno_bps": 0,
                                      "conflict_factor_bps": c, "fallback_factor_bps": f,
                                      "invalid_confidence_bps": 0}
        for name in ("01-boolean-observed", "63-arithmetic-total-over"):
            edited = _with_spec(spec)(honest(name))
            assert edited is not None
            flagged = _with_map(lambda v: v.update(conflict_detected=True, fallback_used=True))(
                edited)
            assert flagged is not None
            again = rejudged(flagged)
            assert again is not None
            cases += [(f"{name} {default} {conflict} {fallback}", again),
                      (f"{name} {default} {conflict} {fallback} old", flagged)]
    seen = check(cases)
    assert seen["compared:judge.match"] == len(cases) // 2, seen


def _set(form: bytes, i: int, value: int) -> bytes:
    return form[:32 * i] + value.to_bytes(32, "big") + form[32 * i + 32:]


def test_malformed_forms_and_citations() -> None:
    """A VERDICT, COMMON, MAP or EXTRACT that does not parse: ``proof.form``; extract forms
    that are not the summary's: a ``Citations`` revert."""
    bundle = honest("67-two-of-three-below")
    c = forms_root_of(bundle)
    assert chain_answer(call_data(bundle, c))[0] == (False, "judge.match")
    size = c.forms.size
    first_extract = c.index_of_step(0)
    bad = {
        size - 1: [_set(c.forms.forms[-1].form, 4, 0), c.forms.forms[-1].form + bytes(32),
                   _set(c.forms.forms[-1].form, 2, 3)],
        0: [c.forms.forms[0].form[:-32], _set(c.forms.forms[0].form, 2, 1 << 65)],
        size - 2: [c.forms.forms[size - 2].form + bytes(32)],
        first_extract: [_set(c.forms.forms[first_extract].form, 3, 4),
                        c.forms.forms[first_extract].form[:-32]],
    }
    for index, forms in bad.items():
        for k, form in enumerate(forms):
            data = call_data(bundle, replaced(bundle, c, index, form))
            assert chain_answer(data) == ("proof.form", 0), (index, k)
            assert python_answer("judge", data) == "proof.form", (index, k)
    wanted = len(decode(bundle.steps[-1])["output"]["evaluation_variables"]["source_summary"])
    assert wanted > 1
    for carried in ([], [1, 0, *range(2, wanted)], [0] * wanted, list(range(wanted + 1))):
        data = call_data(bundle, c, carried=carried)
        answer = chain_answer(data)[0]
        assert isinstance(answer, str) and answer.startswith("revert:"), carried
        assert reverts_agree("judge", NAME, data), carried  # Citations(i), the same i
    # form 2 is not the last reasoning leaf's (its own path: inclusion holds): FinalStep()
    data = call_data(bundle, c)
    forms, index, _size = forms_args(data)
    index[2] = size - 3
    forms[2] = c.forms.forms[size - 3].form
    inc = (c.por_root, size, index, [c.path(i) for i in index], c.component_path)
    moved = data[:4] + abi_encode(["bytes[]", INCLUSION], [forms, inc])
    assert chain_revert(NAME, moved) == selector("FinalStep()")
    assert reverts_agree("judge", NAME, moved)


def test_deployed_size() -> None:
    assert sizes(NAME) <= CODE_LIMIT - ROOM
    assert len(compiled(NAME, part="bytecode")) // 2 <= INIT_LIMIT - ROOM


def test_case_count() -> None:
    """At least 1 500 JudgeProof cases by default, 10 000 in the sweep; every answer."""
    total = sum(COUNTS.values())
    if total == 0:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())), total)
    assert total >= (10_000 if SWEEP else 1_500), total
    for answer in ("judge.match", "judge.mismatch", "judge.final_step"):
        assert f"compared:{answer}" in COUNTS, answer
