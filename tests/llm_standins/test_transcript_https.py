"""The transcript server towards an https provider, without litellm (SPEC §15.4 routes):
TLS verified against the given CA, the credential read from its variable at each
forward and sent in the profile's header, the client's own credential headers
dropped, only the redacted form recorded, an unset variable a local 401."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from provider_support import OPENAI_ENV, OPENAI_MODEL, SECRET_OPENAI, market_answer
from standins import StandIn, Tls, make_tls

from por.locked_judges.transcript import CALL_HEADER, SECRET_HEADER, Credential, TranscriptServer

BODY = json.dumps({"model": OPENAI_MODEL, "messages": [{"role": "user", "content": "q"}],
                   "temperature": 0}).encode()


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> Tls:
    return make_tls(tmp_path_factory.mktemp("tls"))


def _post(server: TranscriptServer, headers: dict[str, str]) -> tuple[int, bytes]:
    parts = urlsplit(server.api_base)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    try:
        conn.request("POST", "/v1/chat/completions", body=BODY, headers={
            "Content-Type": "application/json", SECRET_HEADER: server.secret or "",
            CALL_HEADER: "c-1", **headers})
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def test_the_credential_is_added_upstream_and_recorded_redacted(
        tls: Tls, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OPENAI_ENV, SECRET_OPENAI)
    with StandIn("openai", tls, key=SECRET_OPENAI, models=[OPENAI_MODEL],
                 answer=market_answer) as api, \
            TranscriptServer(upstream=api.api_base, credential=Credential(OPENAI_ENV),
                             ca_bundle=str(tls.ca)) as server:
        status, _ = _post(server, {"Authorization": "Bearer client-side-key",
                                   "x-api-key": "client-side-key", "X-Extra": "1"})
        (record,) = server.take("c-1")
        (seen,) = api.seen
    assert status == 200 and record.status == 200
    assert record.credential == f"authorization: <redacted:{OPENAI_ENV}>"
    headers = {k.lower(): v for k, v in seen[1].items()}
    assert headers["authorization"] == f"Bearer {SECRET_OPENAI}"
    assert not {"x-api-key", "x-extra", SECRET_HEADER.lower(), CALL_HEADER.lower()} & set(headers)
    assert SECRET_OPENAI.encode() not in record.request + record.response


def test_an_unset_variable_is_a_local_401_and_nothing_is_forwarded(
        tls: Tls, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(OPENAI_ENV, raising=False)
    with StandIn("openai", tls, key=SECRET_OPENAI, models=[OPENAI_MODEL],
                 answer=market_answer) as api, \
            TranscriptServer(upstream=api.api_base, credential=Credential(OPENAI_ENV),
                             ca_bundle=str(tls.ca)) as server:
        status, body = _post(server, {})
        (record,) = server.take("c-1")
        assert api.seen == []
    assert status == 401 and b"por_credential_missing" in body
    assert record.credential is None


def test_an_unknown_ca_is_an_unreachable_upstream(tls: Tls, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OPENAI_ENV, SECRET_OPENAI)
    other = make_tls(tmp_path)  # a CA that did not sign the stand-in's certificate
    with StandIn("openai", tls, key=SECRET_OPENAI, models=[OPENAI_MODEL],
                 answer=market_answer) as api, \
            TranscriptServer(upstream=api.api_base, credential=Credential(OPENAI_ENV),
                             ca_bundle=str(other.ca)) as server:
        status, _ = _post(server, {})
        assert api.seen == []
    assert status == 502


def test_a_bundle_that_is_no_pem_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "ca.pem"
    bad.write_text("not a certificate")
    with pytest.raises(OSError):
        TranscriptServer(upstream="https://127.0.0.1:1/v1", ca_bundle=str(bad))
