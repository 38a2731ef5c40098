"""Issue 24 on a real node, the FormProof (SPEC §10.2.8; ADR 0017 s42 ``fpsplit``, s43
``psfamily``): a bundle whose COMMON, REQUIREMENT, EXTRACT, CHUNK, AGGREGATE, CONTRADICTIONS,
DEDUCE, MAP or VERDICT form leaf alone lies (its leaf hash replaced, every
commitment recomputed, so everything else is consistent) is struck on anvil by
``settleByForms(marketId, keccak256("form:form"), file)`` in one transaction, the
``por.FormProof/1`` file being the one ``por verify --challenges`` writes and the call
the one ``por chain settle`` prints, with the bonds paid to the wei.

On the same market after the strike, the honest bundle re-proposed (round 1): its own
FormProof of the same form reverts ``ProofNotWon(form.match)``, the lie's (won, against
another root: the struck one) ``ProofPorRoot``. Every family is on chain since s43 (the
PromptSpec's, tags 1 and 2, ``PorFormFamilyPrompt``); ``NoFamily`` and ``por chain settle``'s
exit 2 for a family off chain are tested without a node
(``test_forms_formproof_prompt.py``).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anvil_node import ANVIL, Node, RpcError, anvil, deploy
from bundle_edits import honest, recommit, steps_of
from chain_support import CHAIN_ID, PROPOSER_BOND, bundle_proposal, call_data
from eth_abi.abi import decode as abi_decode
from setup_gate import needs
from test_anvil_games import _strike_and_pay
from test_chain_settle import market_of

from por.bundle.layout import Bundle
from por.chain.calldata import proof_commitment
from por.challenge.form_proof import build_form_proof
from por.challenge.records import FormProof, proof_from_cbor
from por.cli import main
from por.signing.eip712 import keccak256

pytestmark = needs("anvil-npm", None if ANVIL.exists() else "anvil is not installed")
MARKET = "08-quorum-agree"
KIND = keccak256(b"form:form")


@pytest.fixture
def node() -> Iterator[Node]:
    with anvil() as started:
        yield started


def _cli(args: list[str]) -> tuple[int, dict[str, Any], str]:
    with contextlib.redirect_stdout(io.StringIO()) as printed, \
            contextlib.redirect_stderr(io.StringIO()) as err:
        code = main([*args, "--json"])
    out = json.loads(printed.getvalue())["calldata"] if code == 0 else {}
    return code, out, err.getvalue()


def form_index(bundle: Bundle, family: str) -> int:
    """The forms index of the family's first record in ``bundle``."""
    if family == "verdict":
        return len(bundle.forms) - 1
    if family in ("common", "requirement"):
        return 0 if family == "common" else 1
    return len(bundle.forms) - len(bundle.steps) - 1 + steps_of(bundle, family)[0]


def lie(family: str) -> Bundle:
    """The honest market with the family's first form leaf replaced (``form.mismatch``)."""
    bundle = honest(MARKET)
    forms = list(bundle.forms)
    j = form_index(bundle, family)
    forms[j] = hashlib.sha256(forms[j]).digest()
    return recommit(bundle, forms=forms)


def _written(bundle: Bundle, path: Path) -> Path:
    """The one proof ``por verify --challenges`` writes: a FormProof."""
    (path / "bundle.cbor").write_bytes(bundle.to_cbor())
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["verify", str(path / "bundle.cbor"), "--challenges", str(path / "out")])
    assert code == 1
    written = sorted((path / "out").glob("*.cbor"))
    assert len(written) == 1, written
    assert isinstance(proof_from_cbor(written[0].read_bytes()), FormProof)
    return written[0]


def _revert_data(node: Node, sender: str, to: str, data: bytes) -> bytes:
    """The raw revert data of the call (eth_call)."""
    try:
        node.rpc("eth_call", {"from": sender, "to": to, "data": "0x" + data.hex()}, "latest")
    except RpcError as exc:
        raw = exc.error.get("data")
        raw = raw.get("data") if isinstance(raw, dict) else raw
        return bytes.fromhex(str(raw)[2:])
    raise AssertionError("the call did not revert")


def _selector(signature: str) -> bytes:
    return keccak256(signature.encode())[:4]


@pytest.mark.parametrize("family", ["common", "requirement", "extract_claims",
                                    "check_requirement", "aggregate", "contradictions",
                                    "deduce", "map", "verdict"])
def test_a_lied_form_leaf_is_struck_by_its_form_proof(node: Node, tmp_path: Path,
                                                      family: str) -> None:
    bundle = lie(family)
    market_text = market_of(bundle)
    proof = _written(bundle, tmp_path)
    code, call, _ = _cli(["chain", "settle", str(proof), *market_text])
    assert code == 0, family
    assert call["function"] == "settleByForms(bytes32,bytes32,bytes)"
    assert (call["won"], call["kind"], call["kind_hex"]) == (
        "form.mismatch", "form", "0x" + KIND.hex())
    settle = bytes.fromhex(str(call["data_hex"])[2:])
    market, kind, args = abi_decode(["bytes32", "bytes32", "bytes"], settle[4:])
    assert (kind, args) == (KIND, proof.read_bytes())  # the file's exact bytes
    registry, accounts = deploy(node)
    oracle, finder, other = accounts[1], accounts[2], accounts[3]
    market_id, propose = bundle_proposal(bundle.to_cbor(), CHAIN_ID, bytes.fromhex(registry[2:]))
    assert market_id == market
    code, commit, _ = _cli(["chain", "commit", str(proof), *market_text,
                            "--sender", finder])
    assert code == 0
    assert commit["commitment_hex"] == "0x" + proof_commitment(
        market, kind + args, bytes.fromhex(finder[2:])).hex()
    start = {a: node.balance(a) for a in (oracle, finder, other)}
    fees = dict.fromkeys(start, 0)
    fees[oracle] += node.send(oracle, registry, propose, PROPOSER_BOND)["fee"]
    _strike_and_pay(node, registry, market, settle, players=(oracle, finder, other),
                    start=start, fees=fees, hashed=kind + args)
    # the honest bundle re-proposed (round 1): its FormProof is lost, the lie's is of
    # another por_root
    fair = honest(MARKET)
    _, again = bundle_proposal(fair.to_cbor(), CHAIN_ID, bytes.fromhex(registry[2:]), nonce=1)
    node.send(oracle, registry, again, PROPOSER_BOND)
    fair_proof = build_form_proof(fair, form_index(fair, family)).to_cbor()
    cases = (
        (fair_proof, _selector("ProofNotWon(bytes32)") + keccak256(b"form.match")),
        (args, _selector("ProofPorRoot(bytes32,bytes32)")),
    )
    for file, want in cases:
        node.send(finder, registry, call_data("commitProof", proof_commitment(
            market, KIND + file, bytes.fromhex(finder[2:]))))
        got = _revert_data(node, finder, registry, call_data("settleByForms", market, KIND, file))
        assert got[:len(want)] == want, (family, got.hex())
