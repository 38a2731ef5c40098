"""Issue 26 item 2: ``por verify`` prints one gpg-like status per signature.

good / bad / expired / not yet valid / other domain, the signer as ``0x`` +
EIP-55 (or the Ed25519 key's hex), and trusted / untrusted / "not certified"
by the given keys, in text and in ``--json``; ``--key`` given and no good
signature by it is exit 1; a broken validity period is reported as broken.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_signing_support import (
    T0,
    WEEK,
    build_argv,
    failed_ids,
    keygen,
    run,
    signature_record,
    verify_json,
    with_signature_fields,
)

from por.cli import main
from por.scenarios import list_scenarios
from por.signing.display import signer_text

SCHEMES = ("secp256k1", "ed25519")


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    directory = tmp_path_factory.mktemp("keys")
    made = {}
    for scheme in SCHEMES:
        made[scheme] = keygen(directory, f"{scheme}.key", scheme)
        made[f"{scheme}-other"] = keygen(directory, f"{scheme}-other.key", scheme)
    return made


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory,
           keys: dict[str, tuple[str, str]]) -> Callable[[str], str]:
    directory = tmp_path_factory.mktemp("signed")
    cache: dict[str, str] = {}

    def make(scheme: str) -> str:
        if scheme not in cache:
            out = directory / f"{scheme}.cbor"
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(build_argv(list_scenarios()[0], out, "--key", keys[scheme][0],
                                       "--now", str(T0))) == 0
            cache[scheme] = str(out)
        return cache[scheme]
    return make


def _shown(path: str) -> tuple[str, str]:
    record = signature_record(Path(path).read_bytes())
    return signer_text(record.scheme, record.signer), record.scheme


@pytest.mark.parametrize("scheme", SCHEMES)
def test_key_of_another_signer_rejects(capsys: pytest.CaptureFixture[str],
                                       signed: Callable[[str], str],
                                       keys: dict[str, tuple[str, str]], scheme: str) -> None:
    # Before: `por verify --key A.pub` printed OK for a bundle B signed.
    path = signed(scheme)
    code, text, _ = run(capsys, "verify", "--now", str(T0), "--key",
                        keys[f"{scheme}-other"][1], path)
    assert code == 1
    assert text.startswith(f"FAIL {path}: signature.untrusted_key: ")
    signer, record_scheme = _shown(path)
    assert f"  signature 0: good by {signer} ({record_scheme}), NOT trusted" in text


def test_key_with_unsigned_bundle_is_missing(capsys: pytest.CaptureFixture[str], valid: str,
                                             keys: dict[str, tuple[str, str]]) -> None:
    code, document = verify_json(capsys, "--key", keys["secp256k1"][1], valid)
    assert (code, failed_ids(document)) == (1, ["signature.missing"])
    assert document["results"][0]["signatures"] == []


@pytest.mark.parametrize("scheme", SCHEMES)
def test_status_line_and_json(capsys: pytest.CaptureFixture[str], signed: Callable[[str], str],
                              keys: dict[str, tuple[str, str]], scheme: str) -> None:
    path = signed(scheme)
    signer, record_scheme = _shown(path)
    assert signer.startswith("0x")
    if scheme == "secp256k1":
        assert signer != signer.lower()  # EIP-55 mixed case
    code, text, _ = run(capsys, "verify", "--now", str(T0), path)
    assert code == 0
    assert text.splitlines() == [
        f"OK {path}",
        f"  signature 0: good by {signer} ({record_scheme}), not certified (no key given)"]
    code, document = verify_json(capsys, "--now", str(T0), "--key", keys[scheme][1], path)
    assert code == 0
    assert document["results"][0]["signatures"] == [
        {"index": 0, "status": "good", "scheme": record_scheme, "signer": signer,
         "trust": "trusted", "check_id": None, "message": None}]


@pytest.mark.parametrize(("now", "status"), [(T0 + WEEK, "expired"),
                                              (T0 - 1, "not_yet_valid")])
def test_out_of_period_status(capsys: pytest.CaptureFixture[str], signed: Callable[[str], str],
                              keys: dict[str, tuple[str, str]], now: int, status: str) -> None:
    path = signed("secp256k1")
    code, document = verify_json(capsys, "--now", str(now), path)
    [sig] = document["results"][0]["signatures"]
    assert (code, sig["status"], sig["trust"]) == (0, status, "not_certified")
    assert sig["check_id"] == f"signature.{status}"
    # With --key the one signature by it is out of its period: rejected.
    code, document = verify_json(capsys, "--now", str(now), "--key", keys["secp256k1"][1], path)
    assert (code, failed_ids(document)) == (1, [f"signature.{status}"])


def test_other_domain_status(capsys: pytest.CaptureFixture[str],
                             signed: Callable[[str], str]) -> None:
    path = signed("secp256k1")
    code, document = verify_json(capsys, "--now", str(T0), "--chain-id", "8453", path)
    [sig] = document["results"][0]["signatures"]
    assert (code, sig["status"], sig["check_id"]) == (1, "other_domain", "signature.chain_id")


@pytest.mark.parametrize("domain", [["--chain-id", "8453"],
                                    ["--contract", "0x" + "11" * 20], []])
def test_broken_period_is_broken_not_other_domain(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], signed: Callable[[str], str],
        domain: list[str]) -> None:
    # Before: with --chain-id / --contract this was signature.chain_id / .contract.
    data = Path(signed("secp256k1")).read_bytes()
    record = signature_record(data)
    path = tmp_path / "broken.cbor"
    path.write_bytes(with_signature_fields(data, issued_at=record.expires_at + 1))
    code, document = verify_json(capsys, "--now", str(T0), *domain, str(path))
    assert (code, failed_ids(document)) == (1, ["signature.expired"])
    [sig] = document["results"][0]["signatures"]
    assert sig["status"] == "bad"
    assert "issued after it expires" in sig["message"]
