"""``por judge sign`` and ``por judge verify --signature`` in-process (SPEC §15.10):
a round trip with keys made by ``por keygen`` in tmp_path, and each refusal with its
exit code and check id on one stderr line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from cli_signing_support import T0, WEEK, keygen, run

from por.locked_judges.signing import JudgementSignature

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "judges" / "valid"
JUDGEMENT = str(VALID / "por-judge-1.cbor")
OTHER = str(VALID / "llm-retry.cbor")
NOW = str(T0 + 1)
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture()
def keys(tmp_path: Path) -> dict[str, str]:
    key, pub = keygen(tmp_path, "test-only-judge.key", "secp256k1")
    _other, other_pub = keygen(tmp_path, "test-only-other.key", "secp256k1")
    ed_key, _ed_pub = keygen(tmp_path, "test-only-ed.key", "ed25519")
    return {"key": key, "pub": pub, "other_pub": other_pub, "ed": ed_key}


def _sign(capsys: pytest.CaptureFixture[str], keys: dict[str, str], out: Path,
          *extra: str) -> Path:
    code, _out, err = run(capsys, "judge", "sign", JUDGEMENT, "--key", keys["key"],
                          "--at", str(T0), "-o", str(out), *extra)
    assert code == 0, err
    return out


def _failed(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code, out, err = run(capsys, *argv)
    assert out == "" and len(err.strip().splitlines()) == 1, err
    return code, err.split(":")[1].strip()


def test_sign_and_verify_round_trip(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                    keys: dict[str, str]) -> None:
    sig = _sign(capsys, keys, tmp_path / "judgement.sig.cbor", "--chain-id", "31337")
    record = JudgementSignature.from_cbor(sig.read_bytes())
    assert (record.chain_id, record.issued_at, record.expires_at) == (31337, T0, T0 + WEEK)
    again = _sign(capsys, keys, tmp_path / "again.cbor", "--chain-id", "31337")
    assert again.read_bytes() == sig.read_bytes()  # deterministic (RFC 6979)
    code, out, _err = run(capsys, "judge", "verify", JUDGEMENT, "--signature", str(sig),
                          "--key", keys["pub"], "--now", NOW, "--chain-id", "31337")
    assert code == 0 and f"signed by 0x{record.signer.hex()}" in out


def test_refusals(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                  keys: dict[str, str]) -> None:
    sig = str(_sign(capsys, keys, tmp_path / "s.cbor", "--expires-at", str(T0 + 10)))
    verify = ("judge", "verify", JUDGEMENT, "--signature", sig, "--now", NOW)
    assert _failed(capsys, "judge", "verify", OTHER, "--signature", sig, "--now", NOW) == (
        1, "judgement.signature_mismatch")
    assert _failed(capsys, *verify, "--key", keys["other_pub"]) == (
        1, "signature.untrusted_key")
    assert _failed(capsys, *verify[:-1], str(T0 + 10)) == (1, "signature.expired")
    assert _failed(capsys, *verify, "--chain-id", "5") == (1, "signature.chain_id")
    assert _failed(capsys, *verify, "--contract", "0x" + "11" * 20) == (
        1, "signature.contract")
    data = bytearray(Path(sig).read_bytes())
    data[data.index(bytes.fromhex("5841")) + 10] ^= 0x01  # inside r of the 65-byte string
    flipped = tmp_path / "flipped.cbor"
    flipped.write_bytes(bytes(data))
    assert _failed(capsys, "judge", "verify", JUDGEMENT, "--signature", str(flipped),
                   "--now", NOW) == (1, "signature.invalid")
    assert _failed(capsys, "judge", "verify", JUDGEMENT, "--signature", JUDGEMENT,
                   "--now", NOW) == (1, "codec.too_large")
    assert _failed(capsys, "judge", "sign", JUDGEMENT, "--key", keys["ed"], "--at", str(T0),
                   "-o", str(tmp_path / "x.cbor")) == (2, "key.scheme")
    assert _failed(capsys, "judge", "sign", JUDGEMENT, "--key", keys["key"], "--at", str(T0),
                   "--expires-at", str(T0 - 1), "-o", str(tmp_path / "x.cbor"))[0] == 2
    assert _failed(capsys, "judge", "verify", JUDGEMENT, "--key", keys["pub"])[0] == 2
    assert not (tmp_path / "x.cbor").exists()


def test_at_defaults_to_the_wall_clock(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch,
                                       keys: dict[str, str]) -> None:
    """Issue 26: ``judge sign`` needed ``--at`` while ``por sign`` reads the clock; now
    ``--at`` is optional and defaults to the wall clock through the same helper
    (``por.cli.signing_args.wall_clock``), whole seconds, as ``por sign --now``."""
    from por.cli import signing_args

    monkeypatch.setattr(signing_args.time, "time", lambda: T0 + 0.9)
    out = tmp_path / "clock.sig.cbor"
    code, _out, err = run(capsys, "judge", "sign", JUDGEMENT, "--key", keys["key"],
                          "-o", str(out))
    assert code == 0, err
    record = JudgementSignature.from_cbor(out.read_bytes())
    assert (record.issued_at, record.expires_at) == (T0, T0 + WEEK)
    # The same bytes as with --at given: the clock only fills in issued_at.
    assert out.read_bytes() == _sign(capsys, keys, tmp_path / "at.sig.cbor").read_bytes()
    monkeypatch.setattr(signing_args.time, "time", lambda: T0 + 100.0)
    code, _out, err = run(capsys, "judge", "sign", JUDGEMENT, "--key", keys["key"],
                          "--expires-at", str(T0 + 50), "-o", str(tmp_path / "no.cbor"))
    assert (code, err.split(":")[1].strip()) == (2, "usage.options")
    assert f"({T0 + 100}..{2**63 - 1})" in err
