"""An omission struck on chain (SPEC §10.2.4, §14.4, §14.8) in revm: the OmissionProof
``por verify --challenges`` writes, sent as ``por chain settle`` prints it, strikes the
verdict in one transaction through ``PorProofCheck``'s router and ``PorOmissionExec``;
a lost OmissionProof is refused by the command (``chain.proof_not_won``) and reverts
``ProofNotWon`` with the contract's check id, changing nothing.

The lie: scenario 08 audited on its first two items while all three are committed
(``bundle_edits.audited_on``): its check chunk leaves the third item out
(``omission.uncited_item``).
"""

from __future__ import annotations

from pathlib import Path

from bundle_edits import audited_on, honest
from chain_support import ADMIN, CHALLENGER, PROPOSER_BOND, call_data, register_bundle, reverts
from proof_check_support import BY_HASH
from test_chain_settle import fresh, market_of, settle_document, status, written_proof

from por.chain.calldata import settlement_id
from por.challenge.omission import build_omission_proof
from por.encoding import decode

SCENARIO = "08-quorum-agree"


def test_an_omission_is_struck_in_one_transaction(tmp_path: Path) -> None:
    lie = audited_on(SCENARIO, [0, 1])
    proof = written_proof(lie, tmp_path)
    assert decode(proof.read_bytes())["schema"] == "por.OmissionProof/2"
    code, document = settle_document(proof, market_of(lie))
    assert code == 0
    call = document["calldata"]
    assert isinstance(call, dict) and call["won"] == "omission.uncited_item"
    chain = fresh()
    market = register_bundle(chain, lie.to_cbor())
    data = bytes.fromhex(str(call["data_hex"])[2:])
    chain.commit_proof(market, proof.read_bytes(), CHALLENGER)
    before = chain.balance(CHALLENGER)
    out = chain.send(data, sender=CHALLENGER)
    assert out.output == settlement_id(market, proof.read_bytes())
    assert status(chain, market) == (0, 1, 2)  # round 1, Struck
    assert chain.call("finalOutcome", market) == 0
    assert chain.balance(CHALLENGER) - before == PROPOSER_BOND  # paid with the strike
    assert chain.call("withdrawable", ADMIN) == 0


def test_a_lost_omission_proof_reverts_and_changes_nothing(tmp_path: Path) -> None:
    bundle = honest(SCENARIO)
    n = len(bundle.evidence)
    proof = tmp_path / "lost.cbor"
    proof.write_bytes(build_omission_proof(bundle, n, 0).to_cbor())  # the chunk cites it
    assert settle_document(proof, market_of(bundle))[0] == 1  # chain.proof_not_won
    chain = fresh()
    market = register_bundle(chain, bundle.to_cbor())
    for step, item in ((n, 0), (0, 1), (n + 1, 2), (0, 0)):
        data = build_omission_proof(bundle, step, item).to_cbor()
        error = reverts(chain, call_data("settleByProof", market, data), sender=CHALLENGER)
        assert error.name == "ProofNotWon", (step, item)
        assert BY_HASH[error.args_[0]].startswith("omission."), (step, item)
    assert status(chain, market) == (0, 0, 1)  # still Proposed, round 0
    assert chain.call("withdrawable", CHALLENGER) == 0
