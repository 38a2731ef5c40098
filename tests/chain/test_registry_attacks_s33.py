"""Attacks on the s33 registry (issue 24, SPEC §14.2, §14.4): a strike writes no new
slot (the struck root kept in the record, archived on re-proposal), ``settleByProof``
pays its caller with the 2 300 gas stipend and credits ``withdrawable`` when the
transfer fails. Sequences: a settle whose caller burns its gas or re-enters when paid,
a settle twice in one transaction, a settle at the window's edges and past the court's
timeout with a challenge open, every root struck on a market re-proposed in each later
round; bonds conserved to the wei. Revm, the committed build.
"""

from __future__ import annotations

import pytest
from chain_support import (
    ADMIN,
    CHALLENGER,
    CHALLENGER_BOND,
    PROPOSER_BOND,
    TEST_ONLY_SECRET,
    WINDOW,
    Chain,
    address_of,
    call_data,
    register_bundle,
    reverts,
)
from test_chain_games import COURT_TIMEOUT, Game, case, lie
from test_registry_strikes import _init

from por.chain.calldata import proof_commitment

#: Forwarders (the _FORWARD of test_registry_strikes, hand-assembled, Cancun) that call
#: the registry with their calldata when sent no value; when paid they either burn all
#: their gas (INVALID) or re-enter the registry (``withdraw()``) and accept the payment.
_FORWARD_TAIL = "5b365f5f37" "5f5f365f5f73{registry}5af1" "3d5f5f3e60{ok}57" "3d5ffd" "5b3d5ff3"
BURNER = "3415600857" "fe5f5f" + _FORWARD_TAIL.replace("{ok}", "33")
REENTER = ("3415602c57" "633ccfd60b" "5f52" "5f5f6004601c5f73{registry}5af1" "5000"
           + _FORWARD_TAIL.replace("{ok}", "57"))


def _deploy(chain: Chain, runtime: str) -> str:
    code = bytes.fromhex(runtime.format(registry=chain.address[2:].lower()))
    deployer = "0x" + "f1" * 20
    chain.evm.set_balance(deployer, 10**18)
    return str(chain.evm.deploy(deployer, _init(code)))


def _committed(runtime: str) -> tuple[Chain, bytes, str, bytes]:
    """A lie's market and a forwarder ``runtime`` that committed its won proof a block
    ago: (chain, market, caller, the settle's calldata)."""
    data, won, _lost = lie()
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    market = register_bundle(chain, data)
    caller = _deploy(chain, runtime)
    commitment = proof_commitment(market, won, bytes.fromhex(caller[2:]))
    chain.send(call_data("commitProof", commitment), sender=CHALLENGER, to=caller)
    chain.mine()
    return chain, market, caller, call_data("settleByProof", market, won)


def _struck_by(runtime: str) -> tuple[Chain, bytes, str, int]:
    """A lie's market settled by a forwarder ``runtime``: (chain, market, caller, the
    settle's gas)."""
    chain, market, caller, settle = _committed(runtime)
    gas = chain.send(settle, sender=CHALLENGER, to=caller).gas_used
    assert chain.call("verdicts", market)[6:8] == (1, 2)  # round 1, Struck
    assert reverts(chain, settle, sender=CHALLENGER, to=caller).name == "NotChallengeable"
    return chain, market, caller, gas


def test_settle_caller_burns_gas_or_reenters() -> None:
    """A settle whose caller burns its gas when paid is credited (its stipend is all it
    burns: the settle costs about what a refusing caller's does); one whose caller
    re-enters ``withdraw`` when paid is paid once, and the re-entry changes nothing.
    The registry holds exactly the credits, to the wei."""
    chain, _market, caller, burnt = _struck_by(BURNER)
    assert chain.balance(caller) == 0
    assert chain.call("withdrawable", caller) == PROPOSER_BOND
    assert chain.balance(chain.address) == PROPOSER_BOND
    error = reverts(chain, call_data("withdraw"), sender=CHALLENGER, to=caller)
    assert error.name == "WithdrawFailed"
    assert chain.call("withdrawable", caller) == PROPOSER_BOND
    chain, _market, caller, paid = _struck_by(REENTER)
    assert chain.balance(caller) == PROPOSER_BOND
    assert chain.call("withdrawable", caller) == 0
    assert chain.balance(chain.address) == 0
    # the burner pays its 2 300 stipend and the credit's new slot, nothing more
    assert burnt - paid <= 2_300 + 22_100 + 5_000, (burnt, paid)


