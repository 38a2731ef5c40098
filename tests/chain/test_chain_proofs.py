"""``PorVerdictRegistry.checkInclusion`` / ``openChallenge`` in a real EVM: a
por InclusionProof for every leaf of every demo bundle passes against the
por_root its signed verdict stored, and every transparency-dev style
corruption reverts, with the error named after the check id that ``por
check-proof`` gives the same corrupted proof (SPEC §10.4.1, §14.4).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from chain_support import (
    CHALLENGER,
    DEMO_BUNDLES,
    RESOLVER,
    TEST_ONLY_SECRET,
    Chain,
    address_of,
    por,
    register_bundle,
    reverts,
    synthetic_market,
)
from eth_abi import encode

from por.bundle import Bundle
from por.chain import CHECK_INCLUSION, check_inclusion_calldata, inclusion_proof_args, selector
from por.chain.calldata import PROOF_TUPLE, leaf_id
from por.chain.calldata import challenge_id as por_challenge_id
from por.challenge.check import check_proof
from por.challenge.proofs import build_inclusion_proof
from por.challenge.records import InclusionProof, body_of, seal
from por.errors import SchemaError
from por.merkle import inclusion_trace, leaf_hash
from por.schemas import DeterministicVerdict

DEMO = sorted(p for p in DEMO_BUNDLES.glob("*.cbor") if ".signed-" not in p.name)
#: Contract error -> the por check id it is named after (SPEC §14.3).
ERROR_IDS = {"MerkleIndexRange": "merkle.index_range", "MerkleProofLength": "merkle.proof_length",
             "ProofLeafPath": "proof.leaf_path", "ProofComponentPath": "proof.component_path",
             "ProofComponent": "proof.component"}
#: SPEC §14.6 target: a depth-20 inclusion check.
INCLUSION_GAS_TARGET = 12_000


@pytest.fixture(scope="module")
def registry() -> tuple[Chain, dict[str, bytes]]:
    """One registry holding a signed verdict for every demo bundle."""
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    markets = {path.name: register_bundle(chain, path.read_bytes()) for path in DEMO}
    return chain, markets


def every_leaf_proof(path: Path) -> list[InclusionProof]:
    """What `por challenge --inclusion` builds, for every leaf of the bundle."""
    bundle = Bundle.from_cbor(path.read_bytes())
    proofs = [build_inclusion_proof(bundle, "prompt_spec"),
              build_inclusion_proof(bundle, "verdict")]
    proofs += [build_inclusion_proof(bundle, "evidence_leaf", i)
               for i in range(len(bundle.evidence))]
    proofs += [build_inclusion_proof(bundle, "reasoning_leaf", i)
               for i in range(len(bundle.steps))]
    return proofs


def _flip(value: bytes, bit: int) -> bytes:
    out = bytearray(value)
    out[bit // 8 % len(out)] ^= 1 << (bit % 8)
    return bytes(out)


def corruptions(body: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """transparency-dev/merkle's invalid-proof families, applied to both levels."""
    for field in ("leaf_path", "component_path"):
        path = body[field]
        for j in range(len(path)):
            for bit in (0, 133, 255):
                yield f"{field}[{j}] bit {bit}", {**body, field: [
                    _flip(h, bit) if k == j else h for k, h in enumerate(path)]}
        if path:
            yield f"{field} truncated", {**body, field: path[:-1]}
            yield f"{field} without its first hash", {**body, field: path[1:]}
        yield f"{field} extended", {**body, field: [*path, hashlib.sha256(b"x").digest()]}
        yield f"{field} extended with a copy", {**body, field: [*path, *(path[-1:] or [bytes(32)])]}
    yield "component_root bit", {**body, "component_root": _flip(body["component_root"], 7)}
    yield "leaf first bit", {**body, "leaf": _flip(body["leaf"], 0)}
    yield "leaf last bit", {**body, "leaf": _flip(body["leaf"], len(body["leaf"]) * 8 - 1)}
    yield "leaf truncated", {**body, "leaf": body["leaf"][:-1]}
    yield "leaf extended", {**body, "leaf": body["leaf"] + b"\x00"}
    yield "leaf hash as leaf", {**body, "leaf": leaf_hash(body["leaf"])}
    index, size = body["leaf_index"], body["tree_size"]
    for delta in (-1, 1):
        if index + delta >= 0:
            yield f"index {delta:+d}", {**body, "leaf_index": index + delta}
        yield f"size {delta:+d}", {**body, "tree_size": size + delta}
    yield "index = size", {**body, "leaf_index": size}
    if body["leaf_path"]:
        # An inner node given as a leaf: the level-1 node above the leaf, one level up.
        node = inclusion_trace(leaf_hash(body["leaf"]), index, size, body["leaf_path"])[1]
        yield "inner node as leaf", {**body, "leaf": node, "leaf_index": index // 2,
                                     "tree_size": (size + 1) // 2,
                                     "leaf_path": body["leaf_path"][1:]}
    else:
        yield "component root as leaf", {**body, "leaf": body["component_root"]}


def args_of(body: dict[str, Any]) -> tuple[Any, ...]:
    return inclusion_proof_args(SimpleNamespace(**body))  # type: ignore[arg-type]


def check_data(market_id: bytes, args: tuple[Any, ...]) -> bytes:
    return selector(CHECK_INCLUSION) + encode(["bytes32", PROOF_TUPLE], [market_id, args])


def por_check_id(body: dict[str, Any], por_root: bytes) -> str | None:
    """`por check-proof --por-root` on the corrupted proof, re-sealed so that its
    challenge_id is right (None if the body is not even a valid record)."""
    try:
        proof = seal(InclusionProof, body)
    except SchemaError:
        return None
    report = check_proof(proof.to_cbor(), por_root=por_root)
    assert report.status != "valid"
    return report.check_id


