"""Issue 24's "Done when" on a real node: a lying bundle of each mechanically provable
class is struck in one transaction by the proof ``por verify --challenges`` wrote, sent
as ``por chain settle`` printed it, with the bonds paid to the wei (SPEC §14.4, §14.8).

The classes are ``bench/proofs.py``'s (scenario 08's market over 23 items: three check
chunks of one requirement), every commitment recomputed so only replay or a proof
tells: a forged check chunk, aggregate, contradictions, deduce and map step, a
contradictions step citing a chunk that is not its requirement's last (rule S5),
reordered and repeated citations, a verdict the judge would not give, and an item the
trace never reads (an OmissionProof, SPEC §10.2.4: step leaf 22 is a check chunk where
the 23rd item's extract step belongs, rule 3). Each runs on its own anvil (the market
id is scenario 08's in every class).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from anvil_node import ANVIL, Node, anvil, deploy
from chain_support import CHAIN_ID, PROPOSER_BOND, bundle_proposal
from setup_gate import needs
from test_anvil_games import _strike_and_pay
from test_chain_settle import market_of, settle_document, written_proof

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

pytestmark = needs("anvil-npm", None if ANVIL.exists() else "anvil is not installed")

#: Items of the requirement: 23 gives three check chunks (10, 10, 3).
ITEMS = 23
#: The class, and the outcome id ``por chain settle`` reports for its proof.
CLASSES = {
    "forged.check": "one_step.mismatch",
    "forged.aggregate": "one_step.mismatch",
    "forged.contradictions": "one_step.mismatch",
    "forged.deduce": "one_step.mismatch",
    "forged.map": "one_step.mismatch",
    "forged.contradictions_chunk": "one_step.citation_set",
    # Since s40 verify --challenges writes the check chunk's FormStepProof first (SPEC
    # §10.1), won as Python's one-step check answers (cause step.citation_mismatch);
    # the CitationProof (one_step.citation_order / _repeat) is test_chain_settle's.
    "citations.reordered": "one_step.unexecutable",
    "citations.repeated": "one_step.unexecutable",
    "forged.verdict": "judge.mismatch",
    "omitted_evidence": "omission.extract_position",
}


@pytest.fixture
def node() -> Iterator[Node]:
    with anvil() as started:
        yield started


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_lie_is_struck_in_one_transaction(node: Node, tmp_path: Path, name: str) -> None:
    from proofs import classes, market

    lie = classes(market(ITEMS), ITEMS)[name][0]()
    proof = written_proof(lie, tmp_path)
    code, document = settle_document(proof, market_of(lie))
    assert code == 0, name
    call = document["calldata"]
    assert isinstance(call, dict)
    assert call["won"] == CLASSES[name]
    registry, accounts = deploy(node)
    oracle, honest, other = accounts[1], accounts[2], accounts[3]
    market, propose = bundle_proposal(lie.to_cbor(), CHAIN_ID, bytes.fromhex(registry[2:]))
    start = {a: node.balance(a) for a in (oracle, honest, other)}
    fees = dict.fromkeys(start, 0)
    fees[oracle] += node.send(oracle, registry, propose, PROPOSER_BOND)["fee"]
    _strike_and_pay(node, registry, market, bytes.fromhex(str(call["data_hex"])[2:]),
                    players=(oracle, honest, other), start=start, fees=fees)
