"""``por build --key`` and ``por verify --key/--require-signature/--now/--chain-id/
--contract``: the tracker issue's done-when, and every signature check id the
command line can reach (SPEC §8.5-8.6)."""

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
    struct_of,
    verify_json,
    with_signature_fields,
)

from por.cli import main
from por.scenarios import list_scenarios

SCHEMES = ("secp256k1", "ed25519")
SCENARIOS = list_scenarios()
CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
#: The same address in EIP-55 mixed case (EIP-55's own checksum rule).
CONTRACT_EIP55 = "0x5FbDB2315678afecb367f032d93F642f64180aa3"


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    """Two keys per scheme, made by ``por keygen``: ``<scheme>`` and ``<scheme>-other``."""
    directory = tmp_path_factory.mktemp("keys")
    made = {}
    for scheme in SCHEMES:
        made[scheme] = keygen(directory, f"{scheme}.key", scheme)
        made[f"{scheme}-other"] = keygen(directory, f"{scheme}-other.key", scheme)
    return made


@pytest.fixture(scope="module")
def signed_bundle(tmp_path_factory: pytest.TempPathFactory,
                  keys: dict[str, tuple[str, str]]) -> Callable[..., str]:
    """``signed_bundle(scheme, *options)``: path of scenario 01 built with
    ``--key`` and ``--now T0`` plus options (cached per arguments)."""
    directory = tmp_path_factory.mktemp("signed")
    cache: dict[tuple[str, ...], str] = {}

    def make(scheme: str = "secp256k1", *options: str) -> str:
        key = (scheme, *options)
        if key not in cache:
            out = directory / f"b{len(cache)}.cbor"
            with contextlib.redirect_stdout(io.StringIO()) as printed:
                assert main(build_argv(SCENARIOS[0], out, "--key", keys[scheme][0],
                                       "--now", str(T0), *options)) == 0
            assert printed.getvalue().startswith(f"built {out}: ")
            cache[key] = str(out)
        return cache[key]
    return make


# --- done-when: every scenario, both schemes -----------------------------------

@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_signed_by_keygen_key_verifies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        keys: dict[str, tuple[str, str]], scenario: str, scheme: str) -> None:
    out = tmp_path / "bundle.cbor"
    key, pub = keys[scheme]
    code, text, _ = run(capsys, *build_argv(scenario, out, "--key", key))  # wall clock
    assert code == 0
    record = signature_record(out.read_bytes())
    from por.signing.display import signer_text

    shown = signer_text(record.scheme, record.signer)  # 0x + EIP-55 for addresses
    assert f"; signed by {shown} ({scheme}-eip712), chain 1, " in text
    assert record.expires_at - record.issued_at == WEEK

    code, document = verify_json(capsys, "--key", pub, "--require-signature", str(out))
    assert (code, failed_ids(document)) == (0, [])
    [result] = document["results"]
    assert [c["id"] for c in result["checks"]][-1] == "signature.ok"

    other_pub = keys[f"{scheme}-other"][1]
    code, text, _ = run(capsys, "verify", "--key", other_pub, "--require-signature", str(out))
    assert code == 1
    assert text.startswith(f"FAIL {out}: signature.untrusted_key: ")


# --- signature.missing, trust without --require-signature ------------------------

def test_unsigned_bundle_with_require_signature(capsys: pytest.CaptureFixture[str],
                                                valid: str,
                                                keys: dict[str, tuple[str, str]]) -> None:
    assert run(capsys, "verify", valid)[0] == 0
    code, document = verify_json(capsys, "--require-signature", "--key",
                                 keys["secp256k1"][1], valid)
    assert (code, failed_ids(document)) == (1, ["signature.missing"])
    code, text, _ = run(capsys, "verify", "--require-signature", valid)
    assert (code, text.split(": ")[1]) == (1, "signature.missing")


def test_require_signature_without_key_trusts_nothing(
        capsys: pytest.CaptureFixture[str], signed_bundle: Callable[..., str]) -> None:
    path = signed_bundle()
    assert run(capsys, "verify", "--now", str(T0), path)[0] == 0  # valid, but trusted by none
    code, document = verify_json(capsys, "--now", str(T0), "--require-signature", path)
    assert (code, failed_ids(document)) == (1, ["signature.untrusted_key"])


def test_several_keys_one_trusted(capsys: pytest.CaptureFixture[str],
                                  signed_bundle: Callable[..., str],
                                  keys: dict[str, tuple[str, str]]) -> None:
    path = signed_bundle()
    code, _, _ = run(capsys, "verify", "--now", str(T0), "--require-signature",
                     "--key", keys["ed25519"][1], "--key", keys["secp256k1"][1], path)
    assert code == 0


# --- time: --now and its wall-clock default ---------------------------------------

