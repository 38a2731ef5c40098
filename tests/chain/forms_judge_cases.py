"""The JudgeProof on chain forms (``contracts/src/forms/PorJudgeForm.sol``) against
Python's ``verify_judge_proof``: call data, both answers, the classes of cases that are
not compared (s39 ``dedjudge``; ADR 0017 stage 4, decision 3).

A case is a bundle. :func:`compare` gives (class, Python's answer, the chain's answer,
gas); the classes:

* ``compared``: both answers must be equal (won, check id);
* ``form.none``: a record of the bundle has no form (``por.forms`` raises ``form.none``):
  a FormProof's case (among them the judge lock's cases that move to the MAP step:
  ADR 0017 addendum s39 ``dedjudge``);
* ``invalid_record``: Python answers ``one_step.invalid_record`` (a committed record,
  or an extract step's card, is not valid): a FormProof's case;
* ``proof``: Python's proof is not built or not valid (``proof.*``: nothing to compare).
"""

from __future__ import annotations

from typing import Any

from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_deduce_cases import INCLUSION, SIGNATURE
from forms_harness import Committed, call, deploy, forms_root_of, production_call_data, selector

from por.bundle.layout import Bundle
from por.encoding import decode
from por.errors import PorError
from por.signing.eip712 import keccak256

NAME = "PorJudgeForm"
IDS = ("judge.match", "judge.mismatch", "judge.final_step")
BY_HASH = {keccak256(t.encode()): t for t in IDS}

Answer = tuple[bool, str]


def summary_ids(bundle: Bundle) -> list[str]:
    """The last step's ``source_summary``, each id once (``judge_proof._summary``)."""
    variables = decode(bundle.steps[-1]).get("output", {}).get("evaluation_variables")
    summary = variables.get("source_summary") if isinstance(variables, dict) else None
    if not isinstance(summary, list) or not all(isinstance(s, str) for s in summary):
        return []
    return list(dict.fromkeys(summary))


def call_data(bundle: Bundle, committed: Committed | None = None,
              carried: list[int] | None = None) -> bytes:
    """``execute``'s call data: VERDICT, COMMON, the last step's form, the EXTRACT forms
    of the summarised items (the extract step at each id's first evidence leaf, as
    ``build_judge_proof``; ``carried``: other reasoning leaves; without it ``por``'s own
    FormStepProof's, ``production_call_data``, when ``committed`` is the bundle's)."""
    from por.challenge.one_step import positions_of

    c = committed or forms_root_of(bundle)
    if carried is None:
        own = production_call_data(bundle, "judge", None, c.por_root)
        if own is not None:
            return own
        wanted = summary_ids(bundle)
        found = positions_of(bundle.evidence, "evidence_id", set(wanted))
        carried = [found[w] for w in wanted if w in found]
    last = c.forms.size - 2
    index = [c.forms.size - 1, 0, last, *(c.index_of_step(j) for j in carried)]
    forms = [c.forms.forms[i].form for i in index]
    inc = (c.por_root, c.forms.size, index, [c.path(i) for i in index], c.component_path)
    return selector(SIGNATURE) + abi_encode(["bytes[]", INCLUSION], [forms, inc])


def chain_answer(data: bytes, code: str | None = None) -> tuple[Answer | str, int]:
    """The executor's (won, check id) and gas, or its revert (``proof.form``...)."""
    out, gas = call(deploy(NAME, code), data)
    if isinstance(out, str):
        return out, 0
    won, check_id, _cause = abi_decode(["bool", "bytes32", "bytes32"], out)
    return (bool(won), BY_HASH[check_id]), gas


def python_outcome(bundle: Bundle) -> Any:
    """Python's ``ChallengeOutcome`` on the bundle's JudgeProof, or None (no valid proof)."""
    from por.challenge.judge_proof import build_judge_proof, verify_judge_proof

    try:
        return verify_judge_proof(build_judge_proof(bundle))
    except PorError:
        return None


def compare(bundle: Bundle, code: str | None = None, sent: list[bytes] | None = None
            ) -> tuple[str, Answer | None, Answer | str | None, int]:
    """(class, Python's answer, the chain's answer, gas) on the bundle's JudgeProof;
    ``sent`` collects the call data of a compared case."""
    outcome = python_outcome(bundle)
    if outcome is None:
        return "proof", None, None, 0
    python = (outcome.won, outcome.reason)
    if outcome.reason == "one_step.invalid_record":
        return "invalid_record", python, None, 0
    try:
        committed = forms_root_of(bundle)
    except PorError as exc:
        if exc.check_id != "form.none":
            raise
        return "form.none", python, None, 0
    data = call_data(bundle, committed)
    chain, gas = chain_answer(data, code)
    if sent is not None:
        sent.append(data)
    return "compared", python, chain, gas
