"""``por court rule`` with three seats on three provider routes (OpenAI and Anthropic over
HTTPS stand-ins, an OpenAI-compatible server over loopback http), then ``court verify``
offline (SPEC §15.4 routes, §16.4 per-seat routes).  Nothing leaves 127.0.0.1."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from provider_support import (
    ANTHROPIC_ENV,
    ANTHROPIC_MODEL,
    COMPATIBLE_MODEL,
    OPENAI_ENV,
    OPENAI_MODEL,
    SECRET_ANTHROPIC,
    SECRET_OPENAI,
    court_answer,
    files_holding,
    judge_config,
)
from run_support import needs_litellm, open_case
from standins import StandIn, Tls, make_tls

from por.cli.app import main
from por.court.records import CourtBundle
from por.court.verify import verify_court
from por.errors import PorError
from por.locked_judges import JudgeCall
from por.locked_judges.wire import request_hash

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "court"))
from court_support import AT, CLAIM, bundle_bytes, recommit

pytestmark = needs_litellm
SECRETS = [SECRET_OPENAI, SECRET_ANTHROPIC]


@pytest.fixture
def tls(tmp_path: Path) -> Tls:
    folder = tmp_path / "certs"
    folder.mkdir()
    return make_tls(folder)


@pytest.fixture
def case_file(tmp_path: Path) -> str:
    return open_case(tmp_path, bundle_bytes(), CLAIM, "--reward", "1000")


def _court(folder: Path, openai: str, anthropic: str, **switches: bool) -> Path:
    """A three-seat court: seats 0 and 1 name their own https routes, seat 2 takes
    the command's default route (``switches``: commit_first, canaries)."""
    judge_config(folder, "seat-openai", "openai-chat", court=True)
    judge_config(folder, "seat-anthropic", "anthropic-messages", court=True)
    judge_config(folder, "seat-compatible", "openai-compatible", court=True)
    court = {"court": "por-court/1", "panel": 3, "quorum": 2, "judges": [
        {"judge": "seat-openai.json", "api_base": openai, "credential_env": OPENAI_ENV,
         "ca_bundle": "certs/ca.pem"},
        {"judge": "seat-anthropic.json", "api_base": anthropic,
         "credential_env": ANTHROPIC_ENV, "ca_bundle": "certs/ca.pem"},
        "seat-compatible.json"], **switches}
    path = folder / "court.json"
    path.write_text(json.dumps(court))
    return path


@contextlib.contextmanager
def _three_providers(tls: Tls, monkeypatch: pytest.MonkeyPatch,
                     ) -> Iterator[tuple[StandIn, StandIn, StandIn]]:
    """The OpenAI and Anthropic HTTPS stand-ins (credentials in the environment)
    and an OpenAI-compatible server, each answering as a court seat."""
    monkeypatch.setenv(OPENAI_ENV, SECRET_OPENAI)
    monkeypatch.setenv(ANTHROPIC_ENV, SECRET_ANTHROPIC)
    with StandIn("openai", tls, key=SECRET_OPENAI, models=[OPENAI_MODEL],
                 answer=court_answer) as openai, \
            StandIn("anthropic", tls, key=SECRET_ANTHROPIC, models=[ANTHROPIC_MODEL],
                    answer=court_answer) as anthropic, \
            StandIn("compatible", None, key=None, models=[COMPATIBLE_MODEL],
                    answer=court_answer) as compatible:
        yield openai, anthropic, compatible


