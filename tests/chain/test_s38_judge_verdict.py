"""The JudgeProof's committed verdict record read in ``PorJudgeExec`` (ADR 0013 "Addendum
(s38, judge8)", cut 1) against ``por check-proof``.

``PorJudgeVerdict.words`` checks the verdict leaf (§2, its keys, each value's type) in
the executor and hands the core six words (evidence_count, confidence_bps,
resolution_time or a value no window end has, the outcome's and the rule's codes, the
market_id's offset); an invalid verdict is answered ``one_step.invalid_record`` (won)
without the core. The edges: each verdict field at and past its bounds, of another
type, absent, and keys added; each edit recommitted and carried by por's JudgeProof
(when por builds one) and by one carrying the first three step leaves; the chain's
(won, check id) must be Python's every time.
"""

from __future__ import annotations

from collections import Counter
from contextlib import suppress
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import judge_proof, judge_proof_carrying
from proof_check_support import ProofChecker

from por.bundle.layout import Bundle
from por.encoding import decode, encode
from por.errors import PorError
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()
MARKETS = (0, 7)
DROP = object()

#: Verdict fields and the values each is given (DROP: the key removed).
FIELDS: dict[str, list[Any]] = {
    "outcome": ["YES", "NO", "INVALID", "MAYBE", "yes", "", 1, DROP],
    "resolution_rule_id": ["R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE",
                           "R_INVALID_FALLBACK", "R_OTHER", "R_VALIDITYX", "R_VALIDIT", 3, DROP],
    "confidence_bps": [0, 1, 9999, 10_000, 10_001, -1, "1", DROP],
    "evidence_count": [0, 1, 2, 3, 2**32, -1, "3", DROP],
    "reasoning_count": [0, 2**40, -1, "x", DROP],
    "resolution_time": [0, 2**63 - 1, 2**63, -1, "1", False, DROP],
    "market_id": ["", "x", "m" * 128, "m" * 129, 5, DROP],
    "schema": ["por.DeterministicVerdict/2", "por.DeterministicVerdict/1 ", DROP],
    "evidence_root": [b"\x00" * 31, b"\x00" * 33, "t", DROP],
    "reasoning_root": [b"\x00" * 32, 0],
    "prompt_spec_hash": [b"", b"\x11" * 32],
}
#: Keys added to a valid verdict (a byte string among them, before and after its own).
EXTRA: list[tuple[str, Any]] = [("a", 0), ("outcomf", "YES"), ("zzzzzzzzzzzzzzzzzzzz", b"")]


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    return ProofChecker()


def _edited(bundle: Bundle, key: str, value: Any) -> Bundle:
    verdict = decode(bundle.verdict)
    if value is DROP:
        verdict.pop(key, None)
    else:
        verdict[key] = value
    out: Bundle = recommit(bundle, verdict=encode(verdict))
    return out


def _proofs(bundle: Bundle) -> list[bytes]:
    proofs = [judge_proof_carrying(bundle, [0, 1, 2])]
    with suppress(PorError):  # por may refuse to build one over an invalid verdict
        proofs.append(judge_proof(bundle))
    return proofs


@pytest.mark.parametrize("market", MARKETS)
def test_verdict_fields(router: ProofChecker, market: int) -> None:
    """Each verdict field edit: the chain's answer is Python's."""
    bundle = honest(list_scenarios()[market])
    for proof in _proofs(bundle):
        router.same_as_python(proof, "honest", COUNTS)
    for key, values in FIELDS.items():
        for value in values:
            for proof in _proofs(_edited(bundle, key, value)):
                router.same_as_python(proof, f"{market} {key}={value!r}", COUNTS)
    for key, value in EXTRA:
        for proof in _proofs(_edited(bundle, key, value)):
            router.same_as_python(proof, f"{market} extra {key}", COUNTS)


def test_verdict_outcomes_seen() -> None:
    """Runs last: the edits reached the executor's refusal and the core's answers."""
    if not COUNTS:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())))
    for wanted in ("won:one_step.invalid_record", "won:judge.mismatch", "lost:judge.match"):
        assert COUNTS[wanted] > 0, COUNTS
