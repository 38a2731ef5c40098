"""``por chain settle|commit|finalize --bundle BUNDLE`` (SPEC §14.5): the market id and
the PromptSpec hash read from the bundle give the calldata that ``--market TEXT
--prompt-spec-hash HEX`` gives; a proof about another verdict than the bundle's, a file
that is not a bundle, and options that say the market twice or not at all each fail
with one line and a stable id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from chain_support import DEMO_BUNDLES, ROOT
from run_support import run_cli as run

from por.chain.bundle_market import bundle_market
from por.cli import main
from por.cli.common import DEFAULT_MAX_SIZE
from por.cli.inspect import Decoded

LIE = ROOT / "fixtures" / "bundles" / "invalid" / "form.mismatch" / "step-form-hash-rehashed.cbor"
OTHER = DEMO_BUNDLES / "08-quorum-agree.cbor"
SENDER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"


def document(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


@pytest.fixture(scope="module")
def proof(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The FormProof ``por verify --challenges`` writes for the lying bundle."""
    out = tmp_path_factory.mktemp("challenges")
    assert main(["verify", str(LIE), "--challenges", str(out)]) == 1
    (written,) = sorted(out.glob("*.cbor"))
    return written


def by_hand(bundle: Path) -> tuple[str, ...]:
    market = bundle_market(bundle.read_bytes(), max_size=DEFAULT_MAX_SIZE)
    return ("--market", market.market, "--prompt-spec-hash", market.prompt_spec_hash.hex())


@pytest.mark.parametrize("bundle", sorted(DEMO_BUNDLES.glob("*.cbor"))[:12], ids=lambda p: p.name)
def test_the_bundle_names_its_signed_market(bundle: Path) -> None:
    """The market id text is the verdict's (the one signed) and the PromptSpec's; the hash
    and root are the committed ones `por inspect` prints."""
    data = bundle.read_bytes()
    market = bundle_market(data, max_size=DEFAULT_MAX_SIZE)
    decoded = Decoded(data, DEFAULT_MAX_SIZE)
    assert market.market == decoded.verdict.market_id == decoded.spec.market.market_id
    assert market.prompt_spec_hash == decoded.bundle.commitments.prompt_spec_hash
    assert market.por_root == decoded.bundle.commitments.por_root


def test_bundle_gives_the_calldata_of_the_market_options(capsys: pytest.CaptureFixture[str],
                                                         proof: Path) -> None:
    for call in (("settle", str(proof)), ("commit", str(proof), "--sender", SENDER)):
        with_bundle = document(capsys, "chain", *call, "--bundle", str(LIE))
        assert with_bundle == document(capsys, "chain", *call, *by_hand(LIE))
        assert with_bundle["calldata"]["market"] == "acme-r3-ships-2026-04"
    finalize = document(capsys, "chain", "finalize", "--bundle", str(OTHER))
    market, _, spec_hash = by_hand(OTHER)[1:]
    assert finalize == document(capsys, "chain", "finalize", market, "--prompt-spec-hash",
                                spec_hash)


def test_a_proof_about_another_verdict_is_refused(capsys: pytest.CaptureFixture[str],
                                                  proof: Path) -> None:
    """The contract would revert ProofPorRoot: exit 1, both roots named."""
    for call in (("settle", str(proof)), ("commit", str(proof), "--sender", SENDER)):
        code, out, err = run(capsys, "chain", *call, "--bundle", str(OTHER), "--json")
        assert code == 1 and err.startswith("por: proof.por_root: ") and err.count("\n") == 1
        error = json.loads(out)["error"]
        other_root = bundle_market(OTHER.read_bytes(), max_size=DEFAULT_MAX_SIZE).por_root
        lie_root = bundle_market(LIE.read_bytes(), max_size=DEFAULT_MAX_SIZE).por_root
        assert (error["id"], error["required"], error["found"]) == (
            "proof.por_root", "0x" + other_root.hex(), "0x" + lie_root.hex())


def test_the_market_said_twice_or_not_at_all(capsys: pytest.CaptureFixture[str],
                                             proof: Path, tmp_path: Path) -> None:
    market, _, spec_hash = by_hand(LIE)[1:]
    cases = [
        (("settle", str(proof)), 2, "usage.options"),
        (("settle", str(proof), "--market", market), 2, "usage.options"),
        (("settle", str(proof), "--bundle", str(LIE), "--market", market), 2, "usage.options"),
        (("commit", str(proof), "--sender", SENDER, "--bundle", str(LIE),
          "--prompt-spec-hash", spec_hash), 2, "usage.options"),
        (("finalize",), 2, "usage.options"),
        (("finalize", market, "--bundle", str(LIE)), 2, "usage.options"),
        (("finalize", "--bundle", str(tmp_path / "absent.cbor")), 2, "io.unreadable"),
        (("finalize", "--bundle", str(ROOT / "README.md")), 1, "codec.trailing_bytes"),
        (("settle", str(proof), "--bundle", str(proof)), 1, None),  # a proof is no bundle
    ]
    for argv, exit_code, check_id in cases:
        code, out, err = run(capsys, "chain", *argv)
        assert (code, out) == (exit_code, ""), argv
        assert err.count("\n") == 1 and "Traceback" not in err, argv
        if check_id is not None:
            assert err.startswith(f"por: {check_id}: "), (argv, err)
        if "--bundle" in argv and exit_code == 1:
            assert "--bundle " in err, err
