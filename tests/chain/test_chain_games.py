"""Whole games on the optimistic registry in revm (SPEC §14.4): bonds, the dispute
window, finality, strikes, re-proposal, moot challenges and pull payments, and a
hypothesis state machine that drives random call sequences and checks the
invariants after every step: the registry's balance is exactly the bonds it holds
plus what it owes; a verdict is final only after its deadline with no challenge
open; nobody is paid twice; an honest challenger whose case the court upholds
never loses its bond, and a won CitationProof sent to ``settleByProof`` on a
proposed, not final lie always strikes it and pays its sender the proposer's bond
(SPEC §14.4)."""

from __future__ import annotations

import hashlib
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from chain_support import (
    ADMIN,
    CHALLENGER,
    CHALLENGER_BOND,
    MARKET_IDS,
    PROPOSER_BOND,
    RESOLVER,
    T0,
    TEST_ONLY_COURT,
    TEST_ONLY_SECRET,
    WINDOW,
    Chain,
    address_of,
    bundle_proposal,
    call_data,
    key_of,
    propose_data,
    reverts,
    ruling_calldata,
    synthetic_market,
    synthetic_verdict,
)
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from por.chain.calldata import challenge_id, leaf_id, open_challenge_calldata
from por.merkle import leaf_hash

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "challenge"))

LEAF = b"an evidence leaf"
ACCOUNTS = (ADMIN, CHALLENGER, RESOLVER)
#: SPEC §14.4: the court's time to rule after a verdict's deadline.
COURT_TIMEOUT = 30 * 24 * 3600


@cache
def lie() -> tuple[bytes, bytes, bytes]:
    """Issue 22's reordering (a lying bundle), its won CitationProof (what ``por verify
    --challenges`` writes) and an honest step's CitationProof (lost)."""
    from citation_support import honest_08, reordered_08
    from proof_check_support import citation_proof

    from por.challenge import build_citation_proof, citation_faults

    bundle, _outcome = reordered_08()
    won = build_citation_proof(bundle, citation_faults(bundle)[0]).to_cbor()
    return bundle.to_cbor(), won, citation_proof(honest_08(), 3, [])


class Game:
    """One market on a fresh registry with the test court as resolver; with
    ``lying``, the market is the lying bundle's and its verdict is proposed first."""

    def __init__(self, *, lying: bool = False) -> None:
        self.chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
        self.chain.call("setResolver", "0x" + address_of(TEST_ONLY_COURT).hex())
        self.leaf = LEAF
        self.now = T0 + 1
        self.round = 0
        if lying:
            self.market = b""
            self.propose_lie(0)
        else:
            self.market, self.proof = synthetic_market(self.chain, "evidence_leaf", 4, 1,
                                                       LEAF, nonce=0)

    def propose_lie(self, round_: int) -> None:
        from por.bundle.layout import Bundle
        from por.challenge.proofs import build_inclusion_proof

        data = lie()[0]
        self.chain.set_time(self.now)
        self.market, propose = bundle_proposal(data, self.chain.chain_id, self.chain.contract,
                                               round_, weeks=1000)
        self.chain.send(propose)
        self.proof = build_inclusion_proof(Bundle.from_cbor(data), "evidence_leaf", 1)
        self.leaf = self.proof.leaf

    def at(self, now: int) -> None:
        self.now = now
        self.chain.set_time(now)

    def propose(self, variant: int, round_: int, sender: str = ADMIN) -> None:
        self.market, self.proof = synthetic_market(
            self.chain, "evidence_leaf", 4, 1, LEAF, nonce=variant, round_=round_,
            market=self.market, sender=sender)
        self.leaf = LEAF

    def open(self, sender: str, case: bytes) -> bytes:
        data = open_challenge_calldata(self.market, case, self.proof)
        opened: bytes = self.chain.send(data, sender=sender).output
        assert opened == self.challenge_id(sender, case)
        return opened

    def challenge_id(self, sender: str, case: bytes) -> bytes:
        return challenge_id(self.leaf_id(), leaf_hash(self.leaf), bytes.fromhex(sender[2:]),
                            case)

    def leaf_id(self) -> bytes:
        return leaf_id(self.market, 2, 1)

    def ruling(self, challenger: str, case: bytes, upheld: bool) -> bytes:
        return ruling_calldata(self.chain.contract, self.market, (2, 1, leaf_hash(self.leaf)),
                               challenger=challenger, case=case, upheld=upheld)

    def owed(self) -> int:
        return sum(self.chain.call("withdrawable", a) for a in ACCOUNTS)

    def balance(self) -> int:
        return self.chain.balance(self.chain.address)


