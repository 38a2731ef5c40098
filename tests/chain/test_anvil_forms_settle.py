"""Issue 24 item 7 on a real node: a lying bundle of each class on chain forms (a check
chunk, an aggregate, a deduce step, the verdict's mapping) is struck by
``settleByForms`` in one transaction, its FormStepProof sent as ``por chain settle``
prints it, with the bonds paid to the wei (SPEC §14.4, §14.8 "Routing forms").

On the same market after the strike, the honest bundle re-proposed (round 1): its own
FormStepProof reverts ``ProofNotWon(match)``, the lie's (won, against the struck root)
``ProofPorRoot``; before the strike, a copy of the winning call sent by an account that
did not commit reverts ``ProofNotCommitted`` (``_strike_and_pay``).

The proof is the one ``por verify --challenges`` writes for the lie (a FormStepProof,
SPEC §10.1), checked by ``por chain settle`` with Python's executors on forms first.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anvil_node import ANVIL, Node, anvil, deploy
from chain_support import CHAIN_ID, PROPOSER_BOND, bundle_proposal, call_data
from eth_abi.abi import decode as abi_decode
from forms_route_support import LIES, WON, honest_market, kind_hash, lie, proof_of
from forms_route_support import call_data as forms_call_data
from setup_gate import needs
from test_anvil_games import _strike_and_pay
from test_chain_settle import market_of

from por.chain.calldata import form_step_args, proof_commitment
from por.challenge.records import FormStepProof, proof_from_cbor
from por.cli import main

pytestmark = needs("anvil-npm", None if ANVIL.exists() else "anvil is not installed")


@pytest.fixture
def node() -> Iterator[Node]:
    with anvil() as started:
        yield started


def _cli(args: list[str]) -> tuple[int, dict[str, Any]]:
    with contextlib.redirect_stdout(io.StringIO()) as printed, \
            contextlib.redirect_stderr(io.StringIO()):
        code = main([*args, "--json"])
    return code, (json.loads(printed.getvalue())["calldata"] if code == 0 else {})


def _proof_file(kind: str, bundle: Any, path: Path) -> Path:
    """The proof ``por verify --challenges`` writes for the lie: one file, a FormStepProof
    of ``kind`` (SPEC §10.1: the first candidate for these four classes)."""
    (path / "bundle.cbor").write_bytes(bundle.to_cbor())
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["verify", str(path / "bundle.cbor"), "--challenges", str(path / "out")])
    assert code == 1, kind
    written = sorted((path / "out").glob("*.cbor"))
    assert len(written) == 1, written
    proof = proof_from_cbor(written[0].read_bytes())
    assert isinstance(proof, FormStepProof) and proof.kind == kind, proof
    assert proof == proof_of(kind, forms_call_data(kind, bundle))  # the builders' call data
    return written[0]


@pytest.mark.parametrize("kind", sorted(LIES))
def test_a_lie_on_forms_is_struck_by_settle_by_forms(node: Node, tmp_path: Path,
                                                     kind: str) -> None:
    bundle = lie(kind)
    market_text = market_of(bundle)
    proof = _proof_file(kind, bundle, tmp_path)
    code, call = _cli(["chain", "settle", str(proof), *market_text])
    assert code == 0, kind
    assert call["function"] == "settleByForms(bytes32,bytes32,bytes)"
    assert (call["won"], call["kind"], call["kind_hex"]) == (
        WON[kind], kind, "0x" + kind_hash(kind).hex())
    settle = bytes.fromhex(str(call["data_hex"])[2:])
    market, hashed_kind, args = abi_decode(["bytes32", "bytes32", "bytes"], settle[4:])
    hashed = hashed_kind + args
    registry, accounts = deploy(node)
    oracle, honest, other = accounts[1], accounts[2], accounts[3]
    market_id, propose = bundle_proposal(bundle.to_cbor(), CHAIN_ID, bytes.fromhex(registry[2:]))
    assert market_id == market
    # `por chain commit` commits to kind || args, as settleByForms hashes
    code, commit = _cli(["chain", "commit", str(proof), *market_text,
                         "--sender", honest])
    assert code == 0
    assert commit["commitment_hex"] == "0x" + proof_commitment(
        market, hashed, bytes.fromhex(honest[2:])).hex()
    assert commit["challenge_id_hex"] == call["challenge_id_hex"]
    start = {a: node.balance(a) for a in (oracle, honest, other)}
    fees = dict.fromkeys(start, 0)
    fees[oracle] += node.send(oracle, registry, propose, PROPOSER_BOND)["fee"]
    _strike_and_pay(node, registry, market, settle, players=(oracle, honest, other),
                    start=start, fees=fees, hashed=hashed)
    # the honest bundle re-proposed: its own proof is lost, the lie's is another root's
    _, again = bundle_proposal(honest_market().to_cbor(), CHAIN_ID, bytes.fromhex(registry[2:]),
                               nonce=1)
    node.send(oracle, registry, again, PROPOSER_BOND)
    data = forms_call_data(kind, honest_market())
    fair_kind, fair_args = form_step_args(proof_of(kind, data))
    for args_, name in ((fair_args, "ProofNotWon"), (args, "ProofPorRoot")):
        node.send(honest, registry, call_data("commitProof", proof_commitment(
            market, fair_kind + args_, bytes.fromhex(honest[2:]))))
        settle_again = call_data("settleByForms", market, fair_kind, args_)
        assert node.revert_name(honest, registry, settle_again) == name, kind
