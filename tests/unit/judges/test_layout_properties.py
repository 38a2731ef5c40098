"""Two-level vote proofs, request-hash canonicality and the vote parser (properties)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from judges_support import GENERATOR

from por.errors import PorError
from por.locked_judges import JudgementBundle, LockedJudgeVote
from por.locked_judges.layout import component_proof, root_from_component_proof
from por.locked_judges.render import parse_vote
from por.locked_judges.wire import request_hash

BUNDLE = JudgementBundle.from_cbor((GENERATOR.HERE / "valid" / "por-judge-1.cbor").read_bytes())


def test_every_vote_has_a_two_level_proof_to_the_judgement_root() -> None:
    size = len(BUNDLE.votes)
    for position, record in enumerate(BUNDLE.votes):
        inner, outer = component_proof(BUNDLE, "votes", position)
        root = root_from_component_proof(record, "votes", position, size, inner=inner, outer=outer)
        assert root == BUNDLE.commitments.judgement_root
    # A different vote at the same position does not reach the root.
    other = LockedJudgeVote.from_cbor(BUNDLE.votes[0]).model_copy(update={"confidence_bps": 1})
    inner, outer = component_proof(BUNDLE, "votes", 0)
    assert root_from_component_proof(other.to_cbor(), "votes", 0, size, inner=inner,
                                     outer=outer) \
        != BUNDLE.commitments.judgement_root


keys = st.text(alphabet="abcdefghij_", min_size=1, max_size=6)
leaves = st.one_of(st.integers(-10**6, 10**6), st.text(max_size=8), st.booleans(), st.none())
bodies = st.dictionaries(keys, st.one_of(leaves, st.lists(leaves, max_size=3)), max_size=6)


@given(bodies, st.randoms(use_true_random=False))
def test_request_hash_ignores_key_order_and_spacing(body: dict[str, object], rnd: object
                                                    ) -> None:
    items = list(body.items())
    rnd.shuffle(items)  # type: ignore[attr-defined]
    compact = json.dumps(body, separators=(",", ":")).encode()
    spaced = json.dumps(dict(items), indent=3).encode()
    assert request_hash(compact) == request_hash(spaced)


@given(st.integers(0, 1000), st.integers(0, 3))
def test_request_hash_compares_numbers_by_value(value: int, zeros: int) -> None:
    plain = json.dumps({"t": value}).encode()
    padded = b'{"t": ' + (str(value) + ("." + "0" * zeros if zeros else "")).encode() + b"}"
    assert request_hash(plain) == request_hash(padded)
    assert request_hash(plain) != request_hash(json.dumps({"t": value + 1}).encode())


@given(st.text(max_size=60))
def test_the_vote_parser_accepts_only_votes(text: str) -> None:
    try:
        outcome, bps = parse_vote(text)
    except PorError as exc:
        assert exc.check_id in {"judgement.vote_parse", "judgement.vote_range"}
    else:
        assert outcome in {"YES", "NO", "INVALID"} and 0 <= bps <= 10_000 and bps % 100 == 0


@given(st.sampled_from(["YES", "NO", "INVALID"]), st.integers(-5, 205))
def test_the_vote_parser_range(outcome: str, confidence: int) -> None:
    text = json.dumps({"confidence": confidence, "outcome": outcome})
    if 0 <= confidence <= 100:
        assert parse_vote(text) == (outcome, confidence * 100)
    else:
        with pytest.raises(PorError) as info:
            parse_vote(text)
        assert info.value.check_id == "judgement.vote_range"
