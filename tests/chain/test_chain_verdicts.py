"""``PorVerdictRegistry.submitVerdict`` in a real EVM (revm): every scenario's
verdict, signed by ``por sign``, is accepted and stored exactly as ``por
attestation`` shows it; every bad signature reverts with the error named after
its por check id (SPEC §14.3); the contract and por agree on every digest.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from chain_support import (
    ADMIN,
    CHAIN_ID,
    MARKETS,
    RESOLVER,
    T0,
    TEST_ONLY_SECRET,
    TEST_ONLY_STRANGER,
    WINDOW,
    Chain,
    address_of,
    key_of,
    por,
    raw_digest,
    remember_path,
    reverts,
    submit_data,
    write_key,
)
from eth_abi import decode
from hypothesis import given
from hypothesis import strategies as st

from por.chain import selector
from por.signing.eip712 import VERDICT_MEMBERS, Eip712Domain, VerdictStruct, signing_digest
from por.signing.secp256k1 import HALF_N, N, sign_digest

SCENARIOS = sorted(p.name for p in MARKETS.iterdir() if p.is_dir())
SIGNER = address_of(TEST_ONLY_SECRET)
STRANGER = address_of(TEST_ONLY_STRANGER)
WEEK = 7 * 24 * 3600
#: SPEC §14.6 target for proposeVerdict's execution gas (issue 24: <= 90 000).
SUBMIT_GAS_TARGET = 90_000


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("keys")
    return {"signer": write_key(folder, "test-only-signer.key", TEST_ONLY_SECRET),
            "stranger": write_key(folder, "test-only-stranger.key", TEST_ONLY_STRANGER)}


def chain_with_signer() -> Chain:
    return Chain(signers=("0x" + SIGNER.hex(),))


def signed_bundle(folder: Path, scenario: str, key: str, chain: Chain, *, nonce: int = 0,
                  chain_id: int = CHAIN_ID, contract: str | None = None,
                  now: int = T0) -> str:
    """``por build`` then ``por sign`` for a scenario; the signed bundle's path."""
    bundle, signed = folder / f"{scenario}.cbor", folder / f"{scenario}.signed-{nonce}.cbor"
    if not bundle.exists():
        por("build", "--prompt-spec", str(MARKETS / scenario / "prompt_spec.json"),
            "--evidence", str(MARKETS / scenario / "evidence.json"), "-o", str(bundle))
    por("sign", str(bundle), "--key", key, "--chain-id", str(chain_id),
        "--contract", contract or chain.address, "--now", str(now), "--nonce", str(nonce),
        "-o", str(signed), "--force")  # one name per nonce: parameters re-sign it
    return str(signed)


def attestation(signed: str, now: int = T0) -> dict[str, Any]:
    from por.bundle import Bundle

    document: dict[str, Any] = json.loads(
        por("attestation", "--json", "--calldata", "--now", str(now), signed))
    remember_path(Bundle.from_cbor(Path(signed).read_bytes()).commitments)
    return document


def words_of(message: dict[str, Any]) -> tuple[Any, ...]:
    """The Verdict tuple from the EIP-712 JSON message of ``por attestation``
    (uint64 values are decimal strings there, SPEC §8.8)."""
    return tuple(bytes.fromhex(message[member][2:]) if kind == "bytes32" else int(message[member])
                 for _name, member, kind in VERDICT_MEMBERS)


def calldata(document: dict[str, Any]) -> bytes:
    return bytes.fromhex(document["calldata"]["data_hex"][2:])


def split(signature: bytes) -> tuple[int, int, int]:
    return int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:64], "big"), \
        signature[64]


def join(r: int, s: int, v: int) -> bytes:
    return r.to_bytes(32, "big") + s.to_bytes(32, "big") + bytes([v])


# --- every scenario is accepted ---------------------------------------------------------