def test_settle_at_the_window_edges() -> None:
    """One second before the deadline a lie is settled and the verdict is not final; at
    the deadline the settle reverts ``WindowClosed`` and the verdict is final."""
    data, won, _lost = lie()
    for offset, settles in ((-1, True), (0, False)):
        chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
        market = register_bundle(chain, data)
        chain.commit_proof(market, won, CHALLENGER)
        deadline = chain.timestamp + WINDOW
        chain.set_time(deadline + offset)
        assert chain.call("isFinal", market) is not settles
        settle = call_data("settleByProof", market, won)
        if settles:
            before = chain.balance(CHALLENGER)
            chain.send(settle, sender=CHALLENGER)
            assert chain.balance(CHALLENGER) - before == PROPOSER_BOND
            assert chain.call("isFinal", market) is False
            assert reverts(chain, call_data("finalize", market)).name in (
                "NotFinal", "NotChallengeable")
        else:
            assert reverts(chain, settle, sender=CHALLENGER).name == "WindowClosed"
            chain.send(call_data("finalize", market))
            assert chain.call("isFinal", market) is True
        credits = sum(chain.call("withdrawable", a) for a in (ADMIN, CHALLENGER))
        assert chain.balance(chain.address) == credits


def test_every_struck_root_refused_in_every_later_round() -> None:
    """Five rounds, each verdict struck by a ruling: in every later round each earlier
    root (and the last) is refused ``RootStruck``, a fresh one is accepted; ``isStruck``
    names exactly the struck ones; the registry's balance is the open bonds plus the
    credits, to the wei."""
    game = Game()
    chain, market = game.chain, game.market
    roots = []
    for n in range(1, 6):
        roots.append(chain.call("verdicts", market)[0])
        game.open(CHALLENGER, case(n))
        chain.send(game.ruling(CHALLENGER, case(n), True))
        game.round += 1
        for variant in range(n):
            with pytest.raises(Exception) as info:
                game.propose(variant, n)
            assert getattr(info.value, "name", None) == "RootStruck", (n, variant)
        game.propose(n, n)
        assert [chain.call("isStruck", market, r) for r in roots] == [True] * n
        assert chain.call("isStruck", market, chain.call("verdicts", market)[0]) is False
        assert game.balance() == game.owed() + PROPOSER_BOND


def test_settle_with_a_challenge_open_past_the_court_timeout() -> None:
    """A lie with a challenge open is settled by proof after the deadline and after the
    court's timeout (the open challenge keeps it strikable): the settler is paid the
    proposer's bond, the challenge is moot (``lapse`` refused, ``closeMoot`` returns
    its bond), nothing is final, and the registry ends holding exactly the credits."""
    _data, won, _lost = lie()
    game = Game(lying=True)
    chain, market = game.chain, game.market
    opened = game.open(CHALLENGER, case(1))
    settler = ADMIN
    chain.commit_proof(market, won, settler)
    game.at(chain.call("verdicts", market)[9] + COURT_TIMEOUT + 1)
    before = chain.balance(settler)
    outcome = chain.send(call_data("settleByProof", market, won), sender=settler)
    paid = chain.balance(settler) - before
    assert paid == PROPOSER_BOND, paid  # revm charges no gas price here
    assert outcome.output
    assert chain.call("verdicts", market)[6:8] == (1, 2)
    assert reverts(chain, call_data("lapse", opened)).name == "ChallengeMoot"
    chain.send(call_data("closeMoot", opened))
    assert chain.call("withdrawable", CHALLENGER) == CHALLENGER_BOND
    assert reverts(chain, call_data("closeMoot", opened)).name == "ChallengeNotOpen"
    assert chain.call("isFinal", market) is False
    assert game.balance() == game.owed() == CHALLENGER_BOND

#: A contract that sends its calldata to the registry twice in one call and returns both
#: calls' success flags (second, first); it accepts any payment.
TWICE = ("341560075700fe5b365f5f37" "5f5f365f5f73{registry}5af1" "5f5f365f5f73{registry}5af1"
         "5f52602052" "60405ff3")


def test_settle_twice_in_one_transaction() -> None:
    """One transaction settling the same won proof twice: the first strikes and pays,
    the second reverts (``NotChallengeable``), the caller is paid once, the registry
    keeps nothing."""
    chain, market, caller, settle = _committed(TWICE)
    out = chain.send(settle, sender=CHALLENGER, to=caller).output
    assert out == (0).to_bytes(32, "big") + (1).to_bytes(32, "big")  # second failed, first won
    assert chain.call("verdicts", market)[6:8] == (1, 2)
    assert chain.balance(caller) == PROPOSER_BOND
    assert chain.call("withdrawable", caller) == 0
    assert chain.balance(chain.address) == 0
