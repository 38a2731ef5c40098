"""A source summary that repeats an id: the JudgeProof's citations agree with Python
(s36, judge4).

The citations pair each extract part with the next *distinct* id of the final map
step's ``source_summary`` (``_summary``). ``PorJudgeCheck.citations`` now asks
``PorRecords.hasRepeat`` (O(n log n)) first and compares an id with the ids before it
(``seen``, O(n^2)) only when the list repeats one; ``variables`` reuses that answer for
the same list. The fixture markets' summaries never repeat, so here each market's
summary gets a repeated id (at the end, at the start, the whole list twice), and each
such bundle is proven by por's builder (one part per distinct id), by the judge's
verdict on it, and with a part per listed id (the repeat carried again: Python's
``proof.citations``). A chain that skipped ``seen`` for a list with a repeat would
expect a part per listed id.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from bundle_edits import honest
from exec_support import ExecChecker, judge_proof, judge_proof_carrying, rejudged
from proof_check_support import python_answer
from test_onchain_judge import _set, _with_map

from por.bundle.layout import Bundle
from por.encoding import decode
from por.errors import PorError
from por.schemas import ReasoningStep

MARKETS = ("01-boolean-observed", "08-quorum-agree", "11-fallback-chain")
COUNTS: Counter[str] = Counter()


def _summary(bundle: Bundle) -> list[str]:
    variables = ReasoningStep.from_cbor(bundle.steps[-1]).output["evaluation_variables"]
    return list(variables["source_summary"])


def _cases(bundle: Bundle) -> Iterator[tuple[str, bytes]]:
    ids = _summary(bundle)
    assert ids and len(set(ids)) == len(ids)
    lists = {"last.again": [*ids, ids[0]], "first.twice": [ids[0], *ids],
             "all.twice": ids + ids}
    for name, summary in lists.items():
        edited = _with_map(_set(("source_summary",), summary))(bundle)
        assert edited is not None
        try:
            proof = judge_proof(edited)
        except PorError:
            continue
        yield name, proof
        again = rejudged(edited)
        if again is not None:
            yield f"{name}.rejudged", judge_proof(again)
        # one part per listed id: the first distinct part carried again
        leaves = [part["leaf_index"] for part in decode(proof)["extract_steps"]]
        if leaves:
            yield f"{name}.part.again", judge_proof_carrying(edited, [*leaves, leaves[0]])


@pytest.mark.parametrize("market", MARKETS)
def test_summary_repeats(judge: ExecChecker, market: str) -> None:
    """Every case: the chain's (won, id) is Python's."""
    for name, proof in _cases(honest(market)):
        won, check_id, _gas = judge.execute(proof)
        assert (won, check_id) == python_answer(proof), f"{market} {name}"
        COUNTS[f"{'won' if won else 'lost'}:{check_id}"] += 1


def test_summary_repeats_seen() -> None:
    """Runs last: the repeats reached both the citations' pass and their failure."""
    if not COUNTS:
        pytest.skip("run with the whole module")
    print(f"\n{sum(COUNTS.values())} cases: {dict(sorted(COUNTS.items()))}")
    assert COUNTS["lost:proof.citations"] > 0, COUNTS
    assert sum(n for k, n in COUNTS.items() if k != "lost:proof.citations") > 0, COUNTS
