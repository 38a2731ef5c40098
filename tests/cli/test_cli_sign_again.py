"""Issue 26 item 5 / SPEC §8.10: signing a signed bundle again with the same key.

A bundle holds one signature per signer, so the same key cannot add a second
signature for another chain.  Before: ``por sign`` failed with
``bundle.signature_duplicate`` ("bundle not valid", exit 1), as if the input were
bad.  Now: ``usage.already_signed`` (exit 2) names the signature that is there
and the way out; ``--replace`` replaces it and says so; another key's signature is
kept either way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_signing_support import T0, build_argv, keygen, run, signature_record

from por.bundle import Bundle

SCENARIO = "01-boolean-observed"


@pytest.fixture
def signed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str, str]:
    key, _ = keygen(tmp_path, "a.key", "secp256k1")
    other, _ = keygen(tmp_path, "b.key", "ed25519")
    bundle = tmp_path / "signed.cbor"
    assert run(capsys, *build_argv(SCENARIO, bundle, "--key", key, "--chain-id", "1",
                                   "--now", str(T0)))[0] == 0
    assert run(capsys, "sign", str(bundle), "--key", other, "--now", str(T0), "-o",
               str(bundle), "--force")[0] == 0
    return bundle, key, other


def test_same_key_again_is_refused_with_what_to_do(
        signed: tuple[Path, str, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    bundle, key, _ = signed
    out = tmp_path / "again.cbor"
    code, stdout, err = run(capsys, "sign", str(bundle), "--key", key, "--chain-id", "8453",
                            "--now", str(T0), "-o", str(out))
    assert (code, stdout) == (2, ""), err
    assert err.startswith(f"por: usage.already_signed: {bundle}: this key already signed by 0x")
    assert "chain 1," in err and "--replace" in err
    assert "bundle.signature_duplicate" not in err and not out.exists()


def test_replace_swaps_that_signature_and_keeps_the_others(
        signed: tuple[Path, str, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    bundle, key, _ = signed
    before = Bundle.from_cbor(bundle.read_bytes()).signatures
    out = tmp_path / "again.cbor"
    code, stdout, err = run(capsys, "sign", str(bundle), "--key", key, "--chain-id", "8453",
                            "--now", str(T0), "--replace", "-o", str(out), "--json")
    assert code == 0, err
    assert json.loads(stdout)["replaced"] is True
    assert json.loads(stdout)["signature_count"] == 2
    assert err.startswith("replaced the signature this key made earlier: signed by 0x")
    after = Bundle.from_cbor(out.read_bytes()).signatures
    assert len(after) == 2 and len(set(after) & set(before)) == 1  # the other key's kept
    records = [signature_record(out.read_bytes(), i) for i in range(2)]
    assert {(r.scheme, r.chain_id) for r in records} == {("secp256k1-eip712", 8453),
                                                         ("ed25519-eip712", 1)}
    assert run(capsys, "verify", "--now", str(T0), str(out))[0] == 0


def test_a_first_signature_is_not_a_replacement(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    key, _ = keygen(tmp_path, "a.key", "secp256k1")
    bundle = tmp_path / "b.cbor"
    assert run(capsys, *build_argv(SCENARIO, bundle))[0] == 0
    code, stdout, err = run(capsys, "sign", str(bundle), "--key", key, "--now", str(T0),
                            "--replace", "-o", str(tmp_path / "s.cbor"), "--json")
    assert code == 0, err
    assert json.loads(stdout)["replaced"] is False and "replaced" not in err
