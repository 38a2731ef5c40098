"""``por keygen`` and key file errors of ``build``/``sign``/``verify`` (SPEC §8.7):
modes, no overwrite, one line ``por: key.<id>: ...`` and exit 2."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from cli_signing_support import T0, build_argv, keygen, run

from por.cli import main

SCENARIO = "01-boolean-observed"


@pytest.mark.parametrize(("scheme", "signer_len"), [("secp256k1", 20), ("ed25519", 32)])
def test_keygen_writes_both_files(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  scheme: str, signer_len: int) -> None:
    from por.signing import public_key_from_private_key
    from por.signing.display import signer_text
    from por.signing.keyfiles import load_private_key_file, load_public_key_file

    key = tmp_path / "signer.key"
    code, out, err = run(capsys, "keygen", "--scheme", scheme, "-o", str(key),
                         "--comment", "ci")
    assert (code, err) == (0, "")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    pub = tmp_path / "signer.key.pub"
    assert stat.S_IMODE(pub.stat().st_mode) == 0o644
    private = load_private_key_file(key, expected_scheme=scheme)  # type: ignore[arg-type]
    public = load_public_key_file(pub, expected_scheme=scheme)  # type: ignore[arg-type]
    assert public_key_from_private_key(private) == public
    signer = public.signer
    assert len(signer) == signer_len
    kind = "address" if scheme == "secp256k1" else "public key"
    assert out.splitlines() == [
        f"wrote {key} (private key, mode 0600: keep it secret)",
        f"wrote {pub} (public key: por verify --key {pub})",
        f"signer {signer_text(scheme + '-eip712', signer)} ({scheme} {kind})",
    ]
    assert json.loads(pub.read_text())["comment"] == "ci"
    # Issue 26: the .pub names the address as keygen prints it (0x, EIP-55).
    assert json.loads(pub.read_text()).get("address") == (
        signer_text(scheme + "-eip712", signer) if scheme == "secp256k1" else None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["signer.key", "signer.key.pub"]


def test_keygen_default_scheme_and_json(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from por.signing.keyfiles import load_public_key_file

    key = tmp_path / "k"
    code, out, _ = run(capsys, "keygen", "--json", "-o", str(key))
    assert code == 0
    document = json.loads(out)
    public = load_public_key_file(str(key) + ".pub")
    assert document == {"schema": "por/keygen/1", "scheme": "secp256k1",
                        "private_key_file": str(key), "public_key_file": f"{key}.pub",
                        "signer_hex": public.signer.hex()}
    assert json.loads(Path(f"{key}.pub").read_text())["address_hex"] == public.signer.hex()


def test_two_keys_differ(tmp_path: Path) -> None:
    a = keygen(tmp_path, "a", "ed25519")
    b = keygen(tmp_path, "b", "ed25519")
    assert Path(a[0]).read_bytes() != Path(b[0]).read_bytes()


@pytest.mark.parametrize("existing", ["k", "k.pub"])
def test_keygen_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 existing: str) -> None:
    (tmp_path / existing).write_bytes(b"precious")
    code, out, err = run(capsys, "keygen", "-o", str(tmp_path / "k"))
    assert (code, out) == (2, "")
    assert err == f"por: key.exists: {tmp_path / existing} already exists\n"
    # Untouched, and no private key left behind without its .pub.
    assert [p.name for p in tmp_path.iterdir()] == [existing]
    assert (tmp_path / existing).read_bytes() == b"precious"


def test_keygen_json_error_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keygen(tmp_path, "k", "secp256k1")
    code, out, _ = run(capsys, "keygen", "--json", "-o", str(tmp_path / "k"))
    assert code == 2
    assert json.loads(out)["error"]["id"] == "key.exists"


def test_keygen_refuses_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "keygen", "-o", "-")
    assert (code, out) == (2, "")
    assert err.startswith("por: usage.options: keygen writes files")
    assert not Path("-").exists()


def test_keygen_unwritable_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "keygen", "-o", str(tmp_path / "no" / "k"))
    assert code == 2
    assert err.startswith("por: key.unwritable: cannot create ")


# --- key errors in build, sign and verify -------------------------------------------

@pytest.mark.parametrize("command", ["build", "sign"])
def test_group_readable_private_key_is_refused(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               valid: str, command: str) -> None:
    key, _ = keygen(tmp_path, "k", "secp256k1")
    os.chmod(key, 0o644)
    out = tmp_path / "out.cbor"
    argv = (build_argv(SCENARIO, out, "--key", key) if command == "build"
            else ["sign", valid, "--key", key, "-o", str(out)])
    code, stdout, err = run(capsys, *argv)
    assert (code, stdout) == (2, "")
    assert err == (f"por: key.permissions: {key} is accessible by group or others; run: "
                   f"chmod 600 {key} (expected 0o600, actual 0o644)\n")
    assert not out.exists()
    os.chmod(key, 0o600)
    assert run(capsys, *argv)[0] == 0
    assert out.exists()


@pytest.mark.parametrize("command", ["build", "sign"])
def test_public_key_as_signing_key(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   valid: str, command: str) -> None:
    _, pub = keygen(tmp_path, "k", "ed25519")
    os.chmod(pub, 0o600)  # so that the format, not the mode, is what fails
    out = tmp_path / "out.cbor"
    argv = (build_argv(SCENARIO, out, "--key", pub) if command == "build"
            else ["sign", valid, "--key", pub, "-o", str(out)])
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith(f"por: key.format: {pub} is a public key file; signing needs the "
                          "private key file")
    assert not out.exists()


def test_missing_key_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.key"
    code, _, err = run(capsys, *build_argv(SCENARIO, tmp_path / "o.cbor", "--key",
                                           str(missing)))
    assert code == 2
    assert err.startswith(f"por: key.unreadable: cannot open {missing}")


def test_verify_key_errors_are_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      valid: str) -> None:
    key, pub = keygen(tmp_path, "k", "secp256k1")
    code, out, err = run(capsys, "verify", "--key", key, valid)  # a private key file
    assert (code, out) == (2, "")
    assert err.startswith("por: key.format: expected schema por.PublicKey/1 "
                          "(this is a private key file)")
    assert err.count("\n") == 1
    bad_scheme = tmp_path / "bad.pub"
    bad_scheme.write_text(Path(pub).read_text().replace('"secp256k1"', '"rsa"'))
    code, out, _ = run(capsys, "verify", "--json", "--key", str(bad_scheme), valid)
    assert code == 2
    assert json.loads(out)["error"]["id"] == "key.scheme"
    code, _, err = run(capsys, "verify", "--key", str(tmp_path / "missing.pub"), valid)
    assert code == 2
    assert err.startswith("por: key.unreadable: ")


def test_public_key_file_mode_does_not_matter(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    key, pub = keygen(tmp_path, "k", "secp256k1")
    out = tmp_path / "b.cbor"
    assert run(capsys, *build_argv(SCENARIO, out, "--key", key, "--now", str(T0)))[0] == 0
    os.chmod(pub, 0o666)  # noqa: S103 - public: anyone may read it
    assert main(["verify", "-q", "--now", str(T0), "--key", pub, "--require-signature",
                 str(out)]) == 0


def test_expiry_past_uint64_is_a_usage_error(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    key, _ = keygen(tmp_path, "k", "secp256k1")
    out = tmp_path / "b.cbor"
    code, _, err = run(capsys, *build_argv(SCENARIO, out, "--key", key, "--now",
                                           str(2**64 - 10), "--ttl", "10"))
    assert code == 2
    assert err.startswith("por: usage.options: --now 18446744073709551606 plus --ttl 10 ")
    assert not out.exists()
    assert run(capsys, *build_argv(SCENARIO, out, "--key", key, "--now",
                                   str(2**64 - 11), "--ttl", "10"))[0] == 0


@pytest.mark.parametrize("argv", [["--ttl", "0"], ["--nonce", "-1"], ["--now", "x"],
                                  ["--chain-id", str(2**64)]])
def test_integer_options_are_validated(capsys: pytest.CaptureFixture[str],
                                       argv: list[str]) -> None:
    code, _, err = run(capsys, *build_argv(SCENARIO, "x.cbor", "--key", "k", *argv))
    assert code == 2
    assert f"argument {argv[0]}: " in err


def test_public_key_with_its_usual_mode_is_named_not_chmod_advice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], valid: str) -> None:
    # Issue 10, trap: `por sign --key X.pub` advised `chmod 600` on a public key.
    _, pub = keygen(tmp_path, "k", "secp256k1")
    os.chmod(pub, 0o644)
    code, _, err = run(capsys, "sign", valid, "--key", pub, "-o", str(tmp_path / "o.cbor"))
    assert code == 2
    assert err.startswith(f"por: key.format: {pub} is a public key file; ")
    assert "chmod" not in err