@pytest.mark.parametrize("path", DEMO, ids=[p.stem for p in DEMO])
def test_every_leaf_passes_and_every_corruption_reverts_as_por_says(
        registry: tuple[Chain, dict[str, bytes]], path: Path) -> None:
    chain, markets = registry
    market = markets[path.name]
    other = DEMO[(DEMO.index(path) + 1) % len(DEMO)]
    others = {(p.kind, p.leaf_index): p for p in every_leaf_proof(other)}
    compared = 0
    for proof in every_leaf_proof(path):
        passed = chain.send(check_inclusion_calldata(market, proof))
        assert passed.output == leaf_hash(proof.leaf)
        assert passed.execution_gas <= INCLUSION_GAS_TARGET
        body = body_of(proof)
        for label, bad in corruptions(body):
            error = reverts(chain, check_data(market, args_of(bad)))
            assert error.name in ERROR_IDS, (proof.kind, proof.leaf_index, label)
            expected = por_check_id(bad, proof.por_root)
            if expected is not None:
                compared += 1
                assert ERROR_IDS[error.name] == expected, (proof.kind, proof.leaf_index, label)
        twin = others.get((proof.kind, proof.leaf_index))
        if twin is not None:  # a leaf of another bundle, with its own (valid) paths
            error = reverts(chain, check_inclusion_calldata(market, twin))
            assert error.name == "ProofComponentPath"
    assert compared > 0


def test_component_and_market_are_checked(registry: tuple[Chain, dict[str, bytes]]) -> None:
    chain, markets = registry
    proof = every_leaf_proof(DEMO[0])[2]
    args = list(inclusion_proof_args(proof))
    for component in (0, 3, 6, 255):
        args[0] = component
        error = reverts(chain, check_data(markets[DEMO[0].name], tuple(args)))
        assert (error.name, error.args_) == ("ProofComponent", (component,))
    args[0] = 4  # an evidence leaf claimed as a reasoning leaf
    assert reverts(chain, check_data(markets[DEMO[0].name], tuple(args))).name in ERROR_IDS
    error = reverts(chain, check_inclusion_calldata(b"\x07" * 32, proof))
    assert (error.name, error.args_) == ("UnknownMarket", (b"\x07" * 32,))


@pytest.mark.parametrize(("size", "index"), [
    (1, 0), (2, 1), (3, 2), (7, 3), (8, 7), (1000, 999), (1000, 511),
    (10**6, 0), (10**6, 999_999), (2**20, 2**19 + 1), (2**32 + 5, 2**32 + 4), (2**63 - 1, 12345),
])
@pytest.mark.parametrize("kind", ["evidence_leaf", "reasoning_leaf"])
def test_large_trees_pass_and_corruptions_revert(kind: str, size: int, index: int) -> None:
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    leaf = bytes(range(256)) + b"por" * 15  # about the size of an EvidenceItem record
    market, proof = synthetic_market(chain, kind, size, index, leaf, nonce=0)
    assert check_proof(proof.to_cbor(), por_root=proof.por_root).status == "valid"
    passed = chain.send(check_inclusion_calldata(market, proof))
    assert passed.output == leaf_hash(leaf)
    if len(proof.leaf_path) <= 20:
        assert passed.execution_gas <= INCLUSION_GAS_TARGET, passed.execution_gas
    for label, bad in corruptions(body_of(proof)):
        if bad["tree_size"] >= 2**64:
            continue  # not a uint64: not encodable
        error = reverts(chain, check_data(market, args_of(bad)))
        expected = por_check_id(bad, proof.por_root)
        assert expected is None or ERROR_IDS[error.name] == expected, label


@pytest.mark.parametrize("path", DEMO[:3], ids=[p.stem for p in DEMO[:3]])
def test_open_challenge_from_por_challenge_and_resolve(
        tmp_path: Path, path: Path) -> None:
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    market = register_bundle(chain, path.read_bytes(), nonce=0)
    text = DeterministicVerdict.from_cbor(Bundle.from_cbor(path.read_bytes()).verdict).market_id
    proof_file = tmp_path / "proof.cbor"
    por("challenge", str(path), "--step", "step_0002", "--inclusion", "-o", str(proof_file))
    import json

    case_hash = hashlib.sha256(b"a case").digest()
    spec_hash = Bundle.from_cbor(path.read_bytes()).commitments.prompt_spec_hash
    call = json.loads(por("attestation", "--calldata", "--market", text, "--prompt-spec-hash",
                          spec_hash.hex(), "--case-hash", case_hash.hex(), "--json",
                          str(proof_file)))["calldata"]
    assert call["market_key"] == "0x" + market.hex()
    data = bytes.fromhex(call["data_hex"][2:])
    opened = chain.send(data, sender=CHALLENGER)
    challenge_id = opened.output
    [(topics, _data)] = opened.logs
    assert topics[1:] == [challenge_id, market, bytes(12) + bytes.fromhex(CHALLENGER[2:])]
    leaf = leaf_hash(InclusionProof.from_cbor(proof_file.read_bytes()).leaf)
    assert challenge_id == por_challenge_id(leaf_id(market, 4, 1), leaf,
                                            bytes.fromhex(CHALLENGER[2:]), case_hash)
    assert chain.call("challenges", challenge_id) == (CHALLENGER, 0, 1, market)  # Open
    assert chain.call("verdicts", market)[5] == 1  # one challenge open: not final
    assert chain.call("isFinal", market) is False
    error = reverts(chain, data, sender=CHALLENGER)
    assert (error.name, error.args_) == ("ChallengeExists", (challenge_id,))
    chain.send(data, sender=RESOLVER)  # another challenger, same leaf and case: no squatting
