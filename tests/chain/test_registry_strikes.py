"""The registry's strike, in revm (SPEC §14.2, §14.4): what a strike stores and who is
paid. A strike keeps its struck root in the market's record and the next proposal
archives it, so every root ever struck on a market stays refused (``RootStruck``),
not only the last; a won proof's caller is paid with the strike, and one that refuses
the payment is credited it instead, for ``withdraw``, once; a used commitment pays
nothing again."""

from __future__ import annotations

import pytest
from chain_support import (
    ADMIN,
    CHALLENGER,
    PROPOSER_BOND,
    TEST_ONLY_SECRET,
    Chain,
    address_of,
    call_data,
    register_bundle,
    reverts,
)
from test_chain_games import Game, case, lie

from por.chain.calldata import proof_commitment

#: A contract that forwards any call it gets to the registry (so it can commit and
#: settle as the caller) and reverts whenever it is sent value: an account that
#: refuses the payment. Hand-assembled (Cancun): ``if callvalue: revert``; copy the
#: calldata, ``call(gas, REGISTRY, 0, ...)``, return or revert with its return data.
_FORWARD = ("3415600857" "5f80fd" "5b365f5f37" "5f5f365f5f73{registry}5af1"
            "3d5f5f3e603357" "3d5f fd" "5b3d5ff3").replace(" ", "")


def _init(runtime: bytes) -> bytes:
    """Creation code returning ``runtime``: CODECOPY it to 0, RETURN it."""
    return bytes([0x60, len(runtime), 0x80, 0x60, 0x09, 0x5F, 0x39, 0x5F, 0xF3]) + runtime


def deploy_refusing(chain: Chain) -> str:
    runtime = bytes.fromhex(_FORWARD.format(registry=chain.address[2:].lower()))
    deployer = "0x" + "f0" * 20
    chain.evm.set_balance(deployer, 10**18)
    return str(chain.evm.deploy(deployer, _init(runtime)))


def _strike_by_ruling(game: Game, n: int) -> None:
    game.open(CHALLENGER, case(n))
    game.chain.send(game.ruling(CHALLENGER, case(n), True))
    game.round += 1


def _root(game: Game) -> bytes:
    root: bytes = game.chain.call("verdicts", game.market)[0]
    return root


def test_every_root_struck_on_a_market_stays_refused() -> None:
    """A struck, B proposed (A archived), B struck (B in the record): neither A nor B
    comes back in the next round, C does; ``isStruck`` names exactly A and B."""
    game = Game()
    chain, market = game.chain, game.market
    first = _root(game)
    assert chain.call("isStruck", market, first) is False  # proposed, not struck
    _strike_by_ruling(game, 1)
    assert chain.call("isStruck", market, first) is True  # the record's own root
    game.propose(1, 1)
    second = _root(game)
    assert chain.call("isStruck", market, first) is True  # archived by the proposal
    assert chain.call("isStruck", market, second) is False
    _strike_by_ruling(game, 2)
    assert chain.call("isStruck", market, second) is True
    for variant in (0, 1):  # the archived root and the last struck one
        with pytest.raises(Exception) as info:
            game.propose(variant, 2)
        assert getattr(info.value, "name", None) == "RootStruck"
    game.propose(2, 2)
    third = _root(game)
    assert [chain.call("isStruck", market, r) for r in (first, second, third)] == [
        True, True, False]
    assert chain.call("verdicts", market)[6:8] == (2, 1)  # round 2, Proposed


def test_a_caller_refusing_the_payment_is_credited_once() -> None:
    """A won proof sent through a contract that refuses value: the strike stands, the
    bond is credited to that contract, its ``withdraw`` fails and keeps the credit, and
    the registry holds exactly that credit."""
    data, won, _lost = lie()
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    market = register_bundle(chain, data)
    caller = deploy_refusing(chain)
    commitment = proof_commitment(market, won, bytes.fromhex(caller[2:]))
    chain.send(call_data("commitProof", commitment), sender=CHALLENGER, to=caller)  # forwarded
    chain.mine()
    settle = call_data("settleByProof", market, won)
    assert reverts(chain, settle, sender=CHALLENGER).name == "ProofNotCommitted"
    chain.send(settle, sender=CHALLENGER, to=caller)
    assert chain.call("verdicts", market)[6:8] == (1, 2)  # round 1, Struck
    assert chain.balance(caller) == 0
    assert chain.call("withdrawable", caller) == PROPOSER_BOND
    assert chain.balance(chain.address) == PROPOSER_BOND
    error = reverts(chain, call_data("withdraw"), sender=CHALLENGER, to=caller)
    assert error.name == "WithdrawFailed"
    assert chain.call("withdrawable", caller) == PROPOSER_BOND  # kept, for a later try
    assert chain.balance(chain.address) == PROPOSER_BOND


def test_a_used_commitment_pays_nothing_again() -> None:
    """After the strike the same settle (same caller, same commitment) reverts, and
    after the next proposal it is about another root; the winner was paid once."""
    data, won, _lost = lie()
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    market = register_bundle(chain, data)
    chain.commit_proof(market, won, CHALLENGER)
    settle = call_data("settleByProof", market, won)
    before = chain.balance(CHALLENGER)
    chain.send(settle, sender=CHALLENGER)
    assert chain.balance(CHALLENGER) - before == PROPOSER_BOND
    chain.mine()
    assert reverts(chain, settle, sender=CHALLENGER).name == "NotChallengeable"
    with pytest.raises(Exception) as info:
        register_bundle(chain, data, nonce=1)  # the struck lie cannot come back
    assert getattr(info.value, "name", None) == "RootStruck"
    assert chain.call("isStruck", market, chain.call("verdicts", market)[0]) is True
    assert chain.balance(CHALLENGER) - before == PROPOSER_BOND
    assert chain.balance(chain.address) == 0
    assert reverts(chain, call_data("withdraw"), sender=CHALLENGER).name == "NothingToWithdraw"
    assert chain.call("withdrawable", ADMIN) == 0