def case(n: int) -> bytes:
    return hashlib.sha256(b"case %d" % n).digest()


def test_honest_verdict_finalizes_after_the_window_and_pays_once() -> None:
    game = Game()
    chain, market = game.chain, game.market
    deadline = T0 + 1 + WINDOW
    assert chain.call("verdicts", market)[-1] == deadline
    assert reverts(chain, _call("finalOutcome", market)).name == "NotFinal"
    game.at(deadline - 1)
    assert chain.call("isFinal", market) is False
    assert reverts(chain, _call("finalize", market)).name == "NotFinal"
    game.at(deadline)
    assert chain.call("isFinal", market) is True and chain.call("finalOutcome", market) == 1
    assert reverts(chain, open_challenge_calldata(market, case(1), game.proof),
                   sender=CHALLENGER).name == "WindowClosed"
    chain.call("finalize", market, sender=CHALLENGER)  # anyone
    assert reverts(chain, _call("finalize", market)).name == "NotFinal"  # once
    before = chain.balance(ADMIN)
    out = chain.send(_call("withdraw"), sender=ADMIN)
    assert chain.balance(ADMIN) - before == PROPOSER_BOND  # revm charges no gas fee here
    assert out.logs and game.balance() == 0
    assert reverts(chain, _call("withdraw"), sender=ADMIN).name == "NothingToWithdraw"


def test_bonds_are_exact_and_the_proposal_round_is_the_nonce() -> None:
    game = Game()
    chain = game.chain
    data = open_challenge_calldata(game.market, case(1), game.proof)
    for value in (0, CHALLENGER_BOND - 1, CHALLENGER_BOND + 1):
        assert reverts(chain, data, sender=CHALLENGER, value=value).name == "BondValue"
    first = game.open(CHALLENGER, case(1))
    second = game.open(RESOLVER, case(1))  # same leaf and case, another challenger
    lost = game.open(ADMIN, case(2))  # the proposer's own sham case
    assert len({first, second, lost}) == 3
    chain.send(game.ruling(ADMIN, case(2), False))  # the sham loses: it blocks nobody
    assert chain.call("challenges", first)[2] == 1
    chain.send(game.ruling(CHALLENGER, case(1), True))  # struck
    assert chain.call("finalOutcome", game.market) == 0
    assert chain.call("verdicts", game.market)[6:8] == (1, 2)  # round 1, Struck
    # The other challenge on the struck verdict is moot: its bond comes back.
    assert reverts(chain, _call("closeMoot", first)).name == "ChallengeNotOpen"
    chain.call("closeMoot", second)
    assert chain.call("withdrawable", RESOLVER) == CHALLENGER_BOND
    assert chain.call("withdrawable", CHALLENGER) == CHALLENGER_BOND + PROPOSER_BOND
    assert chain.call("withdrawable", ADMIN) == CHALLENGER_BOND  # won the sham, lost the bond
    # Re-proposal: the next round only, and never the struck root.
    for variant, round_, name in ((0, 1, "RootStruck"), (1, 0, "NonceRound"),
                                  (1, 2, "NonceRound")):
        with pytest.raises(Exception) as info:
            game.propose(variant, round_)
        assert getattr(info.value, "name", None) == name
    game.propose(1, 1)
    assert chain.call("verdicts", game.market)[5:8] == (0, 1, 1)  # none open, round 1, Proposed
    assert game.balance() == game.owed() + PROPOSER_BOND


def _call(name: str, *args: Any) -> bytes:
    from chain_support import call_data

    return call_data(name, *args)


