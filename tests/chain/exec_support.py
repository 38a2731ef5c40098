"""An executor (``contracts/build/<name>.json``) in revm, and the differential loop the
on-chain tests of the step kinds and of the JudgeProof share (SPEC §14.8).

:class:`ExecChecker` deploys the committed artifact once (an executor may deploy its
helpers in its constructor; EIP-170 and EIP-3860 are in force) and calls its entry,
``execute(bytes)`` for a step executor or ``check(bytes)`` for ``PorJudgeExec``, as a
real message call on bytes that passed the §2 reader, as the router does: each answer
is ``(won, check id text, execution gas)``, a ``CourtPath(kind)`` revert
``(False, "court_path:<kind>", 0)``. :meth:`ExecChecker.compare` puts one step's
one-step proof to both the chain and ``proof_check_support.python_answer`` and counts
the case; :func:`assert_case_count` is the last test of each file. :func:`judge_proof`
is por's own JudgeProof builder, :func:`judge_proof_carrying` one with any extract
parts, and :func:`rejudged` recommits a bundle with the verdict Python's judge gives on
it, so consistent rewrites (lost ``judge.match``) are made as easily as lies.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import (
    honest,
    recommit,
    recomputed,  # noqa: F401 - its home was here; importers keep it
)
from hypothesis import given, settings
from hypothesis import strategies as st
from proof_check_support import CALLER, ROOT, answer, message_call, new_evm, python_answer

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.challenge.batch import ComponentTree
from por.challenge.judge_proof import build_judge_proof, verify_judge_proof
from por.challenge.one_step import build_one_step_proof
from por.challenge.records import JudgeProof, seal
from por.errors import PorError
from por.scenarios import list_scenarios
from por.schemas import DeterministicVerdict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "properties"))
from test_citation_properties import markets

#: EIP-170's limit on deployed code.
CODE_LIMIT = 24_576
#: Every outcome a step executor gives on a forged step.
OUTCOMES = ("one_step.match", "one_step.mismatch", "one_step.unexecutable",
            "one_step.invalid_record")


def artifact(name: str) -> dict[str, Any]:
    """The committed build ``contracts/build/<name>.json``."""
    path = ROOT / "contracts" / "build" / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def deployed_size(name: str) -> int:
    """The deployed size of the committed artifact ``name`` (EIP-170 bounds it)."""
    return (len(artifact(name)["deployedBytecode"]) - 2) // 2


class ExecChecker:
    """One EVM with the executor ``name`` deployed; ``entry`` is its entry function."""

    def __init__(self, name: str, entry: str = "execute(bytes)") -> None:
        self.evm = new_evm()
        self.address = self.evm.deploy(CALLER, bytes.fromhex(artifact(name)["bytecode"][2:]))
        self.entry = entry

    def code_size(self, address: str | None = None) -> int:
        """Deployed code size of ``address`` (the executor by default)."""
        return len(self.evm.basic(address or self.address).code or b"")

    def call(self, data: bytes) -> bytes:
        """A raw message call to the executor."""
        return message_call(self.evm, self.address, data)[0]

    def execute(self, proof: bytes) -> tuple[bool, str, int]:
        """The entry on ``proof``: (won, check id, execution gas)."""
        return answer(self.evm, self.address, self.entry, proof)

    def compare(self, bundle: Bundle, index: int, case: str,
                counts: Counter[str]) -> tuple[bool, str, int] | None:
        """The one-step proof of step leaf ``index``: the chain's (won, id) must be
        Python's; counts ``case`` and ``id:<check id>`` (or ``unbuildable`` for a step
        citing an id no leaf carries, SPEC §10.7, with no answer)."""
        try:
            proof = build_one_step_proof(bundle, index).to_cbor()
        except PorError:
            counts["unbuildable"] += 1
            return None
        won, check_id, gas = self.execute(proof)
        assert (won, check_id) == python_answer(proof), (case, index, proof.hex()[:600])
        counts[case] += 1
        counts[f"id:{check_id}"] += 1
        return won, check_id, gas


#: A test file's cases on one bundle: (bundle, seeded rng, forged bundles to draw).
Exercise = Callable[[Bundle, random.Random, int], None]


def every_market(exercise: Exercise, seed: int, forged: int) -> None:
    """``exercise`` on every fixture market's honest bundle, one rng seeded ``seed``."""
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    for name in list_scenarios():
        exercise(honest(name), rng, forged)


def generated_cases(max_examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A test of ``(case, seed)``: ``max_examples`` generated markets
    (``test_citation_properties.markets``), each with a seed for its forgeries."""
    run = settings(max_examples=max_examples, deadline=None)
    return lambda test: run(given(markets(), st.integers(0, 2**32 - 1))(test))


def generated_market(exercise: Exercise, case: Any, seed: int, forged: int) -> None:
    """``exercise`` on the bundle built from a generated (spec, evidence) ``case``."""
    spec, evidence = case
    exercise(bundle_from_bytes(build(spec, evidence).data), random.Random(seed), forged)  # noqa: S311


def assert_case_count(counts: Counter[str], prefix: str, needed: tuple[str, ...],
                      minimum: int = 2_500) -> None:
    """At least ``minimum`` proofs counted under ``prefix`` and every outcome of
    ``needed`` among them (skipped when the file's other tests did not run)."""
    proofs = sum(v for k, v in counts.items() if k.startswith(prefix))
    if proofs == 0:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(counts.items())), proofs)
    assert proofs >= minimum, counts
    for outcome in needed:
        assert f"id:{outcome}" in counts, outcome


def judge_proof(bundle: Bundle) -> bytes:
    """por's JudgeProof of ``bundle``."""
    return bytes(build_judge_proof(bundle).to_cbor())


def judge_proof_carrying(bundle: Bundle, leaves: list[int]) -> bytes:
    """A JudgeProof of ``bundle`` whose extract parts are step leaves ``leaves`` (any
    choice, as a challenger may send; por's builder picks the cited items' extract steps)."""
    commitments = bundle.commitments
    steps = ComponentTree("reasoning_leaf", bundle.steps, commitments)
    body = {
        "schema": JudgeProof.SCHEMA, "kind": "verdict", "por_root": commitments.por_root,
        "verdict": ComponentTree("verdict", [bundle.verdict], commitments).proof(0).to_dict(),
        "prompt_spec": ComponentTree("prompt_spec", [bundle.prompt_spec],
                                     commitments).proof(0).to_dict(),
        "final_step": steps.proof(len(bundle.steps) - 1).to_dict(),
        "extract_steps": [steps.proof(i).to_dict() for i in leaves],
    }
    return bytes(seal(JudgeProof, body).to_cbor())


def rejudged(bundle: Bundle) -> Bundle | None:
    """``bundle`` recommitted with the verdict the judge gives on its committed trace
    (the references kept), or None when the JudgeProof does not reach the judge."""
    outcome = verify_judge_proof(JudgeProof.from_cbor(judge_proof(bundle)))
    if outcome.recomputed is None:
        return None
    decided = {k: outcome.recomputed.get(k) for k in (
        "market_id", "outcome", "confidence_bps", "resolution_rule_id", "resolution_time")}
    verdict = DeterministicVerdict.from_cbor(bundle.verdict).model_copy(update=decided)
    return recommit(bundle, verdict=verdict.to_cbor())
