"""ADR 0018 (s43): the registry keys every record by the PromptSpec a verdict answers.

The market key is ``keccak256(abi.encode(marketId, promptSpecHash))``, both signed in the
Verdict (SPEC §8.1, unchanged); ``proposeVerdict`` takes the PromptSpec component's path
and refuses a verdict whose signed ``promptSpecHash`` is not component 1 of its signed
``porRoot`` (``PromptSpecNotCommitted``, SPEC §14.2-§14.3). Two PromptSpecs with one
``market_id`` text are two markets: two records, two rounds, two finalities; a Ruling
for one key settles no challenge on the other.
"""

from __future__ import annotations

import hashlib
from typing import Any

from anvil_node import ANVIL, anvil, deploy
from chain_support import (
    CHAIN_ID,
    CHALLENGER,
    DEMO_BUNDLES,
    PROMPT_PATHS,
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
    raw_digest,
    reverts,
    ruling_calldata,
    submit_data,
    synthetic_verdict,
)
from hypothesis import given
from hypothesis import strategies as st
from setup_gate import needs

from por.chain import market_key, open_challenge_calldata
from por.merkle import leaf_hash
from por.signing.secp256k1 import sign_digest

SIGNER = address_of(TEST_ONLY_SECRET)
LEAF = b"the disputed evidence leaf"
MARKET_ID = hashlib.sha256(b"one market id text").digest()
SPEC_A = hashlib.sha256(b"PromptSpec A: threshold 100k").digest()
SPEC_B = hashlib.sha256(b"PromptSpec B: threshold 10k").digest()
CASE = hashlib.sha256(b"a case").digest()


def _chain() -> Chain:
    chain = Chain(signers=("0x" + SIGNER.hex(),))
    chain.call("setResolver", "0x" + address_of(TEST_ONLY_COURT).hex())
    chain.set_time(T0 + 1)
    return chain


def _signed(words: tuple[Any, ...], chain_id: int, contract: bytes,
            path: list[bytes] | None = None) -> bytes:
    """proposeVerdict calldata of ``words`` signed by the registered key."""
    signature = sign_digest(TEST_ONLY_SECRET, raw_digest(words, chain_id, contract))
    return submit_data(words, SIGNER, signature, path)


def _market(chain: Chain, spec: bytes, nonce: int) -> tuple[bytes, Any, tuple[Any, ...]]:
    """A verdict on MARKET_ID answering the PromptSpec ``spec``, proposed: (key, the
    evidence leaf's InclusionProof, the words)."""
    words, proof = synthetic_verdict("evidence_leaf", 4, 1, LEAF, nonce=nonce,
                                     market=MARKET_ID, prompt_spec=spec)
    chain.send(propose_data(words, chain.chain_id, chain.contract))
    return key_of(words), proof, words


@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_the_contracts_key_is_por_chains(market_id: bytes, spec: bytes) -> None:
    assert CHAIN.call("marketKeyOf", market_id, spec) == market_key(market_id, spec)


CHAIN = Chain()


# --- (a) the binding at propose ----------------------------------------------------------


def test_a_promptspec_the_bundle_does_not_commit_reverts_at_propose() -> None:
    """A signer answering another PromptSpec with a bundle honest in every byte: the
    signed promptSpecHash is not porRoot's component 1, whatever path is sent."""
    from por.bundle import Bundle

    chain = _chain()
    data = (DEMO_BUNDLES / "01-boolean-observed.cbor").read_bytes()
    bundle = Bundle.from_cbor(data)
    _key, honest = bundle_proposal(data, chain.chain_id, chain.contract)
    words = _words_of(bundle, chain)
    path = PROMPT_PATHS[bundle.commitments.por_root]
    other = (*words[:3], SPEC_B, *words[4:])  # another PromptSpec, the same bundle
    for sent, path_sent in ((other, path), (words, [path[0], path[2], path[1]]),
                            (words, [bytes(32)] * 3)):
        error = reverts(chain, _signed(sent, chain.chain_id, chain.contract, path_sent))
        assert error.name == "PromptSpecNotCommitted"
        assert error.args_[1] == bundle.commitments.por_root
    short = reverts(chain, _signed(words, chain.chain_id, chain.contract, path[:2]))
    assert short.name == "MerkleProofLength"  # PATH(1, 7) is 3 hashes
    chain.send(honest)  # the honest path of the same verdict is accepted
    assert chain.call("verdicts", key_of(words))[7] == 1


def _words_of(bundle: Any, chain: Chain) -> tuple[Any, ...]:
    from por.bundle import verdict_struct
    from por.chain.calldata import verdict_args
    from por.schemas import DeterministicVerdict

    del chain
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    struct = verdict_struct(verdict, bundle.commitments, issued_at=T0,
                            expires_at=T0 + 7 * 24 * 3600, nonce=0)
    return verdict_args(struct)


# --- (b) one market id, two PromptSpecs: two markets ---------------------------------------


