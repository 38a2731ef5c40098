"""Issue 10, finding 6: signatures as users expect (SPEC §6.2 step 8, ADR 0010).

* a verdict signed for two deployments verifies with either ``--chain-id``;
  a good signature for another chain or contract is reported
  (``signature.other_domain``) and set aside;
* an expired good signature is reported (``signature.expired``, a warning)
  and does not make a plain ``por verify`` fail; ``--require-signature`` asks
  for a currently valid trusted signature and fails ``signature.expired``;
* signers print as ``0x`` + EIP-55.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_signing_support import T0, WEEK, build_argv, failed_ids, keygen, run, verify_json

from por.cli import main
from por.scenarios import list_scenarios
from por.signing.display import checksum_address


@pytest.fixture(scope="module")
def two_chains(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """Scenario 01 signed for chain 1 (secp256k1) and chain 8453 (ed25519)."""
    directory = tmp_path_factory.mktemp("two")
    secp, secp_pub = keygen(directory, "a.key", "secp256k1")
    ed, ed_pub = keygen(directory, "b.key", "ed25519")
    one = directory / "one.cbor"
    assert main(build_argv(list_scenarios()[0], one, "--key", secp, "--now", str(T0))) == 0
    both = directory / "both.cbor"
    assert main(["sign", str(one), "--key", ed, "--chain-id", "8453", "--now", str(T0),
                 "-o", str(both)]) == 0
    return both, secp_pub, ed_pub


def test_signed_for_two_chains_verifies_with_either(
        capsys: pytest.CaptureFixture[str], two_chains: tuple[Path, str, str]) -> None:
    both, secp_pub, ed_pub = two_chains
    for chain, key in (("1", secp_pub), ("8453", ed_pub)):
        code, document = verify_json(capsys, "--now", str(T0), "--chain-id", chain,
                                     "--key", key, "--require-signature", str(both))
        assert (code, failed_ids(document)) == (0, []), chain
        ids = [c["id"] for c in document["results"][0]["checks"]]
        assert ids.count("signature.other_domain") == 1 and "signature.ok" in ids
    # A trusted signature exists, but for the other chain: not counted.
    code, document = verify_json(capsys, "--now", str(T0), "--chain-id", "8453",
                                 "--key", secp_pub, "--require-signature", str(both))
    assert (code, failed_ids(document)) == (1, ["signature.chain_id"])
    # No signature at all for chain 10.
    code, document = verify_json(capsys, "--now", str(T0), "--chain-id", "10", str(both))
    assert (code, failed_ids(document)) == (1, ["signature.chain_id"])
    failed = next(c for c in document["results"][0]["checks"] if c["status"] == "failed")
    assert (failed["recomputed"], failed["committed"]) == ("10", "1,8453")


def test_expired_good_signature_is_reported_not_failing(
        capsys: pytest.CaptureFixture[str], two_chains: tuple[Path, str, str]) -> None:
    both, secp_pub, _ = two_chains
    later = str(T0 + WEEK + 1)
    code, document = verify_json(capsys, "--now", later, str(both))
    assert (code, failed_ids(document)) == (0, [])
    expired = [c for c in document["results"][0]["checks"] if c["id"] == "signature.expired"]
    assert len(expired) == 2 and all(c["severity"] == "warn" for c in expired)
    code, document = verify_json(capsys, "--now", later, "--key", secp_pub,
                                 "--require-signature", str(both))
    assert (code, failed_ids(document)) == (1, ["signature.expired"])
    # Not yet valid: the same, with its own id.
    code, document = verify_json(capsys, "--now", str(T0 - 1), str(both))
    assert code == 0
    assert [c["id"] for c in document["results"][0]["checks"]].count(
        "signature.not_yet_valid") == 2


def test_signers_print_as_eip55(capsys: pytest.CaptureFixture[str],
                                two_chains: tuple[Path, str, str]) -> None:
    both, _, _ = two_chains
    code, text, _ = run(capsys, "verify", "-v", "--now", str(T0), str(both))
    assert code == 0
    # Signatures are kept in signer order (SPEC §17.4): find the secp256k1 one.
    signers = [line.split(" by ")[1].split(" ")[0] for line in text.splitlines()
               if re.search(r"signature [0-9]+ by 0x", line)]
    addresses = [s for s in signers if len(s) == 42]
    assert len(signers) == 2 and len(addresses) == 1, text
    address = addresses[0]
    assert address == checksum_address(bytes.fromhex(address[2:]))
    assert address != address.lower()


def test_inspect_shows_one_line_per_signature(capsys: pytest.CaptureFixture[str],
                                              two_chains: tuple[Path, str, str]) -> None:
    both, _, _ = two_chains
    code, text, _ = run(capsys, "inspect", str(both))
    assert code == 0
    lines = [line for line in text.splitlines() if line.startswith("  [") and " signer 0x" in line]
    assert len(lines) == 2
    # Each line pairs its own scheme and chain; lines follow signer order (SPEC §17.4).
    by_scheme = {line.split()[1]: line for line in lines}
    assert " chain 1 " in by_scheme["secp256k1-eip712"]
    assert " chain 8453 " in by_scheme["ed25519-eip712"]
    signers = [bytes.fromhex(line.split(" signer 0x")[1].split()[0]) for line in lines]
    assert signers == sorted(signers)
    assert [line.split()[0] for line in lines] == ["[0]", "[1]"]