class RegistryMachine(RuleBasedStateMachine):
    """Random sequences of every call a game can make, with a model of the bonds."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Game(lying=True)
        self.lying = True  # the standing (or last) verdict is the lie
        self.lie_struck = False
        self.open: dict[bytes, tuple[str, bytes, int, bytes]] = {}  # id -> who, case, round, leaf
        self.held = PROPOSER_BOND  # bonds the registry holds (not yet credited)
        self.paid: dict[str, int] = dict.fromkeys(ACCOUNTS, 0)
        self.status = 1  # Proposed
        self.deadline = T0 + 1 + WINDOW
        self.variant = 0
        self.twin = self._twin()
        self.held += PROPOSER_BOND

    def _twin(self) -> bytes:
        """The lie's market id text under another PromptSpec (ADR 0018): another market
        key, proposed once; nothing the machine does to the lie's key may touch it."""
        game = self.game
        market_id, spec = MARKET_IDS[game.market]
        other = hashlib.sha256(b"another PromptSpec of " + spec).digest()
        words, _proof = synthetic_verdict("evidence_leaf", 4, 1, LEAF, nonce=7,
                                          market=market_id, prompt_spec=other)
        game.chain.send(propose_data(words, game.chain.chain_id, game.chain.contract))
        assert key_of(words) != game.market
        return key_of(words)

    @rule(who=st.sampled_from(ACCOUNTS), n=st.integers(0, 3))
    def open_challenge(self, who: str, n: int) -> None:
        game = self.game
        cid = game.challenge_id(who, case(n))
        data = open_challenge_calldata(game.market, case(n), game.proof)
        expected = None
        if self.status != 1:
            expected = "NotChallengeable"
        elif game.now >= self.deadline:
            expected = "WindowClosed"
        elif cid in self.open or game.chain.call("challenges", cid)[2] != 0:
            expected = "ChallengeExists"
        if expected is not None:
            assert reverts(game.chain, data, sender=who).name == expected
            return
        game.open(who, case(n))
        self.open[cid] = (who, case(n), game.round, game.leaf)
        self.held += CHALLENGER_BOND

    @rule(pick=st.integers(0, 7), upheld=st.booleans())
    def rule_on(self, pick: int, upheld: bool) -> None:
        if not self.open:
            return
        cid = sorted(self.open)[pick % len(self.open)]
        who, case_hash, round_, leaf = self.open.pop(cid)
        game = self.game
        current, game.leaf = game.leaf, leaf
        game.chain.send(game.ruling(who, case_hash, upheld), sender=RESOLVER)
        game.leaf = current
        proposer = ADMIN
        if round_ != game.round:  # moot (struck by a ruling or a proof): refunded
            self._credit(who, CHALLENGER_BOND)
            status = 4
        elif upheld:
            self._credit(who, CHALLENGER_BOND + PROPOSER_BOND)
            self.status, game.round = 2, game.round + 1
            self.lie_struck |= self.lying
            status = 2
        else:
            self._credit(proposer, CHALLENGER_BOND)
            status = 3
        assert game.chain.call("challenges", cid)[2] == status
        assert who == ADMIN or status != 3 or not upheld  # an upheld case never loses

    @rule(pick=st.integers(0, 7))
    def lapse(self, pick: int) -> None:
        """The court never ruled: past its timeout an open challenge lapses and the
        market is void (INVALID), both bonds back; earlier, or moot, it reverts."""
        if not self.open:
            return
        cid = sorted(self.open)[pick % len(self.open)]
        who, _case, round_, _leaf = self.open[cid]
        game = self.game
        expected = None
        if round_ != game.round:
            expected = "ChallengeMoot"
        elif game.now < self.deadline + COURT_TIMEOUT:
            expected = "CourtTimeoutPending"
        if expected is not None:
            assert reverts(game.chain, _call("lapse", cid)).name == expected
            return
        game.chain.send(_call("lapse", cid))
        del self.open[cid]
        self._credit(who, CHALLENGER_BOND)
        self._credit(ADMIN, PROPOSER_BOND)
        self.status, game.round = 4, game.round + 1
        assert game.chain.call("finalOutcome", game.market) == 3

    @rule(seconds=st.sampled_from([1, 3600, WINDOW // 2, WINDOW, COURT_TIMEOUT]))
    def wait(self, seconds: int) -> None:
        self.game.at(self.game.now + seconds)

    @rule()
    def finalize(self) -> None:
        game = self.game
        final = self._final()
        assert game.chain.call("isFinal", game.market) is (final or self.status in (3, 4))
        if not final:
            assert reverts(game.chain, _call("finalize", game.market)).name == "NotFinal"
            return
        game.chain.call("finalize", game.market)
        self.status = 3
        self._credit(ADMIN, PROPOSER_BOND)

    @rule(who=st.sampled_from(ACCOUNTS))
    def withdraw(self, who: str) -> None:
        game = self.game
        owed = game.chain.call("withdrawable", who)
        if owed == 0:
            assert reverts(game.chain, _call("withdraw"), sender=who).name == "NothingToWithdraw"
            return
        before = game.chain.balance(who)
        game.chain.send(_call("withdraw"), sender=who)
        assert game.chain.balance(who) - before == owed == self.paid[who]
        self.paid[who] = 0

    @rule(who=st.sampled_from(ACCOUNTS), won=st.booleans())
    def settle_by_proof(self, who: str, won: bool) -> None:
        """A won proof strikes a proposed, not final lie at once; anything else reverts
        and changes nothing (the invariants check the bonds)."""
        game = self.game
        _data, won_proof, lost_proof = lie()
        call = call_data("settleByProof", game.market, won_proof if won else lost_proof)
        expected = None
        if self.status != 1:
            expected = "NotChallengeable"
        elif self._final():
            expected = "WindowClosed"
        elif not won:
            expected = "ProofNotWon"
        elif not self.lying:
            expected = "ProofPorRoot"
        if expected is not None:
            assert reverts(game.chain, call, sender=who).name == expected
            return
        assert reverts(game.chain, call, sender=who).name == "ProofNotCommitted"
        game.chain.commit_proof(game.market, won_proof, who)
        before = game.chain.balance(who)
        game.chain.send(call, sender=who)  # an honest challenger with a won proof wins
        assert game.chain.balance(who) - before == PROPOSER_BOND  # paid with the strike
        self.held -= PROPOSER_BOND
        self.status, game.round, self.lie_struck = 2, game.round + 1, True

    @rule(lying=st.booleans())
    def repropose(self, lying: bool) -> None:
        if self.status != 2:
            return
        game = self.game
        if lying and self.lie_struck:
            with pytest.raises(Exception) as info:
                game.propose_lie(game.round)
            assert getattr(info.value, "name", None) == "RootStruck"
            return
        if lying:
            game.propose_lie(game.round)
        else:
            self.variant += 1
            game.propose(self.variant, game.round)
        self.lying = lying
        self.held += PROPOSER_BOND
        self.status = 1
        self.deadline = game.now + WINDOW

    def _final(self) -> bool:
        return self.status == 1 and self.game.now >= self.deadline and not any(
            entry[2] == self.game.round for entry in self.open.values())

    def _credit(self, who: str, amount: int) -> None:
        self.held -= amount
        self.paid[who] += amount

    @invariant()
    def bonds_are_conserved(self) -> None:
        game = self.game
        assert game.balance() == self.held + game.owed()
        assert {a: game.chain.call("withdrawable", a) for a in ACCOUNTS} == self.paid
        if game.chain.call("isFinal", game.market):
            assert game.now >= self.deadline
        twin = game.chain.call("verdicts", self.twin)
        assert (twin[5], twin[6], twin[7], twin[9]) == (0, 0, 1, T0 + 1 + WINDOW)
        assert game.chain.call("isFinal", self.twin) is (game.now >= T0 + 1 + WINDOW)


RegistryMachine.TestCase.settings = settings(
    max_examples=25, stateful_step_count=20, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
test_random_call_sequences_keep_the_invariants = RegistryMachine.TestCase


@pytest.mark.parametrize(("bonds", "window"), [
    ((0, CHALLENGER_BOND), WINDOW), ((PROPOSER_BOND, 0), WINDOW), ((2**128, 1), WINDOW),
    ((1, 2**128), WINDOW), ((1, 1), 0), ((1, 1), 2**32)])
def test_a_deployment_out_of_range_reverts(bonds: tuple[int, int], window: int) -> None:
    from chain_support import ERRORS, artifact, deploy_args, selector

    chain = Game().chain
    args = deploy_args([], bonds=bonds, window=window)
    with pytest.raises(RuntimeError) as info:
        chain.evm.deploy(ADMIN, bytes.fromhex(artifact()["bytecode"][2:]) + args)
    [error] = [s for s, (name, _t) in ERRORS.items() if name == "DeploymentValue"]
    assert error == selector("DeploymentValue()") and error.hex() in str(info.value)
