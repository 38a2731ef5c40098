"""s44 attack on the CLI of ADR 0018's market key, as a new user would meet it (SPEC §14.5):

* ``por attestation --calldata`` prints exactly the bytes §14.2/§14.5 say, recomputed here
  without por.chain (the selector from the signature text, PATH(1, 7) from the component
  leaves, the key from keccak256 and eth-abi), and the registry accepts them;
* ``por chain settle|commit|finalize`` and ``attestation --calldata PROOF`` without
  ``--prompt-spec-hash``, or with a malformed one: exit 2, ``usage.options``, one line
  (``--json``: one ``por/error/1`` document), never a traceback;
* the hash of another bundle: the CLI cannot know it is wrong (the proof does not carry
  the PromptSpec), so it prints a call on a key with no verdict, which the registry refuses
  (``UnknownMarket``): the wrong key strikes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chain_support import (
    DEMO_BUNDLES,
    T0,
    TEST_ONLY_SECRET,
    Chain,
    address_of,
    call_data,
    por,
    reverts,
)
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from eth_utils.crypto import keccak as keccak256
from test_chain_calldata_cli import _key, run

from por.bundle.layout import COMPONENTS, Bundle, component_leaf
from por.merkle import inclusion_proof_from_leaf_hashes, leaf_hash

BUNDLE = DEMO_BUNDLES / "01-boolean-observed.cbor"
VERDICT = ("(bytes32,uint8,uint16,bytes32,bytes32,uint64,bytes32,uint64,bytes32,uint64,uint64,"
           "uint64)")
SIGNATURE_TEXT = f"proposeVerdict({VERDICT},bytes32[],address,bytes)"
HASH = "ab" * 32


@pytest.fixture
def chain() -> Chain:
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    chain.set_time(T0 + 1)
    return chain


def _signed_for(chain: Chain, tmp_path: Path) -> Path:
    key = _key(tmp_path, "secp256k1", b"por test-only secp256k1 key")
    out = tmp_path / "signed.cbor"
    por("sign", str(BUNDLE), "--key", key, "--now", str(T0), "--chain-id", str(chain.chain_id),
        "--contract", chain.address, "-o", str(out))
    return out


def _independent_key(market_text: str, spec: bytes) -> bytes:
    return keccak256(abi_encode(["bytes32", "bytes32"],
                                [keccak256(market_text.encode("utf-8")), spec]))


def test_propose_calldata_is_the_bytes_spec_states(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path, chain: Chain) -> None:
    signed = _signed_for(chain, tmp_path)
    code, doc, _err = run(capsys, "attestation", "--calldata", "--json", "--now", str(T0 + 1),
                          str(signed))
    assert code == 0
    call = json.loads(doc)["calldata"]
    data = bytes.fromhex(call["data_hex"][2:])
    assert data[:4] == keccak256(SIGNATURE_TEXT.encode("ascii"))[:4]
    words, path, signer, _signature = abi_decode([VERDICT, "bytes32[]", "address", "bytes"],
                                                 data[4:])
    bundle = Bundle.from_cbor(BUNDLE.read_bytes())
    c = bundle.commitments
    pairs = {"manifest": (c.manifest_hash, 1), "prompt_spec": (c.prompt_spec_hash, 1),
             "evidence": (c.evidence_root, c.evidence_count),
             "trace_header": (c.trace_header_hash, 1),
             "reasoning": (c.reasoning_root, c.reasoning_count),
             "verdict": (c.verdict_hash, 1), "forms": (c.forms_root, c.forms_count)}
    hashes = [leaf_hash(component_leaf(*pairs[name])) for name in COMPONENTS]
    assert list(path) == inclusion_proof_from_leaf_hashes(hashes, 1) and len(path) == 3
    assert words[3] == c.prompt_spec_hash and words[8] == c.por_root
    assert signer.lower() == "0x" + address_of(TEST_ONLY_SECRET).hex()
    from por.schemas import DeterministicVerdict

    market_text = DeterministicVerdict.from_cbor(bundle.verdict).market_id
    key = _independent_key(market_text, c.prompt_spec_hash)
    assert words[0] == keccak256(market_text.encode("utf-8"))
    assert call["market_key"] == "0x" + key.hex()
    chain.send(data)
    assert chain.call("verdicts", key)[7] == 1  # Proposed, under the key printed


#: Every command taking --prompt-spec-hash (a proof file is filled in by the test).
COMMANDS = [["chain", "finalize", "m"], ["chain", "settle", "PROOF", "--market", "m"],
            ["chain", "commit", "PROOF", "--market", "m", "--sender", "0x" + "11" * 20],
            ["attestation", "--calldata", "--market", "m", "--case-hash", HASH, "PROOF"]]
BAD = [None, "", "00", "zz" * 32, HASH + "00", "0x" + HASH[:-1], HASH[:-1] + "g", "0x"]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
@pytest.mark.parametrize("value", BAD, ids=[repr(b) for b in BAD])
def test_a_missing_or_malformed_hash_is_one_usage_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str],
        value: str | None) -> None:
    proof = tmp_path / "proof.cbor"
    proof.write_bytes(b"\xa0")
    argv = [str(proof) if a == "PROOF" else a for a in command]
    if value is not None:
        argv += ["--prompt-spec-hash", value]
    for json_flag in ([], ["--json"]):
        code, out, err = run(capsys, *argv, *json_flag)
        assert code == 2, (argv, out, err)
        assert "Traceback" not in out + err
        if json_flag:
            doc = json.loads(out)
            assert doc["schema"] == "por/error/1" and doc["error"]["id"] == "usage.options"
        else:
            lines = [line for line in err.splitlines() if not line.startswith(("usage:", " "))]
            assert len(lines) == 1 and "--prompt-spec-hash" in lines[0], err


@pytest.mark.parametrize("spelling", [HASH, HASH.upper(), "0x" + HASH])
def test_a_well_formed_hash_is_taken_in_any_spelling(capsys: pytest.CaptureFixture[str],
                                                     spelling: str) -> None:
    code, out, _err = run(capsys, "chain", "finalize", "m", "--prompt-spec-hash", spelling,
                          "--json")
    assert code == 0
    call = json.loads(out)["calldata"]
    assert call["market_key"] == "0x" + _independent_key("m", bytes.fromhex(HASH)).hex()


def _lie(tmp_path: Path) -> tuple[Bundle, Path]:
    """Issue 22's lie (citations out of order) and its won CitationProof, as a file."""
    import sys

    from chain_support import ROOT

    sys.path.insert(0, str(ROOT / "tests" / "unit" / "challenge"))
    from citation_support import reordered_08

    from por.challenge import build_citation_proof, citation_faults

    lie, _ = reordered_08((1, 0, 2))
    path = tmp_path / "citation.cbor"
    path.write_bytes(build_citation_proof(lie, citation_faults(lie)[0]).to_cbor())
    return lie, path