def test_two_promptspecs_of_one_market_id_are_two_records() -> None:
    chain = _chain()
    key_a, proof_a, _ = _market(chain, SPEC_A, 1)
    key_b, _proof_b, words_b = _market(chain, SPEC_B, 2)
    assert key_a != key_b and MARKET_ID not in (key_a, key_b)
    assert chain.call("verdicts", MARKET_ID)[7] == 0  # nothing under the bare id
    # A's verdict is struck by an upheld ruling; B's is untouched, and finalizes alone.
    chain.send(open_challenge_calldata(key_a, CASE, proof_a), sender=CHALLENGER)
    chain.send(ruling_calldata(chain.contract, key_a, (2, 1, leaf_hash(LEAF)),
                               challenger=CHALLENGER, case=CASE, upheld=True), sender=RESOLVER)
    assert chain.call("verdicts", key_a)[6:8] == (1, 2)  # round 1, Struck
    assert chain.call("verdicts", key_b)[5:8] == (0, 0, 1)  # no challenge, round 0, Proposed
    chain.set_time(T0 + 1 + WINDOW)
    assert chain.call("finalOutcome", key_a) == 0 and chain.call("isFinal", key_a) is False
    assert chain.call("finalOutcome", key_b) == 1 and chain.call("isFinal", key_b) is True
    chain.call("finalize", key_b)
    # The rounds are per key: B's round 1 does not exist, A's does.
    again_b = (*words_b[:11], 1)
    error = reverts(chain, _signed(again_b, chain.chain_id, chain.contract))
    assert (error.name, error.args_) == ("VerdictExists", (key_b,))
    words, _ = synthetic_verdict("evidence_leaf", 4, 1, LEAF, nonce=3, round_=0,
                                 market=MARKET_ID, prompt_spec=SPEC_A)
    error = reverts(chain, propose_data(words, chain.chain_id, chain.contract))
    assert (error.name, error.args_) == ("NonceRound", (key_a, 0, 1))
    words, _ = synthetic_verdict("evidence_leaf", 4, 1, LEAF, nonce=3, round_=1,
                                 market=MARKET_ID, prompt_spec=SPEC_A)
    chain.send(propose_data(words, chain.chain_id, chain.contract))
    assert chain.call("verdicts", key_a)[6:8] == (1, 1)
    assert chain.call("verdicts", key_b)[7] == 3  # B stays Final


# --- (c) a Ruling names its key ------------------------------------------------------------


def test_a_ruling_for_one_key_settles_no_challenge_on_another() -> None:
    chain = _chain()
    key_a, proof_a, _ = _market(chain, SPEC_A, 1)
    key_b, proof_b, _ = _market(chain, SPEC_B, 2)
    for key, proof in ((key_a, proof_a), (key_b, proof_b)):  # same leaf, challenger, case
        chain.send(open_challenge_calldata(key, CASE, proof), sender=CHALLENGER)
    leaf = (2, 1, leaf_hash(LEAF))
    ruling_a = ruling_calldata(chain.contract, key_a, leaf, challenger=CHALLENGER, case=CASE,
                               upheld=True)
    # B's challenge id with A's key in the Ruling: the court's key names another market.
    from por.chain.calldata import leaf_id, submit_ruling_calldata
    from por.court.eip712 import RulingStruct, sign_ruling
    from por.signing.eip712 import Eip712Domain

    mixed = RulingStruct(leaf_id(key_b, 2, 1), key_a, leaf[2], True, 10, CASE, bytes(32), T0,
                         T0 + 1000 * WINDOW)
    record = sign_ruling(mixed, TEST_ONLY_COURT,
                         Eip712Domain(chain_id=CHAIN_ID, verifying_contract=chain.contract))
    words = tuple(getattr(mixed, f) for f in RulingStruct.__dataclass_fields__)
    data = submit_ruling_calldata(words, record.signature, bytes.fromhex(CHALLENGER[2:]))
    assert reverts(chain, data, sender=RESOLVER).name == "RulingMismatch"
    chain.send(ruling_a, sender=RESOLVER)
    assert chain.call("verdicts", key_a)[7] == 2  # A struck
    assert chain.call("verdicts", key_b)[5:8] == (1, 0, 1)  # B: its challenge still open
    assert reverts(chain, ruling_a, sender=RESOLVER).name == "ChallengeNotOpen"


# --- (a) on a real node ----------------------------------------------------------------------


@needs("anvil-npm", None if ANVIL.exists() else "anvil is not installed")
def test_anvil_refuses_a_promptspec_the_bundle_does_not_commit() -> None:
    with anvil() as node:
        registry, accounts = deploy(node)
        contract = bytes.fromhex(registry[2:])
        words, _proof = synthetic_verdict("evidence_leaf", 4, 1, LEAF, nonce=11,
                                          market=MARKET_ID, prompt_spec=SPEC_A)
        other = (*words[:3], SPEC_B, *words[4:])
        path = PROMPT_PATHS[words[8]]
        assert node.revert_name(accounts[1], registry, _signed(other, CHAIN_ID, contract, path),
                                PROPOSER_BOND) == "PromptSpecNotCommitted"
        node.send(accounts[1], registry, _signed(words, CHAIN_ID, contract), PROPOSER_BOND)
        record = node.view(registry, call_data("verdicts", key_of(words)))
        assert record[7 * 32:8 * 32] == (1).to_bytes(32, "big")  # Proposed
