"""The outcome proof (SPEC §14.4; ADR 0017 s45 ``bind``), in revm: a proposal whose stored
words (outcome, confidenceBps, evidenceCount, reasoningCount) are not the committed
verdict's is struck by ``settleByForms(key, keccak256("form:outcome"), args)`` carrying the
committed VERDICT form; an honest proposal is not (``ProofNotWon(one_step.match)``); a
proof that is not the committed VERDICT form at the last forms index is lost with the
FormStepProof's ids; a proof of another bundle strikes no other verdict. The chain's
answer is Python's (``por.chain.outcome.outcome_answer``) in every case."""

from __future__ import annotations

from typing import Any

import pytest
from chain_support import (
    CHALLENGER,
    DEMO_BUNDLES,
    PROOF_CHECK,
    PROPOSER_BOND,
    T0,
    TEST_ONLY_SECRET,
    WEEK,
    WINDOW,
    Chain,
    address_of,
    key_of,
    propose_data,
    remember_path,
    reverts,
)
from eth_abi import decode, encode

from por.bundle import Bundle, verdict_struct
from por.chain.calldata import (
    FORMS_INCLUSION_TUPLE,
    selector,
    settle_by_forms_calldata,
    verdict_args,
)
from por.chain.outcome import (
    OUTCOME_KIND,
    OutcomeAnswer,
    outcome_answer,
    outcome_args,
    proposal_verdict,
)
from por.schemas import DeterministicVerdict
from por.signing.eip712 import VERDICT_MEMBERS, keccak256

NAME = "01-boolean-observed.cbor"
OTHER = "08-quorum-agree.cbor"
#: Verdict tuple positions of the stored words (SPEC §8.1 order).
AT = {name: i for i, (name, _m, _k) in enumerate(VERDICT_MEMBERS)}


def _bundle(name: str) -> Bundle:
    bundle = Bundle.from_cbor((DEMO_BUNDLES / name).read_bytes())
    remember_path(bundle.commitments)
    return bundle


def _words(bundle: Bundle, **lies: int) -> tuple[Any, ...]:
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    words = list(verdict_args(verdict_struct(verdict, bundle.commitments, issued_at=T0,
                                             expires_at=T0 + WEEK, nonce=0)))
    for name, value in lies.items():
        words[AT[name]] = value
    return tuple(words)


def _proposed(words: tuple[Any, ...]) -> tuple[Chain, bytes, bytes]:
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    chain.set_time(T0 + 1)
    data = propose_data(words, chain.chain_id, chain.contract)
    chain.send(data)
    return chain, key_of(words), data


def _settle(chain: Chain, key: bytes, args: bytes) -> Any:
    chain.commit_proof(key, OUTCOME_KIND + args, CHALLENGER)
    return chain.send(settle_by_forms_calldata(key, OUTCOME_KIND, args), sender=CHALLENGER)


def _not_won(chain: Chain, key: bytes, args: bytes) -> str:
    chain.commit_proof(key, OUTCOME_KIND + args, CHALLENGER)
    error = reverts(chain, settle_by_forms_calldata(key, OUTCOME_KIND, args), sender=CHALLENGER)
    assert error.name == "ProofNotWon", error.name
    (check,) = error.args_
    known = ("one_step.match", "proof.form", "proof.leaf_path", "proof.component_path",
             "proof.schema", "merkle.index_range", "merkle.proof_length")
    return {keccak256(t.encode()): t for t in known}[bytes(check)]


def test_an_honest_proposal_is_not_struck() -> None:
    bundle = _bundle(NAME)
    words = _words(bundle)
    chain, key, data = _proposed(words)
    assert outcome_answer(bundle, proposal_verdict(data)) == OutcomeAnswer(False,
                                                                           "one_step.match", {})
    assert _not_won(chain, key, outcome_args(bundle)) == "one_step.match"
    chain.set_time(T0 + 1 + WINDOW)
    assert chain.call("finalOutcome", key) == words[AT["outcome"]]


@pytest.mark.parametrize("lie", [{"outcome": 2}, {"outcome": 3},
                                 {"confidence_bps": 0}, {"confidence_bps": 10_000},
                                 {"evidence_count": 0}, {"evidence_count": 2**64 - 1},
                                 {"reasoning_count": 1}, {"outcome": 3, "reasoning_count": 9}])
