"""s44 attack on ADR 0018's market key and its binding at propose (SPEC §14.2 step 7).

Each test plays one attack in revm and passes because the attack fails with the error
SPEC §14.2-§14.4 states:

* paths that verify for another component (the same hash at positions 0, 3, 5; another
  component's root; an inner node; a PromptSpec committed with size 2; every length but
  3): ``MerkleProofLength`` or ``PromptSpecNotCommitted``, and the contract accepts
  exactly what por.merkle's RFC 9162 verification accepts (a differential over random
  trees and mutated paths);
* a signature, a proof commitment, a challenge or a won proof made for one key used for
  another (same marketId other PromptSpec, other marketId same PromptSpec):
  ``SignatureInvalid``, ``ProofNotCommitted``, ``ProofComponentPath``; struck roots,
  rounds and a lapse's void are per key;
* Verdict and InclusionProof words wider than their type: refused by the ABI decoder.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import pytest
from chain_support import (
    ADMIN,
    CHALLENGER,
    PROMPT_PATHS,
    T0,
    TEST_ONLY_SECRET,
    WEEK,
    Chain,
    call_data,
    key_of,
    propose_data,
    raw_digest,
    remember_path,
    reverts,
    submit_data,
    synthetic_verdict,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from por.bundle.layout import COMPONENTS, component_leaf
from por.chain import market_key
from por.chain.calldata import open_challenge_calldata, settlement_id
from por.merkle import (
    inclusion_proof_from_leaf_hashes,
    leaf_hash,
    node_hash,
    root_from_inclusion_proof,
    root_from_leaf_hashes,
)
from por.signing.secp256k1 import sign_digest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "challenge"))
from citation_support import reordered_08
from test_registry_market_key import MARKET_ID, SIGNER, SPEC_A, SPEC_B, _chain

OTHER_ID = hashlib.sha256(b"attack: another market id").digest()


def _tree(pairs: dict[str, tuple[bytes, int]]) -> tuple[list[bytes], bytes]:
    """The seven component leaf hashes of ``pairs`` (name -> (root, size)) and por_root."""
    hashes = [leaf_hash(component_leaf(*pairs[name])) for name in COMPONENTS]
    return hashes, root_from_leaf_hashes(hashes)


def _pairs(spec: bytes, seed: bytes) -> dict[str, tuple[bytes, int]]:
    pairs = {name: (hashlib.sha256(seed + name.encode()).digest(), 1) for name in COMPONENTS}
    pairs["prompt_spec"] = (spec, 1)
    return pairs


def _words(market_id: bytes, spec: bytes, por_root: bytes, nonce: int = 0) -> tuple[Any, ...]:
    h = hashlib.sha256(b"words" + por_root).digest()
    return (market_id, 1, 9000, spec, h, 3, h, 4, por_root, T0, T0 + 100 * WEEK, nonce)


def _propose(chain: Chain, words: tuple[Any, ...], path: list[bytes]) -> bytes:
    """proposeVerdict of ``words`` signed by the registered key with ``path``: calldata."""
    signature = sign_digest(TEST_ONLY_SECRET, raw_digest(words, chain.chain_id, chain.contract))
    return submit_data(words, SIGNER, signature, path)


# --- 1. paths and hashes that verify for something other than component 1 ---------------------


@pytest.mark.parametrize("length", [0, 1, 2, 4, 6, 8])
def test_a_path_of_any_length_but_3_is_merkle_proof_length(length: int) -> None:
    chain = _chain()
    words, _ = synthetic_verdict("evidence_leaf", 4, 1, b"leaf", nonce=40 + length)
    path = PROMPT_PATHS[words[8]]
    sent = (path * 3)[:length]
    error = reverts(chain, _propose(chain, words, sent))
    assert (error.name, error.args_) == ("MerkleProofLength", (3, length))


@pytest.mark.parametrize("position", [0, 3, 5])
def test_the_signed_hash_at_another_size_1_position_is_not_committed(position: int) -> None:
    """The bundle commits SPEC_A at ``position`` (a size-1 component: the same 40-byte
    component leaf as a PromptSpec's) and another hash at 1; the signer signs SPEC_A with
    the path of ``position`` (a 3-hash path too) or with the true path of position 1."""
    chain = _chain()
    pairs = _pairs(SPEC_B, b"position %d" % position)
    pairs[COMPONENTS[position]] = (SPEC_A, 1)
    hashes, por_root = _tree(pairs)
    words = _words(MARKET_ID, SPEC_A, por_root)
    for path in (inclusion_proof_from_leaf_hashes(hashes, position),
                 inclusion_proof_from_leaf_hashes(hashes, 1)):
        error = reverts(chain, _propose(chain, words, path))
        assert error.name == "PromptSpecNotCommitted" and error.args_[1] == por_root
    honest = _words(MARKET_ID, SPEC_B, por_root)  # SPEC_B is component 1: accepted
    chain.send(_propose(chain, honest, inclusion_proof_from_leaf_hashes(hashes, 1)))
    assert chain.call("verdicts", market_key(MARKET_ID, SPEC_B))[7] == 1


def test_another_components_root_or_an_inner_node_is_not_a_promptspec_hash() -> None:
    """promptSpecHash = the evidence root (size 1), the forms root, the node over C0 and
    C1, the node over C2 and C3, the por_root itself, C1's leaf hash: each with every
    3-hash path taken from the tree's own nodes."""
    chain = _chain()
    pairs = _pairs(SPEC_A, b"inner")
    hashes, por_root = _tree(pairs)
    n01, n23 = node_hash(hashes[0], hashes[1]), node_hash(hashes[2], hashes[3])
    n45 = node_hash(hashes[4], hashes[5])
    n456 = node_hash(n45, hashes[6])
    nodes = [*hashes, n01, n23, n45, n456, node_hash(n01, n23)]
    candidates = [pairs["evidence"][0], pairs["forms"][0], n01, n23, por_root, hashes[1]]
    true_path = inclusion_proof_from_leaf_hashes(hashes, 1)
    for spec in candidates:
        words = _words(MARKET_ID, spec, por_root)
        paths = [true_path, [n01, n23, n456], [hashes[0], n23, n456], [hashes[1], n23, n456]]
        paths += [[nodes[i], nodes[(i + 3) % 12], nodes[(i + 7) % 12]] for i in range(12)]
        for path in paths:
            error = reverts(chain, _propose(chain, words, path))
            assert error.name == "PromptSpecNotCommitted", (spec.hex(), path)


def test_a_promptspec_committed_with_size_2_is_not_committed() -> None:
    """Component 1 committed as SPEC_A || uint64_be(2): the contract's leaf binds size 1."""
    chain = _chain()
    pairs = _pairs(SPEC_A, b"size 2")
    pairs["prompt_spec"] = (SPEC_A, 2)
    hashes, por_root = _tree(pairs)
    words = _words(MARKET_ID, SPEC_A, por_root)
    error = reverts(chain, _propose(chain, words, inclusion_proof_from_leaf_hashes(hashes, 1)))
    assert error.name == "PromptSpecNotCommitted"


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 6), st.integers(0, 2),
       st.integers(0, 255), st.booleans())