def _rule(case_file: str, court: Path, default: str, out: Path,
          capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    code = main(["court", "rule", case_file, "--court", str(court), "--at", str(AT),
                 "--api-base", default, "-o", str(out), "--json"])
    captured = capsys.readouterr()
    assert not any(s in captured.out + captured.err for s in SECRETS)
    return code, json.loads(captured.out)


def test_a_three_provider_court_rules_and_verifies_offline(
        case_file: str, tls: Tls, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "ruling"
    with _three_providers(tls, monkeypatch) as (openai, anthropic, compatible):
        court = _court(tmp_path, openai.api_base, anthropic.api_base)
        code, document = _rule(case_file, court, compatible.api_base, out, capsys)
        assert code == 0, document
        assert (len(openai.seen), len(anthropic.seen), len(compatible.seen)) == (1, 1, 1)
    # Upper median of 70, 65, 80.
    assert (document["status"], document["worker_pct"]) == ("ruled", 70)
    summary = verify_court((out / "ruling.cbor").read_bytes())  # offline: the stand-ins are gone
    assert [c.credential for c in summary.calls] == [
        f"authorization: <redacted:{OPENAI_ENV}>", f"x-api-key: <redacted:{ANTHROPIC_ENV}>",
        None]
    assert main(["court", "verify", str(out / "ruling.cbor"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verified"] is True
    assert files_holding(tmp_path, SECRETS) == []
    _tampered_seats_are_rejected((out / "ruling.cbor").read_bytes())
    # Replayed from its own transcripts, every provider gone: byte for byte.
    again = tmp_path / "again"
    assert main(["court", "rule", case_file, "--court", str(court), "--at", str(AT),
                 "--replay-from", str(out / "ruling.cbor"), "-o", str(again), "-q"]) == 0
    assert (again / "ruling.cbor").read_bytes() == (out / "ruling.cbor").read_bytes()


def test_a_commit_first_court_with_canaries_on_three_providers(
        case_file: str, tls: Tls, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each seat: its first answer, the case carrying it, three canaries: five calls
    per provider, every one checked against the provider's request schema."""
    out = tmp_path / "ruling"
    with _three_providers(tls, monkeypatch) as (openai, anthropic, compatible):
        court = _court(tmp_path, openai.api_base, anthropic.api_base, commit_first=True,
                       canaries=True)
        code, document = _rule(case_file, court, compatible.api_base, out, capsys)
        assert code == 0, document
        assert (len(openai.seen), len(anthropic.seen), len(compatible.seen)) == (5, 5, 5)
    assert (document["status"], document["worker_pct"]) == ("ruled", 70)
    assert [(v["first_pct"], v["changed_mind"]) for v in document["votes"]] == [
        (70, False), (65, False), (80, False)]
    assert document["canaries"] == {"flips": 0, "answered": 9, "flip_rate": "0/9",
                                    "flipped_seats": [], "discounted": None}
    data = (out / "ruling.cbor").read_bytes()
    summary = verify_court(data)
    assert summary.rule.commit_first is not None and len(summary.calls) == 15
    assert files_holding(tmp_path, SECRETS) == []
    again = tmp_path / "again"
    assert main(["court", "rule", case_file, "--court", str(court), "--at", str(AT),
                 "--replay-from", str(out / "ruling.cbor"), "-o", str(again), "-q"]) == 0
    assert (again / "ruling.cbor").read_bytes() == data


def _tampered_seats_are_rejected(ruling: bytes) -> None:
    """Each seat's recorded request with an unlocked field (re-committed honestly, so
    only the profile's allow-list can catch it) is a rejected vote."""
    bundle = CourtBundle.from_cbor(ruling)
    for seat, extra in [(0, {"top_k": 1}), (1, {"seed": 0}), (1, {"response_format": {
            "type": "json_object"}}), (2, {"logit_bias": {"1": 100}})]:
        call = JudgeCall.from_cbor(bundle.calls[seat])
        raw = json.dumps(json.loads(call.wire_request) | extra).encode()
        edited = call.model_copy(update={
            "wire_request": raw, "wire_request_hash": hashlib.sha256(raw).digest(),
            "request_hash": request_hash(raw)}).to_cbor()
        calls = list(bundle.calls)
        calls[seat] = edited
        with pytest.raises(PorError) as caught:
            verify_court(recommit(ruling, calls=calls))
        assert caught.value.check_id == "lock.unlocked_parameter", (seat, extra)
    # A credential recorded in another header than the seat's profile's.
    call = JudgeCall.from_cbor(bundle.calls[1])
    calls = list(bundle.calls)
    calls[1] = call.model_copy(update={
        "credential": f"authorization: <redacted:{ANTHROPIC_ENV}>"}).to_cbor()
    with pytest.raises(PorError) as caught:
        verify_court(recommit(ruling, calls=calls))
    assert caught.value.check_id == "judgement.credential_header"


def test_a_seat_whose_credential_is_missing_is_absent_with_its_attempt(
        case_file: str, tls: Tls, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OPENAI_ENV, SECRET_OPENAI)
    monkeypatch.delenv(ANTHROPIC_ENV, raising=False)
    out = tmp_path / "ruling"
    with StandIn("openai", tls, key=SECRET_OPENAI, models=[OPENAI_MODEL],
                 answer=court_answer) as openai, \
            StandIn("anthropic", tls, key=SECRET_ANTHROPIC, models=[ANTHROPIC_MODEL],
                    answer=court_answer) as anthropic, \
            StandIn("compatible", None, key=None, models=[COMPATIBLE_MODEL],
                    answer=court_answer, script=["oversized"]) as compatible:
        court = _court(tmp_path, openai.api_base, anthropic.api_base)
        code, document = _rule(case_file, court, compatible.api_base, out, capsys)
        assert anthropic.seen == []  # nothing left the machine without its credential
    # One vote of three, quorum 2: no ruling can be made (exit 2), the record is written.
    assert code == 2 and document["status"] == "no_quorum", document
    summary = verify_court((out / "ruling.cbor").read_bytes())
    failed = {c.subject_index: (c.status, c.error_kind) for c in summary.calls
              if c.result == "error"}
    assert failed == {1: (401, "auth"), 2: (200, "invalid_response")}
    assert files_holding(tmp_path, SECRETS) == []


def test_court_routes_are_checked(case_file: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    judge_config(tmp_path, "seat-openai", "openai-chat", court=True)
    for route, check_id in [
        ({"api_base": "ftp://example.invalid"}, "court.route"),
        ({"api_base": "http://example.invalid/v1", "credential_env": "K"}, "court.route"),
        ({"api_base": "https://example.invalid", "credential_env": "not a name"},
         "court.route"),
        ({"api_base": "https://example.invalid", "api_key": "sk-x"}, "court.route"),
    ]:
        court = {"court": "por-court/1", "panel": 1, "judges": [
            {"judge": "seat-openai.json", **route}]}
        (tmp_path / "court.json").write_text(json.dumps(court))
        assert main(["court", "rule", case_file, "--court", str(tmp_path / "court.json"),
                     "--at", str(AT), "-o", str(tmp_path / "o"), "--json"]) == 1, route
        assert json.loads(capsys.readouterr().out)["error"]["id"] == check_id