def test_a_stored_word_the_bundle_does_not_give_is_struck_and_paid(lie: dict[str, int]) -> None:
    bundle = _bundle(NAME)
    honest = _words(bundle)
    assert any(honest[AT[k]] != v for k, v in lie.items())  # 01 is YES (1), 8 steps, ...
    chain, key, data = _proposed(_words(bundle, **lie))
    answer = outcome_answer(bundle, proposal_verdict(data))
    assert answer.won and answer.check_id == "signature.field_mismatch"
    assert set(answer.differences) == {k for k, v in lie.items() if honest[AT[k]] != v}
    before = chain.balance(CHALLENGER)
    out = _settle(chain, key, outcome_args(bundle))
    assert out.output == keccak256(key + keccak256(OUTCOME_KIND + outcome_args(bundle)))
    assert chain.balance(CHALLENGER) - before == PROPOSER_BOND
    assert chain.balance(chain.address) == 0
    assert chain.call("finalOutcome", key) == 0  # struck: nothing final
    assert reverts(chain, settle_by_forms_calldata(key, OUTCOME_KIND, outcome_args(bundle)),
                   sender=CHALLENGER).name == "NotChallengeable"


def _edited(bundle: Bundle, edit: str) -> bytes:
    (forms, inc) = decode(["bytes[]", FORMS_INCLUSION_TUPLE], outcome_args(bundle))
    root, size, index, paths, forms_path = inc
    forms, index, paths, forms_path = list(forms), list(index), [list(p) for p in paths], \
        list(forms_path)
    if edit == "index":
        index = [size - 2]
    elif edit == "size":
        size += 1
    elif edit == "two forms":
        forms, index, paths = forms * 2, index * 2, paths * 2
    elif edit == "path":
        paths[0][0] = bytes(32)
    elif edit == "forms path":
        forms_path[0] = bytes(32)
    elif edit == "form word":
        forms[0] = forms[0][:-1] + bytes([forms[0][-1] ^ 1])
    elif edit == "form tag":
        forms[0] = bytes(31) + b"\x08" + forms[0][32:]
    elif edit == "form short":
        forms[0] = forms[0][:-32]
    return bytes(encode(["bytes[]", FORMS_INCLUSION_TUPLE],
                        [forms, (root, size, index, paths, forms_path)]))


@pytest.mark.parametrize(("edit", "check_id"), [
    ("index", "proof.form"), ("size", "proof.form"), ("two forms", "proof.form"),
    # one form fixes the forms root (as Python's verify_form_step_proof): a path or form
    # that is not the committed one reaches another root, which the component path refuses
    ("path", "proof.component_path"), ("forms path", "proof.component_path"),
    ("form word", "proof.component_path"), ("form tag", "proof.component_path"),
    ("form short", "proof.component_path")])
def test_a_proof_that_is_not_the_committed_verdict_form_is_lost(edit: str, check_id: str) -> None:
    bundle = _bundle(NAME)
    chain, key, _data = _proposed(_words(bundle, outcome=3))
    assert _not_won(chain, key, _edited(bundle, edit)) == check_id


def test_a_proof_of_another_bundle_strikes_nothing_else() -> None:
    bundle = _bundle(NAME)
    chain, key, _data = _proposed(_words(bundle, outcome=3))
    args = outcome_args(_bundle(OTHER))
    chain.commit_proof(key, OUTCOME_KIND + args, CHALLENGER)
    error = reverts(chain, settle_by_forms_calldata(key, OUTCOME_KIND, args), sender=CHALLENGER)
    assert error.name in ("ProofPorRoot", "ProofNotWon")


def test_the_outcome_kind_is_not_a_form_step_kind() -> None:
    """``checkForms`` does not route ``form:outcome`` (its answer is the registry's to
    complete): asked directly it is ``proof.schema``; ``checkOutcome`` answers the words."""
    bundle = _bundle(NAME)
    chain, _key, _data = _proposed(_words(bundle))
    args = outcome_args(bundle)
    out = chain.send(selector("checkForms(bytes32,bytes)") + encode(
        ["bytes32", "bytes"], [OUTCOME_KIND, args]), to=PROOF_CHECK)
    assert decode(["bool", "bytes32", "bytes32"], out.output) == (
        False, keccak256(b"proof.schema"), bytes(32))
    out = chain.send(selector("checkOutcome(bytes)") + encode(["bytes"], [args]), to=PROOF_CHECK)
    check, root, words = decode(["bytes32", "bytes32", "uint256"], out.output)
    stored = [_words(bundle)[AT[k]] for k in ("outcome", "confidence_bps", "evidence_count",
                                              "reasoning_count")]
    assert (check, root) == (bytes(32), bundle.commitments.por_root)
    assert words == stored[0] << 192 | stored[1] << 128 | stored[2] << 64 | stored[3]
