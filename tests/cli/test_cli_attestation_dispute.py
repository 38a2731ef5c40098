"""Issue 26 item 3: ``por attestation --calldata`` covers every contract call.

Before: ``por attestation --calldata ruling.sig.cbor`` failed
``schema.unknown_schema: expected por.Bundle/2`` and no command wrote the
``submitRuling`` calldata (it was assembled by hand for ``cast``).  Now a signed
ruling gives ``submitRuling`` (with ``--challenger``) and a DisputeCase
``openChallenge``, the same document and text as ``por chain ruling`` / ``por
chain challenge``; a bundle gives ``proposeVerdict`` and a proof
``openChallenge``, as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_signing_support import T0, WEEK, keygen, run

from por.court.eip712 import ruling_struct, sign_ruling
from por.court.verify import verify_court
from por.signing.eip712 import Eip712Domain
from por.signing.keyfiles import load_private_key_file

ROOT = Path(__file__).resolve().parents[2]
RULING = ROOT / "fixtures" / "court" / "valid" / "ruling.cbor"
CASE = str(ROOT / "fixtures" / "court" / "valid" / "case.cbor")
CHALLENGER = "0x" + "c4" * 20


@pytest.fixture()
def ruling_sig(tmp_path: Path) -> str:
    key, _pub = keygen(tmp_path, "court.key", "secp256k1")
    struct = ruling_struct(verify_court(RULING.read_bytes()), issued_at=T0,
                           expires_at=T0 + WEEK)
    record = sign_ruling(struct, load_private_key_file(key).secret,
                         Eip712Domain(chain_id=31337, verifying_contract=bytes([0x11] * 20)))
    path = tmp_path / "ruling.sig.cbor"
    path.write_bytes(record.to_cbor())
    return str(path)


def test_a_signed_ruling_gives_submit_ruling(capsys: pytest.CaptureFixture[str],
                                             ruling_sig: str) -> None:
    for extra in ((), ("--json",)):
        code, out, err = run(capsys, "attestation", "--calldata", *extra, ruling_sig,
                             "--challenger", CHALLENGER)
        assert (code, err) == (0, "")
        assert (code, out) == run(capsys, "chain", "ruling", *extra, ruling_sig,
                                  "--challenger", CHALLENGER)[:2]
    call = json.loads(out)["calldata"]
    assert call["function"].startswith("submitRuling(")
    code, _out, err = run(capsys, "attestation", "--calldata", ruling_sig)
    assert code == 2 and err.startswith("por: usage.options: ") and "--challenger" in err


def test_a_case_gives_open_challenge(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "attestation", "--calldata", "--json", CASE)
    assert code == 0
    assert out == run(capsys, "chain", "challenge", "--json", CASE)[1]
    assert json.loads(out)["calldata"]["function"].startswith("openChallenge(")


def test_challenger_goes_with_a_dispute_document(capsys: pytest.CaptureFixture[str],
                                                 valid: str) -> None:
    code, _out, err = run(capsys, "attestation", valid, "--challenger", CHALLENGER)
    assert code == 2 and err.startswith("por: usage.options: --challenger goes with")
