"""The transcript server on 127.0.0.1 and the litellm client through it (SPEC §15.4).

The litellm tests skip when the ``llm`` extra is absent.
"""

from __future__ import annotations

import asyncio
import http.client
import importlib.util
import json
from urllib.parse import urlsplit

import pytest
from judges_support import Sleeps, WireDouble, config, llm_manifest, run, subjects, vote_body
from setup_gate import needs

from por.locked_judges import JudgeLockError, verify_judgement
from por.locked_judges.transcript import (
    CALL_HEADER,
    MISS_STATUS,
    SECRET_HEADER,
    TranscriptServer,
    cassette_from_calls,
)
from por.locked_judges.wire import request_hash


def _post(server: TranscriptServer, body: bytes, call_id: str = "c1", *,
          as_run: bool = True, secret: str | None = None) -> tuple[int, bytes]:
    """POST as the run's client (``as_run``) or as another process (with ``secret``)."""
    parts = urlsplit(server.api_base)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port or 0, timeout=30)
    headers = {CALL_HEADER: call_id, "Content-Type": "application/json"}
    if as_run or secret is not None:
        headers[SECRET_HEADER] = (server.secret or "") if as_run else (secret or "")
    try:
        conn.request("POST", "/v1/chat/completions", body=body, headers=headers)
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def test_records_then_replays_byte_identically_and_misses_with_599() -> None:
    body = b'{"model": "m", "temperature": 0.0, "messages": []}'
    with TranscriptServer(responder=lambda b: (200, b'{"answer": 1}')) as recorder:
        assert _post(recorder, body) == (200, b'{"answer": 1}')
        [seen] = recorder.take("c1")
        assert seen.request == body and seen.status == 200
        cassette = recorder.cassette
    assert list(cassette) == [request_hash(body)]
    with TranscriptServer(cassette=cassette, replay=True) as replayer:
        # Key order and 0.0 vs 0 do not change the canonical request hash.
        same = b'{"messages":[],"temperature":0,"model":"m"}'
        assert _post(replayer, same) == (200, b'{"answer": 1}')
        status, _ = _post(replayer, b'{"model": "m", "temperature": 0.5, "messages": []}')
        assert status == MISS_STATUS


def test_cassette_from_committed_calls() -> None:
    data = run(llm_manifest(), subjects(2), WireDouble(lambda i, a: (200, vote_body())))
    calls = verify_judgement(data).calls
    cassette = cassette_from_calls(calls)
    assert set(cassette) == {c.request_hash for c in calls}


GENERATOR_PARAMS = dict(config("smollm2-135m.yaml")["parameters"])
needs_litellm = needs("llm", "litellm is not installed"
                      if importlib.util.find_spec("litellm") is None else None)


def _chat(content: str, model: str) -> bytes:
    return json.dumps({"id": "x", "object": "chat.completion", "created": 1, "model": model,
                       "choices": [{"index": 0, "finish_reason": "stop", "message": {
                           "role": "assistant", "content": content}}],
                       "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                 "total_tokens": 2}}).encode()


@needs_litellm
def test_litellm_through_the_transcript_server_records_every_attempt(
        capsys: pytest.CaptureFixture[str]) -> None:
    from por.locked_judges.client import LiteLLMTransport

    answers = iter([(503, b'{"error":"busy"}'), (429, b'{"error":"slow"}')])

    def responder(body: bytes) -> tuple[int, bytes]:
        nxt = next(answers, None)
        if nxt is not None:
            return nxt
        return 200, _chat('{"outcome": "NO", "confidence": 55}', json.loads(body)["model"])

    sleeps = Sleeps()
    with TranscriptServer(responder=responder) as server:
        data = run(llm_manifest(), subjects(2), LiteLLMTransport(server), sleep=sleeps)
    summary = verify_judgement(data)
    assert [c.error_kind for c in summary.calls] == ["server_error", "rate_limit", None, None]
    assert sleeps.delays == [1.0, 2.0]
    assert all(v.outcome == "NO" and v.confidence_bps == 5500 for v in summary.votes)
    wire = json.loads(summary.calls[-1].wire_request)
    for name in ("temperature", "top_k", "top_p", "min_p", "repeat_penalty", "seed",
                 "max_tokens"):
        assert name in wire
    assert capsys.readouterr().out == ""  # no litellm banner on stdout


@needs_litellm
def test_replay_miss_is_a_fail_closed_unavailable_judge() -> None:
    from por.locked_judges.client import LiteLLMTransport

    with TranscriptServer(cassette={}, replay=True) as server:
        summary = verify_judgement(run(llm_manifest(), subjects(1), LiteLLMTransport(server)))
    assert summary.report.failed[0].check_id == "judgement.unavailable"
    assert len(summary.calls) == 1


@needs_litellm
@pytest.mark.parametrize(("name", "value"), [
    ("drop_params", True), ("model_fallbacks", ["gpt-4"]), ("model_alias_map", {"a": "b"}),
])
def test_litellm_settings_that_degrade_silently_are_refused(
        monkeypatch: pytest.MonkeyPatch, name: str, value: object) -> None:
    from por.locked_judges.client import LiteLLMTransport, load_litellm

    monkeypatch.setattr(load_litellm(), name, value)
    with TranscriptServer(responder=lambda b: (200, b"{}")) as server, \
            pytest.raises(JudgeLockError) as info:
        run(llm_manifest(), subjects(1), LiteLLMTransport(server))
    assert info.value.check_id == "lock.forbidden_option"


@needs_litellm
def test_drop_params_environment_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from por.locked_judges.client import LiteLLMTransport

    monkeypatch.setenv("LITELLM_DROP_PARAMS", "False")  # any value: litellm reads it loosely
    with TranscriptServer(responder=lambda b: (200, b"{}")) as server, \
            pytest.raises(JudgeLockError) as info:
        asyncio.run(LiteLLMTransport(server)(llm_manifest(), 0, subjects(1)[0], [], 1))
    assert info.value.check_id == "lock.forbidden_option"


@needs_litellm
def test_a_timeout_is_recorded_with_its_wire_request_and_retried() -> None:
    import threading

    from por.locked_judges.client import LiteLLMTransport

    release = threading.Event()
    seen = []

    def responder(body: bytes) -> tuple[int, bytes]:
        seen.append(body)
        if len(seen) == 1:
            release.wait(30)  # held until the client has given up (timeout_ms 1000)
            return 200, b"{}"
        release.set()
        return 200, _chat('{"outcome": "YES", "confidence": 10}', json.loads(body)["model"])

    manifest = llm_manifest(parameters={**GENERATOR_PARAMS, "timeout_seconds": 1})
    with TranscriptServer(responder=responder) as server:
        summary = verify_judgement(run(manifest, subjects(1), LiteLLMTransport(server)))
    release.set()
    first, second = summary.calls
    assert (first.status, first.error_kind, first.response) == (0, "timeout", b"")
    assert first.wire_request == seen[0]
    assert second.result == "vote"
