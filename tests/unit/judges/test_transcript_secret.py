"""The transcript server admits only the run's client and buffers at most cap + 1 bytes
(SPEC §15.4, issue 25 item 5).

Another local process that POSTs (or GETs) without the run's secret is answered
403 and is neither recorded, forwarded nor cached, so it cannot spend or spoil
an attempt (before: one POST under a guessable call id made the next attempt a
"hidden retry", a failed seat).  The secret travels in a header, never in the
recorded request body.
"""

from __future__ import annotations

import http.client
import importlib.util
import json
from urllib.parse import urlsplit

import pytest
from judges_support import llm_manifest, run, subjects
from setup_gate import needs

from por.locked_judges import verify_judgement
from por.locked_judges.records import MAX_WIRE_BYTES
from por.locked_judges.transcript import CALL_HEADER, SECRET_HEADER, TranscriptServer

needs_litellm = needs("llm", "litellm is not installed"
                      if importlib.util.find_spec("litellm") is None else None)


def _request(server: TranscriptServer, method: str, *, call_id: str = "c1",
             secret: str | None = None, body: bytes = b'{"model": "m"}') -> tuple[int, bytes]:
    parts = urlsplit(server.api_base)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port or 0, timeout=30)
    headers = {CALL_HEADER: call_id, "Content-Type": "application/json"}
    if secret is not None:
        headers[SECRET_HEADER] = secret
    try:
        conn.request(method, "/v1/chat/completions" if method == "POST" else "/v1/models",
                     body=body if method == "POST" else None, headers=headers)
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def _chat(body: bytes) -> tuple[int, bytes]:
    model = json.loads(body)["model"]
    content = json.dumps({"outcome": "YES", "confidence": 60})
    return 200, json.dumps({"id": "x", "object": "chat.completion", "created": 1,
                            "model": model, "choices": [{"index": 0, "finish_reason": "stop",
                            "message": {"role": "assistant", "content": content}}]}).encode()


def test_each_run_has_its_own_secret() -> None:
    with TranscriptServer(responder=_chat) as one, TranscriptServer(responder=_chat) as two:
        assert one.secret and two.secret and one.secret != two.secret
        assert len(one.secret) >= 40


@pytest.mark.parametrize("secret", [None, "", "guess", "x" * 43])
def test_a_call_without_the_secret_is_refused_and_leaves_no_trace(secret: str | None) -> None:
    answered: list[bytes] = []

    def responder(body: bytes) -> tuple[int, bytes]:
        answered.append(body)
        return _chat(body)

    with TranscriptServer(responder=responder) as server:
        assert _request(server, "POST", secret=secret)[0] == 403
        assert _request(server, "GET", secret=secret)[0] == 403
        assert server.take("c1") == [] and server.cassette == {} and answered == []
        status, _ = _request(server, "POST", secret=server.secret)  # the run's client
        assert status == 200 and len(server.take("c1")) == 1


def test_a_stand_in_model_may_admit_anyone() -> None:
    with TranscriptServer(responder=_chat, authenticate=False) as model:
        assert model.secret is None
        assert _request(model, "POST")[0] == 200


def test_an_upstream_answer_is_buffered_up_to_the_cap_plus_one() -> None:
    huge = b"[" * (3 << 20)
    with TranscriptServer(responder=lambda body: (200, huge), authenticate=False) as model, \
            TranscriptServer(upstream=model.api_base.removesuffix("/v1")) as server:
        status, sent = _request(server, "POST", secret=server.secret)
        [seen] = server.take("c1")
    assert status == 200 and seen.response == huge[:MAX_WIRE_BYTES] == sent
    assert model.secret is None  # and the run's secret was never sent upstream


@needs_litellm
def test_an_injected_post_cannot_knock_out_an_attempt() -> None:
    """Before: the injected POST was recorded under the attempt's (guessable) id, and
    the real call became a "hidden retry" (status 400, ``invalid_response``)."""
    from por.locked_judges.client import LiteLLMTransport

    subject = subjects(1)[0]
    with TranscriptServer(responder=_chat) as server:
        for attempt in (1, 2):
            status, _ = _request(server, "POST", call_id=f"{subject.bundle_hash.hex()}-{attempt}")
            assert status == 403
        data = run(llm_manifest(), [subject], LiteLLMTransport(server))
        secret = server.secret
    summary = verify_judgement(data)
    assert [(c.status, c.result) for c in summary.calls] == [(200, "vote")]
    assert secret is not None and secret.encode() not in data  # never committed
    assert SECRET_HEADER.encode() not in data
