"""A forged contradictions step struck on chain forms on a real node (s45 ``contraform``,
issue 24): scenario 08 with its contradictions step's ``description`` edited, every
record, form and commitment rehashed; the proof ``por verify --challenges`` writes for
it is a FormStepProof of kind ``contradictions`` (SPEC §10.1, §10.2.9), which ``por chain
settle`` turns into ``settleByForms`` (kind ``keccak256("form:contradictions")``); the
honest player's settle strikes the verdict in one transaction and is paid the proposer's
bond to the wei (``test_anvil_games._strike_and_pay``). The settle's gas used is printed
(issue 24's target: 300 000 for a typical settle).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from anvil_node import ANVIL, Node, anvil, deploy
from chain_support import CHAIN_ID, PROPOSER_BOND, bundle_proposal
from eth_abi.abi import decode as abi_decode
from forms_route_support import kind_hash
from setup_gate import needs
from test_anvil_forms_settle import _cli
from test_anvil_games import _strike_and_pay
from test_chain_settle import market_of
from test_forms_contradictions import forged_description

from por.challenge.records import FormStepProof, proof_from_cbor
from por.cli import main

pytestmark = needs("anvil-npm", None if ANVIL.exists() else "anvil is not installed")


@pytest.fixture
def node() -> Iterator[Node]:
    with anvil() as started:
        yield started


def test_a_forged_contradictions_step_is_struck_on_forms(node: Node, tmp_path: Path) -> None:
    bundle, _leaf = forged_description()
    (tmp_path / "bundle.cbor").write_bytes(bundle.to_cbor())
    assert main(["verify", str(tmp_path / "bundle.cbor"), "--challenges",
                 str(tmp_path / "out")]) == 1
    written = sorted((tmp_path / "out").glob("*.cbor"))
    assert len(written) == 1, written
    proof = proof_from_cbor(written[0].read_bytes())
    assert isinstance(proof, FormStepProof) and proof.kind == "contradictions"
    market_text = market_of(bundle)
    code, call = _cli(["chain", "settle", str(written[0]), *market_text])
    assert code == 0
    assert call["function"] == "settleByForms(bytes32,bytes32,bytes)"
    assert (call["won"], call["kind"], call["kind_hex"]) == (
        "one_step.mismatch", "contradictions", "0x" + kind_hash("contradictions").hex())
    settle = bytes.fromhex(str(call["data_hex"])[2:])
    market, hashed_kind, args = abi_decode(["bytes32", "bytes32", "bytes"], settle[4:])
    registry, accounts = deploy(node)
    oracle, honest, other = accounts[1], accounts[2], accounts[3]
    market_id, propose = bundle_proposal(bundle.to_cbor(), CHAIN_ID, bytes.fromhex(registry[2:]))
    assert market_id == market
    start = {a: node.balance(a) for a in (oracle, honest, other)}
    fees = dict.fromkeys(start, 0)
    fees[oracle] += node.send(oracle, registry, propose, PROPOSER_BOND)["fee"]
    sent: list[dict[str, object]] = []
    send = node.send

    def recorded(*args: object, **kwargs: object) -> dict[str, object]:
        receipt: dict[str, object] = send(*args, **kwargs)  # type: ignore[arg-type]
        sent.append(receipt)
        return receipt

    node.send = recorded  # type: ignore[method-assign]
    try:
        _strike_and_pay(node, registry, market, settle, players=(oracle, honest, other),
                        start=start, fees=fees, hashed=hashed_kind + args)
    finally:
        node.send = send  # type: ignore[method-assign]
    used = int(str(sent[-1]["gasUsed"]), 16)
    print(f"08 contradictions (forged description) settleByForms gas used: {used}")
    assert used <= 300_000
