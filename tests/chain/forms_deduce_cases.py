"""The deduce executor on chain forms (``contracts/src/forms/PorDeduceForm.sol``) against
Python's one-step check: call data, both answers, the classes of cases that are not
compared (s39 ``dedjudge``; ADR 0017 stage 4, decision 3).

A case is a bundle and the leaf of its deduce step. :func:`compare` gives (class,
Python's answer, the chain's answer, gas); the classes:

* ``compared``: both answers must be equal (won, check id, cause);
* ``form.none``: a record of the bundle has no form (``por.forms`` raises
  ``form.none``): a FormProof's case;
* ``invalid_record``: Python answers ``one_step.invalid_record``: a FormProof's case;
* ``own``: Python answers ``one_step.unexecutable`` for a malformation of a cited record
  that the forms do not hold: that record's own proof's case (none known for deduce:
  every part of an aggregate and a contradictions step deduce reads is in their forms);
* ``proof``: Python's proof is not built or not valid (no one-step proof to compare).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_harness import Committed, call, deploy, forms_root_of, production_call_data, selector

from por.bundle.layout import Bundle
from por.encoding import decode
from por.errors import PorError
from por.signing.eip712 import keccak256

NAME = "PorDeduceForm"
SIGNATURE = "execute(bytes[],(bytes32,uint256,uint256[],bytes32[][],bytes32[]))"
INCLUSION = "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"
IDS = ("one_step.match", "one_step.mismatch", "one_step.unexecutable", "one_step.id_position",
       "one_step.prior_order", "step.citation_mismatch", "step.bad_prior_output",
       "step.bad_inputs")
BY_HASH = {keccak256(t.encode()): t for t in IDS}
#: Python's ``step.bad_prior_output`` / ``step.citation_mismatch`` messages about parts of
#: a cited record that no form deduce reads holds (none known).
NOT_IN_FORMS: tuple[str, ...] = ()

Answer = tuple[bool, str, str]


def step_call_data(bundle: Bundle, leaf: int, committed: Committed | None = None,
                   index_of: dict[int, int] | None = None) -> bytes:
    """``execute``'s call data for the step at ``leaf``: its form, COMMON, the forms of its
    ``prior_step_ids`` (the first leaf with each id, as Python's proof carries);
    ``index_of`` overrides a form's index (a proof that lies about it); without it
    ``por``'s own FormStepProof's (``production_call_data``) when ``committed`` is the
    bundle's."""
    c = committed or forms_root_of(bundle)
    if index_of is None:
        own = production_call_data(bundle, "deduce", leaf, c.por_root)
        if own is not None:
            return own
    step = decode(bundle.steps[leaf])
    by_id: dict[Any, int] = {}
    for i, raw in enumerate(bundle.steps):
        by_id.setdefault(decode(raw).get("step_id"), i)
    cited = [c.index_of_step(by_id[p]) for p in step["prior_step_ids"]]
    index = [c.index_of_step(leaf), 0, *cited]
    forms = [c.forms.forms[i].form for i in index]
    index = [(index_of or {}).get(i, i) for i in index]
    inc = (c.por_root, c.forms.size, index, [c.path(i) for i in index], c.component_path)
    return selector(SIGNATURE) + abi_encode(["bytes[]", INCLUSION], [forms, inc])


def chain_answer(data: bytes, name: str = NAME, code: str | None = None
                 ) -> tuple[Answer | str, int]:
    """The executor's (won, check id, cause) and gas, or its revert (``proof.form``...)."""
    out, gas = call(deploy(name, code), data)
    if isinstance(out, str):
        return out, 0
    won, check_id, cause = abi_decode(["bool", "bytes32", "bytes32"], out)
    return (bool(won), BY_HASH[check_id], BY_HASH.get(cause, "")), gas


def python_outcome(bundle: Bundle, leaf: int) -> Any:
    """Python's ``ChallengeOutcome`` on the step's OneStepProof, or None when no valid
    proof is built."""
    from por.challenge.one_step import build_one_step_proof, verify_one_step_proof

    try:
        return verify_one_step_proof(build_one_step_proof(bundle, leaf))
    except PorError:
        return None


def classify(outcome: Any, not_in_forms: tuple[str, ...] = NOT_IN_FORMS) -> str:
    """The class of Python's outcome (module docstring) before the forms are built;
    ``not_in_forms``: the kind's messages about parts no form it reads holds."""
    if outcome is None:
        return "proof"
    if outcome.reason == "one_step.invalid_record":
        return "invalid_record"
    if outcome.reason == "one_step.unexecutable" and any(
            s in outcome.message for s in not_in_forms):
        return "own"
    return "compared"


def compare(bundle: Bundle, leaf: int, name: str = NAME, code: str | None = None, *,
            build: Callable[[Bundle, int, Committed], bytes] = step_call_data,
            not_in_forms: tuple[str, ...] = NOT_IN_FORMS,
            ) -> tuple[str, Answer | None, Answer | str | None, int]:
    """(class, Python's answer, the chain's answer, gas) on the step at ``leaf``; every
    forms executor's differential (the aggregate's passes its own ``build``)."""
    outcome = python_outcome(bundle, leaf)
    kind = classify(outcome, not_in_forms)
    if kind != "compared":
        return kind, None, None, 0
    python = (outcome.won, outcome.reason, outcome.cause or "")
    try:
        committed = forms_root_of(bundle)
    except PorError as exc:
        if exc.check_id != "form.none":
            raise
        return "form.none", python, None, 0
    chain, gas = chain_answer(build(bundle, leaf, committed), name, code)
    return "compared", python, chain, gas


def agree(cases: Iterable[tuple[str, Bundle, int]], counts: Counter[str], tag: str,
          name: str = NAME, code: str | None = None, *, kind: str = "deduce",
          call: Callable[[Bundle, int, Committed], bytes] = step_call_data) -> list[str]:
    """Compare every case; count its class and Python's answer under ``tag``; return the
    cases where the chain answers otherwise, or Python's executor on the same call
    data's forms (``forms_python``) answers otherwise than the chain."""
    from forms_python import python_answer

    failures = []
    for case, bundle, leaf in cases:
        sent: list[bytes] = []

        def build(b: Bundle, i: int, c: Committed, sent: list[bytes] = sent) -> bytes:
            sent.append(call(b, i, c))
            return sent[-1]

        found, python, chain, _gas = compare(bundle, leaf, name, code, build=build)
        key = found if python is None else f"{found}:{python[1]}:{python[2]}"
        counts[f"{tag}|{key}"] += 1
        if found == "compared" and chain != python:
            failures.append(f"{case} leaf {leaf}: python {python}, chain {chain}")
        # the third side: Python's executor on the same call data's forms (s40 pyexecb)
        if found == "compared" and code is None and python_answer(kind, sent[0]) != chain:
            failures.append(f"{case} leaf {leaf}: python on forms "
                            f"{python_answer(kind, sent[0])}, chain {chain}")
    return failures


def checked(failures: list[str], seen: Counter[str], total: Counter[str]) -> Counter[str]:
    """A test's check of ``agree``'s result: ``seen`` added to ``total``, no failure;
    ``seen`` without its tags."""
    total.update(seen)
    assert not failures, failures[:10]
    return Counter({k.split("|", 1)[1]: v for k, v in seen.items()})
