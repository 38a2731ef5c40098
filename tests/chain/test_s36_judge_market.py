"""The JudgeProof's market read in one walk (ADR 0013 "Addendum (s36, judge4)", cut 3)
against ``por check-proof``.

``PorJudgeRules.market`` finds market_id, then resolution_rules in §2 key order, walks
the rules list once and, when ``rules`` is resolution_rules' only entry, resumes there
for resolution_window; otherwise it skips resolution_rules. The argument's edges: the
market's keys and resolution_rules' entries in other shapes than the schema's (a key
before, between or after the ones read, of the same length and near in sort order, a
text whose bytes imitate the ``resolution_window`` key, resolution_rules with a second
entry before or after ``rules`` or without it, or not a map, resolution_window or
market_id absent). Each PromptSpec edit is recommitted, and judged as it stands and
rejudged (the verdict Python's judge gives, when it gives one); the chain's
(won, check id) must be Python's every time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import judge_proof, rejudged
from proof_check_support import ProofChecker, python_answer

from por.bundle.layout import Bundle
from por.encoding import decode, encode
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()
Spec = dict[str, Any]
MARKETS = (0, 7, 21)


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    return ProofChecker()


def _market(**extra: Any) -> Callable[[Spec], None]:
    def edit(spec: Spec) -> None:
        for key, value in extra.items():
            if value is None:
                spec["market"].pop(key, None)
            else:
                spec["market"][key] = value
    return edit


def _rules(**extra: Any) -> Callable[[Spec], None]:
    def edit(spec: Spec) -> None:
        rr = spec["market"].get("resolution_rules")
        if not isinstance(rr, dict):
            return
        for key, value in extra.items():
            if value is None:
                rr.pop(key, None)
            else:
                rr[key] = value
    return edit


def _rules_as(value: Any) -> Callable[[Spec], None]:
    return lambda spec: spec["market"].__setitem__("resolution_rules", value)


def _window_shift(spec: Spec) -> None:
    window = spec["market"]["resolution_window"]
    window["start"] = window["end"]


def _both(*edits: Callable[[Spec], None]) -> Callable[[Spec], None]:
    def edit(spec: Spec) -> None:
        for e in edits:
            e(spec)
    return edit


#: Shapes the schema refuses but the chain reads "as they are" (SPEC §14.8 JudgeProof,
#: **Limit**): each is added to a PromptSpec and must give the chain the answer Python
#: gives without it.
EXTRA: dict[str, Callable[[Spec], None]] = {
    "rr.a.first": _rules(a=1),
    "rr.rule.first": _rules(rule=[]),
    "rr.rulez.after": _rules(rulez=[]),
    "rr.rules2.after": _rules(rules2=0),
    "rr.long.after": _rules(**{"z" * 40: {"rules": []}}),
    "m.first": _market(a=1),
    "m.market_ic": _market(market_ic="x"),
    "m.market_ie": _market(market_ie="x"),
    "m.16.before.rr": _market(**{"a" * 16: 1}),
    "m.resolution_rulez": _market(resolution_rulez={"rules": []}),
    "m.17.before.window": _market(**{"a" * 17: {"start": 0, "end": 1}}),
    "m.resolution_windox": _market(resolution_windox={"start": 0, "end": 1}),
    "m.18.after": _market(**{"z" * 18: 1}),
    "m.imitating.bytes": _market(resolution_rulez=b"\x71resolution_window\xa0"),
}
#: Edits of read fields (compared with Python as they stand).
READ: dict[str, Callable[[Spec], None]] = {
    "none": lambda spec: None,
    "window": _window_shift,
    "window.none": _market(resolution_window=None),
    "window.int": _market(resolution_window=5),
    "id.none": _market(market_id=None),
    "rr.none": _market(resolution_rules=None),
    "rr.no.rules": _rules(rules=None),
    "rr.empty": _rules_as({}),
    "rr.array": _rules_as([]),
    "rr.text": _rules_as("x"),
    "imitating.text": _market(question="qresolution_window\xa2estart\x00cend\x01"),
}


def _answer(router: ProofChecker, proof: bytes) -> tuple[bool, str]:
    won, check_id, _gas = router.any_proof(proof)
    COUNTS[f"{'won' if won else 'lost'}:{check_id}"] += 1
    return won, check_id


def _with(bundle: Bundle, *edits: Callable[[Spec], None]) -> Bundle:
    spec = decode(bundle.prompt_spec)
    for edit in edits:
        edit(spec)
    return recommit(bundle, prompt_spec=encode(spec))


@pytest.mark.parametrize("market", MARKETS)
def test_market_shapes(router: ProofChecker, market: int) -> None:
    """Each read-field edit (as committed and rejudged) alone and with each extra shape:
    the chain's answer is Python's on the PromptSpec without the extra shape."""
    bundle = honest(list_scenarios()[market])
    for name, read in READ.items():
        plain = _with(bundle, read)
        variants = [(name, plain)]
        again = rejudged(plain)
        if again is not None:
            variants.append((name + ".rejudged", again))
        for case, b in variants:
            want = python_answer(judge_proof(b))
            assert _answer(router, judge_proof(b)) == want, case
            COUNTS["read"] += 1
            for extra, edit in EXTRA.items():
                shaped = _with(b, edit)
                if shaped.prompt_spec == b.prompt_spec:
                    continue
                assert python_answer(judge_proof(shaped)) == (True, "one_step.invalid_record")
                assert _answer(router, judge_proof(shaped)) == want, (case, extra)
                COUNTS["extra"] += 1


def test_outcomes_seen() -> None:
    if not COUNTS:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())))
    assert COUNTS["extra"] >= len(MARKETS) * len(READ) * len(EXTRA), COUNTS
    assert COUNTS["lost:judge.match"] > len(MARKETS), COUNTS
    assert COUNTS["won:judge.mismatch"] > 0, COUNTS
