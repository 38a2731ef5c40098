"""An unruled court case and a copied proof (SPEC §14.4), in revm.

A standing court challenge keeps its verdict from finality past the window; if the
court has not ruled ``COURT_TIMEOUT`` after the deadline, ``lapse`` voids the market
(final, INVALID), both bonds go back, and the other challenges become moot.  A won
proof pays only the account that committed it (``commitProof``) in an earlier block:
a copy taken from the mempool, committed in the settle's own block or not at all,
reverts ``ProofNotCommitted``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from chain_support import (
    ADMIN,
    CHALLENGER,
    CHALLENGER_BOND,
    PROPOSER_BOND,
    RESOLVER,
    T0,
    TEST_ONLY_COURT,
    TEST_ONLY_SECRET,
    WINDOW,
    Chain,
    address_of,
    call_data,
    register_bundle,
    reverts,
    ruling_calldata,
    synthetic_market,
)

from por.chain.calldata import challenge_id, leaf_id, open_challenge_calldata, proof_commitment
from por.merkle import leaf_hash

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "challenge"))

#: SPEC §14.4: the court's time to rule, after the verdict's deadline.
COURT_TIMEOUT = 30 * 24 * 3600
STRANGER = "0x" + "57" * 20
CASES = (b"\x01" * 32, b"\x02" * 32)


def _challenged() -> tuple[Chain, bytes, list[bytes], bytes]:
    """A verdict proposed by ADMIN at T0 + 1 with two open challenges (CHALLENGER's and
    STRANGER's cases on evidence leaf 1): (chain, market, the two ids, the leaf hash)."""
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    chain.call("setResolver", "0x" + address_of(TEST_ONLY_COURT).hex())
    chain.evm.set_balance(STRANGER, 10**21)
    market, proof = synthetic_market(chain, "evidence_leaf", 4, 1, b"an unruled leaf", nonce=7)
    hashed = leaf_hash(proof.leaf)
    ids = []
    for who, case in zip((CHALLENGER, STRANGER), CASES, strict=True):
        out = chain.send(open_challenge_calldata(market, case, proof), sender=who)
        assert out.output == challenge_id(leaf_id(market, 2, 1), hashed,
                                          bytes.fromhex(who[2:]), case)
        ids.append(out.output)
    return chain, market, ids, hashed


def _state(chain: Chain, market: bytes) -> tuple[int, int, int]:
    """(openChallenges, round, status) of ``market``."""
    record = chain.call("verdicts", market)
    return record[5], record[6], record[7]


def test_an_unruled_challenge_blocks_finality_until_the_court_timeout() -> None:
    chain, market, ids, _hashed = _challenged()
    assert chain.call("COURT_TIMEOUT") == COURT_TIMEOUT
    due = T0 + 1 + WINDOW + COURT_TIMEOUT
    for when in (T0 + 1 + WINDOW, due - 1):
        chain.set_time(when)
        assert chain.call("isFinal", market) is False
        assert reverts(chain, call_data("finalOutcome", market)).name == "NotFinal"
        assert reverts(chain, call_data("finalize", market)).name == "NotFinal"
        error = reverts(chain, call_data("lapse", ids[0]), sender=STRANGER)
        assert (error.name, error.args_) == ("CourtTimeoutPending", (due, when))


def test_the_lapse_voids_the_market_and_returns_every_bond() -> None:
    chain, market, ids, _hashed = _challenged()
    chain.set_time(T0 + 1 + WINDOW + COURT_TIMEOUT)
    chain.send(call_data("lapse", ids[0]), sender=RESOLVER)  # anyone
    assert _state(chain, market) == (0, 1, 4)  # Void, round 1
    assert chain.call("isFinal", market) is True
    assert chain.call("finalOutcome", market) == 3  # INVALID, whatever was signed
    assert chain.call("challenges", ids[0])[2] == 5  # Lapsed
    assert reverts(chain, call_data("lapse", ids[0])).name == "ChallengeNotOpen"
    # The other challenge of that round is moot: lapse refuses it, closeMoot refunds it.
    assert reverts(chain, call_data("lapse", ids[1])).name == "ChallengeMoot"
    chain.call("closeMoot", ids[1])
    # A void market is final: no challenge, settle, finalize or new verdict.
    assert reverts(chain, call_data("finalize", market)).name == "NotFinal"
    assert reverts(chain, call_data("settleByProof", market, b"")).name == "NotChallengeable"
    assert chain.call("withdrawable", ADMIN) == PROPOSER_BOND
    assert chain.call("withdrawable", CHALLENGER) == CHALLENGER_BOND
    assert chain.call("withdrawable", STRANGER) == CHALLENGER_BOND
    assert chain.balance(chain.address) == PROPOSER_BOND + 2 * CHALLENGER_BOND
    for who in (ADMIN, CHALLENGER, STRANGER):
        chain.send(call_data("withdraw"), sender=who)
    assert chain.balance(chain.address) == 0


def test_a_ruling_before_the_timeout_wins_and_a_late_one_is_refused() -> None:
    chain, market, ids, hashed = _challenged()
    chain.set_time(T0 + 1 + WINDOW + COURT_TIMEOUT - 1)
    chain.send(ruling_calldata(chain.contract, market, (2, 1, hashed), challenger=CHALLENGER,
                               case=CASES[0], upheld=False))
    assert _state(chain, market) == (1, 0, 1)  # one still open
    chain.set_time(T0 + 1 + WINDOW + COURT_TIMEOUT)
    assert reverts(chain, call_data("lapse", ids[0])).name == "ChallengeNotOpen"
    chain.send(call_data("lapse", ids[1]))
    assert chain.call("finalOutcome", market) == 3
    late = ruling_calldata(chain.contract, market, (2, 1, hashed), challenger=STRANGER,
                           case=CASES[1], upheld=True)
    assert reverts(chain, late).name == "ChallengeNotOpen"  # the court was too late
    assert chain.call("withdrawable", ADMIN) == PROPOSER_BOND + CHALLENGER_BOND


def test_a_copied_proof_pays_its_copier_nothing(tmp_path: Path) -> None:
    """The finder commits, then settles a block later; a watcher that copies the settle
    from the mempool, with no commitment or one made in the settle's own block, reverts
    (and so could not have come first); the finder is paid."""
    from citation_support import reordered_08
    from test_chain_settle import citation_file

    lie, _ = reordered_08()
    proof = citation_file(lie, tmp_path).read_bytes()  # settleByProof's (s40)
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    chain.evm.set_balance(STRANGER, 10**21)
    market = register_bundle(chain, lie.to_cbor())
    settle = call_data("settleByProof", market, proof)
    mine = proof_commitment(market, proof, bytes.fromhex(CHALLENGER[2:]))
    chain.send(call_data("commitProof", mine), sender=CHALLENGER)
    assert reverts(chain, settle, sender=CHALLENGER).name == "ProofNotCommitted"  # same block
    chain.mine()
    # The watcher sees the settle: it has no commitment, and one made now is too young.
    error = reverts(chain, settle, sender=STRANGER)
    copied = proof_commitment(market, proof, bytes.fromhex(STRANGER[2:]))
    assert (error.name, error.args_) == ("ProofNotCommitted", (copied,))
    chain.send(call_data("commitProof", copied), sender=STRANGER)
    assert reverts(chain, settle, sender=STRANGER).name == "ProofNotCommitted"
    chain.send(call_data("commitProof", mine), sender=CHALLENGER)  # a second commit keeps
    assert chain.call("proofCommits", mine) == 1  # the first block
    before = {a: chain.balance(a) for a in (CHALLENGER, STRANGER)}
    chain.send(settle, sender=CHALLENGER)
    assert chain.balance(CHALLENGER) - before[CHALLENGER] == PROPOSER_BOND  # paid at once
    assert chain.balance(STRANGER) == before[STRANGER]
    assert chain.call("withdrawable", STRANGER) == 0
    chain.mine()
    assert reverts(chain, settle, sender=STRANGER).name == "NotChallengeable"
