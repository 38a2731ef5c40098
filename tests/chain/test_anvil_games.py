"""Whole dispute games on a real node: anvil (npm ``@foundry-rs/anvil``, pinned in
tests/chain/anvil/package-lock.json) started by the test on 127.0.0.1, the
committed artifact deployed, every call a real transaction over JSON-RPC (plain
urllib, no web3). Issue 24 item 6: an honest verdict finalizes after the window;
a lying verdict is struck by a court ruling; a sham case cannot settle another
challenger's challenge; squatting fails; a double withdrawal fails; every
account's balance moves by its bonds and gas fees to the wei; a proof copied without a
commitment pays nothing; an unruled court case voids the market (INVALID).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from anvil_node import ANVIL, Node, anvil, deploy
from chain_support import (
    CHAIN_ID,
    CHALLENGER_BOND,
    PROPOSER_BOND,
    WINDOW,
    call_data,
    key_of,
    propose_data,
    ruling_calldata,
    synthetic_verdict,
)
from setup_gate import needs

from por.chain.calldata import challenge_id, leaf_id, open_challenge_calldata, proof_commitment
from por.challenge.records import InclusionProof
from por.merkle import leaf_hash

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "challenge"))

#: SPEC §14.6 (issue 24 item 7): execution gas on a real node.
PROPOSE_GAS_TARGET = 90_000
CHALLENGE_GAS_TARGET = 120_000

pytestmark = needs("anvil-npm", None if ANVIL.exists() else "anvil is not installed")


@pytest.fixture
def node() -> Iterator[Node]:
    with anvil() as started:
        yield started


def _verdict(registry: str, tag: bytes) -> tuple[bytes, bytes, InclusionProof]:
    """A market with a 4-leaf evidence tree, its verdict signed for ``registry``:
    (market key, proposeVerdict calldata, the InclusionProof of evidence leaf 1)."""
    words, proof = synthetic_verdict("evidence_leaf", 4, 1, b"the disputed leaf " + tag,
                                     nonce=int.from_bytes(hashlib.sha256(tag).digest()[:4]))
    return key_of(words), propose_data(words, CHAIN_ID, bytes.fromhex(registry[2:])), proof


def _ruling(registry: str, market: bytes, proof: InclusionProof, challenger: str, *,
            case: bytes, upheld: bool) -> bytes:
    return ruling_calldata(bytes.fromhex(registry[2:]), market, (2, 1, leaf_hash(proof.leaf)),
                           challenger=challenger, case=case, upheld=upheld)


def test_honest_verdict_finalizes_after_the_window(node: Node) -> None:
    registry, accounts = deploy(node)
    proposer, challenger = accounts[1], accounts[2]
    market, propose, _proof = _verdict(registry, b"honest")
    start = node.balance(proposer)
    fees = node.send(proposer, registry, propose, PROPOSER_BOND)["fee"]
    assert node.revert_name(proposer, registry, call_data("finalize", market)) == "NotFinal"
    node.advance(WINDOW + 1)
    assert node.view(registry, call_data("isFinal", market))[-1] == 1
    assert int.from_bytes(node.view(registry, call_data("finalOutcome", market)), "big") == 1
    node.send(challenger, registry, call_data("finalize", market))  # anyone; not the proposer
    fees += node.send(proposer, registry, call_data("withdraw"))["fee"]
    assert node.revert_name(proposer, registry, call_data("withdraw")) == "NothingToWithdraw"
    assert node.balance(proposer) == start - fees  # the bond came back, to the wei
    assert node.balance(registry) == 0


def test_an_unruled_court_case_voids_the_market(node: Node) -> None:
    """The court never rules: past the window the verdict is not final; 30 days after
    its deadline anyone lapses the challenge, the market is final INVALID, and both
    bonds come back to the wei."""
    registry, accounts = deploy(node)
    oracle, challenger, anyone = accounts[1], accounts[2], accounts[3]
    market, propose, proof = _verdict(registry, b"unruled")
    start = {a: node.balance(a) for a in (oracle, challenger)}
    fees = dict.fromkeys(start, 0)
    fees[oracle] += node.send(oracle, registry, propose, PROPOSER_BOND)["fee"]
    case = hashlib.sha256(b"never ruled").digest()
    fees[challenger] += node.send(challenger, registry,
                                  open_challenge_calldata(market, case, proof),
                                  CHALLENGER_BOND)["fee"]
    opened = challenge_id(leaf_id(market, 2, 1), leaf_hash(proof.leaf),
                          bytes.fromhex(challenger[2:]), case)
    node.advance(WINDOW + 1)
    assert node.view(registry, call_data("isFinal", market))[-1] == 0
    assert node.revert_name(anyone, registry, call_data("finalize", market)) == "NotFinal"
    assert node.revert_name(anyone, registry, call_data("lapse", opened)) == \
        "CourtTimeoutPending"
    node.advance(30 * 24 * 3600)
    node.send(anyone, registry, call_data("lapse", opened))
    assert int.from_bytes(node.view(registry, call_data("finalOutcome", market)), "big") == 3
    assert node.revert_name(anyone, registry, call_data("lapse", opened)) == "ChallengeNotOpen"
    for account in (oracle, challenger):
        fees[account] += node.send(account, registry, call_data("withdraw"))["fee"]
        assert node.balance(account) == start[account] - fees[account]
    assert node.balance(registry) == 0


def test_lying_verdict_struck_by_the_court_and_the_attacks_fail(node: Node) -> None:
    registry, accounts = deploy(node)
    oracle, honest, other = accounts[1], accounts[2], accounts[3]
    market, propose, proof = _verdict(registry, b"lying")
    start = {a: node.balance(a) for a in (oracle, honest, other)}
    fees = dict.fromkeys(start, 0)
    proposed = node.send(oracle, registry, propose, PROPOSER_BOND)
    fees[oracle] += proposed["fee"]
    assert proposed["execution_gas"] <= PROPOSE_GAS_TARGET
    sham, real = hashlib.sha256(b"sham: I concede").digest(), hashlib.sha256(b"real").digest()
    # Squatting: the oracle disputes its own leaf first; the honest challenger still can.
    fees[oracle] += node.send(oracle, registry, open_challenge_calldata(market, sham, proof),
                              CHALLENGER_BOND)["fee"]
    opened = node.send(honest, registry, open_challenge_calldata(market, real, proof),
                       CHALLENGER_BOND)
    fees[honest] += opened["fee"]
    assert opened["execution_gas"] <= CHALLENGE_GAS_TARGET
    fees[other] += node.send(other, registry, open_challenge_calldata(market, real, proof),
                             CHALLENGER_BOND)["fee"]
    # The sham case's ruling, relayed first, cannot settle the honest challenge.
    rejected = _ruling(registry, market, proof, honest, case=sham, upheld=False)
    assert node.revert_name(other, registry, rejected) == "ChallengeNotOpen"
    fees[other] += node.send(other, registry,
                             _ruling(registry, market, proof, oracle, case=sham,
                                     upheld=False))["fee"]
    node.advance(WINDOW + 1)
    assert node.view(registry, call_data("isFinal", market))[-1] == 0  # two still open
    fees[other] += node.send(other, registry,
                             _ruling(registry, market, proof, honest, case=real,
                                     upheld=True))["fee"]
    assert int.from_bytes(node.view(registry, call_data("finalOutcome", market)), "big") == 0
    other_id = challenge_id(leaf_id(market, 2, 1), leaf_hash(proof.leaf),
                            bytes.fromhex(other[2:]), real)
    fees[other] += node.send(other, registry, call_data("closeMoot", other_id))["fee"]
    for account in (oracle, honest, other):
        fees[account] += node.send(account, registry, call_data("withdraw"))["fee"]
        assert node.revert_name(account, registry, call_data("withdraw")) == "NothingToWithdraw"
    # Bonds to the wei: the oracle lost its bond (won back the sham's), the honest
    # challenger won it, the moot challenger got its own back.
    assert node.balance(oracle) == start[oracle] - fees[oracle] - PROPOSER_BOND
    assert node.balance(honest) == start[honest] - fees[honest] + PROPOSER_BOND
    assert node.balance(other) == start[other] - fees[other]
    assert node.balance(registry) == 0


def test_lying_verdict_struck_by_a_proof_in_one_transaction(node: Node,
                                                           tmp_path: Path) -> None:
    """Issue 24 item 2 on a real node: the CitationProof of issue 22's reordering (what
    ``por verify --challenges`` wrote before s40; since then it writes the chunk's
    FormStepProof first, ``test_anvil_every_lie``), sent as ``por chain settle`` printed
    it, strikes the lying verdict in one transaction; an honest candidate reverts;
    bonds to the wei."""
    from chain_support import bundle_proposal
    from citation_support import honest_08, reordered_08
    from proof_check_support import citation_proof
    from test_chain_settle import citation_file, market_of, settle_document

    registry, accounts = deploy(node)
    oracle, honest, other = accounts[1], accounts[2], accounts[3]
    lie, _outcome = reordered_08()
    proof = citation_file(lie, tmp_path)
    code, document = settle_document(proof, market_of(lie))
    assert code == 0
    call = document["calldata"]
    assert isinstance(call, dict)
    market, propose = bundle_proposal(lie.to_cbor(), CHAIN_ID, bytes.fromhex(registry[2:]))
    start = {a: node.balance(a) for a in (oracle, honest, other)}
    fees = dict.fromkeys(start, 0)
    fees[oracle] += node.send(oracle, registry, propose, PROPOSER_BOND)["fee"]
    # An honest step's proof does not win: it reverts and costs only the caller's gas.
    candidate = call_data("settleByProof", market, citation_proof(honest_08(), 3, []))
    assert node.revert_name(other, registry, candidate) == "ProofNotWon"
    _strike_and_pay(node, registry, market, bytes.fromhex(str(call["data_hex"])[2:]),
                    players=(oracle, honest, other), start=start, fees=fees)


def test_forged_map_step_struck_by_its_one_step_proof(node: Node, tmp_path: Path) -> None:
    """Issue 24 item 2, re-execution: a verdict whose trace forges its map step is
    struck in one transaction by the OneStepProof ``por verify --challenges`` wrote
    (the registry re-executes the map step itself), sent as ``por chain settle``
    printed it; the honest map step's proof and the (honest) deduce step's revert
    ``ProofNotWon(one_step.match)``; an extract step's proof reverts ``CourtPath``
    (extraction goes to the court); bonds to the wei."""
    from chain_support import bundle_proposal
    from map_lies import lying_map
    from test_chain_settle import market_of, settle_document, written_proof

    from por.challenge.one_step import build_one_step_proof

    registry, accounts = deploy(node)
    oracle, honest, other = accounts[1], accounts[2], accounts[3]
    truthful, lie = lying_map()
    proof = written_proof(lie, tmp_path)
    code, document = settle_document(proof, market_of(lie))
    assert code == 0
    call = document["calldata"]
    assert isinstance(call, dict)
    assert call["won"] == "one_step.mismatch"
    market, propose = bundle_proposal(lie.to_cbor(), CHAIN_ID, bytes.fromhex(registry[2:]))
    start = {a: node.balance(a) for a in (oracle, honest, other)}
    fees = dict.fromkeys(start, 0)
    fees[oracle] += node.send(oracle, registry, propose, PROPOSER_BOND)["fee"]
    # The honest bundle's map step is what its inputs give: the proof is lost (and is
    # about another por_root); an extract step goes to the court.
    candidate = build_one_step_proof(truthful, len(truthful.steps) - 1).to_cbor()
    assert node.revert_name(other, registry,
                            call_data("settleByProof", market, candidate)) == "ProofNotWon"
    deduce = build_one_step_proof(lie, len(lie.steps) - 2).to_cbor()
    assert node.revert_name(other, registry,
                            call_data("settleByProof", market, deduce)) == "ProofNotWon"
    extract = build_one_step_proof(lie, 0).to_cbor()
    assert node.revert_name(other, registry,
                            call_data("settleByProof", market, extract)) == "CourtPath"
    _strike_and_pay(node, registry, market, bytes.fromhex(str(call["data_hex"])[2:]),
                    players=(oracle, honest, other), start=start, fees=fees)


def _settled_proof(settle: bytes) -> bytes:
    """The bytes a settle's proof hash covers: the proof a ``settleByProof(marketId,
    proof)`` calldata carries, or ``kind || args`` of a ``settleByForms(marketId, kind,
    args)`` (SPEC §14.4)."""
    from eth_abi import decode

    from por.chain.calldata import SETTLE_BY_FORMS, selector

    if settle[:4] == selector(SETTLE_BY_FORMS):
        _market, kind, args = decode(["bytes32", "bytes32", "bytes"], settle[4:])
        return bytes(kind) + bytes(args)
    proof: bytes = decode(["bytes32", "bytes"], settle[4:])[1]
    return proof


def _strike_and_pay(node: Node, registry: str, market: bytes, settle: bytes, *,
                    players: tuple[str, str, str], start: dict[str, int],
                    fees: dict[str, int], hashed: bytes | None = None) -> None:
    """The honest player sends the winning ``settleByProof`` (or ``settleByForms``, whose
    proof hash is over ``hashed``, ``kind || args``): the verdict is struck
    (final outcome 0), the same call cannot strike it again, the honest player is paid
    the proposer's bond with the strike (nothing left to withdraw: SPEC §14.4), and
    every balance is right to the wei."""
    oracle, honest, other = players
    proof = _settled_proof(settle) if hashed is None else hashed
    # A copy of the proof sent by another account without a commitment (the
    # front-runner's) reverts; the honest player commits first, then settles.
    assert node.revert_name(other, registry, settle) == "ProofNotCommitted"
    commitment = proof_commitment(market, proof, bytes.fromhex(honest[2:]))
    fees[honest] += node.send(honest, registry, call_data("commitProof", commitment))["fee"]
    settled = node.send(honest, registry, settle)
    fees[honest] += settled["fee"]
    assert settled["execution_gas"] > 0
    assert int.from_bytes(node.view(registry, call_data("finalOutcome", market)), "big") == 0
    assert node.revert_name(other, registry, settle) == "NotChallengeable"
    assert node.revert_name(honest, registry, call_data("withdraw")) == "NothingToWithdraw"
    assert node.balance(oracle) == start[oracle] - fees[oracle] - PROPOSER_BOND
    assert node.balance(honest) == start[honest] - fees[honest] + PROPOSER_BOND
    assert node.balance(other) == start[other]
    assert node.balance(registry) == 0
