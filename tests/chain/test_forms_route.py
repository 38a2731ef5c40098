"""PorProofCheck's route for a FormStepProof (SPEC §14.8 "Routing forms"; ids.md of s40):
``checkForms(keccak256("form:" || kind), args)`` goes to the forms executor of the kind,
answers its (won, check id) with the Inclusion's ``porRoot``, and maps the executor's
reverts to the ids Python's check gives: ``ProofForm()`` proof.form, ``Citations(i)``
proof.citations, ``FormsInclusion(i)`` proof.leaf_path, ``FormsPorRoot()``
proof.component_path, PorMerkle's errors the ``merkle.*`` id of
``root_from_inclusion_proof`` for the same (index, size, path), the ABI decoder's revert
(no data) and every record rule the ABI can break (lengths, caps, a Count past 2^63 - 1)
proof.schema, an unknown kind proof.schema; any other revert passed on.
``por.chain.form_step_args`` gives back the executor's call data the tests build.
Committed artifacts in revm: no node needed.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import forms_aggregate_cases
import pytest
from deployment import checker_code, deploy_families, executor_code, executor_names
from eth_abi.abi import encode as abi_encode
from forms_harness import forms_root_of, replaced
from forms_route_support import (
    LIES,
    WON,
    args_of,
    call_data,
    check_forms,
    honest_market,
    kind_hash,
    leaf_of,
    lie,
    proof_of,
    split,
)
from proof_check_support import CALLER, ProofChecker, new_evm
from test_proof_router import stub_returning

from por.chain.calldata import form_step_args
from por.errors import PorError
from por.merkle import leaf_hash
from por.merkle.proofs import root_from_inclusion_proof
from por.signing.eip712 import keccak256

SCHEMA = "proof.schema"


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    return ProofChecker()


@pytest.mark.parametrize("kind", sorted(LIES))
def test_each_kind_goes_to_its_executor(router: ProofChecker, kind: str) -> None:
    for bundle, expected in ((lie(kind), (True, WON[kind])),
                             (honest_market(), (False, WON[kind].replace("mismatch", "match")))):
        data = call_data(kind, bundle)
        hashed, args = form_step_args(proof_of(kind, data))
        assert (hashed, args) == (kind_hash(kind), data[4:])  # the record's ABI: the builders'
        won, check_id, root = check_forms(router, hashed, args)
        assert (won, check_id) == expected, kind
        assert root == bundle.commitments.por_root
        # another kind's executor never decides it: a known forms kind that is not its own
        # reads other roles (lost), an unknown kind is proof.schema
        for other in ("form:extract", "map", "aggregate", "form:", "form:Check"):
            assert check_forms(router, keccak256(other.encode()), args)[:2] == (False, SCHEMA)


def _mutated(edit: Any, kind: str = "deduce") -> bytes:
    """The honest market's ``kind`` args after ``edit(forms, inclusion)``."""
    forms, inclusion = split(call_data(kind, honest_market()))
    edit(forms, inclusion)
    return args_of(forms, tuple(inclusion))


def _set(i: int, value: Any) -> Any:
    return lambda _f, inc: inc.__setitem__(i, value)


def _cut(position: int) -> Any:
    return lambda _f, inc: inc.__setitem__(position, inc[position][:-1])


def _many(forms: list[bytes], inc: list[Any]) -> None:
    for _ in range(68 - len(forms)):
        forms.append(forms[1])
        inc[2].append(inc[2][1])
        inc[3].append(inc[3][1])


def _long(position: int, at: int | None = None) -> Any:
    def edit(_forms: list[bytes], inc: list[Any]) -> None:
        path = inc[position] if at is None else inc[position][at]
        path.extend([b"\x11" * 32] * (65 - len(path)))
    return edit


#: Record rules the ABI can break: proof.schema before any executor runs (SPEC §10.2.9).
SCHEMA_CASES = {
    "index shorter": _cut(2),
    "paths shorter": _cut(3),
    "forms shorter": lambda forms, _inc: forms.pop(),
    "no forms": lambda forms, inc: (forms.clear(), inc[2].clear(), inc[3].clear()),
    "68 forms": _many,
    "size 2^63": _set(1, 2**63),
    "index 2^63": lambda _f, inc: inc[2].__setitem__(1, 2**63),
    "path of 65": _long(3, 0),
    "component path of 65": _long(4),
}


@pytest.mark.parametrize("name", sorted(SCHEMA_CASES))
def test_a_record_rule_the_abi_breaks_is_proof_schema(router: ProofChecker, name: str) -> None:
    args = _mutated(SCHEMA_CASES[name])
    assert check_forms(router, kind_hash("deduce"), args)[:2] == (False, SCHEMA)


@pytest.mark.parametrize("cut", [0, 1, 31, 64, 200, -1])
def test_args_the_abi_decoder_refuses_are_proof_schema(router: ProofChecker, cut: int) -> None:
    args = call_data("deduce", honest_market())[4:]
    broken = args[:cut] if cut >= 0 else args[:-32]
    assert check_forms(router, kind_hash("deduce"), broken)[:2] == (False, SCHEMA)


def _python_merkle_id(form: bytes, index: int, size: int, path: list[bytes]) -> str:
    try:
        root_from_inclusion_proof(leaf_hash(form), index, size, path)
    except PorError as exc:
        return exc.check_id
    return "ok"


def _flip(position: int, at: int | None = None) -> Any:
    def edit(_forms: list[bytes], inc: list[Any]) -> None:
        path = inc[position] if at is None else inc[position][at]
        path[0] = bytes(b ^ 1 for b in path[0])
    return edit


