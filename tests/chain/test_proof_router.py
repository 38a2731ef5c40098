"""PorProofCheck's router (SPEC §14.8): the deployment list and the routing.

``contracts/deploy.json`` is the one list every deployer reads (tests/chain/deployment.py):
each executor's artifact is built, under the 24 576-byte code limit (EIP-170), answers
a distinct ``KIND()``; the checker's constructor refuses a list it cannot route by
(``ExecutorCount``, ``BadExecutor``). A OneStepProof goes to the executor of its step's
``inputs.kind`` (a stub executor, hand-assembled below, shows it is that one and not
another), any other kind to the first executor (which reverts ``CourtPath``), and a
document whose ``schema`` names an executor's kind to that executor's ``check``.
A step leaf the router cannot read (not CBOR, a huge count, no ``inputs`` first) still
gets ``por check-proof``'s answer.
"""

from __future__ import annotations

import re

import pytest
from bundle_edits import honest, recommit
from deployment import (
    build_artifact,
    checker_code,
    creation_code,
    deploy_families,
    deployment,
    executor_code,
    executor_names,
    family_names,
)
from eth_abi import decode, encode
from proof_check_support import CALLER, ProofChecker, python_answer

from por.challenge.batch import ComponentTree
from por.challenge.one_step import build_one_step_proof, one_step_bytes
from por.encoding import decode as cbor_decode
from por.encoding import encode as cbor_encode
from por.scenarios import list_scenarios
from por.signing.eip712 import keccak256

#: EIP-170 (deployed code) and EIP-3860 (initcode) limits, bytes.
CODE_LIMIT = 24_576
INITCODE_LIMIT = 49_152
MISMATCH = keccak256(b"one_step.mismatch")


def stub(kind: bytes, answer: bytes = MISMATCH) -> bytes:
    """Creation code of an executor stub: ``KIND()`` returns ``kind``; any other call
    returns (true, ``answer``, 0) (EVM assembly, offsets in the comments)."""
    select = keccak256(b"KIND()")[:4]
    runtime = (bytes.fromhex("600035" "60e01c" "63") + select          # 0x00 selector == KIND()
               + bytes.fromhex("14" "603d" "57")                         # 0x0b -> 0x3d
               + bytes.fromhex("6001" "6000" "52" "7f") + answer        # 0x0f (1, answer, 0)
               + bytes.fromhex("6020" "52" "6060" "6000" "f3")           # 0x35 return 96 bytes
               + bytes.fromhex("5b" "7f") + kind                         # 0x3d KIND()
               + bytes.fromhex("6000" "52" "6020" "6000" "f3"))
    assert runtime[0x3D] == 0x5B
    return bytes([0x60, len(runtime), 0x60, 12, 0x60, 0, 0x39, 0x60, len(runtime), 0x60, 0,
                  0xF3]) + runtime


def _revert_name(chain: ProofChecker, code: bytes) -> tuple[str, bytes]:
    try:
        chain.evm.deploy(CALLER, code)
    except RuntimeError as exc:
        found = re.search(r"output: 0x([0-9a-f]*)", str(exc))
        data = bytes.fromhex(found.group(1)) if found else b""
        names = {keccak256(s.encode())[:4]: s for s in ("ExecutorCount(uint256)",
                                                        "BadExecutor(address)")}
        return names.get(data[:4], data.hex()), data[4:]
    raise AssertionError("the constructor did not revert")


def _kind(chain: ProofChecker, address: str) -> bytes:
    out = chain.evm.message_call(CALLER, address, keccak256(b"KIND()")[:4])
    return bytes(out)


def test_the_deployment_list_builds_and_fits() -> None:
    listed = deployment()
    names = [*(n for n in family_names() if n), *executor_names(), listed["checker"],
             listed["registry"]]
    assert executor_names()[0] == "PorMapExec"  # the fallback: a step executor
    for name in names:
        built = build_artifact(name)
        assert (len(built["deployedBytecode"]) - 2) // 2 <= CODE_LIMIT, name
        assert (len(built["bytecode"]) - 2) // 2 <= INITCODE_LIMIT, name
    chain = ProofChecker()
    families = deploy_families(lambda code: str(chain.evm.deploy(CALLER, code)))
    kinds = [_kind(chain, chain.evm.deploy(CALLER, executor_code(n, families)))
             for n in executor_names()]
    assert len(set(kinds)) == len(kinds) and all(len(k) == 32 for k in kinds)
    assert kinds[0] == keccak256(b"map")


