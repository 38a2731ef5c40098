"""The s44 attack on a real node (SPEC §14.4 "The outcome proof"): a registered signer
proposes YES over an honest bundle whose committed verdict is NO; ``por chain outcome
BUNDLE --proposal HEX`` reads the proposal's calldata as sent and prints the
``settleByForms(key, keccak256("form:outcome"), args)`` that strikes it in one
transaction, the commitment first (``--sender``), and the proposer's bond goes to the
challenger to the wei (``_strike_and_pay``). The honest proposal of the same bundle, on a
fresh deployment, has no such call: the CLI exits 1 ``chain.proof_not_won`` and the
contract reverts ``ProofNotWon``. The whole settle transaction's gas is under issue 24's
300 000 for a typical settle."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anvil_node import ANVIL, Node, anvil, deploy
from chain_support import CHAIN_ID, DEMO_BUNDLES, PROPOSER_BOND, call_data, key_of, propose_data
from eth_abi.abi import decode as abi_decode
from setup_gate import needs
from test_anvil_games import _strike_and_pay
from test_outcome_proof import NAME, _bundle, _words

from por.chain.calldata import proof_commitment
from por.cli import main

pytestmark = needs("anvil-npm", None if ANVIL.exists() else "anvil is not installed")

#: Issue 24's bound for a typical one-step settle, the whole transaction.
TYPICAL = 300_000


@pytest.fixture
def node() -> Iterator[Node]:
    with anvil() as started:
        yield started


def _cli(*args: str) -> tuple[int, dict[str, Any]]:
    with contextlib.redirect_stdout(io.StringIO()) as printed, \
            contextlib.redirect_stderr(io.StringIO()):
        code = main(["chain", "outcome", *args, "--json"])
    text = printed.getvalue()
    return code, (json.loads(text)["calldata"] if code == 0 else json.loads(text)["error"])


def test_a_signed_outcome_the_bundle_does_not_give_is_struck_on_anvil(node: Node,
                                                                       tmp_path: Path) -> None:
    bundle_file = DEMO_BUNDLES / NAME
    registry, accounts = deploy(node)
    oracle, honest, other = accounts[1], accounts[2], accounts[3]
    words = _words(_bundle(NAME), outcome=2)  # the bundle's verdict is YES (1)
    propose = propose_data(words, CHAIN_ID, bytes.fromhex(registry[2:]))
    start = {a: node.balance(a) for a in (oracle, honest, other)}
    fees = dict.fromkeys(start, 0)
    sent = node.send(oracle, registry, propose, PROPOSER_BOND)
    fees[oracle] += sent["fee"]
    # the proposal as a watcher reads it back from the node (`cast tx HASH input`)
    proposal = node.rpc("eth_getTransactionByHash", sent["transactionHash"])["input"]
    (tmp_path / "proposal.hex").write_text(proposal)
    code, call = _cli(str(bundle_file), "--proposal", "@" + str(tmp_path / "proposal.hex"))
    assert code == 0, call
    assert call["won"] == "signature.field_mismatch"
    assert call["differences"] == {"outcome": {"stored": "2", "committed": "1"}}
    settle = bytes.fromhex(call["data_hex"][2:])
    market, kind, args = abi_decode(["bytes32", "bytes32", "bytes"], settle[4:])
    assert market == key_of(words) and call["market_key"] == "0x" + market.hex()
    code, commit = _cli(str(bundle_file), "--proposal", proposal, "--sender", honest)
    assert code == 0 and commit["commitment_hex"] == "0x" + proof_commitment(
        market, kind + args, bytes.fromhex(honest[2:])).hex()
    _strike_and_pay(node, registry, market, settle, players=(oracle, honest, other),
                    start=start, fees=fees, hashed=kind + args)


def test_the_honest_proposal_has_no_outcome_proof_on_anvil(node: Node) -> None:
    registry, accounts = deploy(node)
    oracle, honest = accounts[1], accounts[2]
    words = _words(_bundle(NAME))
    propose = propose_data(words, CHAIN_ID, bytes.fromhex(registry[2:]))
    node.send(oracle, registry, propose, PROPOSER_BOND)
    code, error = _cli(str(DEMO_BUNDLES / NAME), "--proposal", propose.hex())
    assert code == 1 and error["id"] == "chain.proof_not_won"
    from por.chain.calldata import settle_by_forms_calldata
    from por.chain.outcome import OUTCOME_KIND, outcome_args

    args = outcome_args(_bundle(NAME))
    market = key_of(words)
    node.send(honest, registry, call_data("commitProof", proof_commitment(
        market, OUTCOME_KIND + args, bytes.fromhex(honest[2:]))))
    assert node.revert_name(honest, registry, settle_by_forms_calldata(
        market, OUTCOME_KIND, args)) == "ProofNotWon"


def test_the_outcome_settle_is_a_typical_settle(node: Node) -> None:
    """The whole transaction's gas (receipt), the lie of the first test."""
    from por.chain.calldata import settle_by_forms_calldata
    from por.chain.outcome import OUTCOME_KIND, outcome_args

    registry, accounts = deploy(node)
    oracle, honest = accounts[1], accounts[2]
    words = _words(_bundle(NAME), outcome=2)
    node.send(oracle, registry, propose_data(words, CHAIN_ID, bytes.fromhex(registry[2:])),
              PROPOSER_BOND)
    market, args = key_of(words), outcome_args(_bundle(NAME))
    node.send(honest, registry, call_data("commitProof", proof_commitment(
        market, OUTCOME_KIND + args, bytes.fromhex(honest[2:]))))
    receipt = node.send(honest, registry, settle_by_forms_calldata(market, OUTCOME_KIND, args))
    used = int(receipt["gasUsed"], 16)
    print(f"outcome settle, whole transaction on anvil: {used} gas")
    assert used <= TYPICAL, used