@pytest.mark.parametrize("case", [
    (T0 - 1, 1, "signature.not_yet_valid"),
    (T0, 0, None),
    (T0 + WEEK - 1, 0, None),
    (T0 + WEEK, 1, "signature.expired"),  # valid while now < expires_at (SPEC §8.1)
    (T0 + 10 * WEEK, 1, "signature.expired"),
])
def test_now_against_the_validity_period(capsys: pytest.CaptureFixture[str],
                                         signed_bundle: Callable[..., str],
                                         keys: dict[str, tuple[str, str]],
                                         case: tuple[int, int, str | None]) -> None:
    now, code, check_id = case
    got, document = verify_json(capsys, "--key", keys["secp256k1"][1], "--require-signature",
                                "--now", str(now), signed_bundle())
    assert (got, failed_ids(document)) == (code, [] if check_id is None else [check_id])


def test_now_defaults_to_the_wall_clock(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch,
                                        signed_bundle: Callable[..., str],
                                        keys: dict[str, tuple[str, str]]) -> None:
    from por.cli import signing_args

    path = signed_bundle("secp256k1", "--ttl", "10")
    monkeypatch.setattr(signing_args.time, "time", lambda: T0 + 9.99)
    assert run(capsys, "verify", path)[0] == 0
    monkeypatch.setattr(signing_args.time, "time", lambda: T0 + 10.0)
    # Expired but good: reported and set aside, the bundle still verifies
    # (issue 10, finding 6); --require-signature asks for a current one.
    code, document = verify_json(capsys, path)
    assert code == 0
    expired = [c for c in document["results"][0]["checks"] if c["id"] == "signature.expired"]
    assert len(expired) == 1 and expired[0]["status"] != "failed"
    code, text, _ = run(capsys, "verify", "--require-signature", "--key",
                        keys["secp256k1"][1], path)
    assert (code, text.split(": ")[1]) == (1, "signature.expired")


def test_build_now_defaults_to_the_wall_clock(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch,
                                              keys: dict[str, tuple[str, str]]) -> None:
    from por.cli import signing_args

    monkeypatch.setattr(signing_args.time, "time", lambda: 1_800_000_000.7)
    out = tmp_path / "b.cbor"
    assert run(capsys, *build_argv(SCENARIOS[0], out, "--key", keys["ed25519"][0],
                                   "--ttl", "60", "--nonce", "7"))[0] == 0
    record = signature_record(out.read_bytes())
    assert (record.issued_at, record.expires_at, record.nonce) == (
        1_800_000_000, 1_800_000_060, 7)


# --- domain: --chain-id and --contract --------------------------------------------

def test_chain_id(capsys: pytest.CaptureFixture[str], signed_bundle: Callable[..., str]) -> None:
    default = signed_bundle()
    assert signature_record(Path(default).read_bytes()).chain_id == 1
    assert run(capsys, "verify", "--now", str(T0), "--chain-id", "1", default)[0] == 0
    code, document = verify_json(capsys, "--now", str(T0), "--chain-id", "8453", default)
    assert (code, failed_ids(document)) == (1, ["signature.chain_id"])
    check = next(c for c in document["results"][0]["checks"] if c["status"] == "failed")
    assert (check["recomputed"], check["committed"]) == ("8453", "1")
    base = signed_bundle("secp256k1", "--chain-id", "8453")
    assert run(capsys, "verify", "--now", str(T0), "--chain-id", "8453", base)[0] == 0
    code, text, _ = run(capsys, "verify", "--now", str(T0), "--chain-id", "1", base)
    assert (code, text.split(": ")[1]) == (1, "signature.chain_id")


def test_contract(capsys: pytest.CaptureFixture[str], signed_bundle: Callable[..., str]) -> None:
    unbound = signed_bundle()
    assert signature_record(Path(unbound).read_bytes()).verifying_contract == bytes(20)
    code, document = verify_json(capsys, "--now", str(T0), "--contract", CONTRACT, unbound)
    assert (code, failed_ids(document)) == (1, ["signature.contract"])
    bound = signed_bundle("ed25519", "--contract", CONTRACT_EIP55)
    record = signature_record(Path(bound).read_bytes())
    assert record.verifying_contract == bytes.fromhex(CONTRACT[2:])
    for form in (CONTRACT, CONTRACT_EIP55, CONTRACT.upper().replace("0X", "0x")):
        assert run(capsys, "verify", "--now", str(T0), "--contract", form, bound)[0] == 0
    code, text, _ = run(capsys, "verify", "--now", str(T0), "--contract", "0x" + "00" * 20,
                        bound)
    assert (code, text.split(": ")[1]) == (1, "signature.contract")