def test_the_hash_of_another_bundle_strikes_nothing(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path, chain: Chain) -> None:
    """A lie proposed under its key; the CLI given another bundle's PromptSpec hash prints
    a settle on another key (it cannot tell: exit 0), which the registry refuses
    (UnknownMarket); the right hash's key holds the lie."""
    from chain_support import register_bundle

    from por.schemas import DeterministicVerdict

    lie, proof = _lie(tmp_path)
    key = register_bundle(chain, lie.to_cbor())
    text = DeterministicVerdict.from_cbor(lie.verdict).market_id
    other = Bundle.from_cbor(BUNDLE.read_bytes()).commitments.prompt_spec_hash
    code, out, _err = run(capsys, "chain", "settle", str(proof), "--market", text,
                          "--prompt-spec-hash", other.hex(), "--json")
    assert code == 0
    call = json.loads(out)["calldata"]
    wrong = bytes.fromhex(call["market_key"][2:])
    assert wrong == _independent_key(text, other) != key
    chain.commit_proof(wrong, proof.read_bytes(), "0x" + "ad" * 20)
    error = reverts(chain, bytes.fromhex(call["data_hex"][2:]))
    assert (error.name, error.args_) == ("UnknownMarket", (wrong,))
    assert chain.call("verdicts", key)[7] == 1  # the lie stands until the right key's settle
    assert call_data("settleByProof", key, proof.read_bytes())[:4] == bytes.fromhex(
        call["data_hex"][2:10])


def test_settle_and_commit_print_the_bytes_spec_states(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    """§14.4-§14.5 recomputed without por.chain: settle's data is settleByProof(key, proof)
    and its id keccak256(abi.encode(key, keccak256(proof))); commit's commitment is
    keccak256(abi.encode(key, keccak256(proof), sender)), its data commitProof(commitment)."""
    from por.schemas import DeterministicVerdict

    lie, path = _lie(tmp_path)
    proof = path.read_bytes()
    text = DeterministicVerdict.from_cbor(lie.verdict).market_id
    spec = lie.commitments.prompt_spec_hash
    key = _independent_key(text, spec)
    market = ["--market", text, "--prompt-spec-hash", spec.hex(), "--json"]
    code, out, _err = run(capsys, "chain", "settle", str(path), *market)
    assert code == 0
    call = json.loads(out)["calldata"]
    settle = keccak256(b"settleByProof(bytes32,bytes)")[:4] + abi_encode(["bytes32", "bytes"],
                                                                          [key, proof])
    assert call["data_hex"] == "0x" + settle.hex()
    assert call["challenge_id_hex"] == "0x" + keccak256(abi_encode(
        ["bytes32", "bytes32"], [key, keccak256(proof)])).hex()
    sender = "0x" + "11" * 20
    code, out, _err = run(capsys, "chain", "commit", str(path), *market, "--sender", sender)
    assert code == 0
    call = json.loads(out)["calldata"]
    commitment = keccak256(abi_encode(["bytes32", "bytes32", "address"],
                                      [key, keccak256(proof), sender]))
    assert call["commitment_hex"] == "0x" + commitment.hex()
    assert call["data_hex"] == "0x" + (keccak256(b"commitProof(bytes32)")[:4] + commitment).hex()