@pytest.mark.parametrize(("index", "scenario"), list(enumerate(SCENARIOS)))
def test_por_signed_verdict_is_accepted_and_stored(tmp_path: Path, keys: dict[str, str],
                                                   index: int, scenario: str) -> None:
    del index
    chain = chain_with_signer()
    nonce = 0  # the market's first round
    document = attestation(signed_bundle(tmp_path, scenario, keys["signer"], chain,
                                         nonce=nonce))
    att, call = document["attestation"], document["calldata"]
    assert call["to_hex"] == chain.address and call["chain_id"] == str(CHAIN_ID)
    message = att["typed_data"]["message"]
    words = words_of(message)
    # The contract's digest is por's digest.
    assert chain.call("verdictDigest", words) == bytes.fromhex(att["digest_hex"][2:])
    assert chain.call("domainSeparator") == bytes.fromhex(att["domain_separator_hex"][2:])
    assert chain.call("VERDICT_TYPEHASH") == bytes.fromhex(att["type_hash_hex"][2:])

    chain.set_time(T0 + 60)
    outcome = chain.send(calldata(document))
    assert outcome.execution_gas <= SUBMIT_GAS_TARGET

    key = key_of(words)  # keccak256(abi.encode(marketId, promptSpecHash)), SPEC §14.2
    assert call["market_key"] == "0x" + key.hex()
    assert chain.call("marketKeyOf", words[0], words[3]) == key
    stored = chain.call("verdicts", key)
    deadline = T0 + 60 + WINDOW
    assert stored == (words[8], int(message["evidenceCount"]), int(message["reasoningCount"]),
                      message["outcome"], message["confidenceBps"], 0, 0, 1, ADMIN, deadline)
    assert chain.call("isFinal", key) is False  # proposed, inside its window
    assert chain.call("verdicts", words[0])[7] == 0  # nothing under the bare marketId

    [(topics, data)] = outcome.logs
    assert topics[1] == key
    assert topics[2][12:] == SIGNER
    assert topics[3][12:] == bytes.fromhex(ADMIN[2:])  # the proposer, who bonded
    assert decode(["bytes32", "bytes32", "bytes32", "uint8", "uint16", "uint32", "uint64"],
                  data) == (words[0], words[3], words[8], message["outcome"],
                            message["confidenceBps"], nonce, deadline)


def test_every_scenario_in_one_registry_in_any_relay_order(
        tmp_path: Path, keys: dict[str, str]) -> None:
    """Issue 24 item 4: nonces are per market (its round), so a relayer holding a
    signer's verdicts cannot censor later ones by relaying out of order."""
    chain = chain_with_signer()
    chain.set_time(T0 + 1)
    for scenario in reversed(SCENARIOS):
        chain.send(calldata(attestation(signed_bundle(tmp_path, scenario, keys["signer"],
                                                      chain, nonce=0))))


# --- rejections ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, keys: dict[str, str]) -> dict[str, Any]:
    """Scenario 01 signed for a fresh registry at nonce 0; its words and signature."""
    folder = tmp_path_factory.mktemp("base")
    chain = chain_with_signer()
    document = attestation(signed_bundle(folder, SCENARIOS[0], keys["signer"], chain, nonce=0))
    return {"folder": folder, "address": chain.address, "document": document,
            "words": words_of(document["attestation"]["typed_data"]["message"]),
            "signature": bytes.fromhex(document["attestation"]["signature_hex"][2:])}


def fresh(base: dict[str, Any], time: int = T0 + 60) -> Chain:
    chain = chain_with_signer()
    assert chain.address == base["address"]  # same deployer, same nonce: same address
    chain.set_time(time)
    return chain


def test_the_base_case_is_accepted(base: dict[str, Any]) -> None:
    fresh(base).send(submit_data(base["words"], SIGNER, base["signature"]))


def test_high_s_twin_reverts_signature_high_s(base: dict[str, Any]) -> None:
    r, s, v = split(base["signature"])
    assert s <= HALF_N
    twin = join(r, N - s, 55 - v)  # the same key's other valid signature (v 27 <-> 28)
    chain = fresh(base)
    # The bare ecrecover precompile accepts the twin: only the contract's check refuses it.
    digest = chain.call("verdictDigest", base["words"])
    ecrecover = digest + (55 - v).to_bytes(32, "big") + twin[:64]
    assert chain.send(ecrecover, to="0x" + "00" * 19 + "01").output[12:] == SIGNER
    error = reverts(chain, submit_data(base["words"], SIGNER, twin))
    assert error.name == "SignatureHighS"
    assert error.args_ == ((N - s).to_bytes(32, "big"),)


@pytest.mark.parametrize("v", [0, 1, 29, 255])
def test_bad_v_reverts_signature_bad_v(base: dict[str, Any], v: int) -> None:
    r, s, _v = split(base["signature"])
    error = reverts(fresh(base), submit_data(base["words"], SIGNER, join(r, s, v)))
    assert (error.name, error.args_) == ("SignatureBadV", (v,))


@pytest.mark.parametrize("signature", [
    pytest.param(b"\x01" * 64, id="64-bytes"),
    pytest.param(b"\x01" * 65 + b"\x1b", id="66-bytes"),
    pytest.param(b"", id="empty"),
    pytest.param(join(0, 1, 27), id="r-zero"),
    pytest.param(join(N, 1, 27), id="r-n"),
    pytest.param(join(1, 0, 27), id="s-zero"),
    pytest.param(join(1, N, 27), id="s-n"),
])
def test_malformed_signature_reverts_signature_malformed(base: dict[str, Any],
                                                         signature: bytes) -> None:
    error = reverts(fresh(base), submit_data(base["words"], SIGNER, signature))
    assert error.name == "SignatureMalformed"


