"""``settleByProof`` in revm (SPEC §14.4): a lie struck on chain by a CitationProof,
in one transaction, with no resolver and no bond.

The lying bundles are issue 22's (tests/unit/challenge/citation_support.py):
scenario 08 whose check step cites its items reordered (``one_step.citation_order``)
or with one repeated (``one_step.citation_repeat``), every commitment recomputed.
``por verify --challenges`` writes the proof, ``por chain settle --json`` the
calldata; the registry calls the deployed PorProofCheck and strikes the verdict.
On honest verdicts every CitationProof a challenger can build reverts
``ProofNotWon`` with the contract's check id and changes nothing.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest
from bundle_edits import honest
from chain_support import (
    ADMIN,
    CHALLENGER,
    CHALLENGER_BOND,
    PROPOSER_BOND,
    RESOLVER,
    T0,
    TEST_ONLY_SECRET,
    WINDOW,
    Chain,
    address_of,
    call_data,
    register_bundle,
    reverts,
)
from proof_check_support import BY_HASH, citation_proof

from por.bundle.layout import Bundle
from por.chain.calldata import settlement_id
from por.cli import main
from por.encoding import decode
from por.schemas import DeterministicVerdict

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "challenge"))
from citation_support import honest_08, reordered_08

#: Lying bundles (issue 22) and the check id their proof wins with.
LIES = {(1, 0, 2): "one_step.citation_order", (0, 0, 1, 2): "one_step.citation_repeat"}
#: The ids a CitationProof of an honest step may lose with (SPEC §14.8).
HONEST_IDS = {"one_step.citations_canonical", "proof.citations"}


def fresh() -> Chain:
    return Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))


def market_of(bundle: Bundle) -> list[str]:
    """``--market TEXT --prompt-spec-hash HEX`` of ``bundle``: its market key (SPEC §14.2)."""
    market: str = DeterministicVerdict.from_cbor(bundle.verdict).market_id
    return ["--market", market, "--prompt-spec-hash", bundle.commitments.prompt_spec_hash.hex()]


def written_proof(bundle: Bundle, tmp_path: Path) -> Path:
    """The one proof ``por verify --challenges`` writes for ``bundle`` (exit 1)."""
    path, out_dir = tmp_path / "lie.cbor", tmp_path / "proofs"
    path.write_bytes(bundle.to_cbor())
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["verify", "--challenges", str(out_dir), str(path)]) == 1
    [proof] = sorted(out_dir.iterdir())
    return proof


def citation_file(bundle: Bundle, tmp_path: Path) -> Path:
    """The bundle's won CitationProof (SPEC §10.2.7) as a file: what ``verify
    --challenges`` wrote for issue 22's lies before s40; since then it writes the check
    chunk's FormStepProof first (SPEC §10.1), settled by ``settleByForms``, so the
    ``settleByProof`` cases here build the CitationProof themselves."""
    from por.challenge import build_citation_proof, citation_faults

    path = tmp_path / "citation.cbor"
    path.write_bytes(build_citation_proof(bundle, citation_faults(bundle)[0]).to_cbor())
    return path


def settle_document(proof: Path, market: list[str]) -> tuple[int, dict[str, object]]:
    """``por chain settle PROOF --market MARKET --prompt-spec-hash HEX --json`` (``market``
    from :func:`market_of`): (exit code, document)."""
    with contextlib.redirect_stdout(io.StringIO()) as printed, \
            contextlib.redirect_stderr(io.StringIO()):
        code = main(["chain", "settle", str(proof), *market, "--json"])
    text = printed.getvalue()
    return code, (json.loads(text) if code == 0 else {})


def status(chain: Chain, market: bytes) -> tuple[int, int, int]:
    """(open challenges, round, status) of ``market``."""
    record = chain.call("verdicts", market)
    return record[5], record[6], record[7]


@pytest.mark.parametrize("order", sorted(LIES))
def test_a_lie_is_struck_in_one_transaction_and_the_bond_paid(
        order: tuple[int, ...], tmp_path: Path) -> None:
    bundle, _outcome = reordered_08(order)
    proof = citation_file(bundle, tmp_path)
    code, document = settle_document(proof, market_of(bundle))
    assert code == 0
    call = document["calldata"]
    assert isinstance(call, dict) and call["won"] == LIES[order] and call["value"] == "0"
    chain = fresh()
    market = register_bundle(chain, bundle.to_cbor())
    assert call["market_key"] == "0x" + market.hex()
    data = bytes.fromhex(str(call["data_hex"])[2:])
    before = chain.balance(CHALLENGER)
    assert reverts(chain, data, sender=CHALLENGER).name == "ProofNotCommitted"
    chain.commit_proof(market, proof.read_bytes(), CHALLENGER)
    out = chain.send(data, sender=CHALLENGER)  # no value: settleByProof takes no bond
    assert out.output == settlement_id(market, proof.read_bytes())
    assert call["challenge_id_hex"] == "0x" + out.output.hex()
    assert status(chain, market) == (0, 1, 2)  # round 1, Struck
    assert chain.call("finalOutcome", market) == 0
    # paid with the strike (SPEC §14.4): nothing to withdraw, nothing left in the registry
    assert chain.balance(CHALLENGER) - before == PROPOSER_BOND  # revm charges no gas fee
    assert chain.call("withdrawable", CHALLENGER) == 0
    assert chain.call("withdrawable", ADMIN) == 0  # the proposer lost its bond
    assert chain.balance(chain.address) == 0
    assert reverts(chain, data, sender=RESOLVER).name == "NotChallengeable"  # once
    assert reverts(chain, call_data("withdraw"), sender=CHALLENGER).name == "NothingToWithdraw"
    por_root = chain.call("verdicts", market)[0]
    assert chain.call("isStruck", market, por_root) is True
    # Re-proposal: the struck bundle never comes back; the honest one, next round, does.
    with pytest.raises(Exception) as info:
        register_bundle(chain, bundle.to_cbor(), nonce=1)
    assert getattr(info.value, "name", None) == "RootStruck"
    assert register_bundle(chain, honest_08().to_cbor(), nonce=1) == market
    assert status(chain, market) == (0, 1, 1)
    assert chain.call("isStruck", market, por_root) is True  # archived by the re-proposal
    assert chain.call("isStruck", market, chain.call("verdicts", market)[0]) is False
    assert reverts(chain, data, sender=CHALLENGER).name == "ProofPorRoot"  # another root


def test_every_honest_candidate_reverts_and_changes_nothing() -> None:
    from por.scenarios import list_scenarios

    seen: set[str] = set()
    for name in [*list_scenarios(), None]:  # every fixture market, and scenario 08 at 251.41
        bundle = honest(name) if name else honest_08()
        chain = fresh()  # markets may share an id
        market = register_bundle(chain, bundle.to_cbor())
        first = {decode(leaf)["evidence_id"]: i for i, leaf in reversed(
            list(enumerate(bundle.evidence)))}
        for step in range(len(bundle.steps)):
            cited = [first[e] for e in decode(bundle.steps[step])["evidence_ids"]]
            for items in ([], cited[:1], cited[1:2], cited[:2]):
                data = call_data("settleByProof", market, citation_proof(bundle, step, items))
                error = reverts(chain, data, sender=CHALLENGER)
                assert error.name == "ProofNotWon", (name, step, items)
                seen.add(BY_HASH[error.args_[0]])
        assert status(chain, market) == (0, 0, 1)  # still Proposed, round 0
        assert chain.call("withdrawable", CHALLENGER) == 0
    assert seen <= HONEST_IDS and "one_step.citations_canonical" in seen


def test_the_proof_must_be_about_this_verdict_and_in_time(tmp_path: Path) -> None:
    lie, _ = reordered_08()
    proof = citation_file(lie, tmp_path).read_bytes()
    chain = fresh()
    unknown = bytes(32)
    assert reverts(chain, call_data("settleByProof", unknown, proof)).name == "UnknownMarket"
    # A won proof against another verdict of the market (another por_root) strikes nothing.
    market = register_bundle(chain, honest_08().to_cbor())
    error = reverts(chain, call_data("settleByProof", market, proof), sender=CHALLENGER)
    assert error.name == "ProofPorRoot" and error.args_ == (lie.commitments.por_root,
                                                            honest_08().commitments.por_root)
    # Past the window with no challenge standing, the verdict is final: too late.
    chain = fresh()
    market = register_bundle(chain, lie.to_cbor())
    chain.set_time(T0 + 1 + WINDOW)
    assert reverts(chain, call_data("settleByProof", market, proof)).name == "WindowClosed"
    chain.call("finalize", market)
    assert reverts(chain, call_data("settleByProof", market, proof)).name == "NotChallengeable"


def test_an_open_challenge_keeps_the_verdict_strikable_and_becomes_moot(
        tmp_path: Path) -> None:
    from por.chain.calldata import open_challenge_calldata
    from por.challenge.proofs import build_inclusion_proof

    lie, _ = reordered_08()
    proof = citation_file(lie, tmp_path).read_bytes()
    chain = fresh()
    market = register_bundle(chain, lie.to_cbor())
    case = b"\x11" * 32
    opened = chain.send(open_challenge_calldata(market, case, build_inclusion_proof(
        lie, "reasoning_leaf", 3)), sender=RESOLVER).output
    chain.set_time(T0 + 1 + WINDOW + 5)  # past the window, but a challenge stands
    assert chain.call("isFinal", market) is False
    chain.commit_proof(market, proof, CHALLENGER)
    before = chain.balance(CHALLENGER)
    chain.send(call_data("settleByProof", market, proof), sender=CHALLENGER)
    assert status(chain, market) == (0, 1, 2)
    assert chain.balance(CHALLENGER) - before == PROPOSER_BOND  # paid with the strike
    chain.call("closeMoot", opened)  # the court's challenge gets its own bond back
    assert chain.call("withdrawable", RESOLVER) == CHALLENGER_BOND
    assert chain.balance(chain.address) == CHALLENGER_BOND


def test_the_cli_refuses_what_would_revert(tmp_path: Path) -> None:
    honest_proof = tmp_path / "honest.cbor"
    bundle = honest_08()
    honest_proof.write_bytes(citation_proof(bundle, 3, []))
    assert settle_document(honest_proof, market_of(bundle))[0] == 1  # chain.proof_not_won
    inclusion = tmp_path / "inclusion.cbor"
    from por.challenge.proofs import build_inclusion_proof

    inclusion.write_bytes(build_inclusion_proof(bundle, "evidence_leaf", 0).to_cbor())
    assert settle_document(inclusion, market_of(bundle))[0] == 2  # chain.proof_kind
    from por.challenge.one_step import build_one_step_proof

    one_step = tmp_path / "one-step.cbor"  # an extract step: the court path
    one_step.write_bytes(build_one_step_proof(bundle, 0).to_cbor())
    assert settle_document(one_step, market_of(bundle))[0] == 2  # chain.proof_kind
    one_step.write_bytes(build_one_step_proof(bundle, len(bundle.steps) - 2).to_cbor())
    assert settle_document(one_step, market_of(bundle))[0] == 1  # a deduce step: not won
    one_step.write_bytes(build_one_step_proof(bundle, len(bundle.steps) - 1).to_cbor())
    assert settle_document(one_step, market_of(bundle))[0] == 1  # a map step: not won
    broken = tmp_path / "broken.cbor"
    broken.write_bytes(b"\xa0")
    assert settle_document(broken, market_of(bundle))[0] == 1
    not_a_proof = tmp_path / "bundle.cbor"  # as `por check-proof`: no verdict, exit 2
    not_a_proof.write_bytes(bundle.to_cbor())
    assert settle_document(not_a_proof, market_of(bundle))[0] == 2  # proof.not_a_proof


def test_por_chain_commit_prints_the_commitment_the_settle_needs(tmp_path: Path) -> None:
    """`por chain commit`: the same checks as `settle`, then commitProof for the sender;
    sent a block before the settle, the settle pays that sender."""
    from jsonschema import Draft202012Validator

    from por.chain.calldata import proof_commitment
    from por.cli.schema import schema_for

    lie, _ = reordered_08()
    proof = citation_file(lie, tmp_path)
    market_text = market_of(lie)
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        assert main(["chain", "commit", str(proof), *market_text,
                     "--sender", CHALLENGER, "--json"]) == 0
    document = json.loads(printed.getvalue())
    assert list(Draft202012Validator(schema_for("calldata")).iter_errors(document)) == []
    call = document["calldata"]
    chain = fresh()
    market = register_bundle(chain, lie.to_cbor())
    commitment = proof_commitment(market, proof.read_bytes(), bytes.fromhex(CHALLENGER[2:]))
    assert call["commitment_hex"] == "0x" + commitment.hex()
    assert call["challenge_id_hex"] == settle_document(proof, market_text)[1][
        "calldata"]["challenge_id_hex"]  # type: ignore[index]
    chain.send(bytes.fromhex(call["data_hex"][2:]), sender=CHALLENGER)
    chain.mine()
    before = chain.balance(CHALLENGER)
    chain.send(call_data("settleByProof", market, proof.read_bytes()), sender=CHALLENGER)
    assert chain.balance(CHALLENGER) - before == PROPOSER_BOND
    honest = tmp_path / "honest.cbor"
    honest.write_bytes(citation_proof(honest_08(), 3, []))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["chain", "commit", str(honest), *market_text,
                     "--sender", CHALLENGER]) == 1  # chain.proof_not_won: nothing to commit
