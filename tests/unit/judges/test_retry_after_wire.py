"""The transcript server hands an upstream's ``Retry-After`` to the client, never to a
record (SPEC §15.4): a 429 behind it, and a header that no record holds."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import pytest

from por.locked_judges.transcript import CALL_HEADER, SECRET_HEADER, TranscriptServer


class _Busy(BaseHTTPRequestHandler):
    """An upstream that answers every POST 429 with ``Retry-After: 7``."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # stdlib's parameter name
        del format, args

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = b'{"error":{"type":"rate_limit_error"}}'
        self.send_response(429)
        self.send_header("Retry-After", "7")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def upstream() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Busy)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_retry_after_reaches_the_client_and_no_record(upstream: str) -> None:
    with TranscriptServer(upstream=upstream) as server:
        parts = urlsplit(server.api_base)
        conn = http.client.HTTPConnection(parts.hostname or "", parts.port or 0, timeout=30)
        try:
            conn.request("POST", "/v1/chat/completions", body=b'{"model":"m"}',
                         headers={CALL_HEADER: "c1", SECRET_HEADER: server.secret or "",
                                  "Content-Type": "application/json"})
            reply = conn.getresponse()
            assert reply.status == 429
            reply.read()
        finally:
            conn.close()
        (seen,) = server.take("c1")
    assert (seen.status, seen.retry_after) == (429, "7")
    assert b"Retry-After" not in seen.request + seen.response
