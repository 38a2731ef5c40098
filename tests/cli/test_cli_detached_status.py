"""Issue 26 item 2 for detached signatures: ``por judge verify --signature`` and
``por court verify --signature`` print a gpg-like status line (good, the signer
in EIP-55, trusted / "not certified") and put it in ``--json``; without a good
signature by a given key they exit 1; a broken period is broken, not another
domain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_signing_support import T0, WEEK, keygen, run

from por.court.eip712 import RulingSignature, ruling_struct, sign_ruling
from por.court.verify import verify_court
from por.encoding import decode, encode
from por.locked_judges.signing import JudgementSignature
from por.signing.display import checksum_address
from por.signing.eip712 import Eip712Domain
from por.signing.keyfiles import load_private_key_file

ROOT = Path(__file__).resolve().parents[2]
JUDGEMENT = str(ROOT / "fixtures" / "judges" / "valid" / "por-judge-1.cbor")
RULING = ROOT / "fixtures" / "court" / "valid" / "ruling.cbor"
CONTRACT = "0x" + "11" * 20


@pytest.fixture()
def keys(tmp_path: Path) -> dict[str, str]:
    key, pub = keygen(tmp_path, "k.key", "secp256k1")
    _other, other_pub = keygen(tmp_path, "o.key", "secp256k1")
    return {"key": key, "pub": pub, "other_pub": other_pub}


def _judge_sig(capsys: pytest.CaptureFixture[str], keys: dict[str, str], out: Path,
               *extra: str) -> JudgementSignature:
    code, _, err = run(capsys, "judge", "sign", JUDGEMENT, "--key", keys["key"], "--at",
                       str(T0), "-o", str(out), "--chain-id", "31337", *extra)
    assert code == 0, err
    return JudgementSignature.from_cbor(out.read_bytes())


def test_judge_verify_prints_a_status(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      keys: dict[str, str]) -> None:
    sig = tmp_path / "j.sig.cbor"
    record = _judge_sig(capsys, keys, sig)
    signer = checksum_address(record.signer)
    base = ("judge", "verify", JUDGEMENT, "--signature", str(sig), "--now", str(T0 + 1))
    code, out, _ = run(capsys, *base)
    assert code == 0
    assert out.splitlines()[-1] == (
        f"  signature 0: good by {signer} (secp256k1), not certified (no key given)")
    code, out, _ = run(capsys, *base, "--key", keys["pub"], "--json")
    assert code == 0
    assert json.loads(out)["signatures"] == [
        {"index": 0, "status": "good", "scheme": "secp256k1", "signer": signer,
         "trust": "trusted", "check_id": None, "message": None}]
    code, out, err = run(capsys, *base, "--key", keys["other_pub"])
    assert (code, out) == (1, "")
    assert err.startswith("por: signature.untrusted_key: good signature, signer not trusted "
                          f"by {signer}: ")


def test_judge_verify_broken_period_is_broken(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              keys: dict[str, str]) -> None:
    # Before: with --chain-id another chain this was reported as signature.chain_id.
    sig = tmp_path / "j.sig.cbor"
    _judge_sig(capsys, keys, sig)
    raw = decode(sig.read_bytes())
    raw["issued_at"] = raw["expires_at"] + 1
    broken = tmp_path / "broken.sig.cbor"
    broken.write_bytes(encode(raw))
    code, _, err = run(capsys, "judge", "verify", JUDGEMENT, "--signature", str(broken),
                       "--now", str(T0 + 1), "--chain-id", "1")
    assert code == 1
    assert err.startswith("por: signature.expired: bad signature by ")
    assert "issued after it expires" in err


def _ruling_sig(tmp_path: Path, key: str, *, issued_at: int = T0,
                expires_at: int = T0 + WEEK) -> tuple[Path, str]:
    secret = load_private_key_file(key).secret
    summary = verify_court(RULING.read_bytes())
    record = sign_ruling(ruling_struct(summary, issued_at=issued_at, expires_at=expires_at),
                         secret, Eip712Domain(chain_id=31337,
                                              verifying_contract=bytes.fromhex("11" * 20)))
    path = tmp_path / "ruling.sig.cbor"
    path.write_bytes(record.to_cbor())
    return path, checksum_address(RulingSignature.from_cbor(path.read_bytes()).signer)


def test_court_verify_prints_a_status(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      keys: dict[str, str]) -> None:
    sig, signer = _ruling_sig(tmp_path, keys["key"])
    base = ("court", "verify", str(RULING), "--signature", str(sig))
    code, out, _ = run(capsys, *base)
    assert code == 0
    assert out.splitlines()[-1] == (
        f"  signature 0: good by {signer} (secp256k1), not certified (no key given)")
    code, out, _ = run(capsys, *base, "--key", keys["pub"], "--json")
    assert code == 0
    [status] = json.loads(out)["signatures"]
    assert (status["status"], status["trust"], status["signer"]) == ("good", "trusted", signer)
    code, _, err = run(capsys, *base, "--key", keys["other_pub"])
    assert code == 1
    assert err.startswith("por: signature.untrusted_key: ")
    code, _, err = run(capsys, *base, "--now", str(T0 + WEEK))
    assert code == 1
    assert err.startswith(f"por: signature.expired: expired signature by {signer}: ")


def test_court_verify_broken_period_is_broken(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              keys: dict[str, str]) -> None:
    # A ruling signature issued after it expires is bad whatever --now says.
    sig, signer = _ruling_sig(tmp_path, keys["key"], issued_at=T0 + 10, expires_at=T0)
    for now in ((), ("--now", str(T0 + 5))):
        code, _, err = run(capsys, "court", "verify", str(RULING), "--signature", str(sig),
                           *now)
        assert code == 1
        assert err.startswith(f"por: signature.expired: bad signature by {signer}: ")
        assert "issued after it expires" in err