@pytest.mark.parametrize(("option", "value"), [("--chain-id", "1"), ("--chain-id", "31338"),
                                               ("--contract", "0x" + "5f" * 20)])
def test_wrong_domain_reverts_signature_invalid(base: dict[str, Any], keys: dict[str, str],
                                                option: str, value: str) -> None:
    chain = fresh(base)
    kwargs: dict[str, Any] = ({"chain_id": int(value)} if option == "--chain-id"
                              else {"contract": value})
    signed = signed_bundle(base["folder"], SCENARIOS[1], keys["signer"], chain, nonce=9,
                           **kwargs)
    document = attestation(signed)
    words = words_of(document["attestation"]["typed_data"]["message"])
    signature = bytes.fromhex(document["attestation"]["signature_hex"][2:])
    error = reverts(chain, submit_data(words, SIGNER, signature))
    assert error.name == "SignatureInvalid"
    assert error.args_[0] == "0x" + SIGNER.hex()
    assert error.args_[1] != error.args_[0]


def test_signature_over_another_verdict_reverts_signature_invalid(base: dict[str, Any]) -> None:
    words = list(base["words"])
    words[5] += 1  # evidenceCount: not what was signed
    error = reverts(fresh(base), submit_data(tuple(words), SIGNER, base["signature"]))
    assert error.name == "SignatureInvalid"


def test_zero_signer_reverts_signature_zero_signer(base: dict[str, Any]) -> None:
    # x = 5 is not on secp256k1 (5^3 + 7 is not a square mod p): ecrecover returns 0,
    # which a naive `recovered == signer` would accept for signer 0.
    garbage = join(5, 1, 27)
    chain = fresh(base)
    error = reverts(chain, submit_data(base["words"], bytes(20), garbage))
    assert error.name == "SignatureZeroSigner"
    error = reverts(chain, submit_data(base["words"], SIGNER, garbage))
    assert error.name == "SignatureInvalid"
    assert error.args_ == ("0x" + SIGNER.hex(), "0x" + "00" * 20)


def test_unknown_signer_reverts_unknown_signer(base: dict[str, Any], keys: dict[str, str]) -> None:
    chain = fresh(base)
    document = attestation(signed_bundle(base["folder"], SCENARIOS[2], keys["stranger"], chain))
    error = reverts(chain, calldata(document))
    assert (error.name, error.args_) == ("UnknownSigner", ("0x" + STRANGER.hex(),))


def test_removed_signer_reverts_unknown_signer(base: dict[str, Any]) -> None:
    chain = fresh(base)
    chain.call("removeSigner", "0x" + SIGNER.hex())
    assert chain.call("isSigner", "0x" + SIGNER.hex()) is False
    error = reverts(chain, submit_data(base["words"], SIGNER, base["signature"]))
    assert error.name == "UnknownSigner"
    chain.call("addSigner", "0x" + SIGNER.hex())
    chain.send(submit_data(base["words"], SIGNER, base["signature"]))


def test_expired_and_not_yet_valid(base: dict[str, Any]) -> None:
    data = submit_data(base["words"], SIGNER, base["signature"])
    issued, expires = base["words"][9], base["words"][10]
    assert expires == issued + WEEK
    for time in (expires, expires + 1, 2**63):
        error = reverts(fresh(base, time), data)
        assert (error.name, error.args_) == ("Expired", (expires, time))
    for time in (issued - 1, 0):
        error = reverts(fresh(base, time), data)
        assert (error.name, error.args_) == ("NotYetValid", (issued, time))
    fresh(base, issued).send(data)  # valid from issuedAt
    fresh(base, expires - 1).send(data)  # ...while now < expiresAt


def test_replays_and_other_rounds_revert(base: dict[str, Any], keys: dict[str, str]) -> None:
    chain = fresh(base)
    data = submit_data(base["words"], SIGNER, base["signature"])
    chain.send(data)
    error = reverts(chain, data)  # the same signature again
    assert (error.name, error.args_) == ("VerdictExists", (key_of(base["words"]),))
    market = None
    for nonce in (1, 5):  # another market, a round it has not reached
        document = attestation(signed_bundle(base["folder"], SCENARIOS[3], keys["signer"],
                                             chain, nonce=nonce))
        error = reverts(chain, calldata(document))
        market = error.args_[0]
        assert (error.name, error.args_[1:]) == ("NonceRound", (nonce, 0))
    document = attestation(signed_bundle(base["folder"], SCENARIOS[3], keys["signer"],
                                         chain, nonce=0))
    chain.send(calldata(document))
    assert chain.call("verdicts", market)[7] == 1  # Proposed


