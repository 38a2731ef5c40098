"""The check-chunk executor on chain forms (``contracts/src/forms/PorCheckForm*.sol``,
ADR 0017 stage 4) in revm: its call data from a bundle and the comparison with
``por.challenge``'s one-step check (``tests/chain/test_forms_check.py``,
``bench/forms_check.py``).

Compiling, deploying and calling are ``forms_harness``'s (helper ``aggform``): the
contracts under ``contracts/src/forms`` are not in ``contracts/build`` (the proof route
comes later). The forms are built here record by record (``por.forms.form_of``), so that
a record without a form that the step does not carry leaves the others' forms usable (a
stand-in leaf takes its place); ``por_root = MTH(C0..C6)`` with ``C6 = forms_root ||
uint64(size)`` beside the bundle's six components. Needs ``SOLC`` (the ``contracts-npm``
gate).
"""

from __future__ import annotations

from dataclasses import dataclass

from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_carried import bundle_forms
from forms_harness import call, deploy, production_call_data, sizes
from forms_python import agrees

from por.bundle.layout import COMPONENT_INDEX, COMPONENTS, Bundle
from por.challenge.one_step import build_one_step_proof, verify_one_step_proof
from por.container.spec import component_leaf
from por.encoding import decode
from por.errors import PorError
from por.merkle.hashing import leaf_hash
from por.merkle.tree import inclusion_proof_from_leaf_hashes, root_from_leaf_hashes
from por.signing.eip712 import keccak256

NAME = "PorCheckForm"
INCLUSION = "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"
SIGNATURE = f"execute(bytes[],{INCLUSION})"
KIND = "check_requirement"
IDS = ("one_step.match", "one_step.mismatch", "one_step.unexecutable", "one_step.id_position",
       "one_step.prior_order", "step.citation_mismatch", "step.bad_prior_output",
       "step.bad_inputs")
BY_HASH = {keccak256(i.encode()): i for i in IDS} | {bytes(32): ""}
#: Python's one-step answers the executor gives (the rest: a FormProof's or the court's).
COMPARED = IDS[:5]
STAND_IN = bytes(32)


class Executor:
    """``PorCheckForm`` deployed in revm (``forms_harness.deploy``)."""

    def __init__(self) -> None:
        self.chain = deploy(NAME)
        self.size = sizes(NAME)

    def answer(self, data: bytes) -> tuple[bool, str, str, int]:
        """(won, check id, cause, execution gas); an invalid proof's revert is (False,
        ``proof.form`` or ``revert:<selector>``, "", 0). Python's executor on the same
        call data must answer the same (``forms_python.agrees``)."""
        out, gas = call(self.chain, data)
        if isinstance(out, str):
            agrees("check", data, out)
            return False, out, "", 0
        won, check_id, cause = abi_decode(["bool", "bytes32", "bytes32"], out)
        agrees("check", data, (bool(won), BY_HASH[check_id], BY_HASH[cause]))
        return bool(won), BY_HASH[check_id], BY_HASH[cause], gas


@dataclass
class Case:
    """One check chunk of a bundle: its call data or why there is none."""

    data: bytes | None
    no_form: str | None = None
    carried: list[int] | None = None
    forms: list[bytes] | None = None


def _forms(bundle: Bundle) -> list[bytes]:
    """Every form of ``bundle``, a stand-in leaf for a record with none."""
    return [STAND_IN if f is None else f for f in bundle_forms(bundle)]


def call_data(bundle: Bundle, index: int, replace: dict[int, bytes] | None = None,
              order: list[int] | None = None) -> Case:
    """The executor's call on check chunk ``index`` of ``bundle``: the CHUNK, COMMON, R's
    REQUIREMENT (the first when R is none), the cited steps' forms; ``no_form`` names the
    first carried record without a form (then there is no call: a FormProof's case).
    ``replace``: forms index -> the bytes committed there instead (a malformed form a
    signer could commit); ``order``: the carried forms' positions permuted. Without
    either, ``por``'s own FormStepProof's (``forms_harness.production_call_data``) when
    the case's ``por_root`` is the bundle's."""
    forms = _forms(bundle)
    for j, form in (replace or {}).items():
        forms[j] = form
    spec = decode(bundle.prompt_spec)
    r = len(spec["data_requirements"])
    step = decode(bundle.steps[index])
    rid = step["inputs"].get("requirement_id")
    rids = [q.get("requirement_id") for q in spec["data_requirements"]]
    position = {decode(s)["step_id"]: i for i, s in reversed(list(enumerate(bundle.steps)))}
    carried = [1 + r + index, 0, 1 + (rids.index(rid) if rid in rids else 0)]
    carried += [1 + r + position[p] for p in step["prior_step_ids"]]
    if order is not None:
        carried = [carried[i] for i in order]
    for j in carried:
        if forms[j] == STAND_IN:
            return Case(None, f"form {j}")
    leaves = [leaf_hash(f) for f in forms]
    components = [leaf_hash(component_leaf(*bundle.commitments.component(name)))
                  for name in COMPONENTS[:COMPONENT_INDEX["forms"]]]
    components.append(leaf_hash(component_leaf(root_from_leaf_hashes(leaves), len(forms))))
    por_root = root_from_leaf_hashes(components)
    if replace is None and order is None:
        own = production_call_data(bundle, "check", index, por_root)
        if own is not None:
            return Case(own, carried=carried, forms=forms)
    inclusion = (por_root, len(forms), carried,
                 [inclusion_proof_from_leaf_hashes(leaves, j) for j in carried],
                 inclusion_proof_from_leaf_hashes(components, 6))
    args = abi_encode(["bytes[]", INCLUSION], [[forms[j] for j in carried], inclusion])
    return Case(keccak256(SIGNATURE.encode())[:4] + args, carried=carried, forms=forms)


def python_answer(bundle: Bundle, index: int) -> tuple[bool, str, str, str]:
    """``verify_one_step_proof`` on the CBOR proof: (won, id, cause, message)."""
    try:
        outcome = verify_one_step_proof(build_one_step_proof(bundle, index))
    except PorError as exc:
        return False, exc.check_id, "", exc.message
    return outcome.outcome == "won", outcome.reason, outcome.cause or "", outcome.message