def test_propose_accepts_exactly_what_rfc9162_verifies(spec: bytes, position: int, at: int,
                                                        bit: int, flip: bool) -> None:
    """Differential: SPEC_A committed at ``position`` of a random tree, the path of that
    position sent (one bit of hash ``at`` flipped if ``flip``); the registry accepts iff
    por.merkle computes por_root from LH(spec || be64(1)) at index 1."""
    pairs = _pairs(spec, spec)
    pairs["prompt_spec"] = (hashlib.sha256(spec).digest(), 1)
    pairs[COMPONENTS[position]] = (spec, 1)
    hashes, por_root = _tree(pairs)
    path = list(inclusion_proof_from_leaf_hashes(hashes, position))
    if flip:
        word = bytearray(path[at % len(path)])
        word[bit // 8] ^= 1 << (bit % 8)
        path[at % len(path)] = bytes(word)
    computed = root_from_inclusion_proof(leaf_hash(component_leaf(spec, 1)), 1, 7, path) \
        if len(path) == 3 else None
    words = _words(spec, spec, por_root)
    chain = _chain()
    data = _propose(chain, words, path)
    if computed == por_root:
        chain.send(data)
        assert position == 1 and not flip
        assert chain.call("verdicts", market_key(spec, spec))[0] == por_root
    else:
        expected = "PromptSpecNotCommitted" if len(path) == 3 else "MerkleProofLength"
        assert reverts(chain, data).name == expected  # position 6: a 2-hash path


# --- 2. replays under another key --------------------------------------------------------------


def test_a_signature_for_one_key_is_refused_for_another() -> None:
    """The words of (MARKET_ID, SPEC_A) signed; sent with the marketId or the PromptSpec
    hash of another key (with the path that commits the other PromptSpec): the recovered
    address is another one. The signature checks come before the binding (§14.2)."""
    chain = _chain()
    pairs = _pairs(SPEC_A, b"replay")
    hashes, por_root = _tree(pairs)
    path = inclusion_proof_from_leaf_hashes(hashes, 1)
    words = _words(MARKET_ID, SPEC_A, por_root)
    signature = sign_digest(TEST_ONLY_SECRET, raw_digest(words, chain.chain_id, chain.contract))
    pairs_b = _pairs(SPEC_B, b"replay")
    hashes_b, root_b = _tree(pairs_b)
    for other, other_path in (((OTHER_ID, *words[1:]), path),
                              ((*words[:3], SPEC_B, *words[4:8], root_b, *words[9:]),
                               inclusion_proof_from_leaf_hashes(hashes_b, 1))):
        error = reverts(chain, submit_data(other, SIGNER, signature, other_path))
        assert error.name == "SignatureInvalid" and error.args_[0] == "0x" + SIGNER.hex()
    chain.send(submit_data(words, SIGNER, signature, path))
    assert chain.call("verdicts", market_key(OTHER_ID, SPEC_A))[7] == 0


def _bundle_words(bundle: Any) -> tuple[Any, ...]:
    """The Verdict words of ``bundle`` (its own market id and PromptSpec), nonce 0."""
    from por.bundle import verdict_struct
    from por.chain.calldata import verdict_args
    from por.schemas import DeterministicVerdict

    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    struct = verdict_struct(verdict, bundle.commitments, issued_at=T0,
                            expires_at=T0 + WEEK, nonce=0)
    return verdict_args(struct)


def test_one_lying_root_under_two_market_ids_is_struck_per_key(tmp_path: Path) -> None:
    """A registered signer signs one lying bundle for its own market id and another: two
    keys, one por_root. A proof committed for one key pays nothing on the other
    (ProofNotCommitted), a strike on one leaves the other Proposed and its root not struck
    there; each key is struck by its own commitment, with its own settlement id."""
    from por.challenge import build_citation_proof, citation_faults

    bundle, _ = reordered_08((1, 0, 2))
    remember_path(bundle.commitments)
    proof = build_citation_proof(bundle, citation_faults(bundle)[0]).to_cbor()
    chain = _chain()
    own = _bundle_words(bundle)
    words = {"own": own, "other": (OTHER_ID, *own[1:])}
    keys = {name: key_of(w) for name, w in words.items()}
    for w in words.values():
        chain.send(propose_data(w, chain.chain_id, chain.contract))
    chain.commit_proof(keys["own"], proof, CHALLENGER)
    settle_other = call_data("settleByProof", keys["other"], proof)
    assert reverts(chain, settle_other, sender=CHALLENGER).name == "ProofNotCommitted"
    out = chain.send(call_data("settleByProof", keys["own"], proof), sender=CHALLENGER)
    assert out.output == settlement_id(keys["own"], proof)
    por_root = own[8]
    assert chain.call("isStruck", keys["own"], por_root) is True
    assert chain.call("isStruck", keys["other"], por_root) is False
    assert chain.call("verdicts", keys["other"])[6:8] == (0, 1)
    # the used commitment cannot be spent again on the struck key, nor on the other
    assert reverts(chain, settle_other, sender=CHALLENGER).name == "ProofNotCommitted"
    chain.commit_proof(keys["other"], proof, ADMIN)
    out = chain.send(settle_other, sender=ADMIN)
    assert out.output == settlement_id(keys["other"], proof) != settlement_id(keys["own"], proof)
    # the struck root cannot come back on either key (RootStruck), round 1
    for name, w in words.items():
        again = (*w[:11], 1)
        error = reverts(chain, propose_data(again, chain.chain_id, chain.contract))
        assert (error.name, error.args_) == ("RootStruck", (keys[name], por_root))
    del tmp_path


def test_a_challenge_with_another_keys_proof_fails_inclusion() -> None:
    """An InclusionProof against key A's por_root sent to open a challenge on key B (same
    market id, another PromptSpec): level 2 gives A's root, not B's (ProofComponentPath);
    with A's key it opens, and B's record is untouched."""
    chain = _chain()
    words_a, proof_a = synthetic_verdict("evidence_leaf", 4, 1, b"leaf", nonce=70,
                                         market=MARKET_ID, prompt_spec=SPEC_A)
    words_b, _ = synthetic_verdict("evidence_leaf", 4, 1, b"leaf", nonce=71,
                                   market=MARKET_ID, prompt_spec=SPEC_B)
    for w in (words_a, words_b):
        chain.send(propose_data(w, chain.chain_id, chain.contract))
    case = hashlib.sha256(b"case").digest()
    error = reverts(chain, open_challenge_calldata(key_of(words_b), case, proof_a),
                    sender=CHALLENGER)
    assert (error.name, error.args_[1]) == ("ProofComponentPath", words_b[8])
    chain.send(open_challenge_calldata(key_of(words_a), case, proof_a), sender=CHALLENGER)
    assert chain.call("verdicts", key_of(words_a))[5] == 1
    assert chain.call("verdicts", key_of(words_b))[5] == 0


def test_a_lapse_voids_only_its_own_key() -> None:
    """The court never rules on a challenge of (MARKET_ID, SPEC_A): its lapse voids that
    key only (INVALID, no re-proposal, VerdictExists); (MARKET_ID, SPEC_B), proposed the
    same second, is final with its own outcome and takes no lapse."""
    chain = _chain()
    keys, proofs = [], []
    for spec, nonce in ((SPEC_A, 80), (SPEC_B, 81)):
        words, proof = synthetic_verdict("evidence_leaf", 4, 1, b"leaf", nonce=nonce,
                                         market=MARKET_ID, prompt_spec=spec)
        chain.send(propose_data(words, chain.chain_id, chain.contract))
        keys.append(key_of(words))
        proofs.append((words, proof))
    case = hashlib.sha256(b"a case the court never rules").digest()
    out = chain.send(open_challenge_calldata(keys[0], case, proofs[0][1]), sender=CHALLENGER)
    challenge = out.output[:32]
    deadline = chain.call("verdicts", keys[0])[9]
    chain.set_time(deadline + 30 * 24 * 3600)
    chain.send(call_data("lapse", challenge))
    assert chain.call("finalOutcome", keys[0]) == 3 and chain.call("verdicts", keys[0])[7] == 4
    assert chain.call("finalOutcome", keys[1]) == 1 and chain.call("verdicts", keys[1])[7] == 1
    again = (*proofs[0][0][:11], 1)  # the voided key's next round: refused, the market is void
    error = reverts(chain, propose_data(again, chain.chain_id, chain.contract))
    assert (error.name, error.args_) == ("VerdictExists", (keys[0],))
    assert reverts(chain, call_data("lapse", challenge)).name == "ChallengeNotOpen"


WIDE = "(bytes32,uint256,uint256,bytes32,bytes32,uint256,bytes32,uint256,bytes32," + \
    "uint256,uint256,uint256)"
#: Verdict members narrower than a word with a bit set above their type (signed as such).
DIRTY = [(1, 1 + 256), (2, 9000 + 2**16), (5, 3 + 2**64), (7, 4 + 2**64), (9, T0 + 2**64),
         (10, T0 + 100 * WEEK + 2**64), (11, 2**64)]


@pytest.mark.parametrize(("member", "value"), DIRTY)
def test_a_verdict_word_wider_than_its_type_is_refused(member: int, value: int) -> None:
    """The digest hashes the twelve words as sent (``verdictDigest``'s calldatacopy);
    a word with bits above its member's type, signed as sent, is refused by the ABI
    decoder (a revert with no data) before any record is written: no stored verdict
    differs from the values a por verifier rebuilds."""
    from eth_abi.abi import encode as abi_encode

    from por.chain import PROPOSE_VERDICT
    from por.chain.calldata import selector

    chain = _chain()
    words, _ = synthetic_verdict("evidence_leaf", 4, 1, b"leaf", nonce=90 + member,
                                 market=MARKET_ID, prompt_spec=SPEC_A)
    dirty = tuple(value if i == member else w for i, w in enumerate(words))
    signature = sign_digest(TEST_ONLY_SECRET, raw_digest(dirty, chain.chain_id, chain.contract))
    data = selector(PROPOSE_VERDICT) + abi_encode(
        [WIDE, "bytes32[]", "address", "bytes"],
        [dirty, PROMPT_PATHS[words[8]], "0x" + SIGNER.hex(), signature])
    error = reverts(chain, data)
    assert error.data == b"" and chain.call("verdicts", key_of(words))[7] == 0


def test_an_inclusion_word_wider_than_its_type_is_refused() -> None:
    """openChallenge with component, leafIndex or treeSize above uint8/uint64 (2^64 + 4
    would hash as 4 in the component leaf): a revert with no data."""
    from eth_abi.abi import encode as abi_encode

    chain = _chain()
    words, proof = synthetic_verdict("evidence_leaf", 4, 1, b"leaf", nonce=99,
                                     market=MARKET_ID, prompt_spec=SPEC_A)
    chain.send(propose_data(words, chain.chain_id, chain.contract))
    key, case = key_of(words), hashlib.sha256(b"case").digest()
    honest_call = open_challenge_calldata(key, case, proof)
    wide = "(uint256,uint256,uint256,bytes,bytes32[],bytes32,bytes32[])"

    def sent(component: int, index: int, size: int) -> bytes:
        return honest_call[:4] + abi_encode(["bytes32", "bytes32", wide], [key, case, (
            component, index, size, proof.leaf, proof.leaf_path, proof.component_root,
            proof.component_path)])

    assert sent(2, 1, 4) == honest_call
    for component, index, size in ((2 + 256, 1, 4), (2, 1 + 2**64, 4), (2, 1, 4 + 2**64)):
        error = reverts(chain, sent(component, index, size), sender=CHALLENGER)
        assert error.data == b""
    assert chain.call("verdicts", key)[5] == 0