def test_the_constructor_refuses_a_list_it_cannot_route_by() -> None:
    chain = ProofChecker()
    mapper = chain.evm.deploy(CALLER, creation_code("PorMapExec"))
    silent = chain.evm.deploy(CALLER, bytes.fromhex("600160" "0c" "600039" "6001" "6000" "f3")
                              + b"\x00")  # runtime STOP: KIND() returns nothing
    zero = chain.evm.deploy(CALLER, stub(bytes(32)))
    assert _revert_name(chain, checker_code([])) == ("ExecutorCount(uint256)",
                                                      encode(["uint256"], [0]))
    assert _revert_name(chain, checker_code([mapper] * 17))[0] == "ExecutorCount(uint256)"
    for bad, listed in ((CALLER, [mapper, CALLER]), (mapper, [mapper, mapper]),
                        (silent, [mapper, silent]), (zero, [zero])):
        name, args = _revert_name(chain, checker_code(listed))
        assert name == "BadExecutor(address)", (bad, name)
        assert decode(["address"], args)[0].lower() == bad.lower()


def test_a_one_step_proof_goes_to_its_kinds_executor() -> None:
    # extract_claims is the one step kind without an executor (SPEC §14.8): a stub for it.
    chain = ProofChecker(extra=(stub(keccak256(b"extract_claims")),))
    router = chain.evm.message_call(CALLER, chain.address, keccak256(b"executor(bytes32)")[:4]
                                    + keccak256(b"extract_claims"))
    assert decode(["address"], bytes(router))[0] != "0x" + "00" * 20
    bundle = honest(list_scenarios()[0])
    seen = set()
    for index, leaf in enumerate(bundle.steps):
        kind = cbor_decode(leaf)["inputs"]["kind"]
        proof = build_one_step_proof(bundle, index).to_cbor()
        answer = chain.any_proof(proof)[:2]
        if kind == "extract_claims":
            assert answer == (True, "one_step.mismatch")  # the stub's answer
        else:  # each listed kind's executor: Python's answer on an honest step
            assert answer == python_answer(proof) == (False, "one_step.match"), kind
        seen.add(kind)
    assert {"deduce", "map", "extract_claims", "check_requirement", "aggregate"} <= seen


def test_a_schema_with_an_executor_goes_to_its_check() -> None:
    document = cbor_encode({"schema": "por.HeaderProof/1", "kind": "evidence_leaf"})
    plain = ProofChecker()
    assert plain.any_proof(document)[:2] == python_answer(document)
    routed = ProofChecker(extra=(stub(keccak256(b"por.HeaderProof/1")),))
    assert routed.any_proof(document)[:2] == (True, "one_step.mismatch")
    # A step kind's name as a schema is no proof schema: the CitationProof checker's
    # answer, not the step executor's missing `check` (a revert).
    for schema in ("map", "deduce", "por."):
        named = cbor_encode({"schema": schema, "kind": "reasoning_leaf"})
        assert routed.any_proof(named)[:2] == python_answer(named), schema


@pytest.mark.parametrize("leaf", [
    b"\xff", b"\xbb" + b"\xff" * 8, b"\xa1\x66inputs\xbb" + b"\xff" * 8,
    b"\xa1\x66inputs\xa1\x64kind\x7b" + b"\xff" * 8, b"\xa1\x66inputs\xa1\x64kind\x63ma",
    b"\xa1\x66inputs\xa1\x64kind\x63map", b"\xa1\x66inputs\xa1\x64kind\x6eextract_claims",
    b"\xa1\x66inputs", b"\xa1\x66inputz\x00", b"\x80", b"",
    b"\xa1\x66inputs\xa1\x64kind\x6aform:check"])  # a forms kind: no CBOR executor