def _extend(position: int, at: int | None = None) -> Any:
    def edit(_forms: list[bytes], inc: list[Any]) -> None:
        (inc[position] if at is None else inc[position][at]).append(b"\x22" * 32)
    return edit


#: Inclusion faults: ids.md's order and ids.
INCLUSION_CASES = {
    "form 1's path": (_flip(3, 1), "proof.leaf_path"),
    "form 0's path": (_flip(3, 0), "proof.leaf_path"),  # form 1 then differs from form 0
    "component path": (_flip(4), "proof.component_path"),
    "index at size": (lambda _f, inc: inc[2].__setitem__(0, inc[1]), "merkle.index_range"),
    "size 0": (_set(1, 0), "merkle.index_range"),
    "path one longer": (_extend(3, 0), "merkle.proof_length"),
    "component path one longer": (_extend(4), "merkle.proof_length"),
    "component path shorter": (_cut(4), "merkle.proof_length"),
}


@pytest.mark.parametrize("name", sorted(INCLUSION_CASES))
def test_an_inclusion_fault_is_pythons_id(router: ProofChecker, name: str) -> None:
    edit, expected = INCLUSION_CASES[name]
    args = _mutated(edit)
    assert check_forms(router, kind_hash("deduce"), args)[:2] == (False, expected)
    if expected.startswith("merkle."):  # the same (index, size, path) in Python
        forms, inclusion = split(b"\x00" * 4 + args)
        if name.startswith("component"):
            committed = forms_root_of(honest_market())
            component = leaf_hash(committed.forms.root + committed.forms.size.to_bytes(8, "big"))
            try:
                root_from_inclusion_proof(component, 6, 7, inclusion[4])
            except PorError as exc:
                assert exc.check_id == expected
            else:
                raise AssertionError(name)
        else:
            assert _python_merkle_id(forms[0], inclusion[2][0], inclusion[1],
                                     inclusion[3][0]) == expected


def test_a_form_that_does_not_parse_is_proof_form(router: ProofChecker) -> None:
    bundle = honest_market()
    leaf = leaf_of("aggregate")
    committed = forms_root_of(bundle)
    broken = replaced(bundle, committed, committed.index_of_step(leaf), b"\x05" * 33)
    data = forms_aggregate_cases.call_data(bundle, leaf, broken)
    assert check_forms(router, kind_hash("aggregate"), data[4:])[:2] == (False, "proof.form")


def test_a_form_in_the_wrong_role_is_proof_citations(router: ProofChecker) -> None:
    def drop_last(forms: list[bytes], inc: list[Any]) -> None:
        forms.pop()
        inc[2].pop()
        inc[3].pop()
    args = _mutated(drop_last)  # one prior id without its form
    assert check_forms(router, kind_hash("deduce"), args)[:2] == (False, "proof.citations")


def _checker_with(stub: bytes) -> Any:
    """The deployment with ``stub`` as the executor of ``form:check``."""
    evm = new_evm()

    def create(code: bytes) -> str:
        return str(evm.deploy(CALLER, code))
    families = deploy_families(create)
    listed = [create(executor_code(n, families)) for n in executor_names() if n != "PorCheckForm"]
    router = ProofChecker.__new__(ProofChecker)
    router.evm, router.address = evm, create(checker_code([*listed, create(stub)]))
    return router


def _revert_data(router: Any, args: bytes) -> bytes:
    calldata = keccak256(b"checkForms(bytes32,bytes)")[:4] + abi_encode(
        ["bytes32", "bytes"], [kind_hash("check"), args])
    with pytest.raises(RuntimeError) as raised:
        router.evm.message_call(CALLER, router.address, calldata)
    found = re.search(r"output: 0x([0-9a-f]*)", str(raised.value))
    assert found is not None
    return bytes.fromhex(found.group(1))


def test_another_revert_is_passed_on_and_a_bad_answer_reverts() -> None:
    args = call_data("check", honest_market())[4:]
    other = keccak256(b"Other(uint256)")[:4] + (7).to_bytes(32, "big")
    assert _revert_data(_checker_with(stub_returning(kind_hash("check"), other, 0xFD)),
                        args) == other
    for body in (abi_encode(["bool", "bytes32"], [True, bytes(32)]),
                 abi_encode(["uint256", "bytes32", "bytes32"], [2, bytes(32), bytes(32)])):
        assert _revert_data(_checker_with(stub_returning(kind_hash("check"), body)), args) == b""
    answer = abi_encode(["bool", "bytes32", "bytes32"], [True, keccak256(b"judge.match"),
                                                         b"\x07" * 32])
    won, check_id, root = check_forms(_checker_with(stub_returning(kind_hash("check"), answer)),
                                      kind_hash("check"), args)
    assert (won, check_id, root) == (True, "judge.match",
                                     honest_market().commitments.por_root)  # the cause dropped


def test_a_form_step_proof_python_cannot_decide_is_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``por chain settle`` checks the proof with ``check_proof`` first: an executor on
    forms that cannot decide (``proof.unsupported``, as a stub) gives "cannot decide",
    exit 2, never calldata."""
    from por.cli import main
    from por.errors import UnsupportedError
    from por.forms import execute as forms_execute

    def undecided(*_args: object) -> forms_execute.Answer:
        raise UnsupportedError("proof.unsupported", "this executor cannot decide")

    from por.forms.execute import deduce  # noqa: F401  (registers the real one first)

    monkeypatch.setitem(forms_execute.EXECUTORS, "deduce", undecided)
    path = tmp_path / "deduce.cbor"
    path.write_bytes(proof_of("deduce", call_data("deduce", lie("deduce"))).to_cbor())
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        for extra in ([], ["--sender", "0x" + "11" * 20]):
            assert main(["chain", "commit" if extra else "settle", str(path), "--market",
                         "m", *extra]) == 2
