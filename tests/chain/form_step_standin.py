"""The Solidity executors on forms standing in for Python's (s40 ``formdoc``).

While ``por.forms.execute``'s executors are stubs (helpers ``pyexeca``/``pyexecb``
write them), a test registers :func:`standin` for a kind in
``por.forms.execute.EXECUTORS`` with ``monkeypatch``: it calls the executor under
``contracts/src/forms/`` in revm (``forms_harness``), which the differentials
(``test_forms_*.py``) hold equal to Python's one-step check. The executor interface gives
the carried forms, their indexes and the tree's size only (the inclusion is checked
before it), so the call's inclusion is rebuilt here: a tree of ``size`` leaves with each
carried form's ``LH`` at its index (zero words elsewhere) under a ``por_root`` of its
own; the executor reads the indexes and the size, never the other leaves.

:func:`proof_call_data` (``forms_harness``'s) is ``execute``'s call data of a
FormStepProof: the production twin of the case builders' (``forms_*_cases.call_data``),
which use it wherever it is a drop-in (``forms_harness.production_call_data``). Needs ``SOLC`` (the
``contracts-npm`` gate): ``standin_executors`` is for gated tests only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_deduce_cases import INCLUSION, SIGNATURE
from forms_harness import call, deploy, proof_call_data, selector

from por.bundle.layout import COMPONENTS, component_leaf
from por.errors import ProofError
from por.forms import execute as forms_execute
from por.forms.execute import Answer, CitationsFault, Executor, FormFault
from por.merkle.hashing import leaf_hash
from por.merkle.tree import inclusion_path_from_levels, root_from_leaf_hashes, tree_levels
from por.signing.eip712 import keccak256

#: FormStepProof kind -> its contract under ``contracts/src/forms/``.
CONTRACTS = {"check": "PorCheckForm", "aggregate": "PorAggregateForm",
             "deduce": "PorDeduceForm", "judge": "PorJudgeForm"}
IDS = ("one_step.match", "one_step.mismatch", "one_step.unexecutable", "one_step.id_position",
       "one_step.prior_order", "step.citation_mismatch", "step.bad_prior_output",
       "step.bad_inputs", "judge.match", "judge.mismatch", "judge.final_step")
BY_HASH = {keccak256(i.encode()): i for i in IDS} | {bytes(32): ""}
CITATIONS = selector("Citations(uint256)")
TYPES = ["bytes[]", INCLUSION]


def standin_call_data(forms: Sequence[bytes], index: Sequence[int], size: int) -> bytes:
    """Call data for ``forms`` at ``index`` of a tree of ``size`` rebuilt around them."""
    leaves = [bytes(32)] * size
    for form, i in zip(forms, index, strict=True):
        leaves[i] = leaf_hash(form)
    levels = tree_levels(leaves)
    components = [bytes([k + 1]) * 32 for k in range(len(COMPONENTS) - 1)]
    components.append(leaf_hash(component_leaf(levels[-1][0], size)))
    top = tree_levels(components)
    inc = (root_from_leaf_hashes(components), size, list(index),
           [inclusion_path_from_levels(levels, i) for i in index],
           inclusion_path_from_levels(top, len(components) - 1))
    return selector(SIGNATURE) + abi_encode(TYPES, [list(forms), inc])


def standin(kind: str) -> Executor:
    """An executor of ``kind`` that answers what its Solidity twin answers in revm."""
    chain = deploy(CONTRACTS[kind])

    def run(forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
        out, _gas = call(chain, standin_call_data(forms, index, size))
        if out == "proof.form":
            raise FormFault(f"the {kind} executor on forms reverts ProofForm()")
        if isinstance(out, str):
            data = bytes.fromhex(out.removeprefix("revert:"))
            if data[:4] == CITATIONS:
                raise CitationsFault(-1, f"the {kind} executor reverts Citations(i)")
            raise ProofError("proof.schema", f"the {kind} executor reverts {out}")
        won, check_id, cause = abi_decode(["bool", "bytes32", "bytes32"], out)
        return Answer(bool(won), BY_HASH[check_id], BY_HASH[cause])

    return run


@pytest.fixture
def standin_executors(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every kind's executor is its Solidity twin in revm, for one test."""
    from por.forms.execute import aggregate, check, deduce, judge  # noqa: F401 - registered

    for kind in CONTRACTS:
        monkeypatch.setitem(forms_execute.EXECUTORS, kind, standin(kind))
    yield


__all__ = ["CONTRACTS", "proof_call_data", "standin", "standin_call_data",
           "standin_executors"]
