"""``por dispute open`` and ``por court rule|verify`` in-process (SPEC §16.8).

``court rule`` goes through litellm and the transcript server to a loopback
model double (a second transcript server with a responder): the real HTTP
path.  Those tests need the ``llm`` extra and skip without it (.ci/run's llm
step runs them); ``dispute open`` and ``court verify`` need no model stack.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from run_support import needs_litellm

from por.cli.app import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "court"))
from court_support import (
    AT,
    CLAIM,
    COURT,
    bundle_bytes,
    completion,
    vote,
)

COURT_FILE = str(COURT / "court.yaml")


def _json(capsys: pytest.CaptureFixture[str]) -> Any:
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def bundle(tmp_path: Path) -> str:
    path = tmp_path / "bundle.cbor"
    path.write_bytes(bundle_bytes())
    return str(path)


@pytest.fixture
def case_file(bundle: str, tmp_path: Path) -> str:
    out = str(tmp_path / "case.cbor")
    assert main(["dispute", "open", bundle, "--leaf", "evidence_leaf:0", "--claim", CLAIM,
                 "--reward", "1000", "-o", out]) == 0
    return out


def test_dispute_open_three_ways_to_name_the_leaf_give_one_case(
        bundle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = tmp_path / "ref.json"
    ref.write_text(json.dumps({"kind": "evidence_leaf", "evidence_id": "ev-acme-newsroom"}))
    proof = tmp_path / "proof.cbor"
    assert main(["challenge", bundle, "--evidence", "ev-acme-newsroom", "-o", str(proof)]) == 0
    capsys.readouterr()
    cases = []
    for option in (["--leaf", "evidence_leaf:0"], ["--ref", str(ref)], ["--proof", str(proof)]):
        out = tmp_path / f"case{len(cases)}.cbor"
        assert main(["dispute", "open", bundle, *option, "--claim", CLAIM, "-o", str(out),
                     "--json"]) == 0
        document = _json(capsys)
        assert document["leaf"]["kind"] == "evidence_leaf"
        assert document["context"]["rebuttal"] is None
        cases.append(out.read_bytes())
    assert cases[0] == cases[1] == cases[2]


@pytest.mark.parametrize("leaf", ["evidence_leaf:9", "por_bundle"])
def test_dispute_open_refuses_a_leaf_it_cannot_prove(
        bundle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], leaf: str) -> None:
    assert main(["dispute", "open", bundle, "--leaf", leaf, "--claim", CLAIM, "-o",
                 str(tmp_path / "c.cbor"), "--json"]) == 1
    assert _json(capsys)["error"]["id"] == "court.case_leaf"


def test_dispute_open_refuses_bad_text_and_bad_numbers_in_one_line(
        bundle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "c.cbor")
    assert main(["dispute", "open", bundle, "--leaf", "evidence_leaf:0", "--claim", "", "-o",
                 out, "--json"]) == 1
    assert _json(capsys)["error"]["id"] == "court.case_value"
    assert main(["dispute", "open", bundle, "--leaf", "evidence_leaf:0", "--claim", "x",
                 "--reward", str(2**64 - 1), "-o", out, "--json"]) == 1
    assert _json(capsys)["error"]["id"] == "court.case_value"
    assert main(["dispute", "open", bundle, "--leaf", "evidence_leaf:x", "--claim", "x",
                 "-o", out]) == 2
    capsys.readouterr()


def _model(table: dict[str, Any]) -> Any:
    def respond(body: bytes) -> tuple[int, bytes]:
        model = json.loads(body)["model"]
        answer = table[model]
        if isinstance(answer, int):
            return 200, completion(vote(answer, f"{model} considered the claim"), model)
        return answer

    return respond


def _serve(table: dict[str, Any]) -> Any:
    from por.locked_judges.transcript import TranscriptServer

    return TranscriptServer(responder=_model(table), authenticate=False)


SPLIT = {f"court-judge-{i}": p for i, p in enumerate((80, 20, 70, 60, 10, 90, 55))}


@needs_litellm
def test_rule_through_litellm_and_the_transcript_server_then_verify_and_replay(
        case_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ruling"
    with _serve(SPLIT) as model:
        assert main(["court", "rule", case_file, "--court", COURT_FILE, "--at", str(AT),
                     "--api-base", model.api_base.removesuffix("/v1"), "-o", str(out),
                     "--json"]) == 0
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert (document["status"], document["worker_pct"], document["decision"]) == (
        "ruled", 60, "rejected")
    assert [r["status"] for r in document["rounds"]] == ["split", "ruled"]
    assert "round 2: 4 judge(s) deliberating" in captured.err  # progress on stderr
    assert document["preregistration"]["run"] == 1  # SPEC §16.11
    assert len(bytes.fromhex(document["preregistration"]["digest"])) == 32
    assert json.loads((out / "ruling.json").read_text())["court_root"] == document["court_root"]
    # Offline, with the model gone.
    assert main(["court", "verify", str(out / "ruling.cbor"), "--json"]) == 0
    assert _json(capsys)["verified"] is True
    # Replayed from its own transcripts: byte for byte.
    again = tmp_path / "again"
    assert main(["court", "rule", case_file, "--court", COURT_FILE, "--at", str(AT),
                 "--replay-from", str(out / "ruling.cbor"), "-o", str(again), "-q"]) == 0
    assert (again / "ruling.cbor").read_bytes() == (out / "ruling.cbor").read_bytes()


@needs_litellm
def test_a_replay_miss_is_an_unavailable_judge_and_no_ruling(
        case_file: str, bundle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recorded = tmp_path / "r1"
    with _serve(SPLIT) as model:
        assert main(["court", "rule", case_file, "--court", COURT_FILE, "--at", str(AT),
                     "--api-base", model.api_base.removesuffix("/v1"), "-o", str(recorded),
                     "-q"]) == 0
    other = tmp_path / "other.cbor"
    assert main(["dispute", "open", bundle, "--leaf", "verdict", "--claim", CLAIM, "-o",
                 str(other)]) == 0
    capsys.readouterr()
    out = tmp_path / "r2"
    assert main(["court", "rule", str(other), "--court", COURT_FILE, "--at", str(AT),
                 "--replay-from", str(recorded / "ruling.cbor"), "-o", str(out),
                 "--json", "-q"]) == 2
    document = _json(capsys)
    assert document["status"] == "no_quorum" and document["decision"] is None
    assert main(["court", "verify", str(out / "ruling.cbor")]) == 0  # the failure verifies


@needs_litellm
def test_a_bad_answer_fails_closed_with_exit_2(case_file: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    table: dict[str, Any] = dict(SPLIT, **{"court-judge-1": 500})
    with _serve(table) as model:
        assert main(["court", "rule", case_file, "--court", COURT_FILE, "--at", str(AT),
                     "--api-base", model.api_base.removesuffix("/v1"), "-o",
                     str(tmp_path / "r")]) == 2
    captured = capsys.readouterr()
    assert "UNAVAILABLE (court.vote_range)" in captured.err
    assert "court.no_ruling" in captured.err


@needs_litellm
def test_a_signed_ruling_verifies_for_its_resolver_only(
        case_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "court.key"
    assert main(["keygen", "-o", str(key)]) == 0
    pub = json.loads((tmp_path / "court.key.pub").read_text())
    out = tmp_path / "r"
    with _serve(SPLIT) as model:
        assert main(["court", "rule", case_file, "--court", COURT_FILE, "--at", str(AT),
                     "--api-base", model.api_base.removesuffix("/v1"), "-o", str(out), "--key",
                     str(key), "--chain-id", "31337", "--contract", "0x" + "11" * 20, "-q"]) == 0
    capsys.readouterr()
    address = pub.get("address") or pub.get("address_hex")
    address = address if str(address).startswith("0x") else "0x" + str(address)
    assert main(["court", "verify", str(out / "ruling.cbor"), "--signature",
                 str(out / "ruling.sig.cbor"), "--resolver", address, "--json"]) == 0
    assert _json(capsys)["signature_verified"] is True
    assert main(["court", "verify", str(out / "ruling.cbor"), "--signature",
                 str(out / "ruling.sig.cbor"), "--resolver", "0x" + "22" * 20, "--json"]) == 1
    assert _json(capsys)["error"]["id"] == "signature.untrusted_key"


def test_routes_are_required_and_local_locks_are_served_by_por(
        case_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["court", "rule", case_file, "--court", COURT_FILE, "--at", str(AT), "-o",
                 str(tmp_path / "r"), "--json"]) == 2
    assert _json(capsys)["error"]["id"] in {"usage.court", "lock.client"}


def test_court_files_are_checked(case_file: str, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "court.yaml"
    for text, check_id in (("court: por-court/1\npanel: 2\njudges: [a.yaml, b.yaml]\n",
                            "court.config"),
                           ("court: other\npanel: 1\njudges: [a.yaml]\n", "court.config"),
                           ("court: por-court/1\npanel: 1\njudges: [../x.yaml]\n",
                            "court.config")):
        bad.write_text(text)
        assert main(["court", "rule", case_file, "--court", str(bad), "--at", "0", "-o",
                     str(tmp_path / "r"), "--json"]) == 1
        assert _json(capsys)["error"]["id"] == check_id


# --- court verify on the committed canaries (no model stack needed) ----------------------

CANARIES = json.loads((COURT / "invalid" / "README.json").read_text())


@pytest.mark.parametrize("name", sorted(CANARIES))
def test_court_verify_rejects_each_committed_canary_with_its_check_id(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["court", "verify", str(COURT / "invalid" / f"{name}.cbor"), "--json"]) == 1
    assert _json(capsys)["error"]["id"] == CANARIES[name]


def test_court_verify_accepts_the_committed_ruling(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["court", "verify", str(COURT / "valid" / "ruling.cbor"), "--json"]) == 0
    document = _json(capsys)
    assert (document["status"], document["worker_pct"], document["decision"]) == (
        "ruled", 60, "rejected")
    assert [r["status"] for r in document["rounds"]] == ["split", "ruled"]


@needs_litellm
def test_the_seed_constructor_calls_litellm_through_a_recorded_socket() -> None:
    """``LLMJudge(judge_id, model, temperature)`` with ``api_base``: litellm.acompletion with
    response_format JSON, through a transcript server por starts for the call."""
    import asyncio

    from court_support import case

    from por.court.errors import ServiceError
    from por.court.seed003 import LLMJudge

    seen: list[bytes] = []

    def model(body: bytes) -> tuple[int, bytes]:
        seen.append(body)
        return 200, completion(vote(65, "mostly delivered"), "gpt-4o-2024-08-06")

    from por.locked_judges.transcript import TranscriptServer

    with TranscriptServer(responder=model, authenticate=False) as upstream:
        judge = LLMJudge("judge-0", "openai/gpt-4o-2024-08-06", 0.2,
                         api_base=upstream.api_base.removesuffix("/v1"),
                         voted_at="2026-01-01T00:00:00Z")
        got = asyncio.run(judge.evaluate(case().context()))
    assert (got.judge_id, got.worker_pct, got.voted_at) == ("judge-0", 65, "2026-01-01T00:00:00Z")
    sent = json.loads(seen[0])
    # openai/ is the openai-chat profile (SPEC §15.4): JSON schema mode, no llama.cpp samplers
    assert sent["response_format"]["type"] == "json_schema" and sent["temperature"] == 0.2
    assert not {"top_k", "min_p", "repeat_penalty"} & set(sent)
    assert judge.attempts[0].exchange.wire_request == seen[0]  # the bytes the socket saw

    def broken(body: bytes) -> tuple[int, bytes]:
        del body
        return 200, completion("I think the worker did fine", "gpt-4o-2024-08-06")

    with TranscriptServer(responder=broken, authenticate=False) as upstream:
        judge = LLMJudge("judge-0", "openai/gpt-4o-2024-08-06", 0.2,
                         api_base=upstream.api_base.removesuffix("/v1"))
        with pytest.raises(ServiceError) as caught:
            asyncio.run(judge.evaluate(case().context()))
    assert caught.value.reason == "court.vote_parse" and "worker did fine" not in str(caught.value)


def test_court_verify_reports_first_answers_and_the_canary_flip_rate(
        capsys: pytest.CaptureFixture[str]) -> None:
    """SPEC §16.9, §16.10: the commit-first fixture's report, in text and JSON."""
    ruling = str(COURT / "valid" / "ruling-commit-first.cbor")
    assert main(["court", "verify", ruling]) == 0
    text = capsys.readouterr().out
    assert "seat 2: first answer YES 30%, voted 70 (changed its mind)" in text
    assert "canaries: 3/9 flipped; seats that flipped: [2]" in text
    assert main(["court", "verify", ruling, "--json"]) == 0
    document = _json(capsys)
    assert document["canaries"] == {"flips": 3, "answered": 9, "flip_rate": "3/9",
                                    "flipped_seats": [2], "discounted": None}
    assert [v["changed_mind"] for v in document["votes"]] == [False, False, True]
    assert document["rounds"][0]["canary_flips"] == 3


def test_court_verify_reports_the_seats_the_canary_policy_discounted(
        capsys: pytest.CaptureFixture[str]) -> None:
    """SPEC §16.10: the canary-policy fixture, in text and JSON (schema-valid)."""
    from jsonschema import Draft202012Validator

    from por.cli.schema import schema_for

    ruling = str(COURT / "valid" / "ruling-canary-policy.cbor")
    assert main(["court", "verify", ruling]) == 0
    assert "canary policy: votes of seats [2] discounted (more than 0 flip(s))" \
        in capsys.readouterr().out
    assert main(["court", "verify", ruling, "--json"]) == 0
    document = _json(capsys)
    assert document["canaries"]["discounted"] == [2]
    assert document["rule"]["canary_policy"] == {"max_flips": 0}
    assert [v["seat"] for v in document["rounds"][0]["votes"]] == [0, 1]
    assert not list(Draft202012Validator(schema_for("court-ruling")).iter_errors(document))
