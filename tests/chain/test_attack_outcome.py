"""s45 attack45: the outcome proof (SPEC §14.4) attacked as an adversary would, in revm.

(a) an honest proposal is struck by no args: every demo bundle's own proof, every other
forms index claimed as the last one (size = index + 1), other leaves carried as F, ABI
tricks (trailing bytes, a non-canonical offset, dirty high bits in the size, the index
overflowing); (b) a lying proposal is struck for any stored word (a hypothesis property:
the chain's answer is ``outcome_answer``'s on random stored words)."""

from __future__ import annotations

from typing import Any

import pytest
from chain_support import CHALLENGER, DEMO_BUNDLES, Chain, Reverted
from eth_abi.abi import decode, encode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_outcome_proof import _bundle, _proposed, _words

from por.bundle import Bundle
from por.chain.calldata import FORMS_INCLUSION_TUPLE, settle_by_forms_calldata
from por.chain.outcome import OUTCOME_KIND, STORED, outcome_answer, outcome_args, proposal_verdict
from por.challenge.form_step import _committed_levels
from por.merkle.tree import inclusion_path_from_levels

NAME = "01-boolean-observed.cbor"
#: Every unsigned demo bundle (the signed ones hold the same verdicts).
DEMOS = sorted(p.name for p in DEMO_BUNDLES.glob("[0-9][0-9]-*.cbor") if "signed" not in p.name)
ARGS = ["bytes[]", FORMS_INCLUSION_TUPLE]


def _answer(chain: Chain, key: bytes, args: bytes) -> str:
    """'won' when the settle strikes, else the revert's name (ProofNotWon's with its id)."""
    chain.commit_proof(key, OUTCOME_KIND + args, CHALLENGER)
    try:
        chain.send(settle_by_forms_calldata(key, OUTCOME_KIND, args), sender=CHALLENGER)
    except Reverted as error:
        name = str(error.name)
        return name if name != "ProofNotWon" else name + ":" + bytes(error.args_[0]).hex()
    return "won"


def _parts(bundle: Bundle) -> tuple[list[bytes], Any]:
    forms, inc = decode(ARGS, outcome_args(bundle))
    return list(forms), inc


@pytest.mark.parametrize("name", DEMOS)
def test_every_demo_bundles_honest_proposal_is_not_struck(name: str) -> None:
    bundle = _bundle(name)
    chain, key, data = _proposed(_words(bundle))
    assert not outcome_answer(bundle, proposal_verdict(data)).won
    assert _answer(chain, key, outcome_args(bundle)).startswith("ProofNotWon")


def _claims(bundle: Bundle) -> list[bytes]:
    """Args carrying the VERDICT form F at each other index with that leaf's true path: with
    the true size, and as the last leaf of a tree of index + 1 leaves."""
    root, size = bundle.commitments.por_root, len(bundle.forms)
    forms, inc = _parts(bundle)
    levels = _committed_levels(bundle)
    out = []
    for i in range(size - 1):
        path = inclusion_path_from_levels(levels, i)
        for claimed in (size, i + 1):
            out.append(bytes(encode(ARGS, [forms, (root, claimed, [i], [path], inc[4])])))
    return out


def test_no_other_leaf_or_size_strikes_an_honest_proposal() -> None:
    bundle = _bundle(NAME)
    chain, key, _data = _proposed(_words(bundle))
    answers = {_answer(chain, key, args) for args in _claims(bundle)}
    assert "won" not in answers and answers, answers


def _abi_tricks(bundle: Bundle) -> dict[str, bytes]:
    args = outcome_args(bundle)
    forms, (root, size, index, paths, forms_path) = _parts(bundle)
    # the same tuple behind a head that points one word further (a gap word of junk)
    io = int.from_bytes(args[0x20:0x40])
    gap = args[:0x20] + (io + 32).to_bytes(32) + args[0x40:io] + b"\xee" * 32 + args[io:]
    return {
        "trailing": args + b"\x01" * 64,
        "gap": gap,
        "dirty size": bytes(encode(ARGS, [forms, (root, size + (1 << 64), index, paths,
                                                  forms_path)])),
        "index overflow": bytes(encode(ARGS, [forms, (root, 0, [2**256 - 1], paths,
                                                      forms_path)])),
        "size 1": bytes(encode(ARGS, [forms, (root, 1, [0], [[]], forms_path)])),
        "no index": bytes(encode(ARGS, [forms, (root, size, [], paths, forms_path)])),
    }


@pytest.mark.parametrize("trick", ["trailing", "gap", "dirty size", "index overflow",
                                   "size 1", "no index"])
def test_abi_tricks_strike_no_honest_proposal_and_keep_a_liars_strike(trick: str) -> None:
    bundle = _bundle(NAME)
    args = _abi_tricks(bundle)[trick]
    chain, key, _data = _proposed(_words(bundle))
    assert _answer(chain, key, args) != "won"
    liar, lkey, _ldata = _proposed(_words(bundle, outcome=3))
    # the decoder ignores what follows the heads' data: those still strike the liar
    assert (_answer(liar, lkey, args) == "won") == (trick in ("trailing", "gap"))


WORDS = st.fixed_dictionaries({
    "outcome": st.integers(1, 3), "confidence_bps": st.integers(0, 10_000),
    "evidence_count": st.one_of(st.integers(0, 3), st.integers(0, 2**64 - 1)),
    "reasoning_count": st.one_of(st.integers(0, 9), st.integers(0, 2**64 - 1))})


#: A YES, a NO and an INVALID verdict.
PROPERTY_BUNDLES = (NAME, "02-boolean-not-observed.cbor", "09-conflict-invalid.cbor")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(PROPERTY_BUNDLES), lie=WORDS, keep=st.sets(st.sampled_from(STORED)))
def test_the_chain_answers_as_outcome_answer_on_random_stored_words(
        name: str, lie: dict[str, int], keep: set[str]) -> None:
    bundle = _bundle(name)
    lies = {k: v for k, v in lie.items() if k not in keep}  # kept words stay the bundle's
    chain, key, data = _proposed(_words(bundle, **lies))
    model = outcome_answer(bundle, proposal_verdict(data))
    answer = _answer(chain, key, outcome_args(bundle))
    assert (answer == "won") == model.won, (lies, answer, model)
