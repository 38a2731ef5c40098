"""A FormStepProof settled on chain (SPEC §14.4, §14.8 "Routing forms"): issue 24's
lying bundles of the four classes on forms, their FormStepProofs from the forms tests'
call-data builders, and ``PorProofCheck.checkForms`` in revm.

The lies are ``bench/proofs.py``'s (scenario 08's market over ``ITEMS`` items, every
commitment recomputed): ``forged.check`` (the last check chunk), ``forged.aggregate``,
``forged.deduce`` and ``forged.verdict`` (the judge). A FormStepProof is sealed from the
executor's call data (``forms_check_support.call_data``,
``forms_aggregate_cases.call_data``, ``forms_deduce_cases.step_call_data``,
``forms_judge_cases.call_data``); ``por.chain.form_step_args`` must give that call data
back. Building needs no node; the router is the committed PorProofCheck.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import forms_aggregate_cases
import forms_check_support
import forms_deduce_cases
import forms_judge_cases
import forms_map_cases
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from proof_check_support import BY_HASH, ProofChecker, message_call

from por.bundle.layout import Bundle
from por.chain.calldata import FORMS_INCLUSION_TUPLE
from por.challenge.records import FormStepProof, seal
from por.signing.eip712 import keccak256

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

#: Items of the requirement: 23 gives three check chunks (10, 10, 3).
ITEMS = 23
#: FormStepProof kind -> the bench class of its lie.
LIES = {"check": "forged.check", "aggregate": "forged.aggregate",
        "deduce": "forged.deduce", "judge": "forged.verdict", "map": "forged.map_description"}
#: The answer each lie's FormStepProof wins with.
WON = {"check": "one_step.mismatch", "aggregate": "one_step.mismatch",
       "deduce": "one_step.mismatch", "judge": "judge.mismatch", "map": "one_step.mismatch"}
CHECK_FORMS = "checkForms(bytes32,bytes)"
INCLUSION = FORMS_INCLUSION_TUPLE


def kind_hash(kind: str) -> bytes:
    """``keccak256("form:" || kind)``: what ``settleByForms`` and ``KIND()`` carry."""
    return keccak256(b"form:" + kind.encode("ascii"))


@cache
def honest_market() -> Bundle:
    """Scenario 08's honest bundle over ``ITEMS`` items (``bench/proofs.market``)."""
    from proofs import market

    bundle: Bundle = market(ITEMS)
    return bundle


@cache
def lie(kind: str) -> Bundle:
    """The lying bundle of ``kind``'s class."""
    from proofs import classes

    if kind == "map":  # its description forged, records and forms rehashed (s45)
        return forms_map_cases.described(honest_market(), "map to evaluation variablez")
    bundle: Bundle = classes(honest_market(), ITEMS)[LIES[kind]][0]()
    return bundle


def leaf_of(kind: str) -> int:
    """The disputed reasoning leaf of ``kind`` in scenario 08's steps (SPEC §12.5: extract
    0..n-1, check chunks n..n+m-1, aggregate, contradictions, deduce, map); -1 for the
    judge (the verdict)."""
    m = -(-ITEMS // 10)
    return {"check": ITEMS + m - 1, "aggregate": ITEMS + m, "deduce": ITEMS + m + 2,
            "map": ITEMS + m + 3, "judge": -1}[kind]


def call_data(kind: str, bundle: Bundle) -> bytes:
    """The forms executor's call data for ``kind``'s step of ``bundle`` (the tests'
    builders)."""
    builders: dict[str, Callable[[Bundle], bytes]] = {
        "check": lambda b: _data(forms_check_support.call_data(b, leaf_of("check"))),
        "aggregate": lambda b: forms_aggregate_cases.call_data(b, leaf_of("aggregate")),
        "deduce": lambda b: forms_deduce_cases.step_call_data(b, leaf_of("deduce")),
        "judge": forms_judge_cases.call_data,
        "map": lambda b: forms_map_cases.call_data(b, leaf_of("map")),
    }
    return builders[kind](bundle)


def _data(case: forms_check_support.Case) -> bytes:
    assert case.data is not None, case.no_form
    return case.data


def proof_of(kind: str, data: bytes) -> FormStepProof:
    """The sealed ``por.FormStepProof/1`` carrying the executor's call data ``data``."""
    forms, (root, size, index, paths, component) = abi_decode(["bytes[]", INCLUSION], data[4:])
    body = {"schema": FormStepProof.SCHEMA, "kind": kind, "por_root": root,
            "forms": list(forms), "index": list(index), "forms_size": size,
            "paths": [list(p) for p in paths], "forms_path": list(component)}
    proof: FormStepProof = seal(FormStepProof, body)
    return proof


def args_of(forms: list[bytes], inclusion: tuple[object, ...]) -> bytes:
    """``abi.encode(forms, inclusion)``: ``checkForms``' and ``settleByForms``' args."""
    return abi_encode(["bytes[]", INCLUSION], [forms, inclusion])


def split(data: bytes) -> tuple[list[bytes], list[object]]:
    """(forms, the inclusion's five values) of an executor's call data."""
    forms, inclusion = abi_decode(["bytes[]", INCLUSION], data[4:])
    return list(forms), [inclusion[0], inclusion[1], list(inclusion[2]),
                         [list(p) for p in inclusion[3]], list(inclusion[4])]


def check_forms(router: ProofChecker, kind: bytes, args: bytes) -> tuple[bool, str, bytes]:
    """``checkForms(kind, args)`` in revm: (won, check id text, porRoot)."""
    out, _gas = message_call(router.evm, router.address, keccak256(CHECK_FORMS.encode())[:4]
                             + abi_encode(["bytes32", "bytes"], [kind, args]))
    won, check_id, root = abi_decode(["bool", "bytes32", "bytes32"], out)
    return bool(won), IDS.get(check_id, check_id.hex()), root


#: The ids ``checkForms`` answers, by keccak256.
IDS = BY_HASH | {keccak256(i.encode()): i for i in ("proof.form", "judge.match",
                                                     "judge.mismatch", "judge.final_step")}
