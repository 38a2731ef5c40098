"""The JudgeProof's text comparisons past one word agree with Python (ADR 0013 s35,
judgeded addendum).

``PorText.sameText`` (s38; ``PorCborKeys.sameText`` before) compares two texts of the
proof in calldata (the judge's market id against the PromptSpec's, the extract steps' evidence ids
against the source summary, the cards' requirement ids against the PromptSpec's); it
replaced two keccak256 of copied slices. The fixture markets' texts are short: here the
PromptSpec's ``market_id`` is 40 bytes and the committed verdict's either the same text
(the judge's verdict: lost ``judge.match``) or a text of the same length differing only
in its last byte, past the first word (won ``judge.mismatch``), or only in its first
byte. A comparison that stopped after one word, or compared lengths only, would answer
``judge.match`` for the second.
"""

from __future__ import annotations

import pytest
from bundle_edits import honest, recommit
from exec_support import ExecChecker, judge_proof, rejudged
from proof_check_support import python_answer
from test_onchain_judge import _set, _with_spec

from por.bundle.layout import Bundle
from por.schemas import DeterministicVerdict

MARKETS = ("01-boolean-observed", "08-quorum-agree", "61-range-settle")
#: The PromptSpec's market id: 40 bytes (a two-byte text head, two words of text).
LONG = "market_long_id_" + "x" * 24


def _verdict_market(bundle: Bundle, market_id: str) -> Bundle:
    """``bundle`` with its committed verdict's market_id replaced (recommitted)."""
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    edited: Bundle = recommit(
        bundle, verdict=verdict.model_copy(update={"market_id": market_id}).to_cbor())
    return edited


@pytest.mark.parametrize("market", MARKETS)
def test_long_market_id(judge: ExecChecker, market: str) -> None:
    """The same 40-byte id on both sides matches; one differing in its last (or first)
    byte only is a mismatch, on chain as in Python."""
    edited = _with_spec(_set(("market", "market_id"), LONG), valid=True)(honest(market))
    assert edited is not None
    judged = rejudged(edited)
    assert judged is not None
    assert DeterministicVerdict.from_cbor(judged.verdict).market_id == LONG
    cases = {
        "same": (judged, (False, "judge.match")),
        "last byte": (_verdict_market(judged, LONG[:-1] + "y"), (True, "judge.mismatch")),
        "first byte": (_verdict_market(judged, "n" + LONG[1:]), (True, "judge.mismatch")),
    }
    for name, (bundle, want) in cases.items():
        proof = judge_proof(bundle)
        assert python_answer(proof) == want, f"{market} {name}"
        won, check_id, _gas = judge.execute(proof)
        assert (won, check_id) == want, f"{market} {name}"
