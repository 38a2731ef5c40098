"""Keys compared as short constants (ADR 0013 s37 addendum, dj6) are told apart by length.

``PorKeyIndex.semantics`` (deduce's and the judge's ``prediction_semantics``),
``PorJudgeRules.topFields`` (the PromptSpec's top-level keys) and ``PorJudgeVars.nameAt``
(the evaluation variables) compare a key as its bytes followed by its length, not as the
32-byte key word. Without the length, a key that is a read key with a NUL byte in front
(``"\\x00threshold"``: the same bytes as a number) would be read as that key. Here each read
key gets such a twin with a malformed value (the number 7) next to it: the chain reads only
the keys it knows, so its answer on the PromptSpec with the twin is its answer without it,
for the JudgeProof and for the deduce step's one-step proof; an evaluation variable's twin
is an unknown variable, which the chain and Python both refuse (its (won, id) is Python's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest
from exec_support import ExecChecker, judge_proof
from proof_check_support import python_answer
from test_onchain_deduce import _deduce
from test_onchain_judge import _with_map, _with_spec

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode

#: Every predicate, optional semantics keys, a precondition, terms (test_key_index's).
MARKETS = ("01-boolean-observed", "53-economics-csv-release-absent", "61-range-settle",
           "62-field-comparison-home-win", "64-text-equals-award", "66-deadline-launch",
           "67-two-of-three-below", "68-precondition-no")
#: The PromptSpec's top-level keys the judge reads (`PorJudgeRules.TOP_KEYS`).
TOP_KEYS = ("market", "strict_mode", "conflict_policy", "output_schema_ref",
            "confidence_policy", "data_requirements", "prediction_semantics",
            "timestamp_slack_seconds")
VARIABLE_KEYS = ("conflict_detected", "insufficient_evidence", "fallback_used",
                 "provenance_ok", "event_observed", "source_summary", "numeric_value",
                 "timestamp")


def _twin(path: tuple[str, ...], key: str) -> Callable[[dict[str, Any]], None]:
    """Add ``"\\x00" + key`` with the value 7 to the map at ``path``."""
    def edit(spec: dict[str, Any]) -> None:
        node = spec
        for head in path:
            node = node[head]
        node["\x00" + key] = 7
    return edit


def _spec_twins(bundle: Bundle) -> list[tuple[str, Bundle]]:
    spec = decode(bundle.prompt_spec)
    cases = [(f"top.{k}", _twin((), k)) for k in TOP_KEYS if k in spec]
    cases += [(f"semantics.{k}", _twin(("prediction_semantics",), k))
              for k in spec["prediction_semantics"]]
    out = []
    for name, edit in cases:
        edited = _with_spec(edit, valid=False)(bundle)
        assert edited is not None
        out.append((name, edited))
    return out


@pytest.mark.parametrize("market", MARKETS)
def test_judge_ignores_twins(judge: ExecChecker, market: str) -> None:
    """A NUL-prefixed twin of a read key changes nothing the JudgeProof decides."""
    bundle = honest(market)
    want = judge.execute(judge_proof(bundle))[:2]
    assert want == python_answer(judge_proof(bundle))
    for name, edited in _spec_twins(bundle):
        assert judge.execute(judge_proof(edited))[:2] == want, f"{market} {name}"


@pytest.mark.parametrize("market", MARKETS)
def test_deduce_ignores_twins(deduce: ExecChecker, market: str) -> None:
    """The same for the deduce step's one-step proof (prediction_semantics twins)."""
    bundle = honest(market)
    index = _deduce(bundle)
    want = deduce.execute(build_one_step_proof(bundle, index).to_cbor())[:2]
    for name, edited in _spec_twins(bundle):
        if not name.startswith("semantics."):
            continue
        got = deduce.execute(build_one_step_proof(edited, index).to_cbor())[:2]
        assert got == want, f"{market} {name}"


@pytest.mark.parametrize("market", MARKETS)
def test_judge_variable_twins(judge: ExecChecker, market: str) -> None:
    """An evaluation variable's NUL-prefixed twin (the real one kept): chain = Python."""
    bundle = honest(market)
    for key in VARIABLE_KEYS:
        def edit(v: dict[str, Any], k: str = key) -> None:
            if k in v:
                v["\x00" + k] = v[k]
        edited = _with_map(edit)(bundle)
        if edited is None:
            continue
        proof = judge_proof(edited)
        assert judge.execute(proof)[:2] == python_answer(proof), f"{market} {key}"
