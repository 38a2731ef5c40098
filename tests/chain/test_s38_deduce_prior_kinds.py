"""Deduce's cited steps read by kind and step type (ADR 0013 "s38, deduce8").

``PorDeduceRead.priorKind`` reads a cited step's ``inputs.kind`` and its ``step_type``'s
encoded text for the two kinds deduce reads (aggregate with step_type ``aggregate``,
contradictions with ``check``), instead of ``PorRecords.computation`` (which also checked the
inputs map's keys, an answer deduce never read). Each cited step gets each other step type,
each other kind, and inputs with a key more or less; the deduce step left as it was and
rewritten by por: chain and Python must agree on each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import ExecChecker
from test_onchain_deduce import _deduce, rewritten

from por.encoding import decode, encode

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorDeduceExec")
#: One and several requirements, a precondition, per-source quorums.
MARKETS = ("03-threshold-gt-boundary", "08-quorum-agree", "50-commodities-per-source-quorum",
           "67-two-of-three-below", "68-precondition-no")
TYPES = ("extract", "check", "aggregate", "deduce", "map")
KINDS = ("aggregate", "contradictions", "check_requirement", "extract_claims", "deduce",
         "map")
Edit = Callable[[dict[str, Any]], None]


def _edits(step: dict[str, Any]) -> list[tuple[str, Edit]]:
    out: list[tuple[str, Edit]] = []
    for t in TYPES:
        if t != step["step_type"]:
            out.append((f"type.{t}", lambda s, t=t: s.__setitem__("step_type", t)))
    for k in KINDS:
        if k != step["inputs"]["kind"]:
            out.append((f"kind.{k}", lambda s, k=k: s["inputs"].__setitem__("kind", k)))
    out.append(("inputs.extra", lambda s: s["inputs"].__setitem__("extra", 1)))
    out.append(("inputs.no_requirement", lambda s: s["inputs"].pop("requirement_id", None)))
    return out


def _cases() -> list[tuple[str, int]]:
    out = []
    for name in MARKETS:
        bundle = honest(name)
        index = _deduce(bundle)
        for sid in decode(bundle.steps[index])["prior_step_ids"]:
            out.append((name, int(sid[5:]) - 1))
    return out


@pytest.mark.parametrize(("market", "at"), _cases())
def test_prior_kind_and_type(market: str, at: int) -> None:
    bundle = honest(market)
    index = _deduce(bundle)
    for _, edit in _edits(decode(bundle.steps[at])):
        steps = list(bundle.steps)
        step = decode(steps[at])
        edit(step)
        steps[at] = encode(step)
        _CHAIN.compare(recommit(bundle, steps=steps), index, "prior.kept", COUNTS)
        steps[index] = rewritten(bundle.prompt_spec, steps, index) or steps[index]
        _CHAIN.compare(recommit(bundle, steps=steps), index, "prior.rewritten", COUNTS)


def test_prior_kind_count() -> None:
    cases = 0
    for name, at in _cases():
        cases += len(_edits(decode(honest(name).steps[at])))
    assert COUNTS["prior.kept"] + COUNTS["prior.rewritten"] + COUNTS["unbuildable"] >= 2 * cases
    assert COUNTS["prior.kept"] >= cases // 2, COUNTS