def test_a_step_leaf_the_router_cannot_read_gets_the_python_answer(leaf: bytes) -> None:
    chain = ProofChecker(extra=(stub(keccak256(b"extract_claims")),))
    bundle = honest(list_scenarios()[0])
    index = len(bundle.steps) - 1
    forged = recommit(bundle, steps=[*bundle.steps[:index], leaf])
    commitments = forged.commitments
    steps = ComponentTree("reasoning_leaf", forged.steps, commitments)
    spec = ComponentTree("prompt_spec", [forged.prompt_spec], commitments).proof(0)
    proof = one_step_bytes(commitments.por_root, steps.proof(index).to_cbor(), spec.to_cbor(),
                           [], [steps.proof(index - 1).to_cbor()])
    won, check_id, _gas = chain.any_proof(proof)
    if leaf.endswith(b"extract_claims"):  # routed to the stub by its kind: it would decide
        assert (won, check_id) == (True, "one_step.mismatch")
    else:
        assert (won, check_id) == python_answer(proof), leaf


def stub_returning(kind: bytes, body: bytes, end: int = 0xF3) -> bytes:
    """Creation code of an executor stub: ``KIND()`` returns ``kind``; any other call
    returns ``body`` exactly (copied from its code); ``end=0xFD``: reverts with it."""
    select = keccak256(b"KIND()")[:4]
    head = bytes.fromhex("600035" "60e01c" "63") + select + bytes.fromhex("14" "61")
    # 0x0b: PUSH2 <KIND path> JUMPI; then CODECOPY(0, body, n), RETURN(0, n)
    copy = (b"\x57\x61" + len(body).to_bytes(2, "big") + b"\x61{OFF}\x60\x00\x39\x61"
            + len(body).to_bytes(2, "big") + b"\x60\x00" + bytes([end]))
    kind_path = b"\x5b\x7f" + kind + bytes.fromhex("6000" "52" "6020" "6000" "f3")
    jump = len(head) + 2 + len(copy) - 3  # {OFF} is 5 bytes in the template, 2 in the code
    offset = jump + len(kind_path)
    runtime = (head + jump.to_bytes(2, "big")
               + copy.replace(b"{OFF}", offset.to_bytes(2, "big")) + kind_path + body)
    assert runtime[jump] == 0x5B and runtime[offset:] == body
    return bytes([0x61]) + len(runtime).to_bytes(2, "big") + bytes(
        [0x60, 14, 0x60, 0, 0x39, 0x61]) + len(runtime).to_bytes(2, "big") + bytes(
        [0x60, 0, 0xF3]) + runtime


@pytest.mark.parametrize(("body", "expected"), [
    (encode(["bool", "bytes32", "bytes32"], [True, MISMATCH, b"\x07" * 32]),
     (True, MISMATCH, b"\x07" * 32)),
    (encode(["bool", "bytes32", "bytes32"], [False, MISMATCH, bytes(32)]) + b"\xff" * 40,
     (False, MISMATCH, bytes(32))),  # a longer answer: its first three words
    (encode(["bool", "bytes32"], [True, MISMATCH]), None),  # short: a revert, no data
    (encode(["uint256", "bytes32", "bytes32"], [2, MISMATCH, bytes(32)]), None),  # not a bool
    (b"", None),
], ids=["answer", "longer", "short", "not a bool", "empty"])
def test_the_router_passes_an_executors_answer_as_the_abi_decoder_would(
        body: bytes, expected: tuple[bool, bytes, bytes] | None) -> None:
    """The router forwards its own calldata to the executor and returns the executor's
    three words as they are (ADR 0015 s35 reader2): an answer the ABI decoder would refuse
    (short, or `won` not a bool) reverts with no data, as the decoder's `revert(0, 0)`."""
    document = cbor_encode({"schema": "por.HeaderProof/1", "kind": "evidence_leaf"})
    chain = ProofChecker(extra=(stub_returning(keccak256(b"por.HeaderProof/1"), body),))
    calldata = keccak256(b"checkProof(bytes)")[:4] + encode(["bytes"], [document])
    if expected is not None:
        out = bytes(chain.evm.message_call(CALLER, chain.address, calldata))
        assert out == encode(["bool", "bytes32", "bytes32"], list(expected))
        return
    with pytest.raises(RuntimeError) as raised:
        chain.evm.message_call(CALLER, chain.address, calldata)
    found = re.search(r"output: 0x([0-9a-f]*)", str(raised.value))
    assert found is not None and found.group(1) == ""