@pytest.mark.parametrize(("bad", "reason"), [
    ("5fbdb2315678afecb367f032d93f642f64180aa3", "an address is 0x"),    # no 0x
    ("0x5fbdb2315678afecb367f032d93f642f64180aa", "an address is 0x"),   # 39 digits
    ("0x5fbdb2315678afecb367f032d93f642f64180aa30", "an address is 0x"), # 41 digits
    ("0x5fbdb2315678afecb367f032d93f642f64180aag", "an address is 0x"),  # not hex
    ("0x5FbDB2315678afecb367f032d93F642f64180aA3", "bad EIP-55 checksum"),  # one case flipped
])
@pytest.mark.parametrize("command", ["verify", "build"])
def test_contract_is_validated(capsys: pytest.CaptureFixture[str], command: str,
                               bad: str, reason: str) -> None:
    argv = (["verify", "--contract", bad, "x.cbor"] if command == "verify"
            else build_argv(SCENARIOS[0], "x.cbor", "--key", "k", "--contract", bad))
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert f"argument --contract: {reason}" in err


def test_eip55_known_answers() -> None:
    # The four examples in the EIP-55 text (eips.ethereum.org/EIPS/eip-55).
    from por.cli.signing_args import checksum_address, contract_address

    for address in ("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
                    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
                    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
                    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"):
        raw = bytes.fromhex(address[2:])
        assert checksum_address(raw) == address
        assert contract_address(address) == raw


# --- tampering with the bundle or the signature record ----------------------------

def test_verdict_tampered_after_signing_is_rejected(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        signed_bundle: Callable[..., str], keys: dict[str, tuple[str, str]]) -> None:
    from cli_support import _encode

    from por.bundle import Bundle
    from por.schemas import DeterministicVerdict
    from por.signing import check_signature

    data = Path(signed_bundle()).read_bytes()
    b = Bundle.from_cbor(data)
    verdict = DeterministicVerdict.from_cbor(b.verdict)
    forged = verdict.model_copy(update={"outcome": "NO"}).to_cbor()
    # Every commitment recomputed; the signature record carried over unchanged.
    rebuilt = _encode(b.manifest, b.prompt_spec, list(b.evidence), header=b.trace_header,
                      steps=list(b.steps), verdict=forged, signatures=list(b.signatures))
    path = tmp_path / "forged.cbor"
    path.write_bytes(rebuilt)
    code, document = verify_json(capsys, "--key", keys["secp256k1"][1],
                                 "--require-signature", "--now", str(T0), str(path))
    assert (code, failed_ids(document)) == (1, ["replay.verdict_mismatch"])
    # The replay stops first; the signature would fail on its own as well.
    failures = check_signature(signature_record(rebuilt), struct_of(rebuilt), now=T0)
    assert [f.check_id for f in failures] == ["signature.invalid"]


def _twin(signature: bytes) -> bytes:
    from por.signing.secp256k1 import N

    s = int.from_bytes(signature[32:64], "big")
    return signature[:32] + (N - s).to_bytes(32, "big") + bytes([55 - signature[64]])


def test_high_s_twin_recovers_the_same_signer(signed_bundle: Callable[..., str]) -> None:
    # The twin is a real ECDSA signature by the same key (what ecrecover
    # accepts), so rejecting it is the low-s rule and nothing else.
    import coincurve

    from por.signing import keccak256, signing_digest
    from por.signing.record import domain_from_signature

    data = Path(signed_bundle()).read_bytes()
    record = signature_record(data)
    digest = signing_digest(struct_of(data), domain_from_signature(record))
    twin = _twin(record.signature)
    assert twin != record.signature
    compact = twin[:64] + bytes([twin[64] - 27])
    point = coincurve.PublicKey.from_signature_and_message(compact, digest, hasher=None)
    assert keccak256(point.format(compressed=False)[1:])[-20:] == record.signer


ALTERATIONS = {
    "high_s": "signature.high_s",
    "v29": "signature.bad_v",
    "v0": "signature.bad_v",
    "truncated": "signature.malformed",
    "extended": "signature.malformed",
    "zero_signer": "signature.zero_signer",
    "nonce": "signature.invalid",
}


@pytest.mark.parametrize("case", sorted(ALTERATIONS))
def test_altered_signature_record(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  signed_bundle: Callable[..., str],
                                  keys: dict[str, tuple[str, str]], case: str) -> None:
    check_id = ALTERATIONS[case]
    data = Path(signed_bundle()).read_bytes()
    sig = signature_record(data).signature
    changes = {
        "high_s": {"signature": _twin(sig)},
        "v29": {"signature": sig[:64] + bytes([29])},
        "v0": {"signature": sig[:64] + bytes([0])},
        "truncated": {"signature": sig[:64]},
        "extended": {"signature": sig + b"\x00"},
        "zero_signer": {"signer": bytes(20)},
        "nonce": {"nonce": 1},  # the record's nonce is the signed one: digest differs
    }[case]
    path = tmp_path / "altered.cbor"
    path.write_bytes(with_signature_fields(data, **changes))
    for trust in ([], ["--key", keys["secp256k1"][1], "--require-signature"]):
        code, document = verify_json(capsys, "--now", str(T0), *trust, str(path))
        assert (code, failed_ids(document)) == (1, [check_id])
