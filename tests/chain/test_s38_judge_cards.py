"""An extract output's card read once (ADR 0013 "Addendum (s38, judge8)", cut 3) against
``por check-proof``.

``PorJudgeCheck.output`` reads the card where the output's first key is ``card`` and
the card has exactly its five keys (``PorCborKeys.exact``), keeps its value offsets and
walks the rest of the output (``PorKeyIndex.three``) from the card's end; otherwise it
walks the whole output as before and ``card`` reads the card itself. The edges: a key
before ``card`` (shorter, or as long and lower), the card with a key more, less, renamed
or out of order, not a map, absent; each card field at and past its bounds;
evidence_id and requirement_id absent, of another type, or with a near twin key; keys
after the card imitating the ones read. Each edit is made to each extract step leaf the
JudgeProof carries, recommitted, and the chain's (won, check id) must be Python's.

The final map step's ``source_summary`` items are checked as texts by one assembly loop
(``PorJudgeCheck.summary``, cut 4): lists with an item of another type at the start, in
the middle, at the end, ids with one- and two-byte length heads, not a list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import judge_proof, judge_proof_carrying, rejudged
from proof_check_support import ProofChecker

from por.bundle.layout import Bundle
from por.encoding import decode, encode
from por.errors import PorError
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()
Step = dict[str, Any]
MARKETS = (0, 7)
DROP = object()
CARD_KEYS = ("source_id", "status_code", "retrieved_at", "confidence_bps", "provenance_tier")


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    return ProofChecker()


def _out(key: str, value: Any) -> Callable[[Step], None]:
    def edit(step: Step) -> None:
        if value is DROP:
            step["output"].pop(key, None)
        else:
            step["output"][key] = value
    return edit


def _card(key: str, value: Any) -> Callable[[Step], None]:
    def edit(step: Step) -> None:
        card = step["output"].get("card")
        if not isinstance(card, dict):
            return
        if value is DROP:
            card.pop(key, None)
        else:
            card[key] = value
    return edit


def _card_renamed(old: str, new: str) -> Callable[[Step], None]:
    def edit(step: Step) -> None:
        card = step["output"].get("card")
        if isinstance(card, dict) and old in card:
            card[new] = card.pop(old)
    return edit


def _edits() -> dict[str, Callable[[Step], None]]:
    out: dict[str, Callable[[Step], None]] = {"none": lambda step: None}
    for key in ("a", "abc", "card"[:3] + "a", "cara", "\x00car"):
        out[f"before.{key!r}"] = _out(key, 1)
    for key in ("carda", "card\x00", "cardx", "caz", "claim", "evidence_ie",
                "requirement_ic", "\x00evidence_id"):
        out[f"after.{key!r}"] = _out(key, "ev-000000")
    for value in (DROP, 5, "card", [], {}, b""):
        out[f"card.as={value!r}"] = _out("card", value)
    for key in ("evidence_id", "requirement_id"):
        for value in (DROP, 5, "", "ev-000001", "req_close", b"x"):
            out[f"{key}={value!r}"] = _out(key, value)
    for key in CARD_KEYS:
        out[f"card.{key}.drop"] = _card(key, DROP)
        out[f"card.{key}.renamed"] = _card_renamed(key, key[:-1] + "z")
    out["card.extra.a"] = _card("a", 1)
    out["card.extra.z"] = _card("zzzzzzzzzzzzzzzzzzzzzzzzz", 1)
    for key, values in (("source_id", ["", "s", 5]), ("status_code", [99, 100, 599, 600]),
                        ("retrieved_at", [0, 2**63 - 1, 2**63, -1]),
                        ("confidence_bps", [0, 10_000, 10_001, "1"]),
                        ("provenance_tier", [0, 3, 4, -1])):
        for value in values:
            out[f"card.{key}={value!r}"] = _card(key, value)
    return out


def _edited(bundle: Bundle, index: int, edit: Callable[[Step], None]) -> Bundle:
    step = decode(bundle.steps[index])
    edit(step)
    steps = list(bundle.steps)
    steps[index] = encode(step)
    out: Bundle = recommit(bundle, steps=steps)
    return out


@pytest.mark.parametrize("market", MARKETS)
def test_output_shapes(router: ProofChecker, market: int) -> None:
    """Each output edit on each carried extract leaf, as committed and rejudged."""
    bundle = honest(list_scenarios()[market])
    extracts = [i for i, leaf in enumerate(bundle.steps)
                if decode(leaf).get("step_type") == "extract"]
    for name, edit in _edits().items():
        for index in extracts[:3]:
            edited = _edited(bundle, index, edit)
            router.same_as_python(judge_proof_carrying(edited, extracts[:3]),
                                  f"{market} {index} {name} carried", COUNTS)
            with suppress(PorError):  # por builds none when the edit breaks the citations
                router.same_as_python(judge_proof(edited), f"{market} {index} {name}", COUNTS)
                again = rejudged(edited)
                if again is not None:
                    router.same_as_python(judge_proof(again), f"{market} {index} {name} rejudged",
                                          COUNTS)


def _summary(value: Callable[[list[Any]], Any]) -> Callable[[Step], None]:
    def edit(step: Step) -> None:
        variables = step["output"]["evaluation_variables"]
        variables["source_summary"] = value(list(variables["source_summary"]))
    return edit


SUMMARIES: dict[str, Callable[[list[Any]], Any]] = {
    "int.end": lambda ids: [*ids, 5], "int.start": lambda ids: [5, *ids],
    "bytes.middle": lambda ids: [*ids[:1], b"x", *ids[1:]], "array.end": lambda ids: [*ids, []],
    "map.end": lambda ids: [*ids, {}], "bool.start": lambda ids: [True, *ids],
    "id24.end": lambda ids: [*ids, "x" * 24], "id300.end": lambda ids: [*ids, "x" * 300],
    "id24.start": lambda ids: ["x" * 24, *ids], "empty": lambda ids: [],
    "int": lambda ids: 5, "text": lambda ids: ids[0],
}


@pytest.mark.parametrize("market", MARKETS)
def test_summary_items(router: ProofChecker, market: int) -> None:
    """Each source_summary edit, with the parts por's builder would carry and with the
    first three extract leaves."""
    bundle = honest(list_scenarios()[market])
    extracts = [i for i, leaf in enumerate(bundle.steps)
                if decode(leaf).get("step_type") == "extract"]
    last = len(bundle.steps) - 1
    for name, value in SUMMARIES.items():
        edited = _edited(bundle, last, _summary(value))
        for k in (1, 3):
            proof = judge_proof_carrying(edited, extracts[:k])
            router.same_as_python(proof, f"{market} summary {name} {k}", COUNTS)
        with suppress(PorError):
            router.same_as_python(judge_proof(edited), f"{market} summary {name}", COUNTS)


def test_cards_outcomes_seen() -> None:
    """Runs last: the edits reached refusals, matches and mismatches."""
    if not COUNTS:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())))
    for wanted in ("won:one_step.invalid_record", "lost:judge.match", "lost:proof.citations"):
        assert COUNTS[wanted] > 0, COUNTS