def test_second_verdict_for_a_market_reverts_verdict_exists(base: dict[str, Any],
                                                            keys: dict[str, str]) -> None:
    chain = fresh(base)
    chain.send(submit_data(base["words"], SIGNER, base["signature"]))
    document = attestation(signed_bundle(base["folder"], SCENARIOS[0], keys["signer"], chain,
                                         nonce=7))
    error = reverts(chain, calldata(document))
    assert (error.name, error.args_) == ("VerdictExists", (key_of(base["words"]),))


@pytest.mark.parametrize(("member", "value", "name"), [
    (1, 0, "OutcomeOutOfRange"), (1, 4, "OutcomeOutOfRange"), (1, 255, "OutcomeOutOfRange"),
    (2, 10_001, "ConfidenceOutOfRange"), (2, 65_535, "ConfidenceOutOfRange"),
    (8, bytes(32), "PorRootZero"),
])
def test_out_of_range_values_revert_even_when_signed(base: dict[str, Any], member: int,
                                                     value: Any, name: str) -> None:
    words = list(base["words"])
    words[member] = value
    chain = fresh(base)
    digest = raw_digest(tuple(words), CHAIN_ID, chain.contract)
    error = reverts(chain, submit_data(tuple(words), SIGNER, sign_digest(TEST_ONLY_SECRET,
                                                                         digest)))
    assert error.name == name


def test_issued_after_expiry_reverts_expired(base: dict[str, Any]) -> None:
    words = list(base["words"])
    words[9], words[10] = T0 + 100, T0 + 50  # signed, but an empty validity period
    chain = fresh(base, T0 + 75)
    digest = raw_digest(tuple(words), CHAIN_ID, chain.contract)
    error = reverts(chain, submit_data(tuple(words), SIGNER, sign_digest(TEST_ONLY_SECRET,
                                                                         digest)))
    assert (error.name, error.args_) == ("Expired", (T0 + 50, T0 + 75))


def test_boundary_values_are_accepted(base: dict[str, Any]) -> None:
    for outcome, confidence in ((3, 10_000), (2, 0)):
        words = list(base["words"])
        words[1], words[2] = outcome, confidence
        chain = fresh(base)
        digest = raw_digest(tuple(words), CHAIN_ID, chain.contract)
        chain.send(submit_data(tuple(words), SIGNER, sign_digest(TEST_ONLY_SECRET, digest)))


def test_only_the_admin_changes_the_signer_set_and_resolver(base: dict[str, Any]) -> None:
    chain = fresh(base)
    for name, arg in (("addSigner", "0x" + STRANGER.hex()), ("removeSigner", "0x" + SIGNER.hex()),
                      ("setResolver", RESOLVER)):
        with pytest.raises(Exception, match="NotAdmin") as caught:
            chain.call(name, arg, sender=RESOLVER)
        assert caught.value.args_ == (RESOLVER,)  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="ZeroAddress"):
        chain.call("addSigner", "0x" + "00" * 20)
    data = selector("addSigner(address)") + bytes(12) + STRANGER
    [(topics, _data)] = chain.send(data).logs
    assert topics[1][12:] == STRANGER
    assert chain.call("isSigner", "0x" + STRANGER.hex()) is True


# --- digests agree ---------------------------------------------------------------------------

_hash = st.binary(min_size=32, max_size=32)
_u64 = st.integers(0, 2**64 - 1)
_verdicts = st.builds(VerdictStruct, market_id=_hash, outcome=st.integers(1, 3),
                      confidence_bps=st.integers(0, 10_000), prompt_spec_hash=_hash,
                      evidence_root=_hash, evidence_count=_u64, reasoning_root=_hash,
                      reasoning_count=_u64, por_root=_hash, issued_at=_u64, expires_at=_u64,
                      nonce=_u64)


@pytest.fixture(scope="module")
def digest_chain() -> Chain:
    return chain_with_signer()


@given(verdict=_verdicts)
def test_contract_digest_equals_por_digest(digest_chain: Chain, verdict: VerdictStruct) -> None:
    domain = Eip712Domain(chain_id=CHAIN_ID, verifying_contract=digest_chain.contract)
    words = tuple(getattr(verdict, name) for name, _m, _k in VERDICT_MEMBERS)
    assert digest_chain.call("verdictDigest", words) == signing_digest(verdict, domain)
