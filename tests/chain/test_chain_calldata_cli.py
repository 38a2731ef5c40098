"""``por attestation --calldata`` and ``por chain``: the encoder matches the
contract's ABI, the edges fail closed with one line and a stable id, and nothing
on the verifying path loads the chain stack."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from chain_support import DEMO_BUNDLES, FUNCTIONS, ROOT, T0, TEST_ONLY_SECRET, _signature, por
from run_support import run_cli as run

from por.chain import CHECK_INCLUSION, OPEN_CHALLENGE, PROPOSE_VERDICT
from por.chain.calldata import (
    CLOSE_MOOT,
    COMMIT_PROOF,
    FINALIZE,
    LAPSE,
    SUBMIT_RULING,
    WITHDRAW,
    selector,
)
from por.cli.schema import schema_for
from por.signing.keys import PrivateKey, private_key_to_json

BUNDLE = DEMO_BUNDLES / "01-boolean-observed.cbor"


def test_function_signatures_are_the_contracts() -> None:
    assert {PROPOSE_VERDICT, OPEN_CHALLENGE, CHECK_INCLUSION, SUBMIT_RULING, FINALIZE,
            WITHDRAW, CLOSE_MOOT, COMMIT_PROOF, LAPSE} <= {
        _signature(f) for f in FUNCTIONS.values()}


def _key(folder: Path, scheme: str, label: bytes) -> str:
    path = folder / f"test-only-{scheme}.key"
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(private_key_to_json(PrivateKey(scheme, hashlib.sha256(label).digest())))  # type: ignore[arg-type]
    return str(path)


@pytest.fixture
def signed(tmp_path: Path) -> str:
    key = _key(tmp_path, "secp256k1", b"por test-only secp256k1 key")
    assert hashlib.sha256(b"por test-only secp256k1 key").digest() == TEST_ONLY_SECRET
    out = tmp_path / "signed.cbor"
    por("sign", str(BUNDLE), "--key", key, "--now", str(T0), "--chain-id", "10",
        "--contract", "0x" + "12" * 20, "-o", str(out))
    return str(out)


def test_text_and_json_carry_the_same_calldata(capsys: pytest.CaptureFixture[str],
                                               signed: str) -> None:
    code, text, _err = run(capsys, "attestation", "--calldata", "--now", str(T0), signed)
    assert code == 0
    code, doc, _err = run(capsys, "attestation", "--calldata", "--json", "--now", str(T0), signed)
    call = json.loads(doc)["calldata"]
    assert f"calldata          {call['data_hex']}" in text
    assert call["to_hex"] == "0x" + "12" * 20 and call["chain_id"] == "10"
    assert call["data_hex"].startswith(call["selector_hex"])
    # Without --calldata the document is unchanged.
    code, doc, _err = run(capsys, "attestation", "--json", "--now", str(T0), signed)
    assert "calldata" not in json.loads(doc)


def test_ed25519_signature_is_not_for_the_contract(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    key = _key(tmp_path, "ed25519", b"por test-only ed25519 key")
    out = tmp_path / "ed.cbor"
    por("sign", str(BUNDLE), "--key", key, "--now", str(T0), "-o", str(out))
    code, _out, err = run(capsys, "attestation", "--calldata", "--now", str(T0), str(out))
    assert code == 2
    assert err.startswith("por: chain.scheme: ") and err.count("\n") == 1


def test_unbound_signature_gets_no_calldata(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    key = _key(tmp_path, "secp256k1", b"por test-only secp256k1 key")
    out = tmp_path / "unbound.cbor"
    por("sign", str(BUNDLE), "--key", key, "--now", str(T0), "-o", str(out))
    code, _out, err = run(capsys, "attestation", "--calldata", "--now", str(T0), str(out))
    assert (code, err.split(":")[1].strip()) == (2, "chain.unbound")


def test_proof_edges(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    proof = tmp_path / "p.cbor"
    por("challenge", str(BUNDLE), "--verdict", "-o", str(proof))
    case = ("--prompt-spec-hash", "cd" * 32, "--case-hash", "ab" * 32)
    code, out, _err = run(capsys, "attestation", "--calldata", "--market", "m", *case,
                          str(proof))
    assert code == 0 and "calldata          0x" in out
    code, _out, err = run(capsys, "attestation", "--calldata", "--market", "m", str(proof))
    assert (code, err.split(":")[1].strip()) == (2, "usage.options")
    code, _out, err = run(capsys, "attestation", "--calldata", "--market", "m", *case[:2],
                          "--case-hash", "abc", str(proof))
    assert (code, err.split(":")[1].strip()) == (2, "usage.options")
    code, _out, err = run(capsys, "attestation", "--calldata", "--market", "m", *case[2:],
                          str(proof))  # no --prompt-spec-hash: no market key
    assert (code, err.split(":")[1].strip()) == (2, "usage.options")
    code, _out, err = run(capsys, "attestation", "--calldata", str(proof))
    assert (code, err.split(":")[1].strip()) == (2, "usage.options")
    code, _out, err = run(capsys, "attestation", "--market", "m", str(BUNDLE))
    assert (code, err.split(":")[1].strip()) == (2, "usage.options")
    bundle_proof = tmp_path / "b.cbor"
    por("challenge", str(BUNDLE), "--bundle", "-o", str(bundle_proof))
    code, _out, err = run(capsys, "attestation", "--calldata", "--market", "m", *case,
                          str(bundle_proof))
    assert (code, err.split(":")[1].strip()) == (2, "chain.proof_kind")
    data = bytearray(proof.read_bytes())
    data[-40] ^= 1  # inside the last hash of component_path
    bad = tmp_path / "bad.cbor"
    bad.write_bytes(bytes(data))
    code, _out, err = run(capsys, "attestation", "--calldata", "--market", "m", *case,
                          str(bad))
    assert code == 1 and err.startswith("por: proof.") and err.count("\n") == 1


def test_verifying_never_loads_the_chain_stack(signed: str) -> None:
    code = (
        "import sys\n"
        "from por.cli import main\n"
        f"assert main(['verify', '-q', {str(BUNDLE)!r}]) == 0\n"
        f"assert main(['attestation', '--now', '{T0}', {signed!r}]) == 0\n"
        "loaded = [m for m in ('eth_abi', 'pyrevm', 'por.chain') if m in sys.modules]\n"
        "assert loaded == [], loaded\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_por_chain_prints_the_registry_challenge_id(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    case = tmp_path / "case.cbor"
    por("dispute", "open", str(BUNDLE), "--leaf", "evidence_leaf:0", "--claim", "wrong source",
        "-o", str(case))
    challenger = "0x" + "c4" * 20
    code, text, _err = run(capsys, "chain", "challenge", str(case), "--challenger", challenger)
    assert code == 0 and text.startswith(OPEN_CHALLENGE)
    code, doc, _err = run(capsys, "chain", "challenge", str(case), "--challenger", challenger,
                          "--json")
    call = json.loads(doc)["calldata"]
    assert f"challenge id      {call['challenge_id_hex']}" in text
    assert call["case_hash_hex"] == "0x" + hashlib.sha256(case.read_bytes()).hexdigest()
    assert call["data_hex"].startswith(call["selector_hex"]) and call["leaf_index"] == "0"
    code, doc, _err = run(capsys, "chain", "finalize", "m", "--prompt-spec-hash", "cd" * 32,
                          "--json")
    final = json.loads(doc)["calldata"]
    assert final["data_hex"] == final["selector_hex"] + final["market_key"][2:]
    from por.chain import market_key
    from por.signing.eip712 import market_id_from_text

    assert final["market_key"] == "0x" + market_key(market_id_from_text("m"),
                                                    bytes.fromhex("cd" * 32)).hex()
    code, text, _err = run(capsys, "chain", "withdraw")
    assert code == 0 and text.splitlines()[-1].startswith("calldata          0x3ccfd60b")


def _valid(name: str, document: dict[str, object]) -> None:
    from jsonschema import Draft202012Validator

    errors = [e.message for e in Draft202012Validator(schema_for(name)).iter_errors(document)]
    assert errors == [], errors


def test_every_calldata_document_has_its_schema(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path, signed: str) -> None:
    code, doc, _err = run(capsys, "attestation", "--calldata", "--json", "--now", str(T0), signed)
    _valid("attestation", json.loads(doc))
    case = tmp_path / "case.cbor"
    por("dispute", "open", str(BUNDLE), "--leaf", "verdict", "--claim", "wrong", "-o", str(case))
    challenger = ("--challenger", "0x" + "c4" * 20)
    for argv in (("challenge", str(case)), ("challenge", str(case), *challenger),
                 ("finalize", "m", "--prompt-spec-hash", "cd" * 32), ("withdraw",),
                 ("close-moot", "0x" + "ab" * 32),
                 ("lapse", "0x" + "ab" * 32)):
        code, doc, _err = run(capsys, "chain", *argv, "--json")
        assert code == 0
        _valid("calldata", json.loads(doc))


@pytest.mark.parametrize(("command", "function"), [("close-moot", CLOSE_MOOT),
                                                    ("lapse", LAPSE)])
def test_close_moot_and_lapse_take_one_challenge_id(capsys: pytest.CaptureFixture[str],
                                                    command: str, function: str) -> None:
    code, text, _err = run(capsys, "chain", command, "ab" * 32)
    assert code == 0 and text.splitlines()[-1].endswith("ab" * 32)
    assert text.splitlines()[0] == function
    assert text.splitlines()[-1].split()[-1] == "0x" + (selector(function) + b"\xab" * 32).hex()
    code, _out, err = run(capsys, "chain", command, "0x1234")
    assert (code, err.split(":")[1].strip()) == (2, "usage.options")
