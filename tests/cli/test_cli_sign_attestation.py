"""``por sign`` (verify, then append a signature) and ``por attestation`` (what a
contract call needs), plus help text and light imports of the new commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_signing_support import (
    T0,
    WEEK,
    failed_ids,
    keygen,
    run,
    signature_record,
    struct_of,
    verify_json,
    with_signature_fields,
)
from run_support import HEAVY, por_env

from por.cli import main

ROOT = Path(__file__).resolve().parents[2]
NEW_COMMANDS = ("keygen", "sign", "attestation")


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, tuple[str, str]]:
    return {s: keygen(tmp_path, f"{s}.key", s) for s in ("secp256k1", "ed25519")}


def _sign(capsys: pytest.CaptureFixture[str], src: str, out: Path, key: str,
          *extra: str) -> tuple[int, str, str]:
    return run(capsys, "sign", src, "--key", key, "--now", str(T0), "-o", str(out), *extra)


# --- por sign ---------------------------------------------------------------------

def test_sign_equals_the_library_with_the_documented_defaults(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], valid: str,
        keys: dict[str, tuple[str, str]]) -> None:
    from por.bundle import sign_bundle
    from por.signing import Eip712Domain
    from por.signing.keyfiles import load_private_key_file

    out = tmp_path / "signed.cbor"
    code, text, err = _sign(capsys, valid, out, keys["secp256k1"][0])
    assert (code, err) == (0, "")
    key = load_private_key_file(keys["secp256k1"][0])
    expected = sign_bundle(Path(valid).read_bytes(), key,
                           Eip712Domain(chain_id=1, verifying_contract=bytes(20)),
                           issued_at=T0, expires_at=T0 + WEEK, nonce=0)
    assert out.read_bytes() == expected
    from por.signing.display import checksum_address

    signer = checksum_address(signature_record(expected).signer)  # 0x + EIP-55
    assert text == (f"signed {out}: 1 signature; signed by {signer} (secp256k1-eip712), "
                    f"chain 1, contract unbound, valid {T0}..{T0 + WEEK}, nonce 0\n")


def test_sign_appends_and_both_signers_verify(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str], valid: str,
                                              keys: dict[str, tuple[str, str]]) -> None:
    path = tmp_path / "b.cbor"
    path.write_bytes(Path(valid).read_bytes())
    assert _sign(capsys, str(path), path, keys["secp256k1"][0], "--force")[0] == 0  # in place
    code, out, _ = _sign(capsys, str(path), path, keys["ed25519"][0], "--force", "--json",
                         "--chain-id", "8453", "--nonce", "9", "--ttl", "60")
    assert code == 0
    document = json.loads(out)
    assert document["schema"] == "por/sign-report/1"
    assert {k: document[k] for k in ("scheme", "chain_id", "nonce", "issued_at",
                                     "expires_at", "unbound", "signature_count")} == {
        "scheme": "ed25519-eip712", "chain_id": "8453", "nonce": "9", "issued_at": str(T0),
        "expires_at": str(T0 + 60), "unbound": True, "signature_count": 2}
    data = path.read_bytes()
    records = [signature_record(data, i) for i in (0, 1)]
    # Kept in increasing signer order, whatever the signing order (SPEC §17).
    assert records[0].signer < records[1].signer
    assert {r.scheme for r in records} == {"secp256k1-eip712", "ed25519-eip712"}
    ed25519 = next(r for r in records if r.scheme == "ed25519-eip712")
    assert document["signer_hex"] == ed25519.signer.hex()
    code, report = verify_json(capsys, "--now", str(T0), "--require-signature",
                               "--key", keys["secp256k1"][1], "--key", keys["ed25519"][1],
                               str(path))
    assert (code, failed_ids(report)) == (0, [])
    oks = [c["id"] for c in report["results"][0]["checks"] if c["id"].startswith("signature")]
    assert oks == ["signature.ok", "signature.ok"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "b.cbor", "ed25519.key", "ed25519.key.pub", "secp256k1.key", "secp256k1.key.pub",
        "valid.cbor"]  # no temporary file left behind


@pytest.mark.parametrize("case", [
    ("tampered_path", 1, "commit.evidence_root"),
    ("garbage", 1, "codec.reserved"),
    ("unsupported", 2, "manifest.unsupported_auditor_version"),
    ("missing", 2, "io.unreadable"),
], ids=lambda case: case[0])
def test_sign_refuses_what_does_not_verify(request: pytest.FixtureRequest, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str],
                                           keys: dict[str, tuple[str, str]],
                                           case: tuple[str, int, str]) -> None:
    fixture, code, check_id = case
    src = request.getfixturevalue(fixture)
    out = tmp_path / "signed.cbor"
    got, stdout, err = _sign(capsys, src, out, keys["secp256k1"][0])
    assert (got, stdout) == (code, "")
    assert err.startswith(f"por: {check_id}: {src}")
    assert err.count("\n") == 1
    assert not out.exists()


def test_sign_refuses_a_bundle_with_a_bad_signature(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    valid: str,
                                                    keys: dict[str, tuple[str, str]]) -> None:
    once = tmp_path / "once.cbor"
    assert _sign(capsys, valid, once, keys["secp256k1"][0])[0] == 0
    bad = tmp_path / "bad.cbor"
    sig = signature_record(once.read_bytes()).signature
    bad.write_bytes(with_signature_fields(once.read_bytes(), signature=sig[:64] + b"\x1d"))
    code, _, err = _sign(capsys, str(bad), tmp_path / "o.cbor", keys["ed25519"][0])
    assert code == 1
    assert err.startswith(f"por: signature.bad_v: {bad}: does not verify: ")
    # An existing good signature that expired at --now is set aside (issue 10,
    # finding 6): an archived bundle can be signed again.
    code, _, err = run(capsys, "sign", str(once), "--key", keys["ed25519"][0],
                       "--now", str(T0 + WEEK), "--ttl", "60", "-o", str(tmp_path / "o.cbor"))
    assert code == 0, err


def test_sign_to_stdout(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                        valid: str, keys: dict[str, tuple[str, str]]) -> None:
    import io

    sink = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(sink))
    assert main(["sign", valid, "--key", keys["ed25519"][0], "--now", str(T0),
                 "-o", "-"]) == 0
    sys.stdout.flush()
    assert signature_record(sink.getvalue()).issued_at == T0
    assert capsys.readouterr().err.startswith("signed -: 1 signature; signed by ")


# --- por attestation --------------------------------------------------------------

def test_attestation_matches_por_signing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         valid: str, keys: dict[str, tuple[str, str]]) -> None:
    from por.signing import domain_separator, signing_digest, struct_hash, type_hash
    from por.signing.record import domain_from_signature
    from por.signing.secp256k1 import split_signature

    out = tmp_path / "s.cbor"
    assert _sign(capsys, valid, out, keys["secp256k1"][0], "--chain-id", "8453")[0] == 0
    data = out.read_bytes()
    code, text, _ = run(capsys, "attestation", "--json", "--now", str(T0), str(out))
    assert code == 0
    document = json.loads(text)
    assert (document["schema"], document["index"], document["signature_count"]) == (
        "por/attestation/1", 0, 1)
    att = document["attestation"]
    record, struct = signature_record(data), struct_of(data)
    domain = domain_from_signature(record)
    r, s, v = split_signature(record.signature)
    digest = signing_digest(struct, domain)
    assert att["digest_hex"] == "0x" + digest.hex()
    assert att["type_hash_hex"] == ("0x73f39bfc9bf85863eef7d7591044c382389052307f3dd48c"
                                    "52555f030079180f")  # SPEC §8.1
    assert att["type_hash_hex"] == "0x" + type_hash().hex()
    assert att["domain_separator_hex"] == "0x" + domain_separator(domain).hex()
    assert att["struct_hash_hex"] == "0x" + struct_hash(struct).hex()
    assert (att["r_hex"], att["s_hex"], att["v"]) == (
        "0x" + r.to_bytes(32, "big").hex(), "0x" + s.to_bytes(32, "big").hex(), v)
    assert att["r_hex"][2:] + att["s_hex"][2:] + f"{att['v']:02x}" == record.signature.hex()
    assert att["signer_hex"] == "0x" + record.signer.hex()
    message = att["typed_data"]["message"]
    assert (message["porRoot"], message["issuedAt"], message["nonce"]) == (
        "0x" + struct.por_root.hex(), str(T0), "0")  # uint64 as decimal strings (SPEC §8.8)
    assert att["typed_data"]["domain"]["chainId"] == "8453"
    # Cross-check with eth-account: the same digest, and ecrecover gives the signer.
    from eth_account import Account
    from eth_account.messages import encode_typed_data

    signable = encode_typed_data(full_message=att["typed_data"])
    assert Account._recover_hash(digest, vrs=(v, r, s)).lower() == att["signer_hex"]
    assert Account.recover_message(signable, vrs=(v, r, s)).lower() == att["signer_hex"]


def test_attestation_text(tmp_path: Path, capsys: pytest.CaptureFixture[str], valid: str,
                          keys: dict[str, tuple[str, str]]) -> None:
    out = tmp_path / "s.cbor"
    assert _sign(capsys, valid, out, keys["ed25519"][0])[0] == 0
    assert _sign(capsys, str(out), out, keys["secp256k1"][0], "--force", "--contract",
                 "0x5fbdb2315678afecb367f032d93f642f64180aa3")[0] == 0
    # Signatures are kept in signer order (SPEC §17): find each scheme's index.
    data = out.read_bytes()
    index = {signature_record(data, i).scheme: i for i in (0, 1)}
    ed, secp = index["ed25519-eip712"], index["secp256k1-eip712"]
    code, text, _ = run(capsys, "attestation", "--index", str(ed), "--now", str(T0), str(out))
    lines = text.splitlines()
    assert code == 0
    assert lines[0] == (f"attestation {out}: signature {ed} of 2 (ed25519-eip712); "
                        f"bundle verified at {T0}")
    assert "  verifyingContract 0x0000000000000000000000000000000000000000 (unbound)" in lines
    assert "  outcome         1  (YES)" in lines
    assert not any(line.startswith("v ") for line in lines)  # Ed25519: no r, s, v
    code, text, _ = run(capsys, "attestation", "--index", str(secp), "--now", str(T0),
                        str(out))
    lines = text.splitlines()
    sig = signature_record(data, secp).signature
    assert "  verifyingContract 0x5fbdb2315678afecb367f032d93f642f64180aa3" in lines
    assert f"r                 0x{sig[:32].hex()}" in lines
    assert f"s                 0x{sig[32:64].hex()}" in lines
    assert f"v                 {sig[64]}" in lines
    assert lines[-1].startswith("contract call     ecrecover(digest, v, r, s) == signer")


def test_attestation_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], valid: str,
                            tampered_path: str, keys: dict[str, tuple[str, str]]) -> None:
    code, out, err = run(capsys, "attestation", valid)
    assert (code, out) == (1, "")
    assert err == "por: signature.missing: the bundle carries no signature\n"
    code, out, _ = run(capsys, "attestation", "--json", valid)
    assert (code, json.loads(out)["error"]["id"]) == (1, "signature.missing")
    signed = tmp_path / "s.cbor"
    assert _sign(capsys, valid, signed, keys["secp256k1"][0])[0] == 0
    for index in ("1", "-1"):
        code, _, err = run(capsys, "attestation", "--index", index, "--now", str(T0),
                           str(signed))
        assert (code, err.split(": ")[1]) == (2, "usage.index")
    code, _, err = run(capsys, "attestation", "--now", str(T0 + WEEK), str(signed))
    assert (code, err.split(": ")[1]) == (1, "signature.expired")
    code, _, err = run(capsys, "attestation", tampered_path)
    assert (code, err.split(": ")[1]) == (1, "commit.evidence_root")
    twin = tmp_path / "twin.cbor"
    sig = signature_record(signed.read_bytes()).signature
    twin.write_bytes(with_signature_fields(signed.read_bytes(), signature=sig[:64] + b"\x1d"))
    code, _, err = run(capsys, "attestation", "--now", str(T0), str(twin))
    assert (code, err.split(": ")[1]) == (1, "signature.bad_v")


# --- help and light imports -------------------------------------------------------

@pytest.mark.parametrize("command", NEW_COMMANDS)
def test_help_ends_with_examples_and_exit_codes(capsys: pytest.CaptureFixture[str],
                                                command: str) -> None:
    assert main([command, "--help"]) == 0
    text = capsys.readouterr().out
    assert f"examples:\n  por {command} " in text
    tail = text[text.index("exit codes:\n"):]
    assert [line[:4] for line in tail.splitlines() if line[2:3].isdigit()] == [
        "  0 ", "  1 ", "  2 "]
    assert text.rstrip().endswith(tail.rstrip())


@pytest.mark.parametrize("command", ["build", "sign", "verify"])
def test_help_documents_signing_defaults(capsys: pytest.CaptureFixture[str],
                                         command: str) -> None:
    assert main([command, "--help"]) == 0
    text = capsys.readouterr().out
    assert "--now UNIX" in text
    if command != "verify":
        assert "(default 1, Ethereum mainnet)" in text
        assert '"unbound"' in text
        assert "(default 604800, 7 days)" in text


def test_new_commands_help_stays_light() -> None:
    argvs = [[c, "--help"] for c in NEW_COMMANDS]
    code = (
        "import sys\n"
        "from por.cli import main\n"
        f"for argv in {argvs!r}:\n"
        "    assert main(argv) == 0\n"
        f"heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "assert heavy == [], heavy\n"
        "assert 'verifier' not in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=por_env(), check=False)
    assert proc.returncode == 0, proc.stderr
