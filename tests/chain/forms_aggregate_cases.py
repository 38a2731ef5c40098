"""The aggregate executor on chain forms (``contracts/src/forms/PorAggregateForm.sol``)
against Python's one-step check: call data, both answers, the classes of cases that
are not compared (s39 ``aggform``; ADR 0017 stage 4, decision 3).

A case is a bundle and the leaf of one of its aggregate steps. :func:`compare` gives
(class, Python's answer, the chain's answer, gas); the classes:

* ``compared``: both answers must be equal (won, check id, cause);
* ``form.none``: a record of the bundle has no form (``por.forms`` raises
  ``form.none``): a FormProof's case;
* ``invalid_record``: Python answers ``one_step.invalid_record``: a FormProof's case;
* ``own``: Python answers ``one_step.unexecutable`` for a malformation of a cited record
  that the forms do not hold (a chunk's groups, a claim's ``path``, an extract step's own
  ``evidence_ids``): that record's own proof's case;
* ``proof``: Python's proof is not built or not valid (no one-step proof to compare).
"""

from __future__ import annotations

from typing import Any

import forms_deduce_cases as deduce_cases
from eth_abi.abi import encode as abi_encode
from forms_harness import Committed, forms_root_of, production_call_data, selector
from forms_python import agrees

from por.bundle.layout import Bundle
from por.encoding import decode

NAME = "PorAggregateForm"
SIGNATURE = "execute(bytes[],(bytes32,uint256,uint256[],bytes32[][],bytes32[]))"
IDS, BY_HASH = deduce_cases.IDS, deduce_cases.BY_HASH
#: Python's ``step.bad_prior_output`` / ``step.citation_mismatch`` messages about parts of
#: a cited record that no form the aggregate reads holds.
NOT_IN_FORMS = ("group", "claim reference", "'path'", "is not about")

Answer = deduce_cases.Answer


def call_data(bundle: Bundle, leaf: int, committed: Committed | None = None,
              order: list[int] | None = None) -> bytes:
    """``execute``'s call data for the aggregate at ``leaf``: its AGGREGATE, COMMON, R's
    REQUIREMENT (REQUIREMENT 0 when the PromptSpec has no R), the forms of its
    ``prior_step_ids`` (the first leaf with each id, as Python's proof carries): ``por``'s
    own FormStepProof's (``production_call_data``) when ``committed`` is the bundle's;
    ``order``: the carried forms' positions permuted (an invalid proof)."""
    c = committed or forms_root_of(bundle)
    own = None if order is not None else production_call_data(bundle, "aggregate", leaf,
                                                               c.por_root)
    if own is not None:
        return own
    step = decode(bundle.steps[leaf])
    spec = decode(bundle.prompt_spec)
    rid = step["inputs"].get("requirement_id")
    ids = [q.get("requirement_id") for q in spec["data_requirements"]]
    k = ids.index(rid) if rid in ids else 0
    by_id: dict[Any, int] = {}
    for i, raw in enumerate(bundle.steps):
        by_id.setdefault(decode(raw).get("step_id"), i)
    cited = [c.index_of_step(by_id[p]) for p in step["prior_step_ids"]]
    index = [c.index_of_step(leaf), 0, 1 + k, *cited]
    if order is not None:
        index = [index[i] for i in order]
    forms = [c.forms.forms[i].form for i in index]
    inc = (c.por_root, c.forms.size, index, [c.path(i) for i in index], c.component_path)
    types = ["bytes[]", "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"]
    return selector(SIGNATURE) + abi_encode(types, [forms, inc])


def chain_answer(data: bytes) -> tuple[Answer | str, int]:
    """The executor's (won, check id, cause) and gas, or its revert (``proof.form``...);
    Python's executor on the same call data must answer the same
    (``forms_python.agrees``)."""
    answer, gas = deduce_cases.chain_answer(data, NAME)
    agrees("aggregate", data, answer)
    return answer, gas


def compare(bundle: Bundle, leaf: int) -> tuple[str, Answer | None, Answer | str | None, int]:
    """(class, Python's answer, the chain's answer, gas) on the aggregate at ``leaf``
    (``forms_deduce_cases.compare`` with the aggregate's call data and messages); the
    chain's answer is also Python's executor's on the same call data."""
    sent: list[bytes] = []

    def build(b: Bundle, at: int, committed: Committed) -> bytes:
        sent.append(call_data(b, at, committed))
        return sent[-1]

    kind, python, chain, gas = deduce_cases.compare(bundle, leaf, NAME, build=build,
                                                    not_in_forms=NOT_IN_FORMS)
    if sent and chain is not None:
        agrees("aggregate", sent[0], chain)
    return kind, python, chain, gas
